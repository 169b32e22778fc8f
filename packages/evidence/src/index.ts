/**
 * `@bench-bounty/evidence`: the bench-bounty protocol core (`spec/SPEC.md`
 * sections 2-8), pure functions and schemas, no chain, and no I/O but one bounded
 * local-file reader the tools share (`readBoundedFile`). Throughout this
 * package's docs, "SPEC n" is section n of `spec/SPEC.md` (the normative
 * protocol, in the repository).
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./json/index.js";
export * from "./hash.js";
export {
  keccak256Bytes,
  keccakBackend,
  setNativeKeccakGate,
  type NativeKeccakGate,
  nativeKeccakUnavailableReason,
  setKeccakBackend,
  type KeccakBackendName,
} from "./keccak.js";
export * from "./commitment.js";
export * from "./decimal.js";
export * from "./fraction.js";
export * from "./payouts.js";
export * from "./terms.js";
export * from "./graders.js";
export * from "./terminal-chars.js";
export * from "./scores.js";
export * from "./formats.js";
export * from "./receipts.js";
export * from "./ranking.js";
export * from "./schemas.js";
export * from "./checks.js";
export * from "./pack/index.js";
export * from "./bounded-file.js";
export * from "./slices.js";
