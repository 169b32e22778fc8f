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
import type { JsonValue, NativeKeccakGate } from "@bench-bounty/evidence";
import {
  checkDataset,
  planPublication,
  planResultOfText,
  planResultText,
  PlatformError,
  prepareDataset,
  type PlatformErrorCode,
  type PreparedDataset,
  type TestSetPlanJob,
  type TestSetPlanResult,
} from "@bench-bounty/platform";
import { DATASET_BODY } from "./body-limits.js";
import { EdgeError, type EdgeErrorCode } from "./errors.js";
import { strictParse, validateBody } from "./route.js";
import { DatasetBody } from "./schemas.js";

/** A refusal as it crosses the thread boundary. */
export type CheckFailure =
  | { kind: "edge" | "platform"; code: string; message: string; details: Record<string, unknown> }
  | { kind: "internal"; message: string };

/**
 * A job: the dry run (`check`) or the upload's preparation (`prepare`) of a body's bytes, or a
 * publication's planning (`plan`, the platform's `planPublication`: parse, render, hash a stored
 * dataset's rows).
 */
export type DatasetJob = "check" | "prepare" | "plan";

/** What a job works on: a body's bytes (`check`, `prepare`) or a planning job (`plan`). */
export type JobPayload = Uint8Array | TestSetPlanJob;

/** A job's size: a body's bytes, a planning's stored rows (their JSON text's length). */
export function jobBytes(payload: JobPayload): number {
  return payload instanceof Uint8Array
    ? payload.byteLength
    : payload.bodies.reduce((n, b) => n + b.length, 0);
}

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

/** The result of one job, on the calling thread. @throws as the job's function */
function resultOf(job: DatasetJob, payload: JobPayload): unknown {
  // as text: a gold's exact numbers keep their class across the thread (probe32 A-F6, A-F8)
  if (job === "plan") return planResultText(planPublication(payload as TestSetPlanJob));
  const bytes = payload as Uint8Array;
  return job === "check" ? checkDatasetBytes(bytes) : prepareDatasetBytes(bytes);
}

