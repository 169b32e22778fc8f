/**
 * probe26 C-F5, C-F6, C-F4: the award checks what it pays before anything is closed, prepared or sent.
 * It pays only the attached bounty (the configured chain id and BenchmarkBounty contract are the ones
 * recorded at attach, and the bounty there carries the attached root, leaf count, author and awarder):
 * another deployment's bounty of the same id, or another chain, is refused `bounty_mismatch` naming both.
 * It is sent only by the bounty's awarder (`award_not_allowed` naming both addresses). A prepared award
 * whose bounty was reclaimed is answered with the bounty's state, never as a gateway failure.
 */
import { benchmarkBountyAbi, benchmarkBountyBytecode } from "@bench-bounty/contracts";
import type { DevChain } from "@bench-bounty/devchain";
import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import { ChainGateway, type ChainConfig } from "../src/chain.js";
import type { FaultHooks } from "../src/context.js";
import { attachedBountyOnChain } from "../src/award/bounty.js";
import { prepareAward } from "../src/award/prepare.js";
import { DOOR_MINT_BACKOFF_MS } from "../src/award/door.js";
import { ON_CHAIN_GENESIS_MARKER, ON_CHAIN_MARKER } from "../src/store/anchors.js";
import {
  bountyCredit,
  bountyStatus,
  chainClock,
  chainConfig,
  crashOnce,
  freshStoreLocation,
  genesisOf,
  latestBlockTime,
  openedBeforeOutage,
  openAt,
  publishLockAndRun,
  useDevChain,
  type Harness,
} from "./helpers.js";

const devChain = useDevChain();

/** A benchmark ready to award, its platform account `dc.accounts[account]`, on a store reopenable with another chain config. */
async function ready(dc: DevChain, account: number, tag: string, faults: FaultHooks = {}) {
  const loc = await freshStoreLocation();
  const { now, clock } = await chainClock(dc);
  const platform = await openAt({
    ...loc,
    chain: chainConfig(dc, account),
    clock: () => clock.now(),
    faults,
  });
  const r = await publishLockAndRun(platform, dc, {
    chainNow: now,
    clock,
    account,
    tag,
    title: `Target ${tag}`,
  });
  let current = platform;
  /** Closes the store's current platform and opens it again on `chain`. */
  const reopen = async (chain: ChainConfig): Promise<Harness> => {
    await current.close();
    return (current = await openAt({ ...loc, chain, clock: () => clock.now() }));
  };
  return { ...r, platform, reopen, clock, loc };
}

/** Removes the store's chain mark (`meta.anchoring_chain_id`): a store as it was before the mark existed. */
async function unmark(h: Harness): Promise<void> {
  await h.ctx.store.db.deleteFrom("meta").where("key", "=", ON_CHAIN_MARKER).execute();
}

/** Prepares the award of `slug` (its winners frozen) and sends nothing: an award whose send never happened. */
async function prepareOnly(platform: Harness, slug: string): Promise<void> {
  const b = await platform.real.getBenchmark(slug);
  await prepareAward(platform.ctx, platform.op, b, await attachedBountyOnChain(platform.ctx, b));
}

/**
 * A second BenchmarkBounty deployed by `dc.accounts[funder]`, funding bounties (1 base unit each, the last
 * `pool`) up to id `upTo`, awarder `awarder`, another test-set root: the same id names another prize there.
 */
async function secondDeployment(
  dc: DevChain,
  funder: number,
  awarder: string,
  upTo: bigint,
  pool: bigint,
): Promise<Address> {
  const w = dc.wallet(funder);
  const wait = (hash: Hex) => dc.publicClient.waitForTransactionReceipt({ hash });
  const address = (
    await wait(await w.deployContract({ abi: benchmarkBountyAbi, bytecode: benchmarkBountyBytecode }))
  ).contractAddress as Address;
  await dc.mintUsdc(dc.accounts[funder]!.address, pool + upTo);
  const gateway = ChainGateway.connect({
    ...chainConfig(dc, funder),
    contracts: { ...dc.contracts, benchmarkBounty: address },
  });
  const now = await latestBlockTime(dc);
  for (let id = 1n; id <= upTo; id++) {
    const { bountyId } = await gateway.lockBounty({
      authorPrivateKey: dc.accounts[funder]!.privateKey,
      awarder: awarder as Address,
      pool: id === upTo ? pool : 1n,
      testSetRoot: `0x${id.toString(16).padStart(64, "7")}`,
      leafCount: 4,
      closesAt: BigInt(now + 60),
      awardDeadline: BigInt(now + 86_400),
      thresholdBps: 0,
      splitsBps: [10000],
    });
    expect(bountyId).toBe(id);
  }
  await dc.increaseTime(120);
  return address;
}

