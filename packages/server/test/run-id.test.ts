/**
 * probe29 A-F9: run ids were `run-` + keccak256(slug \n agent \n attempt)[0..16 hex]: a stranger
 * computed them for a `buyer_only` benchmark and a public agent id, and `GET /benchmarks/runs/:id`
 * answered 403 `run_owner_only` for an attempt that exists and 404 for one that does not (the receipt
 * route likewise, anonymously: `receipt_withheld` against `unknown_run`): who competed, and how often.
 * The ids are keyed with the store's secret now: a computed id names no run.
 */
import { keccak256Hex } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import { call, publishCities, register, registerAndStartRun, useLive } from "./helpers.js";

const live = useLive();

const unkeyed = (slug: string, agent: string, attempt: number) =>
  `run-${keccak256Hex(`bench-bounty.run:${slug}\n${agent}\n${attempt}`).slice(2, 18)}`;

describe("a stranger cannot compute who competed on a buyer_only benchmark (probe29 A-F9)", () => {
  it("the computed id of an attempt that exists answers 404 unknown_run, as one that does not", async () => {
    const { slug } = await publishCities(live.url, 3, "runid", { leaderboard_visibility: "buyer_only" });
    const { agent, start } = await registerAndStartRun(live.url, slug, "comp-runid");
    expect(start.status).toBe(201);
    const runId = start.json.run.id as string;
    expect(runId).not.toBe(unkeyed(slug, agent.agent_id, 1));
    const stranger = await register(live.url, "stranger-runid");
    for (const attempt of [1, 2]) {
      const id = unkeyed(slug, agent.agent_id, attempt);
      const r = await call(live.url, "GET", `/api/v1/benchmarks/runs/${id}`, { key: stranger.key });
      expect(r.status).toBe(404);
      expect(r.json.error.code).toBe("unknown_run");
      const receipt = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/runs/${id}/receipt`);
      expect(receipt.status).toBe(404);
      expect(receipt.json.error.code).toBe("unknown_run");
    }
    // the owner reads the run by the id it was given
    const mine = await call(live.url, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: agent.key });
    expect(mine.status).toBe(200);
  });
});
