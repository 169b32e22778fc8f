/**
 * Batched anchoring of receipts and commitments (issue 13 re-probe: every finalize and every publish
 * cost the operator one transaction, 40 in 7 s from two addresses; probe8 P2: a global publish budget
 * instead let one party lock every author out). With batching on, a finalize stores its receipt hash,
 * and a publish its commitment root, as a pending anchor (in its own transaction) and only asks the
 * {@link AnchorBatcher} for a flush: within `flushMs` one `anchorMany` per kind (commitments, then
 * receipts) anchors every pending digest of that kind of every benchmark, up to `maxBatch` digests per
 * transaction. So the operator's anchor transactions are at most one per kind per `flushMs` (plus one
 * per `maxBatch` digests), whatever the number of accounts, publishes or finalizes.
 *
 * A commitment is anchored exactly as inline: its evidence (registry, tx hash, block) is recorded on
 * the benchmark (`commitment_anchor` of the detail, pack and evidence) in the same store transaction;
 * the publish answer says `commitment_anchor_status: "pending"` until then, and the award anchors a
 * commitment still pending before it settles (`award/prepare.ts`).
 *
 * SPEC 4 and 8 are kept: the receipt is immutable once its finalize commits (its hash is in the
 * finalize answer, `receipt_anchor_status: "pending"` until its batch is mined); the award anchors
 * every receipt still pending before it ranks (`anchorPending` in `award.ts`), and refuses while one
 * is not anchored. A failed flush leaves the digests pending (reported through `onError`) and is
 * retried after `flushMs`; `bench-bounty anchor <slug>` lists and retries them too.
 *
 * Batching bounds the transactions, not the gas: each digest is ~32,000 gas in its `anchorMany`. So a
 * flush sends only the receipts a finalize released within the batched-anchoring budget
 * (`batchAnchorQuota`, `runs/finalize.ts`; probe28 A-F1): a receipt past it stays pending and held
 * (`AnchorsTable.pendingOfKind` skips it) for `anchor <slug>` or the award, which send it as any other.
 */
import type { Hex } from "@bench-bounty/evidence";
import {
  AnchorNotMined,
  squattedError,
  type AnchorEvidence,
  type AnchorOutcome,
  type AnchorSquat,
} from "./chain.js";
import type { PlatformContext } from "./context.js";
import { PlatformError } from "./errors.js";
import type { AnchorKind } from "./store/anchors.js";

/** Settings of {@link AnchorBatcher}. */
export interface AnchorBatching {
  /** Longest a pending receipt or commitment waits for its batch, in ms (> 0). */
  flushMs: number;
  /** Most digests in one `anchorMany` transaction (default {@link DEFAULT_ANCHOR_BATCH}). */
  maxBatch?: number;
  /** Told of a failed flush (its digests stay pending and are retried after `flushMs`). */
  onError?: (e: unknown) => void;
  /**
   * Longest a finalize or publish waits for its digest's batch before answering, in ms (>= 0; default
   * {@link DEFAULT_REVEAL_WAIT_MS}): the digest is shown only once anchored (`reveal.ts`), so the
   * answer carries it when the batch lands within this time, else `null` and `pending` (GET the run
   * or the commitment later). 0: never wait.
   */
  revealWaitMs?: number;
  /**
   * How often the batcher looks for digests another process left pending (a process without a chain on
   * this store, probe26 A-F5; an immediate anchor that failed), in ms (> 0; default
   * {@link DEFAULT_ANCHOR_SWEEP_MS}): one read per kind, and a flush when one is found.
   */
  sweepMs?: number;
}

/** Default {@link AnchorBatching.sweepMs}: 10 s. */
export const DEFAULT_ANCHOR_SWEEP_MS = 10_000;

/**
 * What a finalize or publish waits for its batch by default, in ms: `serve`'s 2 s flush interval plus
 * mining. The waits of one server request (an MCP batch of finalizes waits once per finalize) also end
 * together at its `revealBy` (`FinalizeOptions`, probe15 A-F9).
 */
export const DEFAULT_REVEAL_WAIT_MS = 8_000;

/** How often a waiting finalize or publish looks at the store for a flush by another process, in ms. */
const REVEAL_POLL_MS = 500;

/**
 * Anchors `digests` of one kind with one transaction (`anchor` for one, `anchorMany` for more; digests
 * already on-chain with this kind are looked up, not sent) and records the evidence of each in one
 * store transaction (a commitment's also on every benchmark with that root and no commitment anchor
 * yet; a receipt's benchmark board shows the hash from then on, `reveal.ts`). A commitment someone else
 * anchored first with another kind is recorded as squatted (no flush sends it again) after the others
 * are recorded; a receipt so anchored is recorded anchored with that first anchoring's evidence
 * (`anchorKindServes`, probe35 C-F2), the anchoring named in the operator's log (`ChainConfig.log`). Its transaction is waited for as the chain gateway bounds an anchoring
 * (`ChainGateway.anchorMany`: within `ChainConfig.anchorWaitMs`, a dropped one let go at once), so one
 * transaction the node never mines does not keep the gateway's write turn from relayed claims, the award
 * and other anchors (probe34 A-F1).
 * @returns the evidence per digest, in input order
 * @throws PlatformError `no_chain`, `chain_error` (nothing recorded: the digests stay pending; for a
 *   transaction not mined in time, `details.anchor_state` `pending` or `dropped` and
 *   `retry_after_seconds`, its hash only in the operator's log: probe40 V-F5), `anchor_squatted` naming the first squatted digest, `details.anchored`
 *   counting the others, which are recorded
 */
