/**
 * `verifyPack`: the stranger's walk from a pack (and optionally a chain and
 * an indexer) to the facts of SPEC 9.
 * @packageDocumentation
 */
import { isEvidenceError, parseJson, type CanonicalSpan, type JsonValue } from "@bench-bounty/evidence";
import { withinDeadline } from "./deadline.js";
import { VerifierInputError, isVerifierInputError } from "./errors.js";
import {
  FACT_NAMES,
  REPORT_SCHEMA,
  type Fact,
  type FactName,
  type FactState,
  type PolicyName,
  type VerificationReport,
} from "./facts.js";
import { indexerNotObserved, verifyIndexer } from "./indexer/index.js";
import { verifyOffline } from "./offline/index.js";
import { chainNotObserved, verifyOnchain, type ChainObservation } from "./onchain/index.js";
import type { ProgressCallback } from "./progress.js";
import { readPack, type PackView } from "./pack.js";
import { evaluatePolicy, parsePolicy } from "./policy.js";
import { readSource, type DocumentSource } from "./source.js";
import { readGivenReceipt, receiptInclusionFact, type GivenReceipt } from "./receipt-inclusion.js";
import { VERIFIER_NAME, VERIFIER_VERSION } from "./version.js";
import { urlOrigin } from "./url.js";

/** Options of {@link verifyPack}. */
export interface VerifyPackOptions {
  /** The pack: a file path, `-` (standard input), an http(s) URL, or its bytes. */
  source: DocumentSource;
  /** JSON-RPC URL of the chain the pack names (enables the chain facts). */
  rpcUrl?: string;
  /** Base URL of the bench-bounty indexer (enables `indexer_agreement`). */
  indexerUrl?: string;
  /** The policy that decides `policy_met` (default `offline`). */
  policy?: PolicyName;
  /** Called during long phases (`parse`, `schema`, `pack hash`, `commitment`, `receipts`, `chain`, `indexer`). */
  onProgress?: ProgressCallback;
  /** Input limits: document size in bytes and longest string (see README). */
  limits?: { maxBytes?: number; maxStringLength?: number };
  /** Network timeout per request, milliseconds (default 20 000; 30 000 for the pack URL). */
  timeoutMs?: number;
  /** Standard input for `source: "-"` (default `process.stdin`). */
  stdin?: AsyncIterable<Uint8Array | string>;
  /**
   * Total deadline of the whole verification, every read included, milliseconds (default
   * `DEFAULT_DEADLINE_MS`, 30 minutes); see `withinDeadline`.
   */
  deadlineMs?: number;
  /**
   * A competitor's own run receipts (`--receipt`, each a file path, `-`, an http(s) URL or bytes): each
   * the receipt payload (SPEC 4) or a document carrying it under `receipt` (`readGivenReceipt`). Given,
   * the report carries the optional fact `receipt_inclusion` (`receiptInclusionFact`), which every
   * policy requires verified.
   */
  receipts?: readonly DocumentSource[];
}

/** The key under which a pack carries a receipt (`winners[].receipt`, `rank_derivation.rows[].receipt`). */
const RECEIPT_KEYS: ReadonlySet<string> = new Set(["receipt"]);

/**
 * Parse pack bytes with the evidence library's lossless parser. With `spans`, the
 * parser also records the hashed blocks and receipts whose bytes are already
 * canonical JSON (so they are hashed as served, not serialized again).
 * @throws VerifierInputError with the parser's code and JSON path
 */
export function parsePackBytes(bytes: Uint8Array, spans?: Map<object, CanonicalSpan>): JsonValue {
  try {
    return parseJson(
      bytes,
      spans === undefined ? {} : { canonicalSpans: { maxDepth: 1, keys: RECEIPT_KEYS, out: spans } },
    );
  } catch (e) {
    if (isEvidenceError(e)) throw new VerifierInputError(e.code, e.path, e.message.replace(/^\$[^:]*: /, ""));
    if (e instanceof RangeError)
      throw new VerifierInputError("too_large", "$", `the document cannot be parsed: ${e.message}`);
    throw e;
  }
}

/**
 * Verify an award evidence pack.
 *
 * Reads the pack, parses it losslessly, checks it is readable, walks Steps 1-5
 * off-chain, then (with `rpcUrl`) the chain and (with `indexerUrl`) the
 * indexer, and applies the policy. Facts that cannot run are `not-observed`,
 * never `verified`.
 *
 * @returns the report (`bench-bounty.verification.v1`); a wrong award is failed facts, not an exception
 * @throws VerifierInputError bad input (not JSON, missing keys, wrong types, values beyond the limits, an unknown policy)
 * @throws VerifierNetworkError the pack, the RPC or the indexer cannot be read
 * @throws VerificationDeadlineError (a VerifierNetworkError) the verification did not end within `deadlineMs`
 */
export function verifyPack(options: VerifyPackOptions): Promise<VerificationReport> {
  return withinDeadline(options.deadlineMs, (signal, overdue) => verifyPackWithin(options, signal, overdue));
}

