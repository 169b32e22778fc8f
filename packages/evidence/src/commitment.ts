/**
 * `spec/SPEC.md` section 3: the test-set commitment (prompt hashes, gold leaves, leaves, the
 * Merkle root pinned with the leaf count, inclusion proofs).
 *
 * ```
 * prompt_hash = hex(keccak256(utf8(prompt)))                         // bare lowercase hex
 * gold_leaf   = hex(keccak256(canonical_json(gold) || utf8(salt)))   // salt's own 64 characters
 * leaf        = keccak256(canonical_json({"ordinal": i, "prompt_hash": .., "gold_leaf": ..}))
 * parent      = keccak256(left || right)       // raw 32-byte values; odd level duplicates its last node
 * ```
 * @packageDocumentation
 */
import { keccak256Bytes, keccak256Utf8 } from "./keccak.js";
import { EvidenceError, appendPath, describeValue, formatPath } from "./errors.js";
import { BARE_HEX64, DIGEST } from "./formats.js";
import { type Hex, hexToBytes, toBareHex as bytesToHex } from "./hash.js";
import { isWellFormedText, type JsonValue } from "./json/index.js";
import { withCanonicalJsonHex64 } from "./json/serializer.js";

/** Task visibility (SPEC 3). */
export type Visibility = "public" | "private";

/**
 * One row of a test set (SPEC 3), as revealed in the pack's `test_set`.
 * `ordinal` is the row's index (array order is ordinal order).
 */
export interface TestSetRow {
  /** 0-based index of the row; must equal its array position. */
  ordinal: number;
  /** The task prompt shown to agents (hashed as UTF-8). */
  prompt: string;
  /** Gold answer in the grader's shape (SPEC 5). */
  gold: JsonValue;
  /** 64 lowercase hex characters; hashed as its own ASCII characters (not hex-decoded). */
  salt: string;
  /** `public` or `private`. */
  visibility: Visibility;
  /** `exact`, `numeric`, `contains_all` or `json_fields` (SPEC 5). */
  grader_type: string;
}

/** Per-row values derived by the commitment. */
export interface DerivedLeaf {
  ordinal: number;
  /** bare hex */
  prompt_hash: string;
  /** bare hex */
  gold_leaf: string;
  /** `0x` hex */
  leaf: Hex;
}

/** Result of {@link commitTestSet}. */
export interface TestSetCommitment {
  /** Merkle root, `0x` + 64 lowercase hex. */
  root: Hex;
  /** Number of rows (pinned together with the root). */
  leafCount: number;
  /** Leaf digests in ordinal order (`0x` hex). */
  leaves: Hex[];
  /** prompt_hash / gold_leaf / leaf per row, in ordinal order. */
  derived: DerivedLeaf[];
}

/** An inclusion proof: the sibling at every level from the leaves up, and the leaf index. */
export interface MerkleProof {
  /** 0-based leaf index. */
  index: number;
  /** Sibling digests from the leaf level up (`0x` hex); the last node of an odd level is its own sibling. */
  siblings: Hex[];
}

/**
 * `prompt_hash = hex(keccak256(utf8(prompt)))`, bare lowercase hex (SPEC 3).
 * @param path JSON path of the prompt, for errors
 * @throws EvidenceError `bad_test_set` for a prompt that is not a string, `lone_surrogate` for one that
 *   holds an unpaired UTF-16 surrogate (it has no UTF-8 encoding, and the pack could not carry it)
 */
export function promptHash(prompt: string, path = "$"): string {
  if (typeof prompt !== "string")
    throw new EvidenceError("bad_test_set", path, `a prompt must be a string, got ${describeValue(prompt)}`);
  if (!isWellFormedText(prompt))
    throw new EvidenceError(
      "lone_surrogate",
      path,
      "the prompt holds an unpaired UTF-16 surrogate: it has no UTF-8 encoding",
    );
  return bytesToHex(keccak256Utf8(prompt));
}

/**
 * `gold_leaf = hex(keccak256(canonical_json(gold) || utf8(salt)))`, bare hex (SPEC 3).
 * @param salt 64 lowercase hex characters (hashed as text, not decoded)
 * @throws EvidenceError `bad_test_set` for a malformed salt; canonical-JSON errors for bad gold
 */
