/** Data access of the `runs` table. */
import { chunks } from "./datasets.js";
import type { Hex, Receipt } from "@bench-bounty/evidence";
import type { RunRecord } from "../runs.js";
import { fromStored } from "../json.js";
import { arg, TableModule } from "./executor.js";
import type { Selectable } from "kysely";
import type { RunsTable as RunsSchema } from "./schema.js";

type RunRow = Selectable<RunsSchema>;

/** A run without its receipt: what a list of runs reads (probe16 A-F7: a receipt is ~1.7 KB per task). */
export type RunSummary = Omit<RunRecord, "receipt">;

/** Every column of `runs` but `receipt_json` (a list of runs never reads the receipts). */
const SUMMARY_COLUMNS = [
  "run_id",
  "slug",
  "agent_id",
  "account_id",
  "attempt",
  "status",
  "plan_json",
  "started_at_ms",
  "finalized_at_ms",
  "answer_salt",
  "receipt_hash",
  "rank_accuracy",
  "score_public",
  "score_composite",
  "score_composite_public",
  "wall_seconds",
  "queries_used",
  "usdc_spent",
] as const satisfies readonly (keyof RunRow)[];

function toRun(r: RunRow): RunRecord {
  return { ...toSummary(r), receipt: r.receipt_json ? fromStored<Receipt>(r.receipt_json) : null };
}

