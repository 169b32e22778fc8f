/**
 * `spec/SPEC.md` section 2: the lossless, strict JSON parser. It is protocol
 * (which duplicates are refused, which error code a document gets, where the
 * path points), iterative (an explicit stack: nesting deeper than
 * {@link MAX_JSON_DEPTH} is `nesting_too_deep`, never a stack overflow), and
 * counts every departure from the canonical form so that it can record
 * canonical spans (`spans.ts`).
 * @packageDocumentation
 */
import { Buffer, isAscii, isUtf8 } from "node:buffer";
import {
  EvidenceError,
  MAX_JSON_DEPTH,
  appendPath,
  describeValue,
  formatPath,
  type PathSegment,
} from "../errors.js";
import { pyFloatRepr } from "./float.js";
import { isCanonicalUnicodeEscape, recordByteSpans, type CanonicalSpanRequest } from "./spans.js";
import { compareCodePoints } from "./text.js";
import { JsonFloat, type JsonObject, type JsonValue } from "./value.js";

/**
 * Decode strict UTF-8 (invalid bytes are a `TypeError`, a BOM stays a U+FEFF character).
 * Node's validators (`isAscii`, `isUtf8`) and its decoder are several times faster than a
 * fatal `TextDecoder` on large documents; the result is the same string.
 */
function validateUtf8(bytes: Uint8Array): { buf: Buffer; ascii: boolean } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(buf)) return { buf, ascii: true };
  if (!isUtf8(buf)) throw new TypeError("The encoded data was not valid for encoding utf-8");
  return { buf, ascii: false };
}

/** Options of {@link parseJson}. */
export interface ParseOptions {
  /** Maximum nesting depth (default {@link MAX_JSON_DEPTH}). */
  maxDepth?: number;
  /**
   * Most members of one object (default: unbounded). Counted while parsing: the member past the
   * limit is refused `too_many_members` at its path before it is read, so a body of 300,000 keys
   * costs what `maxMembers` keys cost. For callers whose valid documents are small (request bodies).
   */
  maxMembers?: number;
  /** Most items of one array (default: unbounded); past it `too_many_items`, counted while parsing. */
  maxItems?: number;
  /**
   * Most values of the whole document (default: unbounded): every member of every object and every
   * item of every array counts one (the root none). Past it `too_many_values`, counted while
   * parsing: many objects each under `maxMembers` cost what `maxValues` values cost.
   */
  maxValues?: number;
  /**
   * Most DISTINCT member names of the whole document (default: unbounded). Counted while parsing
   * (a `Set` of the names met): the first name past it is `too_many_key_names` at its own path.
   * What a body of many objects costs is mostly its distinct names (each new name is a new object
   * shape for the engine, probe 7 N1: 1,175 objects of 255 distinct names parse in ~4-5x the time of
   * as many objects of one set of names), not its value count; a request whose schema has a
   * handful of names needs few.
   */
  maxKeyNames?: number;
  /** Root name used in error paths (default `$`). */
  root?: string;
  /**
   * Record where containers lie in the input when their source bytes are
   * already their canonical JSON (SPEC 2), so that a caller can hash those
   * bytes instead of serializing the values again. Only for `Uint8Array`
   * input (with a string input nothing is recorded).
   */
  canonicalSpans?: CanonicalSpanRequest;
}

interface Frame {
  /** true for an object */
  obj: boolean;
  value: JsonValue[] | JsonObject;
  /** current key (object) */
  key: string;
  /** current index (array) */
  index: number;
  /** text offset of the opening bracket, when the span is wanted; else -1 */
  start: number;
  /** the parser's defect count when the container opened */
  defects: number;
}

