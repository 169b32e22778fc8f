/**
 * The verifier worker (issue 17 item 2): when a pack is minted (and on request) the service verifies
 * it under the `full` policy (chain and indexer), stores the report's exact bytes, and retries with
 * backoff while the chain or the indexer cannot be read.
 *
 * This module is the worker's logic over two ports, so it does not depend on which store or which
 * verifier build runs it:
 * - {@link VerificationJobs}: the queue, which must live in the store (SQLite and PostgreSQL) and
 *   hand a job to one worker at a time through a lease (several `serve` processes never run one job
 *   twice while its lease holds; a crashed worker's job is taken again once the lease expires);
 * - {@link WorkerDeps.verify}: `verifyPack` of `@bench-bounty/verifier` with the RPC and indexer URLs.
 *
 * Outcomes: a report (whatever its facts say: a failed fact is a result, not an error) completes the
 * job; a `VerifierNetworkError` (the pack, RPC or indexer could not be read) is retried at
 * {@link backoffMs}; a `VerifierInputError` (the pack is not readable evidence) fails the job for good,
 * with its message stored; any other error is a bug and is retried too, so nothing is lost.
 */

import type {
  VerificationJob,
  VerificationJobs,
  VerificationResult,
  WorkerObservers,
  WriteHow,
} from "@bench-bounty/platform";

/** The port's types live with the store (`store/verification-jobs.ts` of the platform, which implements it). */
export type {
  VerificationJob,
  VerificationJobs,
  VerificationResult,
  WorkerObservers,
} from "@bench-bounty/platform";

/** States of a job: queued, running (leased), retrying (waiting for `next_at`), done, failed (for good). */
export type VerificationJobState = "queued" | "running" | "retrying" | "done" | "failed";

/** A job as read back (the `GET .../verification` route serves it). */
export interface VerificationJobView {
  slug: string;
  state: VerificationJobState;
  /** Attempts made so far. */
  attempts: number;
  /** Unix ms of the next attempt while `retrying`, else null. */
  nextAt: number | null;
  /** The last attempt's error text (retrying, failed), else null. */
  lastError: string | null;
  /** The latest stored result; kept while a re-verification is queued or running. */
  result: VerificationResult | null;
  /** Unix ms the last attempt began, or null while queued (none since it was queued). */
  lastAttemptAt: number | null;
}

/**
 * The queue's read side: what the routes and the startup sweep read. Not part of
 * {@link VerificationJobs} (the worker's write side), so a store implements both.
 */
export interface VerificationJobReader {
  /** The job of `slug`, or null when none was ever queued. */
  get(slug: string): Promise<VerificationJobView | null>;
}

/**
 * The whole queue: the worker's side and the read side; a request's `enqueue` takes its bound
 * (`WriteHow`: the store's lock waits end by `how.answerBy`, probe19 A-F3).
 */
export type VerificationQueue = Omit<VerificationJobs, "enqueue"> &
  VerificationJobReader & { enqueue(slug: string, now: number, how?: WriteHow): Promise<void> };

/** What the worker needs. */
export interface WorkerDeps {
  jobs: VerificationJobs;
  /** The pack's bytes as the door serves them. */
  readPack(slug: string): Promise<Uint8Array>;
  /** Verifies under the `full` policy; returns the report object (`bench-bounty.verification.v1`: its policy, the facts that kept it from being met, the verifier). */
  verify(
    pack: Uint8Array,
    job: VerificationJob,
  ): Promise<{ policy: string; policy_unmet: readonly string[]; verifier: { version: string } }>;
  /** Unix ms. */
  now(): number;
  /** This process's worker id (host:pid:random). */
  worker: string;
  /**
   * What this worker observes (its chain RPC, its indexer: probe26 A-F6): it claims only the jobs it can
   * do ({@link WorkerObservers}: none without the chain; without the indexer, none whose stored report
   * read it), and its result records whether it read the indexer. Omitted: any job (tests).
   */
  observes?: WorkerObservers;
  /** Lease per attempt (ms); default 5 minutes, longer than one full verification. */
  leaseMs?: number;
}

/** First retry delay and cap (ms). */
export const BACKOFF_BASE_MS = 5_000;
export const BACKOFF_MAX_MS = 15 * 60_000;

/** Delay before attempt `attempts + 1` after `attempts` failed ones: 5 s, 10 s, 20 s, ... capped at 15 min. */
export function backoffMs(attempts: number): number {
  const n = Math.max(1, Math.floor(attempts));
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(n - 1, 30));
}

/** What one step did. */
export type StepOutcome =
  | { kind: "idle" }
  | { kind: "done"; slug: string; policy: string; unmet: string[] }
  | { kind: "retry"; slug: string; nextAt: number; error: string }
  | { kind: "failed"; slug: string; error: string }
  | { kind: "lease-lost"; slug: string };

function messageOf(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Claims and runs at most one job. */
export async function runOnce(deps: WorkerDeps): Promise<StepOutcome> {
  const job = await deps.jobs.claim(deps.now(), deps.leaseMs ?? 5 * 60_000, deps.worker, deps.observes);
  if (job === null) return { kind: "idle" };
  const { slug } = job;
  try {
    const pack = await deps.readPack(slug);
    const report = await deps.verify(pack, job);
    const result: VerificationResult = {
      reportBytes: new TextEncoder().encode(JSON.stringify(report, null, 2) + "\n"),
      policy: report.policy,
      policyVersion: report.verifier.version,
      verifierVersion: report.verifier.version,
      ranAt: new Date(deps.now()).toISOString(),
      ...(deps.observes?.indexer ? { observedIndexer: true } : {}),
    };
    return (await deps.jobs.complete(slug, deps.worker, result))
      ? { kind: "done", slug, policy: report.policy, unmet: [...report.policy_unmet] }
      : { kind: "lease-lost", slug };
  } catch (e) {
    const error = messageOf(e);
    if (e instanceof Error && e.name === "VerifierInputError") {
      return (await deps.jobs.fail(slug, deps.worker, error))
        ? { kind: "failed", slug, error }
        : { kind: "lease-lost", slug };
    }
    const nextAt = deps.now() + backoffMs(job.attempts + 1);
    return (await deps.jobs.retry(slug, deps.worker, nextAt, error))
      ? { kind: "retry", slug, nextAt, error }
      : { kind: "lease-lost", slug };
  }
}

/**
 * Runs {@link runOnce} until stopped: straight on while jobs are due, every `pollMs` when idle.
 * @returns `stop()`, which resolves once the step in progress has finished
 */
export function startWorker(
  deps: WorkerDeps,
  opts: { pollMs?: number; onStep?: (o: StepOutcome) => void } = {},
) {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let current: Promise<void> = Promise.resolve();
  const loop = (): void => {
    if (stopped) return;
    current = runOnce(deps).then(
      (o) => {
        opts.onStep?.(o);
        if (!stopped) timer = setTimeout(loop, o.kind === "idle" ? (opts.pollMs ?? 1000) : 0);
      },
      (e: unknown) => {
        // the queue itself failed (store unreachable): say so and try again later
        opts.onStep?.({
          kind: "retry",
          slug: "",
          nextAt: deps.now() + (opts.pollMs ?? 1000),
          error: messageOf(e),
        });
        if (!stopped) timer = setTimeout(loop, opts.pollMs ?? 1000);
      },
    );
  };
  loop();
  return {
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