describe("the award pays only the attached bounty (probe26 C-F5)", () => {
  it("refuses another BenchmarkBounty, another chain id, or a bounty whose facts changed: bounty_mismatch naming both, nothing closed, prepared or sent; the right one then awards", async () => {
    const dc = devChain();
    const r = await ready(dc, 1, "other-contract");
    const platformAccount = dc.accounts[1]!.address;
    const other = await secondDeployment(dc, 6, platformAccount, r.bountyId, 50_000_000n);
    r.clock.set((await latestBlockTime(dc)) * 1000);
    const nonce = () => dc.publicClient.getTransactionCount({ address: platformAccount });
    const before = await nonce();
    const otherStatus = () =>
      dc.publicClient.readContract({
        address: other,
        abi: benchmarkBountyAbi,
        functionName: "statusOf",
        args: [r.bountyId],
      });
    const attached = (await r.platform.real.getBenchmark(r.slug)).bounty!;

    let h = await r.reopen({ ...chainConfig(dc, 1), contracts: { ...dc.contracts, benchmarkBounty: other } });
    let e = await h.real.award(h.op, r.slug).catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: "bounty_mismatch",
      details: {
        field: "bounty_contract",
        attached: { chain_id: 8453, bounty_contract: dc.contracts.benchmarkBounty.toLowerCase() },
        configured: { chain_id: 8453, bounty_contract: other.toLowerCase() },
      },
    });
    expect((e as Error).message).toContain(other.toLowerCase());
    expect((e as Error).message).toContain(dc.contracts.benchmarkBounty.toLowerCase());
    const untouched = async (hh: Harness) => {
      expect(await hh.ctx.store.awards.get(r.slug)).toBeNull();
      const b = await hh.real.getBenchmark(r.slug);
      expect(b.status).toBe("published");
      expect(b.bounty).toEqual(attached);
      expect(await nonce()).toBe(before);
      expect(await otherStatus()).toBe(2);
      expect(await bountyStatus(dc, r.bountyId)).toBe(2);
    };
    await untouched(h);

    // a wrong chain id (the same CREATE2 addresses on every chain): the store, anchored on 8453, is refused
    // at open (review of probe26 A-F5); on a store without the mark (an older one), the award refuses it
    // itself, before any read
    await expect(r.reopen({ ...chainConfig(dc, 1), chainId: 84532 })).rejects.toMatchObject({
      code: "invalid_store",
      details: { store_chain_id: 8453, chain_id: 84532 },
    });
    h = await r.reopen(chainConfig(dc, 1));
    await unmark(h);
    h = await r.reopen({ ...chainConfig(dc, 1), chainId: 84532 });
    await unmark(h);
    e = await h.real.award(h.op, r.slug).catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: "bounty_mismatch",
      details: { field: "chain_id", attached: { chain_id: 8453 }, configured: { chain_id: 84532 } },
    });
    await untouched(h);

    // the right contract, but the bounty there no longer carries the attached facts (here: the record's author)
    h = await r.reopen(chainConfig(dc, 1));
    await h.ctx.store.tx((t) =>
      t.benchmarks.setBounty(r.slug, { ...attached, author: dc.accounts[7]!.address.toLowerCase() }),
    );
    e = await h.real.award(h.op, r.slug).catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: "bounty_mismatch",
      details: { field: "author", on_chain: dc.accounts[2]!.address.toLowerCase() },
    });
    expect(await h.ctx.store.awards.get(r.slug)).toBeNull();
    expect(await nonce()).toBe(before);
    await h.ctx.store.tx((t) => t.benchmarks.setBounty(r.slug, attached));

    const done = await h.award(r.slug);
    expect(await bountyStatus(dc, r.bountyId)).toBe(3);
    expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(4_000_000n);
    expect(await otherStatus()).toBe(2);
    expect((await h.real.getBenchmark(r.slug)).bounty).toMatchObject({
      bounty_contract: dc.contracts.benchmarkBounty.toLowerCase(),
      pool_base_units: "4000000",
      status: "awarded",
    });
    expect(done.winners.map((w) => w.amount_base_units)).toEqual(["4000000"]);
    // awarded (the pack reveals the test set): everyone reads private tasks' credit (probe36 C-F2)
    const scores = await h.real.taskScores(null, r.slug);
    expect(scores).toMatchObject({ stage: "awarded", private_credits: "shown" });
    const tasks = scores.runs.flatMap((run) => run.tasks);
    expect(tasks.some((t) => t.visibility === "private")).toBe(true);
    expect(tasks.every((t) => t.credit === "1/1")).toBe(true);
    await h.close();
  });

  it("a prepared award is never sent on another contract: bounty_mismatch, the row stays prepared", async () => {
    const dc = devChain();
    const r = await ready(dc, 3, "prepared-other");
    const other = await secondDeployment(dc, 8, dc.accounts[3]!.address, r.bountyId, 30_000_000n);
    r.clock.set((await latestBlockTime(dc)) * 1000);
    // prepared with the right contract (a send that never happened)
    await prepareOnly(r.platform, r.slug);
    expect((await r.platform.ctx.store.awards.get(r.slug))!.status).toBe("prepared");
    const h = await r.reopen({
      ...chainConfig(dc, 3),
      contracts: { ...dc.contracts, benchmarkBounty: other },
    });
    const e = await h.real.award(h.op, r.slug).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "bounty_mismatch", details: { field: "bounty_contract" } });
    expect((await h.ctx.store.awards.get(r.slug))!.status).toBe("prepared");
    // what a relayed claim asks first: the same refusal, nothing read
    await expect(h.real.attachedChain(r.slug)).rejects.toMatchObject({
      code: "bounty_mismatch",
      details: { field: "bounty_contract", configured: { bounty_contract: other.toLowerCase() } },
    });
    expect(
      await dc.publicClient.readContract({
        address: other,
        abi: benchmarkBountyAbi,
        functionName: "statusOf",
        args: [r.bountyId],
      }),
    ).toBe(2);
    await h.close();
  });
});

