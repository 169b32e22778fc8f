/**
 * The agents one account may hold (probe10 R9: one account registered 300 agents in 1.3 s, and 8 free
 * accounts started 32,768 agents on one benchmark, its `max_ranked_agents`, so every newcomer was
 * refused `benchmark_full`). An account holds at most `agentQuota.perAccount` agents, and at most
 * `agentQuota.perBenchmark` of them start runs on one benchmark; other accounts are unaffected.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_QUOTA, type PlatformOptions } from "../src/index.js";
import { cities, openTemp, rejection, type Harness } from "./helpers.js";

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";

async function withPlatform(
  agentQuota: PlatformOptions["agentQuota"],
  test: (platform: Harness) => Promise<void>,
): Promise<void> {
  const platform = await openTemp(agentQuota !== undefined ? { agentQuota } : {});
  try {
    await test(platform);
  } finally {
    await platform.close();
  }
}

async function publish(platform: Harness, tag: string): Promise<string> {
  const ds = await platform.createDataset(cities(2, tag));
  return (
    await platform.publish(ds.dataset_id, { title: tag, prompt_template: TEMPLATE, grader_type: "exact" })
  ).slug;
}

async function account(platform: Harness, name: string) {
  return platform.real.authenticate((await platform.real.createAccount({ name })).api_key);
}

describe("agents per account", () => {
  it("the default is 20 agents per account, 3 of them per benchmark", async () => {
    expect(DEFAULT_AGENT_QUOTA).toEqual({ perAccount: 20, perBenchmark: 3 });
    await withPlatform(undefined, async (platform) => {
      const p = await account(platform, "many");
      for (let i = 0; i < 20; i++) await platform.real.registerAgent(p, `many-${i}`);
      const e = await rejection(platform.real.registerAgent(p, "many-20"));
      expect(e.code).toBe("agent_quota_exceeded");
      expect(e.details).toEqual({ limit: "agents_per_account", max_agents: 20 });
    });
  });

  it("a new agent past the cap is refused (register or first start), nothing is left of it; updates and other accounts pass", async () => {
    await withPlatform({ perAccount: 3, perBenchmark: 3 }, async (platform) => {
      const slug = await publish(platform, "cap");
      const p = await account(platform, "capper");
      for (const id of ["c1", "c2", "c3"]) await platform.real.registerAgent(p, id);
      const e = await rejection(platform.real.registerAgent(p, "c4"));
      expect(e.code).toBe("agent_quota_exceeded");
      expect(e.details).toEqual({ limit: "agents_per_account", max_agents: 3 });
      expect(e.message).toMatch(/agents_per_account/);
      expect(await platform.real.getAgent("c4")).toBeNull();
      // a start registering a new agent is refused the same way, and registers nothing
      const s = await rejection(platform.real.startRun(p, slug, "c5"));
      expect(s).toMatchObject({ code: "agent_quota_exceeded", details: { limit: "agents_per_account" } });
      expect(await platform.real.getAgent("c5")).toBeNull();
      // the account's own agents still change and run
      await platform.real.registerAgent(p, "c1", { is_author_agent: false });
      expect((await platform.real.startRun(p, slug, "c1")).run.attempt).toBe(1);
      // another account is unaffected
      const q = await account(platform, "other");
      for (const id of ["o1", "o2", "o3"]) await platform.real.registerAgent(q, id);
      expect((await platform.real.myAgents(q)).map((a) => a.agent_id)).toEqual(["o1", "o2", "o3"]);
    });
  });

  it("at most perBenchmark agents of one account start runs on one benchmark; its agents run elsewhere, others enter", async () => {
    await withPlatform({ perAccount: 10, perBenchmark: 2 }, async (platform) => {
      const slug = await publish(platform, "bound");
      const other = await publish(platform, "bound-other");
      const p = await account(platform, "filler");
      for (const id of ["f1", "f2", "f3"]) await platform.real.registerAgent(p, id);
      const r1 = await platform.real.startRun(p, slug, "f1");
      await platform.real.startRun(p, slug, "f2");
      const e = await rejection(platform.real.startRun(p, slug, "f3"));
      expect(e.code).toBe("agent_quota_exceeded");
      expect(e.details).toEqual({ limit: "agents_per_account_per_benchmark", slug, max_agents: 2 });
      expect(e.message).toMatch(/agents_per_account_per_benchmark/);
      // a brand-new agent is refused before it is registered
      expect((await rejection(platform.real.startRun(p, slug, "f9"))).code).toBe("agent_quota_exceeded");
      expect(await platform.real.getAgent("f9")).toBeNull();
      // an agent already on the benchmark starts again; the third agent runs on another benchmark
      await platform.real.finalize(p, r1.run.id);
      expect((await platform.real.startRun(p, slug, "f1")).run.attempt).toBe(2);
      expect((await platform.real.startRun(p, other, "f3")).run.attempt).toBe(1);
      // another account enters the benchmark
      const q = await account(platform, "newcomer");
      expect((await platform.real.startRun(q, slug, "n1")).run.attempt).toBe(1);
      expect(await platform.ctx.store.runs.agentCount(slug)).toBe(3);
    });
  });

  // probe19 A-F11: the agents of concurrent starts refused by the check under the start's locks were left
  // registered (each agent was written in its own transaction before the start's)
  it("concurrent starts naming new agents past the per-benchmark bound: the refused ones register nothing", async () => {
    await withPlatform({ perAccount: 20, perBenchmark: 2 }, async (platform) => {
      const slug = await publish(platform, "race");
      const p = await account(platform, "racer");
      const ids = Array.from({ length: 8 }, (_, i) => `race-${i}`);
      const outcomes = await Promise.allSettled(ids.map((id) => platform.real.startRun(p, slug, id)));
      const started = outcomes.filter((o) => o.status === "fulfilled");
      expect(started).toHaveLength(2);
      for (const o of outcomes)
        if (o.status === "rejected") expect(o.reason).toMatchObject({ code: "agent_quota_exceeded" });
      // exactly the agents that started runs exist
      const mine = (await platform.real.myAgents(p)).map((a) => a.agent_id).sort();
      const ran = started.map(
        (o) => (o as PromiseFulfilledResult<{ run: { agent_id: string } }>).value.run.agent_id,
      );
      expect(mine).toEqual(ran.sort());
    });
  });

  it("null lifts both bounds; a quota that is not an integer >= 1 is refused", async () => {
    await withPlatform(null, async (platform) => {
      const p = await account(platform, "free");
      for (let i = 0; i < 22; i++) await platform.real.registerAgent(p, `free-${i}`);
      expect(await platform.real.myAgents(p)).toHaveLength(22);
    });
    for (const bad of [0, 1.5])
      await expect(openTemp({ agentQuota: { perAccount: bad, perBenchmark: 3 } })).rejects.toMatchObject({
        code: "invalid_option",
        details: { field: "agentQuota.perAccount" },
      });
  });
});
