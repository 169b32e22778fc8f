/**
 * `spec/SPEC.md` section 8: the pack's digests, from its values or from the bytes it was served as.
 *
 * ```
 * pack_hash      = 0x + hex(keccak256(canonical_json({benchmark, test_set, winners, rank_derivation})))
 * ranking_digest = 0x + hex(keccak256(canonical_json(rank_derivation)))      // the award() argument
 * ```
 * The stored/served bytes of a pack are `canonicalJson(pack)` ({@link evidencePackBytes}).
 * @packageDocumentation
 */
import { EvidenceError, describeValue } from "../errors.js";
import { canonicalHash, toHex, type Hex } from "../hash.js";
import { canonicalJson, canonicalJsonSpans, utf8, type CanonicalSpan } from "../json/index.js";
import { keccak256Bytes } from "../keccak.js";
import { receiptHash, type Receipt } from "../receipts.js";
import type { EvidencePack, RankDerivation } from "../schemas.js";

/** The four hashed blocks of a pack, in SPEC order. */
export const HASHED_BLOCKS = ["benchmark", "test_set", "winners", "rank_derivation"] as const;

/**
 * `pack_hash = 0x + hex(keccak256(canonical_json({benchmark, test_set, winners, rank_derivation})))` (SPEC 8).
 * `pack_hash`, `pack_anchor` and `verify_hints` are not hashed.
 * @throws EvidenceError when a block has no canonical JSON (e.g. a missing block)
 */
export function packHash(pack: Pick<EvidencePack, (typeof HASHED_BLOCKS)[number]>): Hex {
  return canonicalHash(hashedBlocks(pack));
}

/** The four hashed blocks of a pack (SPEC 8), refusing a pack that is not an object or lacks one. */
function hashedBlocks(pack: Pick<EvidencePack, (typeof HASHED_BLOCKS)[number]>): Record<string, unknown> {
  if (typeof pack !== "object" || pack === null || Array.isArray(pack))
    throw new EvidenceError("schema", "$", `a pack must be an object, got ${describeValue(pack)}`);
  const hashed: Record<string, unknown> = {};
  for (const k of HASHED_BLOCKS) {
    if (pack[k] === undefined)
      throw new EvidenceError("schema", `$.${k}`, `the hashed block ${k} is missing`);
    hashed[k] = pack[k];
  }
  return hashed;
}

/** Result of {@link packHashes}. */
export interface PackHashes {
  /** as {@link packHash} */
  pack_hash: Hex;
  /** as {@link rankingDigest} of `rank_derivation` */
  ranking_digest: Hex;
  /**
   * {@link receiptHash} of every receipt object the pack carries
   * (`winners[].receipt`, `rank_derivation.rows[].receipt`), keyed by the object itself.
   */
  receipt_hashes: Map<object, Hex>;
}

/**
 * The pack hash, the ranking digest and every carried receipt's hash from one
 * canonical serialization of the hashed blocks (SPEC 4, SPEC 8): a receipt's
 * and the rank derivation's canonical JSON are byte ranges of the pack's, so
 * they are hashed from there instead of being serialized again. Same digests
 * as {@link packHash}, {@link rankingDigest} and {@link receiptHash}; reads
 * the pack loosely (whatever is an object where a receipt is due is hashed).
 *
 * With `source` (the bytes the pack was parsed from and the parser's canonical
 * spans), blocks and receipts whose served bytes are already canonical JSON are
 * hashed from those bytes, with no serialization at all; anything without a
 * canonical span is serialized as above. Same digests either way, provided the
 * parsed pack was not edited after parsing: the spans are keyed by the parsed
 * objects and point into `source.bytes`, so an edit inside a block is not seen
 * (hash an edited pack without `source`).
 * @throws EvidenceError as {@link packHash}
 */
export function packHashes(
  pack: Pick<EvidencePack, (typeof HASHED_BLOCKS)[number]>,
  source?: CanonicalSource,
): PackHashes {
  const hashed = hashedBlocks(pack);
  if (source !== undefined) {
    if (
      typeof source !== "object" ||
      source === null ||
      !(source.bytes instanceof Uint8Array) ||
      !(source.spans instanceof Map)
    )
      throw new EvidenceError(
        "schema",
        "$",
        "source must be { bytes: Uint8Array, spans: Map } as parseJson's canonicalSpans option fills them",
      );
    const fromSource = packHashesFromSource(pack, source);
    if (fromSource !== null) return fromSource;
  }
  const isObject = (v: unknown): v is object => typeof v === "object" && v !== null;
  const receipts = carriedReceipts(pack);
  const rd = pack.rank_derivation as unknown;
  const targets = new Set<object>(receipts);
  if (isObject(rd)) targets.add(rd);
  const { bytes, spans } = canonicalJsonSpans(hashed, targets);
  const hashOf = (o: object): Hex | undefined => {
    const sp = spans.get(o);
    return sp === undefined ? undefined : toHex(keccak256Bytes(bytes.subarray(sp.start, sp.end)));
  };
  const receipt_hashes = new Map<object, Hex>();
  for (const r of receipts) receipt_hashes.set(r, hashOf(r) ?? receiptHash(r as Receipt));
  return {
    pack_hash: toHex(keccak256Bytes(bytes)),
    ranking_digest: (isObject(rd) ? hashOf(rd) : undefined) ?? canonicalHash(rd),
    receipt_hashes,
  };
}

