/**
 * `GET /api/v1/benchmarks/:slug/task-scores`: per-task credit of every finalized run, regraded by the
 * platform once the benchmark has closed (served to the author at any time, and on a `buyer_only`
 * board to the author only). The receipts of runs finalized while the benchmark was open carry
 * `credit: null` (SPEC 4), so the per-task tables read this, not receipts. The shapes are the
 * platform's own (type-only: nothing of the platform is bundled).
 *
 * @packageDocumentation
 */
export type { RunTaskScores, TaskCredit, TaskScores } from "@bench-bounty/platform";
