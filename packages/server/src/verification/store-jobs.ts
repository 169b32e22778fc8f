/**
 * The store's queue (`verification_jobs`, `@bench-bounty/platform`, SQLite and PostgreSQL) as the
 * server's {@link VerificationQueue}: the worker's side is the table itself; the read side maps the
 * stored row to the view the routes serve. Every `serve` process on one database shares it, and a
 * job's lease keeps two processes from running it at once (the table's `claim` is atomic).
 */
import type { Platform, VerificationJobState as StoredJob } from "@bench-bounty/platform";
import type { VerificationJobView, VerificationQueue } from "./worker.js";

/** The stored row as the routes' view (`nextAt` only while retrying). */
export function jobViewOf(r: StoredJob): VerificationJobView {
  return {
    slug: r.slug,
    state: r.status,
    attempts: r.attempts,
    nextAt: r.status === "retrying" ? r.next_at : null,
    lastError: r.last_error,
    result: r.result,
    lastAttemptAt: r.last_attempt_at,
  };
}

/**
 * The store's `verification_jobs` table (`platform.verificationJobs`) as a {@link VerificationQueue}; a
 * request's enqueue is the platform's `enqueueVerification` (its lock waits bounded by `how`).
 */
export function storeVerificationQueue(
  platform: Pick<Platform, "verificationJobs" | "enqueueVerification">,
): VerificationQueue {
  const table = platform.verificationJobs;
  return {
    enqueue: (slug, now, how) => platform.enqueueVerification(slug, now, how),
    enqueueFirst: (slug, now) => table.enqueueFirst(slug, now),
    claim: (now, leaseMs, worker, observes) => table.claim(now, leaseMs, worker, observes),
    complete: (slug, worker, result) => table.complete(slug, worker, result),
    retry: (slug, worker, nextAt, error) => table.retry(slug, worker, nextAt, error),
    fail: (slug, worker, error) => table.fail(slug, worker, error),
    get: async (slug) => {
      const r = await table.get(slug);
      return r === null ? null : jobViewOf(r);
    },
  };
}
