/**
 * Migration 0001: the store's tables (schema version 3). The same statements on both engines, except
 * for the byte and 64-bit integer column types (`blob`/`bytea`, `integer`/`bigint`). Written with the
 * store's marker `meta.schema_version = '3'` and the built-in operator account in the migration's
 * transaction: another process sees no tables or all of them.
 */
import { sql, type Kysely } from "kysely";
import { OPERATOR_ACCOUNT_ID } from "../../identity/principal.js";
import type { Engine } from "../engine.js";

function statements(engine: Engine): string[] {
  const bytes = engine === "postgres" ? "BYTEA" : "BLOB";
  const int8 = engine === "postgres" ? "BIGINT" : "INTEGER";
  return [
    `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE accounts (
      account_id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      roles_json TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE api_keys (
      key_prefix TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(account_id),
      key_hash TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      revoked_at TEXT
    )`,
    `CREATE TABLE datasets (
      dataset_id TEXT PRIMARY KEY,
      owner_account_id TEXT NOT NULL REFERENCES accounts(account_id),
      name TEXT NOT NULL,
      description TEXT,
      label_policy TEXT,
      options_json TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      row_count INTEGER NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE dataset_rows (
      dataset_id TEXT NOT NULL REFERENCES datasets(dataset_id),
      row_index INTEGER NOT NULL,
      row_hash TEXT NOT NULL,
      body_json TEXT NOT NULL,
      PRIMARY KEY (dataset_id, row_index)
    )`,
    `CREATE TABLE benchmarks (
      slug TEXT PRIMARY KEY,
      dataset_id TEXT NOT NULL UNIQUE REFERENCES datasets(dataset_id),
      author_account_id TEXT NOT NULL REFERENCES accounts(account_id),
      title TEXT NOT NULL,
      config_json TEXT NOT NULL,
      commit_root TEXT NOT NULL,
      leaf_count INTEGER NOT NULL,
      public_count INTEGER NOT NULL,
      private_count INTEGER NOT NULL,
      plan_seed TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('published', 'closed', 'awarded')),
      created_at TEXT NOT NULL,
      closed_at TEXT,
      commitment_anchor_json TEXT,
      bounty_json TEXT,
      board_version INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE TABLE tasks (
      slug TEXT NOT NULL REFERENCES benchmarks(slug),
      ordinal INTEGER NOT NULL,
      prompt TEXT NOT NULL,
      prompt_hash TEXT NOT NULL,
      gold_json TEXT NOT NULL,
      salt TEXT NOT NULL,
      visibility TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
      grader_type TEXT NOT NULL,
      row_index INTEGER NOT NULL,
      PRIMARY KEY (slug, ordinal)
    )`,
    `CREATE TABLE agents (
      agent_id TEXT PRIMARY KEY,
      owner_account_id TEXT NOT NULL REFERENCES accounts(account_id),
      withdrawal_address TEXT,
      is_author_agent INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE runs (
      run_id TEXT PRIMARY KEY,
      slug TEXT NOT NULL REFERENCES benchmarks(slug),
      agent_id TEXT NOT NULL REFERENCES agents(agent_id),
      account_id TEXT NOT NULL REFERENCES accounts(account_id),
      attempt INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('in_progress', 'finalized')),
      plan_json TEXT NOT NULL,
      started_at_ms ${int8} NOT NULL,
      finalized_at_ms ${int8},
      answer_salt TEXT,
      receipt_json TEXT,
      receipt_hash TEXT,
      rank_accuracy TEXT,
      score_public TEXT,
      score_composite TEXT,
      score_composite_public TEXT,
      wall_seconds TEXT,
      queries_used ${int8},
      usdc_spent TEXT,
      UNIQUE (slug, agent_id, attempt)
    )`,
    `CREATE UNIQUE INDEX runs_one_in_progress ON runs (slug, agent_id) WHERE status = 'in_progress'`,
    `CREATE INDEX runs_by_account ON runs (account_id)`,
    `CREATE TABLE answers (
      run_id TEXT NOT NULL REFERENCES runs(run_id),
      ordinal INTEGER NOT NULL,
      answer_text TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (run_id, ordinal)
    )`,
    `CREATE TABLE anchors (
      digest TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('commitment', 'receipt', 'pack')),
      slug TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'anchored')),
      registry_address TEXT,
      tx_hash TEXT,
      anchor_block ${int8},
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX anchors_by_slug ON anchors (slug, kind, status)`,
    `CREATE TABLE awards (
      slug TEXT PRIMARY KEY REFERENCES benchmarks(slug),
      status TEXT NOT NULL CHECK (status IN ('prepared', 'sent', 'confirmed', 'packed')),
      rank_derivation_json TEXT NOT NULL,
      ranking_digest TEXT NOT NULL,
      winners_json TEXT NOT NULL,
      award_tx TEXT,
      award_block ${int8},
      pack_hash TEXT,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE packs (
      slug TEXT PRIMARY KEY REFERENCES benchmarks(slug),
      bytes ${bytes} NOT NULL,
      pack_hash TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE verification_jobs (
      slug TEXT PRIMARY KEY,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'retrying', 'done', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_at ${int8} NOT NULL,
      lease_until ${int8},
      worker TEXT,
      last_error TEXT,
      report_bytes ${bytes},
      policy TEXT,
      policy_version TEXT,
      verifier_version TEXT,
      ran_at TEXT,
      updated_at_ms ${int8} NOT NULL
    )`,
  ];
}

/** Applies migration 0001 on `engine`. */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  for (const s of statements(engine)) await sql.raw(s).execute(db);
  await sql`INSERT INTO meta (key, value) VALUES ('schema_version', '3')`.execute(db);
  await sql`INSERT INTO accounts (account_id, name, roles_json, created_at)
    VALUES (${OPERATOR_ACCOUNT_ID}, 'operator', '["author","operator"]', ${new Date().toISOString()})`.execute(
    db,
  );
}
