/**
 * Hosted compute receipts (`seeds/compute-receipts.txt`): verify a saved
 * execute response `{ invocation_id, receipt_jws, compute_receipt?, output? }`.
 *
 * Facts (each `verified | unverified | failed | not-required | not-observed`):
 * - `signature`: the ES256 JWS verifies against the JWKS key matched by the
 *   header's `kid` (jose);
 * - `view_agreement`: every field of the `compute_receipt` convenience view equals
 *   the signed payload's (the view is not signed, the payload is);
 * - `input_binding` / `output_binding`: `"sha256:" + hex(sha256(bytes))` of the
 *   `--input` / `--output` file (or the response's `output` text) equals the payload's
 *   `input_sha256` / `output_sha256`;
 * - `cost_sum`: `base_cost_usdc + margin_usdc == total_usdc` in exact decimal arithmetic;
 * - `token_sum`: `prompt_tokens + completion_tokens == total_tokens`;
 * - `receipt_hash`: `0x + keccak256(canonical_json(payload))` equals the stated
 *   `receipt_hash` (the view's; the JWS itself is not stable, its payload is);
 * - `anchor` (`--rpc`): `AnchorRegistry.anchorOf(receipt_hash)` has kind
 *   `compute-receipt`; not anchored is `unverified` (a fund-then-execute hire has none).
 *
 * @packageDocumentation
 */
import { createHash } from "node:crypto";
import { ANCHOR_KINDS, addressBookEntry, anchorKindName, anchorRegistryAbi } from "@bench-bounty/contracts";
import {
  canonicalHash,
  decimalToFraction,
  isEvidenceError,
  isJsonObject,
  parseJson,
  type JsonObject,
  type JsonValue,
} from "@bench-bounty/evidence";
import {
  compactVerify,
  decodeProtectedHeader,
  errors as joseErrors,
  importJWK,
  type JSONWebKeySet,
  type JWK,
} from "jose";
import { createPublicClient, http, isAddress, type Address, type Hex } from "viem";
import { VerifierInputError, VerifierNetworkError, describeError } from "./errors.js";
import { fact, type Fact, type FactState } from "./facts.js";
import { readSource, type DocumentSource } from "./source.js";

/** Facts of a compute-receipt verification, in report order. */
export const COMPUTE_RECEIPT_FACTS = [
  "signature",
  "view_agreement",
  "input_binding",
  "output_binding",
  "cost_sum",
  "token_sum",
  "receipt_hash",
  "anchor",
] as const;
/** Name of one compute-receipt fact. */
export type ComputeReceiptFactName = (typeof COMPUTE_RECEIPT_FACTS)[number];

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

/** Options of {@link verifyComputeReceipt}. */
export interface VerifyComputeReceiptOptions {
  /** The saved execute response (path, `-`, URL or bytes). */
  execute: DocumentSource;
  /** The JWKS: a path, an http(s) URL, bytes, or the parsed key set. */
  jwks: DocumentSource | JSONWebKeySet;
  /** The task input you sent (path or bytes); hashed as bytes. */
  input?: DocumentSource;
  /** The output you received (path or bytes); default: the execute response's `output` text. */
  output?: DocumentSource;
  /** JSON-RPC URL for the anchor check. */
  rpcUrl?: string;
  /** AnchorRegistry address (default: the address book entry of the RPC's chain id). */
  registry?: string;
  timeoutMs?: number;
}

function sha256Envelope(bytes: Uint8Array): string {
  return "sha256:" + createHash("sha256").update(bytes).digest("hex");
}

function parseDoc(bytes: Uint8Array, what: string): JsonValue {
  try {
    return parseJson(bytes);
  } catch (e) {
    if (isEvidenceError(e))
      throw new VerifierInputError(e.code, e.path, `${what}: ${e.message.replace(/^\$[^:]*: /, "")}`);
    throw e;
  }
}

function b64urlDecode(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  return new Uint8Array(Buffer.from(s, "base64url"));
}

function asInt(v: JsonValue | undefined): bigint | null {
  if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === "bigint") return v;
  return null;
}

