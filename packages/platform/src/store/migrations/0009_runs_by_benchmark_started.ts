/**
 * Migration 0009: an index on `runs (slug, status, started_at_ms, run_id)`, the order of a benchmark's
 * finalized runs (`RunsTable.finalizedOfBenchmark`: the pages of `GET /benchmarks/{slug}/task-scores`
 * and the MCP `benchmark_task_scores` tool; the closed board's source rows): a deep offset is read from
 * the index instead of sorting every run of the benchmark (issue 13, open item of probe18 F7). Additive:
 * the schema version stays.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0009 (the same statement on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE INDEX runs_by_benchmark_started ON runs (slug, status, started_at_ms, run_id)`)
    .execute(db);
}
