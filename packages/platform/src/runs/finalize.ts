/**
 * Finalizing a run (seed "Compete on Benchmarks", step 6; SPEC 4 and 6): grades every task (evidence
 * `grade`), computes `rank_accuracy`, `score_public` and the composite with the wall clock from start to
 * finalize in milliseconds, builds the receipt (credits null while the benchmark is open), stores it in
 * one transaction and anchors its hash (kind `receipt`). While attempts remain it returns aggregate
 * numbers only; per-task public correctness once the attempts are used up or the benchmark is closed;
 * private correctness only once closed (SPEC 6.1). A second finalize is `already_finalized`.
 */
import {
  buildReceipt,
  keccak256Hex,
  receiptTextAndHash,
  type Hex,
  type Receipt,
} from "@bench-bounty/evidence";
import { anchorDigests } from "../anchor-batch.js";
import { byDeadlineOrNull } from "../deadline.js";
import { type AnchorEvidence } from "../chain.js";
import type { BenchmarkRecord, PlatformContext, TaskRecord } from "../context.js";
import { PlatformError } from "../errors.js";
import { closingChainTime, getBenchmark, getTasks, isOpenAt } from "../publish.js";
import {
  assertRunOwner,
  isAuthorOf,
  privateCreditsVisible,
  privateFiguresVisible,
  receiptsVisible,
} from "../identity/access.js";
import { isOperatorAccount, OPERATOR_ACCOUNT_ID, type Principal } from "../identity/principal.js";
import { assertKeyActive } from "../identity/key-check.js";
import { gradePlan, gradePlanSliced, scoreGraded, type GradedPlanTask } from "../grading.js";
import {
  anchoredHere,
  NO_CHAIN_HERE,
  receiptRevealed,
  shownDigest,
  withheldDigests,
  type AnchorState,
} from "../reveal.js";
import { isoMillis, wallSeconds } from "../time.js";
import { getRun, type RunRecord, runAnswers } from "./record.js";
import { receiptReserveBytes } from "../store/answer-totals.js";
import { networkShareOf } from "../network-share.js";
import { countStoredBytes } from "./submit.js";

/** The response of {@link finalizeRun}. */
export interface FinalizeResult {
  run_id: string;
  status: "finalized";
  attempt: number;
  attempts_used: number;
  attempts_remaining: number;
  score_public: string;
  /** SPEC 6.1: the composite over the public accuracy; always served. */
  score_composite_public: string;
  /** The ranking composite (private accuracy when the bank has private tasks): only when SPEC 6.1 allows
   * it (the benchmark is closed, or has no private tasks, or the caller is its author). */
  score_composite?: string;
  wall_seconds: string;
  queries_used: number;
  usdc_spent: string;
  counts: { tasks: number; answered: number; public: number; private: number };
  /**
   * The receipt's hash (anchored at finalize, so the receipt cannot change before it is served); null
   * while its anchor is pending (`reveal.ts`: shown once anchored, at GET run).
   */
  receipt_hash: Hex | null;
  /** The receipt payload: only once the benchmark is closed (or to its author), SPEC 6.1; never before its hash shows. */
  receipt?: Receipt;
  /** Anchor evidence, or null when the batch did not land in time, anchoring failed (retried later) or off-chain. */
  receipt_anchor: AnchorEvidence | null;
  /**
   * `anchored` (by the platform's anchoring, or by someone else's first anchoring of the hash with
   * another kind: `anchorKindServes`, probe35 C-F2), `pending` (batched or failed: `anchor` retries it),
   * or `off_chain`; never `squatted` (a commitment's state).
   */
  receipt_anchor_status: AnchorState;
  /** Why the immediate anchoring failed (it stays pending and is retried), when it did. */
  receipt_anchor_error?: string;
  /**
   * Public tasks' credits: only once the attempts are used up or the benchmark closed (to the author at
   * any time); private tasks' only where `privateCreditsVisible` allows (the author; probe36 C-F2).
   */
  per_task?: { ordinal: number; visibility: "public" | "private"; credit: string }[];
  /** Private accuracy: only once the benchmark is closed (or to its author). */
  rank_accuracy?: string;
}