describe("the pack and the address lock of an award on another chain (review of probe26 C-F5)", () => {
  it("a confirmed award's pack is never anchored on another chain: bounty_mismatch with the award's facts, no pack stored; the attached chain then mints it", async () => {
    const dc = devChain();
    const r = await ready(dc, 1, "pack-other", crashOnce("awardBeforeMint"));
    await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
    const confirmed = (await r.platform.ctx.store.awards.get(r.slug))!;
    expect(confirmed.status).toBe("confirmed");
    let h = await r.reopen(chainConfig(dc, 1));
    await unmark(h); // a store without the chain mark (else refused at open: invalid_store)
    h = await r.reopen({ ...chainConfig(dc, 1), chainId: 84532 });
    await unmark(h);
    const e = await h.real.award(h.op, r.slug).catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: "bounty_mismatch",
      details: { field: "chain_id", award_tx: confirmed.award_tx, awarded: true },
    });
    expect(await h.ctx.store.packs.get(r.slug)).toBeFalsy();
    h = await r.reopen(chainConfig(dc, 1));
    const done = await h.real.award(h.op, r.slug);
    expect(done.award_tx).toBe(confirmed.award_tx);
    expect(done.pack_anchor).not.toBeNull();
    await h.close();
  });

  it("a winner's address change under a prepared award, on a process configured with another contract: award_in_progress, not the operator's bounty_mismatch", async () => {
    const dc = devChain();
    const r = await ready(dc, 3, "lock-other");
    const other = await secondDeployment(dc, 8, dc.accounts[3]!.address, r.bountyId, 1_000_000n);
    r.clock.set((await latestBlockTime(dc)) * 1000);
    await prepareOnly(r.platform, r.slug);
    const alice = await r.platform.principal("alice"); // the winner's owner, as the store knows it
    const h = await r.reopen({
      ...chainConfig(dc, 3),
      contracts: { ...dc.contracts, benchmarkBounty: other },
    });
    const change = await h.real
      .setWithdrawalAddress(alice, "alice", dc.accounts[19]!.address.toLowerCase())
      .catch((x: unknown) => x);
    expect(change).toMatchObject({
      code: "award_in_progress",
      details: { reason: "award_in_flight", slug: r.slug },
    });
    expect((await h.ctx.store.agents.get("alice"))!.withdrawal_address).toBe(r.winner);
    await h.close();
  });
});

