/**
 * The one place where a refusal becomes an HTTP status.
 *
 * The domain (`@bench-bounty/platform`) throws {@link PlatformError}s with stable codes and never speaks
 * HTTP; the edge adds its own refusals ({@link EdgeError}: authentication, limits, malformed requests).
 * {@link STATUS_OF} maps every code to its status; {@link errorResponseOf} builds the JSON body
 * `{error: {code, message, details}}` that REST and MCP both serve. No stack trace ever leaves here:
 * an unexpected error is logged server-side and answered as a bare `500 internal_error`.
 */
import { PlatformError, redactKeys, type AwardEvidenceReason, type ErrorBody } from "@bench-bounty/platform";

/** Codes the edge itself refuses with (the domain never sees these requests). */
export type EdgeErrorCode =
  | "invalid_json"
  | "invalid_request"
  | "invalid_query"
  | "unsupported_media_type"
  | "body_too_large"
  | "unauthenticated"
  | "forbidden"
  | "rate_limited"
  | "request_timeout"
  | "request_body_timeout"
  | "server_busy"
  | "request_aborted"
  | "invalid_request_target"
  | "malformed_http"
  | "request_headers_too_large"
  | "request_header_timeout"
  | "not_found"
  | "method_not_allowed"
  | "cross_origin_write"
  | "not_implemented"
  | "internal_error"
  // the service's own refusals (verification, relayed claims)
  | "verification_unavailable"
  | "verification_pending"
  | "claim_expired"
  | "claim_pending"
  | "relay_unavailable"
  | "no_credit"
  | "token_refused"
  | "invalid_claim_signature";

/**
 * The `WWW-Authenticate` challenge every 401 carries (RFC 9110 15.5.2: a 401 MUST send one; RFC 6750:
 * the key is a Bearer token): for want of a key, for a malformed `Authorization` (probe33 A-F3: the
 * domain's `key_required` 401 had none).
 */
export const BEARER_CHALLENGE = 'Bearer realm="bench-bounty"';

