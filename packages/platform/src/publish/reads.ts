/**
 * Reading published benchmarks: the record, the list, the tasks (cached per process, frozen), the answer allowance, the test-set row of a task and whether a benchmark is open (the one rule of its close, `isOpenAt`).
 */
import type { TestSetRow } from "@bench-bounty/evidence";
import type { BenchmarkRecord, PlatformContext, TaskRecord } from "../context.js";
import type { ChainGateway } from "../chain.js";
import { nextBlockTimeForRead } from "../bounty-read.js";
import { PlatformError } from "../errors.js";
import type { Tables } from "../store.js";
import { answerBudget, packByteLimit, runTaskCount, titlePackBytes } from "../pack-budget.js";

/**
 * Reads a benchmark (through `q`: the store, or the tables of a transaction).
 * @throws PlatformError `unknown_benchmark`
 */
export async function getBenchmark(
  ctx: PlatformContext,
  slug: string,
  q: Tables = ctx.store,
  opts: { lock?: boolean } = {},
): Promise<BenchmarkRecord> {
  const b = await q.benchmarks.get(slug, opts);
  if (!b) throw new PlatformError("unknown_benchmark", `no benchmark ${slug}`, { slug });
  return b;
}

/**
 * A benchmark's per-answer allowance in canonical-JSON bytes (`config.max_answer_bytes`, see
 * `pack-budget.ts`); for a benchmark stored before the rule, derived from its public figures (the pack
 * limit in force, its title, its run's task count), never from its tasks (SPEC 6.1).
 */
export async function answerAllowanceOf(ctx: PlatformContext, b: BenchmarkRecord): Promise<number> {
  if (b.config.max_answer_bytes !== undefined) return b.config.max_answer_bytes;
  return Math.max(
    0,
    answerBudget({
      maxPackBytes: packByteLimit(ctx),
      titleBytes: titlePackBytes(b.title),
      runTasks: runTaskCount(b.config.public_tasks_per_run, b.public_count, b.private_count),
    }).maxAnswerBytes,
  );
}

/** All benchmarks, oldest first. */
export function listBenchmarks(ctx: PlatformContext): Promise<BenchmarkRecord[]> {
  return ctx.store.benchmarks.list();
}

/**
 * The committed test-set row of a stored task (SPEC 3: ordinal, prompt, gold, salt, visibility,
 * grader type), as `commitTestSet` and the pack's `test_set` take it.
 */
export function testSetRowOf(t: TaskRecord): TestSetRow {
  return {
    ordinal: t.ordinal,
    prompt: t.prompt,
    gold: t.gold as TestSetRow["gold"],
    salt: t.salt,
    visibility: t.visibility,
    grader_type: t.grader_type,
  };
}

/** Test sets kept in memory per store: benchmarks of at most this many tasks, this many tasks in all. */
const TASKS_CACHED_PER_BENCHMARK = 20_000;

const TASKS_CACHED_TOTAL = 200_000;

const taskCaches = new WeakMap<PlatformContext, Map<string, readonly TaskRecord[]>>();

/** Freezes `v` and every object reachable from it (a value cached and shared by every caller). */
export function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/**
 * The test set of a benchmark in ordinal order (gold and salts included: never serve this before the
 * award). Read outside a transaction, a published test set is kept in memory (frozen, shared): it never
 * changes after publication, and start and finalize read it on every run. Bounded by
 * {@link TASKS_CACHED_TOTAL}; an unknown slug (no tasks) is never kept.
 */
export async function getTasks(
  ctx: PlatformContext,
  slug: string,
  q: Tables = ctx.store,
): Promise<TaskRecord[]> {
  if (q !== ctx.store) return q.tasks.ofBenchmark(slug);
  let cache = taskCaches.get(ctx);
  if (!cache) taskCaches.set(ctx, (cache = new Map()));
  const hit = cache.get(slug);
  if (hit) return hit as TaskRecord[];
  const tasks = await q.tasks.ofBenchmark(slug);
  if (tasks.length === 0 || tasks.length > TASKS_CACHED_PER_BENCHMARK) return tasks;
  let total = tasks.length;
  for (const t of cache.values()) total += t.length;
  if (total > TASKS_CACHED_TOTAL) cache.clear();
  cache.set(slug, deepFreeze(tasks));
  return tasks;
}

/**
 * How {@link isOpen} reads the chain's clock for a benchmark bound to an on-chain bounty:
 * - `read` (the detail, the list, the boards, receipts, the door): the shared read of
 *   `nextBlockTimeForRead` (at most `BOUNTY_READ_TTL_MS`, 5 s, old), waited for at most
 *   {@link OPEN_READ_WAIT_MS} (or the caller's deadline); no answer: the wall clock alone;
 * - `write` (a run's start, its answers and its finalize, where the close decides what can win money):
 *   the next block's time read now (`ChainGateway.pendingTimestamp`); a failed read refuses the write
 *   `chain_error` (nothing stored), never guessed open.
 * Both read the chain's clock as the award route does (the pending block's time, where an award sent
 * now lands at the earliest), never the latest block's, which on an idle node (automine, a quiet chain)
 * is minutes old: no answer is taken once the award would be accepted (probe39 A-F1).
 */
