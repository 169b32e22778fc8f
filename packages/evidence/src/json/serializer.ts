/**
 * `spec/SPEC.md` section 2: the canonical serializer. `canonicalJson(v)` is
 * byte-identical to Python's
 * `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")`;
 * iterative (an explicit stack), so deep nesting never overflows the call stack.
 * @packageDocumentation
 */
import { EvidenceError, MAX_JSON_DEPTH, formatPath, type PathSegment } from "../errors.js";
import { pyFloatRepr } from "./float.js";
import type { CanonicalSpan } from "./spans.js";
import { compareCodePoints, isWellFormedText } from "./text.js";
import { JsonFloat } from "./value.js";

const utf8Encoder = new TextEncoder();

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