/** A refusal raised by the HTTP edge (same body shape as a {@link PlatformError}). */
export class EdgeError extends Error {
  override readonly name = "EdgeError";
  constructor(
    readonly code: EdgeErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Extra response headers (`Retry-After`, `Allow`, `WWW-Authenticate`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * Every refusal code and its HTTP status: the only code-to-status table of the project.
 * Codes the platform adds later and this table does not know yet answer 422 (a refusal of the input),
 * never 500; a test asserts that every code the platform exports is listed here.
 */
export const STATUS_OF: Readonly<Record<string, number>> = {
  // edge
  invalid_json: 400,
  invalid_request: 422,
  invalid_query: 400,
  unsupported_media_type: 415,
  body_too_large: 413,
  unauthenticated: 401,
  forbidden: 403,
  rate_limited: 429,
  request_timeout: 503,
  // the client's body did not arrive within the request limit (probe37 V-N4)
  request_body_timeout: 408,
  server_busy: 503,
  request_aborted: 400,
  invalid_request_target: 400,
  // refused by Node's HTTP parser before any handler (probe37 A-N1): bad framing, oversized head, slow head
  malformed_http: 400,
  request_headers_too_large: 431,
  request_header_timeout: 408,
  not_found: 404,
  method_not_allowed: 405,
  // a write sent by a web page of another origin (probe30 A-F2)
  cross_origin_write: 403,
  not_implemented: 501,
  internal_error: 500,
  // service: verification and relayed claims
  verification_unavailable: 404,
  verification_pending: 404,
  claim_expired: 422,
  // a relayed claim sent and not mined by the request's deadline (details.tx_hash), like award_pending
  claim_pending: 409,
  no_credit: 409,
  // the token refused a relayed claim's transfer, not its recipient's fault (paused, or the bounty contract
  // blacklisted: probe31 C-F4); the chain did not fail, nothing was sent, the credit stays
  token_refused: 409,
  invalid_claim_signature: 422,
  // the service's account cannot pay a relayed claim's gas (probe33 C-F7): nothing sent, post again later
  relay_unavailable: 503,
  // domain: bad input
  invalid_dataset: 422,
  invalid_text: 422,
  invalid_csv: 422,
  invalid_option: 422,
  invalid_template: 422,
  missing_placeholder: 422,
  invalid_label: 422,
  invalid_gold: 422,
  invalid_slug: 422,
  invalid_bounty: 422,
  // a bounty whose award window is shorter than the service can award in (probe38 C-F1)
  award_window_too_short: 422,
  invalid_answers: 422,
  invalid_withdrawal_address: 422,
  invalid_utf8: 422,
  invalid_signature: 422,
  invalid_checkpoint: 422,
  checkpoint_mismatch: 409,
  // domain: unknown things
  unknown_dataset: 404,
  unknown_benchmark: 404,
  unknown_run: 404,
  unknown_account: 404,
  unknown_agent: 404,
  no_bounty: 404,
  award_evidence_unavailable: 404,
  unknown_key: 404,
  receipt_withheld: 404,
  task_scores_withheld: 404,
  // domain: state conflicts
  slug_conflict: 409,
  benchmark_exists: 409,
  run_in_progress: 409,
  max_attempts_reached: 409,
  benchmark_closed: 409,
  benchmark_full: 409,
  benchmark_awarded: 409,
  run_not_in_progress: 409,
  already_finalized: 409,
  bounty_mismatch: 409,
  bounty_exists: 409,
  // a benchmark with an attached bounty closes at its on-chain closesAt, never earlier (probe37 C-F3)
  bounty_attached: 409,
  award_not_allowed: 409,
  winner_without_withdrawal_address: 409,
  withdrawal_address_required: 409,
  account_exists: 409,
  award_pending: 409,
  award_in_progress: 409,
  // domain: quotas (the operator's spend per account)
  publish_quota_exceeded: 429,
  agent_quota_exceeded: 429,
  is_author_agent_locked: 409,
  // the bytes of stored datasets an account may keep (probe10 R5): no retry frees them
  dataset_quota_exceeded: 413,
  // the bytes of stored answers the runs of an account, or of all accounts, may keep (probe14 D1-F20)
  answer_quota_exceeded: 413,
  // a dataset a benchmark was published from is kept
  dataset_published: 409,
  // a write whose own rows took longer to insert than the request allows (probe29 A-F4): too large
  // for one request, not a busy store, so no retry helps
  write_too_long: 413,
  // domain: identity (the platform's principal checks)
  // (unauthenticated / forbidden above are shared by the edge and the domain)
  revoked_key: 403,
  // the account's last active key is kept (probe16 B-F14): issue another first
  last_active_key: 409,
  // an account holds at most MAX_ACTIVE_KEYS active keys (keys29): revoke one first
  too_many_keys: 409,
  // domain: environment
  no_store: 503,
  invalid_store: 503,
  no_chain: 503,
  chain_error: 502,
  // a digest anchored first by someone else with another kind (probe14 D3-F8): never anchorable again
  anchor_squatted: 409,
  pack_pending: 503,
  agent_failed: 502,
  // the runner's interrupt stopped a read of a run's tasks: a CLI runner's code, no route throws it
  interrupted: 503,
};

/**
 * The door's status of each reason the domain gives for an unavailable pack (SPEC 8): 404 while there
 * is none, 503 while a confirmed award's pack is being minted or the bounty's on-chain status could not be
 * read in time (`bounty_status_unknown`, with `Retry-After`). Served with code
 * `award_evidence_unavailable` and the reason in the body; part of the one table above (the reasons
 * are not refusal codes: `award_pending` here is a pack not yet there, not a refused award).
 */
export const EVIDENCE_STATUS_OF: Readonly<Record<AwardEvidenceReason, 404 | 503>> = {
  unknown_benchmark: 404,
  no_commitment: 404,
  anchor_squatted: 404,
  not_verifiable_arm: 404,
  not_awarded: 404,
  // Awarded on-chain by an award this store did not prepare: no pack, ever (probe37 C-F2)
  awarded_elsewhere: 404,
  withheld_live_contest: 404,
  reclaimed_never_reveals: 404,
  award_pending: 404,
  pack_pending: 503,
  // no award prepared here and the bounty's on-chain status not read in time: ask again (probe39 C-F1)
  bounty_status_unknown: 503,
};

/** The door's status for an unavailable pack's reason. */
export function evidenceStatusOf(reason: AwardEvidenceReason): 404 | 503 {
  return EVIDENCE_STATUS_OF[reason];
}

/** A serialisable error body, as REST and MCP serve it (one definition: the platform's). */
export type { ErrorBody };

/** What a caught error becomes on the wire. */
export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/** The most items of any list in an error's `details` served (the rest are counted, not listed). */
export const MAX_DETAIL_ITEMS = 20;

/**
 * `details` with every list longer than {@link MAX_DETAIL_ITEMS} cut to its first items, its full
 * length in `<key>_total` and `truncated: true` (a batch of 130,000 bad answers once answered a
 * 13.8 MB body listing each one).
 */
export function capDetails(details: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(details)) {
    if (!Array.isArray(v) || v.length <= MAX_DETAIL_ITEMS) continue;
    out ??= { ...details };
    out[k] = v.slice(0, MAX_DETAIL_ITEMS);
    out[`${k}_total`] = v.length;
    out.truncated = true;
  }
  return out ?? details;
}

/**
 * `details` with every whole API key in its strings cut to its prefix (`redactKeys`, probe37 A-N5: a key
 * pasted as a slug or id came back whole in `details.slug`); the same object when none holds one.
 */
function redactedDetails(details: Record<string, unknown>): Record<string, unknown> {
  const redact = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return redactKeys(v);
    if (depth > 4 || v === null || typeof v !== "object") return v;
    if (Array.isArray(v)) return v.map((x) => redact(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redact(x, depth + 1)]));
  };
  return JSON.stringify(details).includes("bbk_") ? (redact(details, 0) as Record<string, unknown>) : details;
}

