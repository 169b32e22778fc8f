/**
 * `@bench-bounty/verifier`: recompute a bench-bounty award from its evidence
 * pack, the chain and the indexer, trusting nothing else (SPEC 9), and verify
 * hosted compute receipts.
 *
 * - {@link verifyPack} -> {@link VerificationReport} (`bench-bounty.verification.v1`);
 * - {@link verifyComputeReceipt} -> {@link ComputeReceiptReport};
 * - the CLI commands: `@bench-bounty/verifier/cli` (`registerVerifierCommands`).
 *
 * Every hash, grade, score, order, selection and amount is computed by
 * `@bench-bounty/evidence`; this package walks, compares and explains.
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./deadline.js";
export * from "./facts.js";
export * from "./policy.js";
export * from "./source.js";
export * from "./pack.js";
export * from "./progress.js";
export { sameHex, sameDecimal } from "./compare.js";
export {
  verifyOffline,
  OFFLINE_STEPS,
  type OfflineResult,
  type OfflineDerived,
  type OfflineFacts,
  type OfflineWalk,
} from "./offline/index.js";
export {
  verifyOnchain,
  chainNotObserved,
  rpcClient,
  CHAIN_FACTS,
  CHAIN_STEPS,
  DEFAULT_MAX_RPC_ANSWER_BYTES,
  type ChainFactName,
  type ChainObservation,
  type OnchainOptions,
  type OnchainResult,
} from "./onchain/index.js";
export {
  verifyIndexer,
  indexerNotObserved,
  INDEXER_STEPS,
  DEFAULT_MAX_INDEXER_ANSWER_BYTES,
  type IndexerOptions,
} from "./indexer/index.js";
export { verifyPack, verifyPackView, parsePackBytes, type VerifyPackOptions } from "./verify.js";
export * from "./compute-receipt/index.js";
export { formatReportTable, type TableOptions } from "./format.js";
export { readGivenReceipt, receiptInclusionFact, type GivenReceipt } from "./receipt-inclusion.js";
export { VERIFIER_NAME, VERIFIER_VERSION } from "./version.js";
export { STATUS_ROUTE, statusEntry, statusHead, type StatusEntry } from "./indexer-status.js";
export { isBehindThePack } from "./indexer/head.js";
