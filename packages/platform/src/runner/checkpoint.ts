/**
 * The runner's checkpoint (one JSON file per run in the backend's checkpoint folder, written durably after every outcome): what a resume reads back and checks against the served tasks.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PlatformError } from "../errors.js";
import {
  BoundedFileError,
  SIZE_UNKNOWN_TEXT,
  PACK_LIMITS,
  keccak256Hex,
  readBoundedFile,
  schemaProblems,
} from "@bench-bounty/evidence";
import { z } from "zod";
import { terminalText } from "../terminal.js";
import type { RunBackend } from "../backend.js";
import { RUN_ID_PATTERN, type ServedTask } from "../runs.js";
import { writeFileDurably } from "../store.js";
import type { TaskOutcome } from "../runner.js";

/** Checkpoint schema tag. */
export const CHECKPOINT_SCHEMA = "bench-bounty.runner-checkpoint.v1";

const positiveInt = z.number().int().positive();

/**
 * The checkpoint's shape: every member `resume` uses is checked when the file is read, so a damaged
 * file is refused naming its JSON path (probe21 B-F8) rather than reaching the store.
 */
const checkpointSchema = z.object({
  schema: z.literal(CHECKPOINT_SCHEMA),
  run_id: z.string().regex(RUN_ID_PATTERN, "expected a run id (run-<16 hex>)"),
  benchmark: z.string().min(1),
  agent_id: z.string().min(1),
  attempt: positiveInt,
  /**
   * The agent as started; `env_names` are the variables passed by name (`run --agent-env`): their values
   * are never stored, a resume reads them again from its own environment.
   */
  agent: z.discriminatedUnion("kind", [
    z.object({
      kind: z.literal("command"),
      command: z.string().min(1),
      cwd: z.string().optional(),
      env_names: z.array(z.string()).optional(),
    }),
    z.object({ kind: z.literal("function"), name: z.string() }),
  ]),
  options: z.object({
    concurrency: positiveInt,
    batch_size: positiveInt,
    task_timeout_ms: positiveInt,
    invalid_answer_policy: z.enum(["skip", "abort"]),
  }),
  /** Where the run lives (`local store DIR`, a server URL). */
  backend: z.string(),
  task_count: z.number().int().nonnegative(),
  tasks_digest: z.string().regex(/^0x[0-9a-f]{64}$/, "expected a keccak256 digest (0x + 64 hex)"),
  outcomes: z.record(
    z.string(),
    z.object({
      ordinal: z.number().int().nonnegative(),
      status: z.enum(["answered", "invalid", "timeout", "error"]),
      reason: z.string().optional(),
    }),
  ),
});

/** A run's checkpoint (`runs/<run_id>.json`), as written by the runner. */
export type Checkpoint = z.infer<typeof checkpointSchema> & { outcomes: Record<string, TaskOutcome> };

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
 *   file when it is not valid JSON, and the file and the first JSON path (`json_path`) whose member
 *   does not fit the checkpoint's schema (a wrong type, a missing member) or names another run
 */
export function readCheckpoint(backend: RunBackend, runId: string): Checkpoint {
  const file = checkpointFile(backend, runId);
  if (!existsSync(file))
    throw new PlatformError(
      "unknown_run",
      `no checkpoint for run ${runId} in ${backend.checkpointDir} (a run of yours started elsewhere: give --agent CMD to answer the rest of it from here)`,
      {
        run_id: runId,
      },
    );
  let doc: unknown;
  try {
    doc = JSON.parse(checkpointText(file, runId));
  } catch (e) {
    if (e instanceof PlatformError) throw e;
    throw new PlatformError(
      "invalid_checkpoint",
      // One line: the parser quotes the start of the text, newlines included.
      `checkpoint ${file} is not valid JSON (${(e as Error).message.replace(/\s+/g, " ")})`,
      { run_id: runId, path: file },
    );
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    throw new PlatformError(
      "invalid_checkpoint",
      `checkpoint ${file} is not a run checkpoint (expected a JSON object with a tasks_digest)`,
      { run_id: runId, path: file },
    );
  const problem = schemaProblems(checkpointSchema, doc)[0];
  if (problem !== undefined)
    throw new PlatformError(
      "invalid_checkpoint",
      `checkpoint ${file} is not a run checkpoint: ${problem.path} ${terminalText(problem.message)}`,
      { run_id: runId, path: file, json_path: problem.path },
    );
  const cp = doc as Checkpoint;
  if (cp.run_id !== runId)
    throw new PlatformError(
      "invalid_checkpoint",
      `checkpoint ${file} is not a run checkpoint of ${runId}: $.run_id is ${cp.run_id}`,
      { run_id: runId, path: file, json_path: "$.run_id" },
    );
  return cp;
}

/**
 * Most bytes of a checkpoint read (bytes): a pack's limit (`PACK_LIMITS.maxPackBytes`, 512 MiB); a
 * checkpoint holds one run's tasks and answers, fewer than the pack that reveals them.
 */
export const MAX_CHECKPOINT_BYTES = PACK_LIMITS.maxPackBytes;

/**
 * The text of the checkpoint `file` (evidence's `readBoundedFile`): a regular file (symlinks followed)
 * of at most {@link MAX_CHECKPOINT_BYTES}, opened non-blocking (probe23 F4: a checkpoint that was a
 * symlink to /dev/zero grew `resume` to 16.8 GB and a native crash; a FIFO there blocked it for good).
 * @throws PlatformError `invalid_checkpoint` naming the file: not a regular file, too large, grown
 *   while read, unreadable
 */
function checkpointText(file: string, runId: string): string {
  try {
    const bytes = readBoundedFile(file, { maxBytes: MAX_CHECKPOINT_BYTES });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  } catch (e) {
    if (!(e instanceof BoundedFileError)) throw e;
    const refuse = (why: string) =>
      new PlatformError("invalid_checkpoint", `checkpoint ${file} ${why}`, { run_id: runId, path: file });
    const p = e.problem;
    switch (p.reason) {
      case "unreadable":
        throw refuse(`cannot be read (${p.code})`);
      case "not_regular":
        throw refuse("is not a regular file (the runner writes one; remove what is there)");
      case "too_large":
        throw refuse(
          `is ${p.size} bytes, over the ${MAX_CHECKPOINT_BYTES} a checkpoint may be (MAX_CHECKPOINT_BYTES)`,
        );
      case "grew":
        throw refuse(`grew past its ${p.size} bytes while it was read; run again`);
      case "size_unknown":
        throw refuse(SIZE_UNKNOWN_TEXT);
    }
  }
}
