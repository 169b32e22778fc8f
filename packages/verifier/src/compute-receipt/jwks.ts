/**
 * The JWKS of a compute receipt: reading it, and choosing and importing the
 * one ES256 key that verifies the receipt.
 * @packageDocumentation
 */
import { isEvidenceError, parseJson } from "@bench-bounty/evidence";
import { importJWK, type JSONWebKeySet, type JWK } from "jose";
import { VerifierInputError, describeError } from "../errors.js";
import { readSource } from "../source.js";
import type { VerifyComputeReceiptOptions } from "./context.js";

/** Largest JWKS read (bytes, streamed from a URL): a key set is a few KiB. */
export const DEFAULT_MAX_JWKS_BYTES = 1024 * 1024;

/** True when `v` is shaped like a key set (an object with a `keys` array). */
function isJwks(v: unknown): v is JSONWebKeySet {
  return typeof v === "object" && v !== null && Array.isArray((v as { keys?: unknown }).keys);
}

/**
 * Read the JWKS named by `--jwks` (or use the key set given).
 * @throws VerifierInputError not JSON, or no `keys` array; VerifierNetworkError it cannot be read
 */
export async function loadJwks(
  options: VerifyComputeReceiptOptions,
): Promise<{ jwks: JSONWebKeySet; label: string }> {
  if (typeof options.jwks === "string" || options.jwks instanceof Uint8Array) {
    const src = await readSource(options.jwks, {
      what: "JWKS",
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      maxBytes: DEFAULT_MAX_JWKS_BYTES,
    });
    const parsed = parseJwksBytes(src.bytes);
    if (!isJwks(parsed))
      throw new VerifierInputError("wrong_type", "--jwks", 'the JWKS must be an object with a "keys" array');
    return { jwks: parsed, label: src.label };
  }
  if (!isJwks(options.jwks))
    throw new VerifierInputError("wrong_type", "jwks", 'the JWKS must be an object with a "keys" array');
  return { jwks: options.jwks, label: "object" };
}

/**
 * Parse the JWKS bytes. A document that is not JSON is described by the
 * evidence parser's message (JSON path, offset, the character escaped), never
 * by echoing its bytes: a binary file prints no raw bytes.
 * @throws VerifierInputError `invalid_json` naming `--jwks`
 */
function parseJwksBytes(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    throw new VerifierInputError(
      "invalid_json",
      "--jwks",
      `the JWKS is not JSON: $: it is not UTF-8 text (${bytes.byteLength} bytes of binary data?)`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
  }
  let why = `${bytes.byteLength} bytes that do not parse`;
  try {
    parseJson(bytes);
  } catch (e) {
    if (!isEvidenceError(e)) throw e;
    why = e.path === "$" ? `$: ${e.message}` : e.message;
  }
  throw new VerifierInputError("invalid_json", "--jwks", `the JWKS is not JSON: ${why}`);
}

/**
 * Why a JWK cannot verify ES256 (`kty RSA`, `crv P-384`, `alg ES384`, `use enc`), or null when it can
 * (kty EC, crv P-256, and no `alg`, `use` or `key_ops` saying otherwise).
 */
function whyNotEs256(k: Record<string, unknown>): string | null {
  if (k.kty !== "EC") return `kty ${describeMember(k.kty)}`;
  if (k.crv !== "P-256") return `crv ${describeMember(k.crv)}`;
  if (k.alg !== undefined && k.alg !== "ES256") return `alg ${describeMember(k.alg)}`;
  if (k.use !== undefined && k.use !== "sig") return `use ${describeMember(k.use)}`;
  if (k.key_ops !== undefined && !(Array.isArray(k.key_ops) && k.key_ops.includes("verify")))
    return "key_ops without verify";
  return null;
}

/** A JWK member for a message: a short string as is, anything else as JSON (cut), absent as `(none)`. */
function describeMember(v: unknown): string {
  if (v === undefined) return "(none)";
  const s = typeof v === "string" && /^[\x21-\x7e]{1,40}$/.test(v) ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/**
 * The JWKS key that verifies the receipt: the one key whose `kid` is the JWS
 * header's, or, when the header names no kid, the one ES256 key. Otherwise the
 * reason the signature fact fails: no key has the kid, several keys share it,
 * or the kid's key is not an ES256 (P-256 EC) key.
 */
export function selectReceiptKey(
  jwks: JSONWebKeySet,
  kid: string | null,
): { jwk: JWK; index: number } | { reason: string } {
  const keys = jwks.keys.map((k, index) => ({
    jwk: (typeof k === "object" && k !== null ? k : {}) as JWK,
    index,
  }));
  const at = (found: { index: number }[]): string => found.map((f) => `$.keys[${f.index}]`).join(", ");
  if (kid === null) {
    const es256 = keys.filter((k) => whyNotEs256(k.jwk as Record<string, unknown>) === null);
    if (es256.length === 0)
      return { reason: "the JWS names no kid and no JWKS key is an ES256 (P-256 EC) key" };
    if (es256.length > 1)
      return { reason: `the JWS names no kid and several JWKS keys are ES256 keys (${at(es256)})` };
    return es256[0] as { jwk: JWK; index: number };
  }
  const same = keys.filter((k) => k.jwk.kid === kid);
  if (same.length === 0) return { reason: `no JWKS key matches kid ${kid}` };
  if (same.length > 1)
    return { reason: `several JWKS keys share kid ${kid} (${at(same)}): the key set is ambiguous` };
  const only = same[0] as { jwk: JWK; index: number };
  const not = whyNotEs256(only.jwk as Record<string, unknown>);
  if (not !== null)
    return {
      reason: `the JWKS key with kid ${kid} ($.keys[${only.index}]) is not an ES256 (P-256 EC) key: ${not}`,
    };
  return only;
}

/** Base64url text decoded, or null when it is not base64url. */
export function b64urlDecode(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  return new Uint8Array(Buffer.from(s, "base64url"));
}

/**
 * Import the selected ES256 key. Its `x` and `y` must be 32 bytes of base64url
 * each and a point of P-256.
 * @throws VerifierInputError `bad_jwks` naming `--jwks`, the key's kid and index: the JWKS is malformed (exit code 2)
 */
export async function importReceiptKey(
  jwk: JWK,
  index: number,
  kid: string | null,
): Promise<Awaited<ReturnType<typeof importJWK>>> {
  const name = `the JWKS key ${kid === null ? "" : `with kid ${kid} `}($.keys[${index}])`;
  const malformed = (why: string): VerifierInputError =>
    new VerifierInputError("bad_jwks", "--jwks", `${name} is malformed: ${why}`);
  for (const c of ["x", "y"] as const) {
    const v = jwk[c];
    if (v === undefined) throw malformed(`it has no ${c} coordinate`);
    const decoded = typeof v === "string" ? b64urlDecode(v) : null;
    if (decoded === null || decoded.byteLength !== 32)
      throw malformed(`its ${c} is not 32 bytes of base64url (a P-256 coordinate)`);
  }
  try {
    return await importJWK({ kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y }, "ES256");
  } catch (e) {
    throw malformed(`(x, y) is not a point of P-256 (${describeError(e)})`);
  }
}