export type ClockRead = "read" | "write";

/** How long (ms, wall clock) a read waits for the chain's clock before judging the close by the wall clock alone. */
export const OPEN_READ_WAIT_MS = 1_000;

/**
 * The one rule of a benchmark's close (SPEC 1: the award is allowed from `closesAt <= block.timestamp`;
 * probe33 A-F2): open while published and, when bound to a bounty, before its `closes_at` (unix s) by the
 * platform's clock (`ctx.clock`) AND by the chain's (`chainTime`, the next block's time in unix s, as the
 * award judges it: {@link ClockRead}; null when not read): whichever reaches `closes_at` first closes it.
 * Off-chain benchmarks (no bounty) keep the wall clock only: a status change closes them.
 */
export function isOpenAt(ctx: PlatformContext, b: BenchmarkRecord, chainTime: bigint | null): boolean {
  return closureOf(ctx, b, chainTime) === null;
}

/** Why a benchmark is closed ({@link isOpenAt}'s rule), or null while it is open. */
export interface Closure {
  /** What closed it: its stored status (closed by the operator or the award, or awarded), or a clock. */
  closed_by: "status" | "wall_clock" | "chain_clock";
  /** The words of the reason, e.g. "its bounty's closes_at 1796604778 (2026-12-07T00:52:58Z) has passed by the chain's clock (next block's time 1796604981)". */
  reason: string;
  /** The facts, for an error's `details`: the status, `closes_at` and the clock that passed it (unix s). */
  details: { status: string; closes_at?: number; chain_time?: number; platform_time?: number };
}

/** Why `b` is closed, or null while open ({@link isOpenAt}: the rule itself). */
export function closureOf(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  chainTime: bigint | null,
): Closure | null {
  if (b.status !== "published")
    return { closed_by: "status", reason: `it is ${b.status}`, details: { status: b.status } };
  if (b.bounty === null) return null;
  const closesAt = b.bounty.closes_at;
  const when = `its bounty's closes_at ${closesAt} (${new Date(closesAt * 1000).toISOString()})`;
  const now = ctx.clock();
  if (now >= closesAt * 1000)
    return {
      closed_by: "wall_clock",
      reason: `${when} has passed by the platform's clock (${Math.floor(now / 1000)})`,
      details: { status: b.status, closes_at: closesAt, platform_time: Math.floor(now / 1000) },
    };
  if (chainTime !== null && chainTime >= BigInt(closesAt))
    return {
      closed_by: "chain_clock",
      reason: `${when} has passed by the chain's clock (next block's time ${chainTime})`,
      details: { status: b.status, closes_at: closesAt, chain_time: Number(chainTime) },
    };
  return null;
}

/** The highest chain time (unix s) the close has seen on each chain in this process ({@link closeClockSeen}). */
const closeClockHigh = new WeakMap<ChainGateway, bigint>();

/** The highest chain time this process wrote to each store's mark, by chain id ({@link recordCloseClock}). */
const closeClockStored = new WeakMap<object, Map<number, bigint>>();

/**
 * The chain's clock for the close, never going back (probe35 A-F2): `read` (a chain time just read, or
 * null when none came) is raised to the highest one the close has seen on `chain` in this process, and
 * recorded, in this process and in the store ({@link recordCloseClock}: the mark a process without the
 * chain judges the close by, probe36 A-F4). A block time read lower than one seen before (a reorganised
 * head that had crossed `closes_at`, a load-balanced RPC whose next node lags a block) never reopens a
 * benchmark: once a read (the shared, up to 5 s old clock) judged it closed, every later start and
 * answer is refused too.
 * @returns the highest of `read` and the times seen before, or null when neither exists
 */
async function closeClockSeen(
  ctx: PlatformContext,
  chain: ChainGateway,
  read: bigint | null,
): Promise<bigint | null> {
  const high = closeClockHigh.get(chain);
  if (read === null) return high ?? null;
  if (high !== undefined && high >= read) return high;
  closeClockHigh.set(chain, read);
  await recordCloseClock(ctx, chain.config.chainId, read);
  return read;
}

/**
 * Raises the store's mark of chain `chainId`'s clock to `t` (`AnchorsTable.raiseCloseChainTime`), one
 * small write only when `t` is above what this process wrote before (block times are whole seconds: a
 * write when the mark moves by at least 1 s, never one per request).
 * @throws what the store's write throws (the mark is then written by the next read)
 */
async function recordCloseClock(ctx: PlatformContext, chainId: number, t: bigint): Promise<void> {
  let written = closeClockStored.get(ctx.store);
  if (written === undefined) closeClockStored.set(ctx.store, (written = new Map()));
  const before = written.get(chainId);
  if (before !== undefined && before >= t) return;
  written.set(chainId, t);
  try {
    await ctx.store.anchors.raiseCloseChainTime(chainId, t);
  } catch (e) {
    if (written.get(chainId) === t)
      if (before === undefined) written.delete(chainId);
      else written.set(chainId, before);
    throw e;
  }
}