describe("the award is sent only by the bounty's awarder, only while it can pay (probe26 C-F6, C-F4)", () => {
  it("a key that is not the bounty's awarder: award_not_allowed naming both addresses, nothing closed, prepared or sent; the awarder's key then awards", async () => {
    const dc = devChain();
    const r = await ready(dc, 10, "not-awarder");
    const awarder = dc.accounts[10]!.address.toLowerCase();
    const stranger = dc.accounts[13]!.address.toLowerCase();
    const nonce = (a: string) => dc.publicClient.getTransactionCount({ address: a as Address });
    const before = [await nonce(awarder), await nonce(stranger)];
    let h = await r.reopen(chainConfig(dc, 13));
    const e = await h.real.award(h.op, r.slug).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "award_not_allowed", details: { signer: stranger, awarder } });
    expect((e as Error).message).toContain(stranger);
    expect((e as Error).message).toContain(awarder);
    expect(await h.ctx.store.awards.get(r.slug)).toBeNull();
    expect((await h.real.getBenchmark(r.slug)).status).toBe("published");
    expect([await nonce(awarder), await nonce(stranger)]).toEqual(before);
    expect(await bountyStatus(dc, r.bountyId)).toBe(2);
    h = await r.reopen(chainConfig(dc, 10));
    await h.award(r.slug);
    expect(await bountyStatus(dc, r.bountyId)).toBe(3);
    await h.close();
  });

  it("a prepared award whose bounty was reclaimed: 409 award_not_allowed with the bounty's status (it can never be sent), not a revert", async () => {
    const dc = devChain();
    const r = await ready(dc, 14, "reclaimed");
    await prepareOnly(r.platform, r.slug);
    await dc.increaseTime(86_400 + 60);
    const author = dc.accounts[15]!;
    await dc.publicClient.waitForTransactionReceipt({
      hash: await dc.wallet(15).writeContract({
        address: dc.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        functionName: "reclaim",
        args: [r.bountyId, author.address],
      }),
    });
    expect(await bountyStatus(dc, r.bountyId)).toBe(4);
    const nonce = () => dc.publicClient.getTransactionCount({ address: dc.accounts[14]!.address });
    const before = await nonce();
    for (let call = 0; call < 2; call++) {
      const e = await r.platform.real.award(r.platform.op, r.slug).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "award_not_allowed", details: { bounty_status: "reclaimed" } });
      expect((e as Error).message).toMatch(
        /reclaimed on-chain, not funded: the prepared award can never be sent/,
      );
    }
    expect(await nonce()).toBe(before);
    expect((await r.platform.ctx.store.awards.get(r.slug))!.status).toBe("prepared");
    await r.platform.close();
  });
});

describe("the evidence door keeps the operator's chain problems to the operator's log (probe26 C-F2)", () => {
  it("a confirmed award whose pack cannot be anchored (no ETH), and a prepared award with the RPC down: pack_pending / award_pending naming no account; the detail goes to the log", async () => {
    const dc = devChain();
    const r = await ready(dc, 16, "door-no-eth", crashOnce("awardBeforeMint"));
    await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
    const account = dc.accounts[16]!.address;
    const setBalance = (wei: bigint) =>
      dc.publicClient.request({
        method: "hardhat_setBalance",
        params: [account, `0x${wei.toString(16)}`],
      } as never);
    const lines: string[] = [];
    await setBalance(0n);
    try {
      let h = await r.reopen({ ...chainConfig(dc, 16), log: (l) => lines.push(l) });
      const door = await h.real.awardEvidence(r.slug);
      expect(door).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
      const told = (door as { message: string }).message;
      expect(told).not.toMatch(/ETH|0x/i);
      expect(lines.join("\n")).toMatch(new RegExp(`door-no-eth.*holds no ETH`, "i"));
      await setBalance(10n ** 22n);
      // the door mints again once its back-off after the failed mint has passed (probe38 C-F3)
      r.clock.advance(DOOR_MINT_BACKOFF_MS);
      expect((await h.real.awardEvidence(r.slug)).kind).toBe("pack");

      // a prepared award (another benchmark), the chain RPC refusing connections
      const p = await ready(dc, 11, "door-rpc-down");
      await prepareOnly(p.platform, p.slug);
      lines.length = 0;
      const genesis = await genesisOf(dc);
      h = await openedBeforeOutage(genesis, () =>
        p.reopen({ ...chainConfig(dc, 11), rpcUrl: "http://127.0.0.1:9", log: (l) => lines.push(l) }),
      );
      const pending = await h.real.awardEvidence(p.slug);
      expect(pending).toMatchObject({ kind: "unavailable", reason: "award_pending" });
      expect((pending as { message: string }).message).not.toMatch(/RPC|failed|0x/);
      expect(lines.join("\n")).toMatch(/evidence door door-rpc-down.*chain_error/);
      await h.close();
    } finally {
      await setBalance(10n ** 22n);
      await r.reopen(chainConfig(dc, 16)).then((x) => x.close());
    }
  });
});

