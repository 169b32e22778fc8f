/**
 * Issue 13 re-probe, on the engine under test (SQLite, and PostgreSQL in the `postgres` project):
 * - an account registered with its agent is one transaction: a refused agent id or withdrawal address
 *   leaves no account behind (the name can register afterwards);
 * - account names and agent ids share one namespace: `registerAgent(name)` racing `createAccount({name})`
 *   never both succeed;
 * - text with an unpaired UTF-16 surrogate is refused at input, naming the JSON path (it was stored as
 *   U+FFFD).
 */
import { afterEach, describe, expect, it } from "vitest";
import { cities, cleanup, openTemp, rejection } from "./helpers.js";

afterEach(cleanup);

const ZERO = `0x${"0".repeat(40)}`;

describe("registering an account with its agent is all or nothing", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["a malformed agent id", { agent_id: "bad id!" }, "invalid_option"],
    ["the zero withdrawal address", { withdrawal_address: ZERO }, "invalid_withdrawal_address"],
    ["a withdrawal address that is no address", { withdrawal_address: "0x12" }, "invalid_withdrawal_address"],
    ["an agent id that is another account's name", { agent_id: "owner" }, "forbidden"],
  ])("%s leaves nothing behind; the same name registers afterwards", async (_what, agent, code) => {
    const platform = await openTemp();
    try {
      await platform.real.createAccount({ name: "owner" });
      const e = await rejection(platform.real.createAccount({ name: "half", agent }));
      expect(e.code).toBe(code);
      expect(await platform.real.ctx.store.accounts.idByName("half")).toBeNull();
      expect(await platform.real.getAgent("half")).toBeNull();
      const again = await platform.real.createAccount({ name: "half", agent: {} });
      expect(again.account.name).toBe("half");
      expect(await platform.real.getAgent("half")).toMatchObject({ owner_account_id: again.account_id });
    } finally {
      await platform.close();
    }
  });

  it("an account registered with an agent id and an address has both, in one step", async () => {
    const platform = await openTemp();
    try {
      const addr = `0x${"ab".repeat(20)}`;
      const r = await platform.real.createAccount({
        name: "carol",
        agent: { agent_id: "carol-bot", withdrawal_address: addr },
      });
      expect(await platform.real.getAgent("carol-bot")).toEqual({
        agent_id: "carol-bot",
        owner_account_id: r.account_id,
        withdrawal_address: addr,
        is_author_agent: false,
      });
    } finally {
      await platform.close();
    }
  });
});

describe("account names and agent ids are one namespace, also under a race", () => {
  it("registerAgent(name) racing createAccount({name}): never both", async () => {
    const platform = await openTemp();
    try {
      const p = platform.real;
      const mallory = await p.authenticate((await p.createAccount({ name: "mallory" })).api_key);
      const outcomes = { agent: 0, account: 0 };
      for (let i = 0; i < 20; i++) {
        const name = `carol${i}`;
        const [agent, acct] = await Promise.allSettled([
          p.registerAgent(mallory, name),
          p.createAccount({ name }),
        ]);
        expect(agent.status === "fulfilled" && acct.status === "fulfilled").toBe(false);
        const owner = (await p.getAgent(name))?.owner_account_id ?? null;
        if (acct.status === "fulfilled") {
          outcomes.account++;
          expect(agent.status === "rejected" && (agent.reason as { code?: string }).code).toBe("forbidden");
          expect(owner).toBeNull(); // the name's agent is free for its account
          const carol = await p.authenticate(acct.value.api_key);
          expect((await p.registerAgent(carol, name)).owner_account_id).toBe(acct.value.account_id);
        } else {
          outcomes.agent++;
          expect((acct.reason as { code?: string }).code).toBe("account_exists");
          expect(owner).toBe(mallory.account_id);
        }
      }
      expect(outcomes.agent + outcomes.account).toBe(20);
    } finally {
      await platform.close();
    }
  });
});

