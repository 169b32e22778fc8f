/**
 * `spec/SPEC.md` section 8: the award evidence pack. `hash.ts` (pack hash, ranking
 * digest, receipt hashes, from values or served bytes), `validate.ts` (parse and
 * schema), `mint.ts` (rank derivation and reproducible minting), `limits.ts` (what a verifier reads).
 * @packageDocumentation
 */
export {
  HASHED_BLOCKS,
  evidencePackBytes,
  packHash,
  packHashes,
  rankingDigest,
  type CanonicalSource,
  type PackHashes,
} from "./hash.js";
export { isPackAddress, parseEvidencePack, validateEvidencePack, type PackValidation } from "./validate.js";
export {
  VERIFY_HINTS,
  buildRankDerivation,
  mintEvidencePack,
  mintEvidencePackSteps,
  withPackAnchor,
  type MintBenchmark,
  type MintInputs,
  type MintRun,
  type MintScoring,
  type RankDerivationResult,
} from "./mint.js";
export {
  GOLD_DEPTH_IN_PACK,
  PACK_LIMITS,
  stringLengthProblem,
  testSetLimitProblems,
  valueLimitProblems,
  type PackLimitName,
  type PackLimitProblem,
  type TestSetLimitProblem,
  type ValueLimitOptions,
} from "./limits.js";
