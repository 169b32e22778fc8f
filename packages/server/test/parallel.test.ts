/**
 * 50 agents in parallel over HTTP: every answer stored exactly once (none lost, none doubled), and
 * never two in-progress runs for one agent even when each agent fires three starts at once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, citiesAnswer, publishCities, register, useLive } from "./helpers.js";

const live = useLive({
  limits: { rateBurst: 10_000, accountBurst: 100, accountNetworkBurst: 1_000, accountGlobalBurst: 1_000 },
});
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 20, "parallel")).slug;
});

describe("50 agents in parallel", { timeout: 180_000 }, () => {
  it("no lost or doubled answer, one in-progress run per agent under racing starts", async () => {
    const u = live.url;
    const agents = await Promise.all(Array.from({ length: 50 }, (_, i) => register(u, `par-${i}`)));
    const outcomes = await Promise.all(
      agents.map(async (a) => {
        const starts = await Promise.all(
          [0, 1, 2].map(() => call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: a.key })),
        );
        const ok = starts.filter((s) => s.status === 201);
        const refused = starts.filter((s) => s.status === 409);
        expect(ok.length, a.agent_id).toBe(1);
        expect(refused.every((r) => r.json.error.code === "run_in_progress")).toBe(true);
        const { run, tasks } = ok[0]!.json;
        // Answers in 4 overlapping batches, each sent twice at once (idempotent upserts).
        const answers = tasks.map((t: any) => ({ ordinal: t.ordinal, answer_text: citiesAnswer(t.prompt) }));
        const batches = [0, 1, 2, 3].map((k) =>
          answers.filter((_: unknown, i: number) => i % 4 === k || i % 4 === (k + 1) % 4),
        );
        const subs = await Promise.all(
          batches
            .flatMap((b) => [b, b])
            .map((b) =>
              call(u, "POST", `/api/v1/benchmarks/runs/${run.id}/submissions`, {
                key: a.key,
                body: { answers: b },
              }),
            ),
        );
        expect(subs.every((s) => s.status === 200)).toBe(true);
        const fin = await call(u, "POST", `/api/v1/benchmarks/runs/${run.id}/finalize`, { key: a.key });
        expect(fin.status).toBe(200);
        return { a, run, fin: fin.json, count: tasks.length };
      }),
    );
    for (const o of outcomes) {
      expect(o.fin.score_public).toBe("1.0000");
      expect(o.fin.counts.answered).toBe(o.count);
      const p = await live.platform.authenticate(o.a.key);
      const stored = await live.platform.runAnswers(p, o.run.id);
      expect(stored.size).toBe(o.count);
    }
    const board = await call(u, "GET", `/api/v1/benchmarks/${slug}/leaderboard`);
    expect(board.json.rows).toHaveLength(50);
    expect(new Set(board.json.rows.map((r: any) => r.agent_id)).size).toBe(50);
  });
});
