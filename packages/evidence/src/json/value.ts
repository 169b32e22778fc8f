/**
 * `spec/SPEC.md` section 2: the value model of the lossless parser. Safe integers
 * are `number`, larger ones `bigint`, a number with a fraction or exponent a
 * {@link JsonFloat} (its lexeme kept), objects plain objects with own keys.
 * @packageDocumentation
 */
import { EvidenceError } from "../errors.js";
import { pyFloatRepr } from "./float.js";

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