/** One job's result as a worker's answer (never throws). */
export function answerOf(id: number, job: DatasetJob, payload: JobPayload): CheckAnswer {
  try {
    return { id, result: resultOf(job, payload) };
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

/** Index in a worker's {@link WorkerFlags}: nonzero once the worker is to be terminated. */
const STOP = 0;
/** Index in a worker's {@link WorkerFlags}: nonzero while the worker is inside the native Keccak addon. */
const IN_NATIVE = 1;

/**
 * Two `Int32Array` cells shared by the event loop and one worker ({@link STOP}, {@link IN_NATIVE}): a
 * worker terminated while inside the `keccak` N-API addon aborts the whole process (`FATAL ERROR:
 * Error::Error napi_create_reference`, exit 134; probe31 A-F6), so the worker marks each native call
 * ({@link nativeGate}) and is terminated only outside one ({@link terminateSafely}).
 */
export type WorkerFlags = Int32Array;

/** A new pair of {@link WorkerFlags} on shared memory (both zero). */
function newFlags(): WorkerFlags {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/**
 * The worker's side of {@link WorkerFlags}, for the evidence library's `setNativeKeccakGate`: each
 * native call is marked {@link IN_NATIVE} while it runs, and refused (it throws, the job fails) once
 * {@link STOP} is set. Sequentially consistent stores then loads on both sides: either this side sees
 * `STOP` and does not call the addon, or {@link terminateSafely} sees `IN_NATIVE` and waits.
 */
export function nativeGate(flags: WorkerFlags): NativeKeccakGate {
  return {
    enter() {
      Atomics.store(flags, IN_NATIVE, 1);
      if (Atomics.load(flags, STOP) === 0) return;
      Atomics.store(flags, IN_NATIVE, 0);
      throw new Error("the dataset worker is being stopped");
    },
    leave() {
      Atomics.store(flags, IN_NATIVE, 0);
    },
  };
}

/**
 * Terminates worker `w` once it is outside the native addon ({@link WorkerFlags}): {@link STOP} is set
 * (the worker calls the addon no more), then the call under way, if any, is waited for (a hash: at most
 * the tens of ms of the largest body's), then `w` is terminated. Resolves once it has exited.
 */
async function terminateSafely(w: Worker, flags: WorkerFlags): Promise<void> {
  Atomics.store(flags, STOP, 1);
  while (Atomics.load(flags, IN_NATIVE) !== 0) await new Promise((r) => setTimeout(r, 1));
  await w.terminate();
}

/**
 * The worker: the compiled `dataset-worker.js` beside this module, or, when this module runs from its
 * TypeScript source (the tests), the source loaded through tsx's loader registered in the worker;
 * `flags` its {@link WorkerFlags} (its `workerData`).
 */
function startWorker(flags: WorkerFlags): Worker {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return new Worker(new URL("./dataset-worker.js", here), { workerData: flags });
  const entry = JSON.stringify(new URL("./dataset-worker.ts", here).href);
  return new Worker(`import("tsx/esm/api").then((t) => { t.register(); return import(${entry}); });`, {
    eval: true,
    workerData: flags,
  });
}

/** A job waiting for the worker: what to run, on what, its size (bytes), and whom to answer. */
interface QueuedJob {
  job: DatasetJob;
  payload: JobPayload;
  size: number;
  /** Unix ms: past it, the job is dropped when its turn comes, not run (none: no deadline). */
  by: number | undefined;
  /** Unix ms: the job still in the worker then is stopped there (none: it runs to its end). */
  stopBy: number | undefined;
  /** How many jobs went to the worker while this one was at the head of its account's queue. */
  passed: number;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/**
 * A pool of one worker thread running {@link checkDatasetBytes}, started on first use and restarted
 * after it dies. One job at a time is in the worker; the others wait here, in one queue per account,
 * and the next job is the smallest body among the heads of the account queues (ties: the account served
 * least recently, an account with nothing served yet first): one account's long queue of large bodies
 * holds another account's job behind at most the job in the worker (probe10 R14: an author's 10-row
 * upload waited 3.8 s behind another account's 8 validations), and so do large bodies of many accounts
 * (probe11 O6: 8.2 s behind one 16 MB validation from each of 12 accounts). A head passed over
 * {@link MAX_PASSED} times goes next whatever its size (the least recently served such account first),
 * so a stream of small bodies cannot hold a large one for ever. The worker does not keep the process alive.
 */
/** How many other jobs may go to the worker before a waiting head goes next whatever its size. */
export const MAX_PASSED = 32;

export class DatasetChecker {
  private worker: Worker | null = null;
  /** The {@link WorkerFlags} of each worker started and not yet exited. */
  private readonly flags = new Map<Worker, WorkerFlags>();
  /** Set by {@link close} with `refuseLater`: every later job is refused as stopping. */
  private closed = false;
  private next = 0;
  /** The job in the worker (at most one), with the worker it was sent to. */
  private readonly pending = new Map<
    number,
    { w: Worker; resolve(v: unknown): void; reject(e: Error): void }
  >();
  /** Jobs waiting for the worker, by account (in the order the accounts started waiting). */
  private readonly queues = new Map<string, QueuedJob[]>();
  /**
   * The tick of each account's last job sent to the worker (none: not served yet), kept while the
   * account has jobs waiting or in the worker.
   */
  private readonly served = new Map<string, number>();
  private tick = 0;

  /**
   * The dry run of a dataset body's bytes ({@link checkDatasetBytes}) in the worker (the bytes are
   * transferred: the caller must not use them afterwards), queued under `account` (the caller's
   * account id) for its turn; `by` (unix ms): the request's deadline for waits, past which the job is
   * dropped when its turn comes, not run; `stopBy` (unix ms): the request's own time limit, at which a
   * job still in the worker is stopped there ({@link stop}).
   * @returns the report `{ok, row_count, content_hash, errors}`
   * @throws what {@link checkDatasetBytes} throws; EdgeError `server_busy` (past `by`: not run; at
   *   `stopBy`: stopped); Error when the worker dies
   */
  check(bytes: Uint8Array, account = "", by?: number, stopBy?: number): Promise<JsonValue> {
    return this.run("check", bytes, account, by, stopBy) as Promise<JsonValue>;
  }

  /**
   * An upload's bytes prepared for the store ({@link prepareDatasetBytes}) in the worker (transferred),
   * queued under `account` for its turn; `by` and `stopBy` as {@link check}'s.
   * @throws what {@link prepareDatasetBytes} throws; EdgeError `server_busy` (past `by`: not run; at
   *   `stopBy`: stopped); Error when the worker dies
   */
  prepare(bytes: Uint8Array, account = "", by?: number, stopBy?: number): Promise<PreparedDataset> {
    return this.run("prepare", bytes, account, by, stopBy) as Promise<PreparedDataset>;
  }

  /**
   * A publication's planning (the platform's `planPublication`) in the worker (the job is copied),
   * queued under `account` for its turn like a body of the rows' size: a large publish holds no other
   * request (it took ~6 s of the event loop for 100,000 rows of 600 bytes); `by` and `stopBy` as
   * {@link check}'s (probe17 A-F3: plannings whose request had timed out still held the worker, in full).
   * @throws what `planPublication` throws (PlatformError); EdgeError `server_busy` (past `by`: not
   *   run; at `stopBy`: stopped); Error when the worker dies
   */
  plan(job: TestSetPlanJob, account = "", by?: number, stopBy?: number): Promise<TestSetPlanResult> {
    return (this.run("plan", job, account, by, stopBy) as Promise<string>).then(planResultOfText);
  }

  private run(
    job: DatasetJob,
    payload: JobPayload,
    account: string,
    by: number | undefined,
    stopBy: number | undefined,
  ): Promise<unknown> {
    const size = jobBytes(payload);
    if (this.closed) return Promise.reject(stoppingRefusal());
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(account);
      const queued = { job, payload, size, by, stopBy, passed: 0, resolve, reject };
      if (queue) queue.push(queued);
      else this.queues.set(account, [queued]);
      this.pump();
    });
  }

  /**
   * Sends the next job to the worker when it has none: among the heads of the account queues, one passed
   * over {@link MAX_PASSED} times, else the smallest body; ties: the account served least recently.
   */
  private pump(): void {
    if (this.pending.size > 0) return;
    for (;;) {
      const next = this.nextJob();
      if (next === undefined) return;
      if (next.by === undefined || Date.now() <= next.by) {
        this.send(next);
        return;
      }
      // its request's deadline passed while it waited: dropped, the worker's time goes to the next
      next.reject(
        new EdgeError(
          "server_busy",
          "the server is busy: the dataset job waited too long for the dataset worker and was not run; retry later",
          { retry_after_seconds: 5 },
          { "retry-after": "5" },
        ),
      );
    }
  }

  /** Takes the next job off the account queues (see {@link pump}), or undefined when none waits. */
  private nextJob(): QueuedJob | undefined {
    if (this.queues.size === 0) return undefined;
    for (const a of this.served.keys()) if (!this.queues.has(a)) this.served.delete(a);
    let account = "";
    let best: [number, number, number] = [Infinity, Infinity, Infinity];
    for (const [a, q] of this.queues) {
      const head = q[0]!;
      const key: [number, number, number] = [
        head.passed >= MAX_PASSED ? 0 : 1,
        head.passed >= MAX_PASSED ? 0 : head.size,
        this.served.get(a) ?? -1,
      ];
      if (
        key[0] < best[0] ||
        (key[0] === best[0] && (key[1] < best[1] || (key[1] === best[1] && key[2] < best[2])))
      )
        [account, best] = [a, key];
    }
    const queue = this.queues.get(account)!;
    const next = queue.shift()!;
    if (queue.length === 0) this.queues.delete(account);
    for (const q of this.queues.values()) if (q !== queue) q[0]!.passed++;
    this.served.set(account, ++this.tick); // kept while the account has jobs waiting
    return next;
  }

  /**
   * Sends `next` to the worker. A job still in the worker at its `stopBy` (its request's own time limit:
   * the request was answered 503 `request_timeout` then, so nobody waits for the job any more) is
   * stopped there ({@link stop}; probe30 B-F5: one 10.7 MB body held the worker 33 s, past its request's
   * limit, and every account's dataset request behind it was refused).
   */
  private send({ job, payload, stopBy, resolve, reject }: QueuedJob): void {
    const w = this.started();
    const id = ++this.next;
    const timer =
      stopBy === undefined
        ? undefined
        : setTimeout(() => this.stop(id, w), Math.max(0, stopBy - Date.now())).unref();
    this.pending.set(id, {
      w,
      resolve: (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      reject: (e) => {
        clearTimeout(timer);
        reject(e);
      },
    });
    if (!(payload instanceof Uint8Array)) {
      w.postMessage({ id, job, payload });
      return;
    }
    // a view over part of a larger buffer (a pooled Buffer) is copied, never transferred
    const own = payload.byteOffset === 0 && payload.byteLength === payload.buffer.byteLength;
    const body = own ? payload : payload.slice();
    w.postMessage({ id, job, payload: body }, [body.buffer as ArrayBuffer]);
  }

  /**
   * Stops job `id` if it is still in worker `w`: `w` is terminated (the next job gets a new worker) and the
   * job refused 503 `server_busy`, nothing stored.
   */
  private stop(id: number, w: Worker): void {
    const job = this.pending.get(id);
    if (job === undefined || job.w !== w) return;
    this.pending.delete(id);
    if (this.worker === w) this.worker = null;
    job.reject(
      new EdgeError(
        "server_busy",
        "the server is busy: the dataset job ran past its request's time limit and was stopped (nothing was stored); retry later, or send a smaller dataset",
        { retry_after_seconds: 5 },
        { "retry-after": "5" },
      ),
    );
    void this.terminate(w);
    this.pump();
  }

  /** Terminates `w` outside the native addon ({@link terminateSafely}); resolves once it has exited. */
  private async terminate(w: Worker): Promise<void> {
    const flags = this.flags.get(w);
    if (flags === undefined) return; // exited already
    await terminateSafely(w, flags);
  }

  /**
   * Stops the worker (`serve` stopping); the job in it and those waiting are refused 503 `server_busy`
   * with `details.stopping` at once, nothing stored (probe30 A-F10: the job in the worker was refused with a
   * bare Error, logged as unexpected with its stack), and the worker is terminated outside the native
   * addon ({@link terminateSafely}; probe31 A-F6: terminated inside it, the process aborted). A job sent
   * afterwards starts a new worker, or with `refuseLater` (`serve`'s stop: the requests whose bodies
   * were still arriving) is refused likewise. Resolves once the worker has exited.
   */
  async close(refuseLater = false): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (refuseLater) this.closed = true;
    const closed = stoppingRefusal();
    for (const queue of this.queues.values()) for (const job of queue) job.reject(closed);
    for (const [id, job] of this.pending) {
      this.pending.delete(id);
      job.reject(closed);
    }
    this.queues.clear();
    this.served.clear();
    // and any worker still ending a job stopped at its stopBy
    await Promise.all([...this.flags.keys()].filter((x) => x !== w).map((x) => this.terminate(x)));
    if (w) await this.terminate(w);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const flags = newFlags();
    const w = startWorker(flags);
    this.flags.set(w, flags);
    w.unref();
    w.on("message", (a: CheckAnswer) => {
      const job = this.pending.get(a.id);
      this.pending.delete(a.id);
      if (job) {
        if ("result" in a) job.resolve(a.result);
        else job.reject(errorOf(a.failure));
      }
      this.pump();
    });
    // the job in a worker that dies is refused; those waiting go to the next worker
    const fail = (e: Error) => {
      if (this.worker === w) this.worker = null;
      for (const [id, job] of this.pending)
        if (job.w === w) {
          this.pending.delete(id);
          job.reject(e);
        }
      this.pump();
    };
    w.on("error", fail);
    w.on("exit", (code) => {
      this.flags.delete(w);
      fail(new Error(`the dataset check worker exited (code ${code})`));
    });
    this.worker = w;
    return w;
  }
}

/** 503 `server_busy` with `details.stopping`: the server stopped before the dataset job's end ({@link DatasetChecker.close}). */
function stoppingRefusal(): EdgeError {
  return new EdgeError(
    "server_busy",
    "this server is stopping: the dataset job was not finished (nothing was stored); send it again once the server is back",
    { stopping: true, retry_after_seconds: 5 },
    { "retry-after": "5" },
  );
}
