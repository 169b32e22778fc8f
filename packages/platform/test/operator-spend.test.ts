/**
 * The operator's spend per account (issue 13 re-probe: publish and finalize each cost one operator
 * transaction, 40 in 7 s from 2 addresses). Receipts and commitments are anchored in `anchorMany`
 * batches (counted here by the signer's nonce on the local chain), the award still anchors every
 * receipt and commitment left pending before it ranks (SPEC 4, 8), and an account's publishes are
 * bounded per period; all accounts together are not by default (probe8 P2: free accounts filled a
 * global budget and locked every author out).
 */
import { ANCHOR_KINDS, anchorRegistryAbi } from "@bench-bounty/contracts";
import type { Hex } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import type { Principal } from "../src/identity/principal.js";
import type { PlatformOptions } from "../src/index.js";
import { runBenchmark, type AgentSpec } from "../src/runner.js";
import {
  chainConfig,
  cities,
  freshPostgresTarget,
  latestBlockTime,
  lockPrize,
  manualClock,
  openAt,
  openTemp,
  rejection,
  tempDir,
  TEST_ENGINE,
  useDevChain,
  type Harness,
} from "./helpers.js";

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";
const devChain = useDevChain();

function agent(clock: { advance: (ms: number) => void }): AgentSpec {
  return {
    kind: "function",
    name: "right",
    answer: (task) => {
      clock.advance(50);
      return `answer-${/#(\d+)/.exec(task.prompt)![1]}`;
    },
  };
}

/** What {@link onChain} hands its test. */
interface OnChain {
  dc: ReturnType<typeof devChain>;
  clock: ReturnType<typeof manualClock>;
  platform: Harness;
  /** The operator signer's transaction count (one per anchor transaction). */
  nonce: () => Promise<number>;
}

/**
 * Runs `test` on a platform whose operator signs with the dev chain's account `signer`, its clock at
 * the chain's time, anchors batched as `anchorBatching` says (inline when absent), with the other
 * platform options of `extra`, the chain's log lines to `log` when given; closed after.
 */
async function onChain(
  signer: number,
  anchorBatching: PlatformOptions["anchorBatching"],
  test: (t: OnChain) => Promise<void>,
  extra: Partial<PlatformOptions> = {},
  log?: (line: string) => void,
): Promise<void> {
  const dc = devChain();
  const clock = manualClock((await latestBlockTime(dc)) * 1000);
  const platform = await openTemp({
    clock: clock.now,
    chain: { ...chainConfig(dc, signer), ...(log ? { log } : {}) },
    // answers do not wait for the batch here (revealWaitMs 0): the tests flush by hand or wait themselves
    ...(anchorBatching ? { anchorBatching: { revealWaitMs: 0, ...anchorBatching } } : {}),
    ...extra,
  });
  const address = dc.accounts[signer]!.address;
  try {
    await test({ dc, clock, platform, nonce: () => dc.publicClient.getTransactionCount({ address }) });
  } finally {
    await platform.close();
  }
}

/** Starts and at once finalizes a run of `agentId` for `who` on `slug`, one clock second apart. */
async function finalizeAs(t: OnChain, slug: string, who: Principal, agentId: string) {
  const run = await t.platform.real.startRun(who, slug, agentId);
  t.clock.advance(1000);
  return t.platform.real.finalize(who, run.run.id);
}

/** Publishes a benchmark of `rows` (default 4) cities titled `tag`, by account `by` (default: the operator). */
async function publishCities(
  platform: Harness,
  tag: string,
  o: { by?: string; rows?: number; time_budget_seconds?: number } = {},
) {
  const spec = {
    title: tag,
    prompt_template: TEMPLATE,
    grader_type: "exact" as const,
    ...(o.time_budget_seconds !== undefined ? { time_budget_seconds: o.time_budget_seconds } : {}),
  };
  const data = cities(o.rows ?? 4, tag);
  if (o.by === undefined) return platform.publish((await platform.createDataset(data)).dataset_id, spec);
  const p = await platform.principal(o.by);
  return platform.real.publish(p, (await platform.real.createDataset(p, data)).dataset_id, spec);
}

/** Runs `test` on a platform without a chain under `publishQuota` (the default when undefined), its clock at 2026-12-01; closed after. */
async function withQuota(
  publishQuota: PlatformOptions["publishQuota"],
  test: (t: { clock: ReturnType<typeof manualClock>; platform: Harness }) => Promise<void>,
): Promise<void> {
  const clock = manualClock(Date.parse("2026-12-01T00:00:00Z"));
  const platform = await openTemp({
    clock: clock.now,
    ...(publishQuota !== undefined ? { publishQuota } : {}),
  });
  try {
    await test({ clock, platform });
  } finally {
    await platform.close();
  }
}

/** The publish_quota_exceeded error of `publish` (the test fails if it passes or throws another). */
async function quotaRefusal(publish: Promise<unknown>): Promise<unknown> {
  const e = await publish.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toMatchObject({ code: "publish_quota_exceeded" });
  return e;
}

/** A publish race under a quota of 3: exactly 3 published, every other refused naming `limit`. */
function expectThreePublished(results: PromiseSettledResult<unknown>[], limit: string): void {
  expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
  for (const r of results)
    if (r.status === "rejected")
      expect(r.reason).toMatchObject({ code: "publish_quota_exceeded", details: { limit, count: 3 } });
}
/**
 * Publishes `tag` (6 rows), locks a 1 USDC winner-take-all prize by account 10 closing in an hour, and runs
 * `agents` (withdrawal addresses accounts 11 and 12) to the end: the finalized runs, their receipts pending.
 */