export async function anchorDigests(
  ctx: PlatformContext,
  digests: Hex[],
  kind: AnchorKind,
): Promise<AnchorEvidence[]> {
  if (!ctx.chain) throw new PlatformError("no_chain", "no chain configured", {});
  if (digests.length === 0) return [];
  let outcomes: AnchorOutcome[];
  try {
    outcomes = await ctx.chain.anchorMany(digests, kind);
  } catch (e) {
    if (e instanceof AnchorNotMined) throw anchorNotMinedError(ctx, e, kind, digests.length);
    throw e;
  }
  const squats: [Hex, AnchorSquat][] = [];
  const evidence: AnchorEvidence[] = [];
  const adopted: [Hex, AnchorSquat][] = [];
  await ctx.store.tx(async (t) => {
    const anchored: Hex[] = [];
    for (const [i, d] of digests.entries()) {
      const o = outcomes[i]!;
      if ("squatted" in o) {
        squats.push([d, o.squatted]);
        await t.anchors.markSquatted(d, o.squatted);
        continue;
      }
      const ev: AnchorEvidence = {
        registry_address: o.registry_address,
        tx_hash: o.tx_hash,
        anchor_block: o.anchor_block,
      };
      if ("adopted_from" in o) adopted.push([d, o.adopted_from]);
      evidence.push(ev);
      anchored.push(d);
      await t.anchors.markAnchored(d, ev);
      if (kind === "commitment") await t.benchmarks.setCommitmentAnchorOfRoot(d, ev);
    }
    if (kind === "receipt")
      for (const slug of await t.anchors.receiptSlugsOf(anchored)) await t.benchmarks.bumpBoard(slug);
  });
  const log = ctx.chain.config.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  for (const [d, squat] of adopted)
    log(
      `bench-bounty: ${kind} ${d} was anchored first by ${squat.anchorer} in block ${squat.anchor_block} with kind ${squat.kind_name ?? squat.kind}: that anchoring is its evidence (SPEC 9 asks only that a receipt be anchored by the award block)`,
    );
  if (squats.length > 0)
    throw squattedError(squats[0]![0], kind, squats[0]![1], { anchored: digests.length - squats.length });
  return evidence;
}

/**
 * `chain_error` for an anchoring whose transaction was not mined within the gateway's bound: what it is
 * (still pending in the node's pool, or dropped by it), never a failure of the chain RPC; the digests
 * stay pending. It never names the transaction (probe40 V-F5): its text is served while the digests are
 * withheld (a publish's `commitment_anchor_error`, a finalize's `receipt_anchor_error`, the CLI's
 * warnings, MCP), and that transaction's input, read by its hash while pending, is a digest. Its hash is
 * in the operator's log (`ChainConfig.log`); `anchor --list` shows its digests pending.
 */
function anchorNotMinedError(
  ctx: PlatformContext,
  e: AnchorNotMined,
  kind: AnchorKind,
  count: number,
): PlatformError {
  const digests = `${count} digest${count === 1 ? "" : "s"}${e.adopted ? ", sent before" : ""}`;
  const log = ctx.chain?.config.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  log(`bench-bounty: anchor ${kind}: ${e.message} (${digests})`);
  const what = `the ${kind} anchor transaction (${digests}; named in the operator's log, its digests pending in \`anchor --list\`)`;
  const message =
    e.state === "pending"
      ? `${what} is not mined yet (pending in the node's pool: a transaction that stays pending may be underpriced or stuck on the node); its digests stay pending: the next batch, \`anchor\` or the award adopts that transaction once mined (never sends them twice while it may be mined)`
      : `${what} was dropped by the node before it was mined; its digests stay pending: the next batch, \`anchor\` or the award sends them anew`;
  return new PlatformError("chain_error", message, {
    anchor_state: e.state === "pending" ? "pending" : "dropped",
    retry_after_seconds: 10,
  });
}

/** Digests per `anchorMany` by default: ~25,000 gas each, far under a Base block's gas limit. */
export const DEFAULT_ANCHOR_BATCH = 200;

/** The kinds a flush anchors, in this order: one `anchorMany` per kind (per `maxBatch` digests). */
export const BATCHED_ANCHOR_KINDS: readonly AnchorKind[] = ["commitment", "receipt"];

/** The store lock (`Store.withLock`) a flush holds, in every process on the store. */
export const ANCHOR_FLUSH_LOCK = "anchor-flush";

