/**
 * The typed shape of the store's tables (Kysely's `Database` type), one interface per table, the
 * same on SQLite and PostgreSQL. Columns holding JSON end in `_json` (canonical text, read with
 * `fromStored`); instants are ISO 8601 text, or unix milliseconds in `*_ms` / `*_at` integer columns;
 * booleans are integers 0/1 on both engines; bytes are `blob` (SQLite) / `bytea` (PostgreSQL).
 */
import type { Generated } from "kysely";
import type { BenchmarkRecord } from "../context.js";
import type { RunRecord } from "../runs.js";

/** `meta`: the store's marker (`schema_version`). */
export interface MetaTable {
  key: string;
  value: string;
}

/** `accounts`. */
export interface AccountsTable {
  account_id: string;
  name: string;
  roles_json: string;
  created_at: string;
  /**
   * The client network it was created from (migration 0015, probe30 A-F7: an IPv4 /24 or IPv6 /48 as
   * the server groups it), or null (the CLI, the operator, a store from before).
   */
  network?: string | null;
}

/** `api_keys`: only the SHA-256 hash of a key is stored, keyed by its random prefix. */
export interface ApiKeysTable {
  key_prefix: string;
  account_id: string;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

/** `datasets`. */
export interface DatasetsTable {
  dataset_id: string;
  owner_account_id: string;
  name: string;
  description: string | null;
  label_policy: string | null;
  options_json: string;
  content_hash: string;
  row_count: number;
  created_at: string;
  /** UTF-8 bytes of the rows' `body_json` (migration 0002; what the dataset quota counts). */
  stored_bytes: number;
  /**
   * When its deletion began, or null (migration 0004): a dataset with one is gone to every reader while
   * its rows are removed in chunks (`DatasetsTable.markDeleted`).
   */
  deleted_at?: string | null;
  /**
   * While an upload's rows are being inserted (migration 0014, probe29 A-F3): the upload's deadline (unix
   * ms); null once visible. A dataset with one is invisible to every read, counted by the quotas.
   */
  pending_until?: number | null;
}

/** `dataset_rows`. */
export interface DatasetRowsTable {
  dataset_id: string;
  row_index: number;
  row_hash: string;
  body_json: string;
}

/** `benchmarks`: a {@link BenchmarkRecord} with its JSON fields as `_json` text, and the board's version. */
export interface BenchmarksTable
  extends Omit<BenchmarkRecord, "config" | "commit_root" | "commitment_anchor" | "bounty"> {
  config_json: string;
  commit_root: string;
  commitment_anchor_json: string | null;
  bounty_json: string | null;
  /**
   * The attached bounty's `bountyKey` (`<chain id>:<contract>:<bounty id>`), null without one (migration
   * 0011): unique, so a bounty is attached to at most one benchmark (probe27 A-F2).
   */
  bounty_key?: string | null;
  /** Change counter of the row and of its board: every update of the row and every finalize increase it. */
  board_version: Generated<number>;
}

/** `tasks`: the test set (gold and salts: never served before the award except to the author). */
export interface TasksTable {
  slug: string;
  ordinal: number;
  prompt: string;
  prompt_hash: string;
  gold_json: string;
  salt: string;
  visibility: "public" | "private";
  grader_type: string;
  row_index: number;
}

/** `agents`. */
export interface AgentsTable {
  agent_id: string;
  owner_account_id: string;
  withdrawal_address: string | null;
  is_author_agent: Generated<number>;
  created_at: string;
}

/** `runs`: a {@link RunRecord} with its plan and receipt as `_json` text. Decimal figures are text (exact); `*_ms` are unix milliseconds. */
export interface RunsTable extends Omit<RunRecord, "plan" | "receipt" | "receipt_hash"> {
  plan_json: string;
  receipt_json: string | null;
  receipt_hash: string | null;
  /**
   * What the stored-answer quotas count of this run (bytes): the UTF-8 bytes of its stored answers
   * (migration 0005), of its `plan_json`, and of its `receipt_json` or, in progress, the receipt's
   * reserve (`receiptReserveBytes`; migration 0013, probe28 A-F4).
   */
  answer_bytes: Generated<number>;
}

/** `answers`: one per (run, ordinal). */
export interface AnswersTable {
  run_id: string;
  ordinal: number;
  answer_text: string;
  updated_at: string;
}

/**
 * `answer_bytes_totals`: the stored-answer totals (migration 0008), `scope` `account:<id>` or `all`
 * (every account but the operator's); each the sum of `runs.answer_bytes` over its scope.
 */
export interface AnswerBytesTotalsTable {
  scope: string;
  bytes: number;
}

/** `anchors`: one per digest. */
export interface AnchorsTable {
  digest: string;
  kind: "commitment" | "receipt" | "pack";
  slug: string;
  status: "pending" | "anchored";
  registry_address: string | null;
  tx_hash: string | null;
  anchor_block: number | null;
  created_at: string;
  /**
   * JSON {@link AnchorSquat} of a pending digest someone else anchored first with another kind (migration
   * 0006); a commitment's only since migration 0016 (a receipt so anchored is anchored: probe35 C-F2).
   */
  squat_json: string | null;
  /**
   * 1 on a pending receipt past the batched-anchoring budget (`batchAnchorQuota`, migration 0012): no
   * flush sends it, `anchor <slug>` and the award do; 0 otherwise.
   */
  held: Generated<number>;
}

/** `awards`: the award state machine, one per benchmark. */
export interface AwardsTable {
  slug: string;
  status: "prepared" | "sent" | "confirmed" | "packed";
  rank_derivation_json: string;
  ranking_digest: string;
  winners_json: string;
  award_tx: string | null;
  award_block: number | null;
  pack_hash: string | null;
  created_at: string;
}

/** `packs`: the minted evidence pack of an awarded benchmark, its exact bytes. */
export interface PacksTable {
  slug: string;
  bytes: Uint8Array;
  pack_hash: string;
  created_at: string;
}

/** `verification_jobs`: the verifier worker's queue and its results (issue 17 item 2). */
export interface VerificationJobsTable {
  slug: string;
  status: "queued" | "running" | "retrying" | "done" | "failed";
  attempts: number;
  /** Unix ms: when a `retrying` job is due. */
  next_at: number;
  /** Unix ms: when the holder's lease ends (a `running` job). */
  lease_until: number | null;
  worker: string | null;
  last_error: string | null;
  report_bytes: Uint8Array | null;
  policy: string | null;
  policy_version: string | null;
  verifier_version: string | null;
  ran_at: string | null;
  updated_at_ms: number;
  /** 1 once a stored report was made by a worker reading the indexer (migration 0010), else 0. */
  observed_indexer: Generated<number>;
}

/** Every table of the store. */
export interface Database {
  meta: MetaTable;
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  datasets: DatasetsTable;
  dataset_rows: DatasetRowsTable;
  benchmarks: BenchmarksTable;
  tasks: TasksTable;
  agents: AgentsTable;
  runs: RunsTable;
  answers: AnswersTable;
  answer_bytes_totals: AnswerBytesTotalsTable;
  anchors: AnchorsTable;
  awards: AwardsTable;
  packs: PacksTable;
  verification_jobs: VerificationJobsTable;
}
