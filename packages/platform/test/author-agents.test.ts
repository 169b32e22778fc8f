import { afterEach, describe, expect, it } from "vitest";
import { isAuthorAgent } from "../src/agents.js";
import { OPERATOR_ACCOUNT_ID } from "../src/identity/principal.js";
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
    // probe29 A-F2: a stranger's self-declared author agent is no author agent on another's benchmark
    await p.registerAgent(stranger, "self-declared", { is_author_agent: true });
    for (const [who, agent] of [
      [author, "authors-own"],
      [stranger, "strangers"],
      [stranger, "self-declared"],
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
    expect(flag("self-declared")).toBe(false);
    // and the award reads the same rule: the stranger's rows are eligible
    const ranked = await p.leaderboard(slug, { viewer: author, board: "final" });
    expect(ranked.rows.filter((r) => r.is_author_agent).map((r) => r.agent_id)).toEqual(["authors-own"]);
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
    // bob is not the benchmark's author: his flag makes no author agent of his on the author's board
    const board = await p.leaderboard(slug, { viewer: author });
    expect(board.rows.find((r) => r.agent_id === "g")?.is_author_agent).toBe(false);
  });

  it("the rule: owned by the benchmark's author account; another account's flag counts not there (probe29 A-F2)", () => {
    expect(isAuthorAgent({ is_author_agent: false, owner_account_id: "a" }, "a")).toBe(true);
    expect(isAuthorAgent({ is_author_agent: true, owner_account_id: "a" }, "a")).toBe(true);
    expect(isAuthorAgent({ is_author_agent: true, owner_account_id: "b" }, "a")).toBe(false);
    // the operator owns no agents: on its benchmarks (the keyless local CLI's) the flag names the author's
    expect(isAuthorAgent({ is_author_agent: true, owner_account_id: "b" }, OPERATOR_ACCOUNT_ID)).toBe(true);
    expect(isAuthorAgent({ is_author_agent: false, owner_account_id: "b" }, OPERATOR_ACCOUNT_ID)).toBe(false);
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

  it("refuses a malformed declared author or pool naming the field, before any chain call (probe29 A-F6)", async () => {
    const h = await openTemp({});
    const p = h.real;
    const author = await p.authenticate((await p.createAccount({ name: "author" })).api_key);
    const ds = await p.createDataset(author, cities(4));
    const { slug } = await p.publish(author, ds.dataset_id, { ...CITIES_PUBLISH, public_fraction: "0.5" });
    const cases: [Record<string, string>, string][] = [
      [{ author: "0xzz" }, "author"],
      [{ author: "3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" }, "author"],
      [{ author: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc" }, "author"],
      [{ pool_base_units: "05000000" }, "pool_base_units"],
      [{ pool_base_units: "0" }, "pool_base_units"],
    ];
    // no chain here: a declaration that passed its form would be refused `no_chain`
    for (const [expectations, field] of cases)
      await expect(
        p.attachBounty(author, slug, 1n, expectations),
        JSON.stringify(expectations),
      ).rejects.toMatchObject({
        code: "invalid_option",
        details: { field },
      });
    await expect(
      p.attachBounty(author, slug, 1n, {
        author: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        pool_base_units: "5000000",
      }),
    ).rejects.toMatchObject({ code: "no_chain" });
  });
});
