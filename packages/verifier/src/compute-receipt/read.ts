/**
 * Reading a saved execute response `{ invocation_id, receipt_jws, compute_receipt?, output? }`:
 * the JWS's header and signed payload, and the unsigned view. Anything unreadable is bad input.
 * @packageDocumentation
 */
import {
  canonicalHash,
  isEvidenceError,
  isJsonObject,
  parseJson,
  type JsonValue,
} from "@bench-bounty/evidence";
import { decodeProtectedHeader } from "jose";
import { isAddress } from "viem";
import { VerifierInputError, describeError } from "../errors.js";
import { typeName } from "../pack/fields.js";
import { readSource } from "../source.js";
import { b64urlDecode, loadJwks } from "./jwks.js";
import type { ReceiptWalk, VerifyComputeReceiptOptions } from "./context.js";

/** Largest execute response read (bytes, streamed from a URL). */
export const DEFAULT_MAX_EXECUTE_BYTES = 64 * 1024 * 1024;

function parseDoc(bytes: Uint8Array, what: string): JsonValue {
  try {
    return parseJson(bytes);
  } catch (e) {
    if (isEvidenceError(e))
      throw new VerifierInputError(e.code, e.path, `${what}: ${e.message.replace(/^\$[^:]*: /, "")}`);
    throw e;
  }
}

/**
 * Check the options, read the execute response, decode its JWS and read the JWKS: the context of the
 * walk. The response's `invocation_id` and `output` are strings when present (null is taken as absent).
 * @throws VerifierInputError a bad option, or the response (a member of the wrong type named by its
 *   path, `$.output: expected a string or null, found the number 1`), the JWS or the JWKS is not readable (exit code 2)
 * @throws VerifierNetworkError a file or URL cannot be read (exit code 3)
 */
export async function startReceiptWalk(options: VerifyComputeReceiptOptions): Promise<ReceiptWalk> {
  refuseBadOptions(options);
  const exec = await readSource(options.execute, {
    what: "execute response",
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    maxBytes: DEFAULT_MAX_EXECUTE_BYTES,
  });
  const doc = parseDoc(exec.bytes, "execute response");
  if (!isJsonObject(doc))
    throw new VerifierInputError("wrong_type", "$", "the execute response must be a JSON object");
  // probe24 B-F5: a wrong-typed member was taken as absent (`output: 1` read as "no --output")
  for (const key of ["invocation_id", "output"] as const) {
    const v = doc[key];
    if (v !== undefined && v !== null && typeof v !== "string")
      throw new VerifierInputError(
        "wrong_type",
        `$.${key}`,
        `expected a string or null, found ${typeName(v)}`,
      );
  }
  const jws = doc.receipt_jws;
  if (jws === undefined)
    throw new VerifierInputError(
      "missing_key",
      "$.receipt_jws",
      'missing key "receipt_jws" (is the seller a2awire_hosted?)',
    );
  if (typeof jws !== "string")
    throw new VerifierInputError("wrong_type", "$.receipt_jws", "expected a string (a compact JWS)");
  const parts = jws.split(".");
  if (parts.length !== 3)
    throw new VerifierInputError(
      "bad_jws",
      "$.receipt_jws",
      `a compact JWS has 3 parts, found ${parts.length}`,
    );
  const { kid, alg } = jwsHeader(jws);
  const payloadBytes = b64urlDecode(parts[1] as string);
  if (payloadBytes === null)
    throw new VerifierInputError("bad_jws", "$.receipt_jws", "the JWS payload is not base64url");
  const payload = parseDoc(payloadBytes, "JWS payload");
  if (!isJsonObject(payload))
    throw new VerifierInputError("wrong_type", "$.receipt_jws", "the JWS payload must be a JSON object");
  const view = doc.compute_receipt;
  if (view !== undefined && view !== null && !isJsonObject(view))
    throw new VerifierInputError("wrong_type", "$.compute_receipt", "expected an object");
  const { jwks, label } = await loadJwks(options);
  return {
    options,
    doc,
    executeLabel: exec.label,
    jws,
    kid,
    alg,
    payload,
    view: view ?? null,
    jwks,
    jwksLabel: label,
    receiptHash: canonicalHash(payload),
    inputLabel: null,
    outputLabel: null,
  };
}

/**
 * `kid` and `alg` of the JWS protected header, null when absent. Each is a string when present (RFC
 * 7515 4.1.1, 4.1.4): another type, `null` included, is bad input, never read as absent (probe33 B-F3:
 * `"kid": 5` was read as "no kid" and the JWKS's lone ES256 key verified the receipt).
 * @throws VerifierInputError `bad_jws` (the header cannot be decoded) or `wrong_type` (`$.receipt_jws:
 *   the JWS header's kid is not a string: found the number 5`)
 */
function jwsHeader(jws: string): { kid: string | null; alg: string | null } {
  let h: Record<string, unknown>;
  try {
    h = decodeProtectedHeader(jws);
  } catch (e) {
    throw new VerifierInputError(
      "bad_jws",
      "$.receipt_jws",
      `the JWS header cannot be decoded: ${describeError(e)}`,
    );
  }
  const member = (key: "kid" | "alg"): string | null => {
    const v = h[key];
    if (v === undefined) return null;
    if (typeof v !== "string")
      throw new VerifierInputError(
        "wrong_type",
        "$.receipt_jws",
        `the JWS header's ${key} is not a string: found ${typeName(v)}`,
      );
    return v;
  };
  return { kid: member("kid"), alg: member("alg") };
}

/**
 * Every option checked before anything is read (probe24 B-F5: `--registry 0x12` was refused only after
 * the RPC answered, exit 3 when it was down): standard input named twice, and a `--registry` that is
 * not an address.
 * @throws VerifierInputError `bad_option` naming the option (exit code 2)
 */
function refuseBadOptions(options: VerifyComputeReceiptOptions): void {
  refuseStdinTwice(options);
  if (options.registry !== undefined && !isAddress(options.registry, { strict: false }))
    throw new VerifierInputError("bad_option", "--registry", `${options.registry} is not an address`);
}

/**
 * Refuse standard input (`-`) named by more than one of the execute response,
 * `--jwks`, `--input` and `--output`: it can be read only once.
 * @throws VerifierInputError `bad_option` naming the options
 */
function refuseStdinTwice(options: VerifyComputeReceiptOptions): void {
  const named = (
    [
      ["<execute>", options.execute],
      ["--jwks", options.jwks],
      ["--input", options.input],
      ["--output", options.output],
    ] as const
  )
    .filter(([, v]) => v === "-")
    .map(([flag]) => flag);
  if (named.length > 1)
    throw new VerifierInputError(
      "bad_option",
      named[1] as string,
      `standard input (-) can be read only once, and ${named.join(" and ")} both name it`,
    );
}