export function goldLeaf(gold: unknown, salt: string, path = "$"): string {
  const badSalt = (): EvidenceError =>
    new EvidenceError("bad_test_set", appendPath(path, "salt"), "salt must be 64 lowercase hex characters");
  if (typeof salt !== "string" || salt.length !== 64) throw badSalt();
  let digest: Uint8Array | undefined;
  try {
    // canonical_json(gold) || utf8(salt), written as bytes in the serializer's buffer; the salt's
    // format is checked as it is copied there (no second pass over it)
    digest = withCanonicalJsonHex64(gold, keccak256Bytes, salt);
  } catch (e) {
    // a bad salt is named before bad gold, as when the salt was checked first
    if (!BARE_HEX64.test(salt)) throw badSalt();
    throw rebase(e, appendPath(path, "gold"));
  }
  if (digest === undefined) throw badSalt();
  return bytesToHex(digest);
}

/**
 * The leaf preimage `canonical_json({"gold_leaf", "ordinal", "prompt_hash"})`
 * (SPEC 3: keys in code-point order, no whitespace, hex needs no escaping) is
 * written byte by byte into this reused buffer: it is ASCII, so no string is
 * built and no UTF-8 encoder runs (hashing is synchronous: one leaf at a time).
 * Longest preimage: 14 + 64 + 12 + 17 (`-` and 16 digits) + 16 + 64 + 2 bytes.
 */
const LEAF_PREIMAGE = new Uint8Array(192);
const asciiBytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));
const LEAF_HEAD = asciiBytes('{"gold_leaf":"');
const LEAF_ORDINAL = asciiBytes('","ordinal":');
/** `,"prompt_hash":"` and, after the 64 hex characters, `"}`. */
const LEAF_PROMPT = asciiBytes(',"prompt_hash":"');
const LEAF_TAIL = asciiBytes('"}');
/** Where the gold leaf's hex starts, and where the ordinal's digits start: fixed, so the head is written once. */
const GOLD_AT = LEAF_HEAD.length;
const ORDINAL_AT = GOLD_AT + 64 + LEAF_ORDINAL.length;
LEAF_PREIMAGE.set(LEAF_HEAD, 0);
LEAF_PREIMAGE.set(LEAF_ORDINAL, GOLD_AT + 64);

/** Copy 64 lowercase hex characters to `LEAF_PREIMAGE[at..at+64)`; false for anything else. */
function writeHex64(hex: string, at: number): boolean {
  if (typeof hex !== "string" || hex.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = hex.charCodeAt(i);
    if ((c < 0x30 || c > 0x39) && (c < 0x61 || c > 0x66)) return false;
    LEAF_PREIMAGE[at + i] = c;
  }
  return true;
}

/** Copy a short constant to `LEAF_PREIMAGE[at..)` (a loop: cheaper than `set` for a few bytes). */
function writeConst(bytes: Uint8Array, at: number): number {
  for (let i = 0; i < bytes.length; i++) LEAF_PREIMAGE[at + i] = bytes[i] as number;
  return at + bytes.length;
}

/**
 * Leaf digest from its parts (SPEC 3), as raw bytes:
 * `keccak256(canonical_json({"ordinal": ordinal, "prompt_hash": .., "gold_leaf": ..}))`.
 * @param ordinal a safe integer (the row's ordinal)
 * @param promptHashHex bare 64 lowercase hex, as {@link promptHash} returns it
 * @param goldLeafHex bare 64 lowercase hex, as {@link goldLeaf} returns it
 * @throws EvidenceError `bad_test_set` for an ordinal that is not a safe integer or a part that is not 64 lowercase hex
 */