/** Options of {@link finalizeRun}: the run's resource observations. */
export interface FinalizeOptions {
  /** Paid data queries the agent made (default 0: the free flow). */
  queries_used?: number;
  /** USDC spent, exactly 6 decimals (default "0.000000"). */
  usdc_spent?: string;
  /**
   * Latest moment (unix ms) to wait for the receipt's anchor before answering, its batch or its
   * immediate transaction (default: no deadline but the batcher's `revealWaitMs`; an immediate anchor
   * not mined by it goes on and is recorded once mined within `ChainConfig.anchorWaitMs`, else by the next
   * `anchor` or the award, probe33 A-F5, probe34 A-F1): the server gives every
   * finalize of one request the same one, so their waits end together within its time limit (probe15
   * A-F9). The transaction's lock waits end by it too (`WriteHow.answerBy`; probe19 A-F3): past it,
   * `server_busy` with nothing written.
   */
  revealBy?: number;
}

/**
 * Finalizes a run (see the module doc).
 * @throws PlatformError `unknown_run`, `already_finalized`, `benchmark_awarded` (an award of the benchmark
 *   is prepared, sent or confirmed: its ranking is fixed; `details.award_status` is the award row's
 *   status, the message says which), `invalid_option`
 * @throws PlatformError `forbidden` (`details.rule: "known_key"`) when the calling key was revoked before
 *   the write (`assertKeyActive`, checked in its transaction: probe39 A-F2); nothing written
 */
