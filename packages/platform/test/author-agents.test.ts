import { afterEach, describe, expect, it } from "vitest";
import { isAuthorAgent } from "../src/agents.js";
import { cities, cleanup, manualClock, openTemp, CITIES_PUBLISH } from "./helpers.js";

afterEach(cleanup);

describe("SPEC 7.2: the benchmark author's own agents rank but take no money", () => {
  it("an agent of the author's account is an author agent even without the flag; a stranger's is not", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now });
    const p = h.real;
    const author = await p.authenticate((await p.createAccount({ name: "author" })).api_key);
    const stranger = await p.authenticate((await p.createAccount({ name: "stranger" })).api_key);
    const ds = await p.createDataset(author, cities(4));
    const { slug } = await p.publish(author, ds.dataset_id, {
      ...CITIES_PUBLISH,
      public_fraction: "0.5",
      max_attempts: 1,
    });
    for (const [who, agent] of [
      [author, "authors-own"],
      [stranger, "strangers"],
    ] as const) {
      const started = await p.startRun(who, slug, agent);
      await p.submit(
        who,
        started.run.id,
        started.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: "x" })),
      );
      clock.advance(1_000);
      await p.finalize(who, started.run.id);
    }
    const board = await p.leaderboard(slug, { viewer: author });
    const flag = (id: string) => board.rows.find((r) => r.agent_id === id)?.is_author_agent;
    expect(flag("authors-own")).toBe(true);
    expect(flag("strangers")).toBe(false);
  });

  it("is_author_agent is fixed once the agent has a run (probe12 P1); before any run it may change", async () => {
    const clock = manualClock();
    const h = await openTemp({ clock: clock.now });
    const p = h.real;
    const author = await p.authenticate((await p.createAccount({ name: "author" })).api_key);
    const bob = await p.authenticate((await p.createAccount({ name: "bob" })).api_key);
    const ds = await p.createDataset(author, cities(4));
    const { slug } = await p.publish(author, ds.dataset_id, { ...CITIES_PUBLISH, public_fraction: "0.5" });
    // before any run: both ways allowed
    expect((await p.registerAgent(bob, "g", { is_author_agent: true })).is_author_agent).toBe(true);
    expect((await p.registerAgent(bob, "g", { is_author_agent: false })).is_author_agent).toBe(false);
    expect((await p.registerAgent(bob, "g", { is_author_agent: true })).is_author_agent).toBe(true);
    // an author agent starts without an address, ranks
    const started = await p.startRun(bob, slug, "g");
    await p.submit(
      bob,
      started.run.id,
      started.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: "x" })),
    );
    clock.advance(1_000);
    await p.finalize(bob, started.run.id);
    // the probe's flip back to a competitor is refused, naming the field
    await expect(p.registerAgent(bob, "g", { is_author_agent: false })).rejects.toMatchObject({
      code: "is_author_agent_locked",
      details: { field: "is_author_agent", agent_id: "g", is_author_agent: true },
    });
    // the same value, or no flag, is still accepted (an address may still be set)
    expect((await p.registerAgent(bob, "g", { is_author_agent: true })).is_author_agent).toBe(true);
    expect((await p.registerAgent(bob, "g")).is_author_agent).toBe(true);
    const board = await p.leaderboard(slug, { viewer: author });
    expect(board.rows.find((r) => r.agent_id === "g")?.is_author_agent).toBe(true);
  });

  it("the rule: flagged by its owner, or owned by the benchmark's author account", () => {
    expect(isAuthorAgent({ is_author_agent: false, owner_account_id: "a" }, "a")).toBe(true);
    expect(isAuthorAgent({ is_author_agent: true, owner_account_id: "b" }, "a")).toBe(true);
    expect(isAuthorAgent({ is_author_agent: false, owner_account_id: "b" }, "a")).toBe(false);
    expect(isAuthorAgent(null, "a")).toBe(false);
  });
});

describe("attachBounty input", () => {
  it("refuses a bounty id outside uint256 naming the field, before any chain call", async () => {
    const h = await openTemp({});
    const p = h.real;
    const author = await p.authenticate((await p.createAccount({ name: "author" })).api_key);
    const ds = await p.createDataset(author, cities(4));
    const { slug } = await p.publish(author, ds.dataset_id, {
      ...CITIES_PUBLISH,
      public_fraction: "0.5",
    });
    for (const id of [0n, 2n ** 256n, 10n ** 80n]) {
      await expect(p.attachBounty(author, slug, id)).rejects.toMatchObject({
        code: "invalid_option",
        details: { field: "bounty_id" },
      });
    }
    // odd forms: negative, hex, exponent, fractional, zero-padded, a number that lost digits, -0
    const odd: (string | number)[] = [
      "-1",
      "0x10",
      "1e21",
      "1.5",
      "007",
      "",
      " 1",
      -1,
      1.5,
      1e21,
      2 ** 53,
      -0,
      NaN,
    ];
    for (const id of odd) {
      await expect(p.attachBounty(author, slug, id), String(id)).rejects.toMatchObject({
        code: "invalid_option",
        details: { field: "bounty_id" },
      });
    }
  });
});
