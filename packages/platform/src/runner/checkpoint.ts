/**
 * The runner's checkpoint (one JSON file per run in the backend's checkpoint folder, written durably after every outcome): what a resume reads back and checks against the served tasks.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PlatformError } from "../errors.js";
import { keccak256Hex } from "@bench-bounty/evidence";
import type { RunBackend } from "../backend.js";
import type { ServedTask } from "../runs.js";
import { writeFileDurably } from "../store.js";
import type { TaskOutcome } from "../runner.js";

/** Checkpoint schema tag. */
export const CHECKPOINT_SCHEMA = "bench-bounty.runner-checkpoint.v1";

export interface Checkpoint {
  schema: typeof CHECKPOINT_SCHEMA;
  run_id: string;
  benchmark: string;
  agent_id: string;
  attempt: number;
  /**
   * The agent as started; `env_names` are the variables passed by name (`run --agent-env`): their values
   * are never stored, a resume reads them again from its own environment.
   */
  agent:
    | { kind: "command"; command: string; cwd?: string; env_names?: string[] }
    | { kind: "function"; name: string };
  options: {
    concurrency: number;
    batch_size: number;
    task_timeout_ms: number;
    invalid_answer_policy: "skip" | "abort";
  };
  /** Where the run lives (`local store DIR`, a server URL). */
  backend: string;
  task_count: number;
  tasks_digest: string;
  outcomes: Record<string, TaskOutcome>;
}

export function checkpointFile(backend: RunBackend, runId: string): string {
  return join(backend.checkpointDir, `${runId}.json`);
}

export function saveCheckpoint(backend: RunBackend, cp: Checkpoint): void {
  writeFileDurably(checkpointFile(backend, cp.run_id), JSON.stringify(cp, null, 2) + "\n");
}

/** keccak256 of the served tasks: detects a checkpoint that does not belong to the stored run. */
export function tasksDigest(tasks: ServedTask[]): string {
  return keccak256Hex(JSON.stringify(tasks.map((t) => [t.ordinal, t.prompt, t.visibility, t.grader_type])));
}

/**
 * Reads a run's checkpoint.
 * @throws PlatformError `unknown_run` when there is none; `invalid_checkpoint` naming the
 *   file when it is not valid JSON or has no plan
 */
export function readCheckpoint(backend: RunBackend, runId: string): Checkpoint {
  const file = checkpointFile(backend, runId);
  if (!existsSync(file))
    throw new PlatformError("unknown_run", `no checkpoint for run ${runId} in ${backend.checkpointDir}`, {
      run_id: runId,
    });
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new PlatformError(
      "invalid_checkpoint",
      // One line: the parser quotes the start of the text, newlines included.
      `checkpoint ${file} is not valid JSON (${(e as Error).message.replace(/\s+/g, " ")})`,
      { run_id: runId, path: file },
    );
  }
  if (
    typeof doc !== "object" ||
    doc === null ||
    typeof (doc as { tasks_digest?: unknown }).tasks_digest !== "string"
  )
    throw new PlatformError(
      "invalid_checkpoint",
      `checkpoint ${file} is not a run checkpoint (expected a JSON object with a tasks_digest)`,
      { run_id: runId, path: file },
    );
  return doc as Checkpoint;
}

/** True when the run has at least one stored answer (as far as the checkpoint knows). */
export function hasAnswer(cp: Checkpoint): boolean {
  return Object.values(cp.outcomes).some((o) => o.status === "answered");
}