export async function finalizeRun(
  ctx: PlatformContext,
  p: Principal,
  runId: string,
  opts: FinalizeOptions = {},
): Promise<FinalizeResult> {
  const owned = await getRun(ctx, runId);
  assertRunOwner(p, owned);
  const slug = owned.slug; // read once: the transaction reads the run again, locked
  const queries = opts.queries_used ?? 0;
  const spent = opts.usdc_spent ?? "0.000000";
  if (!Number.isSafeInteger(queries) || queries < 0)
    throw new PlatformError("invalid_option", "queries_used must be an integer >= 0", {
      field: "queries_used",
    });
  if (!/^(0|[1-9][0-9]*)\.[0-9]{6}$/.test(spent))
    throw new PlatformError("invalid_option", "usdc_spent must have exactly 6 decimals", {
      field: "usdc_spent",
    });
  const tasks = await getTasks(ctx, slug);
  const chainTime = await closingChainTimeOrWall(ctx, slug);
  const budgeted = ctx.batchAnchorQuota !== null && !isOperatorAccount(p.account_id);
  const done = await oneRunAtATime(ctx, runId, async () => {
    // the run read again: a finalize queued behind another finds it finalized and grades nothing
    const known = await gradeBeforeTx(ctx, await getRun(ctx, runId), tasks);
    return ctx.store.tx(
      async (t) => {
        await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
        // Lock order: the benchmark, then the run (the award's preparation locks the benchmark too, so a
        // finalize either commits before the award ranks the runs or sees the award and is refused).
        const b = await getBenchmark(ctx, slug, t, { lock: true });
        const run = await getRun(ctx, runId, t, { lock: true });
        if (run.status !== "in_progress")
          throw new PlatformError("already_finalized", `run ${runId} is already finalized`, {
            run_id: runId,
            receipt_hash: shownDigest(run.receipt_hash, await withheldDigests(t, [run.receipt_hash])),
          });
        const award = await t.awards.get(slug);
        if (b.status === "awarded" || award !== null) {
          // the award's ranking is frozen once prepared, sent or not (probe24 C-F5: said "is awarded"
          // while nothing was sent yet)
          const settled =
            b.status === "awarded" || award?.status === "confirmed" || award?.status === "packed";
          throw new PlatformError(
            "benchmark_awarded",
            settled
              ? `benchmark ${slug} is awarded; late runs are not scored`
              : `the award of benchmark ${slug} is ${award!.status === "sent" ? "sent and not confirmed yet" : "prepared (not sent yet)"}: its ranking is fixed, so late runs are not scored`,
            { slug, award_status: award?.status ?? null },
          );
        }
        const answers = await runAnswers(ctx, runId, t);
        const scored = scoreRun(ctx, b, run, tasks, answers, { queries, spent, known, chainTime });
        await t.runs.finalize(runId, {
          finalized_at_ms: scored.finalizedMs,
          answer_salt: scored.salt,
          receipt_json: scored.receiptJson,
          receipt_hash: scored.hash,
          rank_accuracy: scored.accuracyValue,
          score_public: scored.publicScore,
          score_composite: scored.compositeScore,
          score_composite_public: scored.compositePublic,
          wall_seconds: scored.wall,
          queries_used: queries,
          usdc_spent: spent,
        });
        // held until the batched-anchoring budget is counted, after the commit (see below)
        const queued = await anchoredHere(ctx, t);
        if (queued)
          await t.anchors.addPending(scored.hash, "receipt", slug, isoMillis(scored.finalizedMs), {
            held: budgeted,
          });
        await t.benchmarks.bumpBoard(slug);
        ctx.faults.finalizeBeforeCommit?.(runId);
        const used = await t.runs.attempts(slug, run.agent_id);
        // last: the receipt's bytes in place of the reserve charged at start (probe28 A-F4); never refused
        const receiptBytes = Buffer.byteLength(scored.receiptJson, "utf8");
        await countStoredBytes(ctx, t, run, receiptBytes - receiptReserveBytes(run.plan.length), "finalize");
        return { ...scored, run, b, used, queued };
      },
      { locksBy: opts.revealBy, account: p.account_id },
    );
  });
  // The batched-anchoring budget (probe28 A-F1), counted after the commit as the immediate one is, so
  // concurrent finalizes each count the others: within it the receipt is released to the batcher's
  // flushes; past it, it stays held and pending for `anchor <slug>` or the award (nothing is lost).
  // Counted whatever the mode: any batcher on the store (another process's sweep) honours it.
  const batchable =
    !budgeted || (done.queued && (await withinAnchorQuota(ctx, ctx.batchAnchorQuota, p, done.finalizedMs)));
  if (budgeted && batchable) await ctx.store.anchors.release(done.hash);
  let anchor: AnchorEvidence | null = null;
  let anchorError: string | undefined;
  if (ctx.chain && ctx.receiptAnchoring === "batch") {
    // Batched: the receipt waits for the batcher's next anchorMany (within its flush interval); the
    // answer waits for it too, since the hash is shown only once anchored (reveal.ts)
    if (ctx.anchorBatcher && batchable) {
      ctx.anchorBatcher.notify();
      anchor = await ctx.anchorBatcher.anchored(done.hash, opts.revealBy);
    }
  } else if (ctx.chain && (await withinAnchorQuota(ctx, ctx.immediateAnchorQuota, p, done.finalizedMs))) {
    try {
      // its wait ends by the request's deadline, as the batch's does (probe33 A-F5): the send goes on,
      // recorded once mined; the answer says pending
      const sent = await byDeadlineOrNull(anchorDigests(ctx, [done.hash], "receipt"), opts.revealBy);
      anchor = sent?.[0] ?? null;
    } catch (e) {
      // A chain failure leaves the anchor pending (reported here; `anchor` and the award retry it). A
      // receipt anchored first with another kind is recorded anchored (`anchorKindServes`); the
      // `anchor_squatted` of a batch with a squatted commitment is reported the same way.
      if (!(e instanceof PlatformError && (e.code === "chain_error" || e.code === "anchor_squatted")))
        throw e;
      anchorError = e.message;
    }
  }
  const withheld = await withheldDigests(ctx.store, [done.hash], [done.b]);
  if (!ctx.chain && withheld.stateOf(done.hash) === "pending") anchorError = NO_CHAIN_HERE;
  return finalizeResult(done, p, {
    queries,
    spent,
    anchor,
    anchorError,
    shown: shownDigest(done.hash, withheld),
    anchorState: withheld.stateOf(done.hash),
    receiptShown: receiptRevealed(done.hash, done.b.commit_root, withheld),
  });
}