/**
 * Verify a hosted compute receipt.
 * @throws VerifierInputError the execute response, the JWKS or the JWS is not readable (exit code 2)
 * @throws VerifierNetworkError a file, URL or the RPC cannot be read (exit code 3)
 */
export async function verifyComputeReceipt(
  options: VerifyComputeReceiptOptions,
): Promise<ComputeReceiptReport> {
  refuseStdinTwice(options);
  const exec = await readSource(options.execute, { what: "execute response", timeoutMs: options.timeoutMs });
  const doc = parseDoc(exec.bytes, "execute response");
  if (!isJsonObject(doc))
    throw new VerifierInputError("wrong_type", "$", "the execute response must be a JSON object");
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
  let kid: string | null = null;
  let alg: string | null = null;
  try {
    const h = decodeProtectedHeader(jws);
    kid = typeof h.kid === "string" ? h.kid : null;
    alg = typeof h.alg === "string" ? h.alg : null;
  } catch (e) {
    throw new VerifierInputError(
      "bad_jws",
      "$.receipt_jws",
      `the JWS header cannot be decoded: ${describeError(e)}`,
    );
  }
  const payloadBytes = b64urlDecode(parts[1] as string);
  if (payloadBytes === null)
    throw new VerifierInputError("bad_jws", "$.receipt_jws", "the JWS payload is not base64url");
  const payloadValue = parseDoc(payloadBytes, "JWS payload");
  if (!isJsonObject(payloadValue))
    throw new VerifierInputError("wrong_type", "$.receipt_jws", "the JWS payload must be a JSON object");
  const payload = payloadValue;
  const view = doc.compute_receipt;
  if (view !== undefined && view !== null && !isJsonObject(view))
    throw new VerifierInputError("wrong_type", "$.compute_receipt", "expected an object");
  const invocation = typeof doc.invocation_id === "string" ? doc.invocation_id : null;

  // JWKS
  let jwks: JSONWebKeySet;
  let jwksLabel = "object";
  if (typeof options.jwks === "string" || options.jwks instanceof Uint8Array) {
    const src = await readSource(options.jwks, { what: "JWKS", timeoutMs: options.timeoutMs });
    jwksLabel = src.label;
    const parsed = parseJwksBytes(src.bytes);
    if (!isJwks(parsed))
      throw new VerifierInputError("wrong_type", "--jwks", 'the JWKS must be an object with a "keys" array');
    jwks = parsed;
  } else {
    if (!isJwks(options.jwks))
      throw new VerifierInputError("wrong_type", "jwks", 'the JWKS must be an object with a "keys" array');
    jwks = options.jwks;
  }

  const facts = {} as Record<ComputeReceiptFactName, Fact>;

  // signature
  if (alg !== "ES256")
    facts.signature = fact("failed", `the JWS header says alg ${alg ?? "none"}, ES256 expected`);
  else {
    const selected = selectReceiptKey(jwks, kid);
    if ("reason" in selected) facts.signature = fact("failed", selected.reason);
    else {
      const key = await importReceiptKey(selected.jwk, selected.index, kid);
      try {
        await compactVerify(jws, key, { algorithms: ["ES256"] });
        facts.signature = fact("verified", `ES256 signature verifies with JWKS key ${kid ?? "(no kid)"}`);
      } catch (e) {
        const why =
          e instanceof joseErrors.JWSSignatureVerificationFailed
            ? "the signature does not verify: the receipt was altered or signed by another key"
            : describeError(e);
        facts.signature = fact("failed", why);
      }
    }
  }

  // view agreement
  if (view === undefined || view === null)
    facts.view_agreement = fact("not-required", "the response carries no compute_receipt view");
  else {
    const problems: string[] = [];
    for (const [k, v] of Object.entries(view)) {
      if (k === "receipt_hash") continue;
      if (!(k in payload)) problems.push(`$.compute_receipt.${k} is not in the signed payload`);
      else if (canonicalHash(v) !== canonicalHash(payload[k]))
        problems.push(`$.compute_receipt.${k} differs from the signed payload`);
    }
    for (const k of Object.keys(payload))
      if (!(k in view)) problems.push(`the signed payload's ${k} is missing from $.compute_receipt`);
    facts.view_agreement =
      problems.length === 0
        ? fact("verified", "the compute_receipt view equals the signed payload")
        : { state: "failed", reasons: problems };
  }

  // bindings
  const binding = async (
    key: "input_sha256" | "output_sha256",
    src: DocumentSource | undefined,
    fallback: string | null,
    flag: string,
  ): Promise<[Fact, string | null]> => {
    const claimed = payload[key];
    if (src === undefined && fallback === null)
      return [fact("not-observed", `no ${flag}: nothing to hash`), null];
    if (typeof claimed !== "string") return [fact("failed", `the signed payload has no ${key} string`), null];
    let bytes: Uint8Array;
    let label: string;
    if (src !== undefined) {
      const r = await readSource(src, { what: flag.slice(2), timeoutMs: options.timeoutMs });
      bytes = r.bytes;
      label = r.label;
    } else {
      bytes = new TextEncoder().encode(fallback as string);
      label = "$.output";
    }
    const got = sha256Envelope(bytes);
    return [
      got === claimed
        ? fact("verified", `${label} hashes to ${got}`)
        : fact("failed", `${label} hashes to ${got}, the payload's ${key} is ${claimed}`),
      label,
    ];
  };
  const [inputFact, inputLabel] = await binding("input_sha256", options.input, null, "--input");
  const [outputFact, outputLabel] = await binding(
    "output_sha256",
    options.output,
    typeof doc.output === "string" ? doc.output : null,
    "--output",
  );
  facts.input_binding = inputFact;
  facts.output_binding = outputFact;

  // cost and token sums
  try {
    const base = payload.base_cost_usdc;
    const margin = payload.margin_usdc;
    const total = payload.total_usdc;
    if (typeof base !== "string" || typeof margin !== "string" || typeof total !== "string")
      facts.cost_sum = fact("failed", "base_cost_usdc, margin_usdc and total_usdc must be decimal strings");
    else {
      const sum = decimalToFraction(base).add(decimalToFraction(margin));
      facts.cost_sum = sum.eq(decimalToFraction(total))
        ? fact("verified", `${base} + ${margin} == ${total} USDC`)
        : fact("failed", `base_cost_usdc ${base} + margin_usdc ${margin} != total_usdc ${total}`);
    }
  } catch (e) {
    facts.cost_sum = fact("failed", `a cost is not a decimal: ${describeError(e)}`);
  }
  const pt = asInt(payload.prompt_tokens);
  const ct = asInt(payload.completion_tokens);
  const tt = asInt(payload.total_tokens);
  facts.token_sum =
    pt === null || ct === null || tt === null
      ? fact("failed", "prompt_tokens, completion_tokens and total_tokens must be integers")
      : pt + ct === tt
        ? fact("verified", `${pt} + ${ct} == ${tt} tokens`)
        : fact("failed", `prompt_tokens ${pt} + completion_tokens ${ct} != total_tokens ${tt}`);

  // receipt hash
  const receiptHash = canonicalHash(payload);
  const stated =
    isJsonObject(view) && typeof view.receipt_hash === "string"
      ? view.receipt_hash
      : typeof doc.receipt_hash === "string"
        ? doc.receipt_hash
        : null;
  facts.receipt_hash =
    stated === null
      ? fact("unverified", `no receipt_hash stated; the payload hashes to ${receiptHash}`)
      : stated.toLowerCase() === receiptHash
        ? fact("verified", `keccak256(canonical_json(payload)) is ${receiptHash}`)
        : fact("failed", `the stated receipt_hash is ${stated}, the payload hashes to ${receiptHash}`);

  // anchor
  if (options.rpcUrl === undefined) facts.anchor = fact("not-observed", "no --rpc: the chain was not read");
  else facts.anchor = await checkAnchor(options.rpcUrl, options.registry, receiptHash, options.timeoutMs);

  const st = (n: ComputeReceiptFactName): FactState => facts[n].state;
  const ok =
    COMPUTE_RECEIPT_FACTS.every((n) => st(n) !== "failed") &&
    st("signature") === "verified" &&
    st("cost_sum") === "verified" &&
    st("token_sum") === "verified" &&
    (st("receipt_hash") === "verified" || st("receipt_hash") === "unverified");

  const ordered = {} as Record<ComputeReceiptFactName, Fact>;
  for (const n of COMPUTE_RECEIPT_FACTS) ordered[n] = facts[n];
  return {
    schema: "bench-bounty.compute-receipt-verification.v1",
    invocation_id: invocation,
    kid,
    payload,
    receipt_hash: receiptHash,
    facts: ordered,
    ok,
    observed: {
      execute: exec.label,
      jwks: jwksLabel,
      input: inputLabel,
      output: outputLabel,
      rpc: options.rpcUrl ?? null,
    },
  };
}

