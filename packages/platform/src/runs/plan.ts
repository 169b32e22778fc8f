/**
 * A run's identity and task plan (SPEC 4): the run id of an attempt and the deterministic plan of its
 * tasks: the private tasks in bank order (fixed) followed by a seeded shuffle of a subset of the public
 * tasks ({@link runPlan}); ordinal `i` of the run is position `i`.
 */
import { keccak256Hex } from "@bench-bounty/evidence";
import type { BenchmarkRecord, TaskRecord } from "../context.js";
import { PlatformError } from "../errors.js";

/**
 * The task plan of an attempt: private bank ordinals ascending (fixed), then the public bank ordinals
 * ordered by `keccak256("bench-bounty.plan:" + plan_seed + ":" + agent_id + ":" + attempt + ":" + ordinal)`
 * and cut to `public_tasks_per_run`. Deterministic: the same benchmark, agent and attempt always give
 * the same plan, and different attempts draw different shuffles.
 */
export function runPlan(
  b: Pick<BenchmarkRecord, "plan_seed" | "config">,
  tasks: Pick<TaskRecord, "ordinal" | "visibility">[],
  agentId: string,
  attempt: number,
): number[] {
  const priv = tasks
    .filter((t) => t.visibility === "private")
    .map((t) => t.ordinal)
    .sort((a, c) => a - c);
  const keyed = tasks
    .filter((t) => t.visibility === "public")
    .map((t) => ({
      o: t.ordinal,
      k: keccak256Hex(`bench-bounty.plan:${b.plan_seed}:${agentId}:${attempt}:${t.ordinal}`),
    }))
    .sort((x, y) => (x.k < y.k ? -1 : x.k > y.k ? 1 : x.o - y.o));
  const k =
    b.config.public_tasks_per_run === null
      ? keyed.length
      : Math.min(b.config.public_tasks_per_run, keyed.length);
  return [...priv, ...keyed.slice(0, k).map((x) => x.o)];
}

/**
 * The form of every run id ({@link runIdOf}): what a client checks a server's run id against before it
 * names a file or a printed command after it (probe15 B-F1).
 */
export const RUN_ID_PATTERN = /^run-[0-9a-f]{16}$/;

/**
 * Checks that a value given as a run id has the run id's form ({@link RUN_ID_PATTERN}) before anything
 * (a checkpoint or lock file, a store row) is named after it (probe32 B-F7: `resume ../x` named a lock
 * file outside the store).
 * @param field the name of the value in the error (`run_id`, `run_ids[2]`)
 * @throws PlatformError `invalid_option` naming `field` when `id` is not a string of that form
 */
export function checkRunId(id: unknown, field: string): asserts id is string {
  if (typeof id !== "string" || !RUN_ID_PATTERN.test(id))
    throw new PlatformError("invalid_option", `${field} must be a run id (run- and 16 hex digits)`, {
      field,
    });
}

/**
 * The run id of an attempt: `run-` + 16 hex of keccak256("bench-bounty.run:" key, slug, agent, attempt),
 * `key` the store's secret id key (`meta.dataset_id_key`, `DatasetsTable.idKey`, never served). Keyed
 * (probe29 A-F9): an unkeyed id was computable by anyone from public names, and a route's 403 for a run
 * that exists against its 404 for one that does not told a stranger which agents competed on a
 * `buyer_only` benchmark and how often. Computed once, at the run's start; every later use reads the
 * stored id (runs of a store from before keep theirs).
 * @param key the store's id key (hex)
 * @param attempt 1-based
 */
export function runIdOf(key: string, slug: string, agentId: string, attempt: number): string {
  return `run-${keccak256Hex(`bench-bounty.run:${key}\n${slug}\n${agentId}\n${attempt}`).slice(2, 18)}`;
}
