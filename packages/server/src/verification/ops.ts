/**
 * The verification operations of the {@link Domain} over a platform and a {@link VerificationQueue}:
 * read the stored verification, serve the report's bytes, queue a verification (when an award has
 * minted a pack, and on request by the benchmark's author or the operator). The worker that runs the
 * jobs is `runtime.ts`; which queue is used (in memory, or the store's `verification_jobs` table) is
 * the caller's choice.
 */
import {
  forbid,
  isAuthorOf,
  isOperator,
  requirePrincipal,
  type Platform,
  type Principal,
  type WriteHow,
} from "@bench-bounty/platform";
import type { JsonValue } from "@bench-bounty/evidence";
import { EdgeError } from "../errors.js";
import { storedOf, verificationView, type StoredVerification } from "./view.js";
import type { VerificationJobView, VerificationQueue } from "./worker.js";

/** The path the report's exact bytes are served at. */
export function reportPath(slug: string): string {
  return `/api/v1/benchmarks/${encodeURIComponent(slug)}/verification/report`;
}

/**
 * How long (ms) after a verification finished its benchmark's author may ask for the next: 10 minutes
 * (probe30 A-F6: each request after the last job finished bought one more whole `full` verification,
 * chain and indexer reads and the regrade, of the operator's worker). The operator is not bounded.
 */
export const REVERIFY_COOLDOWN_MS = 10 * 60_000;

/**
 * Refuses an author's re-verification asked within {@link REVERIFY_COOLDOWN_MS} of the job's last
 * finish: the later of the stored result's `ranAt` and the last attempt's start (a job that failed for
 * good, with or without an earlier result, took the worker too: probe30 A-F6 rest). A job queued,
 * running or retrying is not refused (the request adds nothing to it).
 * @param now unix ms
 * @throws EdgeError `rate_limited` (429, `Retry-After`), `details: {limit: "reverification_cooldown",
 *   slug, ran_at (null without a result), attempted_at, cooldown_seconds, retry_after_seconds}`
 */
function assertReverifyCooldown(slug: string, job: VerificationJobView, now: number): void {
  if (job.state !== "done" && job.state !== "failed") return;
  const ranAt = job.result === null ? null : Date.parse(job.result.ranAt);
  const since = Math.max(ranAt ?? -Infinity, job.lastAttemptAt ?? -Infinity);
  const wait = since + REVERIFY_COOLDOWN_MS - now;
  if (!(wait > 0)) return;
  const seconds = Math.ceil(wait / 1000);
  const last =
    ranAt !== null && ranAt >= since
      ? `was verified at ${job.result!.ranAt}`
      : `had its last verification attempt at ${new Date(since).toISOString()} (${job.state})`;
  throw new EdgeError(
    "rate_limited",
    `${slug} ${last}; its author may ask for the next verification ` +
      `${REVERIFY_COOLDOWN_MS / 1000} s after the last (reverification_cooldown): retry in ${seconds} s`,
    {
      limit: "reverification_cooldown",
      slug,
      ran_at: job.result?.ranAt ?? null,
      attempted_at: job.lastAttemptAt === null ? null : new Date(job.lastAttemptAt).toISOString(),
      cooldown_seconds: REVERIFY_COOLDOWN_MS / 1000,
      retry_after_seconds: seconds,
    },
    { "retry-after": String(seconds) },
  );
}

/** The operations (a part of `Domain`). */
export interface VerificationOps {
  verification(p: Principal | null, slug: string): Promise<JsonValue>;
  verificationReport(slug: string): Promise<Uint8Array>;
  requestVerification(p: Principal | null, slug: string, opts?: WriteHow): Promise<JsonValue>;
  storedVerification(slug: string): Promise<StoredVerification | null>;
  /**
   * Queues `slug` when its pack exists and it has no job yet (after an award). True when queued.
   * @throws PlatformError the door's refusal to mint a confirmed award's pack here (`award_not_allowed`:
   *   this process signs with another key than the bounty's awarder, probe36 C-F1)
   */
  enqueueIfPacked(slug: string): Promise<boolean>;
}

/**
 * @param now unix ms (the queue's clock)
 */
export function verificationOps(
  platform: Platform,
  jobs: VerificationQueue,
  now: () => number = Date.now,
): VerificationOps {
  /**
   * The job of a benchmark whose pack exists (queued now when it has none: a restart of an in-memory
   * queue, or an award made before this service ran).
   * @throws PlatformError `unknown_benchmark`; EdgeError `verification_unavailable` (404) before a pack
   *   (with `Retry-After` when the door says when to ask again: a pack pending)
   */
  const jobOf = async (slug: string): Promise<VerificationJobView> => {
    await platform.getBenchmark(slug);
    const job = await jobs.get(slug);
    if (job) return job;
    const door = await platform.awardEvidenceHead(slug);
    if (door.kind !== "pack") {
      // the door's "ask again in" as the header too, as the pack route's 503 sends it (e38's note)
      const retry = door.details?.retry_after_seconds;
      throw new EdgeError(
        "verification_unavailable",
        `${slug} has no award evidence pack to verify${door.reason === "awarded_elsewhere" ? "" : " yet"}: ${door.message}`,
        { ...door.details, slug, reason: door.reason },
        typeof retry === "number" ? { "retry-after": String(retry) } : {},
      );
    }
    await jobs.enqueueFirst(slug, now());
    return (await jobs.get(slug))!;
  };

  return {
    verification: async (_p, slug) => verificationView(await jobOf(slug), reportPath(slug)),
    async verificationReport(slug) {
      const job = await jobOf(slug);
      if (job.result === null)
        throw new EdgeError(
          "verification_pending",
          `the verification of ${slug} has no stored report yet (state ${job.state})`,
          { slug, state: job.state, attempts: job.attempts, last_error: job.lastError },
        );
      return job.result.reportBytes;
    },
    async requestVerification(p, slug, opts) {
      const who = requirePrincipal(p);
      const b = await platform.getBenchmark(slug);
      if (!isAuthorOf(who, b) && !isOperator(who))
        forbid(
          "benchmark_author_only",
          `only the author of ${slug} or the operator may ask to verify it again`,
          {
            slug,
          },
        );
      const job = await jobOf(slug);
      if (!isOperator(who)) assertReverifyCooldown(slug, job, now());
      await jobs.enqueue(slug, now(), opts);
      return verificationView((await jobs.get(slug))!, reportPath(slug));
    },
    async storedVerification(slug) {
      const job = await jobs.get(slug);
      return job?.result ? storedOf(job.result) : null;
    },
    async enqueueIfPacked(slug) {
      if ((await jobs.get(slug)) !== null) return false;
      const door = await platform.awardEvidenceHead(slug);
      // a serve signing with another key than the bounty's awarder mints no pack (probe36 C-F1): the
      // start-up sweep tells it (`enqueuePackedAwards`: one line) and goes on
      if (door.kind === "unavailable" && door.refusal) throw door.refusal;
      if (door.kind !== "pack") return false;
      return jobs.enqueueFirst(slug, now());
    },
  };
}