describe("the store's chain: its id and its genesis block (store28 R-F1)", () => {
  it("a store marked with another genesis of the same chain id (a devchain beside Base, a devchain started anew) is refused invalid_store naming both ids and hashes; a store marked by chain id only gets the hash; an RPC that does not answer is chain_error (read-only: as before)", async () => {
    const dc = devChain();
    const genesis = await genesisOf(dc);
    const r = await ready(dc, 1, "genesis");
    const meta = (h: Harness, key: string) =>
      h.ctx.store.db
        .selectFrom("meta")
        .select("value")
        .where("key", "=", key)
        .executeTakeFirst()
        .then((x) => x?.value ?? null);
    expect(await meta(r.platform, ON_CHAIN_GENESIS_MARKER)).toBe(genesis);
    // the store as another chain with chain id 8453 left it (its anchors are not on this one)
    const other = "0x" + "11".repeat(32);
    await r.platform.ctx.store.db
      .updateTable("meta")
      .set({ value: other })
      .where("key", "=", ON_CHAIN_GENESIS_MARKER)
      .execute();
    const refused = await r.reopen(chainConfig(dc, 1)).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; details: unknown },
    );
    expect(refused).toMatchObject({
      code: "invalid_store",
      details: { store_chain_id: 8453, chain_id: 8453, store_genesis_hash: other, genesis_hash: genesis },
    });
    expect(refused!.message).toContain(other);
    expect(refused!.message).toContain(genesis);
    // read-only: compared too when the chain answers
    await expect(
      openAt({ ...r.loc, existingStore: true, chain: chainConfig(dc, 1) }).then((h) => h.close()),
    ).rejects.toMatchObject({ code: "invalid_store", details: { store_genesis_hash: other } });

    // a store marked before the hash existed (chain id only): the first process with a chain adds it
    const h = await openAt({ ...r.loc });
    await h.ctx.store.db.deleteFrom("meta").where("key", "=", ON_CHAIN_GENESIS_MARKER).execute();
    await h.close();
    // the RPC down: refused chain_error, nothing written; read-only opens as before
    const dead = { ...chainConfig(dc, 1), rpcUrl: "http://127.0.0.1:9", log: () => {} };
    await expect(r.reopen(dead)).rejects.toMatchObject({
      code: "chain_error",
      details: { call: "read the genesis block" },
    });
    const unread = await openAt({ ...r.loc });
    expect(await meta(unread, ON_CHAIN_GENESIS_MARKER)).toBeNull();
    await unread.close();
    const back = await r.reopen(chainConfig(dc, 1));
    expect(await meta(back, ON_CHAIN_GENESIS_MARKER)).toBe(genesis);
    await back.close();
    const ro = await openAt({ ...r.loc, existingStore: true, chain: dead });
    expect(await meta(ro, ON_CHAIN_GENESIS_MARKER)).toBe(genesis);
    await ro.close();
  });
});

describe("the award window's last second (probe26 C-F1, the award half)", () => {
  it("the latest block at the award deadline: every block to come is past it, answered award_not_allowed naming the deadline before any simulation, nothing sent (probe31 C-F5)", async () => {
    const dc = devChain();
    const r = await ready(dc, 1, "deadline-second");
    const onchain = await attachedBountyOnChain(r.platform.ctx, await r.platform.real.getBenchmark(r.slug));
    const deadline = Number(onchain.awardDeadline);
    await dc.publicClient.request({
      method: "evm_setNextBlockTimestamp" as never,
      params: [deadline] as never,
    });
    await dc.publicClient.request({ method: "evm_mine" as never, params: [] as never });
    // the window's last second by the latest block: the award would land in a later block, past it
    expect(await latestBlockTime(dc)).toBe(deadline);
    r.clock.set(deadline * 1000);
    const nonce = () =>
      dc.publicClient.getTransactionCount({ address: dc.accounts[1]!.address, blockTag: "pending" });
    const before = await nonce();
    const e = await r.platform.real.award(r.platform.op, r.slug).catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: "award_not_allowed",
      details: { award_deadline: deadline, chain_time: deadline },
    });
    expect((e as Error).message).toBe(
      `the award deadline ${deadline} is the latest block's time: every block to come is past it; the author may reclaim`,
    );
    expect(await nonce()).toBe(before);
    expect(await bountyStatus(dc, r.bountyId)).toBe(2);
    await r.platform.close();
  });
});