/**
 * A budget of the receipt anchors the operator pays for, per account and for all accounts but the
 * operator's together (the operator's own finalizes are never counted nor held). One rule for both
 * modes ({@link withinAnchorQuota}): a finalize past it is not refused, its receipt stays pending (its
 * hash shown once anchored, `reveal.ts`) and the next `anchor <slug>` or the award anchors it, so no
 * receipt is lost. `immediateAnchorQuota`: finalizes that send their own transaction (probe10 R13,
 * probe11 O4); `batchAnchorQuota`: receipts the batcher's flushes send (probe28 A-F1: one digest of an
 * `anchorMany` costs ~32,000 gas, and an empty run makes one).
 */
export interface AnchorQuota {
  /** Finalizes of one account per period whose receipt is anchored this way (an integer >= 1). */
  count: number;
  /** The period, in ms. */
  periodMs: number;
  /**
   * Finalizes per period by all accounts but the operator's together whose receipt is anchored this
   * way (an integer >= 1; absent: no bound for all accounts). Probe11 O4: the per-account count times
   * free accounts.
   */
  allAccountsCount?: number;
}

/** Finalizes of one account that anchor their receipt at once (`receiptAnchoring: "immediate"`): see {@link AnchorQuota}. */
export type ImmediateAnchorQuota = AnchorQuota;

/**
 * The default `immediateAnchorQuota` ({@link AnchorQuota}): 20 immediate anchors per account and 200 for
 * all accounts together per 24 hours (one operator transaction each).
 */
export const DEFAULT_IMMEDIATE_ANCHOR_QUOTA: AnchorQuota = {
  count: 20,
  periodMs: 24 * 3600 * 1000,
  allAccountsCount: 200,
};

/**
 * The default `batchAnchorQuota` ({@link AnchorQuota}): the batcher anchors the receipts of 200
 * finalizes per account and 5,000 of all accounts together per 24 hours, at ~32,000 gas each at most
 * 160 M gas a day (the operator's own uncounted).
 */
export const DEFAULT_BATCH_ANCHOR_QUOTA: AnchorQuota = {
  count: 200,
  periodMs: 24 * 3600 * 1000,
  allAccountsCount: 5_000,
};

/**
 * Whether a finalize (committed, at `finalizedMs`, unix ms) is within `quota` ({@link AnchorQuota}):
 * the account's runs finalized within the period, this one included, are at most its `count`, those of
 * the accounts created from its client network (`accounts.network`) at most {@link networkShareOf} its
 * `allAccountsCount` (probe30 A-F7), and those of all accounts but the operator's at most its `allAccountsCount`. Counted after the commit,
 * so concurrent finalizes each see the others: never more than `count`. Always true for the operator's
 * account and for a null quota.
 */
async function withinAnchorQuota(
  ctx: PlatformContext,
  quota: AnchorQuota | null,
  p: Principal,
  finalizedMs: number,
): Promise<boolean> {
  if (quota === null || isOperatorAccount(p.account_id)) return true;
  const since = finalizedMs - quota.periodMs + 1;
  if ((await ctx.store.runs.finalizedSince(p.account_id, since)) > quota.count) return false;
  // all accounts but the operator's together (probe11 O4), counted the same way
  if (quota.allAccountsCount === undefined) return true;
  // the share of the account's client network (probe30 A-F7: one /24's free accounts took the whole budget)
  const network = await ctx.store.accounts.networkOf(p.account_id);
  if (
    network !== null &&
    (await ctx.store.runs.finalizedSinceNetwork(network, since)) > networkShareOf(quota.allAccountsCount)
  )
    return false;
  return (await ctx.store.runs.finalizedSinceAll(OPERATOR_ACCOUNT_ID, since)) <= quota.allAccountsCount;
}

/** Per platform, the tail of each run's queue of finalizes in this process ({@link oneRunAtATime}). */
const finalizing = new WeakMap<PlatformContext, Map<string, Promise<void>>>();

