import { getAddress } from "viem";
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  cities,
  cleanup,
  manualClock,
  openedBeforeOutage,
  openTemp,
  promptAgent,
  rejection,
  CITIES_PUBLISH,
} from "./helpers.js";
import { checkWithdrawalAddress } from "../src/agents.js";
import { MAX_ACTIVE_KEYS, MAX_REVOKED_KEYS_KEPT } from "../src/identity/accounts.js";
import { CHAINS, CREATEX_ADDRESS, expectedAddresses } from "@bench-bounty/contracts";

afterEach(cleanup);

async function published(opts: Parameters<typeof openTemp>[0] = {}) {
  const h = await openTemp(opts);
  const ds = await h.createDataset(cities(8));
  const { slug } = await h.publish(ds.dataset_id, {
    ...CITIES_PUBLISH,
    seed: "s",
  });
  const p = h.real;
  const alice = await p.authenticate((await p.createAccount({ name: "alice" })).api_key);
  const mallory = await p.authenticate((await p.createAccount({ name: "mallory" })).api_key);
  return { h, p, slug, alice, mallory };
}

describe("accounts and API keys", () => {
  it("a key is shown once and stored only as its sha256; listed by prefix; revoked keys stop working", async () => {
    const h = await openTemp();
    const p = h.real;
    const made = await p.createAccount({ name: "alice" });
    expect(made.api_key).toMatch(/^bbk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made.api_key.startsWith(made.key_prefix)).toBe(true);
    const rows = await h.ctx.store.db.selectFrom("api_keys").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(made.api_key);
    expect(rows[0]!.key_hash).toBe(createHash("sha256").update(made.api_key).digest("hex"));
    const me = await p.authenticate(made.api_key);
    expect(me).toMatchObject({ account_id: made.account_id, via: "key", key_prefix: made.key_prefix });
    const second = await p.issueKey(me);
    expect((await p.listKeys(me)).map((k) => k.key_prefix).sort()).toEqual(
      [made.key_prefix, second.key_prefix].sort(),
    );
    expect(JSON.stringify(await p.listKeys(me))).not.toContain(second.api_key);
    await p.revokeKey(me, made.key_prefix);
    expect(await rejection(p.authenticate(made.api_key))).toMatchObject({
      code: "unauthenticated",
    });
    expect((await p.authenticate(second.api_key)).account_id).toBe(made.account_id);
    // a wrong secret with a real prefix, garbage, nothing
    expect(
      (
        await rejection(
          p.authenticate(second.api_key.slice(0, -1) + (second.api_key.endsWith("A") ? "B" : "A")),
        )
      ).code,
    ).toBe("unauthenticated");
    expect((await rejection(p.authenticate("hello"))).code).toBe("unauthenticated");
    expect((await rejection(p.authenticate(undefined))).code).toBe("unauthenticated");
    // someone else cannot revoke my key
    const bob = await p.authenticate((await p.createAccount({ name: "bob" })).api_key);
    expect((await rejection(p.revokeKey(bob, second.key_prefix))).code).toBe("unknown_key");
    expect((await rejection(p.createAccount({ name: "alice" }))).code).toBe("account_exists");
  });

  // probe16 B-F14: revoking the last active key locked the account out for good (nothing can issue another)
  it("the account's last active key cannot be revoked: it names why and to issue a key first", async () => {
    const h = await openTemp();
    const p = h.real;
    const made = await p.createAccount({ name: "alice" });
    const me = await p.authenticate(made.api_key);
    const e = await rejection(p.revokeKey(me, made.key_prefix));
    expect(e).toMatchObject({ code: "last_active_key", details: { key_prefix: made.key_prefix } });
    expect(e.message).toMatch(/last active key.*issue-key/);
    expect((await p.authenticate(made.api_key)).account_id).toBe(made.account_id);
    // with a second key the first goes; then the second is the last one
    const second = await p.issueKey(me);
    await p.revokeKey(me, made.key_prefix);
    const me2 = await p.authenticate(second.api_key);
    expect((await rejection(p.revokeKey(me2, second.key_prefix))).code).toBe("last_active_key");
    // revoking an already revoked key again stays idempotent
    expect((await p.revokeKey(me2, made.key_prefix)).revoked_at).not.toBeNull();
    expect((await p.authenticate(second.api_key)).account_id).toBe(made.account_id);
  });

  // probe19 B-F6: `account revoke <the whole key>` echoed the key's secret in "no key ... on this account"
  it("a key is revoked by its prefix or by the whole key; a refusal never echoes a secret", async () => {
    const p = (await openTemp()).real;
    const made = await p.createAccount({ name: "alice" });
    const me = await p.authenticate(made.api_key);
    const second = await p.issueKey(me);
    const revoked = await p.revokeKey(me, made.api_key);
    expect(revoked).toMatchObject({ key_prefix: made.key_prefix, revoked_at: expect.any(String) });
    await expect(p.authenticate(made.api_key)).rejects.toMatchObject({ code: "unauthenticated" });
    const me2 = await p.authenticate(second.api_key);
    // another account's whole key: unknown here, named by its prefix only
    const bob = await p.createAccount({ name: "bob" });
    const other = await rejection(p.revokeKey(me2, bob.api_key));
    expect(other).toMatchObject({ code: "unknown_key", details: { key_prefix: bob.key_prefix } });
    expect(JSON.stringify({ m: other.message, d: other.details })).not.toContain(bob.api_key.slice(17));
    // a text that is neither a prefix nor a key (a key mistyped): refused, not shown
    const typo = `${second.api_key}x`;
    const bad = await rejection(p.revokeKey(me2, typo));
    expect(bad).toMatchObject({ code: "unknown_key", details: { field: "key_prefix" } });
    expect(JSON.stringify({ m: bad.message, d: bad.details })).not.toContain(second.api_key.slice(17));
    expect((await p.authenticate(bob.api_key)).account_id).toBe(bob.account_id);
  });

  it("two revocations at once of an account's two keys leave one active: one passes, one is last_active_key", async () => {
    const h = await openTemp();
    const p = h.real;
    for (let i = 0; i < 8; i++) {
      const made = await p.createAccount({ name: `racer-${i}` });
      const me = await p.authenticate(made.api_key);
      const second = await p.issueKey(me);
      const outcomes = await Promise.allSettled([
        p.revokeKey(me, made.key_prefix),
        p.revokeKey(me, second.key_prefix),
      ]);
      expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
      const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
      // the other key revoked first: this one is the last; this key revoked first: it acts no more
      // (probe39 A-F2), refused as authentication refuses it
      if (outcomes[0].status === "rejected")
        expect(refused.reason).toMatchObject({ code: "last_active_key" });
      else expect(refused.reason).toMatchObject({ code: "forbidden", details: { rule: "known_key" } });
      const active = (await p.listKeys(me)).filter((k) => k.revoked_at === null);
      expect(active).toHaveLength(1);
    }
  });

  // keys29 item 4: one account issued keys without end (a row each, all under its key lock)
  it("an account holds at most 20 active keys: the next is too_many_keys naming the cap; a revoked key frees a place", async () => {
    const CAP = 20;
    const p = (await openTemp()).real;
    const made = await p.createAccount({ name: "alice" });
    const me = await p.authenticate(made.api_key);
    const issued = [];
    for (let i = 1; i < CAP; i++) issued.push(await p.issueKey(me));
    const e = await rejection(p.issueKey(me));
    expect(e).toMatchObject({ code: "too_many_keys", details: { max_active_keys: CAP, active_keys: CAP } });
    expect(e.message).toMatch(/\(20\): revoke one first/);
    expect((await p.listKeys(me)).filter((k) => k.revoked_at === null)).toHaveLength(CAP);
    await p.revokeKey(me, issued[0]!.key_prefix);
    expect((await p.issueKey(me)).api_key).toMatch(/^bbk_/);
    expect((await rejection(p.issueKey(me))).code).toBe("too_many_keys");
    expect(MAX_ACTIVE_KEYS).toBe(CAP);
  });

  it("issuing and revoking without end keeps the 20 most recently revoked keys; an older one is no key at all (probe31 A-F7)", async () => {
    const clock = manualClock();
    const p = (await openTemp({ clock: clock.now })).real;
    const made = await p.createAccount({ name: "churner" });
    let me = await p.authenticate(made.api_key);
    const revoked: string[] = [];
    let current = made;
    for (let i = 0; i < 25; i++) {
      const next = await p.issueKey(me);
      await p.revokeKey(me, current.key_prefix);
      revoked.push(current.api_key);
      clock.advance(1000);
      current = { ...current, key_prefix: next.key_prefix, api_key: next.api_key };
      me = await p.authenticate(next.api_key);
    }
    const keys = await p.listKeys(me);
    expect(keys.filter((k) => k.revoked_at === null)).toHaveLength(1);
    expect(keys.filter((k) => k.revoked_at !== null)).toHaveLength(MAX_REVOKED_KEYS_KEPT);
    expect(MAX_REVOKED_KEYS_KEPT).toBe(20);
    // the first five revoked are gone: no key at all; the last revoked still says when it was revoked
    expect((await rejection(p.authenticate(revoked[0]!))).message).toBe("invalid API key: unknown key");
    expect((await rejection(p.authenticate(revoked[4]!))).message).toBe("invalid API key: unknown key");
    expect((await rejection(p.authenticate(revoked[5]!))).message).toMatch(/ was revoked at /);
    expect((await rejection(p.authenticate(revoked[24]!))).message).toMatch(/ was revoked at /);
  });

  it("issues at once near the cap: the count and the insert are one decision, never past the cap", async () => {
    const p = (await openTemp()).real;
    const made = await p.createAccount({ name: "racer" });
    const me = await p.authenticate(made.api_key);
    for (let i = 1; i < 17; i++) await p.issueKey(me); // 17 active
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => p.issueKey(me)));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
    for (const o of outcomes.filter((x) => x.status === "rejected"))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: "too_many_keys" });
    expect((await p.listKeys(me)).filter((k) => k.revoked_at === null)).toHaveLength(20);
  });

  it("the operator key from the environment authenticates as the operator", async () => {
    const h = await openTemp({ operatorKey: "operator-secret-0123456789" });
    const op = await h.real.authenticate("operator-secret-0123456789");
    expect(op.roles).toContain("operator");
    expect((await rejection(h.real.authenticate("operator-secret-012345678"))).code).toBe("unauthenticated");
  });
});

