/**
 * Both REST walks of the seeds, done with plain fetch as a stranger would: the author publishes from
 * a dataset; a competitor registers, reads, competes and finds the run on the board.
 */
import { describe, expect, it } from "vitest";
import {
  call,
  citiesAnswer,
  citiesDataset,
  CITIES_PUBLISH,
  publishCities,
  register,
  useLive,
} from "./helpers.js";

const live = useLive();
describe("the author's walk", () => {
  it("formats, validate (row-numbered, nothing stored), upload, publish (201 + disclosure), 409s", async () => {
    const u = live.url;
    const author = await register(u, "author");
    const formats = await call(u, "GET", "/api/v1/datasets/formats");
    expect(formats.status).toBe(200);
    expect(Object.keys(formats.json.row)).toContain("payload");
    // every publish option the server takes is listed, with its values; the OpenAPI document types
    // the enumerated ones as enums (probe of issue 15: leaderboard_visibility was missing / a string)
    const doc = await call(u, "GET", "/api/v1/openapi.json");
    const publish = doc.json.components.schemas.PublishBody.properties;
    expect(Object.keys(formats.json.publish).sort()).toEqual(Object.keys(publish).sort());
    expect(formats.json.publish.leaderboard_visibility).toMatch(/^one of public \| buyer_only/);
    expect(publish.leaderboard_visibility.enum).toEqual(["public", "buyer_only"]);
    expect(publish.grader_type.enum).toEqual(["exact", "numeric", "contains_all", "json_fields"]);
    for (const [name, s] of Object.entries(publish) as [string, { description?: string }][])
      if (name !== "title") expect(s.description, name).toBeTruthy();
    expect(formats.json.examples.length).toBeGreaterThan(0);

    const bad = citiesDataset(4, "bad");
    (bad.rows[2] as any).decision_ts = "yesterday";
    const anonymous = await call(u, "POST", "/api/v1/datasets/validate", { body: bad });
    expect(anonymous.status).toBe(401); // a dry run is an author's, keyed (probe4 validate-cpu)
    const v = await call(u, "POST", "/api/v1/datasets/validate", { key: author.key, body: bad });
    expect(v.status).toBe(200);
    expect(v.json.ok).toBe(false);
    expect(v.json.errors[0]).toMatchObject({ row_index: 2, field: "decision_ts" });
    const refused = await call(u, "POST", "/api/v1/datasets", { key: author.key, body: bad });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe("invalid_dataset");
    expect(refused.json.error.details.row_index).toBe(2);

    const ds = await call(u, "POST", "/api/v1/datasets", { key: author.key, body: citiesDataset(6, "walk") });
    expect(ds.status).toBe(201);
    expect(ds.json.content_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const b = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: author.key,
      body: CITIES_PUBLISH,
    });
    expect(b.status).toBe(201);
    expect(b.json.status).toBe("published");
    expect(b.json.disclosure).toMatch(/LABELS/);
    expect(b.json.how_to_compete).toContain(`/api/v1/benchmarks/${b.json.slug}/corpus`);
    const again = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: author.key,
      body: CITIES_PUBLISH,
    });
    expect(again.status).toBe(409);
    expect(again.json.error.details.existing_slug).toBe(b.json.slug);

    const ds2 = await call(u, "POST", "/api/v1/datasets", {
      key: author.key,
      body: citiesDataset(5, "walk2"),
    });
    const taken = await call(u, "POST", `/api/v1/datasets/${ds2.json.dataset_id}/benchmark`, {
      key: author.key,
      body: { ...CITIES_PUBLISH, slug: b.json.slug },
    });
    expect(taken.status).toBe(409);
    expect(taken.json.error.code).toBe("slug_conflict");
    const list = await call(u, "GET", "/api/v1/benchmarks");
    expect(list.json.benchmarks.map((x: any) => x.slug)).toContain(b.json.slug);
  });
});