/**
 * The bytes a pack was parsed from and the spans of its containers whose
 * bytes are already canonical JSON ({@link parseJson} with `canonicalSpans`;
 * `maxDepth: 1` and `keys: {"receipt"}` cover everything {@link packHashes} hashes).
 */
export interface CanonicalSource {
  bytes: Uint8Array;
  spans: ReadonlyMap<object, CanonicalSpan>;
}

/** `{"benchmark":`, `,"rank_derivation":`, `,"test_set":`, `,"winners":`, `}`: the hashed object's frame. */
const HASHED_FRAME = ["benchmark", "rank_derivation", "test_set", "winners"].map((k, i) =>
  utf8(`${i === 0 ? "{" : ","}${JSON.stringify(k)}:`),
);
const CLOSE_BRACE = utf8("}");

/**
 * {@link packHashes} from the served bytes: when each hashed block's source bytes are its
 * canonical JSON (checked by the parser), `canonical_json({benchmark, test_set, winners,
 * rank_derivation})` is those bytes in key order inside the object's frame, and the rank
 * derivation's and every receipt's canonical JSON is its own span. Null when a block has no
 * canonical span (then the blocks are serialized).
 */
function packHashesFromSource(
  pack: Pick<EvidencePack, (typeof HASHED_BLOCKS)[number]>,
  source: CanonicalSource,
): PackHashes | null {
  const blocks = [pack.benchmark, pack.rank_derivation, pack.test_set, pack.winners] as unknown[];
  const ranges: CanonicalSpan[] = [];
  for (const b of blocks) {
    const sp = typeof b === "object" && b !== null ? source.spans.get(b) : undefined;
    if (sp === undefined) return null;
    ranges.push(sp);
  }
  let size = CLOSE_BRACE.length;
  ranges.forEach((r, i) => (size += HASHED_FRAME[i]!.length + r.end - r.start));
  const bytes = new Uint8Array(size);
  let at = 0;
  ranges.forEach((r, i) => {
    bytes.set(HASHED_FRAME[i]!, at);
    at += HASHED_FRAME[i]!.length;
    bytes.set(source.bytes.subarray(r.start, r.end), at);
    at += r.end - r.start;
  });
  bytes.set(CLOSE_BRACE, at);
  const spanHash = (o: object): Hex | undefined => {
    const sp = source.spans.get(o);
    return sp === undefined ? undefined : toHex(keccak256Bytes(source.bytes.subarray(sp.start, sp.end)));
  };
  const receipt_hashes = new Map<object, Hex>();
  for (const r of carriedReceipts(pack)) receipt_hashes.set(r, spanHash(r) ?? receiptHash(r as Receipt));
  return {
    pack_hash: toHex(keccak256Bytes(bytes)),
    ranking_digest: spanHash(pack.rank_derivation as object) ?? canonicalHash(pack.rank_derivation),
    receipt_hashes,
  };
}

/** Every object where a receipt is due (`winners[].receipt`, `rank_derivation.rows[].receipt`), read loosely. */
function carriedReceipts(pack: Pick<EvidencePack, (typeof HASHED_BLOCKS)[number]>): Set<object> {
  const isObject = (v: unknown): v is object => typeof v === "object" && v !== null;
  const receipts = new Set<object>();
  const loose = pack as unknown as { winners?: unknown; rank_derivation?: { rows?: unknown } };
  for (const list of [
    loose.winners,
    isObject(loose.rank_derivation) ? loose.rank_derivation.rows : undefined,
  ])
    if (Array.isArray(list))
      for (const item of list)
        if (isObject(item) && isObject((item as { receipt?: unknown }).receipt))
          receipts.add((item as { receipt: object }).receipt);
  return receipts;
}

/**
 * `ranking_digest = 0x + hex(keccak256(canonical_json(rank_derivation)))` (SPEC 1.1 award, SPEC 8).
 */
export function rankingDigest(rankDerivation: RankDerivation | Record<string, unknown>): Hex {
  if (typeof rankDerivation !== "object" || rankDerivation === null || Array.isArray(rankDerivation))
    throw new EvidenceError(
      "schema",
      "$",
      `a rank derivation must be an object, got ${describeValue(rankDerivation)}`,
    );
  return canonicalHash(rankDerivation);
}

/** The bytes a pack is stored and served as: its canonical JSON. */
export function evidencePackBytes(pack: EvidencePack): Uint8Array {
  return canonicalJson(pack);
}