describe("a lone surrogate is refused at input, naming the JSON path", () => {
  it("in a benchmark title or description, a dataset row, an answer; nothing is stored", async () => {
    const platform = await openTemp();
    try {
      const ds = await platform.createDataset(cities(3, "surrogate"));
      for (const [over, path] of [
        [{ title: "Bad \ud800 title" }, "$.title"],
        [{ title: "ok", description: "tail \udc00" }, "$.description"],
      ] as const) {
        const e = await rejection(
          platform.publish(
            ds.dataset_id,
            Object.assign(
              {
                title: "t",
                prompt_template: "Q {payload.city} #{payload.index}?",
                grader_type: "exact" as const,
              },
              over,
            ),
          ),
        );
        expect(e.code).toBe("invalid_option");
        expect(e.details).toMatchObject({ path, reason: "lone_surrogate" });
      }
      expect(await platform.listBenchmarks()).toEqual([]);

      const rows = cities(3, "rows").rows as Record<string, unknown>[];
      rows[1] = { ...rows[1], payload: { city: "X\ud83d", index: 1 } };
      const e = await rejection(platform.createDataset({ name: "rows", rows } as never));
      expect(e.code).toBe("invalid_dataset");
      expect(e.details).toMatchObject({ path: "$.rows[1].payload.city", reason: "lone_surrogate" });
      const key = await rejection(
        platform.createDataset({ name: "key\udfff", rows: cities(1).rows } as never),
      );
      expect(key.details).toMatchObject({ path: "$.name" });

      const { slug } = await platform.publish(ds.dataset_id, {
        title: "ok",
        prompt_template: "Q {payload.city} #{payload.index}?",
        grader_type: "exact",
      });
      const alice = await platform.real.authenticate(
        (await platform.real.createAccount({ name: "alice" })).api_key,
      );
      const run = await platform.real.startRun(alice, slug, "alice");
      const a = await rejection(
        platform.real.submit(alice, run.run.id, [{ ordinal: 0, answer_text: "x\ud800" }]),
      );
      expect(a.code).toBe("invalid_answers");
      expect((a.details.errors as unknown[])[0]).toMatchObject({
        code: "lone_surrogate",
        field: "answer_text",
        path: "$.answers[0].answer_text",
      });
    } finally {
      await platform.close();
    }
  });
});

// re-probe 6 O9: `P6V-x` registered beside `p6v-x` (impersonation); names are now compared without
// regard to case and kept as written
describe("account names and agent ids are unique without regard to case", () => {
  it("an account name, an agent id, and an own agent's id differing only in case are refused", async () => {
    const platform = await openTemp();
    try {
      const p = platform.real;
      const first = await p.createAccount({ name: "p6v-x", agent: {} });
      expect(first.account.name).toBe("p6v-x");
      const upper = await rejection(p.createAccount({ name: "P6V-x" }));
      expect(upper.code).toBe("account_exists");
      expect(upper.details).toMatchObject({ field: "name", existing: "p6v-x" });
      // an agent id in another case is the account's default agent: another account may not take it
      const mallory = await p.authenticate((await p.createAccount({ name: "Mallory" })).api_key);
      expect((await rejection(p.registerAgent(mallory, "P6V-X"))).code).toBe("forbidden");
      expect(
        (await rejection(p.createAccount({ name: "mallory-2", agent: { agent_id: "p6V-x" } }))).code,
      ).toBe("forbidden");
      // an account name that is an agent's id in another case
      await p.registerAgent(mallory, "Mallory-Bot");
      const named = await rejection(p.createAccount({ name: "mallory-bot" }));
      expect(named.code).toBe("account_exists");
      expect(named.details).toMatchObject({ field: "name", reason: "agent_id" });
      // the owner's own agent in another case: refused, naming the agent it would shadow
      const twin = await rejection(p.registerAgent(mallory, "MALLORY-BOT"));
      expect(twin.code).toBe("invalid_option");
      expect(twin.details).toMatchObject({ field: "agent_id", existing: "Mallory-Bot" });
      // nothing was written; the names keep their case
      expect(await p.getAgent("P6V-X")).toBeNull();
      expect(await p.getAgent("MALLORY-BOT")).toBeNull();
      expect((await p.getAgent("Mallory-Bot"))?.owner_account_id).toBe(mallory.account_id);
      expect(await p.ctx.store.accounts.idByName("P6V-X")).toBe(first.account_id);
    } finally {
      await platform.close();
    }
  });

  it("two registrations of one name in two cases, racing: one account", async () => {
    const platform = await openTemp();
    try {
      const p = platform.real;
      for (let i = 0; i < 10; i++) {
        const results = await Promise.allSettled([
          p.createAccount({ name: `Race${i}`, agent: {} }),
          p.createAccount({ name: `race${i}`, agent: {} }),
        ]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
        expect((refused.reason as { code?: string }).code).toBe("account_exists");
      }
    } finally {
      await platform.close();
    }
  });
});