/** Flushes pending commitment and receipt anchors in `anchorMany` batches (see the module doc). */
export class AnchorBatcher {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private sweeper: ReturnType<typeof setInterval> | null = null;
  private running: Promise<number> = Promise.resolve(0);
  private stopped = false;
  private readonly maxBatch: number;
  /** Most digests in one of its `anchorMany` transactions ({@link AnchorBatching.maxBatch}). */
  get batchSize(): number {
    return this.maxBatch;
  }
  /** Woken after each flush of this batcher (success or failure). */
  private readonly flushWaiters = new Set<() => void>();

  constructor(
    private readonly ctx: PlatformContext,
    private readonly opts: AnchorBatching,
  ) {
    this.maxBatch = opts.maxBatch ?? DEFAULT_ANCHOR_BATCH;
  }

  /**
   * Starts the sweep ({@link AnchorBatching.sweepMs}): digests left pending by another process on the
   * store are flushed within it. A failed read is reported through `onError` and tried at the next tick.
   */
  startSweep(): void {
    if (this.sweeper !== null || this.stopped) return;
    this.sweeper = setInterval(() => {
      if (this.timer !== null) return; // a flush is due anyway
      void (async () => {
        for (const kind of BATCHED_ANCHOR_KINDS)
          if ((await this.ctx.store.anchors.pendingOfKind(kind, 1)).length > 0) return this.notify();
      })().catch((e: unknown) => this.opts.onError?.(e));
    }, this.opts.sweepMs ?? DEFAULT_ANCHOR_SWEEP_MS);
    this.sweeper.unref?.();
  }

  /** A receipt or commitment is pending: a flush runs within `flushMs` (one timer for any number of calls). */
  notify(): void {
    if (this.timer !== null || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch((e: unknown) => {
        this.opts.onError?.(e);
        this.notify(); // retried after flushMs
      });
    }, this.opts.flushMs);
    this.timer.unref?.();
  }

  /**
   * Anchors every pending commitment, then every pending receipt, now: one `anchorMany` per kind per
   * `maxBatch` digests (after any flush under way).
   * @returns how many digests were anchored
   * @throws PlatformError `chain_error` (those digests stay pending); `anchor_squatted` (the first squat
   *   found, recorded; every other digest was still anchored, counted in `details.anchored`)
   */
  flush(): Promise<number> {
    const next = this.running.catch(() => 0).then(() => this.flushNow());
    this.running = next;
    const wake = () => {
      for (const w of [...this.flushWaiters]) w();
    };
    next.then(wake, wake);
    return next;
  }

  /**
   * Waits until `digest` is anchored (by a flush of this batcher, or of another process on the store),
   * at most `revealWaitMs` (see {@link AnchorBatching}), and never past `by` (unix ms, when given: the
   * caller's request shares one deadline among its waits, probe15 A-F9).
   * @returns its evidence, or null when it is still pending (a failed flush, a slow chain, a stop)
   */
  async anchored(digest: Hex, by = Infinity): Promise<AnchorEvidence | null> {
    const until = Math.min(Date.now() + (this.opts.revealWaitMs ?? DEFAULT_REVEAL_WAIT_MS), by);
    for (;;) {
      const ev = await this.ctx.store.anchors.evidence(digest);
      const left = until - Date.now();
      if (ev !== null || this.stopped || left <= 0) return ev;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.flushWaiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(REVEAL_POLL_MS, left));
        this.flushWaiters.add(done);
      });
    }
  }

  /**
   * One flush, under the store's lock {@link ANCHOR_FLUSH_LOCK}: several `serve` processes on one
   * PostgreSQL store each run a batcher, and without it two timers firing together read the same
   * pending digests and both sent `anchorMany` from the operator's signer (the second reverted,
   * `AlreadyAnchored`, its gas spent). The pending digests are read inside the lock, so a flush that
   * waited for another one finds only what that one left.
   */
  private async flushNow(): Promise<number> {
    if (this.ctx.chain === null) return 0;
    return this.ctx.store.withLock(ANCHOR_FLUSH_LOCK, async () => {
      let total = 0;
      let squatted: PlatformError | null = null;
      for (const kind of BATCHED_ANCHOR_KINDS) {
        for (;;) {
          const digests = await this.ctx.store.anchors.pendingOfKind(kind, this.maxBatch);
          if (digests.length === 0) break;
          try {
            await anchorDigests(this.ctx, digests, kind);
            total += digests.length;
          } catch (e) {
            // a squat is recorded with the rest of its batch (never sent again): the flush goes on with
            // the next batches and kinds and reports it at the end (probe15 A-F6)
            if (!(e instanceof PlatformError && e.code === "anchor_squatted")) throw e;
            squatted ??= e;
            total += e.details.anchored as number; // the batch's other digests
          }
          if (digests.length < this.maxBatch) break;
        }
      }
      if (squatted !== null)
        throw new PlatformError(squatted.code, squatted.message, { ...squatted.details, anchored: total });
      return total;
    });
  }

  /** Stops the timer and waits for a flush under way (pending digests stay for the next start or the award). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweeper !== null) clearInterval(this.sweeper);
    this.sweeper = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running.catch(() => 0);
  }
}