const NUMBER_RE = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
// Characters that end a run of plain string content: quote, backslash, C0 controls, surrogates.
const STRING_SPECIAL_RE = /["\\\u0000-\u001f\ud800-\udfff]/g;
// The same in a latin1 reading of UTF-8 bytes: quote, backslash, C0 controls, bytes >= 0x80.
const STRING_SPECIAL_LATIN1_RE = /["\\\u0000-\u001f\u0080-\u00ff]/g;
const hasOwn = Object.prototype.hasOwnProperty;

/** Slots of the parser's key cache (a power of two). */
const KEY_CACHE_SIZE = 1024;
/** Longest string value shared through the short-string cache (V8 copies strings this short). */
const SHORT_STRING = 12;
/** Characters of a string's plain run scanned by a loop before the RegExp takes over. */
const SHORT_RUN = 32;
/** Slots of the parser's short-string cache (a power of two). */
const SHORT_CACHE_SIZE = 4096;
/** The parsers' key caches (see `Parser.keyCache`): for string input, and for the latin1 reading of bytes. */
const KEY_CACHE_TEXT = new Array<string | undefined>(KEY_CACHE_SIZE);
const KEY_CACHE_LATIN1 = new Array<string | undefined>(KEY_CACHE_SIZE);
/** The parsers' short-string cache (see `Parser.shortCache`). */
const SHORT_CACHE = new Array<string | undefined>(SHORT_CACHE_SIZE);

/** A character for a message: quoted when printable ASCII, else its code point before it (`U+00E9 "é"`). */
function shownChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  return cp >= 0x20 && cp < 0x7f
    ? JSON.stringify(ch)
    : `U+${cp.toString(16).toUpperCase().padStart(4, "0")} ${JSON.stringify(ch)}`;
}

/** The same string, as the engine's internalized copy (a property key's own string). */
function internalized(key: string): string {
  const o: Record<string, number> = {};
  o[key] = 0;
  // a key "__proto__" set this way changes the prototype instead: it stays as read
  return Object.keys(o)[0] ?? key;
}

/** Define a key on a JSON object without ever touching the prototype (`__proto__` is just a key). */
function setKey(obj: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/**
 * Parse strict JSON (RFC 8259) losslessly, SPEC 2.
 *
 * - integers: exact; safe integers (|n| <= 2^53-1) as `number` (`-0` is `0`),
 *   larger as `bigint`; more than 78 digits: `integer_too_large`;
 * - a number with a fraction or an exponent: {@link JsonFloat} (lexeme kept);
 *   one that overflows binary64: `infinity`;
 * - `NaN`: `nan`; `Infinity` / `-Infinity`: `infinity`;
 * - a repeated key in one object (after unescaping): `duplicate_key`;
 * - an unpaired surrogate (escaped or raw): `lone_surrogate`;
 * - everything else that is not strict JSON (trailing commas, single quotes,
 *   raw control characters in strings, a BOM, invalid UTF-8 bytes, trailing
 *   data): `invalid_json`.
 *
 * @param input JSON text, or UTF-8 bytes
 * @returns the value; objects are plain objects with own keys
 * @throws EvidenceError with `code` and the JSON `path` of the offending value
 */
export function parseJson(input: string | Uint8Array, options: ParseOptions = {}): JsonValue {
  let text: string;
  // bytes holding non-ASCII: the text is their latin1 reading (one byte per code unit, a
  // one-byte string), and the strings that hold non-ASCII bytes are decoded on their own
  let utf8Bytes: Buffer | undefined;
  if (typeof input === "string") {
    text = input;
  } else if (!(input instanceof Uint8Array)) {
    throw new EvidenceError(
      "invalid_json",
      options.root ?? "$",
      `input must be a string or UTF-8 bytes (a Uint8Array), got ${describeValue(input)}`,
    );
  } else {
    try {
      const { buf, ascii } = validateUtf8(input);
      text = buf.toString("latin1");
      if (!ascii) utf8Bytes = buf;
    } catch (e) {
      if (e instanceof TypeError)
        throw new EvidenceError("invalid_json", options.root ?? "$", "input is not valid UTF-8");
      throw new EvidenceError(
        "too_large",
        options.root ?? "$",
        `document of ${input.length} bytes is too large to decode as one string`,
      );
    }
  }
  const wanted = typeof input === "string" ? undefined : options.canonicalSpans;
  const parser = new Parser(text, options.maxDepth ?? MAX_JSON_DEPTH, options.root ?? "$", wanted, utf8Bytes);
  parser.maxMembers = options.maxMembers ?? Infinity;
  parser.maxItems = options.maxItems ?? Infinity;
  parser.maxValues = options.maxValues ?? Infinity;
  if (options.maxKeyNames !== undefined && options.maxKeyNames !== Infinity) {
    parser.maxKeyNames = options.maxKeyNames;
    parser.keyNames = new Set();
  }
  const value = parser.parse();
  if (wanted !== undefined && parser.textSpans.length > 0)
    recordByteSpans(text, input as Uint8Array, parser.textSpans, wanted.out);
  return value;
}

class Parser {
  private pos = 0;
  /**
   * The open containers are `stack[0..depth)`. Frames are reused: a frame of a closed
   * container serves the next container opened at its depth (a pack opens a million
   * containers at a handful of depths).
   */
  private readonly stack: Frame[] = [];
  private depth = 0;
  private inKey = false;
  /**
   * Count of places where the source is not canonical JSON (whitespace, an escape, a key
   * out of order, a number not written as the serializer writes it). A container whose
   * span saw no new defect is canonical.
   */
  private defects = 0;
  /** Most members of one object ({@link ParseOptions.maxMembers}). */
  maxMembers = Infinity;
  /** Most items of one array ({@link ParseOptions.maxItems}). */
  maxItems = Infinity;
  /** Most values of the document ({@link ParseOptions.maxValues}). */
  maxValues = Infinity;
  /** Members and items attached so far (counted against {@link Parser.maxValues}). */
  values = 0;
  /** Most distinct member names ({@link ParseOptions.maxKeyNames}). */
  maxKeyNames = Infinity;
  /** The distinct member names met so far, when {@link Parser.maxKeyNames} is finite. */
  keyNames: Set<string> | undefined;
  /** Canonical containers recorded (text offsets), when spans are wanted. */
  readonly textSpans: { node: object; start: number; end: number }[] = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly root: string,
    private readonly spanRequest?: CanonicalSpanRequest,
    /**
     * The UTF-8 input when `text` is its latin1 reading (input bytes with non-ASCII): text
     * offsets are then byte offsets, and runs of bytes >= 0x80 (always whole UTF-8
     * sequences, the input being valid UTF-8) are decoded from here.
     */
    private readonly utf8Bytes?: Buffer,
  ) {
    this.specialRe = utf8Bytes === undefined ? STRING_SPECIAL_RE : STRING_SPECIAL_LATIN1_RE;
    this.keyCache = utf8Bytes === undefined ? KEY_CACHE_TEXT : KEY_CACHE_LATIN1;
  }

  /** The regex that ends a run of plain string content in `text`. */
  private readonly specialRe: RegExp;

  /** The character at text offset `at`, decoded when `text` is a latin1 reading (for messages). */
  private charAtForMessage(at: number): string {
    const c = this.text.charCodeAt(at);
    if (this.utf8Bytes === undefined || c < 0x80) return String.fromCharCode(c);
    let j = at + 1;
    while (j < this.text.length && (this.text.charCodeAt(j) & 0xc0) === 0x80) j++;
    return this.utf8Bytes.toString("utf8", at, j);
  }

  /** Text offset of a container opening at `at`, if its span is wanted (by depth or by its key); else -1. */
  private spanStart(at: number): number {
    const req = this.spanRequest;
    if (req === undefined) return -1;
    if (this.depth <= req.maxDepth) return at;
    const parent = this.stack[this.depth - 1] as Frame;
    return parent.obj && req.keys !== undefined && req.keys.has(parent.key) ? at : -1;
  }

  /** Path of the innermost open container (without its current key/index). */
  private containerPath(): string {
    const segs: PathSegment[] = [];
    const n = this.depth - 1;
    for (let i = 0; i < n; i++) {
      const f = this.stack[i] as Frame;
      segs.push(f.obj ? f.key : f.index);
    }
    return formatPath(segs, this.root);
  }

  private fail(
    code:
      | "invalid_json"
      | "duplicate_key"
      | "nesting_too_deep"
      | "too_many_members"
      | "too_many_items"
      | "too_many_values"
      | "too_many_key_names",
    message: string,
    key?: string,
  ): never {
    const p = this.containerPath();
    throw new EvidenceError(code, key === undefined ? p : appendPath(p, key), message);
  }

  private where(): string {
    return this.pos >= this.text.length ? "at end of input" : `at offset ${this.pos}`;
  }

  private skipWs(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    if (p !== this.pos) this.defects++;
    this.pos = p;
  }

  parse(): JsonValue {
    const t = this.text;
    const stack = this.stack;
    let value: JsonValue;
    outer: for (;;) {
      // ---- read one value starting at pos (after whitespace)
      this.skipWs();
      const c = t.charCodeAt(this.pos);
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (this.depth >= this.maxDepth)
          this.failHere("nesting_too_deep", `nesting deeper than ${this.maxDepth} levels`);
        const start = this.spanStart(this.pos);
        const defects = this.defects;
        this.pos++;
        this.skipWs();
        if (c === 0x7b) {
          const obj: JsonObject = {};
          if (t.charCodeAt(this.pos) === 0x7d) {
            this.pos++;
            value = obj;
            if (start >= 0 && this.defects === defects)
              this.textSpans.push({ node: obj, start, end: this.pos });
          } else {
            const frame = this.open(true, obj, start, defects);
            frame.key = this.readKey(obj);
            continue outer;
          }
        } else {
          const arr: JsonValue[] = [];
          if (t.charCodeAt(this.pos) === 0x5d) {
            this.pos++;
            value = arr;
            if (start >= 0 && this.defects === defects)
              this.textSpans.push({ node: arr, start, end: this.pos });
          } else {
            this.open(false, arr, start, defects);
            continue outer;
          }
        }
      } else {
        value = this.readScalar(c);
      }
      // ---- attach completed values and close containers
      for (;;) {
        if (this.depth === 0) break outer;
        const frame = stack[this.depth - 1] as Frame;
        if (++this.values > this.maxValues)
          this.fail(
            "too_many_values",
            `a document of more than ${this.maxValues} values (members and items; refused ${this.where()})`,
            frame.obj ? frame.key : undefined,
          );
        if (frame.obj) setKey(frame.value as JsonObject, frame.key, value);
        else (frame.value as JsonValue[]).push(value);
        this.skipWs();
        const d = t.charCodeAt(this.pos);
        if (d === 0x2c /* , */) {
          this.pos++;
          if (frame.obj) {
            // objects count their members in `index` (arrays: the item's index)
            if (++frame.index >= this.maxMembers)
              this.fail(
                "too_many_members",
                `an object of more than ${this.maxMembers} members (refused ${this.where()})`,
              );
            this.skipWs();
            const previous = frame.key;
            frame.key = this.readKey(frame.value as JsonObject);
            // canonical JSON sorts keys by code point (repeated keys are refused above)
            if (compareCodePoints(previous, frame.key) > 0) this.defects++;
          } else if (++frame.index >= this.maxItems) {
            this.fail(
              "too_many_items",
              `an array of more than ${this.maxItems} items (refused ${this.where()})`,
            );
          }
          continue outer;
        }
        if (d === (frame.obj ? 0x7d : 0x5d)) {
          this.pos++;
          value = frame.value;
          this.depth--;
          if (frame.start >= 0 && this.defects === frame.defects)
            this.textSpans.push({ node: value, start: frame.start, end: this.pos });
          continue;
        }
        if (frame.obj) this.fail("invalid_json", `expected "," or "}" ${this.where()}`);
        else this.fail("invalid_json", `expected "," or "]" ${this.where()}`);
      }
    }
    this.skipWs();
    if (this.pos !== t.length)
      this.fail("invalid_json", `unexpected data after the JSON value ${this.where()}`);
    return value;
  }

  /** Enter a container: the frame at the new depth, reused when there is one. */
  private open(obj: boolean, value: JsonValue[] | JsonObject, start: number, defects: number): Frame {
    let frame = this.stack[this.depth];
    if (frame === undefined) {
      frame = { obj, value, key: "", index: 0, start, defects };
      this.stack.push(frame);
    } else {
      frame.obj = obj;
      frame.value = value;
      frame.key = "";
      frame.index = 0;
      frame.start = start;
      frame.defects = defects;
    }
    this.depth++;
    return frame;
  }

  /**
   * Keys met before, by a hash of their first character and length. A pack repeats a few
   * dozen keys millions of times: reusing the string already used as a property name spares
   * a copy (or a slice of the whole text) and its lookup in V8's string table per key. A hit
   * is verified character by character against the source (`startsWith`, then the closing
   * quote); only keys with no escape are cached, so the key read is exactly the same string.
   * The cache outlives a parse (small documents, e.g. a grader's JSON answers, would pay for
   * a fresh one each), one per kind of text: a latin1 reading of UTF-8 bytes and a string
   * spell a non-ASCII key differently.
   */
  private readonly keyCache: (string | undefined)[];

  /** Read `"key" :` inside an object (pos at the opening quote); refuses repeated keys. */
  private readKey(obj: JsonObject): string {
    const t = this.text;
    if (t.charCodeAt(this.pos) !== 0x22) this.fail("invalid_json", `expected a string key ${this.where()}`);
    const start = this.pos + 1;
    let key: string;
    // the first character and the position of the closing quote index the cache
    const slot = (t.charCodeAt(start) * 31 + t.charCodeAt(start + 1)) & (KEY_CACHE_SIZE - 1);
    const cached = this.keyCache[slot];
    if (cached !== undefined && t.charCodeAt(start + cached.length) === 0x22 && t.startsWith(cached, start)) {
      key = cached;
      this.pos = start + cached.length + 1;
    } else {
      this.inKey = true;
      key = this.readString();
      this.inKey = false;
      // cacheable: read without escapes (the source between the quotes is the key itself);
      // kept as V8's internalized copy, the one its property lookups compare by identity
      if (this.pos - start - 1 === key.length && key.length <= 64) this.keyCache[slot] = internalized(key);
    }
    if (hasOwn.call(obj, key)) this.fail("duplicate_key", `duplicate key ${JSON.stringify(key)}`, key);
    const names = this.keyNames;
    if (names !== undefined && !names.has(key)) {
      names.add(key);
      if (names.size > this.maxKeyNames)
        this.fail(
          "too_many_key_names",
          `a document of more than ${this.maxKeyNames} distinct member names (refused ${this.where()})`,
          key,
        );
    }
    this.skipWs();
    if (this.text.charCodeAt(this.pos) !== 0x3a)
      this.fail("invalid_json", `expected ":" ${this.where()}`, key);
    this.pos++;
    return key;
  }

  private readScalar(c: number): JsonValue {
    const t = this.text;
    switch (c) {
      case 0x22:
        return this.readString();
      case 0x74: // t
        if (t.startsWith("true", this.pos)) {
          this.pos += 4;
          return true;
        }
        this.brokenLiteral("true");
        break;
      case 0x66: // f
        if (t.startsWith("false", this.pos)) {
          this.pos += 5;
          return false;
        }
        this.brokenLiteral("false");
        break;
      case 0x6e: // n
        if (t.startsWith("null", this.pos)) {
          this.pos += 4;
          return null;
        }
        this.brokenLiteral("null");
        break;
      case 0x4e: // N
        if (t.startsWith("NaN", this.pos)) this.failHere("nan", "NaN is not allowed");
        break;
      case 0x49: // I
        if (t.startsWith("Infinity", this.pos)) this.failHere("infinity", "Infinity is not allowed");
        break;
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.readNumber();
    }
    if (Number.isNaN(c)) this.failHere("invalid_json", "unexpected end of input, expected a value");
    const ch = this.charAtForMessage(this.pos);
    if (ch === "\ufeff")
      this.failHere(
        "invalid_json",
        `a byte-order mark (U+FEFF) at offset ${this.pos}: JSON text must not hold one (save the file as UTF-8 without BOM)`,
      );
    this.failHere(
      "invalid_json",
      `unexpected character ${shownChar(ch)} at offset ${this.pos}, expected a value`,
    );
  }

  /**
   * At `this.pos` a value starts with `literal`'s first character but is not `literal`: when the input
   * ends inside a prefix of it (`nul`, `{"a":tru`) or breaks after a prefix of two or more characters
   * (`nulx`), fail naming where it breaks and the literal it started (probe39 C-N1: `nul` was "unexpected
   * character "n" at offset 0, expected a value"). A lone first letter followed by something else
   * (`this is not json`) returns, for readScalar's "unexpected character ..., expected a value".
   */
  private brokenLiteral(literal: "true" | "false" | "null"): void {
    const t = this.text;
    const start = this.pos;
    let at = start + 1;
    while (
      at < t.length &&
      at - start < literal.length &&
      t.charCodeAt(at) === literal.charCodeAt(at - start)
    )
      at++;
    const inside = `inside the literal at offset ${start} (expected ${literal})`;
    if (at >= t.length) this.failHere("invalid_json", `unexpected end of input at offset ${at}, ${inside}`);
    if (at - start >= 2)
      this.failHere(
        "invalid_json",
        `unexpected character ${shownChar(this.charAtForMessage(at))} at offset ${at}, ${inside}`,
      );
  }

  /** Fail at the position of the value being read (the current array index or object key). */
  private failHere(
    code: "invalid_json" | "nan" | "infinity" | "integer_too_large" | "lone_surrogate" | "nesting_too_deep",
    message: string,
  ): never {
    throw new EvidenceError(code, this.valuePath(), message);
  }

  private valuePath(): string {
    if (this.inKey) return this.containerPath();
    const segs: PathSegment[] = [];
    for (let i = 0; i < this.depth; i++) {
      const f = this.stack[i] as Frame;
      segs.push(f.obj ? f.key : f.index);
    }
    return formatPath(segs, this.root);
  }

  private readNumber(): JsonValue {
    const t = this.text;
    // Fast path: a short non-negative integer without fraction or exponent (ordinals, counts),
    // read without a RegExp match; anything else takes the general path below.
    {
      const p0 = this.pos;
      let p = p0;
      let n = 0;
      let c = t.charCodeAt(p);
      if (c === 0x30) {
        p++;
      } else if (c >= 0x31 && c <= 0x39) {
        while (c >= 0x30 && c <= 0x39 && p - p0 < 15) {
          n = n * 10 + (c - 0x30);
          p++;
          c = t.charCodeAt(p);
        }
      }
      const next = t.charCodeAt(p);
      if (p > p0 && !(next >= 0x30 && next <= 0x39) && next !== 0x2e && next !== 0x65 && next !== 0x45) {
        this.pos = p;
        return n;
      }
    }
    if (t.startsWith("-Infinity", this.pos)) this.failHere("infinity", "-Infinity is not allowed");
    NUMBER_RE.lastIndex = this.pos;
    const m = NUMBER_RE.exec(t);
    if (m === null) this.failHere("invalid_json", `malformed number at offset ${this.pos}`);
    const lexeme = m[0];
    this.pos += lexeme.length;
    let result: JsonValue;
    let canonical: string;
    if (m[1] === undefined && m[2] === undefined) {
      const ndigits = lexeme.charCodeAt(0) === 0x2d ? lexeme.length - 1 : lexeme.length;
      if (ndigits <= 15) {
        const n = Number(lexeme);
        result = n === 0 ? 0 : n;
      } else {
        if (ndigits > 78)
          this.failHere("integer_too_large", `integer with ${ndigits} digits (more than 78, beyond uint256)`);
        const b = BigInt(lexeme);
        result =
          b <= BigInt(Number.MAX_SAFE_INTEGER) && b >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
      }
      canonical = String(result);
    } else {
      const v = Number(lexeme);
      if (!Number.isFinite(v))
        this.failHere(
          "infinity",
          `number ${lexeme.length > 40 ? lexeme.slice(0, 40) + "..." : lexeme} overflows binary64`,
        );
      result = new JsonFloat(lexeme, v);
      canonical = pyFloatRepr(v);
    }
    // the serializer writes String(integer) and Python's float repr: any other spelling is not canonical
    if (canonical !== lexeme) this.defects++;
    return result;
  }

  /** Read a string (pos at the opening quote); returns the unescaped value. */
  private readString(): string {
    const t = this.text;
    const start = this.pos + 1;
    // Fast path: a plain run (no escape, control character or surrogate) up to the closing
    // quote, scanned without a RegExp match object per string; anything else takes the
    // general loop below from where the scan stopped.
    let i = start;
    const len = t.length;
    for (;;) {
      if (i >= len) break;
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return i - start <= SHORT_STRING ? this.shortString(start, i) : t.slice(start, i);
      }
      // (>= 0x80 covers both surrogates and the non-ASCII bytes of a latin1 reading)
      if (c === 0x5c || c < 0x20 || c >= 0x80) break;
      i++;
    }
    let out: string[] | null = null;
    let runStart = start;
    const special = this.specialRe;
    const utf8Bytes = this.utf8Bytes;
    const latin1 = utf8Bytes !== undefined;
    for (;;) {
      // the next special character: a short run (between escapes) is scanned here, a long
      // one by the RegExp (a RegExp match per run costs more than a few characters' loop)
      const scanEnd = i + SHORT_RUN < len ? i + SHORT_RUN : len;
      while (i < scanEnd) {
        const d = t.charCodeAt(i);
        if (d === 0x22 || d === 0x5c || d < 0x20 || (d >= 0x80 && (latin1 || (d >= 0xd800 && d <= 0xdfff))))
          break;
        i++;
      }
      if (i === scanEnd) {
        special.lastIndex = i;
        const m = special.exec(t);
        if (m === null) {
          this.pos = t.length;
          this.failHere("invalid_json", "unterminated string");
        }
        i = m.index;
      }
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        if (out === null) return t.slice(start, i);
        out.push(t.slice(runStart, i));
        return out.join("");
      }
      if (c === 0x5c) {
        // canonical JSON escapes `"`, `\\`, \b \f \n \r \t and the other C0 controls as
        // \u00xx (lowercase hex), nothing else: any other escape is not canonical
        const e1 = t.charCodeAt(i + 1);
        if (e1 === 0x2f) this.defects++;
        else if (e1 === 0x75 && !isCanonicalUnicodeEscape(t, i + 2)) this.defects++;
        if (out === null) out = [];
        out.push(t.slice(runStart, i));
        const e = t.charCodeAt(i + 1);
        switch (e) {
          case 0x22:
            out.push('"');
            i += 2;
            break;
          case 0x5c:
            out.push("\\");
            i += 2;
            break;
          case 0x2f:
            out.push("/");
            i += 2;
            break;
          case 0x62:
            out.push("\b");
            i += 2;
            break;
          case 0x66:
            out.push("\f");
            i += 2;
            break;
          case 0x6e:
            out.push("\n");
            i += 2;
            break;
          case 0x72:
            out.push("\r");
            i += 2;
            break;
          case 0x74:
            out.push("\t");
            i += 2;
            break;
          case 0x75: {
            const u = this.hex4(i + 2);
            if (u >= 0xd800 && u <= 0xdbff) {
              if (t.charCodeAt(i + 6) === 0x5c && t.charCodeAt(i + 7) === 0x75) {
                const lo = this.hex4(i + 8);
                if (lo >= 0xdc00 && lo <= 0xdfff) {
                  out.push(String.fromCharCode(u, lo));
                  i += 12;
                  break;
                }
              }
              this.pos = i;
              this.failHere("lone_surrogate", `unpaired high surrogate \\u${u.toString(16)} at offset ${i}`);
            }
            if (u >= 0xdc00 && u <= 0xdfff) {
              this.pos = i;
              this.failHere("lone_surrogate", `unpaired low surrogate \\u${u.toString(16)} at offset ${i}`);
            }
            out.push(String.fromCharCode(u));
            i += 6;
            break;
          }
          default:
            this.pos = i;
            this.failHere("invalid_json", `invalid escape at offset ${i}`);
        }
        runStart = i;
        continue;
      }
      if (c < 0x20) {
        this.pos = i;
        this.failHere(
          "invalid_json",
          `raw control character U+${c.toString(16).padStart(4, "0").toUpperCase()} in a string at offset ${i} (must be escaped)`,
        );
      }
      if (utf8Bytes !== undefined) {
        // non-ASCII bytes in a latin1 reading: decode the whole run (complete sequences)
        let j = i + 1;
        while (j < len && t.charCodeAt(j) >= 0x80) j++;
        if (out === null) out = [];
        out.push(t.slice(runStart, i), utf8Bytes.toString("utf8", i, j));
        i = j;
        runStart = j;
        continue;
      }
      // a raw surrogate: must be a well-formed pair
      if (c <= 0xdbff) {
        const lo = t.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          i += 2;
          continue;
        }
      }
      this.pos = i;
      this.failHere("lone_surrogate", `unpaired surrogate U+${c.toString(16).toUpperCase()} at offset ${i}`);
    }
  }

  /**
   * Short plain strings met before, by their length and first and last characters. Short
   * strings are copied (not sliced) by the engine, and a pack repeats a few of them hundreds
   * of thousands of times (`"public"`, `"1/1"`, grader names): one shared copy each keeps
   * the parsed tree smaller (less for the collector to copy). A hit is verified character by
   * character against the source; only plain ASCII strings (the fast path of `readString`)
   * are cached, so one cache serves every parse and both kinds of text.
   */
  private readonly shortCache = SHORT_CACHE;

  /** The plain string `text[start, end)` (at most {@link SHORT_STRING} characters), shared when met before. */
  private shortString(start: number, end: number): string {
    const n = end - start;
    if (n === 0) return "";
    const t = this.text;
    const slot = (t.charCodeAt(start) * 61 + t.charCodeAt(end - 1) * 7 + n) & (SHORT_CACHE_SIZE - 1);
    const cached = this.shortCache[slot];
    if (cached !== undefined && cached.length === n && t.startsWith(cached, start)) return cached;
    const s = t.slice(start, end);
    this.shortCache[slot] = s;
    return s;
  }

  private hex4(at: number): number {
    const s = this.text.slice(at, at + 4);
    if (s.length !== 4 || !/^[0-9a-fA-F]{4}$/.test(s)) {
      this.pos = at;
      this.failHere("invalid_json", `invalid \\u escape at offset ${at - 2}`);
    }
    return parseInt(s, 16);
  }
}