describe("account names and agent ids share one namespace (issue 13 re-probe F8)", () => {
  it("a name taken as another account's agent id is refused account_exists (409) naming name; nothing is stored", async () => {
    const { p, mallory } = await published();
    await p.registerAgent(mallory, "future", {});
    const e = await rejection(p.createAccount({ name: "future" }));
    expect(e).toMatchObject({ code: "account_exists", details: { field: "name" } });
    expect(e.message).toMatch(/account name future is taken: it is the id of an agent/);
    const names = await p.ctx.store.db
      .selectFrom("accounts")
      .select("name")
      .where("name", "=", "future")
      .execute();
    expect(names).toEqual([]);
  });

  it("an agent id that is another account's name is that account's: refused agent_owner_only; its own name is fine", async () => {
    const { p, alice, mallory } = await published();
    const e = await rejection(p.registerAgent(mallory, "alice", {}));
    expect(e).toMatchObject({ code: "forbidden", details: { rule: "agent_owner_only", agent_id: "alice" } });
    expect(await p.getAgent("alice")).toBeNull();
    expect((await p.registerAgent(alice, "alice", {})).owner_account_id).toBe(alice.account_id);
  });

  it("the platform's own names are reserved for accounts and agents alike: 422-shaped invalid_option naming the field, nothing written (probe30 A-F11)", async () => {
    const { h, p, alice } = await published();
    const names = [
      "operator",
      "Operator",
      "platform",
      "PLATFORM",
      "acct_operator",
      "ACCT_Operator",
      "acct_1234abcd",
    ];
    for (const name of names) {
      // an agent id: refused as reserved (it was "agent operator belongs to another account"; the others passed)
      const agent = await rejection(p.registerAgent(alice, name, {}));
      expect(agent, name).toMatchObject({
        code: "invalid_option",
        details: { field: "agent_id", reason: "reserved" },
      });
      expect(agent.message, name).toContain(`agent_id ${name} is reserved`);
      expect(await p.getAgent(name), name).toBeNull();
      // an account's name (its default agent's id), and an account's first agent
      const account = await rejection(p.createAccount({ name }));
      expect(account, name).toMatchObject({
        code: "invalid_option",
        details: { field: "name", reason: "reserved" },
      });
      const first = await rejection(
        p.createAccount({ name: `${name.replace(/_/g, "-")}-x`, agent: { agent_id: name } }),
      );
      expect(first, name).toMatchObject({
        code: "invalid_option",
        details: { field: "agent_id", reason: "reserved" },
      });
    }
    // nothing written: only the operator's, alice's and mallory's accounts
    const rows = await h.ctx.store.db.selectFrom("accounts").select("name").execute();
    expect(rows.map((r) => r.name).sort()).toEqual(["alice", "mallory", "operator"]);
    // names that merely contain them are anyone's
    for (const name of ["operator-bot", "my-platform", "acct-1"])
      expect((await p.registerAgent(alice, name, {})).agent_id).toBe(name);
  });

  // probe37 V-N2: a whole API key was taken as an account's name, so its agent_id published the key
  it("a name in the API key form (bbk_...) is refused, unechoed, as an account's name and an agent id", async () => {
    const { p, alice } = await published();
    const key = `bbk_978b4f7e5684_${"k".repeat(43)}`;
    for (const name of [key, "BBK_x", "bbk_"]) {
      const account = await rejection(p.createAccount({ name }));
      expect(account, name).toMatchObject({
        code: "invalid_option",
        details: { field: "name", reason: "key_form" },
      });
      expect(account.message).not.toContain(key.slice(4));
      const agent = await rejection(p.registerAgent(alice, name, {}));
      expect(agent, name).toMatchObject({ details: { field: "agent_id", reason: "key_form" } });
    }
    expect(await p.getAgent(key)).toBeNull();
    // a name merely containing it is anyone's
    expect((await p.registerAgent(alice, "my-bbk_bot", {})).agent_id).toBe("my-bbk_bot");
  });
});