/**
 * The close's chain clock in a process without a chain, for a bounty (open by the wall clock) on a store
 * used on a chain (`meta.anchoring_chain_id`; probe36 A-F4: such a process took a run and its answers
 * after the on-chain close, while a process with the chain on the same store already revealed the
 * per-task credits): the store's mark of the chain's clock, the highest chain time a process with the
 * chain read (`AnchorsTable.closeChainTime`). A `read` takes the mark (closed only once it reached
 * `closes_at`: never revealed before a process with the chain judged it closed); a `write` (a start, an
 * answer, a finalize: what can win money) takes it only when it closes the benchmark, and is otherwise
 * refused, as this process cannot tell whether the chain passed `closes_at`. On a store never used on a
 * chain: null (the wall clock alone, as before).
 * @throws PlatformError `no_chain` (a `write` not closed by the mark: nothing stored; `details.slug`,
 *   `closes_at`, `chain_id`, `reason: "chain_clock_unknown"`)
 */
async function chainlessCloseClock(
  ctx: PlatformContext,
  b: BenchmarkRecord & { bounty: NonNullable<BenchmarkRecord["bounty"]> },
  how: ClockRead,
): Promise<bigint | null> {
  if ((await ctx.store.anchors.anchoringChainId()) === null) return null;
  const chainId = b.bounty.chain_id;
  const mark = await ctx.store.anchors.closeChainTime(chainId);
  if (how === "read" || (mark !== null && mark >= BigInt(b.bounty.closes_at))) return mark;
  throw new PlatformError(
    "no_chain",
    `benchmark ${b.slug} closes at its bounty's closes_at ${b.bounty.closes_at} by the clock of chain ${chainId}, which this process (no chain) cannot read, so it takes no run, answer or finalize for it: nothing was stored; the service's main address (a serve with the chain on this store) takes them: send them there, your key works there too`,
    { slug: b.slug, closes_at: b.bounty.closes_at, chain_id: chainId, reason: "chain_clock_unknown" },
  );
}

/**
 * The chain's clock (unix s) {@link isOpenAt} needs for `b`, read as `how` says ({@link ClockRead}):
 * null when the chain cannot close it (not published, no bounty, already past `closes_at` by the wall
 * clock, or a chain of another id than the bounty's) or, for a `read`, when the chain did not answer in
 * time and the close had seen no chain time before. Never lower than a chain time the close saw before
 * in this process, by a read or a write ({@link closeClockSeen}, probe35 A-F2), and for a `write` never
 * lower than the store's mark, the highest chain time any process with the chain read (`AnchorsTable.closeChainTime`). In a process without a
 * chain: the store's mark of the chain's clock, or a refused write ({@link chainlessCloseClock}, probe36
 * A-F4; null on a store never used on a chain).
 * @param by unix ms (wall clock): a `read`'s deadline (default {@link OPEN_READ_WAIT_MS} from now)
 * @throws PlatformError `chain_error` (a `write` whose read failed: `details.slug`, `closes_at`),
 *   `no_chain` (a `write` in a process without a chain on a store used on one, the close not known)
 */
export async function closingChainTime(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  how: ClockRead,
  by?: number,
): Promise<bigint | null> {
  const chain = ctx.chain;
  if (b.status !== "published" || b.bounty === null || ctx.clock() >= b.bounty.closes_at * 1000) return null;
  if (chain === null) return chainlessCloseClock(ctx, { ...b, bounty: b.bounty }, how);
  if (chain.config.chainId !== b.bounty.chain_id) return null;
  if (how === "read")
    return closeClockSeen(ctx, chain, await nextBlockTimeForRead(ctx, by ?? Date.now() + OPEN_READ_WAIT_MS));
  let read: bigint;
  try {
    // the next block's time, as the award route's (probe39 A-F1: by the latest block's, minutes old on an
    // idle node, answers were taken after the award route already judged the contest closed)
    read = await chain.pendingTimestamp();
  } catch (e) {
    if (!(e instanceof PlatformError && e.code === "chain_error")) throw e;
    throw new PlatformError(
      "chain_error",
      `benchmark ${b.slug} closes at its bounty's closes_at ${b.bounty.closes_at} by the chain's clock, which could not be read (${e.message}): nothing was stored, try again`,
      { slug: b.slug, closes_at: b.bounty.closes_at },
    );
  }
  // another process with this chain on the store (its RPC ahead of this one's, which lags) may have seen
  // the close: a write takes the store's mark too, so what it judged closed takes no run or answer here
  // (e36's note on probe36 A-F4)
  const mark = await ctx.store.anchors.closeChainTime(chain.config.chainId);
  return closeClockSeen(ctx, chain, mark !== null && mark > read ? mark : read);
}

/**
 * True while the benchmark accepts runs and answers ({@link isOpenAt}, the chain's clock read as `how`
 * says: {@link closingChainTime}).
 * @param by unix ms: a `read`'s deadline for the chain's clock
 * @throws PlatformError `chain_error` (a `write` whose read of the chain's clock failed)
 */
export async function isOpen(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  how: ClockRead = "read",
  by?: number,
): Promise<boolean> {
  return isOpenAt(ctx, b, await closingChainTime(ctx, b, how, by));
}
