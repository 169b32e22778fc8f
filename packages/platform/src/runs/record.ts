/**
 * Runs as stored (SPEC 4): the record, the task as served to an agent, and the reads the other run
 * modules share (a run by id, a benchmark's runs, a run's answers).
 */
import { type Hex, type Receipt } from "@bench-bounty/evidence";
import type { PlatformContext } from "../context.js";
import { PlatformError } from "../errors.js";
import type { Tables } from "../store.js";

/** A task as served to an agent (no gold, ever). */
export interface ServedTask {
  /** Position in this run (what answers refer to). */
  ordinal: number;
  prompt: string;
  visibility: "public" | "private";
  grader_type: string;
}

/** A run as stored. */
export interface RunRecord {
  run_id: string;
  slug: string;
  agent_id: string;
  /** The account that owns the agent and started the run (the only one that may submit, finalize, resume). */
  account_id: string;
  attempt: number;
  status: "in_progress" | "finalized";
  /** Bank ordinals in run order. */
  plan: number[];
  started_at_ms: number;
  finalized_at_ms: number | null;
  answer_salt: string | null;
  receipt: Receipt | null;
  receipt_hash: Hex | null;
  rank_accuracy: string | null;
  score_public: string | null;
  score_composite: string | null;
  /** SPEC 6.1: the composite with the public accuracy in place of the private one. */
  score_composite_public: string | null;
  wall_seconds: string | null;
  queries_used: number | null;
  usdc_spent: string | null;
}

/** Reads a run (through `q`: the store, or a transaction's tables). @throws PlatformError `unknown_run` */
export async function getRun(
  ctx: PlatformContext,
  runId: string,
  q: Tables = ctx.store,
  opts: { lock?: boolean } = {},
): Promise<RunRecord> {
  const r = await q.runs.get(runId, opts);
  if (!r) throw new PlatformError("unknown_run", `no run ${runId}`, { run_id: runId });
  return r;
}

/** Runs of a benchmark (optionally of one agent), in start order. */
export function listRuns(
  ctx: PlatformContext,
  slug: string,
  agentId?: string,
  q: Tables = ctx.store,
): Promise<RunRecord[]> {
  return q.runs.ofBenchmark(slug, agentId);
}

/** Answers stored for a run: ordinal -> answer text (store-internal: finalize and the award). */
export function runAnswers(
  ctx: PlatformContext,
  runId: string,
  q: Tables = ctx.store,
): Promise<Map<number, string>> {
  return q.answers.ofRun(runId);
}