describe("the competitor's walk", () => {
  it("list, detail, corpus, start, submit, finalize, runs/mine, leaderboard, commitment, receipt, door", async () => {
    const u = live.url;
    const { slug } = await publishCities(u, 8, "compete");
    const me = await register(u, "stranger");

    const list = await call(u, "GET", "/api/v1/benchmarks");
    expect(list.status).toBe(200);
    const item = list.json.benchmarks.find((x: any) => x.slug === slug);
    expect(item.prize).toBe("--");

    const detail = await call(u, "GET", `/api/v1/benchmarks/${slug}`);
    expect(detail.status).toBe(200);
    expect(detail.json.how_to_compete).toMatch(/^[\x20-\x7e\n]*$/);
    expect(detail.json.how_to_compete).toContain(`${u}/api/v1/benchmarks/${slug}/runs`);
    expect(detail.json.grader_types.exact).toBeDefined();
    expect(detail.json.speed_weight).toBe("0.3");
    expect(detail.json.time_budget_seconds).toBe(600);

    expect((await call(u, "GET", `/api/v1/benchmarks/${slug}/corpus`)).status).toBe(401);
    const corpus = await call(u, "GET", `/api/v1/benchmarks/${slug}/corpus`, { key: me.key });
    expect(corpus.status).toBe(200);
    expect(corpus.json.documents).toEqual([]);
    expect(corpus.json.note).toMatch(/prompt/);

    const start = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key });
    expect(start.status).toBe(201);
    const runId = start.json.run.id as string;
    expect(start.json.run.clock_note).toMatch(/Wall clock/);
    expect(start.json.tasks.length).toBe(8);
    for (const t of start.json.tasks)
      expect(Object.keys(t).sort()).toEqual(["grader_type", "ordinal", "prompt", "visibility"]);
    const second = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key });
    expect(second.status).toBe(409);
    expect(second.json.error.code).toBe("run_in_progress");

    const answers = start.json.tasks.map((t: any) => ({
      ordinal: t.ordinal,
      answer_text: citiesAnswer(t.prompt),
    }));
    const stale = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: me.key,
      body: { answers: [{ ordinal: 99, answer_text: "x" }] },
    });
    expect(stale.status).toBe(422);
    expect(stale.json.error.details.errors[0]).toMatchObject({ ordinal: 99, code: "unknown_ordinal" });
    const empty = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: me.key,
      body: { answers: [{ ordinal: 0, answer_text: "  " }] },
    });
    expect(empty.status).toBe(422);
    expect(empty.json.error.details.errors[0].code).toBe("empty_answer");
    for (let i = 0; i < 2; i++) {
      const s = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
        key: me.key,
        body: { answers },
      });
      expect(s.status).toBe(200);
    }
    const fin = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: me.key });
    expect(fin.status).toBe(200);
    expect(fin.json.score_public).toBe("1.0000");
    expect(fin.json.attempts_remaining).toBe(1);
    expect(fin.json.per_task).toBeUndefined();
    const fin2 = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: me.key });
    expect(fin2.status).toBe(409);
    expect(fin2.json.error.code).toBe("already_finalized");

    const mine = await call(u, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
    expect(mine.status).toBe(200);
    expect(mine.json.runs.map((r: any) => r.run_id)).toEqual([runId]);
    const board = await call(u, "GET", `/api/v1/benchmarks/${slug}/leaderboard`);
    expect(board.status).toBe(200);
    expect(board.json.rows.map((r: any) => r.run_id)).toEqual([runId]);
    const commitment = await call(u, "GET", `/api/v1/benchmarks/${slug}/commitment`);
    expect(commitment.json.commit_root).toMatch(/^0x[0-9a-f]{64}$/);
    expect(commitment.json.leaf_count).toBe(8);
    const receipt = await call(u, "GET", `/api/v1/benchmarks/${slug}/runs/${runId}/receipt`);
    expect(receipt.status).toBe(404);
    expect(receipt.json.error.code).toBe("receipt_withheld");
    const door = await call(u, "GET", `/api/v1/benchmarks/${slug}/award-evidence`);
    expect(door.status).toBe(404);
    expect(door.json.error.reason).toBe("no_commitment");
  });
});