function toSummary(r: Omit<RunRow, "receipt_json" | "answer_bytes">): RunSummary {
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
  /** The receipt's canonical JSON text (evidence `receiptTextAndHash`: the text `receipt_hash` hashes). */
  receipt_json: string;
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
    const r = await this.rowByKey("runs", "run_id", runId, opts);
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

  /**
   * One page of a benchmark's finalized runs in start order (then run id): SQL `LIMIT`/`OFFSET`, so
   * the read is bounded by the page (the per-task scores, probe16 A-F8).
   */
  async finalizedOfBenchmark(slug: string, page: { offset: number; limit: number }): Promise<RunRecord[]> {
    const rows = await this.db
      .selectFrom("runs")
      .selectAll()
      .where("slug", "=", slug)
      .where("status", "=", "finalized")
      .orderBy("started_at_ms")
      .orderBy("run_id")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(toRun);
  }

  /** The finalized runs of a benchmark among `runIds` (one page of GAOS entries), in no set order. */
  async finalizedByIds(slug: string, runIds: readonly string[]): Promise<RunRecord[]> {
    const out: RunRecord[] = [];
    for (const part of chunks(runIds)) {
      const rows = await this.db
        .selectFrom("runs")
        .selectAll()
        .where("slug", "=", slug)
        .where("status", "=", "finalized")
        .where("run_id", "in", part)
        .execute();
      out.push(...rows.map(toRun));
    }
    return out;
  }

  /**
   * The bytes of answers the runs of `account` keep stored, summed from `runs.answer_bytes` (the
   * ground truth of the counter `answer_bytes_totals` `account:<id>`, which the quota reads).
   */
  async answerBytesOf(account: string): Promise<number> {
    const r = await this.db
      .selectFrom("runs")
      .select((eb) => eb.fn.sum<number | string | null>("answer_bytes").as("bytes"))
      .where("account_id", "=", account)
      .executeTakeFirst();
    return Number(r?.bytes ?? 0); // PostgreSQL's SUM of a BIGINT is a NUMERIC (a string)
  }

  /** Adds `delta` (bytes, may be negative) to the run's stored answer bytes (call inside the submit's transaction). */
  async addAnswerBytes(runId: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await this.db
      .updateTable("runs")
      .set((eb) => ({ answer_bytes: eb("answer_bytes", "+", delta) }))
      .where("run_id", "=", runId)
      .execute();
  }

  /**
   * An account's runs, newest first (then by run id: a stable order), `limit` of them from position
   * `offset` (SQL `LIMIT`/`OFFSET` on the index `runs_by_account_started`: the work is bounded by the page).
   * Without receipts ({@link RunSummary}): the run view reads one run's receipt (probe16 A-F7).
   */
  async ofAccount(accountId: string, page: { offset: number; limit: number }): Promise<RunSummary[]> {
    const rows = await this.db
      .selectFrom("runs")
      .select(SUMMARY_COLUMNS)
      .where("account_id", "=", accountId)
      .orderBy("started_at_ms", "desc")
      .orderBy("run_id")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(toSummary);
  }

  /** The agent's run in progress on a benchmark, or null. */
  async inProgress(slug: string, agentId: string): Promise<string | null> {
    const { rows } = await this.compiled("runs.inProgress", [slug, agentId], () =>
      this.db
        .selectFrom("runs")
        .select("run_id")
        .where("slug", "=", arg<string>(0))
        .where("agent_id", "=", arg<string>(1))
        .where("status", "=", "in_progress"),
    );
    return rows[0]?.run_id ?? null;
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

  /** Whether an agent has started any run, on any benchmark (its `is_author_agent` is then fixed, probe12 P1). */
  async anyOfAgent(agentId: string): Promise<boolean> {
    const r = await this.db
      .selectFrom("runs")
      .select("run_id")
      .where("agent_id", "=", agentId)
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  /** The benchmarks an agent has started runs on: their slugs, each once, in slug order. */
  async slugsOfAgent(agentId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom("runs")
      .select("slug")
      .distinct()
      .where("agent_id", "=", agentId)
      .orderBy("slug")
      .execute();
    return rows.map((r) => r.slug);
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

  /** How many distinct agents of an account have started runs on a benchmark. */
  async agentCountOfAccount(slug: string, accountId: string): Promise<number> {
    const r = await this.db
      .selectFrom("runs")
      .select((eb) => eb.fn.count<number>("agent_id").distinct().as("n"))
      .where("slug", "=", slug)
      .where("account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * How many runs an account finalized at or after `sinceMs` (the immediate-anchor budget,
   * `ImmediateAnchorQuota`).
   */
  async finalizedSince(accountId: string, sinceMs: number): Promise<number> {
    const r = await this.db
      .selectFrom("runs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_id", "=", accountId)
      .where("finalized_at_ms", ">=", sinceMs)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * How many runs all accounts but `except` (the operator's) finalized at or after `sinceMs` (the
   * all-accounts immediate-anchor budget, `ImmediateAnchorQuota.allAccountsCount`).
   */
  async finalizedSinceAll(except: string, sinceMs: number): Promise<number> {
    const r = await this.db
      .selectFrom("runs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_id", "!=", except)
      .where("finalized_at_ms", ">=", sinceMs)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * How many runs the accounts created from client network `network` (`accounts.network`) finalized at
   * or after `sinceMs`: its share of the all-accounts anchor budgets (probe30 A-F7).
   */
  async finalizedSinceNetwork(network: string, sinceMs: number): Promise<number> {
    const r = await this.db
      .selectFrom("runs as r")
      .innerJoin("accounts as a", "a.account_id", "r.account_id")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("a.network", "=", network)
      .where("r.finalized_at_ms", ">=", sinceMs)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** How many attempts the agent has started on a benchmark. */
  async attempts(slug: string, agentId: string): Promise<number> {
    const { rows } = await this.compiled("runs.attempts", [slug, agentId], () =>
      this.db
        .selectFrom("runs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("slug", "=", arg<string>(0))
        .where("agent_id", "=", arg<string>(1)),
    );
    return Number(rows[0]!.n);
  }

  /** Inserts a run in progress (the unique constraints refuse a second run in progress or attempt). */
  async insert(
    r: Pick<RunRecord, "run_id" | "slug" | "agent_id" | "account_id" | "attempt" | "plan" | "started_at_ms">,
  ): Promise<void> {
    const values = [
      r.run_id,
      r.slug,
      r.agent_id,
      r.account_id,
      r.attempt,
      JSON.stringify(r.plan),
      r.started_at_ms,
    ];
    await this.compiled("runs.insert", values, () =>
      this.db.insertInto("runs").values({
        run_id: arg(0),
        slug: arg(1),
        agent_id: arg(2),
        account_id: arg(3),
        attempt: arg(4),
        status: "in_progress",
        plan_json: arg(5),
        started_at_ms: arg(6),
      }),
    );
  }

  /** Records the finalize of a run still in progress. @returns false when it was not in progress */
  async finalize(runId: string, f: FinalizedFields): Promise<boolean> {
    const values = [
      f.finalized_at_ms,
      f.answer_salt,
      f.receipt_json,
      f.receipt_hash,
      f.rank_accuracy,
      f.score_public,
      f.score_composite,
      f.score_composite_public,
      f.wall_seconds,
      f.queries_used,
      f.usdc_spent,
      runId,
    ];
    const r = await this.compiled("runs.finalize", values, () =>
      this.db
        .updateTable("runs")
        .set({
          status: "finalized",
          finalized_at_ms: arg(0),
          answer_salt: arg(1),
          receipt_json: arg(2),
          receipt_hash: arg(3),
          rank_accuracy: arg(4),
          score_public: arg(5),
          score_composite: arg(6),
          score_composite_public: arg(7),
          wall_seconds: arg(8),
          queries_used: arg(9),
          usdc_spent: arg(10),
        })
        .where("run_id", "=", arg<string>(11))
        .where("status", "=", "in_progress"),
    );
    return Number(r.numAffectedRows) === 1;
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