async function lockedWithTwoRuns(
  dc: OnChain["dc"],
  clock: OnChain["clock"],
  platform: OnChain["platform"],
  tag: string,
  agents: [string, string],
) {
  const chainNow = Math.floor(clock.now() / 1000);
  const { slug } = await publishCities(platform, tag, { rows: 6, time_budget_seconds: 600 });
  const author = dc.accounts[10]!;
  const pool = 1_000_000n;
  await dc.mintUsdc(author.address, pool);
  const closesAt = chainNow + 3600;
  await platform.lockBounty(slug, {
    authorPrivateKey: author.privateKey,
    pool,
    closesAt,
    awardDeadline: closesAt + 86400,
    thresholdBps: 5000,
    payoutRule: "winner_take_all",
  });
  const [a, b] = agents;
  await platform.registerAgent(a, { withdrawal_address: dc.accounts[11]!.address });
  await platform.registerAgent(b, { withdrawal_address: dc.accounts[12]!.address });
  const f1 = (await runBenchmark(await platform.backend(a), slug, a, agent(clock))).finalized!;
  const f2 = (await runBenchmark(await platform.backend(b), slug, b, agent(clock))).finalized!;
  return { slug, closesAt, f1, f2 };
}

describe("receipt anchors are batched", () => {
  it("12 finalizes from 12 accounts cost one operator transaction; each receipt is pending until its batch is mined", async () => {
    // a flush interval longer than the test: the batch is flushed by hand below
    await onChain(7, { flushMs: 3_600_000 }, async ({ clock, platform, nonce }) => {
      const pub = await publishCities(platform, "spend", { rows: 6 });
      expect(pub.commitment_anchor_status).toBe("pending");
      expect(await platform.real.flushAnchors()).toBe(1); // the commitment
      const before = await nonce();
      const finals = [];
      for (let i = 0; i < 12; i++) {
        const id = `spender-${i}`;
        finals.push((await runBenchmark(await platform.backend(id), pub.slug, id, agent(clock))).finalized!);
      }
      expect(await nonce()).toBe(before); // no operator transaction per finalize
      expect(finals.every((f) => f.receipt_anchor_status === "pending" && f.receipt_anchor === null)).toBe(
        true,
      );
      expect(await platform.real.pendingAnchors(pub.slug)).toHaveLength(12);
      expect(await platform.real.flushAnchors()).toBe(12);
      expect(await nonce()).toBe(before + 1); // one anchorMany for all twelve
      expect(await platform.real.pendingAnchors(pub.slug)).toEqual([]);
      const txs = new Set<string>();
      for (const f of finals) {
        const found = await platform.chain!.findAnchor(await platform.storedReceiptHash(f.run_id));
        expect(found).not.toBeNull();
        txs.add(found!.evidence.tx_hash);
      }
      expect(txs.size).toBe(1);
    });
  }, 180_000);

  it("the batcher's timer flushes what finalizes left pending, without being asked", async () => {
    await onChain(8, { flushMs: 50 }, async ({ dc, clock, platform }) => {
      const pub = await publishCities(platform, "timer");
      const f = (await runBenchmark(await platform.backend("t1"), pub.slug, "t1", agent(clock))).finalized!;
      expect(f.receipt_anchor_status).toBe("pending");
      expect(f.receipt_hash).toBeNull(); // shown once anchored (probe14 D3-F8)
      const hash = await platform.storedReceiptHash(f.run_id);
      // waits for the flush (no duration asserted)
      for (let i = 0; i < 600 && (await platform.real.pendingAnchors(pub.slug)).length > 0; i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(await platform.real.pendingAnchors(pub.slug)).toEqual([]);
      const [anchorer] = await dc.publicClient.readContract({
        address: dc.contracts.anchorRegistry,
        abi: anchorRegistryAbi,
        functionName: "anchorOf",
        args: [hash],
      });
      expect(anchorer.toLowerCase()).toBe(dc.accounts[8]!.address.toLowerCase());
    });
  }, 180_000);

  it("the award anchors every receipt still pending before it ranks (the lock anchored the commitment)", async () => {
    await onChain(9, { flushMs: 3_600_000 }, async ({ dc, clock, platform }) => {
      const { slug, closesAt, f1, f2 } = await lockedWithTwoRuns(dc, clock, platform, "award-batch", [
        "w1",
        "w2",
      ]);
      // the two receipts (never flushed here); the lock anchored the commitment before putting its
      // root on-chain (probe15 A-F1)
      expect((await platform.real.pendingAnchors(slug)).map((a) => a.kind).sort()).toEqual([
        "receipt",
        "receipt",
      ]);
      await dc.increaseTime(3700);
      clock.set((closesAt + 200) * 1000);
      await platform.award(slug);
      expect(await platform.real.pendingAnchors(slug)).toEqual([]);
      const b = await platform.real.getBenchmark(slug);
      expect(b.commitment_anchor).toEqual((await platform.chain!.findAnchor(b.commit_root))?.evidence);
      for (const f of [f1, f2])
        expect(await platform.chain!.findAnchor(await platform.storedReceiptHash(f.run_id))).not.toBeNull();
    });
  }, 180_000);
  it("the award sends its pending receipts in batches of the batcher's size, never one transaction of them all (probe35 C-F6: 2,600 ran out of gas)", async () => {
    await onChain(9, { flushMs: 3_600_000, maxBatch: 1 }, async ({ dc, clock, platform }) => {
      const { slug, closesAt, f1, f2 } = await lockedWithTwoRuns(dc, clock, platform, "award-chunks", [
        "wc1",
        "wc2",
      ]);
      expect((await platform.real.pendingAnchors(slug)).length).toBe(2);
      await dc.increaseTime(3700);
      clock.set((closesAt + 200) * 1000);
      await platform.award(slug);
      expect(await platform.real.pendingAnchors(slug)).toEqual([]);
      const anchors = [];
      for (const f of [f1, f2])
        anchors.push(
          (await platform.chain!.findAnchor(await platform.storedReceiptHash(f.run_id)))!.evidence,
        );
      // one transaction per batch of one digest
      expect(anchors[0]!.tx_hash).not.toBe(anchors[1]!.tx_hash);
    });
  }, 180_000);
});

describe("batched receipt anchors are budgeted (probe28 A-F1)", () => {
  it("past an account's budget the batcher sends no more of its digests; the held receipt stays pending and `anchor` anchors it", async () => {
    const quota = { count: 2, periodMs: 3_600_000 };
    await onChain(
      7,
      { flushMs: 3_600_000 },
      async (t) => {
        const { clock, platform, nonce } = t;
        const { slug } = await publishCities(platform, "batch-budget");
        expect(await platform.real.flushAnchors()).toBe(1); // the commitment
        const p = await platform.principal("bb-p");
        const q = await platform.principal("bb-q");
        const finals = [];
        for (const id of ["bb-a", "bb-b", "bb-c"]) finals.push(await finalizeAs(t, slug, p, id));
        expect(finals.map((f) => f.receipt_anchor_status)).toEqual(["pending", "pending", "pending"]);
        const before = await nonce();
        expect(await platform.real.flushAnchors()).toBe(2); // N = 2 digests of the account, not 3
        expect(await nonce()).toBe(before + 1);
        // nothing more of that account: a flush (or the sweep's) sends nothing
        expect(await platform.real.flushAnchors()).toBe(0);
        expect(await nonce()).toBe(before + 1);
        // another account is unaffected
        const o = await finalizeAs(t, slug, q, "bb-o");
        expect(await platform.real.flushAnchors()).toBe(1);
        expect(await platform.chain!.findAnchor(await platform.storedReceiptHash(o.run_id))).not.toBeNull();
        const held = await platform.storedReceiptHash(finals[2]!.run_id);
        expect(await platform.chain!.findAnchor(held)).toBeNull();
        expect((await platform.real.getRun(p, finals[2]!.run_id)).receipt_hash).toBeNull(); // shown once anchored
        // nothing is lost: `anchor <slug>` anchors it, and then every one of them is on chain
        expect((await platform.real.pendingAnchors(slug)).map((a) => a.digest)).toEqual([held]);
        await platform.real.anchorPendingReceipts(slug);
        expect(await platform.real.pendingAnchors(slug)).toEqual([]);
        for (const f of finals)
          expect(await platform.chain!.findAnchor(await platform.storedReceiptHash(f.run_id))).not.toBeNull();
        expect((await platform.real.getRun(p, finals[2]!.run_id)).receipt_hash).toBe(held);
        // once the period has passed, the account's receipts go into the batches again
        clock.advance(3_600_000);
        await finalizeAs(t, slug, p, "bb-a");
        expect(await platform.real.flushAnchors()).toBe(1);
      },
      { batchAnchorQuota: quota },
    );
  }, 180_000);

  it("past the all-accounts budget the batcher sends no more digests; the award anchors the held receipt before it ranks", async () => {
    const quota = { count: 20, periodMs: 3_600_000, allAccountsCount: 1 };
    await onChain(
      9,
      { flushMs: 3_600_000 },
      async ({ dc, clock, platform }) => {
        const { slug, closesAt, f1, f2 } = await lockedWithTwoRuns(dc, clock, platform, "award-budget", [
          "wb1",
          "wb2",
        ]);
        expect(await platform.real.flushAnchors()).toBe(1); // N = 1 for both accounts, not 2
        const held = await platform.storedReceiptHash(f2.run_id);
        expect(await platform.chain!.findAnchor(held)).toBeNull();
        expect((await platform.real.pendingAnchors(slug)).map((a) => a.digest)).toEqual([held]);
        await dc.increaseTime(3700);
        clock.set((closesAt + 200) * 1000);
        await platform.award(slug);
        expect(await platform.real.pendingAnchors(slug)).toEqual([]);
        for (const f of [f1, f2])
          expect(await platform.chain!.findAnchor(await platform.storedReceiptHash(f.run_id))).not.toBeNull();
      },
      { batchAnchorQuota: quota },
    );
  }, 180_000);

  it("defaults to 200 per account and 5,000 for all accounts; a bad count is refused at open, naming it", async () => {
    const { DEFAULT_BATCH_ANCHOR_QUOTA } = await import("../src/runs.js");
    expect(DEFAULT_BATCH_ANCHOR_QUOTA).toMatchObject({ count: 200, allAccountsCount: 5_000 });
    for (const [bad, field] of [
      [{ count: 0, periodMs: 1000 }, "batchAnchorQuota.count"],
      [{ count: 2, periodMs: 1000, allAccountsCount: 1.5 }, "batchAnchorQuota.allAccountsCount"],
    ] as const) {
      const e = await openTemp({ batchAnchorQuota: bad }).then(
        (h) => h.close().then(() => null),
        (x: unknown) => x,
      );
      expect(e).toMatchObject({ code: "invalid_option", details: { field } });
    }
  });
});

describe("immediate receipt anchors are budgeted per account", () => {
  it("N+1 finalizes by one account in immediate mode send N operator transactions; the last receipt stays pending and is anchored later (probe10 R13)", async () => {
    const quota = { count: 2, periodMs: 3_600_000 };
    await onChain(
      18,
      undefined,
      async (t) => {
        const { clock, platform, nonce } = t;
        const { slug } = await publishCities(platform, "immediate-budget");
        const p = await platform.principal("imm");
        const q = await platform.principal("imm-other");
        const before = await nonce();
        const finals = [];
        for (const id of ["imm-a", "imm-b", "imm-c"]) finals.push(await finalizeAs(t, slug, p, id));
        expect(await nonce()).toBe(before + 2); // N = 2 immediate anchors, not 3
        expect(finals.map((f) => f.receipt_anchor_status)).toEqual(["anchored", "anchored", "pending"]);
        expect(finals[2]!.receipt_anchor).toBeNull();
        // another account is unaffected
        const o = await finalizeAs(t, slug, q, "imm-o");
        expect(o.receipt_anchor_status).toBe("anchored");
        expect(await nonce()).toBe(before + 3);
        await expectPendingAnchoredLater(t, slug, finals, 2);
        // once the period has passed, the account's finalizes anchor at once again
        clock.advance(3_600_000);
        expect((await finalizeAs(t, slug, p, "imm-a")).receipt_anchor_status).toBe("anchored");
      },
      { receiptAnchoring: "immediate", immediateAnchorQuota: quota },
    );
  }, 180_000);
});

/**
 * Only `finals[pendingAt]` of `slug`'s finalized receipts is pending; nothing is lost: `anchor` (or the
 * award) anchors it, and then every one of them is on chain.
 */
async function expectPendingAnchoredLater(
  t: OnChain,
  slug: string,
  finals: { run_id: string; receipt_hash: `0x${string}` | null }[],
  pendingAt: number,
): Promise<void> {
  const hashes = await Promise.all(finals.map((f) => t.platform.storedReceiptHash(f.run_id)));
  // the pending one is not shown (probe14 D3-F8); the anchored ones are
  expect(finals.map((f, i) => f.receipt_hash === hashes[i])).toEqual(finals.map((_, i) => i !== pendingAt));
  expect((await t.platform.real.pendingAnchors(slug)).map((a) => a.digest)).toEqual([hashes[pendingAt]]);
  await t.platform.real.anchorPendingReceipts(slug);
  expect(await t.platform.real.pendingAnchors(slug)).toEqual([]);
  for (const h of hashes) expect(await t.platform.chain!.findAnchor(h)).not.toBeNull();
}

describe("immediate receipt anchors are budgeted for all accounts together", () => {
  it("N+1 finalizes by 2 accounts under an all-accounts budget of N send N operator transactions; the last receipt stays pending and is anchored later (probe11 O4)", async () => {
    const quota = { count: 20, periodMs: 3_600_000, allAccountsCount: 3 };
    await onChain(
      17,
      undefined,
      async (t) => {
        const { clock, platform, nonce } = t;
        const { slug } = await publishCities(platform, "immediate-budget-all");
        const p = await platform.principal("imm-all-p");
        const q = await platform.principal("imm-all-q");
        const before = await nonce();
        const finals = [];
        for (const [who, id] of [
          [p, "ia-p1"],
          [q, "ia-q1"],
          [p, "ia-p2"],
          [q, "ia-q2"],
        ] as const)
          finals.push(await finalizeAs(t, slug, who, id));
        expect(await nonce()).toBe(before + 3); // N = 3 immediate anchors for both accounts, not 4
        expect(finals.map((f) => f.receipt_anchor_status)).toEqual([
          "anchored",
          "anchored",
          "anchored",
          "pending",
        ]);
        await expectPendingAnchoredLater(t, slug, finals, 3);
        // once the period has passed, finalizes anchor at once again
        clock.advance(3_600_000);
        expect((await finalizeAs(t, slug, q, "ia-q1")).receipt_anchor_status).toBe("anchored");
      },
      { receiptAnchoring: "immediate", immediateAnchorQuota: quota },
    );
  }, 180_000);

  it("the accounts created from one client network share a quarter of the all-accounts budget; another network's finalize still anchors (probe30 A-F7)", async () => {
    const quota = { count: 20, periodMs: 3_600_000, allAccountsCount: 8 }; // a network's share: 2
    await onChain(
      19,
      undefined,
      async (t) => {
        const { platform, nonce } = t;
        const { slug } = await publishCities(platform, "immediate-budget-network");
        const payee = t.dc.accounts[3]!.address;
        const from = async (name: string, network: string) =>
          platform.real.authenticate(
            (
              await platform.real.createAccount(
                { name, roles: ["author", "competitor"], agent: { withdrawal_address: payee } },
                { network },
              )
            ).api_key,
          );
        const p = await from("net-p", "net:10.0.0.0/24");
        const q = await from("net-q", "net:10.0.0.0/24");
        const r = await from("net-r", "net:10.0.1.0/24");
        await platform.real.registerAgent(p, "net-p2", { withdrawal_address: payee });
        const before = await nonce();
        const finals = [];
        for (const [who, id] of [
          [p, "net-p"],
          [q, "net-q"],
          [p, "net-p2"],
          [r, "net-r"],
        ] as const)
          finals.push(await finalizeAs(t, slug, who, id));
        expect(await nonce()).toBe(before + 3); // the network's third is not anchored at once; r's is
        expect(finals.map((f) => f.receipt_anchor_status)).toEqual([
          "anchored",
          "anchored",
          "pending",
          "anchored",
        ]);
        await expectPendingAnchoredLater(t, slug, finals, 2);
      },
      { receiptAnchoring: "immediate", immediateAnchorQuota: quota },
    );
  }, 180_000);

  it("immediate commitment anchors: N+1 publishes by 2 accounts under an all-accounts budget of N send N operator transactions; the last commitment stays pending and is anchored later (probe12 P3)", async () => {
    const quota = { count: 20, periodMs: 3_600_000, allAccountsCount: 2 };
    await onChain(
      18,
      undefined,
      async ({ clock, platform, nonce }) => {
        const before = await nonce();
        const pubs = [];
        for (const [by, tag] of [
          ["cm-all-p", "commit-all-1"],
          ["cm-all-q", "commit-all-2"],
          ["cm-all-p", "commit-all-3"],
        ] as const) {
          pubs.push(await publishCities(platform, tag, { by }));
          clock.advance(1000);
        }
        expect(await nonce()).toBe(before + 2); // N = 2 immediate anchors for both accounts, not 3
        expect(pubs.map((b) => b.commitment_anchor_status)).toEqual(["anchored", "anchored", "pending"]);
        expect(pubs[2]!.commit_root).toBeNull(); // shown once anchored (probe14 D3-F8)
        const root = await platform.storedCommitRoot(pubs[2]!.slug);
        expect((await platform.real.pendingAnchors(pubs[2]!.slug)).map((a) => a.digest)).toEqual([root]);
        // nothing is lost: `anchor` (or the award) anchors it
        await platform.real.anchorCommitment(pubs[2]!.slug);
        expect(await platform.chain!.findAnchor(root)).not.toBeNull();
        expect((await platform.real.commitment(pubs[2]!.slug)).commit_root).toBe(root);
      },
      { receiptAnchoring: "immediate", immediateAnchorQuota: quota },
    );
  }, 180_000);

  it("defaults to 200 for all accounts; a bad allAccountsCount is refused at open, naming it", async () => {
    const { DEFAULT_IMMEDIATE_ANCHOR_QUOTA } = await import("../src/runs.js");
    expect(DEFAULT_IMMEDIATE_ANCHOR_QUOTA).toMatchObject({ count: 20, allAccountsCount: 200 });
    const e = await openTemp({
      immediateAnchorQuota: { count: 2, periodMs: 1000, allAccountsCount: 0 },
    }).then(
      (h) => h.close().then(() => null),
      (x: unknown) => x,
    );
    expect(e).toMatchObject({
      code: "invalid_option",
      details: { field: "immediateAnchorQuota.allAccountsCount" },
    });
  });
});

describe("commitment anchors are batched", () => {
  it("9 publishes from 3 accounts cost ceil(9/maxBatch) operator transactions at the flush; pending in the answer, the detail's anchor once mined", async () => {
    await onChain(13, { flushMs: 3_600_000, maxBatch: 4 }, async ({ platform, nonce }) => {
      const before = await nonce();
      const pubs = [];
      for (const name of ["pub-a", "pub-b", "pub-c"])
        for (let i = 0; i < 3; i++)
          pubs.push(await publishCities(platform, `batch-${name}-${i}`, { by: name }));
      expect(await nonce()).toBe(before); // no operator transaction per publish
      for (const pub of pubs) {
        expect(pub).toMatchObject({ commitment_anchor_status: "pending", commitment_anchor: null });
        expect((await platform.real.benchmarkDetail(pub.slug)).commitment.anchor).toBeNull();
      }
      expect(await platform.real.flushAnchors()).toBe(9);
      expect(await nonce()).toBe(before + Math.ceil(9 / 4)); // one anchorMany per 4 commitments
      for (const pub of pubs) {
        const anchor = (await platform.real.benchmarkDetail(pub.slug)).commitment.anchor;
        const onChain = (await platform.chain!.findAnchor(await platform.storedCommitRoot(pub.slug)))
          ?.evidence;
        expect(anchor).not.toBeNull();
        expect(anchor).toEqual(onChain);
        expect((await platform.real.getBenchmark(pub.slug)).commitment_anchor).toEqual(onChain);
        expect(await platform.real.pendingAnchors(pub.slug)).toEqual([]);
      }
      expect(await platform.real.flushAnchors()).toBe(0);
      expect(await nonce()).toBe(before + 3);
    });
  }, 180_000);

  it("the batcher's timer anchors a publish's commitment without being asked", async () => {
    await onChain(14, { flushMs: 50 }, async ({ platform }) => {
      const pub = await publishCities(platform, "commit-timer");
      expect(pub.commitment_anchor_status).toBe("pending");
      for (let i = 0; i < 600 && (await platform.real.getBenchmark(pub.slug)).commitment_anchor === null; i++)
        await new Promise((r) => setTimeout(r, 100));
      const anchor = (await platform.real.benchmarkDetail(pub.slug)).commitment.anchor;
      expect(anchor).toEqual(
        (await platform.chain!.findAnchor(await platform.storedCommitRoot(pub.slug)))?.evidence,
      );
      expect(anchor!.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    });
  }, 180_000);

  it("a second benchmark of the same rows and seed (the same root, anchored already) is refused at publish: nothing sent (probe27 A-F2)", async () => {
    await onChain(16, { flushMs: 3_600_000 }, async ({ platform, nonce }) => {
      const data = cities(4, "shared-root");
      const spec = { title: "Shared", prompt_template: TEMPLATE, grader_type: "exact" as const, seed: "s1" };
      const publishAs = async (name: string, slug: string) => {
        const p = await platform.principal(name);
        const ds = await platform.real.createDataset(p, data);
        return platform.real.publish(p, ds.dataset_id, { ...spec, slug });
      };
      const first = await publishAs("root-a", "shared-root-a");
      expect(await platform.real.flushAnchors()).toBe(1);
      expect((await platform.real.getBenchmark(first.slug)).commitment_anchor).not.toBeNull();
      const before = await nonce();
      // another account's benchmark is not named (probe29 A-F8)
      const refused = await rejection(publishAs("root-b", "shared-root-b"));
      expect(refused).toMatchObject({ code: "benchmark_exists", details: { field: "seed" } });
      expect(refused.details).not.toHaveProperty("existing_slug");
      expect(await platform.real.listBenchmarks()).toHaveLength(1);
      expect(await platform.real.flushAnchors()).toBe(0);
      expect(await nonce()).toBe(before); // nothing sent for it
    });
  }, 180_000);

  it("two platforms on one store, both batching, flushing together: one anchorMany per kind, nothing left pending", async () => {
    const dc = devChain();
    const signer = 17;
    const clock = manualClock((await latestBlockTime(dc)) * 1000);
    const shared =
      TEST_ENGINE === "postgres"
        ? { database: await freshPostgresTarget(), runsDir: tempDir() }
        : { dir: tempDir() };
    const opts = {
      ...shared,
      clock: clock.now,
      chain: chainConfig(dc, signer),
      anchorBatching: { flushMs: 3_600_000, revealWaitMs: 0 },
    };
    const a = await openAt(opts);
    const b = await openAt(opts);
    const nonce = () => dc.publicClient.getTransactionCount({ address: dc.accounts[signer]!.address });
    try {
      const pubs = [];
      for (let i = 0; i < 3; i++) pubs.push(await publishCities(i % 2 ? b : a, `two-serve-${i}`));
      const finals = [];
      for (const [i, id] of ["two-a", "two-b"].entries()) {
        const p = i % 2 ? b : a;
        finals.push((await runBenchmark(await p.backend(id), pubs[0]!.slug, id, agent(clock))).finalized!);
      }
      const before = await nonce();
      const flushed = await Promise.all([a.real.flushAnchors(), b.real.flushAnchors()]);
      expect(flushed[0] + flushed[1]).toBe(3 + 2); // every digest anchored once, by one of them
      expect(await nonce()).toBe(before + 2); // one anchorMany of commitments, one of receipts
      for (const pub of pubs) {
        expect(await a.real.pendingAnchors(pub.slug)).toEqual([]);
        const anchor = (await b.real.getBenchmark(pub.slug)).commitment_anchor;
        expect(anchor).toEqual((await a.chain!.findAnchor(await a.storedCommitRoot(pub.slug)))?.evidence);
      }
      for (const f of finals)
        expect(await a.chain!.findAnchor(await a.storedReceiptHash(f.run_id))).not.toBeNull();
      expect(await Promise.all([a.real.flushAnchors(), b.real.flushAnchors()])).toEqual([0, 0]);
      expect(await nonce()).toBe(before + 2);
    } finally {
      await a.close();
      await b.close();
    }
  }, 180_000);

  it("without batching a publish still anchors its commitment inline", async () => {
    await onChain(15, undefined, async ({ platform }) => {
      const pub = await publishCities(platform, "commit-inline");
      expect(pub.commitment_anchor_status).toBe("anchored");
      expect(pub.commitment_anchor).toEqual((await platform.chain!.findAnchor(pub.commit_root!))?.evidence);
    });
  }, 180_000);
});

describe("publish quota", () => {
  it("by default all accounts together have no budget: a new author publishes after 100 publishes by 5 others (probe8 P2)", async () => {
    await withQuota(undefined, async ({ clock, platform }) => {
      for (let a = 0; a < 5; a++)
        for (let i = 0; i < 20; i++) {
          await publishCities(platform, `many-${a}-${i}`, { by: `many-${a}` });
          clock.advance(1000);
        }
      expect((await platform.listBenchmarks()).length).toBe(100);
      expect((await publishCities(platform, "many-new-0", { by: "many-new" })).slug).toBeTruthy();
      // the per-account quota (20 per 24 h) still holds
      expect(await quotaRefusal(publishCities(platform, "many-0-20", { by: "many-0" }))).toMatchObject({
        details: { limit: "publishes_per_account", count: 20 },
      });
    });
  }, 180_000);

  it("concurrent publishes by 6 accounts under allAccountsCount 3: exactly 3 stored, the others refused", async () => {
    const clock = manualClock(Date.parse("2026-12-01T00:00:00Z"));
    const platform = await openTemp({
      clock: clock.now,
      publishQuota: { count: 2, periodMs: 3_600_000, allAccountsCount: 3 },
      // every publish waits between its quota check and its insert: without the budget's lock all six
      // counted none of the others (PostgreSQL, READ COMMITTED) and all passed
      faults: { publishBeforeInsert: () => new Promise((r) => setTimeout(r, 100)) },
    });
    try {
      const ready = [];
      for (let i = 0; i < 6; i++) {
        const p = await platform.principal(`race-${i}`);
        const ds = await platform.real.createDataset(p, cities(4, `race-${i}`));
        ready.push({ p, id: ds.dataset_id, i });
      }
      const results = await Promise.allSettled(
        ready.map(({ p, id, i }) =>
          platform.real.publish(p, id, {
            title: `race-${i}`,
            prompt_template: TEMPLATE,
            grader_type: "exact",
          }),
        ),
      );
      expectThreePublished(results, "publishes_all_accounts");
      expect(await platform.listBenchmarks()).toHaveLength(3);
    } finally {
      await platform.close();
    }
  });

  it("concurrent publishes by one account on two platforms over one store under count 3: exactly 3 stored, the others refused (probe16 A-F4)", async () => {
    const clock = manualClock(Date.parse("2026-12-01T00:00:00Z"));
    const opts = {
      ...(TEST_ENGINE === "postgres"
        ? { database: await freshPostgresTarget(), runsDir: tempDir() }
        : { dir: tempDir() }),
      clock: clock.now,
      publishQuota: { count: 3, periodMs: 3_600_000 },
      // every publish waits between its quota check and its insert: without the account's lock all
      // counted none of the others (PostgreSQL, READ COMMITTED) and all passed
      faults: { publishBeforeInsert: () => new Promise<void>((r) => setTimeout(r, 100)) },
    };
    const a = await openAt(opts);
    // SQLite: one platform (two in one process would block each other's event loop on the file lock)
    const b = TEST_ENGINE === "postgres" ? await openAt(opts) : a;
    try {
      const p = await a.principal("one-racer");
      const ready = [];
      for (let i = 0; i < 6; i++)
        ready.push((await a.real.createDataset(p, cities(4, `one-race-${i}`))).dataset_id);
      const results = await Promise.allSettled(
        ready.map((id, i) =>
          (i % 2 ? b : a).real.publish(p, id, {
            title: `one-race-${i}`,
            prompt_template: TEMPLATE,
            grader_type: "exact",
          }),
        ),
      );
      expectThreePublished(results, "publishes_per_account");
      expect(await a.listBenchmarks()).toHaveLength(3);
    } finally {
      await a.close();
      if (b !== a) await b.close();
    }
  });

  it("the operator is its account, one rule for the exemption and the count: the operator role on another account exempts nothing", async () => {
    await withQuota({ count: 1, periodMs: 3_600_000, allAccountsCount: 5 }, async ({ platform }) => {
      const own = await platform.principal("claims-operator");
      // a principal no key yields (only acct_operator holds the role): its rows are counted like any
      // account's, so it is not exempt either
      const claimed = { ...own, roles: [...own.roles, "operator" as const] };
      const publishOne = async (i: number) => {
        const ds = await platform.real.createDataset(claimed, cities(4, `claims-${i}`));
        return platform.real.publish(claimed, ds.dataset_id, {
          title: `claims-${i}`,
          prompt_template: TEMPLATE,
          grader_type: "exact",
        });
      };
      await publishOne(0);
      expect(await quotaRefusal(publishOne(1))).toMatchObject({
        details: { limit: "publishes_per_account", count: 1 },
      });
      // the operator's own publishes are neither refused nor counted
      for (let i = 0; i < 3; i++) await publishCities(platform, `claims-op-${i}`);
    });
  });

  it("allAccountsCount that is not an integer >= 1 is refused at open, naming it", async () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      await expect(
        openTemp({ publishQuota: { count: 2, periodMs: 3_600_000, allAccountsCount: bad } }),
      ).rejects.toMatchObject({
        code: "invalid_option",
        details: { field: "publishQuota.allAccountsCount" },
      });
  });

  it("an account publishes at most `count` benchmarks per period: the next is publish_quota_exceeded naming the limit", async () => {
    await withQuota({ count: 3, periodMs: 3_600_000 }, async ({ clock, platform }) => {
      const publishOne = (i: number) => publishCities(platform, `quota-${i}`, { by: "quota-author" });
      for (let i = 0; i < 3; i++) {
        await publishOne(i);
        clock.advance(60_000);
      }
      expect(await quotaRefusal(publishOne(3))).toMatchObject({
        details: {
          limit: "publishes_per_account",
          count: 3,
          period_seconds: 3600,
          retry_after_seconds: 3420,
        },
      });
      expect((await platform.listBenchmarks()).length).toBe(3); // nothing stored
      // another account has its own quota; the operator (who pays) has none
      await publishCities(platform, "quota-other", { by: "quota-other" });
      for (let i = 0; i < 4; i++) await publishCities(platform, `quota-op-${i}`);
      // the oldest publish leaves the window: one more passes
      clock.advance(3_600_000 - 3 * 60_000 + 1);
      expect((await publishOne(4)).slug).toBeTruthy();
    });
  });

  it("all accounts but the operator's together publish at most `allAccountsCount` per period (publishes_all_accounts)", async () => {
    await withQuota({ count: 2, periodMs: 3_600_000, allAccountsCount: 3 }, async ({ clock, platform }) => {
      const publishBy = (name: string, i: number) => publishCities(platform, `${name}-${i}`, { by: name });
      // the operator's publishes are not counted
      await publishCities(platform, "all-op");
      await publishBy("all-a", 0);
      clock.advance(60_000);
      await publishBy("all-a", 1);
      clock.advance(60_000);
      await publishBy("all-b", 0);
      clock.advance(60_000);
      for (const name of ["all-b", "all-c"])
        expect(await quotaRefusal(publishBy(name, 1))).toMatchObject({
          details: {
            limit: "publishes_all_accounts",
            count: 3,
            period_seconds: 3600,
            retry_after_seconds: 3420,
          },
        });
      expect((await platform.listBenchmarks()).length).toBe(4);
      // the operator is not refused
      await publishCities(platform, "all-op-2");
      // the oldest publish leaves the window: one more passes
      clock.advance(3_600_000 - 3 * 60_000 + 1);
      expect((await publishBy("all-c", 2)).slug).toBeTruthy();
    });
  });
});

describe("a receipt anchored first by someone else with another kind (probe14 D3-F8; probe35 C-F2)", () => {
  it("is adopted: the batch anchors the other, the victim's evidence is that first anchoring, named in the log, never sent again", async () => {
    const lines: string[] = [];
    await onChain(
      10,
      { flushMs: 3_600_000 },
      async ({ dc, clock, platform, nonce }) => {
        const pub = await publishCities(platform, "squat");
        expect(await platform.real.flushAnchors()).toBe(1); // the commitment
        const finals = [];
        for (const id of ["squat-1", "squat-2"])
          finals.push(
            (await runBenchmark(await platform.backend(id), pub.slug, id, agent(clock))).finalized!,
          );
        expect(finals.map((f) => f.receipt_hash)).toEqual([null, null]); // pending: not shown
        const [victim, other] = await Promise.all(finals.map((f) => platform.storedReceiptHash(f.run_id)));
        // a stranger who learned the victim's hash anchors it first, with kind pack
        const stranger = dc.accounts[19]!.address.toLowerCase();
        const tx = await dc.wallet(19).writeContract({
          address: dc.contracts.anchorRegistry,
          abi: anchorRegistryAbi,
          functionName: "anchor",
          args: [victim!, ANCHOR_KINDS.pack],
        });
        const block = Number((await dc.publicClient.waitForTransactionReceipt({ hash: tx })).blockNumber);
        const before = await nonce();
        // SPEC 9 asks only that a receipt be anchored by the award block: the stranger's anchoring is it
        expect(await platform.real.flushAnchors()).toBe(2);
        expect(await nonce()).toBe(before + 1); // the other receipt was anchored, the victim not sent
        expect((await platform.chain!.findAnchor(other!))?.kind).toBe(ANCHOR_KINDS.receipt);
        expect(await platform.real.ctx.store.anchors.squatOf(victim!)).toBeNull();
        expect(await platform.real.ctx.store.anchors.evidence(victim!)).toMatchObject({
          tx_hash: tx,
          anchor_block: block,
        });
        expect(lines.join("\n")).toContain(
          `receipt ${victim} was anchored first by ${stranger} in block ${block} with kind pack`,
        );
        expect(await platform.real.flushAnchors()).toBe(0);
        expect(await nonce()).toBe(before + 1);
        const board = await platform.leaderboard(pub.slug, { board: "public" });
        expect(board.rows.map((r) => r.receipt_hash).sort()).toEqual([victim, other].sort());
      },
      {},
      (l) => lines.push(l),
    );
  }, 180_000);
});

describe("a squat is named where the pending state was shown (probe15 A-F6, B-F10)", () => {
  /** A stranger (dev chain account 19) anchors `digest` first, with kind pack; its block. */
  async function squat(dc: OnChain["dc"], digest: Hex): Promise<number> {
    const tx = await dc.wallet(19).writeContract({
      address: dc.contracts.anchorRegistry,
      abi: anchorRegistryAbi,
      functionName: "anchor",
      args: [digest, ANCHOR_KINDS.pack],
    });
    return Number((await dc.publicClient.waitForTransactionReceipt({ hash: tx })).blockNumber);
  }

  it("a squatted commitment says squatted (detail, commitment, door) and refuses new runs; a receipt anchored first with another kind is anchored", async () => {
    await onChain(6, { flushMs: 3_600_000 }, async ({ dc, clock, platform }) => {
      const stranger = dc.accounts[19]!.address.toLowerCase();
      const ok = await publishCities(platform, "squat-receipt");
      const victim = await publishCities(platform, "squat-root");
      const block = await squat(dc, await platform.storedCommitRoot(victim.slug));
      // the flush anchors the other commitment and counts it, and names the squat
      const e = await platform.real.flushAnchors().catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "anchor_squatted", details: { kind: "commitment", anchored: 1 } });
      const named = {
        status: "squatted",
        squat: { found_kind: "pack", anchorer: stranger, anchor_block: block },
      };
      expect(await platform.real.commitment(victim.slug)).toMatchObject({ commit_root: null, ...named });
      expect((await platform.real.benchmarkDetail(victim.slug)).commitment).toMatchObject(named);
      expect((await platform.real.commitment(ok.slug)).status).toBe("anchored");
      expect(await platform.awardEvidence(victim.slug)).toMatchObject({ reason: "anchor_squatted" });
      // no run starts on a benchmark whose award can never verify
      await expect(platform.startRun(victim.slug, "sq-late")).rejects.toMatchObject({
        code: "anchor_squatted",
        details: { kind: "commitment", found_kind: "pack" },
      });
      // a receipt anchored first with another kind is not squatted (probe35 C-F2): that anchoring is its
      // evidence, so the run view says anchored, the receipt door serves it, and `anchor` lists nothing
      const f = (await runBenchmark(await platform.backend("sq-1"), ok.slug, "sq-1", agent(clock)))
        .finalized!;
      const hash = await platform.storedReceiptHash(f.run_id);
      await squat(dc, hash);
      expect(await platform.real.flushAnchors()).toBe(1);
      const view = await platform.real.getRun(platform.op, f.run_id);
      expect(view).toMatchObject({ receipt_hash: hash, receipt_anchor_status: "anchored" });
      expect(await platform.real.receipt(platform.op, ok.slug, f.run_id)).toMatchObject({
        receipt_hash: hash,
      });
      expect(await platform.real.pendingAnchors(ok.slug)).toEqual([]);
      expect(await platform.real.squattedAnchors(ok.slug)).toEqual([]);
    });
  }, 180_000);
});

