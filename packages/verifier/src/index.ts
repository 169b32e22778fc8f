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
export * from "./facts.js";
export * from "./policy.js";
export * from "./source.js";
export * from "./pack.js";
export {
  verifyOffline,
  sameHex,
  sameDecimal,
  type OfflineResult,
  type OfflineDerived,
  type ProgressCallback,
  type VerifyProgress,
} from "./offline.js";
export {
  verifyOnchain,
  chainNotObserved,
  CHAIN_FACTS,
  type ChainFactName,
  type ChainObservation,
  type OnchainOptions,
  type OnchainResult,
} from "./onchain.js";
export { verifyIndexer, indexerNotObserved, type IndexerOptions } from "./indexer.js";
export { verifyPack, verifyPackView, parsePackBytes, type VerifyPackOptions } from "./verify.js";
export * from "./compute-receipt.js";
export { formatReportTable, type TableOptions } from "./format.js";
export { VERIFIER_NAME, VERIFIER_VERSION } from "./version.js";
