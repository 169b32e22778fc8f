/**
 * The verifier worker's queue in the store (issue 17 item 2): the `verification_jobs` table behind
 * the {@link VerificationJobs} port the server's worker runs on. One row per benchmark slug.
 *
 * Atomicity: every method is one SQL statement, so one transaction on either engine. `claim` picks
 * and takes a due job in one `UPDATE ... WHERE slug = (SELECT ... LIMIT 1) RETURNING`: on PostgreSQL
 * the inner select locks the row it picks `FOR UPDATE SKIP LOCKED` (two processes claiming at once
 * take two different jobs or one gets none; the outer `WHERE` re-checks that the job is still due),
 * on SQLite the statement holds the database's write lock from the pick to the update. `complete`,
 * `retry` and `fail` change the row only while `worker` holds it (`status = 'running' AND worker = ?`),
 * so a worker whose lease expired and was taken over changes nothing.
 */
import type { Expression, ExpressionBuilder, SqlBool, Updateable } from "kysely";
import { TableModule } from "./executor.js";
import type { Database, VerificationJobsTable as VerificationJobsRow } from "./schema.js";

/** A job as claimed. */
export interface VerificationJob {
  slug: string;
  /** Attempts already made before this one. */
  attempts: number;
}

/** What a finished verification stores (the route `GET .../verification` serves it). */
export interface VerificationResult {
  /** The report as the verifier wrote it (`JSON.stringify(report, null, 2) + "\n"`): served byte for byte. */
  reportBytes: Uint8Array;
  policy: string;
  /** Version of the policy's definition: the verifier package's version (policies live there). */
  policyVersion: string;
  verifierVersion: string;
  /** ISO 8601 instant the verifier finished. */
  ranAt: string;
  /** The worker that made it reads the indexer (`--indexer-url`): recorded on the job (probe26 A-F6). */
  observedIndexer?: boolean;
}

/**
 * What a worker can observe of the `full` policy's sources (probe26 A-F6): the chain (its RPC) and the
 * indexer. Every pack is an on-chain award's, so a worker without the chain takes no job; one without
 * the indexer takes no job whose stored report was made by a worker reading it: a weaker report never
 * replaces a stronger one for every process on the store.
 */
export interface WorkerObservers {
  chain: boolean;
  indexer: boolean;
}

/** The queue in the store. Every method is one transaction; `worker` must hold the job's lease. */
export interface VerificationJobs {
  /** Queues `slug` (idempotent: a queued or running job is left as is; a done one is queued again on request). */
  enqueue(slug: string, now: number): Promise<void>;
  /**
   * Queues `slug` only when it has no job at all (any state): one `INSERT ... ON CONFLICT DO NOTHING`,
   * so of several processes racing the first enqueue after an award exactly one queues it and a
   * finished job is never queued again by this call. True when this call created the job.
   */
  enqueueFirst(slug: string, now: number): Promise<boolean>;
  /**
   * Atomically claims one due job: queued, retrying with `next_at <= now`, or running with an
   * expired lease; sets `lease_until = now + leaseMs` and `worker`. Null when none is due. With
   * `observes`, only a job that worker can do ({@link WorkerObservers}): none without the chain, and
   * without the indexer none whose stored report was made reading it.
   */
  claim(
    now: number,
    leaseMs: number,
    worker: string,
    observes?: WorkerObservers,
  ): Promise<VerificationJob | null>;
  /**
   * Stores the result; the job is done (and, when `result.observedIndexer`, marked as verified reading the
   * indexer, for good). A no-op returning false when `worker` lost the lease.
   */
  complete(slug: string, worker: string, result: VerificationResult): Promise<boolean>;
  /** Schedules the next attempt at `nextAt` (unix ms) with the error text. False when the lease was lost. */
  retry(slug: string, worker: string, nextAt: number, error: string): Promise<boolean>;
  /** Gives up (bad input: retrying cannot help), keeping the error text. False when the lease was lost. */
  fail(slug: string, worker: string, error: string): Promise<boolean>;
}

/** A job's state as stored (what a status route reads): its row's queue columns (`next_at`, `lease_until` unix ms) and the last result. */
export interface VerificationJobState
  extends Pick<
    VerificationJobsRow,
    "slug" | "status" | "attempts" | "next_at" | "lease_until" | "worker" | "last_error"
  > {
  /** The last successful result (kept when the job is queued again), or null. */
  result: VerificationResult | null;
  /**
   * Unix ms the job's last attempt began (its claim), or null while it is queued (no attempt since it
   * was queued). A finished job (done, failed) keeps it: the claim is the last write of its clock.
   */
  last_attempt_at: number | null;
}

type Eb = ExpressionBuilder<Database, "verification_jobs">;

