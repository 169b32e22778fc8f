/**
 * Reading published benchmarks: the record, the list, the tasks (cached per process, frozen), the answer allowance, the test-set row of a task and whether a benchmark is open.
 */
import type { TestSetRow } from "@bench-bounty/evidence";
import type { BenchmarkRecord, PlatformContext, TaskRecord } from "../context.js";
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

/** True while the benchmark accepts runs: published, and before the bounty's `closes_at` by the platform clock. */
export function isOpen(ctx: PlatformContext, b: BenchmarkRecord): boolean {
  if (b.status !== "published") return false;
  return b.bounty === null || ctx.clock() < b.bounty.closes_at * 1000;
}
