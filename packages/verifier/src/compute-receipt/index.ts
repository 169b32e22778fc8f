/**
 * Hosted compute receipts (`seeds/compute-receipts.txt`): verify a saved
 * execute response `{ invocation_id, receipt_jws, compute_receipt?, output? }`.
 * One module per fact family, each a step of {@link RECEIPT_STEPS} over one
 * shared {@link ReceiptWalk} (`read.ts` builds it; `jwks.ts` reads the key set):
 * - `signature.ts`: `signature` (ES256 with the JWKS key matched by the header's `kid`, jose);
 * - `view.ts`: `view_agreement` (the unsigned view equals the signed payload) and
 *   `receipt_hash` (`0x + keccak256(canonical_json(payload))` equals the stated one);
 * - `bindings.ts`: `input_binding` / `output_binding` (`"sha256:" + hex(sha256(bytes))`);
 * - `sums.ts`: `cost_sum` (exact decimals) and `token_sum`;
 * - `anchor.ts`: `anchor` (`--rpc`; kind `compute-receipt`, not anchored is `unverified`).
 *
 * Each fact is `verified | unverified | failed | not-required | not-observed`.
 *
 * @packageDocumentation
 */
import type { JsonObject } from "@bench-bounty/evidence";
import type { Fact, FactState } from "../facts.js";
import { withinDeadline } from "../deadline.js";
import { anchorFacts } from "./anchor.js";
import { bindingFacts } from "./bindings.js";
import {
  COMPUTE_RECEIPT_FACTS,
  type ComputeReceiptFactName,
  type ComputeReceiptFacts,
  type ReceiptStep,
  type VerifyComputeReceiptOptions,
} from "./context.js";
import { startReceiptWalk } from "./read.js";
import { signatureFacts } from "./signature.js";
import { sumFacts } from "./sums.js";
import { receiptHashFacts, viewAgreementFacts } from "./view.js";

export {
  COMPUTE_RECEIPT_FACTS,
  type ComputeReceiptFactName,
  type VerifyComputeReceiptOptions,
} from "./context.js";
export { DEFAULT_MAX_JWKS_BYTES } from "./jwks.js";
export { DEFAULT_MAX_EXECUTE_BYTES } from "./read.js";

/** Report of {@link verifyComputeReceipt} (`bench-bounty.compute-receipt-verification.v1`). */
export interface ComputeReceiptReport {
  schema: "bench-bounty.compute-receipt-verification.v1";
  /** The execute response's `invocation_id`, or null. */
  invocation_id: string | null;
  /** `kid` of the JWS header, or null. */
  kid: string | null;
  /** The signed payload (as decoded; trust it only when `signature` is verified). */
  payload: JsonObject | null;
  /** `0x + keccak256(canonical_json(payload))`. */
  receipt_hash: string | null;
  facts: Record<ComputeReceiptFactName, Fact>;
  /**
   * True when no fact failed and `signature`, `cost_sum`, `token_sum` are verified,
   * `receipt_hash` is verified or unverified (no hash stated), and, with `--rpc`, `anchor` is not failed.
   */
  ok: boolean;
  observed: {
    execute: string;
    jwks: string;
    input: string | null;
    output: string | null;
    rpc: string | null;
  };
}

/** The steps, in order (the files and the RPC are read in this order). */
export const RECEIPT_STEPS: readonly ReceiptStep[] = [
  signatureFacts,
  viewAgreementFacts,
  bindingFacts,
  sumFacts,
  receiptHashFacts,
  anchorFacts,
];

/**
 * Verify a hosted compute receipt.
 * @throws VerifierInputError the execute response, the JWKS or the JWS is not readable (exit code 2)
 * @throws VerifierNetworkError a file, URL or the RPC cannot be read (exit code 3)
 */
export function verifyComputeReceipt(options: VerifyComputeReceiptOptions): Promise<ComputeReceiptReport> {
  return withinDeadline(options.deadlineMs, (signal) => verifyWithin({ ...options, signal }), "receipt");
}

async function verifyWithin(options: VerifyComputeReceiptOptions): Promise<ComputeReceiptReport> {
  const walk = await startReceiptWalk(options);
  const found = {} as ComputeReceiptFacts;
  for (const step of RECEIPT_STEPS) Object.assign(found, await step(walk));
  const facts = {} as ComputeReceiptFacts;
  for (const n of COMPUTE_RECEIPT_FACTS) facts[n] = found[n];
  return {
    schema: "bench-bounty.compute-receipt-verification.v1",
    invocation_id: typeof walk.doc.invocation_id === "string" ? walk.doc.invocation_id : null,
    kid: walk.kid,
    payload: walk.payload,
    receipt_hash: walk.receiptHash,
    facts,
    ok: receiptOk(facts),
    observed: {
      execute: walk.executeLabel,
      jwks: walk.jwksLabel,
      input: walk.inputLabel,
      output: walk.outputLabel,
      rpc: options.rpcUrl ?? null,
    },
  };
}

/** The `ok` rule of {@link ComputeReceiptReport}. */
function receiptOk(facts: ComputeReceiptFacts): boolean {
  const st = (n: ComputeReceiptFactName): FactState => facts[n].state;
  return (
    COMPUTE_RECEIPT_FACTS.every((n) => st(n) !== "failed") &&
    st("signature") === "verified" &&
    st("cost_sum") === "verified" &&
    st("token_sum") === "verified" &&
    (st("receipt_hash") === "verified" || st("receipt_hash") === "unverified")
  );
}