function isJwks(v: unknown): v is JSONWebKeySet {
  return typeof v === "object" && v !== null && Array.isArray((v as { keys?: unknown }).keys);
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

/**
 * Parse the JWKS bytes. A document that is not JSON is described by the
 * evidence parser's message (JSON path, offset, the character escaped), never
 * by echoing its bytes: a binary file prints no raw bytes.
 * @throws VerifierInputError `invalid_json` naming `--jwks`
 */
function parseJwksBytes(bytes: Uint8Array): unknown {
  let text: string | null = null;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return JSON.parse(text) as unknown;
  } catch {
    // described below
  }
  let why = `${bytes.byteLength} bytes that do not parse`;
  if (text === null) why = `$: it is not UTF-8 text (${bytes.byteLength} bytes of binary data?)`;
  else
    try {
      parseJson(bytes);
    } catch (e) {
      if (isEvidenceError(e)) why = e.path === "$" ? `$: ${e.message}` : e.message;
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
function selectReceiptKey(
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

/**
 * Import the selected ES256 key. Its `x` and `y` must be 32 bytes of base64url
 * each and a point of P-256.
 * @throws VerifierInputError `bad_jwks` naming `--jwks`, the key's kid and index: the JWKS is malformed (exit code 2)
 */
async function importReceiptKey(
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

async function checkAnchor(
  rpcUrl: string,
  registryOpt: string | undefined,
  digest: string,
  timeoutMs?: number,
): Promise<Fact> {
  const target = `rpc ${rpcUrl}`;
  const client = createPublicClient({
    transport: http(rpcUrl, { timeout: timeoutMs ?? 20_000, retryCount: 1 }),
  });
  let chainId: number;
  try {
    chainId = await client.getChainId();
  } catch (e) {
    throw new VerifierNetworkError(target, `eth_chainId: ${describeError(e)}`, { cause: e });
  }
  let registry: string | null = registryOpt ?? null;
  if (registry === null) {
    try {
      registry = addressBookEntry(chainId).anchorRegistry;
    } catch {
      registry = null;
    }
  }
  if (registry === null)
    return fact(
      "not-observed",
      `no --registry and no AnchorRegistry in the address book for chain ${chainId}`,
    );
  if (!isAddress(registry, { strict: false }))
    throw new VerifierInputError("bad_option", "--registry", `${registry} is not an address`);
  let r: readonly [Address, bigint, bigint, Hex];
  try {
    r = (await client.readContract({
      address: registry as Address,
      abi: anchorRegistryAbi,
      functionName: "anchorOf",
      args: [digest as Hex],
    })) as never;
  } catch (e) {
    throw new VerifierNetworkError(target, `anchorOf(${digest}) on ${registry}: ${describeError(e)}`, {
      cause: e,
    });
  }
  const [anchorer, block, , kind] = r;
  if (block === 0n)
    return fact(
      "unverified",
      `${digest} is not anchored on ${registry} (chain ${chainId}): a fund-then-execute hire has no anchor`,
    );
  if (kind.toLowerCase() !== ANCHOR_KINDS["compute-receipt"])
    return fact(
      "failed",
      `${digest} is anchored with kind ${anchorKindName(kind) ?? kind}, expected compute-receipt`,
    );
  return fact(
    "verified",
    `${digest} anchored with kind compute-receipt in block ${block} by ${anchorer.toLowerCase()} (chain ${chainId})`,
  );
}
