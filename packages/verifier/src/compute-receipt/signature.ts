/**
 * `signature`: the ES256 JWS verifies against the JWKS key matched by the
 * header's `kid` (jose).
 * @packageDocumentation
 */
import { compactVerify, errors as joseErrors } from "jose";
import { describeError } from "../errors.js";
import { fact, type Fact } from "../facts.js";
import type { ComputeReceiptFacts, ReceiptWalk } from "./context.js";
import { importReceiptKey, selectReceiptKey } from "./jwks.js";

/** The `signature` fact. @throws VerifierInputError the selected key is malformed */
export async function signatureFacts(walk: ReceiptWalk): Promise<Pick<ComputeReceiptFacts, "signature">> {
  return { signature: await signature(walk) };
}

async function signature(walk: ReceiptWalk): Promise<Fact> {
  const { alg, kid } = walk;
  if (alg !== "ES256") return fact("failed", `the JWS header says alg ${alg ?? "none"}, ES256 expected`);
  const selected = selectReceiptKey(walk.jwks, kid);
  if ("reason" in selected) return fact("failed", selected.reason);
  const key = await importReceiptKey(selected.jwk, selected.index, kid);
  try {
    await compactVerify(walk.jws, key, { algorithms: ["ES256"] });
    return fact("verified", `ES256 signature verifies with JWKS key ${kid ?? "(no kid)"}`);
  } catch (e) {
    if (e instanceof joseErrors.JWSSignatureVerificationFailed)
      return fact(
        "failed",
        "the signature does not verify: the receipt was altered or signed by another key",
      );
    if (e instanceof joseErrors.JOSEError) return fact("failed", describeError(e));
    throw e;
  }
}
