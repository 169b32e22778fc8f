/**
 * Publish refusals that told a stranger too much, or named the wrong rule (probe29):
 * - A-F8: with a known `seed` the salts (SPEC 3) are derivable, so the one-benchmark-per-root refusal
 *   ("benchmark <slug> already commits to this test set") confirmed a stranger's guess of a seeded
 *   benchmark's rows, private labels included. A network client's seed is the operator's only
 *   (`PublishHow.seedFromOperatorOnly`), and the refusal names the benchmark to its own author only.
 * - A-F10: publishes of one dataset racing for its default slug: the losers were told the slug was
 *   taken ("choose another with the slug option"), where the rule refusing them is one benchmark per
 *   dataset.
 */
import { afterEach, describe, expect, it } from "vitest";
import { planPublication, type TestSetPlanner } from "../src/publish/plan.js";
import { cities, cleanup, CITIES_PUBLISH, openTemp, rejection } from "./helpers.js";

afterEach(cleanup);

describe("a seeded test set is no oracle across accounts (probe29 A-F8)", () => {
  it("a network client's seed is the operator's only: 403 operator_only naming seed, nothing published", async () => {
    const h = await openTemp({});
    const p = h.real;
    const ann = await p.authenticate((await p.createAccount({ name: "ann-seed" })).api_key);
    const ds = await p.createDataset(ann, cities(3, "seeded"));
    const refused = await rejection(
      p.publish(ann, ds.dataset_id, { ...CITIES_PUBLISH, seed: "s1" }, { seedFromOperatorOnly: true }),
    );
    expect(refused).toMatchObject({ code: "forbidden", details: { rule: "operator_only", field: "seed" } });
    expect(refused.message).toMatch(/^seed /);
    expect(await p.listBenchmarks()).toHaveLength(0);
    // the operator may; and without a seed anyone may
    const opDs = await h.createDataset(cities(3, "seeded-op"));
    const op = await p.publish(
      h.op,
      opDs.dataset_id,
      { ...CITIES_PUBLISH, seed: "s1" },
      { seedFromOperatorOnly: true },
    );
    expect(op.status).toBe("published");
    const plain = await p.publish(ann, ds.dataset_id, CITIES_PUBLISH, { seedFromOperatorOnly: true });
    expect(plain.status).toBe("published");
  });

  it("the same rows and seed: another account's benchmark is neither named nor confirmed; the author's own is named", async () => {
    const h = await openTemp({});
    const p = h.real;
    const ann = await p.authenticate((await p.createAccount({ name: "ann-root" })).api_key);
    const bob = await p.authenticate((await p.createAccount({ name: "bob-root" })).api_key);
    const rows = cities(3, "root");
    const first = await p.publish(ann, (await p.createDataset(ann, rows)).dataset_id, {
      ...CITIES_PUBLISH,
      slug: "secret-root",
      seed: "s1",
    });
    // a stranger's right guess (the same rows and seed)
    const guess = await rejection(
      p.publish(bob, (await p.createDataset(bob, rows)).dataset_id, { ...CITIES_PUBLISH, seed: "s1" }),
    );
    expect(guess).toMatchObject({ code: "benchmark_exists", details: { field: "seed" } });
    expect(guess.details).not.toHaveProperty("existing_slug");
    expect(guess.message).not.toContain(first.slug);
    expect(guess.message).toMatch(/^a published benchmark already commits to this test set/);
    // the author's own second upload of the rows (another name: another dataset) is told which one
    const again = await rejection(
      p.publish(ann, (await p.createDataset(ann, { ...rows, name: "root-again" })).dataset_id, {
        ...CITIES_PUBLISH,
        seed: "s1",
      }),
    );
    expect(again).toMatchObject({
      code: "benchmark_exists",
      details: { existing_slug: first.slug, field: "seed" },
    });
    expect(again.message).toContain(first.slug);
  });
});

describe("racing publishes of one dataset are refused by the one-benchmark-per-dataset rule (probe29 A-F10)", () => {
  it("the publish that lost the default slug to its twin: benchmark_exists naming the dataset's benchmark, not slug_conflict", async () => {
    const h = await openTemp({});
    const p = h.real;
    const ann = await p.authenticate((await p.createAccount({ name: "ann-race" })).api_key);
    const ds = await p.createDataset(ann, cities(3, "race"));
    let winner: string | undefined;
    // the loser's planning ends after its twin has published (both passed the first checks)
    const planner: TestSetPlanner = async (job) => {
      winner = (await p.publish(ann, ds.dataset_id, CITIES_PUBLISH)).slug;
      return planPublication(job);
    };
    const lost = await rejection(p.publish(ann, ds.dataset_id, CITIES_PUBLISH, { planner }));
    expect(winner).toBeDefined();
    expect(lost).toMatchObject({ code: "benchmark_exists", details: { existing_slug: winner } });
    expect(lost.message).toMatch(/one benchmark per dataset/);
    expect(await p.listBenchmarks()).toHaveLength(1);
  });
});
