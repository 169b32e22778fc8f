/**
 * An in-memory {@link VerificationQueue}: the queue of one `serve` process until the store's
 * `verification_jobs` table (SQLite and PostgreSQL, `@bench-bounty/platform`) replaces it. It keeps
 * the port's contract exactly (a lease per claim, updates by the lease holder only), so the worker,
 * the routes and their tests behave the same on either; what it cannot give is durability and
 * sharing between processes (a restart loses its jobs; `serve` queues every packed award again at
 * startup, see `enqueuePackedAwards`).
 */
import type {
  VerificationJob,
  VerificationJobState,
  VerificationJobView,
  VerificationQueue,
  VerificationResult,
  WorkerObservers,
} from "./worker.js";

interface Row {
  state: VerificationJobState;
  attempts: number;
  nextAt: number;
  leaseUntil: number;
  worker: string | null;
  error: string | null;
  result: VerificationResult | null;
  /** A stored result was made reading the indexer (the table's `observed_indexer`). */
  observedIndexer: boolean;
  /** Unix ms the last attempt was claimed; null while queued. */
  attemptedAt: number | null;
}

/** The queue in a Map (one process). */
export class MemoryVerificationJobs implements VerificationQueue {
  /** The rows by slug (tests read them). */
  readonly rows = new Map<string, Row>();

  async enqueue(slug: string, now: number): Promise<void> {
    const r = this.rows.get(slug);
    if (r && (r.state === "queued" || r.state === "running")) return;
    this.rows.set(slug, {
      state: "queued",
      attempts: 0,
      nextAt: now,
      leaseUntil: 0,
      worker: null,
      error: null,
      result: r?.result ?? null,
      observedIndexer: r?.observedIndexer ?? false,
      attemptedAt: null,
    });
  }

  async enqueueFirst(slug: string, now: number): Promise<boolean> {
    if (this.rows.has(slug)) return false;
    await this.enqueue(slug, now);
    return true;
  }

  async claim(
    now: number,
    leaseMs: number,
    worker: string,
    observes?: WorkerObservers,
  ): Promise<VerificationJob | null> {
    if (observes && !observes.chain) return null;
    for (const [slug, r] of this.rows) {
      if (observes && !observes.indexer && r.observedIndexer) continue;
      const due =
        r.state === "queued" ||
        (r.state === "retrying" && r.nextAt <= now) ||
        (r.state === "running" && r.leaseUntil <= now);
      if (!due) continue;
      Object.assign(r, { state: "running", leaseUntil: now + leaseMs, worker, attemptedAt: now });
      return { slug, attempts: r.attempts };
    }
    return null;
  }

  private held(slug: string, worker: string): Row | null {
    const r = this.rows.get(slug);
    return r && r.state === "running" && r.worker === worker ? r : null;
  }

  async complete(slug: string, worker: string, result: VerificationResult): Promise<boolean> {
    const r = this.held(slug, worker);
    if (!r) return false;
    Object.assign(r, {
      state: "done",
      attempts: r.attempts + 1,
      result,
      error: null,
      worker: null,
      observedIndexer: r.observedIndexer || result.observedIndexer === true,
    });
    return true;
  }

  async retry(slug: string, worker: string, nextAt: number, error: string): Promise<boolean> {
    const r = this.held(slug, worker);
    if (!r) return false;
    Object.assign(r, { state: "retrying", attempts: r.attempts + 1, nextAt, error, worker: null });
    return true;
  }

  async fail(slug: string, worker: string, error: string): Promise<boolean> {
    const r = this.held(slug, worker);
    if (!r) return false;
    Object.assign(r, { state: "failed", attempts: r.attempts + 1, error, worker: null });
    return true;
  }

  async get(slug: string): Promise<VerificationJobView | null> {
    const r = this.rows.get(slug);
    if (!r) return null;
    return {
      slug,
      state: r.state,
      attempts: r.attempts,
      nextAt: r.state === "retrying" ? r.nextAt : null,
      lastError: r.error,
      result: r.result,
      lastAttemptAt: r.attemptedAt,
    };
  }
}
