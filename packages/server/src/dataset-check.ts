/**
 * Dataset bodies off the event loop: a keyed 64 MiB `POST /api/v1/datasets/validate` (or `POST
 * /api/v1/datasets`) costs seconds of CPU (strict parse, schema, every row's checks and hashes); run
 * inline, every other request waited for it (issue 13's known gap). {@link DatasetChecker} runs that
 * work in one worker thread (a pool of 1: the cost is still bounded in rate by the dataset-bytes bucket,
 * and the event loop keeps serving while it runs). The body's bytes are moved to the worker
 * (transferred, not copied); the dry run's small report, the upload's {@link PreparedDataset} (strings
 * only, for the store) or the refusal comes back.
 */
import { Worker } from "node:worker_threads";
import type { JsonValue } from "@bench-bounty/evidence";
import {
  checkDataset,
  PlatformError,
  prepareDataset,
  type PlatformErrorCode,
  type PreparedDataset,
} from "@bench-bounty/platform";
import { DATASET_BODY } from "./body-limits.js";
import { EdgeError, type EdgeErrorCode } from "./errors.js";
import { strictParse, validateBody } from "./route.js";
import { DatasetBody } from "./schemas.js";

/** A refusal as it crosses the thread boundary. */
export type CheckFailure =
  | { kind: "edge" | "platform"; code: string; message: string; details: Record<string, unknown> }
  | { kind: "internal"; message: string };

/** A job: the dry run (`check`) or the upload's preparation (`prepare`). */
export type DatasetJob = "check" | "prepare";

/** What the worker answers for one job. */
export type CheckAnswer = { id: number } & ({ result: unknown } | { failure: CheckFailure });

/**
 * The dry run of a dataset body's bytes, inline: the strict parser (400 `invalid_json`), the body
 * schema (422 `invalid_request` naming the JSON path), then the platform's row checks (the report:
 * `{ok, row_count, content_hash, errors}`).
 * @throws EdgeError `invalid_json`, `invalid_request`; PlatformError as the platform's `checkDataset`
 */
export function checkDatasetBytes(bytes: Uint8Array): JsonValue {
  const report = checkDataset(validateBody(DatasetBody, strictParse(bytes, DATASET_BODY)));
  return JSON.parse(JSON.stringify(report)) as JsonValue;
}

/**
 * An upload's bytes as the store keeps them: the strict parser, the body schema, then the platform's
 * {@link prepareDataset}. @throws as {@link checkDatasetBytes}; PlatformError `invalid_dataset`
 */
export function prepareDatasetBytes(bytes: Uint8Array): PreparedDataset {
  return prepareDataset(validateBody(DatasetBody, strictParse(bytes, DATASET_BODY)));
}

/** One job's result as a worker's answer (never throws). */
export function answerOf(id: number, job: DatasetJob, bytes: Uint8Array): CheckAnswer {
  try {
    return { id, result: job === "check" ? checkDatasetBytes(bytes) : prepareDatasetBytes(bytes) };
  } catch (e) {
    if (e instanceof EdgeError)
      return { id, failure: { kind: "edge", code: e.code, message: e.message, details: e.details } };
    if (e instanceof PlatformError)
      return { id, failure: { kind: "platform", code: e.code, message: e.message, details: e.details } };
    return { id, failure: { kind: "internal", message: e instanceof Error ? e.message : String(e) } };
  }
}

/** The error a failure stands for, thrown again on the event loop's side. */
export function errorOf(f: CheckFailure): Error {
  if (f.kind === "edge") return new EdgeError(f.code as EdgeErrorCode, f.message, f.details);
  if (f.kind === "platform") return new PlatformError(f.code as PlatformErrorCode, f.message, f.details);
  return new Error(`dataset check failed: ${f.message}`);
}

/**
 * The worker: the compiled `dataset-worker.js` beside this module, or, when this module runs from its
 * TypeScript source (the tests), the source loaded through tsx's loader registered in the worker.
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return new Worker(new URL("./dataset-worker.js", here));
  const entry = JSON.stringify(new URL("./dataset-worker.ts", here).href);
  return new Worker(`import("tsx/esm/api").then((t) => { t.register(); return import(${entry}); });`, {
    eval: true,
  });
}

/**
 * A pool of one worker thread running {@link checkDatasetBytes}, started on first use and restarted
 * after it dies; jobs wait their turn in the worker's queue. The worker does not keep the process alive.
 */
export class DatasetChecker {
  private worker: Worker | null = null;
  private next = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  /**
   * The dry run of a dataset body's bytes ({@link checkDatasetBytes}) in the worker (the bytes are
   * transferred: the caller must not use them afterwards).
   * @returns the report `{ok, row_count, content_hash, errors}`
   * @throws what {@link checkDatasetBytes} throws; Error when the worker dies
   */
  check(bytes: Uint8Array): Promise<JsonValue> {
    return this.run("check", bytes) as Promise<JsonValue>;
  }

  /**
   * An upload's bytes prepared for the store ({@link prepareDatasetBytes}) in the worker (transferred).
   * @throws what {@link prepareDatasetBytes} throws; Error when the worker dies
   */
  prepare(bytes: Uint8Array): Promise<PreparedDataset> {
    return this.run("prepare", bytes) as Promise<PreparedDataset>;
  }

  private run(job: DatasetJob, bytes: Uint8Array): Promise<unknown> {
    const w = this.started();
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // a view over part of a larger buffer (a pooled Buffer) is copied, never transferred
      const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
      const body = own ? bytes : bytes.slice();
      w.postMessage({ id, job, bytes: body }, [body.buffer as ArrayBuffer]);
    });
  }

  /** Stops the worker; pending checks are refused. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const w = startWorker();
    w.unref();
    w.on("message", (a: CheckAnswer) => {
      const job = this.pending.get(a.id);
      this.pending.delete(a.id);
      if (!job) return;
      if ("result" in a) job.resolve(a.result);
      else job.reject(errorOf(a.failure));
    });
    const fail = (e: Error) => {
      if (this.worker === w) this.worker = null;
      for (const job of this.pending.values()) job.reject(e);
      this.pending.clear();
    };
    w.on("error", fail);
    w.on("exit", (code) => fail(new Error(`the dataset check worker exited (code ${code})`)));
    this.worker = w;
    return w;
  }
}