export function leafFromParts(ordinal: number, promptHashHex: string, goldLeafHex: string): Uint8Array {
  if (!Number.isSafeInteger(ordinal))
    throw new EvidenceError(
      "bad_test_set",
      "$.ordinal",
      `the ordinal must be a safe integer, got ${describeValue(ordinal)}`,
    );
  const buf = LEAF_PREIMAGE;
  // LEAF_HEAD and LEAF_ORDINAL are in place already (fixed offsets)
  if (!writeHex64(goldLeafHex, GOLD_AT))
    throw new EvidenceError("bad_test_set", "$.gold_leaf", "gold_leaf must be 64 lowercase hex characters");
  let at = ORDINAL_AT;
  let v = ordinal;
  if (v < 0) {
    buf[at++] = 0x2d; // "-"
    v = -v;
  }
  let digits = 1;
  for (let t = v; t >= 10; t = Math.floor(t / 10)) digits++;
  for (let d = digits - 1, t = v; d >= 0; d--, t = Math.floor(t / 10)) buf[at + d] = 0x30 + (t % 10);
  at += digits;
  at = writeConst(LEAF_PROMPT, at);
  if (!writeHex64(promptHashHex, at))
    throw new EvidenceError(
      "bad_test_set",
      "$.prompt_hash",
      "prompt_hash must be 64 lowercase hex characters",
    );
  at = writeConst(LEAF_TAIL, at + 64);
  return keccak256Bytes(buf.subarray(0, at));
}

/**
 * The leaf of a test-set row: `keccak256(canonical_json({ordinal, prompt_hash, gold_leaf}))`.
 * @returns `0x` + 64 lowercase hex
 * @throws EvidenceError for a malformed row
 */
export function leafHash(row: TestSetRow, path = "$"): Hex {
  checkRowShape(row, row?.ordinal, path);
  return `0x${bytesToHex(leafFromParts(row.ordinal, promptHash(row.prompt, appendPath(path, "prompt")), goldLeaf(row.gold, row.salt, path)))}`;
}

function checkRowShape(row: TestSetRow, expectedOrdinal: number, path: string): void {
  if (typeof row !== "object" || row === null || Array.isArray(row))
    throw new EvidenceError("bad_test_set", path, "a test-set row must be an object");
  if (typeof row.ordinal !== "number" || !Number.isSafeInteger(row.ordinal) || row.ordinal < 0)
    throw new EvidenceError(
      "bad_test_set",
      appendPath(path, "ordinal"),
      "ordinal must be a non-negative integer",
    );
  if (row.ordinal !== expectedOrdinal)
    throw new EvidenceError(
      "bad_test_set",
      appendPath(path, "ordinal"),
      `ordinal ${row.ordinal} at position ${expectedOrdinal} (ordinals must be exactly 0..n-1 in order)`,
    );
  if (typeof row.prompt !== "string")
    throw new EvidenceError("bad_test_set", appendPath(path, "prompt"), "prompt must be a string");
  if (!("gold" in row) || row.gold === undefined)
    throw new EvidenceError("bad_test_set", appendPath(path, "gold"), "gold is missing");
}

function rebase(e: unknown, path: string): unknown {
  if (e instanceof EvidenceError) {
    const sub = e.path === "$" ? "" : e.path.slice(1);
    return new EvidenceError(e.code, path + sub, e.message.replace(/^\$[^:]*: /, ""));
  }
  return e;
}

/** A leaf as bytes: 32 bytes as given, or `0x` + 64 hex characters (either case) decoded. */
function toLeafBytes(leaf: Hex | Uint8Array | string, path: string): Uint8Array {
  if (leaf instanceof Uint8Array) {
    if (leaf.length !== 32) throw new EvidenceError("schema", path, "a leaf must be 32 bytes");
    return leaf;
  }
  if (typeof leaf !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(leaf))
    throw new EvidenceError(
      "schema",
      path,
      `a leaf must be 0x + 64 hex characters or 32 bytes, got ${describeValue(leaf)}`,
    );
  return hexToBytes(leaf, path);
}

/** The leaves argument must be an array (of `0x` hex digests or 32-byte arrays). */
function leafArray<T>(leaves: readonly T[]): readonly T[] {
  if (!Array.isArray(leaves))
    throw new EvidenceError("schema", "$", `leaves must be an array, got ${describeValue(leaves)}`);
  return leaves;
}

/** Every element of `leaves` as bytes; a hole (`[a, , b]`) is refused like `undefined`. */
function leavesAsBytes(leaves: readonly (Hex | string | Uint8Array)[]): Uint8Array[] {
  const list = leafArray(leaves);
  const out: Uint8Array[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) out[i] = toLeafBytes(list[i] as Hex, formatPath([i]));
  return out;
}

