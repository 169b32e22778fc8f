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
import { ByteSink, StringSink, type Sink, type Token } from "./sink.js";
import { compareCodePoints, isWellFormedText, utf8 } from "./text.js";
import { JsonFloat } from "./value.js";

/** Render a string as Python `json.dumps(s, ensure_ascii=False)` does. */
function quote(s: string, path: () => string): string {
  if (!isWellFormedText(s))
    throw new EvidenceError("lone_surrogate", path(), "string contains an unpaired surrogate");
  // For well-formed strings JSON.stringify escapes exactly `"` `\` and U+0000..U+001F
  // (\b \f \n \r \t, else \u00xx lowercase) and leaves everything else raw: Python's rules.
  return JSON.stringify(s);
}

/** Characters JSON.stringify escapes in a well-formed string: `"`, `\\` and U+0000..U+001F. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
/** Strings up to this length are checked by a loop rather than a RegExp (cheaper per call). */
const SHORT_STRING = 24;

/** Write a string as Python `json.dumps(s, ensure_ascii=False)` renders it. */
function writeString(sink: Sink, s: string, path: () => string): void {
  const n = s.length;
  let plain: boolean;
  if (n <= SHORT_STRING) {
    // plain printable ASCII other than `"` and `\`: written as is
    plain = true;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c >= 0x80 || c === 0x22 || c === 0x5c) {
        plain = false;
        break;
      }
    }
    if (plain) {
      sink.byte(0x22);
      sink.ascii(s);
      sink.byte(0x22);
      return;
    }
  }
  if (!NEEDS_ESCAPE.test(s) && isWellFormedText(s)) {
    // nothing to escape: write it between quotes without building the quoted copy
    sink.byte(0x22);
    sink.text(s);
    sink.byte(0x22);
    return;
  }
  sink.text(quote(s, path));
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** Write a number: a safe integer as its digits, a non-integer as Python's float repr. */
function writeNumber(sink: Sink, v: number, path: () => string): void {
  if (Number.isInteger(v)) {
    if (v >= 0 && v <= MAX_SAFE)
      sink.uint(v); // -0 is written as 0
    else if (v < 0 && v >= -MAX_SAFE) sink.ascii(String(v));
    else
      throw new EvidenceError(
        "unsupported_value",
        path(),
        `unsafe integer ${v} (use a bigint, or a JsonFloat for a float)`,
      );
    return;
  }
  if (Number.isNaN(v)) throw new EvidenceError("nan", path(), "NaN is not JSON");
  if (!Number.isFinite(v)) throw new EvidenceError("infinity", path(), "Infinity is not JSON");
  sink.ascii(pyFloatRepr(v));
}

