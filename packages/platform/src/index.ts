/**
 * `@bench-bounty/platform`: the off-chain side of a benchmark (datasets, publishing, runs, runner,
 * leaderboard, award, evidence pack store and door). Every protocol computation comes from
 * `@bench-bounty/evidence`; chain access is viem with the ABIs of `@bench-bounty/contracts`.
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./time.js";
export * from "./turns.js";
export * from "./dataset.js";
export * from "./text-limits.js";
export * from "./csv.js";
export * from "./template.js";
export * from "./gold.js";
export * from "./context.js";
export * from "./store.js";
export { describePostgres, type Engine, type StoreTarget } from "./store/engine.js";
export {
  bareOrigin,
  publicBaseUrlFault,
  publicOrigin,
  publicUrl,
  publicUrlRemoved,
  redactRpc,
  redactSecretUrl,
  redactUrl,
} from "./redact.js";
export {
  AnchorBatcher,
  BATCHED_ANCHOR_KINDS,
  DEFAULT_ANCHOR_BATCH,
  type AnchorBatching,
} from "./anchor-batch.js";
export type { Database } from "./store/schema.js";
export type {
  VerificationJob,
  VerificationJobs,
  VerificationJobState,
  VerificationResult,
  WorkerObservers,
} from "./store/verification-jobs.js";
export { VerificationJobsTable } from "./store/verification-jobs.js";
export type { VerificationRecord } from "./verification-record.js";
export * from "./chain.js";
export * from "./terms.js";
export * from "./publish.js";
export type { DeletedDataset, OwnedDataset, OwnedDatasets } from "./dataset-library.js";
export * from "./runs.js";
export * from "./pack-budget.js";
export * from "./agents.js";
export * from "./detail.js";
export * from "./formats.js";
export * from "./utf8.js";
export * from "./backend.js";
export * from "./agent-log.js";
export * from "./agent-process.js";
export * from "./terminal.js";
export * from "./identity/principal.js";
export * from "./identity/accounts.js";
export * from "./identity/access.js";
export { assertKeyActive } from "./identity/key-check.js";
export * from "./network-share.js";
export type * from "./identity/account-view.js";
export { hashKey, keyPrefixOf, mintKey, redactKeys, type MintedKey } from "./identity/keys.js";
export * from "./leaderboard.js";
export * from "./paging.js";
export * from "./grading.js";
export * from "./task-scores.js";
export * from "./award.js";
export type * from "./claim.js";
export * from "./runner.js";
export * from "./platform.js";
export { jsonTypeName, toJsonValue } from "./json.js";