describe("owner rules (issue 13 item 5)", () => {
  it("nobody changes another account's agent: withdrawal address, author flag", async () => {
    const { p, alice, mallory } = await published();
    await p.registerAgent(alice, "alice-bot", { withdrawal_address: "0x" + "11".repeat(20) });
    const e1 = await rejection(p.setWithdrawalAddress(mallory, "alice-bot", "0x" + "22".repeat(20)));
    expect(e1).toMatchObject({ code: "forbidden", details: { rule: "agent_owner_only" } });
    const e2 = await rejection(p.registerAgent(mallory, "alice-bot", { is_author_agent: true }));
    expect(e2.details.rule).toBe("agent_owner_only");
    const e3 = await rejection(
      p.registerAgent(p.localOperator(), "alice-bot", { withdrawal_address: "0x" + "22".repeat(20) }),
    );
    expect(e3.details.rule).toBe("operator_owns_no_agents");
    expect(await p.getAgent("alice-bot")).toMatchObject({
      withdrawal_address: "0x" + "11".repeat(20),
      is_author_agent: false,
    });
  });

  it("nobody starts, submits to, finalizes or reads someone else's run", async () => {
    const { p, slug, alice, mallory } = await published();
    const started = await p.startRun(alice, slug, "alice-bot");
    const runId = started.run.id;
    expect((await rejection(p.startRun(mallory, slug, "alice-bot"))).details.rule).toBe("agent_owner_only");
    const answers = started.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: promptAgent(t.prompt) }));
    // thunks: each refusal is awaited as it is made (no rejection waits unobserved)
    for (const attempt of [
      () => p.submit(mallory, runId, answers),
      () => p.finalize(mallory, runId),
      () => p.runTasks(mallory, runId),
      () => p.runAnswers(mallory, runId),
      () => p.getRun(mallory, runId),
    ])
      expect(await rejection(attempt())).toMatchObject({
        code: "forbidden",
        details: { rule: "run_owner_only" },
      });
    await p.submit(alice, runId, answers);
    expect((await p.finalize(alice, runId)).counts.answered).toBe(answers.length);
    expect((await p.myRuns(alice)).runs.map((r) => r.run_id)).toEqual([runId]);
    expect((await p.myRuns(mallory)).runs).toEqual([]);
  });

  it("the keyless CLI (local operator) on an account's run is told the key is needed, not 'another account' (probe40 B-F1)", async () => {
    const { p, slug, alice } = await published();
    const started = await p.startRun(alice, slug, "alice-bot");
    const runId = started.run.id;
    const keyless = p.localOperator();
    for (const attempt of [
      () => p.submit(keyless, runId, [{ ordinal: 0, answer_text: "x" }]),
      () => p.finalize(keyless, runId),
      () => p.runTasks(keyless, runId),
      () => p.runAnswers(keyless, runId),
    ]) {
      const e = await rejection(attempt());
      expect(e).toMatchObject({ code: "unauthenticated", details: { rule: "key_required", run_id: runId } });
      expect(e.message).toMatch(
        /^this needs --api-key \(or BENCH_BOUNTY_API_KEY\): run run-[0-9a-f]+ belongs to that key's account/,
      );
      expect(e.message).not.toMatch(/another account/);
    }
    // nothing was written: the run is still its owner's, in progress, unanswered
    expect((await p.runAnswers(alice, runId)).size).toBe(0);
    expect((await p.getRun(alice, runId)).status).toBe("in_progress");
  });

  it("only the operator awards; only the author (or operator) closes; gold only to the author", async () => {
    const { p, slug, alice } = await published();
    expect((await rejection(p.award(alice, slug))).details.rule).toBe("operator_only");
    expect((await rejection(p.closeBenchmark(alice, slug))).details.rule).toBe("benchmark_author_only");
    // the owner rule comes before the chain: a stranger is refused, not told that no chain is configured
    expect((await rejection(p.attachBounty(alice, slug, 1n))).details.rule).toBe("benchmark_author_only");
    const lock = {
      authorPrivateKey: `0x${"11".repeat(32)}`,
      pool: 1,
      closesAt: 1,
      awardDeadline: 2,
      thresholdBps: 0,
    };
    expect((await rejection(p.lockBounty(alice, slug, lock as never))).details.rule).toBe(
      "benchmark_author_only",
    );
    expect((await rejection(p.testSet(alice, slug))).details.rule).toBe("benchmark_author_only");
    expect((await rejection(p.testSet(null, slug))).code).toBe("unauthenticated");
    expect(await p.testSet(p.localOperator(), slug)).toHaveLength(8);
    // a final board while open is the author's only
    expect((await rejection(p.leaderboard(slug, { viewer: alice, board: "final" }))).details.rule).toBe(
      "benchmark_author_only",
    );
  });

  // probe15 B-F16: without a chain configured, the protocol's own contracts and USDC were accepted
  it("withdrawal addresses: never the protocol's contracts or USDC, with no chain configured", async () => {
    const p = await openTemp().then((h) => h.real);
    const alice = await p.authenticate((await p.createAccount({ name: "alice" })).api_key);
    const { benchmarkBounty, anchorRegistry } = expectedAddresses();
    for (const addr of [
      benchmarkBounty,
      anchorRegistry.toLowerCase(),
      CHAINS.base.usdc,
      CHAINS.baseSepolia.usdc.toLowerCase(),
      CREATEX_ADDRESS,
    ]) {
      const refused = await rejection(p.registerAgent(alice, "a1", { withdrawal_address: addr }));
      expect({ addr, refused }).toMatchObject({
        addr,
        refused: {
          code: "invalid_withdrawal_address",
          details: { field: "withdrawal_address", reason: "platform_contract" },
        },
      });
      expect(refused.message).toMatch(/^withdrawal_address: 0x[0-9a-fA-F]{40} is .*: it can never claim/);
    }
  });

  it("withdrawal addresses: EIP-55 checksum, never zero, never one of our contracts", async () => {
    const bounty = "0x" + "ab".repeat(20);
    const registry = "0x" + "cd".repeat(20);
    // chain settings only name our contracts here: the RPC never answers, so an address that passes the
    // address rules is then refused chain_error by the code rule (withdrawal-code.test.ts): the accepted
    // ones are checked by the address rules alone (checkWithdrawalAddress), the refused ones end there
    // (a made-up chain: its genesis read at open answered, store28 R-F1)
    const p = await openedBeforeOutage(`0x${"ab".repeat(32)}`, () =>
      openTemp({
        chain: {
          rpcUrl: "http://127.0.0.1:9",
          chainId: 8453,
          contracts: { benchmarkBounty: bounty as `0x${string}`, anchorRegistry: registry as `0x${string}` },
          privateKey: ("0x" + "01".repeat(32)) as `0x${string}`,
        },
      }),
    ).then((h) => h.real);
    const alice = await p.authenticate((await p.createAccount({ name: "alice" })).api_key);
    const lower = "0x52908400098527886e0f7030069857d2e4169ee7";
    const good = "0x52908400098527886E0F7030069857D2E4169EE7";
    expect(checkWithdrawalAddress(p.ctx, good)).toBe(lower);
    expect(await rejection(p.registerAgent(alice, "a1", { withdrawal_address: good }))).toMatchObject({
      code: "chain_error",
    });
    await p.registerAgent(alice, "a1");
    // just past the refused ranges (probe11 O11): accepted
    for (const edge of ["0x" + "00".repeat(18) + "0200", "0x4200000000000000000000000000000000000800"])
      expect(checkWithdrawalAddress(p.ctx, edge)).toBe(edge);
    // all upper-case is unchecksummed, as all lower-case is (EIP-55): accepted, stored lower-case
    // (probeD2 F8: it was refused as "mixed-case ... wrong EIP-55 checksum")
    const upper = "0x90F79BF6EB2C4F870365E785982E1F101E93B906";
    expect(checkWithdrawalAddress(p.ctx, upper)).toBe(upper.toLowerCase());
    expect(checkWithdrawalAddress(p.ctx, upper, "to")).toBe(upper.toLowerCase());
    const bad = good.replace("E0F7", "e0F7");
    for (const [addr, reason] of [
      [bad, "bad_checksum"],
      ["0x" + "00".repeat(20), "zero_address"],
      ["0x" + "00".repeat(19) + "01", "precompile"],
      ["0x" + "00".repeat(18) + "0100", "precompile"],
      ["0x" + "00".repeat(18) + "01ff", "precompile"],
      ["0x4200000000000000000000000000000000000000", "predeploy"],
      ["0x4200000000000000000000000000000000000006", "predeploy"],
      ["0x42000000000000000000000000000000000000ff", "predeploy"],
      // the OP stack reserves 2,048 predeploys (PREDEPLOY_COUNT, probe12 P4)
      ["0x4200000000000000000000000000000000000100", "predeploy"],
      ["0x42000000000000000000000000000000000007ff", "predeploy"],
      ["0x1234", "not_an_address"],
      // the OP stack's preinstalls (probe17 B-F5: Multicall3 would let anyone claim the credit)
      ["0xcA11bde05977b3631167028862bE2a173976CA11", "preinstall"],
      ["0x000000000022D473030F116dDEE9F6B43aC78BA3", "preinstall"],
      ["0x0000000071727De22E5E9d8BAf0edAc6f37da032", "preinstall"],
      ["0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001", "preinstall"],
      // probe18 F2: the v0.7 SenderCreator (a router) and EIP-2935's history storage
      ["0xEFC2c1444eBCC4Db75e7613d20C6a62fF67A167C", "preinstall"],
      ["0x0000F90827F1C53a10cb7A02335B175320002935", "preinstall"],
      ["0x1820a4B7618BdE71Dce8cdc73aAB6C95905faD24", "preinstall"],
      // probe19 A-F1: Safe's MultiSendCallOnly routers beyond the OP preinstalls, Multicall2, EntryPoint v0.8
      ["0x9641d764fc13c8B624c04430C7356C1C7C8102e2", "preinstall"],
      ["0x40A2aCCbd92BCA938b02010E17A5b8929b49130D", "preinstall"],
      ["0x5BA1e12693Dc8F9c48aAD8770482f4739bEeD696", "preinstall"],
      ["0x41675C099F32341bf84BFc5382aF534df5C7461a", "preinstall"],
      ["0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108", "preinstall"],
      // probe19 B-F4: the v0.8 SenderCreator (a router), factories, the key-less EIP-4788/2935 senders
      ["0x449ED7C3e6Fee6a97311d4b55475DF59C44AdD33", "preinstall"],
      ["0xce0042B868300000d44A59004Da54A005ffdcf9f", "preinstall"],
      ["0x0B799C86a49DEeb90402691F1041aa3AF2d3C875", "preinstall"],
      ["0x3462413Af4609098e1E27A490f554f260213D685", "preinstall"],
      // probe21 A-F3: Uniswap's interface multicall on Base (a router), the 0x...dEaD burn address
      ["0x091e99cb1C49331a94dD62755D168E941AbD0693", "preinstall"],
      ["0x000000000000000000000000000000000000dEaD", "preinstall"],
      [bounty, "platform_contract"],
      [getAddress(registry), "platform_contract"],
    ] as const)
      expect(await rejection(p.setWithdrawalAddress(alice, "a1", addr))).toMatchObject({
        code: "invalid_withdrawal_address",
        details: { field: "withdrawal_address", reason },
      });
  });
});