function hashPair(buf: Uint8Array, a: Uint8Array, b: Uint8Array): Uint8Array {
  buf.set(a, 0);
  buf.set(b, 32);
  return keccak256Bytes(buf);
}

/**
 * Fold `n` 32-byte nodes laid end to end in `flat` (bytes `[32i, 32i+32)` are node `i`)
 * to the Merkle root (SPEC 3), in place: a level's pair `2j, 2j+1` is already
 * `left || right` in memory, so it is hashed where it lies and the parent is
 * written over node `j`; an odd level's last node is hashed with a copy of itself.
 * @returns a fresh 32-byte root (`flat` is overwritten)
 */
function foldInPlace(flat: Uint8Array, n: number): Uint8Array {
  const pair = new Uint8Array(64);
  for (let width = n; width > 1; width = Math.ceil(width / 2)) {
    const pairs = width >> 1;
    for (let j = 0; j < pairs; j++) flat.set(keccak256Bytes(flat.subarray(64 * j, 64 * j + 64)), 32 * j);
    if (width % 2 === 1) {
      const last = flat.subarray(32 * (width - 1), 32 * width);
      pair.set(last, 0);
      pair.set(last, 32);
      flat.set(keccak256Bytes(pair), 32 * pairs);
    }
  }
  return flat.slice(0, 32);
}

/**
 * Merkle root of raw 32-byte leaves (SPEC 3 fold): `parent = keccak256(left || right)`,
 * an odd level duplicates its last node, one leaf is its own root. The leaves are not modified.
 * @throws EvidenceError `bad_test_set` for zero leaves, `schema` for a leaf that is not 32 bytes
 */
export function merkleRootBytes(leaves: readonly Uint8Array[]): Uint8Array {
  leafArray(leaves);
  if (leaves.length === 0) throw new EvidenceError("bad_test_set", "$", "zero leaves have no root");
  const flat = new Uint8Array(32 * leaves.length);
  for (let i = 0; i < leaves.length; i++) {
    const leaf = leaves[i];
    if (!(leaf instanceof Uint8Array) || leaf.length !== 32)
      throw new EvidenceError(
        "schema",
        formatPath([i]),
        `a leaf must be 32 bytes (a Uint8Array), got ${leaf instanceof Uint8Array ? `${leaf.length} bytes` : describeValue(leaf)}`,
      );
    flat.set(leaf, 32 * i);
  }
  return foldInPlace(flat, leaves.length);
}

/**
 * Merkle root over leaves in ordinal order (SPEC 3): `parent = keccak256(left || right)`,
 * an odd level duplicates its last node, one leaf is its own root.
 * @param leaves `0x` hex digests or 32-byte arrays
 * @returns `0x` + 64 lowercase hex
 * @throws EvidenceError `bad_test_set` for zero leaves, `schema` for a malformed leaf
 */
export function merkleRoot(leaves: readonly (Hex | string | Uint8Array)[]): Hex {
  return `0x${bytesToHex(merkleRootBytes(leavesAsBytes(leaves)))}`;
}

/**
 * Inclusion proof of leaf `index` (SPEC 3): siblings from the leaf level up.
 * @throws EvidenceError `bad_proof` if the index is out of range
 */
export function merkleProof(leaves: readonly (Hex | string | Uint8Array)[], index: number): MerkleProof {
  leafArray(leaves);
  if (leaves.length === 0) throw new EvidenceError("bad_proof", "$", "zero leaves have no proof");
  if (!Number.isSafeInteger(index))
    throw new EvidenceError(
      "bad_proof",
      "$",
      `the leaf index must be an integer, got ${describeValue(index)}`,
    );
  if (index < 0 || index >= leaves.length)
    throw new EvidenceError("bad_proof", "$", `leaf index ${index} out of range 0..${leaves.length - 1}`);
  const buf = new Uint8Array(64);
  let level = leavesAsBytes(leaves);
  const siblings: Hex[] = [];
  let idx = index;
  while (level.length > 1) {
    const sib = idx % 2 === 0 ? (idx + 1 < level.length ? level[idx + 1] : level[idx]) : level[idx - 1];
    siblings.push(`0x${bytesToHex(sib as Uint8Array)}`);
    const next: Uint8Array[] = new Array(Math.ceil(level.length / 2));
    for (let i = 0, j = 0; i < level.length; i += 2, j++) {
      const left = level[i] as Uint8Array;
      next[j] = hashPair(buf, left, (i + 1 < level.length ? level[i + 1] : left) as Uint8Array);
    }
    level = next;
    idx >>= 1;
  }
  return { index, siblings };
}

