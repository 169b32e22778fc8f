import { ANCHOR_KINDS, anchorRegistryAbi, benchmarkBountyAbi } from "@bench-bounty/contracts";
import {
  commitTestSet,
  evidencePackBytes,
  packHash,
  parseEvidencePack,
  payoutAmounts,
  rankingDigest,
} from "@bench-bounty/evidence";
import type { DevChain } from "@bench-bounty/devchain";
import { verifyPack } from "@bench-bounty/verifier";
import { describe, expect, it, vi } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { PlatformError } from "../src/errors.js";
import { runBenchmark, type AgentSpec } from "../src/runner.js";
import {
  chainClock,
  chainConfig,
  crashOnce,
  cities,
  freshPostgresTarget,
  bountyCredit,
  bountyStatus,
  lockPrize,
  genesisOf,
  openAt,
  openedBeforeOutage,
  openTemp,
  tempDir,
  TEST_ENGINE,
  useDevChain,
  type Harness,
} from "./helpers.js";

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";
const POOL = 10_000_001n; // odd: dust goes to place 1

const devChain = useDevChain();

/** An in-process agent, `ms` of the manual clock per task, wrong on the run's first `wrong` tasks (private ones: they come first). */
function agent(clock: { advance: (ms: number) => void }, ms: number, wrong = 0): AgentSpec {
  return {
    kind: "function",
    name: `agent-${ms}-${wrong}`,
    answer: (task) => {
      clock.advance(ms);
      return task.ordinal < wrong ? "wrong" : `answer-${/#(\d+)/.exec(task.prompt)![1]}`;
    },
  };
}

/** A cities benchmark of `rows` rows (dataset named `tag`) published on `platform` with an exact grader over {@link TEMPLATE}. */
function publishCities(
  platform: Harness,
  rows: number,
  tag: string | undefined,
  title: string,
  extra: Partial<Parameters<Harness["publish"]>[1]> = {},
) {
  return platform
    .createDataset(cities(rows, tag))
    .then((ds) =>
      platform.publish(ds.dataset_id, { title, prompt_template: TEMPLATE, grader_type: "exact", ...extra }),
    );
}

/**
 * A cities benchmark (`rows` rows, named by `tag`) published on `platform`, and its prize locked by
 * `dc.accounts[author]` (minted the pool first): closes in an hour, award deadline a day later,
 * threshold 50%, winner takes all.
 */
async function publishWithPrize(
  platform: Harness,
  dc: DevChain,
  chainNow: number,
  p: { tag: string; rows: number; title: string; pool: bigint; author: number },
) {
  const { slug } = await publishCities(platform, p.rows, p.tag, p.title, { time_budget_seconds: 600 });
  const { bounty, closesAt } = await lockPrize(platform, dc, slug, chainNow, {
    pool: p.pool,
    author: p.author,
    payoutRule: "winner_take_all",
  });
  return { slug, bounty, closesAt };
}