/** Write a scalar and return true, or return false for an object or array (a container). */
function writeScalar(sink: Sink, v: unknown, path: () => string): boolean {
  switch (typeof v) {
    case "string":
      writeString(sink, v, path);
      return true;
    case "number":
      writeNumber(sink, v, path);
      return true;
    case "bigint": {
      const s = v.toString();
      if ((v < 0n ? s.length - 1 : s.length) > 78)
        throw new EvidenceError("integer_too_large", path(), "integer with more than 78 digits");
      sink.ascii(s);
      return true;
    }
    case "boolean":
      sink.ascii(v ? "true" : "false");
      return true;
    case "object":
      if (v === null) {
        sink.ascii("null");
        return true;
      }
      if (v instanceof JsonFloat) {
        sink.ascii(pyFloatRepr(v.value));
        return true;
      }
      return false;
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
  tokens: readonly Token[] | null;
  /** index of the next child */
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
  tokens: readonly Token[];
}
const shapeCache = new Map<string, Shape[]>();
let shapeCount = 0;
const MAX_SHAPES = 4096;
const MAX_SHAPE_KEYS = 64;

/** The cached shape with exactly these keys in this order, if any. */
function cachedShape(bucket: readonly Shape[], orig: readonly string[]): Shape | undefined {
  const n = orig.length;
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
  return undefined;
}

function shapeOf(orig: string[], path: () => string): Shape {
  const n = orig.length;
  const cacheable = n > 0 && n <= MAX_SHAPE_KEYS;
  let bucket: Shape[] | undefined;
  if (cacheable) {
    bucket = shapeCache.get(orig[0] as string);
    const hit = bucket === undefined ? undefined : cachedShape(bucket, orig);
    if (hit !== undefined) return hit;
  }
  const keys = orig.slice().sort(compareCodePoints);
  const tokens = keys.map((k): Token => {
    const text = `${quote(k, path)}:`;
    return { text, bytes: utf8(text) };
  });
  const sh: Shape = { orig, keys, tokens };
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

/** Sub-values whose byte spans {@link canonicalJsonSpans} records. */
interface SpanRequest {
  targets: ReadonlySet<object>;
  sink: ByteSink;
  out: Map<object, CanonicalSpan>;
}

/** Walk a value in canonical order, writing its tokens to `sink` (SPEC 2). */
function serialize(value: unknown, maxDepth: number, sink: Sink, spans?: SpanRequest): void {
  // open containers are stack[0 .. depth-1]; frames above `depth` are kept for reuse
  const stack: SFrame[] = [];
  let depth = 0;
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
  const pathOf = (): string => pathOfFrame(depth);
  /** Push a frame for a container (reusing a frame object left by an earlier one). */
  const push = (
    arr: readonly unknown[] | null,
    obj: Record<string, unknown> | null,
    shape: Shape | null,
    n: number,
    start: number,
  ): void => {
    let f = stack[depth];
    if (f === undefined) {
      f = { arr, obj, keys: null, tokens: null, i: 0, n, start };
      stack.push(f);
    }
    f.arr = arr;
    f.obj = obj;
    f.keys = shape === null ? null : shape.keys;
    f.tokens = shape === null ? null : shape.tokens;
    f.i = 0;
    f.n = n;
    f.start = start;
    depth++;
  };
  /** Open a container: write its bracket and push its frame. */
  const open = (v: object): void => {
    if (depth >= maxDepth) throw tooDeep(stack.slice(0, depth), v, pathOfFrame, maxDepth);
    if (Array.isArray(v)) {
      const start = spans !== undefined && spans.targets.has(v) ? spans.sink.pos : -1;
      sink.byte(0x5b);
      push(v, null, null, v.length, start);
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
    sink.byte(0x7b);
    push(null, o, shape, shape.keys.length, start);
  };
  if (!writeScalar(sink, value, pathOf)) open(value as object);
  while (depth > 0) {
    const level = depth;
    const f = stack[level - 1] as SFrame;
    // write children until one is a container (then descend into it) or none is left
    while (f.i < f.n) {
      if (f.i > 0) sink.byte(0x2c);
      let child: unknown;
      if (f.keys !== null) {
        sink.token((f.tokens as readonly Token[])[f.i] as Token);
        child = (f.obj as Record<string, unknown>)[f.keys[f.i] as string];
      } else {
        child = (f.arr as readonly unknown[])[f.i];
      }
      f.i++;
      if (!writeScalar(sink, child, pathOf)) {
        open(child as object);
        break;
      }
    }
    if (depth > level) continue;
    sink.byte(f.keys !== null ? 0x7d : 0x5d);
    depth--;
    if (f.start >= 0) {
      const node = (f.obj ?? f.arr) as object;
      if (!spans!.out.has(node)) spans!.out.set(node, { start: f.start, end: spans!.sink.pos });
    }
    // drop the references, so a kept frame does not hold a finished container
    f.arr = null;
    f.obj = null;
  }
}

/**
 * The error at the depth limit: a value that contains itself (a cycle, which no JSON text
 * can hold) is named at the shortest path where it recurs; anything else is too deep.
 */
function tooDeep(
  stack: readonly SFrame[],
  v: object,
  pathOfFrame: (n: number) => string,
  maxDepth: number,
): EvidenceError {
  const cycle = (path: string, levels: number): EvidenceError =>
    new EvidenceError(
      "unsupported_value",
      path,
      `the value contains itself (it is the object ${levels} level${levels === 1 ? "" : "s"} up): a cycle is not JSON`,
    );
  const seen = new Map<object, number>();
  for (let k = 0; k < stack.length; k++) {
    const f = stack[k] as SFrame;
    const node = (f.obj ?? f.arr) as object;
    const first = seen.get(node);
    if (first !== undefined) return cycle(pathOfFrame(k), k - first);
    seen.set(node, k);
  }
  const first = seen.get(v);
  if (first !== undefined) return cycle(pathOfFrame(stack.length), stack.length - first);
  return new EvidenceError(
    "nesting_too_deep",
    pathOfFrame(stack.length),
    `nesting deeper than ${maxDepth} levels`,
  );
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
  return withCanonicalJson(value, (bytes) => new Uint8Array(bytes));
}

/**
 * Calls `use` with the canonical JSON bytes of a value (as {@link canonicalJson}) in the
 * serializer's reused buffer, without copying them out: for hashing. The view is valid
 * only during the call (do not keep it). With `asciiSuffix` (ASCII text, e.g. a hex salt),
 * its bytes follow the canonical JSON in the view. Internal to the package.
 * @throws EvidenceError as {@link canonicalJson}
 */
export function withCanonicalJson<T>(value: unknown, use: (bytes: Uint8Array) => T, asciiSuffix?: string): T {
  const sink = new ByteSink();
  try {
    try {
      serialize(value, MAX_JSON_DEPTH, sink);
      if (asciiSuffix !== undefined) sink.ascii(asciiSuffix);
    } catch (e) {
      if (e instanceof RangeError)
        throw new EvidenceError("too_large", "$", "canonical JSON is larger than a byte array can hold");
      throw e;
    }
    return use(sink.view());
  } finally {
    sink.release();
  }
}

/**
 * As {@link withCanonicalJson} with a suffix of 64 lowercase hex characters (a salt), checked
 * while it is written: `use` sees `canonical_json(value) || hex`, and is not called (the result
 * is `undefined`) when `hex` is anything else. Internal to the package.
 * @throws EvidenceError as {@link canonicalJson}
 */
export function withCanonicalJsonHex64<T>(
  value: unknown,
  use: (bytes: Uint8Array) => T,
  hex: string,
): T | undefined {
  const sink = new ByteSink();
  try {
    try {
      serialize(value, MAX_JSON_DEPTH, sink);
    } catch (e) {
      if (e instanceof RangeError)
        throw new EvidenceError("too_large", "$", "canonical JSON is larger than a byte array can hold");
      throw e;
    }
    return sink.hex64(hex) ? use(sink.view()) : undefined;
  } finally {
    sink.release();
  }
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
    return { bytes: sink.copy(), spans: spans.out };
  } catch (e) {
    if (e instanceof RangeError)
      throw new EvidenceError("too_large", "$", "canonical JSON is larger than a byte array can hold");
    throw e;
  } finally {
    sink.release();
  }
}
