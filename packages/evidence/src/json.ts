/**
 * SPEC 2: the lossless JSON parser and the canonical serializer.
 *
 * `canonicalJson(v)` is byte-identical to Python's
 * `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")`
 * applied to what Python's `json.loads` makes of the same text, with the
 * stricter input rules of SPEC 2 (duplicate keys, NaN/Infinity, lone
 * surrogates and integers beyond 78 digits are errors).
 *
 * Why hand-written: the parser IS protocol (which duplicates are refused,
 * which error code a document gets, where the path points), and the general
 * libraries do not fit it: `lossless-json` accepts a repeated key whose values
 * are equal (`{"k":1,"k":1}` must be refused here), accepts lone surrogates and
 * recurses per nesting level; `JSON.parse` loses big integers and float
 * lexemes. Both the parser and the serializer are iterative (an explicit
 * stack), so deep nesting never overflows the call stack; nesting deeper than
 * {@link MAX_JSON_DEPTH} is refused with `nesting_too_deep`.
 *
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
} from "./errors.js";

/**
 * A JSON number written with a fraction or an exponent: a binary64 float
 * (Python `float`). `lexeme` is the exact source text (kept for graders that
 * read "the exact decimal of its own JSON text"); `value` is the correctly
 * rounded binary64 value, which is what the canonical form renders.
 */
export class JsonFloat {
  /** The number's text as written in the source, e.g. `"1E2"`, `"0.30000000000000004"`. */
  readonly lexeme: string;
  /** The binary64 value (finite; `-0` kept). */
  readonly value: number;

  /**
   * @param lexeme the JSON number text (must be a strict JSON number)
   * @param value defaults to `Number(lexeme)`
   * @throws EvidenceError `infinity` if the value is not finite
   */
  constructor(lexeme: string, value: number = Number(lexeme)) {
    if (Number.isNaN(value)) throw new EvidenceError("nan", "$", `float ${lexeme} is NaN`);
    if (!Number.isFinite(value))
      throw new EvidenceError("infinity", "$", `float ${lexeme} overflows binary64`);
    this.lexeme = lexeme;
    this.value = value;
  }

  /** Build a JsonFloat from a JS number (its lexeme is the Python repr). */
  static of(value: number): JsonFloat {
    return new JsonFloat(pyFloatRepr(value), value);
  }

  /** Python `repr` of the value (the canonical rendering). */
  toString(): string {
    return pyFloatRepr(this.value);
  }
}

/** A parsed JSON value. Safe integers are `number`, larger integers `bigint`, floats {@link JsonFloat}. */
export type JsonValue = null | boolean | number | bigint | string | JsonFloat | JsonValue[] | JsonObject;
/** A parsed JSON object (own enumerable string keys). */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** True for a {@link JsonFloat}. */
export function isJsonFloat(v: unknown): v is JsonFloat {
  return v instanceof JsonFloat;
}

/** True for a plain JSON object (not null, not an array, not a JsonFloat). */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat);
}

// ---------------------------------------------------------------------------
// Python float repr
// ---------------------------------------------------------------------------

/**
 * Python's `repr(float)` for a finite binary64: the shortest digits that
 * round-trip (JavaScript's `toExponential()` gives the same digits), in fixed
 * notation when the decimal exponent is in [-4, 16), else `d.ddde±XX`.
 * Examples: `1.0`, `0.1`, `1e-05`, `0.0001`, `1e+16`, `1000000000000000.0`, `-0.0`.
 *
 * @throws EvidenceError `nan` / `infinity` for non-finite input
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) throw new EvidenceError("nan", "$", "NaN is not JSON");
  if (!Number.isFinite(x)) throw new EvidenceError("infinity", "$", "Infinity is not JSON");
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const s = Math.abs(x).toExponential();
  const e = s.indexOf("e");
  const mant = s.slice(0, e);
  const exp = Number(s.slice(e + 1));
  const digits = mant.length > 1 ? mant[0] + mant.slice(2) : mant;
  const decpt = exp + 1; // value = 0.DIGITS * 10^decpt
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const ae = Math.abs(exp);
  return `${sign}${m}e${exp < 0 ? "-" : "+"}${ae < 10 ? "0" : ""}${ae}`;
}

// ---------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------

const utf8Encoder = new TextEncoder();

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
/**
 * True when the 4 characters at `at` are the hex of a `\u` escape the canonical form writes:
 * lowercase, a C0 control other than \b \t \n \f \r (which have short escapes).
 */
