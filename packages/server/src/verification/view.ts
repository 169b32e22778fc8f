/**
 * The stored verification of a benchmark's award pack as the API shows it: the job's state, and,
 * once the worker has stored a report, its facts (each with its own state and reasons), the policy
 * name and version, the verifier version and when it ran. Read from the report's own bytes, so what
 * is shown is what the report download serves.
 */
import type { VerificationRecord } from "@bench-bounty/platform";
import type { VerificationJobView, VerificationResult } from "./worker.js";

/** One SPEC 9 state. */
export type FactState = "verified" | "unverified" | "failed" | "not-required" | "not-observed";

/** The policy the worker verifies under (issue 17 item 2: chain and indexer). */
export const WORKER_POLICY = "full";

/** A stored verification of a benchmark's pack, as the entries route and the view read it. */
export interface StoredVerification {
  policy: string;
  /** Version of the policy's definition (the verifier package's version, where policies live). */
  policy_version: string;
  verifier_version: string;
  /** ISO 8601 instant the verifier finished. */
  ran_at: string;
  report: {
    policy_met: boolean;
    policy_unmet: string[];
    facts: Record<string, { state: FactState; reasons: string[] }>;
  };
}

/** The report inside a result, parsed from its stored bytes (the worker wrote them, so they parse). */
export function storedOf(result: VerificationResult): StoredVerification {
  const report = JSON.parse(new TextDecoder().decode(result.reportBytes)) as StoredVerification["report"];
  return {
    policy: result.policy,
    policy_version: result.policyVersion,
    verifier_version: result.verifierVersion,
    ran_at: result.ranAt,
    report: { policy_met: report.policy_met, policy_unmet: report.policy_unmet, facts: report.facts },
  };
}

/**
 * `GET /api/v1/benchmarks/:slug/verification`: `{slug, state, attempts, next_attempt_at, last_error,
 * policy, policy_version, verifier_version, ran_at, policy_met, policy_unmet, facts, report_url}`.
 * Before a report is stored the result fields are null (`policy` names the policy that will run);
 * during a re-verification the previous report stays shown, with the job's new state.
 */
export function verificationView(job: VerificationJobView, reportPath: string): VerificationRecord {
  const stored = job.result ? storedOf(job.result) : null;
  return {
    slug: job.slug,
    state: job.state,
    attempts: job.attempts,
    next_attempt_at: job.nextAt === null ? null : new Date(job.nextAt).toISOString(),
    last_error: job.lastError,
    policy: stored?.policy ?? WORKER_POLICY,
    policy_version: stored?.policy_version ?? null,
    verifier_version: stored?.verifier_version ?? null,
    ran_at: stored?.ran_at ?? null,
    policy_met: stored?.report.policy_met ?? null,
    policy_unmet: stored?.report.policy_unmet ?? null,
    facts: stored?.report.facts ?? null,
    report_url: stored ? reportPath : null,
  };
}
