import { afterEach, describe, expect, it } from "vitest";
import { createDoorApp } from "../src/server.js";
import { cities, cleanup, manualClock, openTemp, promptAgent } from "./helpers.js";

afterEach(cleanup);

async function fixture() {
  const clock = manualClock();
  const platform = await openTemp({ clock: clock.now, publicBaseUrl: "https://door.example/" });
  const ds = await platform.createDataset(cities(6));
  const { slug } = await platform.publish(ds.dataset_id, {
    title: "Cities",
    prompt_template: "Q {payload.city} #{payload.index}",
    grader_type: "exact",
  });
  const app = createDoorApp(platform.real);
  return { platform, clock, slug, app };
}

const json = async (r: Response | Promise<Response>): Promise<any> => (await r).json();

describe("door (HTTP)", () => {
  it("serves the list, the detail without gold, the commitment and the leaderboard", async () => {
    const { platform, clock, slug, app } = await fixture();
    const run = (await platform.startRun(slug, "alice")).run.id;
    await platform.submit(
      run,
      (await platform.runTasks(run)).map((t) => ({ ordinal: t.ordinal, answer_text: promptAgent(t.prompt) })),
    );
    clock.advance(2_000);
    const f = await platform.finalize(run);

    const list = await json(app.request("/api/v1/benchmarks"));
    expect(list.benchmarks).toEqual([
      expect.objectContaining({ slug, status: "published", open: true, public_tasks: 3, private_tasks: 3 }),
    ]);

    const detailRes = await app.request(`/api/v1/benchmarks/${slug}`);
    expect(detailRes.headers.get("content-type")).toMatch(/application\/json/);
    const text = await detailRes.text();
    for (const t of await platform.testSet(slug)) {
      expect(text).not.toContain(t.salt);
      expect(text).not.toContain(JSON.stringify((t.gold as { value: string }).value));
    }
    const detail = JSON.parse(text);
    expect(detail).toMatchObject({
      slug,
      grader_type: "exact",
      speed_weight: "0.3",
      commitment: { leaf_count: 6 },
      prize: null,
    });
    expect(Object.keys(detail.grader_types).sort()).toEqual([
      "contains_all",
      "exact",
      "json_fields",
      "numeric",
    ]);
    expect(detail.how_to_compete).toContain(slug);

    const lb = await json(app.request(`/api/v1/benchmarks/${slug}/leaderboard`));
    // SPEC 6.1: the public board while open, no private figure on it
    expect(lb.board).toBe("public");
    expect(lb.rows).toEqual([
      expect.objectContaining({
        rank: 1,
        agent_id: "alice",
        score_composite_public: f.score_composite_public,
      }),
    ]);
    expect(lb.rows[0]).not.toHaveProperty("score_composite");
    expect(lb.rows[0]).not.toHaveProperty("rank_accuracy");

    // receipts are withheld while open, served once closed
    const withheld = await app.request(`/api/v1/benchmarks/${slug}/runs/${run}/receipt`);
    expect(withheld.status).toBe(404);
    expect((await json(withheld)).error).toMatchObject({
      code: "receipt_withheld",
      details: { reason: "withheld_live_contest" },
    });
    await platform.closeBenchmark(slug);
    const receipt = await json(app.request(`/api/v1/benchmarks/${slug}/runs/${run}/receipt`));
    expect(receipt.receipt_hash).toBe(f.receipt_hash);
    const final = await json(app.request(`/api/v1/benchmarks/${slug}/leaderboard`));
    expect(final.board).toBe("final");
    expect(final.rows[0].receipt_url).toBe(
      `https://door.example/api/v1/benchmarks/${slug}/runs/${run}/receipt`,
    );

    const commitment = await json(app.request(`/api/v1/benchmarks/${slug}/commitment`));
    expect(commitment).toMatchObject({
      commit_root: (await platform.getBenchmark(slug)).commit_root,
      leaf_count: 6,
      commitment_anchor: null,
    });
  });

  it("answers machine-readable 404s", async () => {
    const { platform, slug, app } = await fixture();
    const r1 = await app.request("/api/v1/benchmarks/nope");
    expect(r1.status).toBe(404);
    expect((await json(r1)).error.code).toBe("unknown_benchmark");
    const run = (await platform.startRun(slug, "bob")).run.id;
    const r2 = await app.request(`/api/v1/benchmarks/${slug}/runs/${run}/receipt`);
    expect(r2.status).toBe(404); // in progress: no receipt yet
    const r3 = await app.request(`/api/v1/benchmarks/${slug}/award-evidence`);
    expect(r3.status).toBe(404);
    expect(await json(r3)).toEqual({
      error: { code: "award_evidence_unavailable", reason: "no_commitment", message: expect.any(String) },
    });
    const r4 = await app.request("/api/v2/nothing");
    expect(r4.status).toBe(404);
    expect((await json(r4)).error.code).toBe("not_found");
  });
});
