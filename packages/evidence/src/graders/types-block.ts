/**
 * The pack's `grader_types` description block (SPEC 8 `benchmark.grader_types`), fixed text.
 * @packageDocumentation
 */
import { parseJson, type JsonObject } from "../json/index.js";
import { type GraderType } from "./names.js";

const GRADER_TYPES_JSON = String.raw`{
  "exact": {
    "gold_shape": "{\"value\": str, \"alternatives\"?: [str]}",
    "semantics": "1 if norm(answer) equals norm(value) or norm of an alternative, else 0. norm(s): Unicode NFKC; every run of White_Space characters becomes one space; trim; full Unicode lower-casing (str.lower / toLowerCase).",
    "examples": [
      {"gold": {"value": "\uff34\uff2f\uff2b\uff39\uff2f\u3000\uff34\uff4f\uff57\uff45\uff52"}, "answer": "  tokyo tower\n", "credit": "1/1"},
      {"gold": {"value": "Paris"}, "answer": "Paris, France", "credit": "0/1"}
    ]
  },
  "numeric": {
    "gold_shape": "{\"value\": number|decimal string, \"tolerance\"?: number|decimal string}",
    "semantics": "The trimmed answer must match ^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$ (no exponent, no separators); 1 if |answer - value| <= tolerance (default 0) in exact decimal arithmetic; a JSON float in gold is the exact decimal of its canonical rendering.",
    "examples": [
      {"gold": {"value": "0.7", "tolerance": "0.3"}, "answer": "1.0", "credit": "1/1"},
      {"gold": {"value": 1e-07}, "answer": "1e-7", "credit": "0/1"},
      {"gold": {"value": 9007199254740993}, "answer": "9007199254740992", "credit": "0/1"}
    ]
  },
  "contains_all": {
    "gold_shape": "{\"terms\": [str]}",
    "semantics": "1 if every norm(term) is a substring of norm(answer), else 0.",
    "examples": [
      {"gold": {"terms": ["\ufb01nal", "\uff35\uff33\uff24\uff23"]}, "answer": "The FINAL usdc answer", "credit": "1/1"}
    ]
  },
  "json_fields": {
    "gold_shape": "{\"fields\": {name: expected}}",
    "semantics": "The answer must parse as a JSON object; credit = fields equal / fields (strings by norm, numbers by exact decimal value, other types by canonical JSON).",
    "examples": [
      {"gold": {"fields": {"city": "Tokyo", "count": 3, "ok": true}}, "answer": "{\"city\": \"TOKYO\", \"count\": 3.0, \"ok\": false}", "credit": "2/3"}
    ]
  }
}`;

function deepFreeze<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** One documented example of a grader: grading `answer` against `gold` gives `credit`. */
export interface GraderExample {
  gold: JsonObject;
  answer: string;
  credit: string;
}
/** Description of one grader in the pack (`gold_shape`, `semantics`, `examples`). */
export interface GraderTypeDescription {
  gold_shape: string;
  semantics: string;
  examples: GraderExample[];
}

/**
 * The pack's `benchmark.grader_types` block (SPEC 8): for every grader its
 * gold shape, semantics and worked examples. Deep-frozen; canonically
 * identical to the block in `spec/vectors/packs/small.json`.
 */
export const GRADER_TYPES: Readonly<Record<GraderType, GraderTypeDescription>> = deepFreeze(
  parseJson(GRADER_TYPES_JSON) as unknown as Record<GraderType, GraderTypeDescription>,
);
