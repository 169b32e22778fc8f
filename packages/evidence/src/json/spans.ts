/**
 * `spec/SPEC.md` section 2: canonical spans. Canonical JSON is context-free, so
 * the canonical bytes of a container inside a document are a byte range of the
 * document's canonical bytes; the parser records the ranges of containers whose
 * source bytes are already canonical, and the serializer the ranges of the
 * targets it is asked for, so that a pack, its rank derivation and its receipts
 * are hashed from one set of bytes.
 * @packageDocumentation
 */
import { Buffer } from "node:buffer";

/** Where a sub-value's canonical JSON lies in its parent's canonical bytes: `bytes.subarray(start, end)`. */
export interface CanonicalSpan {
  start: number;
  end: number;
}

/**
 * Which containers {@link parseJson} records in {@link ParseOptions.canonicalSpans},
 * and where. A container is recorded only when its source text is exactly the
 * canonical JSON of its value: no whitespace, keys in code-point order, no
 * escape in any string or key, every number written as the serializer writes
 * it. Then `input.subarray(start, end)` equals `canonicalJson(value)` byte for
 * byte (the input is valid UTF-8, which the parser checks).
 */
export interface CanonicalSpanRequest {
  /** Record containers nested at most this deep (the root is depth 0). */
  maxDepth: number;
  /** Also record containers that are the value of one of these object keys, at any depth. */
  keys?: ReadonlySet<string>;
  /** Filled by the parser: container (by identity) -> its byte range in the input. */
  out: Map<object, CanonicalSpan>;
}

/**
 * True when the 4 characters at `at` are the hex of a `\u` escape the canonical form writes:
 * lowercase, a C0 control other than \b \t \n \f \r (which have short escapes).
 */
export function isCanonicalUnicodeEscape(t: string, at: number): boolean {
  if (t.charCodeAt(at) !== 0x30 || t.charCodeAt(at + 1) !== 0x30) return false;
  const hi = t.charCodeAt(at + 2);
  const lo = t.charCodeAt(at + 3);
  if (hi !== 0x30 && hi !== 0x31) return false;
  const loVal = lo >= 0x30 && lo <= 0x39 ? lo - 0x30 : lo >= 0x61 && lo <= 0x66 ? lo - 0x61 + 10 : -1;
  if (loVal < 0) return false;
  const u = (hi - 0x30) * 16 + loVal;
  return u !== 0x08 && u !== 0x09 && u !== 0x0a && u !== 0x0c && u !== 0x0d;
}

/** Turn text offsets into UTF-8 byte offsets of `bytes` (the encoding of `text`) and record them. */
export function recordByteSpans(
  text: string,
  bytes: Uint8Array,
  textSpans: { node: object; start: number; end: number }[],
  out: Map<object, CanonicalSpan>,
): void {
  if (bytes.length === text.length) {
    // all ASCII: one byte per code unit
    for (const sp of textSpans) out.set(sp.node, { start: sp.start, end: sp.end });
    return;
  }
  // one pass over the text in offset order, counting the UTF-8 bytes between offsets
  const offsets = new Set<number>();
  for (const sp of textSpans) {
    offsets.add(sp.start);
    offsets.add(sp.end);
  }
  const sorted = [...offsets].sort((a, b) => a - b);
  const byteAt = new Map<number, number>();
  let prevText = 0;
  let prevByte = 0;
  for (const off of sorted) {
    prevByte += Buffer.byteLength(text.slice(prevText, off), "utf8");
    prevText = off;
    byteAt.set(off, prevByte);
  }
  for (const sp of textSpans)
    out.set(sp.node, { start: byteAt.get(sp.start) as number, end: byteAt.get(sp.end) as number });
}
