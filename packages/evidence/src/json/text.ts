/**
 * `spec/SPEC.md` section 2: the string rules both the parser and the serializer
 * follow: code-point key order, well-formed text (no unpaired surrogate), UTF-8.
 * @packageDocumentation
 */
const utf8Encoder = new TextEncoder();

/**
 * Compare two strings by Unicode code point (Python's `str` order), not by
 * UTF-16 code unit (JavaScript's `<`): U+E000..U+FFFF sort before astral
 * characters.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        // surrogates (astral) sort after U+E000..U+FFFF
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/**
 * True when a string has no unpaired UTF-16 surrogate, i.e. it has a UTF-8 encoding
 * (`String.prototype.isWellFormed` where the runtime has it).
 */
export const isWellFormedText: (s: string) => boolean =
  typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === "function"
    ? (s) => (s as unknown as { isWellFormed(): boolean }).isWellFormed()
    : (s) => !/(?:[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/.test(s);

/** UTF-8 bytes of a (well-formed) string. */
export function utf8(s: string): Uint8Array {
  return utf8Encoder.encode(s);
}
