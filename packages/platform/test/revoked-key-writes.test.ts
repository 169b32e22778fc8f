/**
 * probe39 A-F2: a key was checked once, when its request arrived; a principal made from it kept acting
 * after the key's revocation (the rest of an MCP batch, a body completed after the owner revoked it:
 * a new key issued, the owner's key revoked, the withdrawal address set). Every keyed write checks its
 * key again inside the transaction that writes (`assertKeyActive`): a principal whose key was revoked
 * writes nothing, refused `forbidden` (`known_key`) in authentication's words.
 */
import { afterEach, describe, expect, it } from "vitest";
import { assertKeyActive } from "../src/identity/key-check.js";
import { cities, cleanup, openTemp, rejection, CITIES_PUBLISH, TEST_ENGINE } from "./helpers.js";

afterEach(cleanup);

const OWNER_ADDRESS = "0x71be63f3384f5fb98995898a86b02fb2426c5788";
const LEAKER_ADDRESS = "0xbcd4042de499d14e55001ccbb24a551f3b954096";

describe("a principal whose key was revoked writes nothing", () => {
  it("refuses every keyed write forbidden known_key, naming the key and when it was revoked", async () => {
    const h = await openTemp();
    const p = h.real;
    const ds = await h.createDataset(cities(8));
    const { slug } = await h.publish(ds.dataset_id, { ...CITIES_PUBLISH, seed: "s" });
    const made = await p.createAccount({ name: "keyholder", agent: { withdrawal_address: OWNER_ADDRESS } });
    const leaked = await p.authenticate(made.api_key); // K1's principal, made before its revocation
    const second = await p.issueKey(leaked);
    const owner = await p.authenticate(second.api_key);
    const ownDataset = await p.createDataset(leaked, cities(3, "kept"));
    const run = await p.startRun(leaked, slug, "keyholder");
    await p.revokeKey(owner, made.key_prefix); // the owner revokes the leaked key
    const revokedAt = (await p.listKeys(owner)).find((k) => k.key_prefix === made.key_prefix)!.revoked_at!;

    const writes: [string, () => Promise<unknown>][] = [
      ["issueKey", () => p.issueKey(leaked)],
      ["revokeKey", () => p.revokeKey(leaked, second.key_prefix)],
      ["setAccountWithdrawalAddress", () => p.setAccountWithdrawalAddress(leaked, LEAKER_ADDRESS)],
      ["setWithdrawalAddress", () => p.setWithdrawalAddress(leaked, "keyholder", LEAKER_ADDRESS)],
      [
        "registerAgent",
        () => p.registerAgent(leaked, "keyholder-bot", { withdrawal_address: LEAKER_ADDRESS }),
      ],
      ["createDataset", () => p.createDataset(leaked, cities(4, "late"))],
      ["deleteDataset", () => p.deleteDataset(leaked, ownDataset.dataset_id)],
      ["startRun", () => p.startRun(leaked, slug, "keyholder")],
      ["submit", () => p.submit(leaked, run.run.id, [{ ordinal: 0, answer_text: "x" }])],
      ["finalize", () => p.finalize(leaked, run.run.id)],
    ];
    for (const [name, write] of writes) {
      const e = await rejection(write());
      expect({ name, code: e.code, details: e.details, message: e.message }).toEqual({
        name,
        code: "forbidden",
        details: { rule: "known_key" },
        message: `invalid API key: key ${made.key_prefix} was revoked at ${revokedAt}`,
      });
    }
    // nothing of it was written: the owner's key works, no key issued, the address and agents as they were
    const keys = await p.listKeys(owner);
    expect(Object.fromEntries(keys.map((k) => [k.key_prefix, k.revoked_at]))).toEqual({
      [made.key_prefix]: revokedAt,
      [second.key_prefix]: null,
    });
    expect((await p.authenticate(second.api_key)).account_id).toBe(made.account_id);
    const agents = await h.ctx.store.agents.ofAccount(made.account_id);
    expect(agents.map((a) => [a.agent_id, a.withdrawal_address])).toEqual([["keyholder", OWNER_ADDRESS]]);
    expect((await p.myDatasets(owner)).datasets.map((d) => d.dataset_id)).toEqual([ownDataset.dataset_id]);
    // the owner's own key still writes
    expect((await p.setAccountWithdrawalAddress(owner, OWNER_ADDRESS))[0]!.withdrawal_address).toBe(
      OWNER_ADDRESS,
    );
  });

  it("a key that revokes itself stops at once: its next write is refused", async () => {
    const h = await openTemp();
    const p = h.real;
    const made = await p.createAccount({ name: "selfrevoke" });
    const k1 = await p.authenticate(made.api_key);
    const other = await p.issueKey(k1);
    await p.revokeKey(k1, made.key_prefix);
    expect(await rejection(p.issueKey(k1))).toMatchObject({
      code: "forbidden",
      details: { rule: "known_key" },
    });
    expect(await rejection(p.revokeKey(k1, other.key_prefix))).toMatchObject({
      code: "forbidden",
      details: { rule: "known_key" },
    });
    expect((await p.authenticate(other.api_key)).account_id).toBe(made.account_id);
  });

  it.runIf(TEST_ENGINE === "postgres")(
    "PostgreSQL: a revocation waits for a write that found its key working (no write commits after it)",
    async () => {
      const h = await openTemp();
      const p = h.real;
      const made = await p.createAccount({ name: "share-race" });
      const leaked = await p.authenticate(made.api_key);
      const owner = await p.authenticate((await p.issueKey(leaked)).api_key);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let found!: () => void;
      const checked = new Promise<void>((r) => (found = r));
      const write = h.ctx.store.tx(async (t) => {
        await assertKeyActive(t, leaked);
        found();
        await gate; // the write's transaction still open
      });
      await checked;
      let revoked = false;
      const revoke = p.revokeKey(owner, made.key_prefix).then(() => (revoked = true));
      await new Promise((r) => setTimeout(r, 500));
      const waited = !revoked; // waits on the key's row, read FOR SHARE by the write
      release();
      await write;
      await revoke;
      expect(waited).toBe(true);
      expect(revoked).toBe(true);
      expect(await rejection(p.issueKey(leaked))).toMatchObject({ code: "forbidden" });
    },
  );
});
