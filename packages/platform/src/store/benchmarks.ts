/** Data access of the `benchmarks` table. */
import type { Hex } from "@bench-bounty/evidence";
import type { AnchorEvidence } from "../chain.js";
import type { AttachedBounty, BenchmarkConfig, BenchmarkRecord } from "../context.js";
import { fromStored, toStored } from "../json.js";
import { arg, TableModule } from "./executor.js";
import { bountyKey } from "./bounty-key.js";
import type { BenchmarksTable as BenchmarkRow } from "./schema.js";

type StoredRow = Omit<BenchmarkRow, "board_version"> & { board_version: number };

function toRecord(r: StoredRow): BenchmarkRecord {
  return {
    slug: r.slug,
    dataset_id: r.dataset_id,
    author_account_id: r.author_account_id,
    title: r.title,
    config: fromStored<BenchmarkConfig>(r.config_json),
    commit_root: r.commit_root as Hex,
    leaf_count: r.leaf_count,
    public_count: r.public_count,
    private_count: r.private_count,
    plan_seed: r.plan_seed,
    status: r.status,
    created_at: r.created_at,
    closed_at: r.closed_at,
    commitment_anchor: r.commitment_anchor_json ? fromStored<AnchorEvidence>(r.commitment_anchor_json) : null,
    bounty: r.bounty_json ? fromStored<AttachedBounty>(r.bounty_json) : null,
  };
}

/** The `benchmarks` table. */
export class BenchmarksTable extends TableModule {
  /**
   * A benchmark, or null. `lock`: lock its row until the transaction ends (PostgreSQL): finalize and
   * the award's preparation take it, so a run is either finalized before the award ranks or refused.
   */
  async get(slug: string, opts: { lock?: boolean } = {}): Promise<BenchmarkRecord | null> {
    const r = await this.rowByKey("benchmarks", "slug", slug, opts);
    return r ? toRecord(r) : null;
  }

  /** Records read by {@link getVersioned}, by slug, with the version they were read at. */
  private readonly versioned = new Map<string, { record: BenchmarkRecord; board_version: number }>();

  /**
   * A benchmark with its row's change counter `board_version` (the leaderboard's cache check), or
   * null. Every change of the row (close, award, bounty, commitment anchor) and of its board (finalize)
   * increases the counter in the same statement or transaction, so the check is one indexed read of
   * the counter: the record is read and parsed again only when it moved (in any process). The
   * returned record is shared by the callers of one version: never change it.
   */
  async getVersioned(slug: string): Promise<{ record: BenchmarkRecord; board_version: number } | null> {
    const v = (
      await this.compiled("benchmarks.boardVersion", [slug], () =>
        this.db.selectFrom("benchmarks").select("board_version").where("slug", "=", arg<string>(0)),
      )
    ).rows[0];
    if (!v) return null;
    const hit = this.versioned.get(slug);
    if (hit && hit.board_version === v.board_version) return hit;
    const r = await this.db.selectFrom("benchmarks").selectAll().where("slug", "=", slug).executeTakeFirst();
    if (!r) return null;
    const fresh = { record: Object.freeze(toRecord(r)), board_version: r.board_version };
    if (this.versioned.size >= 1024) this.versioned.clear();
    this.versioned.set(slug, fresh);
    return fresh;
  }

  /**
   * All benchmarks, oldest first (then by slug: a stable order); with `page`, `limit` of them from
   * position `offset` (SQL `LIMIT`/`OFFSET`: the work is bounded by the page).
   */
  async list(page?: { offset: number; limit: number }): Promise<BenchmarkRecord[]> {
    let q = this.db.selectFrom("benchmarks").selectAll().orderBy("created_at").orderBy("slug");
    if (page) q = q.limit(page.limit).offset(page.offset);
    return (await q.execute()).map(toRecord);
  }

  /** The slug of a dataset's benchmark, or null. */
  async slugOfDataset(datasetId: string): Promise<string | null> {
    const r = await this.db
      .selectFrom("benchmarks")
      .select("slug")
      .where("dataset_id", "=", datasetId)
      .executeTakeFirst();
    return r?.slug ?? null;
  }

  /** True when the slug is taken. */
  async exists(slug: string): Promise<boolean> {
    return (
      (await this.db.selectFrom("benchmarks").select("slug").where("slug", "=", slug).executeTakeFirst()) !==
      undefined
    );
  }

  /**
   * Takes the lock of an account's new benchmarks until the transaction ends (PostgreSQL: an advisory
   * lock per account; SQLite's IMMEDIATE transaction holds the write lock already): the count of its
   * publishes in the period and the insert of a new one are one decision (`publishes_per_account`,
   * probe16 A-F4: 25 of 25 concurrent publishes passed a quota of 20 on PostgreSQL).
   */
  async lockAccountPublishes(accountId: string): Promise<void> {
    await this.advisoryLock(`account-publishes:${accountId}`);
  }