describe("an award's confirmation depth (probe26 C-F10, store28 R-F2)", () => {
  it("with awardConfirmations 3, kept by the store when reopened without it, a mined award is award_pending (nothing recorded, the door pending) until two more blocks are on top; then recorded with the same transaction", async () => {
    const dc = devChain();
    const r = await ready(dc, 1, "depth");
    r.clock.set((await latestBlockTime(dc)) * 1000);
    for (const bad of [0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 1001])
      await expect(r.reopen({ ...chainConfig(dc, 1), awardConfirmations: bad })).rejects.toMatchObject({
        code: "invalid_option",
        details: { field: "awardConfirmations" },
      });
    const lines: string[] = [];
    await r.reopen({ ...chainConfig(dc, 1), awardConfirmations: 3, log: (l) => lines.push(l) });
    expect(lines.join("\n")).toContain("awards now wait for 3 confirmation(s) (was 1, the default)");
    // store28 R-F2: the depth is the store's: a process that does not set it (the CLI's award at the
    // default) waits as long as the one that set it
    const h = await r.reopen(chainConfig(dc, 1));
    expect(h.ctx.chain!.config.awardConfirmations).toBeUndefined();
    const e = await h.real.award(h.op, r.slug).catch((x: unknown) => x);
    expect(e).toMatchObject({
      code: "award_pending",
      details: { confirmations: 1, confirmations_required: 3 },
    });
    const minedIn = (e as { details: { award_block: number; tx_hash: string } }).details;
    expect(await bountyStatus(dc, r.bountyId)).toBe(3); // on-chain: awarded
    expect((await h.ctx.store.awards.get(r.slug))!.status).not.toBe("confirmed"); // the store waits
    expect(await h.ctx.store.packs.get(r.slug)).toBeFalsy(); // the test set is not revealed yet
    expect(await h.real.awardEvidence(r.slug)).toMatchObject({
      kind: "unavailable",
      reason: "award_pending",
    });
    await dc.mine(1);
    const second = await h.real.award(h.op, r.slug).catch((x: unknown) => x);
    expect(second).toMatchObject({
      code: "award_pending",
      details: { confirmations: 2 },
    });
    await dc.mine(1);
    // recorded now; the pack's anchor waits for the same depth (probe30 C-F8): nothing stored yet
    await expect(h.real.award(h.op, r.slug)).rejects.toMatchObject({
      code: "pack_pending",
      details: { award_tx: minedIn.tx_hash, confirmations: 1, confirmations_required: 3 },
    });
    expect((await h.ctx.store.awards.get(r.slug))!.status).toBe("confirmed");
    expect(await h.ctx.store.packs.get(r.slug)).toBeFalsy();
    await dc.mine(2);
    const done = await h.real.award(h.op, r.slug);
    expect(done.award_tx).toBe(minedIn.tx_hash);
    expect(done.award_block).toBe(minedIn.award_block);
    expect(done.pack_anchor).not.toBeNull();
    expect((await h.real.awardEvidence(r.slug)).kind).toBe("pack");
    await h.close();
  });

  it("a process on an existing store (the CLI's award) records its awardConfirmations as the store's; a read-only one (evidence) does not (probe30 C-F9)", async () => {
    const dc = devChain();
    const r = await ready(dc, 1, "depthcli");
    // the platform `ready` opened is closed; the store has no depth recorded yet
    await r.platform.close();
    let h: Harness;
    const lines: string[] = [];
    h = await openAt({
      ...r.loc,
      existingStore: true,
      chain: { ...chainConfig(dc, 1), awardConfirmations: 5, log: (l) => lines.push(l) },
    });
    expect(await h.ctx.store.awards.recordedAwardConfirmations()).toBe(5);
    expect(lines.join("\n")).toContain("awards now wait for 5 confirmation(s) (was 1, the default)");
    await h.close();
    const readOnly: string[] = [];
    h = await openAt({
      ...r.loc,
      existingStore: true,
      keepStoreAwardDepth: true,
      chain: { ...chainConfig(dc, 1), awardConfirmations: 2, log: (l) => readOnly.push(l) },
    });
    expect(await h.ctx.store.awards.recordedAwardConfirmations()).toBe(5);
    expect(readOnly).toEqual([]);
    await h.close();
  });
});