describe("the operator's anchor of a benchmark goes past a squat (probe15 A-F6, the `anchor` command)", () => {
  it("a squatted commitment is skipped and its receipts still anchored; the operator's only", async () => {
    await onChain(5, { flushMs: 3_600_000 }, async ({ dc, clock, platform, nonce }) => {
      const pub = await publishCities(platform, "squat-anchor");
      const f = (await runBenchmark(await platform.backend("sa-1"), pub.slug, "sa-1", agent(clock)))
        .finalized!;
      const receipt = await platform.storedReceiptHash(f.run_id);
      const root = await platform.storedCommitRoot(pub.slug);
      const tx = await dc.wallet(19).writeContract({
        address: dc.contracts.anchorRegistry,
        abi: anchorRegistryAbi,
        functionName: "anchor",
        args: [root, ANCHOR_KINDS.pack],
      });
      await dc.publicClient.waitForTransactionReceipt({ hash: tx });
      await expect(
        platform.real.anchorBenchmark(await platform.principal("sa-1"), pub.slug),
      ).rejects.toMatchObject({
        code: "forbidden",
        details: { rule: "operator_only" },
      });
      const first = await platform.real.anchorBenchmark(platform.op, pub.slug);
      expect(first).toMatchObject({ commitment: null, still_pending: [] });
      expect(Object.keys(first.receipts)).toEqual([receipt]);
      expect(first.squatted).toEqual([expect.objectContaining({ digest: root, kind: "commitment" })]);
      expect((await platform.chain!.findAnchor(receipt))?.kind).toBe(ANCHOR_KINDS.receipt);
      // again: the squat is known, nothing is sent
      const before = await nonce();
      expect(await platform.real.anchorBenchmark(platform.op, pub.slug)).toMatchObject({
        commitment: null,
        receipts: {},
        squatted: [expect.objectContaining({ digest: root })],
      });
      expect(await nonce()).toBe(before);
    });
  }, 180_000);
});