function isCanonicalUnicodeEscape(t: string, at: number): boolean {
  if (t.charCodeAt(at) !== 0x30 || t.charCodeAt(at + 1) !== 0x30) return false;
  const hi = t.charCodeAt(at + 2);
  const lo = t.charCodeAt(at + 3);
  if (hi !== 0x30 && hi !== 0x31) return false;
  const loVal = lo >= 0x30 && lo <= 0x39 ? lo - 0x30 : lo >= 0x61 && lo <= 0x66 ? lo - 0x61 + 10 : -1;
  if (loVal < 0) return false;
  const u = (hi - 0x30) * 16 + loVal;
  return u !== 0x08 && u !== 0x09 && u !== 0x0a && u !== 0x0c && u !== 0x0d;
}

/** Slots of the parser's key cache (a power of two). */
const KEY_CACHE_SIZE = 1024;

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
  const value = parser.parse();
  if (wanted !== undefined && parser.textSpans.length > 0)
    recordByteSpans(text, input as Uint8Array, parser.textSpans, wanted.out);
  return value;
}

/** Turn text offsets into UTF-8 byte offsets of `bytes` (the encoding of `text`) and record them. */
function recordByteSpans(
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

class Parser {
  private pos = 0;
  private readonly stack: Frame[] = [];
  private inKey = false;
  /**
   * Count of places where the source is not canonical JSON (whitespace, an escape, a key
   * out of order, a number not written as the serializer writes it). A container whose
   * span saw no new defect is canonical.
   */
  private defects = 0;
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
    const stack = this.stack;
    if (stack.length <= req.maxDepth) return at;
    const parent = stack[stack.length - 1] as Frame;
    return parent.obj && req.keys !== undefined && req.keys.has(parent.key) ? at : -1;
  }

  /** Path of the innermost open container (without its current key/index). */
  private containerPath(): string {
    const segs: PathSegment[] = [];
    const n = this.stack.length - 1;
    for (let i = 0; i < n; i++) {
      const f = this.stack[i] as Frame;
      segs.push(f.obj ? f.key : f.index);
    }
    return formatPath(segs, this.root);
  }

  private fail(
    code: "invalid_json" | "duplicate_key" | "nesting_too_deep",
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
        if (stack.length >= this.maxDepth)
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
            const frame: Frame = { obj: true, value: obj, key: "", index: 0, start, defects };
            stack.push(frame);
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
            stack.push({ obj: false, value: arr, key: "", index: 0, start, defects });
            continue outer;
          }
        }
      } else {
        value = this.readScalar(c);
      }
      // ---- attach completed values and close containers
      for (;;) {
        const frame = stack[stack.length - 1];
        if (frame === undefined) break outer;
        if (frame.obj) setKey(frame.value as JsonObject, frame.key, value);
        else (frame.value as JsonValue[]).push(value);
        this.skipWs();
        const d = t.charCodeAt(this.pos);
        if (d === 0x2c /* , */) {
          this.pos++;
          if (frame.obj) {
            this.skipWs();
            const previous = frame.key;
            frame.key = this.readKey(frame.value as JsonObject);
            // canonical JSON sorts keys by code point (repeated keys are refused above)
            if (compareCodePoints(previous, frame.key) > 0) this.defects++;
          } else {
            frame.index++;
          }
          continue outer;
        }
        if (d === (frame.obj ? 0x7d : 0x5d)) {
          this.pos++;
          value = frame.value;
          stack.pop();
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

  /**
   * Keys met before, by a hash of their first character and length. A pack repeats a few
   * dozen keys millions of times: reusing the string already used as a property name spares
   * a copy (or a slice of the whole text) and its lookup in V8's string table per key. A hit
   * is verified character by character against the source (`startsWith`, then the closing
   * quote); only keys with no escape are cached, so the key read is exactly the same string.
   */
  private readonly keyCache: (string | undefined)[] = new Array<string | undefined>(KEY_CACHE_SIZE);

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
      // cacheable: read without escapes (the source between the quotes is the key itself)
      if (this.pos - start - 1 === key.length && key.length <= 64) this.keyCache[slot] = key;
    }
    if (hasOwn.call(obj, key)) this.fail("duplicate_key", `duplicate key ${JSON.stringify(key)}`, key);
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
        break;
      case 0x66: // f
        if (t.startsWith("false", this.pos)) {
          this.pos += 5;
          return false;
        }
        break;
      case 0x6e: // n
        if (t.startsWith("null", this.pos)) {
          this.pos += 4;
          return null;
        }
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
    const cp = ch.codePointAt(0)!;
    const shown =
      cp >= 0x20 && cp < 0x7f
        ? JSON.stringify(ch)
        : `U+${cp.toString(16).toUpperCase().padStart(4, "0")} ${JSON.stringify(ch)}`;
    this.failHere("invalid_json", `unexpected character ${shown} at offset ${this.pos}, expected a value`);
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
    for (const f of this.stack) segs.push(f.obj ? f.key : f.index);
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
        return t.slice(start, i);
      }
      // (>= 0x80 covers both surrogates and the non-ASCII bytes of a latin1 reading)
      if (c === 0x5c || c < 0x20 || c >= 0x80) break;
      i++;
    }
    let out: string[] | null = null;
    let runStart = start;
    const special = this.specialRe;
    const utf8Bytes = this.utf8Bytes;
    for (;;) {
      special.lastIndex = i;
      const m = special.exec(t);
      if (m === null) {
        this.pos = t.length;
        this.failHere("invalid_json", "unterminated string");
      }
      i = m.index;
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

  private hex4(at: number): number {
    const s = this.text.slice(at, at + 4);
    if (s.length !== 4 || !/^[0-9a-fA-F]{4}$/.test(s)) {
      this.pos = at;
      this.failHere("invalid_json", `invalid \\u escape at offset ${at - 2}`);
    }
    return parseInt(s, 16);
  }
}

