/**
 * The bounded read of an http answer's body, as `@bench-bounty/verifier/body`: it lives in
 * `@bench-bounty/evidence/body` (one definition, which the indexer's RPC transport reads too without
 * depending on the verifier, whose tests depend on the indexer).
 * @packageDocumentation
 */
export * from "@bench-bounty/evidence/body";