  /**
   * When the latest `limit` benchmarks published at or after `since` (ISO) were created, newest first
   * (a quota check reads no more than its count): those of the account `by.author`, or those of every
   * account but `by.notAuthor` (the operator's, `isOperatorAccount`: the one account that holds the
   * operator role).
   */
  async createdSince(
    since: string,
    limit: number,
    by: { author: string } | { notAuthor: string },
  ): Promise<string[]> {
    const rows = await this.db
      .selectFrom("benchmarks")
      .select("created_at")
      .where("created_at", ">=", since)
      .where("author_account_id", "author" in by ? "=" : "!=", "author" in by ? by.author : by.notAuthor)
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => r.created_at);
  }

  /** Inserts a published benchmark. */
  async insert(
    b: Omit<BenchmarkRecord, "status" | "closed_at" | "commitment_anchor" | "bounty">,
  ): Promise<void> {
    await this.db
      .insertInto("benchmarks")
      .values({
        slug: b.slug,
        dataset_id: b.dataset_id,
        author_account_id: b.author_account_id,
        title: b.title,
        config_json: toStored(b.config),
        commit_root: b.commit_root,
        leaf_count: b.leaf_count,
        public_count: b.public_count,
        private_count: b.private_count,
        plan_seed: b.plan_seed,
        status: "published",
        created_at: b.created_at,
      })
      .execute();
  }

  /** Records the commitment's anchor; bumps the row's version (see {@link getVersioned}). */
  async setCommitmentAnchor(slug: string, ev: AnchorEvidence): Promise<void> {
    await this.db
      .updateTable("benchmarks")
      .set((eb) => ({ commitment_anchor_json: toStored(ev), board_version: eb("board_version", "+", 1) }))
      .where("slug", "=", slug)
      .execute();
  }

  /**
   * Records a batched commitment anchor on every benchmark with this root and no anchor yet (two
   * benchmarks share a root only in a store from before the one-root rule of publish, probe27 A-F2:
   * the same rows published with the same seed); bumps their versions.
   */
  async setCommitmentAnchorOfRoot(root: string, ev: AnchorEvidence): Promise<void> {
    await this.db
      .updateTable("benchmarks")
      .set((eb) => ({ commitment_anchor_json: toStored(ev), board_version: eb("board_version", "+", 1) }))
      .where("commit_root", "=", root)
      .where("commitment_anchor_json", "is", null)
      .execute();
  }

  /**
   * Records the attached bounty (or its refreshed on-chain facts) and its {@link bountyKey}; bumps the
   * row's version (its close time moves the board's `open`).
   * @throws the engine's unique violation (`isUniqueViolation`) when the bounty is attached to another
   *   benchmark (index `benchmarks_one_per_bounty`, migration 0011: decided by the store, whatever process
   *   attaches; probe27 A-F2)
   */
  async setBounty(slug: string, bounty: AttachedBounty): Promise<void> {
    await this.db
      .updateTable("benchmarks")
      .set((eb) => ({
        bounty_json: toStored(bounty),
        bounty_key: bountyKey(bounty),
        board_version: eb("board_version", "+", 1),
      }))
      .where("slug", "=", slug)
      .execute();
  }

  /** The slug of the benchmark the bounty is attached to ({@link bountyKey}), or null. */
  async slugOfBounty(bounty: Parameters<typeof bountyKey>[0]): Promise<string | null> {
    const r = await this.db
      .selectFrom("benchmarks")
      .select("slug")
      .where("bounty_key", "=", bountyKey(bounty))
      .executeTakeFirst();
    return r?.slug ?? null;
  }

  /**
   * The slug of a benchmark whose test set commits to `root` (SPEC 3), or null. Published benchmarks
   * have distinct roots (`publishBenchmark` refuses a duplicate under {@link lockRoot}), so a bounty's
   * root names one benchmark (probe27 A-F2); a store from before may hold two: the oldest is named.
   */
  async slugOfRoot(root: string): Promise<string | null> {
    const r = await this.db
      .selectFrom("benchmarks")
      .select("slug")
      .where("commit_root", "=", root)
      .orderBy("created_at")
      .orderBy("slug")
      .executeTakeFirst();
    return r?.slug ?? null;
  }

  /**
   * Takes the lock of a test-set root until the transaction ends (PostgreSQL: an advisory lock per root;
   * SQLite's IMMEDIATE transaction holds the write lock already): the check that no benchmark commits to
   * it and the insert of one that does are one decision, whatever process publishes (probe27 A-F2).
   */
  async lockRoot(root: string): Promise<void> {
    await this.advisoryLock(`benchmark-root:${root.toLowerCase()}`);
  }

  /** Closes a published benchmark at `at` (no-op otherwise); bumps its board version. */
  async close(slug: string, at: string): Promise<void> {
    await this.db
      .updateTable("benchmarks")
      .set((eb) => ({ status: "closed", closed_at: at, board_version: eb("board_version", "+", 1) }))
      .where("slug", "=", slug)
      .where("status", "=", "published")
      .execute();
  }

  /** Marks a benchmark awarded; bumps its board version. */
  async markAwarded(slug: string): Promise<void> {
    await this.db
      .updateTable("benchmarks")
      .set((eb) => ({ status: "awarded", board_version: eb("board_version", "+", 1) }))
      .where("slug", "=", slug)
      .execute();
  }

  /** Increases the board's change counter (finalize, close, award). */
  async bumpBoard(slug: string): Promise<void> {
    await this.compiled("benchmarks.bumpBoard", [slug], () =>
      this.db
        .updateTable("benchmarks")
        .set((eb) => ({ board_version: eb("board_version", "+", 1) }))
        .where("slug", "=", arg<string>(0)),
    );
  }
}