// ---------------------------------------------------------------------------
// Canonical serializer
// ---------------------------------------------------------------------------

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

/** Render a string as Python `json.dumps(s, ensure_ascii=False)` does. */
function quote(s: string, path: () => string): string {
  if (!isWellFormedText(s))
    throw new EvidenceError("lone_surrogate", path(), "string contains an unpaired surrogate");
  // For well-formed strings JSON.stringify escapes exactly `"` `\` and U+0000..U+001F
  // (\b \f \n \r \t, else \u00xx lowercase) and leaves everything else raw: Python's rules.
  return JSON.stringify(s);
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function renderScalar(v: unknown, path: () => string): string | undefined {
  switch (typeof v) {
    case "string":
      return quote(v, path);
    case "number":
      if (Number.isInteger(v)) {
        if (v > MAX_SAFE || v < -MAX_SAFE)
          throw new EvidenceError(
            "unsupported_value",
            path(),
            `unsafe integer ${v} (use a bigint, or a JsonFloat for a float)`,
          );
        return v === 0 ? "0" : String(v);
      }
      if (Number.isNaN(v)) throw new EvidenceError("nan", path(), "NaN is not JSON");
      if (!Number.isFinite(v)) throw new EvidenceError("infinity", path(), "Infinity is not JSON");
      return pyFloatRepr(v);
    case "bigint": {
      const s = v.toString();
      if ((v < 0n ? s.length - 1 : s.length) > 78)
        throw new EvidenceError("integer_too_large", path(), "integer with more than 78 digits");
      return s;
    }
    case "boolean":
      return v ? "true" : "false";
    case "object":
      if (v === null) return "null";
      if (v instanceof JsonFloat) return pyFloatRepr(v.value);
      return undefined;
    default:
      throw new EvidenceError("unsupported_value", path(), `${typeof v} is not a JSON value`);
  }
}

interface SFrame {
  arr: readonly unknown[] | null;
  obj: Record<string, unknown> | null;
  /** keys in code-point order */
  keys: readonly string[] | null;
  /** `"key":` renderings, same order as keys */
  quoted: readonly string[] | null;
  i: number;
  n: number;
  /** byte offset where this container starts when its span is wanted, else -1 */
  start: number;
}

/**
 * Object shapes seen before (same own keys in the same insertion order):
 * their sorted keys and `"key":` renderings, so that the thousands of
 * receipt tasks / rows / answers of a pack sort and quote their keys once.
 * A hit is verified key by key, so a cache entry never changes the output.
 */
interface Shape {
  orig: readonly string[];
  keys: readonly string[];
  quoted: readonly string[];
}
const shapeCache = new Map<string, Shape[]>();
let shapeCount = 0;
const MAX_SHAPES = 4096;
const MAX_SHAPE_KEYS = 64;

function shapeOf(orig: string[], path: () => string): Shape {
  const n = orig.length;
  const cacheable = n > 0 && n <= MAX_SHAPE_KEYS;
  let bucket: Shape[] | undefined;
  if (cacheable) {
    bucket = shapeCache.get(orig[0] as string);
    if (bucket !== undefined) {
      for (const sh of bucket) {
        const o = sh.orig;
        if (o.length !== n) continue;
        let same = true;
        for (let i = 1; i < n; i++) {
          if (o[i] !== orig[i]) {
            same = false;
            break;
          }
        }
        if (same) return sh;
      }
    }
  }
  const keys = orig.slice().sort(compareCodePoints);
  const quoted = keys.map((k) => `${quote(k, path)}:`);
  const sh: Shape = { orig, keys, quoted };
  if (cacheable) {
    if (shapeCount >= MAX_SHAPES) {
      shapeCache.clear();
      shapeCount = 0;
      bucket = undefined;
    }
    if (bucket === undefined) shapeCache.set(orig[0] as string, [sh]);
    else if (bucket.length < 16) bucket.push(sh);
    shapeCount++;
  }
  return sh;
}

/** Where the serializer writes its tokens. */
interface Sink {
  write(s: string): void;
}

/** Tokens concatenated into one string (V8 ropes beat collecting parts and joining them). */
class StringSink implements Sink {
  out = "";
  write(s: string): void {
    this.out += s;
  }
}

/**
 * Tokens written as UTF-8 straight into a growing byte buffer: no rope of
 * millions of pieces kept alive (and promoted by the GC) until the end, and
 * no second pass to encode a huge string.
 */
class ByteSink implements Sink {
  buf = new Uint8Array(1 << 16);
  pos = 0;
  write(s: string): void {
    const n = s.length;
    // a UTF-16 code unit is at most 3 UTF-8 bytes (a surrogate pair, 2 units, is 4)
    if (this.pos + n * 3 > this.buf.length) this.grow(n * 3);
    const buf = this.buf;
    if (n <= 8) {
      let pos = this.pos;
      for (let i = 0; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) {
          this.pos += utf8Encoder.encodeInto(s, buf.subarray(this.pos)).written;
          return;
        }
        buf[pos++] = c;
      }
      this.pos = pos;
      return;
    }
    this.pos += utf8Encoder.encodeInto(s, buf.subarray(this.pos)).written;
  }
  private grow(extra: number): void {
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }
  /** The bytes written, in an array of exactly that length. */
  bytes(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/** Characters JSON.stringify escapes in a well-formed string: `"`, `\\` and U+0000..U+001F. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** Sub-values whose byte spans {@link canonicalJsonSpans} records. */
interface SpanRequest {
  targets: ReadonlySet<object>;
  sink: ByteSink;
  out: Map<object, CanonicalSpan>;
}

/** Where a sub-value's canonical JSON lies in its parent's canonical bytes: `bytes.subarray(start, end)`. */
export interface CanonicalSpan {
  start: number;
  end: number;
}

/** Walk a value in canonical order, writing its tokens to `sink` (SPEC 2). */
function serialize(value: unknown, maxDepth: number, sink: Sink, spans?: SpanRequest): void {
  const stack: SFrame[] = [];
  /** Path of the value held by frame `n` (the segments of the frames above it). */
  const pathOfFrame = (n: number): string => {
    const segs: PathSegment[] = [];
    for (let k = 0; k < n; k++) {
      const f = stack[k] as SFrame;
      segs.push(f.keys ? (f.keys[f.i - 1] as string) : f.i - 1);
    }
    return formatPath(segs);
  };
  /** Path of the value being written (the child of the innermost open container). */
  const pathOf = (): string => pathOfFrame(stack.length);
  /**
   * The error at the depth limit: a value that contains itself (a cycle, which no JSON text
   * can hold) is named at the shortest path where it recurs; anything else is too deep.
   */
  const cycle = (path: string, levels: number): EvidenceError =>
    new EvidenceError(
      "unsupported_value",
      path,
      `the value contains itself (it is the object ${levels} level${levels === 1 ? "" : "s"} up): a cycle is not JSON`,
    );
  const tooDeep = (v: unknown): EvidenceError => {
    const seen = new Map<object, number>();
    for (let k = 0; k < stack.length; k++) {
      const f = stack[k] as SFrame;
      const node = (f.obj ?? f.arr) as object;
      const first = seen.get(node);
      if (first !== undefined) return cycle(pathOfFrame(k), k - first);
      seen.set(node, k);
    }
    const first = seen.get(v as object);
    if (first !== undefined) return cycle(pathOf(), stack.length - first);
    return new EvidenceError("nesting_too_deep", pathOf(), `nesting deeper than ${maxDepth} levels`);
  };
  const open = (v: unknown): void => {
    if (typeof v === "string" && !NEEDS_ESCAPE.test(v) && isWellFormedText(v)) {
      // nothing to escape: write it between quotes without building the quoted copy
      sink.write('"');
      sink.write(v);
      sink.write('"');
      return;
    }
    const s = renderScalar(v, pathOf);
    if (s !== undefined) {
      sink.write(s);
      return;
    }
    if (stack.length >= maxDepth) throw tooDeep(v);
    if (Array.isArray(v)) {
      const start = spans !== undefined && spans.targets.has(v) ? spans.sink.pos : -1;
      sink.write("[");
      stack.push({ arr: v, obj: null, keys: null, quoted: null, i: 0, n: v.length, start });
      return;
    }
    const o = v as Record<string, unknown>;
    const proto = Object.getPrototypeOf(o);
    if (proto !== Object.prototype && proto !== null)
      throw new EvidenceError(
        "unsupported_value",
        pathOf(),
        `${(o.constructor as { name?: string } | undefined)?.name ?? "object"} is not a JSON value`,
      );
    const shape = shapeOf(Object.keys(o), pathOf);
    const start = spans !== undefined && spans.targets.has(o) ? spans.sink.pos : -1;
    sink.write("{");
    stack.push({
      arr: null,
      obj: o,
      keys: shape.keys,
      quoted: shape.quoted,
      i: 0,
      n: shape.keys.length,
      start,
    });
  };
  open(value);
  while (stack.length > 0) {
    const f = stack[stack.length - 1] as SFrame;
    if (f.i < f.n) {
      if (f.i > 0) sink.write(",");
      if (f.keys) {
        const k = f.keys[f.i] as string;
        sink.write((f.quoted as readonly string[])[f.i] as string);
        f.i++;
        const child = (f.obj as Record<string, unknown>)[k];
        open(child);
      } else {
        const child = (f.arr as readonly unknown[])[f.i];
        f.i++;
        open(child);
      }
    } else {
      sink.write(f.keys ? "}" : "]");
      stack.pop();
      if (f.start >= 0) {
        const node = (f.obj ?? f.arr) as object;
        if (!spans!.out.has(node)) spans!.out.set(node, { start: f.start, end: spans!.sink.pos });
      }
    }
  }
}

/**
 * Canonical JSON text of a value (SPEC 2): keys sorted by code point, no
 * whitespace, Python's escapes and float repr, raw UTF-8 for everything else.
 *
 * Accepts {@link JsonValue}s (as {@link parseJson} returns them); also a JS
 * non-integer `number` (rendered as a Python float). Rejects `undefined`,
 * functions, symbols, unsafe JS integers (`unsupported_value`), NaN/Infinity,
 * strings with unpaired surrogates and nesting beyond {@link MAX_JSON_DEPTH}.
 *
 * @throws EvidenceError naming the path of the offending value
 */
export function canonicalJsonString(value: unknown, maxDepth: number = MAX_JSON_DEPTH): string {
  const sink = new StringSink();
  try {
    serialize(value, maxDepth, sink);
  } catch (e) {
    if (e instanceof RangeError)
      throw new EvidenceError("too_large", "$", "canonical JSON is longer than a JavaScript string can hold");
    throw e;
  }
  return sink.out;
}

/**
 * Canonical JSON bytes (UTF-8) of a value, SPEC 2: the UTF-8 of
 * {@link canonicalJsonString}, written directly as bytes.
 * @throws EvidenceError naming the path of the offending value; `too_large` when the bytes cannot be allocated
 */
export function canonicalJson(value: unknown): Uint8Array {
  const sink = new ByteSink();
  try {
    serialize(value, MAX_JSON_DEPTH, sink);
  } catch (e) {
    if (e instanceof RangeError)
      throw new EvidenceError("too_large", "$", "canonical JSON is larger than a byte array can hold");
    throw e;
  }
  return sink.bytes();
}

/**
 * Canonical JSON bytes of a value and the byte span of each of `targets`
 * (objects or arrays inside it, by identity) within those bytes. Canonical
 * JSON is context-free, so `bytes.subarray(start, end)` is exactly
 * `canonicalJson(target)`: hashing the spans gives the targets' hashes
 * without serializing them again (a pack's receipts inside its pack hash).
 * A target that is not reached has no span; one reached twice keeps its first.
 * @throws EvidenceError as {@link canonicalJson}
 */
export function canonicalJsonSpans(
  value: unknown,
  targets: ReadonlySet<object>,
): { bytes: Uint8Array; spans: Map<object, CanonicalSpan> } {
  const sink = new ByteSink();
  const spans: SpanRequest = { targets, sink, out: new Map() };
  try {
    serialize(value, MAX_JSON_DEPTH, sink, spans);
  } catch (e) {
    if (e instanceof RangeError)
      throw new EvidenceError("too_large", "$", "canonical JSON is larger than a byte array can hold");
    throw e;
  }
  return { bytes: sink.bytes(), spans: spans.out };
}

/** UTF-8 bytes of a (well-formed) string. */
export function utf8(s: string): Uint8Array {
  return utf8Encoder.encode(s);
}

/** Re-export of the path helper for callers that build their own errors. */
export { appendPath };