/**
 * `Retry-After` for a domain refusal or answer that says when to retry (`details.retry_after_seconds`,
 * an integer >= 1: a quota, the evidence door's `pack_pending`); no header otherwise.
 */
export function retryAfterOf(details: Record<string, unknown>): Record<string, string> {
  const s = details.retry_after_seconds;
  return typeof s === "number" && Number.isSafeInteger(s) && s > 0 ? { "retry-after": String(s) } : {};
}

/** The status of a refusal code (422 for a code this table does not know). */
export function statusOf(code: string): number {
  return STATUS_OF[code] ?? 422;
}

/**
 * Turns anything thrown into the wire response. PlatformError and EdgeError keep code, message and
 * details (every 401 with the {@link BEARER_CHALLENGE}); anything else is logged through `log` and answered `500 internal_error` without its message
 * or stack (those may hold paths or secrets).
 */
export function errorResponseOf(e: unknown, log: (e: unknown) => void = logUnexpected): ErrorResponse {
  if (e instanceof EdgeError || e instanceof PlatformError) {
    const status = statusOf(e.code);
    const headers = e instanceof EdgeError ? e.headers : retryAfterOf(e.details);
    return {
      status,
      body: {
        error: {
          code: e.code,
          message: redactKeys(e.message),
          details: redactedDetails(capDetails(e.details)),
        },
      },
      headers: status === 401 ? { "www-authenticate": BEARER_CHALLENGE, ...headers } : headers,
    };
  }
  log(e);
  return {
    status: 500,
    body: {
      error: { code: "internal_error", message: "internal error (logged on the server)", details: {} },
    },
    headers: {},
  };
}

/** The default log of unexpected errors: stderr, with the stack (never sent to a client). */
export function logUnexpected(e: unknown): void {
  process.stderr.write(
    `bench-bounty server: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
}