/**
 * Check an inclusion proof against a root pinned with its leaf count (SPEC 3).
 * Strict: the number of siblings must equal the tree height for `leafCount`,
 * and where the node is the last of an odd level its sibling must be itself.
 * Never throws on malformed input: returns false.
 */
export function verifyProof(
  leaf: string | Uint8Array,
  proof: { index: number; siblings: readonly string[] },
  root: string,
  leafCount: number,
): boolean {
  try {
    if (!Number.isSafeInteger(leafCount) || leafCount < 1) return false;
    const { index, siblings } = proof;
    if (!Number.isSafeInteger(index) || index < 0 || index >= leafCount || !Array.isArray(siblings))
      return false;
    let node = toLeafBytes(leaf, "$");
    const buf = new Uint8Array(64);
    let n = leafCount;
    let idx = index;
    let s = 0;
    while (n > 1) {
      const sibHex = siblings[s++];
      if (sibHex === undefined) return false;
      const sib = toLeafBytes(sibHex, "$");
      if (idx % 2 === 0) {
        if (idx + 1 >= n && !bytesEqual(sib, node)) return false;
        node = hashPair(buf, node, sib);
      } else {
        node = hashPair(buf, sib, node);
      }
      idx >>= 1;
      n = Math.ceil(n / 2);
    }
    if (s !== siblings.length) return false;
    return bytesEqual(node, toLeafBytes(root.toLowerCase(), "$"));
  } catch {
    return false;
  }
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Commit a test set (SPEC 3): derive every row's prompt hash, gold leaf and
 * leaf, and fold the root. Ordinals must be exactly `0..n-1` in array order.
 *
 * This checks only what the hash needs (ordinal, prompt string, salt format,
 * gold canonicalisable); gold shapes are checked by `validateGold` at publish
 * time, and the pack schema checks the rest.
 *
 * @throws EvidenceError `bad_test_set` (path `$[i].field`) for zero rows, a bad ordinal or salt
 */
export function commitTestSet(rows: readonly TestSetRow[], path = "$"): TestSetCommitment {
  if (!Array.isArray(rows))
    throw new EvidenceError("bad_test_set", path, "the test set must be an array of rows");
  if (rows.length === 0)
    throw new EvidenceError(
      "bad_test_set",
      path,
      "a test set needs at least one row (zero leaves have no root)",
    );
  const n = rows.length;
  // leaf digests end to end: the fold runs in place, and no per-leaf array outlives its row
  const flat = new Uint8Array(32 * n);
  const leaves: Hex[] = new Array(n);
  const derived: DerivedLeaf[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i] as TestSetRow;
    let ph: string;
    let gl: string;
    try {
      // row-relative paths ("$.salt"); the row's own path is built only for an error
      checkRowShape(row, i, "$");
      ph = promptHash(row.prompt, "$.prompt");
      gl = goldLeaf(row.gold, row.salt);
    } catch (e) {
      throw rebase(e, appendPath(path, i));
    }
    const leaf = leafFromParts(i, ph, gl);
    flat.set(leaf, 32 * i);
    const hex: Hex = `0x${bytesToHex(leaf)}`;
    leaves[i] = hex;
    derived[i] = { ordinal: i, prompt_hash: ph, gold_leaf: gl, leaf: hex };
  }
  return { root: `0x${bytesToHex(foldInPlace(flat, n))}`, leafCount: n, leaves, derived };
}

/** True for a `0x` + 64 lowercase hex digest. */
export function isDigest(v: unknown): v is Hex {
  return typeof v === "string" && DIGEST.test(v);
}