/**
 * Runs `work` (one finalize's grading and transaction) after every earlier finalize of the same run in
 * this process has settled (review27 R-F6: grading moved before the transaction, so concurrent finalizes
 * of one run each graded all its answers; queued, the later ones find the run finalized and grade
 * nothing). Only the owner's calls are queued (the owner rule is checked before), and the anchor wait
 * after the commit is outside the queue. Finalizes in other processes on a shared database are not
 * queued: each may grade once, and the transaction's row lock still lets only one commit.
 * @returns what `work` returns; throws what it throws
 */
async function oneRunAtATime<T>(ctx: PlatformContext, runId: string, work: () => Promise<T>): Promise<T> {
  let queues = finalizing.get(ctx);
  if (!queues) finalizing.set(ctx, (queues = new Map()));
  const mine = (queues.get(runId) ?? Promise.resolve()).then(work);
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  queues.set(runId, settled);
  void settled.then(() => {
    if (queues.get(runId) === settled) queues.delete(runId);
  });
  return mine;
}

/**
 * The run's answers graded before the finalize transaction, in slices that give the event loop a turn
 * (probe27 A-F6: grading 140 answers of U+FDFA in the transaction held `serve` 6.7 s). Answers are
 * read once more than before (here, and in the transaction, as before): the transaction reuses every
 * credit whose answer it reads unchanged and grades at once only answers submitted meanwhile
 * (submissions may race finalize), as it graded every answer before. Nothing is graded for a run that
 * is not in progress or a benchmark whose award is under way (the transaction refuses those).
 */
async function gradeBeforeTx(
  ctx: PlatformContext,
  run: RunRecord,
  tasks: TaskRecord[],
): Promise<GradedPlanTask[] | undefined> {
  if (run.status !== "in_progress" || (await ctx.store.awards.get(run.slug)) !== null) return undefined;
  return gradePlanSliced(ctx.gradeSliceMs, run.plan, tasks, await runAnswers(ctx, run.run_id));
}

/**
 * Grades a run and builds its receipt (pure: the finalize transaction stores the result). The wall
 * clock runs from start to now in milliseconds; credits stay out of the receipt while the benchmark is
 * open (`isOpenAt`, with `chainTime` read before the transaction: {@link closingChainTimeOrWall}).
 * `known`: credits graded before the transaction ({@link gradeBeforeTx}), reused for unchanged answers.
 */
function scoreRun(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  run: RunRecord,
  tasks: TaskRecord[],
  answers: Map<number, string>,
  o: { queries: number; spent: string; known: GradedPlanTask[] | undefined; chainTime: bigint | null },
) {
  const { queries, spent } = o;
  const runId = run.run_id;
  const open = isOpenAt(ctx, b, o.chainTime);
  const graded = gradePlan(run.plan, tasks, answers, undefined, o.known);
  const finalizedMs = Math.max(ctx.clock(), run.started_at_ms);
  const wall = wallSeconds(finalizedMs - run.started_at_ms);
  const { accuracyValue, publicScore, compositeScore, compositePublic } = scoreGraded(b, graded, wall, spent);
  const salt =
    ctx.answerSaltSeed !== null
      ? keccak256Hex(`bench-bounty.answer-salt:${ctx.answerSaltSeed}:${runId}`).slice(2)
      : Buffer.from(ctx.randomBytes(32)).toString("hex");
  const receipt = buildReceipt({
    run_id: runId,
    benchmark_slug: run.slug,
    commit_root: b.commit_root,
    agent_id: run.agent_id,
    attempt: run.attempt,
    started_at: isoMillis(run.started_at_ms),
    finalized_at: isoMillis(finalizedMs),
    wall_seconds: wall,
    queries_used: queries,
    usdc_spent: spent,
    score_public: publicScore,
    score_composite: compositeScore,
    answer_salt: salt,
    tasks: graded.map((g) => ({
      bank_ordinal: g.bankOrdinal,
      prompt_hash: g.t.prompt_hash,
      visibility: g.t.visibility,
      answer_text: g.answer,
      // SPEC 4: null while open; a private task's stays null after the close too: receipts are served to
      // everyone once closed, and a run finalized after the close of a benchmark never awarded (or
      // reclaimed) would otherwise show its private labels' correctness (probe36 C-F2, c36's note)
      credit: open || g.t.visibility === "private" ? null : g.credit,
    })),
  });
  const { text: receiptJson, hash } = receiptTextAndHash(receipt); // stored as is: serialised once
  return {
    open,
    graded,
    receipt,
    receiptJson,
    hash,
    accuracyValue,
    publicScore,
    compositeScore,
    compositePublic,
    wall,
    finalizedMs,
    salt,
  };
}

