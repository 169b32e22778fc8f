/**
 * Errors of the platform: every refusal is a {@link PlatformError} with a stable machine-readable
 * `code` and `details` naming the offending field, row or ordinal. The domain never speaks HTTP: the
 * server maps each code to a status in one table (`STATUS_OF` in packages/server/src/errors.ts). User mistakes never surface as stack traces:
 * the CLI prints `message` and `details` and exits non-zero.
 */

/** Machine-readable refusal codes (stable strings, used by the HTTP door and the CLI). */
export type PlatformErrorCode =
  | "invalid_dataset"
  | "invalid_text"
  | "invalid_csv"
  | "invalid_option"
  | "invalid_store"
  | "no_store"
  | "invalid_template"
  | "missing_placeholder"
  | "invalid_label"
  | "invalid_gold"
  | "invalid_slug"
  | "slug_conflict"
  | "benchmark_exists"
  | "unknown_dataset"
  | "unknown_benchmark"
  | "unknown_run"
  | "run_in_progress"
  | "max_attempts_reached"
  | "benchmark_closed"
  | "benchmark_full"
  | "benchmark_awarded"
  | "run_not_in_progress"
  | "already_finalized"
  | "invalid_answers"
  | "no_chain"
  | "no_bounty"
  | "bounty_mismatch"
  | "bounty_exists"
  | "bounty_attached"
  | "invalid_bounty"
  | "award_window_too_short"
  | "award_not_allowed"
  | "winner_without_withdrawal_address"
  | "withdrawal_address_required"
  | "chain_error"
  | "anchor_squatted"
  | "agent_failed"
  // the runner's interrupt (Ctrl-C, SIGTERM) stopped a read of a run's tasks (probe38 B-F3): CLI only
  | "interrupted"
  | "checkpoint_mismatch"
  | "invalid_checkpoint"
  | "unauthenticated"
  | "forbidden"
  | "account_exists"
  | "unknown_account"
  | "unknown_key"
  | "last_active_key"
  | "too_many_keys"
  | "unknown_agent"
  | "invalid_withdrawal_address"
  | "receipt_withheld"
  | "task_scores_withheld"
  | "invalid_utf8"
  | "award_pending"
  | "pack_pending"
  | "award_in_progress"
  | "publish_quota_exceeded"
  | "agent_quota_exceeded"
  | "is_author_agent_locked"
  | "dataset_quota_exceeded"
  | "answer_quota_exceeded"
  | "dataset_published"
  | "server_busy"
  | "write_too_long";

/** One item of a row-numbered error list: the dataset row (0-based) and the field it concerns. */
export interface RowIssue {
  /**
   * 0-based index of the row in the dataset as uploaded; -1 for a field of the dataset itself (`name`,
   * `description`, `rows`, an option), which no message names as a row ({@link throwRowIssues}).
   */
  row_index: number;
  /** Dotted field path inside the row (`payload.price`, `label`, `decision_ts`). */
  field: string;
  /** Stable code of the problem (`missing`, `not_iso_timestamp`, `not_knowable`, ...). */
  code: string;
  /** Human-readable explanation with a fix hint. */
  message: string;
}

/**
 * The serialised refusal, as REST, MCP and `--json` CLI output serve it (and the server's error
 * handler writes for every error): `{error: {code, message, details}}`.
 */
export interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

/** A refusal of the platform with a stable `code` and machine-readable `details`. */
export class PlatformError extends Error {
  override readonly name = "PlatformError";
  constructor(
    readonly code: PlatformErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The JSON body used by the HTTP door and `--json` CLI output: `{error: {code, message, details}}`. */
  toJSON(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/**
 * Sorts row issues by `(row_index, field)` and throws one {@link PlatformError} whose message names the
 * LOWEST offending row index and its field (so fixing rows top-down converges); all issues are in
 * `details.errors`. An issue of the dataset itself (`row_index` -1) comes first and is named by its
 * field alone (`dataset: field name: ...`, no `details.row_index`; probe28 B-F3: the message said
 * `row -1`). Does nothing when `issues` is empty.
 * @throws PlatformError `code`, `details: {row_index?, field, errors, ...more}`
 */
export function throwRowIssues(
  code: PlatformErrorCode,
  issues: RowIssue[],
  what: string,
  more: Record<string, unknown> = {},
): void {
  if (issues.length === 0) return;
  const sorted = [...issues].sort(
    (a, b) => a.row_index - b.row_index || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0),
  );
  const first = sorted[0]!;
  const row = first.row_index >= 0 ? { row_index: first.row_index } : {};
  throw new PlatformError(
    code,
    `${what}: ${first.row_index >= 0 ? `row ${first.row_index}, ` : ""}field ${first.field}: ${first.message}` +
      (sorted.length > 1 ? ` (${sorted.length - 1} more issue(s) in details.errors)` : ""),
    { ...row, field: first.field, errors: sorted, ...more },
  );
}
