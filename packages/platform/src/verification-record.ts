/**
 * The stored verification of a benchmark's award pack as the API serves it
 * (`GET /api/v1/benchmarks/:slug/verification`): one definition, built by the server's
 * `verificationView` and read, type-only, by `@bench-bounty/client` and the web app.
 *
 * @packageDocumentation
 */
import type { VerificationJobState } from "./store/verification-jobs.js";

/**
 * The job's state and, once the worker stored a report, its outcome and SPEC 9 facts. Before a report
 * the result fields are null (`policy` names the policy that will run); during a re-verification the
 * previous report stays, with the job's new state. Instants are ISO 8601 text.
 */
export type VerificationRecord = {
  slug: string;
  state: VerificationJobState["status"];
  attempts: number;
  /** When a `retrying` job is due, else null. */
  next_attempt_at: string | null;
  last_error: string | null;
  /** The policy verified under (`full`). */
  policy: string;
  policy_version: string | null;
  verifier_version: string | null;
  /** When the verifier finished. */
  ran_at: string | null;
  policy_met: boolean | null;
  policy_unmet: string[] | null;
  /** Every fact with its own state (`verified`, `unverified`, `failed`, `not-required`, `not-observed`) and reasons. */
  facts: Record<string, { state: string; reasons: string[] }> | null;
  /** Where the report's exact bytes are (a path on the API origin); null before a report. */
  report_url: string | null;
};
