/** Data access of the `runs` table. */
import type { Hex, Receipt } from "@bench-bounty/evidence";
import type { RunRecord } from "../runs.js";
import { fromStored, toStored } from "../json.js";
import { TableModule } from "./executor.js";
import type { RunsTable as RunRow } from "./schema.js";

function toRun(r: RunRow): RunRecord {
  return {
    run_id: r.run_id,
    slug: r.slug,
    agent_id: r.agent_id,
    account_id: r.account_id,
    attempt: r.attempt,
    status: r.status,
    plan: JSON.parse(r.plan_json) as number[],
    started_at_ms: r.started_at_ms,
    finalized_at_ms: r.finalized_at_ms,
    answer_salt: r.answer_salt,
    receipt: r.receipt_json ? fromStored<Receipt>(r.receipt_json) : null,
    receipt_hash: r.receipt_hash as Hex | null,
    rank_accuracy: r.rank_accuracy,
    score_public: r.score_public,
    score_composite: r.score_composite,
    score_composite_public: r.score_composite_public,
    wall_seconds: r.wall_seconds,
    queries_used: r.queries_used,
    usdc_spent: r.usdc_spent,
  };
}

/** What finalize records on a run. */
export interface FinalizedFields {
  finalized_at_ms: number;
  answer_salt: string;
  receipt: Receipt;
  receipt_hash: string;
  rank_accuracy: string;
  score_public: string;
  score_composite: string;
  score_composite_public: string;
  wall_seconds: string;
  queries_used: number;
  usdc_spent: string;
}

/** A finalized run joined with its agent and benchmark author: the source of the boards. */
export interface BoardSourceRow {
  agent_id: string;
  is_author_agent: number;
  owner_account_id: string;
  author_account_id: string;
  run_id: string;
  score_composite: string;
  score_composite_public: string;
  score_public: string;
  queries_used: number;
  wall_seconds: string;
  finalized_at_ms: number;
  rank_accuracy: string;
  usdc_spent: string;
  receipt_hash: string;
}

/** The `runs` table. */
export class RunsTable extends TableModule {
  /** A run, or null. `lock`: lock its row until the transaction ends (PostgreSQL: submit and finalize). */
  async get(runId: string, opts: { lock?: boolean } = {}): Promise<RunRecord | null> {
    const r = await this.db
      .selectFrom("runs")
      .selectAll()
      .where("run_id", "=", runId)
      .$if(opts.lock === true && this.locks, (q) => q.forUpdate())
      .executeTakeFirst();
    return r ? toRun(r) : null;
  }

  /** Runs of a benchmark in start order, or of one agent in attempt order. */
  async ofBenchmark(slug: string, agentId?: string): Promise<RunRecord[]> {
    let q = this.db.selectFrom("runs").selectAll().where("slug", "=", slug);
    q =
      agentId === undefined
        ? q.orderBy("started_at_ms").orderBy("run_id")
        : q.where("agent_id", "=", agentId).orderBy("attempt");
    return (await q.execute()).map(toRun);
  }

  /** An account's runs, newest first. */
  async ofAccount(accountId: string): Promise<RunRecord[]> {
    const rows = await this.db
      .selectFrom("runs")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("started_at_ms", "desc")
      .orderBy("run_id")
      .execute();
    return rows.map(toRun);
  }

  /** The agent's run in progress on a benchmark, or null. */
  async inProgress(slug: string, agentId: string): Promise<string | null> {
    const r = await this.db
      .selectFrom("runs")
      .select("run_id")
      .where("slug", "=", slug)
      .where("agent_id", "=", agentId)
      .where("status", "=", "in_progress")
      .executeTakeFirst();
    return r?.run_id ?? null;
  }

  /**
   * Takes the lock of a benchmark's new agents until the transaction ends (PostgreSQL: an advisory
   * lock per benchmark; SQLite's IMMEDIATE transaction holds the write lock already). A first run's
   * start takes it before {@link agentCount} and holds it to its insert, so the agent cap
   * (`benchmark_full`) is one decision even across processes.
   */
  async lockNewAgents(slug: string): Promise<void> {
    await this.advisoryLock(`new-agents:${slug}`);
  }

  /** How many agents have started runs on a benchmark. */
  async agentCount(slug: string): Promise<number> {
    const r = await this.db
      .selectFrom("runs")
      .select((eb) => eb.fn.count<number>("agent_id").distinct().as("n"))
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** How many attempts the agent has started on a benchmark. */
  async attempts(slug: string, agentId: string): Promise<number> {
    const r = await this.db
      .selectFrom("runs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("slug", "=", slug)
      .where("agent_id", "=", agentId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Inserts a run in progress (the unique constraints refuse a second run in progress or attempt). */
  async insert(
    r: Pick<RunRecord, "run_id" | "slug" | "agent_id" | "account_id" | "attempt" | "plan" | "started_at_ms">,
  ): Promise<void> {
    await this.db
      .insertInto("runs")
      .values({
        run_id: r.run_id,
        slug: r.slug,
        agent_id: r.agent_id,
        account_id: r.account_id,
        attempt: r.attempt,
        status: "in_progress",
        plan_json: JSON.stringify(r.plan),
        started_at_ms: r.started_at_ms,
      })
      .execute();
  }

  /** Records the finalize of a run still in progress. @returns false when it was not in progress */
  async finalize(runId: string, f: FinalizedFields): Promise<boolean> {
    const r = await this.db
      .updateTable("runs")
      .set({
        status: "finalized",
        finalized_at_ms: f.finalized_at_ms,
        answer_salt: f.answer_salt,
        receipt_json: toStored(f.receipt),
        receipt_hash: f.receipt_hash,
        rank_accuracy: f.rank_accuracy,
        score_public: f.score_public,
        score_composite: f.score_composite,
        score_composite_public: f.score_composite_public,
        wall_seconds: f.wall_seconds,
        queries_used: f.queries_used,
        usdc_spent: f.usdc_spent,
      })
      .where("run_id", "=", runId)
      .where("status", "=", "in_progress")
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Finalized runs of a benchmark with their agents and the author (boards), in start order. */
  async boardSource(slug: string): Promise<BoardSourceRow[]> {
    const rows = await this.db
      .selectFrom("runs as r")
      .innerJoin("agents as a", "a.agent_id", "r.agent_id")
      .innerJoin("benchmarks as b", "b.slug", "r.slug")
      .select([
        "r.agent_id",
        "a.is_author_agent",
        "a.owner_account_id",
        "b.author_account_id",
        "r.run_id",
        "r.score_composite",
        "r.score_composite_public",
        "r.score_public",
        "r.queries_used",
        "r.wall_seconds",
        "r.finalized_at_ms",
        "r.rank_accuracy",
        "r.usdc_spent",
        "r.receipt_hash",
      ])
      .where("r.slug", "=", slug)
      .where("r.status", "=", "finalized")
      .orderBy("r.started_at_ms")
      .orderBy("r.run_id")
      .execute();
    return rows as BoardSourceRow[];
  }
}