/**
 * The chain's clock (unix s) that closes `slug`'s bounty, read now for a finalize (`closingChainTime`
 * `write`; probe33 A-F2: with the chain past `closes_at` and the wall clock before it, the receipt and the
 * answer must be those of a closed benchmark). A finalize stores nothing else the close decides (its
 * answers were refused after it, `submit.ts`), so a failed read is not a refusal: null, the close judged
 * by the wall clock alone (the receipt's credits then null, as while open), and the anchor's own chain
 * failure is reported as before.
 */
async function closingChainTimeOrWall(ctx: PlatformContext, slug: string): Promise<bigint | null> {
  try {
    return await closingChainTime(ctx, await getBenchmark(ctx, slug), "write");
  } catch (e) {
    if (e instanceof PlatformError && e.code === "chain_error") return null;
    throw e;
  }
}

/** Everything the finalize transaction computed. */
interface FinalizedRun {
  run: RunRecord;
  b: BenchmarkRecord;
  open: boolean;
  graded: GradedPlanTask[];
  receipt: Receipt;
  hash: Hex;
  accuracyValue: string;
  publicScore: string;
  compositeScore: string;
  compositePublic: string;
  wall: string;
  used: number;
  /** Whether the receipt got a pending anchor row (`anchoredHere`). */
  queued: boolean;
}

/** The finalize response, shaped by SPEC 6.1 and the seed's step 6 (see {@link FinalizeResult}). */
function finalizeResult(
  done: FinalizedRun,
  p: Principal,
  o: {
    queries: number;
    spent: string;
    anchor: AnchorEvidence | null;
    anchorError?: string;
    /** The receipt hash, or null while it is withheld (reveal.ts). */
    shown: Hex | null;
    /** Where the receipt hash's anchor stands (reveal.ts). */
    anchorState: AnchorState;
    /** Whether the receipt may be shown (`receiptRevealed`, reveal.ts). */
    receiptShown: boolean;
  },
): FinalizeResult {
  const { queries, spent, anchor } = o;
  const remaining = Math.max(0, done.b.config.max_attempts - done.used);
  const result: FinalizeResult = {
    run_id: done.run.run_id,
    status: "finalized",
    attempt: done.run.attempt,
    attempts_used: done.used,
    attempts_remaining: remaining,
    score_public: done.publicScore,
    score_composite_public: done.compositePublic,
    wall_seconds: done.wall,
    queries_used: queries,
    usdc_spent: spent,
    counts: {
      tasks: done.graded.length,
      answered: done.graded.filter((g) => g.answer !== null).length,
      public: done.graded.filter((g) => g.t.visibility === "public").length,
      private: done.graded.filter((g) => g.t.visibility === "private").length,
    },
    receipt_hash: o.shown,
    receipt_anchor: anchor,
    receipt_anchor_status: o.anchorState,
    ...(o.anchorError !== undefined ? { receipt_anchor_error: o.anchorError } : {}),
  };
  const privateOk = privateFiguresVisible(p, done.b, done.open);
  if (privateOk) {
    result.score_composite = done.compositeScore;
    result.rank_accuracy = done.accuracyValue;
  }
  if (receiptsVisible(p, done.b, done.open) && o.receiptShown) result.receipt = done.receipt;
  const seesPublic = !done.open || isAuthorOf(p, done.b);
  const seesPrivate = privateCreditsVisible(p, done.b);
  if (remaining === 0 || seesPublic) {
    // Public correctness once the attempts are used up or the benchmark closed; private correctness only
    // to the author (or once awarded, which a finalize never meets): probe36 C-F2
    result.per_task = done.graded
      .map((g, i) => ({ ordinal: i, visibility: g.t.visibility, credit: g.credit }))
      .filter((x) => x.visibility === "public" || seesPrivate);
  }
  return result;
}