/** Due at `now`: queued, retrying and due, or running with an expired lease. */
const due =
  (now: number) =>
  (eb: Eb): Expression<SqlBool> =>
    eb.or([
      eb("status", "=", "queued"),
      eb.and([eb("status", "=", "retrying"), eb("next_at", "<=", now)]),
      eb.and([eb("status", "=", "running"), eb("lease_until", "<=", now)]),
    ]);

/** The columns of a freshly queued job (attempts reset; a kept result is left alone). */
const queuedAt = (now: number) => ({
  status: "queued" as const,
  attempts: 0,
  next_at: now,
  lease_until: null,
  worker: null,
  last_error: null,
  updated_at_ms: now,
});

/** The `verification_jobs` table; implements the worker's {@link VerificationJobs} port. */
export class VerificationJobsTable extends TableModule implements VerificationJobs {
  async enqueue(slug: string, now: number): Promise<void> {
    const fresh = queuedAt(now);
    await this.db
      .insertInto("verification_jobs")
      .values({ slug, ...fresh })
      .onConflict((oc) =>
        oc
          .column("slug")
          .doUpdateSet(fresh)
          .where("verification_jobs.status", "not in", ["queued", "running"]),
      )
      .execute();
  }

  async enqueueFirst(slug: string, now: number): Promise<boolean> {
    const r = await this.db
      .insertInto("verification_jobs")
      .values({ slug, ...queuedAt(now) })
      .onConflict((oc) => oc.column("slug").doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async claim(
    now: number,
    leaseMs: number,
    worker: string,
    observes?: WorkerObservers,
  ): Promise<VerificationJob | null> {
    if (observes && !observes.chain) return null;
    const mayTake = (eb: Eb): Expression<SqlBool> =>
      observes && !observes.indexer ? eb.and([due(now)(eb), eb("observed_indexer", "=", 0)]) : due(now)(eb);
    const r = await this.db
      .updateTable("verification_jobs")
      .set({ status: "running", lease_until: now + leaseMs, worker, updated_at_ms: now })
      .where("slug", "=", (eb) =>
        eb
          .selectFrom("verification_jobs")
          .select("slug")
          .where(mayTake)
          .orderBy("next_at")
          .orderBy("slug")
          .limit(1)
          .$if(this.locks, (q) => q.forUpdate().skipLocked()),
      )
      .where(mayTake)
      .returning(["slug", "attempts"])
      .executeTakeFirst();
    return r ?? null;
  }

  /** Updates the job only while `worker` holds it. */
  private async settle(
    slug: string,
    worker: string,
    set: Omit<Updateable<Database["verification_jobs"]>, "slug">,
  ): Promise<boolean> {
    const r = await this.db
      .updateTable("verification_jobs")
      .set((eb) => ({ ...set, attempts: eb("attempts", "+", 1), worker: null, lease_until: null }))
      .where("slug", "=", slug)
      .where("status", "=", "running")
      .where("worker", "=", worker)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async complete(slug: string, worker: string, result: VerificationResult): Promise<boolean> {
    return this.settle(slug, worker, {
      status: "done",
      last_error: null,
      report_bytes: Buffer.from(result.reportBytes),
      policy: result.policy,
      policy_version: result.policyVersion,
      verifier_version: result.verifierVersion,
      ran_at: result.ranAt,
      ...(result.observedIndexer ? { observed_indexer: 1 } : {}),
    });
  }

  async retry(slug: string, worker: string, nextAt: number, error: string): Promise<boolean> {
    return this.settle(slug, worker, { status: "retrying", next_at: nextAt, last_error: error });
  }

  async fail(slug: string, worker: string, error: string): Promise<boolean> {
    return this.settle(slug, worker, { status: "failed", last_error: error });
  }

  /** The job of a benchmark, or null when none was queued. */
  async get(slug: string): Promise<VerificationJobState | null> {
    const r = await this.db
      .selectFrom("verification_jobs")
      .selectAll()
      .where("slug", "=", slug)
      .executeTakeFirst();
    if (!r) return null;
    const result: VerificationResult | null =
      r.report_bytes !== null
        ? {
            reportBytes: new Uint8Array(r.report_bytes),
            policy: r.policy!,
            policyVersion: r.policy_version!,
            verifierVersion: r.verifier_version!,
            ranAt: r.ran_at!,
          }
        : null;
    return {
      slug: r.slug,
      status: r.status,
      attempts: r.attempts,
      next_at: r.next_at,
      lease_until: r.lease_until,
      worker: r.worker,
      last_error: r.last_error,
      result,
      // `updated_at_ms` is written by the enqueue and the claim only (settling writes no clock)
      last_attempt_at: r.status === "queued" ? null : r.updated_at_ms,
    };
  }
}