async function verifyPackWithin(
  options: VerifyPackOptions,
  signal: AbortSignal,
  overdue: () => void,
): Promise<VerificationReport> {
  const policy = options.policy ?? "offline";
  if (parsePolicy(policy) === null)
    throw new VerifierInputError(
      "bad_option",
      "--policy",
      `unknown policy ${JSON.stringify(policy)} (offline, onchain, full)`,
    );
  const src = await readSource(options.source, {
    maxBytes: options.limits?.maxBytes,
    stdin: options.stdin,
    what: "pack",
    timeoutMs: options.timeoutMs,
    signal,
  });
  const kib = Math.ceil(src.bytes.byteLength / 1024);
  options.onProgress?.({ phase: "parse", done: 0, total: kib });
  const spans = new Map<object, CanonicalSpan>();
  const doc = parsePackBytes(src.bytes, spans);
  overdue();
  options.onProgress?.({ phase: "parse", done: kib, total: kib });
  const view = readPack(doc, { limits: { maxStringLength: options.limits?.maxStringLength } });
  view.canonical = { bytes: src.bytes, spans };
  const givenReceipts = await readReceipts(view, options, signal);
  overdue();
  return verifyPackView(view, {
    ...options,
    policy,
    sourceLabel: src.label,
    sourceBytes: src.bytes.byteLength,
    signal,
    overdue,
    givenReceipts,
  });
}

/**
 * The `receipts` of {@link VerifyPackOptions}, read and checked against the pack (`readGivenReceipt`).
 * Standard input is read once: `-` for a receipt when the pack is read from it, or for two receipts, is
 * refused.
 * @throws VerifierInputError (exit 2) naming `--receipt`; VerifierNetworkError a receipt cannot be read
 */
async function readReceipts(
  view: PackView,
  options: VerifyPackOptions,
  signal: AbortSignal,
): Promise<GivenReceipt[]> {
  const sources = options.receipts ?? [];
  const stdinUses = [options.source, ...sources].filter((s) => s === "-").length;
  if (stdinUses > 1)
    throw new VerifierInputError(
      "bad_option",
      "--receipt",
      "- (standard input) is given for more than one document (the pack and the receipts): read only one of them from it",
    );
  const given: GivenReceipt[] = [];
  for (const source of sources) {
    const r = await readSource(source, {
      maxBytes: options.limits?.maxBytes,
      stdin: options.stdin,
      what: "receipt",
      timeoutMs: options.timeoutMs,
      signal,
    });
    let doc: JsonValue;
    try {
      doc = parsePackBytes(r.bytes);
    } catch (e) {
      if (!isVerifierInputError(e)) throw e;
      throw new VerifierInputError(e.code, "--receipt", `${r.label}: ${e.message}`);
    }
    given.push(readGivenReceipt(doc, r.label, view));
  }
  return given;
}

/**
 * Verify an already read pack view (the steps after parsing; used by {@link verifyPack} and the benchmark).
 * @throws VerifierNetworkError the RPC or the indexer cannot be read
 */
export async function verifyPackView(
  view: PackView,
  options: Omit<VerifyPackOptions, "source"> & {
    sourceLabel?: string;
    sourceBytes?: number;
    /** Aborts every request (the total deadline of {@link verifyPack}). */
    signal?: AbortSignal;
    /** Throws `VerificationDeadlineError` once the total deadline has passed (checked between steps). */
    overdue?: () => void;
    /** The competitor's receipts, read (`readGivenReceipt`): given, `receipt_inclusion` is reported. */
    givenReceipts?: readonly GivenReceipt[];
  },
): Promise<VerificationReport> {
  const policy = options.policy ?? "offline";
  const offline = verifyOffline(view, options.onProgress, options.overdue);

  let chainFacts = chainNotObserved();
  let observation: ChainObservation | null = null;
  if (options.rpcUrl !== undefined) {
    const r = await verifyOnchain(view, offline.derived, {
      rpcUrl: options.rpcUrl,
      timeoutMs: options.timeoutMs,
      onProgress: options.onProgress,
      signal: options.signal,
      givenReceiptHashes: (options.givenReceipts ?? []).map((g) => g.hash),
    });
    chainFacts = r.facts;
    observation = r.observation;
  }
  const indexerFact =
    options.indexerUrl === undefined
      ? indexerNotObserved()
      : await verifyIndexer(view, offline.derived, observation, {
          indexerUrl: options.indexerUrl,
          timeoutMs: options.timeoutMs,
          onProgress: options.onProgress,
          signal: options.signal,
        });

  const all: Record<FactName, Fact> = { ...offline.facts, ...chainFacts, indexer_agreement: indexerFact };
  const facts = {} as VerificationReport["facts"];
  for (const n of FACT_NAMES) facts[n] = all[n];
  const states = {} as Record<FactName, FactState>;
  for (const n of FACT_NAMES) states[n] = facts[n].state;
  const given = options.givenReceipts ?? [];
  if (given.length > 0) facts.receipt_inclusion = receiptInclusionFact(view, given, observation);
  const evaluation = evaluatePolicy(
    policy,
    states,
    facts.receipt_inclusion ? { receipt_inclusion: facts.receipt_inclusion.state } : {},
  );
  const b = view.benchmark;
  return {
    schema: REPORT_SCHEMA,
    policy,
    policy_met: evaluation.met,
    policy_requires: evaluation.requires,
    policy_unmet: evaluation.unmet,
    subject: {
      slug: b.slug,
      bounty_id: b.bounty_id,
      chain_id: b.chain_id,
      bounty_contract: b.bounty_contract,
    },
    facts,
    values: offline.values,
    observed: {
      pack: options.sourceLabel ?? "view",
      pack_bytes: options.sourceBytes ?? 0,
      // origins only: a provider's key is in the userinfo, path or query (probe10 R2; serve stored the same)
      rpc: options.rpcUrl !== undefined ? urlOrigin(options.rpcUrl) : null,
      rpc_chain_id: observation?.chainId ?? null,
      indexer: options.indexerUrl !== undefined ? urlOrigin(options.indexerUrl) : null,
    },
    verifier: { name: VERIFIER_NAME, version: VERIFIER_VERSION },
  };
}
