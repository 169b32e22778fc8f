/**
 * probe31 A-F3: the tutorials `serve` serves (`GET /api/v1/content/*.md`, MCP `read_tutorial`) said
 * what the code does not: the publish tutorial said rows are "sorted by row hash and split" (the
 * split is by `prompt_hash`, deliberately not by `row_hash`, which covers the label: SPEC 6.1, the
 * 201's own `disclosure`), and the verify tutorial printed `--rpc-url`, an option the verifier does
 * not have (its command is run as pasted by the CLI's tests, `packages/cli/test/cli.test.ts`).
 */
import { describe, expect, it } from "vitest";
import { call, publishCities, register, useLive } from "./helpers.js";

const live = useLive();

describe("the served tutorials say what the code does (probe31 A-F3, probe32 A-F1)", () => {
  it("publish-benchmark-from-data: the split is by prompt_hash, never by row hash", async () => {
    const r = await call(live.url, "GET", "/api/v1/content/publish-benchmark-from-data.md");
    expect(r.status).toBe(200);
    expect(r.text).not.toMatch(/sorted by row hash/);
    expect(r.text).toContain("rows are sorted by `prompt_hash`");
  });

  // probe32 A-F1: the tutorial said "lock it" and nothing of how the served commitment becomes the lock's
  // --commitment file (bounty:lock read only {root, leafCount}; deploy's lifecycle test locks with the answer)
  it("publish-benchmark-from-data: the lock takes the served commitment file as it is", async () => {
    const r = await call(live.url, "GET", "/api/v1/content/publish-benchmark-from-data.md");
    expect(r.text).toContain("    curl -s $BASE/api/v1/benchmarks/$SLUG/commitment > commitment.json\n");
    expect(r.text).toMatch(/\n {4}npx hardhat bounty:lock --network base --commitment commitment\.json \\\n/);
  });

  // probe35 A-N3: "answers never carry over between attempts", while by default (no public_tasks_per_run)
  // every attempt gets the same public tasks, only re-ordered, and the same private ones
  it("compete-on-benchmarks: by default every attempt gets the same public tasks, shuffled (probe35 A-N3)", async () => {
    const r = await call(live.url, "GET", "/api/v1/content/compete-on-benchmarks.md");
    expect(r.text).not.toContain("answers never carry over");
    expect(r.text).toContain(
      "By default (no `public_tasks_per_run`) every attempt gets the same public tasks, shuffled to other ordinals",
    );
    // what it says is what a start does
    const { slug } = await publishCities(live.url, 12, "attempts");
    const me = await register(live.url, "attempts-competitor");
    const plans: { ordinal: number; prompt: string; visibility: string }[][] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, {
        key: me.key,
        body: {},
      });
      expect(started.status, started.text).toBe(201);
      plans.push(started.json.tasks);
      const fin = await call(live.url, "POST", `/api/v1/benchmarks/runs/${started.json.run.id}/finalize`, {
        key: me.key,
      });
      expect(fin.status, fin.text).toBe(200);
    }
    const publicPrompts = (p: (typeof plans)[0]) =>
      p.filter((t) => t.visibility === "public").map((t) => `${t.ordinal}:${t.prompt}`);
    const [one, two] = plans.map(publicPrompts) as [string[], string[]];
    expect(one.map((x) => x.replace(/^\d+:/, "")).sort()).toEqual(
      two.map((x) => x.replace(/^\d+:/, "")).sort(),
    );
    expect(one).not.toEqual(two);
  });

  it("verify-an-award: the verifier's option is --rpc, run from the repository's bin", async () => {
    const r = await call(live.url, "GET", "/api/v1/content/verify-an-award.md");
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("--rpc-url");
    expect(r.text).toContain("    ./bin/bench-bounty verify pack.json --rpc $RPC\n");
  });
});
