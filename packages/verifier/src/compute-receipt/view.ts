/**
 * The unsigned parts of the response against the signed payload:
 * - `view_agreement`: every field of the `compute_receipt` convenience view equals
 *   the signed payload's (the view is not signed, the payload is);
 * - `receipt_hash`: `0x + keccak256(canonical_json(payload))` equals the stated
 *   `receipt_hash` (the view's, else the response's; the JWS itself is not stable, its payload is).
 * @packageDocumentation
 */
import { canonicalHash, isJsonObject } from "@bench-bounty/evidence";
import { fact, type Fact } from "../facts.js";
import type { ComputeReceiptFacts, ReceiptWalk } from "./context.js";

/** The `view_agreement` fact. */
export function viewAgreementFacts(walk: ReceiptWalk): Pick<ComputeReceiptFacts, "view_agreement"> {
  return { view_agreement: viewAgreement(walk) };
}

function viewAgreement({ view, payload }: ReceiptWalk): Fact {
  if (view === null) return fact("not-required", "the response carries no compute_receipt view");
  const problems: string[] = [];
  for (const [k, v] of Object.entries(view)) {
    if (k === "receipt_hash") continue;
    if (!(k in payload)) problems.push(`$.compute_receipt.${k} is not in the signed payload`);
    else if (canonicalHash(v) !== canonicalHash(payload[k]))
      problems.push(`$.compute_receipt.${k} differs from the signed payload`);
  }
  for (const k of Object.keys(payload))
    if (!(k in view)) problems.push(`the signed payload's ${k} is missing from $.compute_receipt`);
  return problems.length === 0
    ? fact("verified", "the compute_receipt view equals the signed payload")
    : { state: "failed", reasons: problems };
}

/** The `receipt_hash` fact. */
export function receiptHashFacts(walk: ReceiptWalk): Pick<ComputeReceiptFacts, "receipt_hash"> {
  const { view, doc, receiptHash } = walk;
  const stated =
    isJsonObject(view) && typeof view.receipt_hash === "string"
      ? view.receipt_hash
      : typeof doc.receipt_hash === "string"
        ? doc.receipt_hash
        : null;
  return {
    receipt_hash:
      stated === null
        ? fact("unverified", `no receipt_hash stated; the payload hashes to ${receiptHash}`)
        : stated.toLowerCase() === receiptHash
          ? fact("verified", `keccak256(canonical_json(payload)) is ${receiptHash}`)
          : fact("failed", `the stated receipt_hash is ${stated}, the payload hashes to ${receiptHash}`),
  };
}
