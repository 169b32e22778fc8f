/**
 * Two `bench-bounty serve` processes on one PostgreSQL database (an operator's load-balanced
 * deployment): the same agents' starts and finalizes raced through both give exactly one run in
 * progress per agent and exactly one finalize per run, and both processes serve the same board.
 * PostgreSQL only (one `serve` per SQLite store).
 */
import { TEST_ENGINE } from "@bench-bounty/platform/testing";
import { afterAll, describe, expect, it } from "vitest";
import { call, citiesAnswer, publishCities, register } from "./helpers.js";
import { cleanupServes, freshStore, startServe as startServeOn, tempDir } from "./serve-process.js";

/**
 * Starts `serve` on `databaseUrl` (its own empty `--store` directory: nothing local is shared);
 * `banner` is the database line of its banner.
 */
async function startServe(databaseUrl: string): Promise<{ url: string; banner: string }> {
  const s = await startServeOn(
    { dir: tempDir("bb-multi-"), databaseUrl },
    { env: { BENCH_BOUNTY_OPERATOR_KEY: "bb_op_multi_key_0123456789abcdef0123456789" } },
  );
  return { url: s.url, banner: /\n {2}database: ([^\n]+)\n/.exec(s.output())![1]! };
}

afterAll(cleanupServes);

describe.runIf(TEST_ENGINE === "postgres")(
  "two serve processes on one PostgreSQL database",
  { timeout: 120_000 },
  () => {
    it("race starts and finalizes: one run in progress per agent, one finalize per run, one board", async () => {
      const databaseUrl = (await freshStore()).databaseUrl!;
      const [a, b] = await Promise.all([startServe(databaseUrl), startServe(databaseUrl)]);
      // the banner names the database without its password
      expect(a.banner).toMatch(/^postgresql 127\.0\.0\.1:5432\//);
      expect(a.banner).not.toContain("postgres:postgres");
      const { slug } = await publishCities(a.url, 6, "multi");
      const agents = await Promise.all(Array.from({ length: 5 }, (_, i) => register(b.url, `multi-${i}`)));
      for (const agent of agents) {
        const starts = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            call(i % 2 ? a.url : b.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: agent.key }),
          ),
        );
        const ok = starts.filter((s) => s.status === 201);
        expect(ok).toHaveLength(1);
        for (const s of starts.filter((x) => x.status !== 201)) {
          expect(s.status).toBe(409);
          expect(s.json.error.code).toBe("run_in_progress");
        }
        const run = ok[0]!.json;
        const answers = run.tasks.map((t: any) => ({
          ordinal: t.ordinal,
          answer_text: citiesAnswer(t.prompt),
        }));
        const subs = await Promise.all(
          [a, b, a].map((s) =>
            call(s.url, "POST", `/api/v1/benchmarks/runs/${run.run.id}/submissions`, {
              key: agent.key,
              body: { answers },
            }),
          ),
        );
        expect(subs.map((s) => s.status)).toEqual([200, 200, 200]);
        const fins = await Promise.all(
          [a, b, a, b].map((s) =>
            call(s.url, "POST", `/api/v1/benchmarks/runs/${run.run.id}/finalize`, { key: agent.key }),
          ),
        );
        expect(fins.filter((f) => f.status === 200)).toHaveLength(1);
        for (const f of fins.filter((x) => x.status !== 200))
          expect(f.json.error.code).toBe("already_finalized");
        const mine = await call(b.url, "GET", "/api/v1/benchmarks/runs/mine", { key: agent.key });
        expect(mine.json.runs ?? mine.json).toHaveLength(1);
      }
      const boardA = await call(a.url, "GET", `/api/v1/benchmarks/${slug}/leaderboard`);
      const boardB = await call(b.url, "GET", `/api/v1/benchmarks/${slug}/leaderboard`);
      expect(boardA.json.rows).toHaveLength(5);
      expect(boardB.json.rows).toEqual(boardA.json.rows);
    });
  },
);