describe("a root whose anchor is pending never leaves the platform (probe15 A-F1, F2, F4)", () => {
  it("the lock anchors it first; a receipt anchored before it is withheld; a mismatch error does not name it", async () => {
    await onChain(11, { flushMs: 3_600_000 }, async ({ dc, clock, platform }) => {
      const a = await publishCities(platform, "lock-pending-a");
      const b = await publishCities(platform, "lock-pending-b");
      expect([a.commit_root, b.commit_root]).toEqual([null, null]);
      // a receipt anchored while its benchmark's root is pending: its payload names the root, so even
      // the author (who reads receipts while open) gets none yet
      const f = (await runBenchmark(await platform.backend("lp-1"), a.slug, "lp-1", agent(clock))).finalized!;
      await platform.real.anchorPendingReceipts(a.slug);
      const hash = await platform.storedReceiptHash(f.run_id);
      const view = await platform.real.getRun(platform.op, f.run_id);
      expect(view.receipt_hash).toBe(hash);
      expect(view.receipt ?? null).toBeNull();
      await expect(platform.real.receipt(platform.op, a.slug, f.run_id)).rejects.toMatchObject({
        code: "receipt_withheld",
        details: { reason: "anchor_pending" },
      });
      // the lock puts the root on-chain: it anchors the commitment (kind commitment) first
      const { bounty } = await lockPrize(platform, dc, a.slug, await latestBlockTime(dc), {
        pool: 1_000_000n,
        author: 12,
        payoutRule: "winner_take_all",
      });
      const rootA = await platform.storedCommitRoot(a.slug);
      expect((await platform.chain!.findAnchor(rootA))?.kind).toBe(ANCHOR_KINDS.commitment);
      expect((await platform.real.commitment(a.slug)).commit_root).toBe(rootA);
      expect((await platform.real.receipt(platform.op, a.slug, f.run_id)).receipt_hash).toBe(hash);
      // a's bounty offered to b (root pending): refused without naming b's root
      const e = await platform.attachBounty(b.slug, bounty.bounty_id).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "bounty_mismatch", details: { commit_root: null } });
      expect((e as Error).message).not.toContain((await platform.storedCommitRoot(b.slug)).slice(2));
      expect((e as Error).message).toContain("a root whose anchor is pending");
    });
  }, 180_000);
});