describe("award on the local Base profile", () => {
  it("publishes with an anchored commitment, locks the prize, runs agents, awards on-chain, mints, anchors, stores and serves a pack that recomputes", async () => {
    const dc = devChain();
    const { now: chainNow, clock } = await chainClock(dc);
    const platform = await openTemp({
      clock: clock.now,
      chain: chainConfig(dc, 0),
      faults: { ...crashOnce("awardBeforeRecord"), ...crashOnce("awardBeforeMint") },
    });
    // what the evidence door serves (the server package maps it to HTTP): the domain's answer
    const evidence = async (slug: string): Promise<any> => platform.awardEvidence(slug);
    try {
      // publish: commitment anchored with kind commitment
      const pub = await publishCities(platform, 20, undefined, "Cities", {
        time_budget_seconds: 600,
        max_attempts: 2,
      });
      const slug = pub.slug;
      expect(pub.commitment_anchor).not.toBeNull();
      expect((await platform.chain!.findAnchor(pub.commit_root!))?.evidence).toEqual(pub.commitment_anchor);
      expect((await evidence(slug)).reason).toBe("not_verifiable_arm");

      // the author locks the prize (approve + createAndFund)
      const author = dc.accounts[1]!;
      const { bounty, closesAt } = await lockPrize(platform, dc, slug, chainNow, {
        pool: POOL,
        author: 1,
        payoutRule: "top_n_split",
      });
      expect(bounty).toMatchObject({
        pool_base_units: String(POOL),
        splits_bps: [5000, 3000, 2000],
        threshold_bps: 5000,
        status: "funded",
      });
      const statusOf = () => bountyStatus(dc, bounty.bounty_id);
      expect(await evidence(slug)).toMatchObject({ kind: "unavailable", reason: "withheld_live_contest" });

      // agents
      const addr = (i: number) => dc.accounts[i]!.address.toLowerCase();
      await platform.registerAgent("author-bot", {
        is_author_agent: true,
        withdrawal_address: author.address,
      });
      await platform.registerAgent("alice", { withdrawal_address: addr(2) });
      await platform.registerAgent("bob", { withdrawal_address: addr(3) });
      await platform.registerAgent("carol", { withdrawal_address: addr(4) });
      await platform.registerAgent("dave", { withdrawal_address: addr(5) });
      // mallory's account starts a run for an agent it never registered and never sets an address
      // (probe11 O1): refused, so it can never rank, and the award pays the others
      const mallory = await platform.real.authenticate(
        (await platform.real.createAccount({ name: "mallory" })).api_key,
      );
      const griefer = await platform.real.startRun(mallory, slug, "mallory-grief").catch((e: unknown) => e);
      expect(griefer).toMatchObject({
        code: "withdrawal_address_required",
        details: { field: "withdrawal_address", agent_id: "mallory-grief" },
      });
      // probe17 B-F11: each hint names the door it works through (the CLI's option is refused with
      // --server: a remote runner sets the address on the server)
      expect((griefer as Error).message).toContain(
        "set it first (through a server: REST PUT /api/v1/accounts/me/withdrawal-address or MCP set_withdrawal_address; " +
          "on a local store: bench-bounty run --withdrawal-address ADDR without --server, or bench-bounty agent ID --withdrawal-address ADDR), then start",
      );
      expect(await platform.getAgent("mallory-grief")).toBeNull(); // nothing left behind
      // nor can an address, once set, be cleared
      await platform.registerAgent("alice", { withdrawal_address: null });
      expect((await platform.getAgent("alice"))!.withdrawal_address).toBe(addr(2));
      await runBenchmark(await platform.backend("author-bot"), slug, "author-bot", agent(clock, 100));
      await runBenchmark(await platform.backend("alice"), slug, "alice", agent(clock, 900));
      await runBenchmark(await platform.backend("alice"), slug, "alice", agent(clock, 400)); // better second attempt
      await runBenchmark(await platform.backend("bob"), slug, "bob", agent(clock, 500, 3)); // private accuracy 0.7
      await runBenchmark(await platform.backend("carol"), slug, "carol", agent(clock, 800, 20)); // all wrong: below the threshold
      await runBenchmark(await platform.backend("dave"), slug, "dave", agent(clock, 700, 1)); // private accuracy 0.9
      expect((await platform.listRuns(slug)).every((r) => r.status === "finalized")).toBe(true);

      // the award is refused before the chain clock reaches closesAt
      await expect(platform.award(slug)).rejects.toMatchObject({ code: "award_not_allowed" });
      await dc.increaseTime(3700);
      clock.set((closesAt + 200) * 1000);
      expect((await evidence(slug)).reason).toBe("not_awarded");

      // crash after the award transaction is mined, before it is recorded: the retry adopts the
      // Awarded log (same ranking digest) instead of sending again
      await expect(platform.award(slug)).rejects.toThrow(/injected crash at awardBeforeRecord/);
      expect(await statusOf()).toBe(3);
      // the store says sent-but-unconfirmed: the domain and the door read the chain (issue 13 item 7)
      expect(await platform.real.awardState(slug)).toMatchObject({ state: "mined" });
      const early = await evidence(slug);
      expect(early.kind).toBe("pack"); // not "not awarded yet" while the chain says Awarded
      expect(await platform.real.awardState(slug)).toMatchObject({ state: "confirmed" });
      // crash after the award is recorded, before the pack: the retry does not pay twice
      await expect(platform.award(slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
      // the door heals: the award is confirmed, so it mints the pack from the recorded award
      const healed = await evidence(slug);
      expect(healed.kind).toBe("pack");
      const healedBytes = Buffer.from(healed.bytes);
      const result = await platform.award(slug);
      const again = await platform.award(slug);
      expect(again).toEqual(result);

      // on-chain: awarded once, credits as computed by the evidence library, root burned
      const lb = await platform.leaderboard(slug);
      expect(lb.rows.map((r) => r.agent_id)).toEqual(["author-bot", "alice", "dave", "bob", "carol"]);
      const amounts = payoutAmounts(POOL, [5000, 3000, 2000], 3);
      expect(result.winners.map((w) => [w.agent_id, w.amount_base_units])).toEqual([
        ["alice", String(amounts[0])],
        ["dave", String(amounts[1])],
        ["bob", String(amounts[2])],
      ]);
      for (const w of result.winners) {
        const credit = await bountyCredit(dc, bounty.bounty_id, w.withdrawal_address);
        expect(credit).toBe(BigInt(w.amount_base_units));
      }
      expect(
        await dc.publicClient.readContract({
          address: dc.contracts.benchmarkBounty,
          abi: benchmarkBountyAbi,
          functionName: "rootBurned",
          args: [author.address, pub.commit_root!], // SPEC v1.1: burned per author
        }),
      ).toBe(true);
      const awardedLogs = await dc.publicClient.getContractEvents({
        address: dc.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        eventName: "Awarded",
        fromBlock: 0n,
      });
      expect(awardedLogs).toHaveLength(1);
      expect(awardedLogs[0]!.args.rankingDigest).toBe(result.ranking_digest);

      // the pack: stored bytes recompute with the evidence library
      const stored = await platform.awardEvidence(slug);
      if (stored.kind !== "pack") throw new Error(`no pack: ${stored.reason}`);
      const bytes = Buffer.from(stored.bytes);
      expect(result.pack_size).toBe(bytes.length);
      // the head: the hash and the stored size read without the bytes (probe20 F4)
      expect(await platform.awardEvidenceHead(slug)).toEqual({
        kind: "pack",
        pack_hash: result.pack_hash,
        pack_size: bytes.length,
      });
      expect(stored.pack_size).toBe(bytes.length);
      // the bytes by the head's hash (a 200 of the door), and only by it
      expect(Buffer.from(await platform.awardEvidenceBytes(slug, result.pack_hash)).equals(bytes)).toBe(true);
      await expect(platform.awardEvidenceBytes(slug, `0x${"0".repeat(64)}`)).rejects.toThrow(
        /no pack 0x0{64} of .* is stored/,
      );
      const pack = parseEvidencePack(bytes);
      expect(Buffer.from(evidencePackBytes(pack)).equals(bytes)).toBe(true);
      expect(healedBytes.equals(bytes)).toBe(true);
      expect(packHash(pack)).toBe(pack.pack_hash);
      expect(pack.pack_hash).toBe(result.pack_hash);
      expect(rankingDigest(pack.rank_derivation)).toBe(pack.benchmark.ranking_digest);
      expect(pack.benchmark).toMatchObject({
        slug,
        commit_root: pub.commit_root,
        leaf_count: 20,
        bounty_id: bounty.bounty_id,
        award_tx: result.award_tx,
        pool_base_units: String(POOL),
      });
      const c = commitTestSet(pack.test_set as never);
      expect(c.root).toBe(pub.commit_root);
      expect(pack.winners.map((w) => w.agent_id)).toEqual(["alice", "dave", "bob"]);
      expect(pack.rank_derivation.rows.find((r) => r.agent_id === "author-bot")!.rank).toBe(1);
      expect(pack.pack_anchor).toEqual(
        (await platform.chain!.findAnchor(pack.pack_hash as `0x${string}`))?.evidence,
      );
      for (const r of pack.rank_derivation.rows)
        expect(await platform.chain!.findAnchor(r.receipt_hash as `0x${string}`)).not.toBeNull();

      // the door serves the same bytes, forever
      const first = await evidence(slug);
      expect(first).toMatchObject({ kind: "pack", pack_hash: result.pack_hash });
      expect(Buffer.from(first.bytes).equals(bytes)).toBe(true);
      const second = await evidence(slug);
      expect(Buffer.from(second.bytes).equals(bytes)).toBe(true);
      expect(await platform.getBenchmark(slug)).toMatchObject({
        slug,
        status: "awarded",
        commit_root: pub.commit_root,
        leaf_count: 20,
      });
      expect((await platform.leaderboard(slug)).rows[0]!.agent_id).toBe("author-bot");
      const row1 = pack.rank_derivation.rows[1]!;
      expect((await platform.real.receipt(null, slug, row1.run_id)).receipt_hash).toBe(row1.receipt_hash);

      // and with the verifier package, against the chain
      const report = await verifyPack({
        source: new Uint8Array(bytes),
        rpcUrl: dc.rpcUrl,
        policy: "onchain",
      });
      const bad = Object.entries(report.facts).filter(([, f]) => f.state === "failed");
      expect(bad).toEqual([]);
      expect(report.policy_unmet).toEqual([]);
      expect(report.policy_met).toBe(true);
    } finally {
      await platform.close();
    }
  }, 240_000);

  it("an award with no runs returns the whole pool to the author and mints a zero-winner pack (no_runs)", async () => {
    const dc = devChain();
    const { now, clock } = await chainClock(dc);
    const platform = await openTemp({ clock: clock.now, chain: chainConfig(dc, 0) });
    try {
      const { slug } = await publishCities(platform, 5, "empty-contest", "Nobody came");
      const author = dc.accounts[7]!;
      const { bounty } = await lockPrize(platform, dc, slug, now, {
        pool: 5_000_000n,
        author: 7,
        closesIn: 60,
        awardWindow: 5940,
        thresholdBps: 0,
        payoutRule: "winner_take_all",
      });
      await dc.increaseTime(120);
      const result = await platform.award(slug);
      expect(result.winners).toEqual([]);
      expect(result.zero_winner_reason).toBe("no_runs");
      const credit = await bountyCredit(dc, bounty.bounty_id, author.address);
      expect(credit).toBe(5_000_000n);
      const stored = await platform.awardEvidence(result.slug);
      if (stored.kind !== "pack") throw new Error(`no pack: ${stored.reason}`);
      const packBytes = stored.bytes;
      const pack = parseEvidencePack(packBytes);
      expect(pack.rank_derivation).toMatchObject({
        zero_winner_reason: "no_runs",
        rows: [],
        place_amounts_base_units: [],
        payout_rule: "winner_take_all",
      });
      const report = await verifyPack({
        source: packBytes,
        rpcUrl: dc.rpcUrl,
        policy: "onchain",
      });
      expect(Object.entries(report.facts).filter(([, f]) => f.state === "failed")).toEqual([]);
      // no receipt at all: the receipt facts are not-required (the onchain policy of the verifier wants
      // receipt_anchors verified even then, so it is checked fact by fact here)
      expect(report.facts.receipt_anchors.state).toBe("not-required");
      expect(report.policy_unmet.filter((f) => f !== "receipt_anchors")).toEqual([]);
      const offline = await verifyPack({ source: packBytes });
      expect(offline.policy_met).toBe(true);
    } finally {
      await platform.close();
    }
  }, 120_000);

  it("two awards of one benchmark at once (two processes on PostgreSQL, two requests on SQLite): one award transaction, one pack, the same answer", async () => {
    const dc = devChain();
    const { now, clock } = await chainClock(dc);
    const opts = { clock: clock.now, chain: chainConfig(dc, 0) };
    let first: Harness;
    let second: Harness;
    if (TEST_ENGINE === "postgres") {
      const database = await freshPostgresTarget();
      first = await openAt({ ...opts, database, runsDir: tempDir() });
      second = await openAt({ ...opts, database, runsDir: tempDir() });
    } else {
      first = await openTemp(opts);
      second = first;
    }
    try {
      const { slug } = await publishCities(first, 6, "award-race", "Award race");
      const { bounty } = await lockPrize(first, dc, slug, now, {
        pool: 3_000_000n,
        author: 6,
        closesIn: 60,
        awardWindow: 5940,
        thresholdBps: 0,
        payoutRule: "winner_take_all",
      });
      await first.registerAgent("racer", { withdrawal_address: dc.accounts[5]!.address });
      await runBenchmark(await first.backend("racer"), slug, "racer", agent(clock, 50));
      await dc.increaseTime(120);
      clock.advance(120_000);
      const [a, b] = await Promise.all([first.award(slug), second.award(slug)]);
      expect(b).toEqual(a);
      expect(a.winners.map((w) => w.agent_id)).toEqual(["racer"]);
      const logs = await dc.publicClient.getContractEvents({
        address: dc.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        eventName: "Awarded",
        args: { bountyId: BigInt(bounty.bounty_id) },
        fromBlock: 0n,
      });
      expect(logs).toHaveLength(1);
      const packAnchors = await dc.publicClient.getContractEvents({
        address: dc.contracts.anchorRegistry,
        abi: anchorRegistryAbi,
        fromBlock: 0n,
      });
      expect(
        packAnchors.filter((l) =>
          JSON.stringify(l.args, (_k, v) => (typeof v === "bigint" ? String(v) : v)).includes(a.pack_hash),
        ),
      ).toHaveLength(1);
      const d1 = await first.awardEvidence(slug);
      const d2 = await second.awardEvidence(slug);
      if (d1.kind !== "pack" || d2.kind !== "pack") throw new Error("no pack");
      expect(Buffer.from(d2.bytes).equals(Buffer.from(d1.bytes))).toBe(true);
      expect(d1.pack_hash).toBe(a.pack_hash);
    } finally {
      await first.close();
      if (second !== first) await second.close();
    }
  }, 120_000);

  it("concurrent runs in one process anchor every receipt at finalize (chain writes are serialised)", async () => {
    const dc = devChain();
    const { clock } = await chainClock(dc);
    const platform = await openTemp({ clock: clock.now, chain: chainConfig(dc, 8) });
    try {
      const { slug } = await publishCities(platform, 8, "concurrent", "Concurrent");
      const results = await Promise.all(
        ["c1", "c2", "c3", "c4", "c5"].map(async (id) =>
          runBenchmark(await platform.backend(id), slug, id, agent(clock, 5), { concurrency: 3 }),
        ),
      );
      for (const r of results) {
        expect(r.finalized!.receipt_anchor).not.toBeNull();
        expect((await platform.chain!.findAnchor(r.finalized!.receipt_hash!))?.evidence).toEqual(
          r.finalized!.receipt_anchor,
        );
      }
      expect(await platform.anchorPendingReceipts(slug)).toEqual({});
    } finally {
      await platform.close();
    }
  }, 120_000);

  it("batched receipt anchoring: finalize leaves receipts pending, one anchorMany anchors them all with kind receipt", async () => {
    const dc = devChain();
    const { clock } = await chainClock(dc);
    const platform = await openTemp({
      clock: clock.now,
      receiptAnchoring: "batch",
      chain: chainConfig(dc, 6),
    });
    try {
      const { slug } = await publishCities(platform, 6, "batched", "Batched");
      const finals = [];
      for (const id of ["a1", "a2", "a3"])
        finals.push((await runBenchmark(await platform.backend(id), slug, id, agent(clock, 10))).finalized!);
      expect(finals.every((f) => f.receipt_anchor === null)).toBe(true);
      // pending: the hash is not shown (probe14 D3-F8), not even to the run's owner nor on the board
      expect(finals.map((f) => f.receipt_hash)).toEqual([null, null, null]);
      const boardBefore = await platform.leaderboard(slug, { board: "public" });
      expect(boardBefore.rows.map((r) => r.receipt_hash)).toEqual([null, null, null]);
      const hashes = await Promise.all(finals.map((f) => platform.storedReceiptHash(f.run_id)));
      for (const h of hashes) expect(await platform.chain!.findAnchor(h)).toBeNull();
      const anchored = await platform.anchorPendingReceipts(slug);
      const txs = new Set(hashes.map((h) => anchored[h]!.tx_hash));
      expect(txs.size).toBe(1);
      for (const h of hashes) {
        const [anchorer, , , kind] = await dc.publicClient.readContract({
          address: dc.contracts.anchorRegistry,
          abi: anchorRegistryAbi,
          functionName: "anchorOf",
          args: [h],
        });
        expect(anchorer.toLowerCase()).toBe(dc.accounts[6]!.address.toLowerCase());
        expect(kind).toBe(ANCHOR_KINDS.receipt);
      }
      // anchored: shown everywhere (the anchoring bumped the cached board)
      const boardAfter = await platform.leaderboard(slug, { board: "public" });
      expect(boardAfter.rows.map((r) => r.receipt_hash).sort()).toEqual([...hashes].sort());
      const owner = await platform.ownerOfRun(finals[0]!.run_id);
      expect((await platform.real.getRun(owner, finals[0]!.run_id)).receipt_hash).toBe(hashes[0]);
      expect(await platform.anchorPendingReceipts(slug)).toEqual({});
    } finally {
      await platform.close();
    }
  }, 120_000);

  it("receipts finalized while the store had no chain are anchored by `anchor` once a chain is configured (probe12 P2)", async () => {
    const dc = devChain();
    const { clock } = await chainClock(dc);
    const dir = tempDir();
    const offChain = await openAt({ dir, clock: clock.now });
    let finals;
    try {
      const { slug } = await publishCities(offChain, 6, "offchain", "Off chain");
      finals = [];
      for (const id of ["o1", "o2"])
        finals.push({
          slug,
          f: (await runBenchmark(await offChain.backend(id), slug, id, agent(clock, 10))).finalized!,
        });
      expect(finals.map((x) => x.f.receipt_anchor_status)).toEqual(["off_chain", "off_chain"]);
    } finally {
      await offChain.close();
    }
    const onChain = await openAt({ dir, clock: clock.now, chain: chainConfig(dc, 7) });
    try {
      const slug = finals[0]!.slug;
      const anchored = await onChain.anchorPendingReceipts(slug);
      for (const { f } of finals) {
        const hash = f.receipt_hash!; // off-chain: shown at once (nobody anchors it)
        expect(anchored[hash]).toBeDefined();
        expect((await onChain.chain!.findAnchor(hash))?.evidence).toEqual(anchored[hash]);
      }
      expect(await onChain.anchorPendingReceipts(slug)).toEqual({});
    } finally {
      await onChain.close();
    }
  }, 120_000);

  it("a crash between sending the award and recording it as sent: the door adopts the on-chain award and serves its pack; award adopts it without paying twice (issue 13 re-probe F4)", async () => {
    const dc = devChain();
    const { now: chainNow, clock } = await chainClock(dc);
    const platform = await openTemp({
      clock: clock.now,
      chain: chainConfig(dc, 0),
      faults: crashOnce("awardBeforeMarkSent"),
    });
    const { slug, bounty, closesAt } = await publishWithPrize(platform, dc, chainNow, {
      tag: "marksent",
      rows: 6,
      title: "Crash",
      pool: 10_000_000n,
      author: 1,
    });
    const winner = dc.accounts[2]!.address.toLowerCase() as `0x${string}`;
    await platform.registerAgent("alice", { withdrawal_address: winner });
    await runBenchmark(await platform.backend("alice"), slug, "alice", agent(clock, 1000));
    await dc.increaseTime(3700);
    clock.set((closesAt + 200) * 1000);
    await expect(platform.award(slug)).rejects.toThrow(/injected crash/);
    expect((await platform.ctx.store.awards.get(slug))!.status).toBe("prepared");
    const status = await bountyStatus(dc, bounty.bounty_id);
    expect(status).toBe(3); // Awarded on-chain, the store still says prepared
    const door: any = await platform.awardEvidence(slug);
    expect(door.kind).toBe("pack");
    const pack = parseEvidencePack(door.bytes);
    expect(pack.benchmark.ranking_digest).toBe((await platform.ctx.store.awards.get(slug))!.ranking_digest);
    const again = await platform.award(slug);
    expect(again.pack_hash).toBe(door.pack_hash);
    // paid once: one Awarded log for this bounty, the whole pool credited to the winner
    const logs = await dc.publicClient.getContractEvents({
      address: dc.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      eventName: "Awarded",
      args: { bountyId: BigInt(bounty.bounty_id) },
      fromBlock: 0n,
    });
    expect(logs).toHaveLength(1);
    expect(again.award_tx).toBe(logs[0]!.transactionHash);
    const credit = await bountyCredit(dc, bounty.bounty_id, winner);
    expect(credit).toBe(10_000_000n);
    await platform.close();
  }, 120_000);

  it("an award whose pack would be over the verifier's size limit is refused before anything is sent (issue 13 re-probe F6)", async () => {
    const dc = devChain();
    const { now: chainNow, clock } = await chainClock(dc);
    const faults: { maxPackBytes?: number } = {};
    const platform = await openTemp({ clock: clock.now, chain: chainConfig(dc, 0), faults });
    const { slug, bounty, closesAt } = await publishWithPrize(platform, dc, chainNow, {
      tag: "toolarge",
      rows: 6,
      title: "Large",
      pool: 10_000_000n,
      author: 1,
    });
    await platform.registerAgent("alice", { withdrawal_address: dc.accounts[2]!.address.toLowerCase() });
    await runBenchmark(await platform.backend("alice"), slug, "alice", agent(clock, 1000));
    // PACK_LIMITS.maxPackBytes lowered after the runs (publish refuses what cannot fit, pack-budget.ts), so a
    // small pack reaches it: the award's own measure of the real pack is the backstop
    faults.maxPackBytes = 2000;
    await dc.increaseTime(3700);
    clock.set((closesAt + 200) * 1000);
    const e = await platform.award(slug).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).details).toMatchObject({
      reason: "pack_too_large",
      limit: "maxPackBytes",
      max: 2000,
    });
    expect((e as PlatformError).message).toMatch(/over the 2000 bytes .*not sent/);
    const status = await bountyStatus(dc, bounty.bounty_id);
    expect(status).toBe(2); // still Funded: nothing was sent
    expect((await platform.ctx.store.awards.get(slug))!.status).toBe("prepared");
    await platform.close();
  }, 120_000);

  it("a chain outage at publish leaves the commitment pending; the benchmark is stored and the door says no_commitment", async () => {
    // the devchain's contracts and account 0, behind an RPC URL nothing listens on
    const platform = await openedBeforeOutage(await genesisOf(devChain()), () =>
      openTemp({
        chain: { ...chainConfig(devChain(), 0), rpcUrl: "http://127.0.0.1:9", chainId: 8453 },
      }),
    );
    const res = await publishCities(platform, 3, "outage", "Outage");
    expect(res.commitment_anchor).toBeNull();
    expect(res).toMatchObject({ commitment_anchor_status: "pending" }); // reported, not silent (re-probe F8)
    expect(res.commitment_anchor_error).toMatch(/failed/);
    expect(res.commit_root).toBeNull(); // shown once anchored (probe14 D3-F8)
    const pending = await platform.ctx.store.db
      .selectFrom("anchors")
      .select(["kind", "status"])
      .where("digest", "=", await platform.storedCommitRoot(res.slug))
      .executeTakeFirst();
    expect(pending).toEqual({ kind: "commitment", status: "pending" });
    expect(await platform.awardEvidence(res.slug)).toMatchObject({
      kind: "unavailable",
      reason: "no_commitment",
    });
    await expect(platform.anchorCommitment(res.slug)).rejects.toMatchObject({ code: "chain_error" });
    // alice's account was made before the outage: its withdrawal address's code read answered (an account
    // without code); made during it, it is refused chain_error (relay28: the code rule at account creation)
    const codeRead = vi.spyOn(ChainGateway.prototype, "codeAt").mockResolvedValue("0x");
    try {
      await platform.principal("alice");
    } finally {
      codeRead.mockRestore();
    }
    // a receipt whose anchoring fails is reported at finalize, stays pending, and is listed (issue 13 item 9)
    const run = (await platform.startRun(res.slug, "alice")).run.id;
    const f = await platform.finalize(run);
    expect(f).toMatchObject({ receipt_anchor: null, receipt_anchor_status: "pending" });
    expect(f.receipt_anchor_error).toMatch(/failed/);
    expect(f.receipt_hash).toBeNull(); // shown once anchored (probe14 D3-F8)
    expect((await platform.real.pendingAnchors(res.slug)).map((a) => [a.kind, a.digest])).toEqual([
      ["commitment", await platform.storedCommitRoot(res.slug)],
      ["receipt", await platform.storedReceiptHash(run)],
    ]);
    await platform.close();
  }, 60_000);

  it("the door answers no_commitment for an off-chain benchmark and unknown_benchmark for an unknown slug", async () => {
    const platform = await openTemp();
    const { slug } = await publishCities(platform, 3, "offchain", "Off");
    expect(await platform.awardEvidence(slug)).toMatchObject({
      kind: "unavailable",
      reason: "no_commitment",
    });
    expect(await platform.awardEvidence("nope")).toMatchObject({
      kind: "unavailable",
      reason: "unknown_benchmark",
    });
    await expect(platform.award(slug)).rejects.toMatchObject({ code: "no_chain" });
    await platform.close();
  });
});
