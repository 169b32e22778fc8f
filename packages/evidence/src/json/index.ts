/**
 * `spec/SPEC.md` section 2: the lossless JSON parser and the canonical serializer.
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
 * `MAX_JSON_DEPTH` is refused with `nesting_too_deep`.
 *
 * One concern per file: `value.ts` (the value model), `float.ts` (Python's float
 * repr), `text.ts` (code-point order, well-formed text, UTF-8), `parser.ts`,
 * `spans.ts` (canonical spans), `serializer.ts`.
 * @packageDocumentation
 */
export { JsonFloat, isJsonFloat, isJsonObject, type JsonObject, type JsonValue } from "./value.js";
export { pyFloatRepr } from "./float.js";
export { parseJson, type ParseOptions } from "./parser.js";
export type { CanonicalSpan, CanonicalSpanRequest } from "./spans.js";
export { compareCodePoints, isWellFormedText, utf8 } from "./text.js";
export { canonicalJson, canonicalJsonSpans, canonicalJsonString } from "./serializer.js";
/** Re-export of the path helper for callers that build their own errors. */
export { appendPath } from "../errors.js";
