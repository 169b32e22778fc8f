/**
 * Gold shaping (seed "Publish a Benchmark from Your Data", the table of step 2; SPEC 5): each row's
 * `gold_field` (default `label`) becomes the gold of its task, shaped per grader. Labels no answer could
 * ever match are refused at publish time naming the row, and every shaped gold is finally checked by the
 * evidence library's `validateGold` (the single source of the gold rules; among them, no string `norm`
 * reads may hold a code point not assigned in Unicode 14.0.0, evidence `NORM_UNICODE_BASELINE`: probe34
 * B-F1).
 *
 * | grader | gold | refused |
 * |---|---|---|
 * | `exact` | `{"value": str(label), "alternatives"?: [...]}` | a label with no letter or digit; an object/array/null label |
 * | `numeric` | `{"value": number or decimal string, "tolerance": t}` (t defaults to 0) | a label that is not a plain decimal number; `|value| + t` past 100 integer digits (evidence `NUMERIC_GOLD_MAX_INT_DIGITS`); a value or t past 100 fractional digits (`NUMERIC_GOLD_MAX_FRAC_DIGITS`) |
 * | `contains_all` | `{"terms": [...]}` (a list label as is; a string label split on commas) | any other type, no usable term |
 * | `json_fields` | `{"fields": label}` | a label that is not a non-empty object |
 */
import { GRADER_TYPE_NAMES, isEvidenceError, validateGold, type GraderType } from "@bench-bounty/evidence";
import type { RowIssue } from "./errors.js";
import { getPath, isJsonFloat, isJsonObject, jsonTypeName, type JsonObject, type JsonValue } from "./json.js";
import type { JsonFloat } from "@bench-bounty/evidence";
import { renderValue } from "./template.js";

export { GRADER_TYPE_NAMES, type GraderType };

/** Options of gold shaping. */
export interface GoldOptions {
  /** Dotted path of the gold in the row body (default `label`). */
  gold_field?: string;
  /** `numeric` only: tolerance, a number or a decimal string >= 0 (default 0). */
  tolerance?: number | string;
  /** `exact` only: dotted path of a list of alternative strings in the row body. */
  alternatives_field?: string;
}

const NUMERIC_RE = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/;
const PLAIN_DECIMAL_RE = /^[0-9]+(\.[0-9]+)?$/;

const NUMBER_TEXT_RE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/**
 * Most digits a number sent to the service may spell out in plain notation (probe36 A-F7): the digits
 * of its mantissa as written plus the zeros its exponent adds ({@link plainDecimalWidth}). Generous
 * for real data: every binary64 in any notation of at most 17 significant digits spells at most 343
 * (`5e-324` is 324 fraction digits, `1.7976931348623157e308` 309 integer digits), a JSON integer at
 * most 78 (`integer_too_large` past that), a numeric gold at most 100 integer and 100 fraction digits
 * (evidence `NUMERIC_GOLD_MAX_INT_DIGITS`, `NUMERIC_GOLD_MAX_FRAC_DIGITS`), a pack's decimal at most
 * 100 characters (`PACK_LIMITS.maxDecimalLength`). A longer one (`1e-100000`, `0.` and 60,000 zeros
 * and `1`, `0e600000000`) is refused by {@link sentNumberText} and {@link unkeptNumberError} before any
 * digit is moved: written out it cost time quadratic in its length, or a string past the engine's limit.
 */
export const MAX_PLAIN_DECIMAL_DIGITS = 1000;

/**
 * How many digits {@link plainDecimal} would write for `text` before trimming zeros: the mantissa's
 * digits as written, plus the zeros the exponent puts before or after them (`1e-5` 6, `1.5e16` 17,
 * `0e600000000` 600,000,001, `000.100` 6). Linear in the length of `text`; builds no string, so an
 * exponent of any size costs what its digits cost (a huge one gives a huge width, or `Infinity`).
 * @param text a number's text (a JSON number lexeme, `String` of a number or bigint)
 * @returns the width, or null when `text` is not a decimal number's text
 */
export function plainDecimalWidth(text: string): number | null {
  const m = NUMBER_TEXT_RE.exec(text);
  if (m === null) return null;
  const [, , intPart = "", frac = "", exp = "0"] = m;
  const len = intPart.length + frac.length;
  // an exponent too large for a safe integer is far past any bound: its width only needs to be large
  const point = intPart.length + Number(exp);
  return Math.max(len, point, len - point);
}

/**
 * The refusal of a number that spells out more than {@link MAX_PLAIN_DECIMAL_DIGITS} digits in plain
 * notation ({@link plainDecimalWidth}), or null: checked before anything expands or trims its digits.
 * @param field named in the message (a JSON path `$.offset`, an option `tolerance`)
 * @param sent the number's text as sent
 */
function longNumberError(field: string, sent: string): string | null {
  const width = plainDecimalWidth(sent);
  if (width === null || width <= MAX_PLAIN_DECIMAL_DIGITS) return null;
  return `${field} ${shownNumber(sent)} is a number of more than ${MAX_PLAIN_DECIMAL_DIGITS} digits written out in plain decimal (its digits and the zeros its exponent adds), past any value the service takes`;
}

/**
 * Plain-notation decimal text of a number rendering (`1e-05` -> `0.00001`, `1.5e+16` -> `15000000000000000`).
 * Exact: the digits are moved, never recomputed. Linear in the result's length (the zeros are trimmed
 * by index, not by a backtracking RegExp: `/0+$/` took seconds on a run of zeros before a digit,
 * probe36 A-F7).
 * @throws Error for a text that is not a number, or that spells out more than
 *   {@link MAX_PLAIN_DECIMAL_DIGITS} digits (a caller refuses such a number first, naming its field:
 *   {@link sentNumberText}, {@link unkeptNumberError})
 */
export function plainDecimal(text: string): string {
  const m = NUMBER_TEXT_RE.exec(text);
  if (m === null) throw new Error(`not a number: ${shownNumber(text)}`);
  const width = plainDecimalWidth(text)!;
  if (width > MAX_PLAIN_DECIMAL_DIGITS)
    throw new Error(`${shownNumber(text)} spells out more than ${MAX_PLAIN_DECIMAL_DIGITS} digits`);
  const [, sign, intPart = "", frac = "", exp = "0"] = m;
  let digits = intPart + frac;
  let point = intPart.length + Number(exp);
  if (point < 0) {
    digits = "0".repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits = digits + "0".repeat(point - digits.length);
  // leading zeros of the integer part (one kept), trailing zeros of the fraction
  let first = 0;
  while (first < point - 1 && digits.charCodeAt(first) === 0x30) first++;
  let end = digits.length;
  while (end > point && digits.charCodeAt(end - 1) === 0x30) end--;
  const ip = point === 0 ? "0" : digits.slice(first, point);
  const fp = digits.slice(point, end);
  const out = fp === "" ? ip : `${ip}.${fp}`;
  return (sign === "-" && /[1-9]/.test(out) ? "-" : "") + out;
}

/** Significant digits a double keeps for any decimal (DBL_DIG): a decimal of at most 15 reads back as written. */
const DOUBLE_DIGITS = 15;

/** A number's text for a message: as sent, cut to 40 characters (`...` marks the cut). */
export function shownNumber(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/**
 * The refusal of an integer JSON number beyond 2^53-1, quoting `sent` (its digits as sent); the advice
 * to send a decimal string only where the field takes one (`asString`).
 */
function bigIntegerError(field: string, sent: string, asString: boolean): string {
  const beyond = sent.startsWith("-")
    ? "below -(2^53-1) (-9007199254740991)"
    : "above 2^53-1 (9007199254740991)";
  // the advice's example is the number's plain digits: `1e21` as sent is "1000000000000000000000" (probe28
  // C-F6: the example quoted "1e+21", which the decimal-string fields refuse)
  return `${field} ${shownNumber(sent)} is a number ${beyond}, which loses digits${asString ? `: send it as a plain decimal string (e.g. "${shownNumber(plainDecimal(sent))}")` : ""}`;
}

/** How {@link sentNumberText} words its refusal. */
export interface SentNumberOptions {
  /**
   * The field also takes a decimal string (default true): the refusal says to send one. False for a
   * field that takes only a JSON number (a submission's `ordinal`): the refusal then says what was
   * wrong and gives no advice it could not follow.
   */
  asString?: boolean;
  /**
   * The field takes only whole numbers (an integer field of a request body): a number sent with a
   * fraction (`1.0000000000000001`) is refused as not a whole number, with no decimal-string advice
   * (the field's string form takes whole numbers too; probe25 A-F4).
   */
  integer?: boolean;
}

/**
 * The refusal of a JSON number whose text is not the double it reads as: `1e-400` reads as 0,
 * `1.0000000000000001` as 1, `0.1000000000000000055511151231257827` as 0.1, `9007199254740993.0` as
 * ...992. The one test of a number that loses what its author wrote, shared by the publish options
 * ({@link sentNumberText}) and the numbers in a dataset's rows (`dataset.ts`, probe30 A-F3). A text
 * that is the double's in another notation is kept (`1E+2`, `2.50`, `5e-324`, `-0`): SPEC 2 makes a
 * float a binary64, rendered canonically. A text that spells out more than
 * {@link MAX_PLAIN_DECIMAL_DIGITS} digits in plain notation (`1e-100000`) is refused as such, in time
 * linear in its length (probe36 A-F7).
 * @param field named in the message (an option, a JSON path `$.rows[0].label`)
 * @param sent the number's text as sent (a JSON number lexeme)
 * @param value the double `sent` reads as
 * @param asString the field also takes a decimal string: the message advises one (default true)
 * @returns the message naming `field` and quoting `sent` (cut to 40 characters), or null when kept
 */
export function unkeptNumberError(
  field: string,
  sent: string,
  value: number,
  asString = true,
): string | null {
  const read = String(value);
  if (sent === read) return null;
  const long = longNumberError(field, sent);
  if (long !== null) return long;
  const asSent = plainDecimal(sent);
  if (asSent === plainDecimal(read)) return null;
  const advice = asString ? `: send it as a decimal string, e.g. "${shownNumber(asSent)}"` : "";
  return `${field} ${shownNumber(sent)} is not the number a JSON reader keeps (it reads as ${read})${advice}`;
}

/**
 * The plain decimal of a JSON number option exactly as its author sent it, or why it cannot be kept
 * (probe21 A-F2; probe19 A-F6 for big integers): the one rule of a publish option given as a JSON
 * number. `v` is a JS number (its text unknown: judged from the double) or a {@link JsonFloat} from
 * the lossless parser (its lexeme is the text sent). Refused, each "send it as a decimal string": an
 * integer above 2^53-1; a number whose text is not the double it reads as (`1.0000000000000001` reads
 * as 1, `1e-400` as 0); a non-integer of more than 15 significant digits, which a double does not keep
 * as written (`0.30000000000000004`). A non-finite number is refused too, and first of all a number
 * whose text spells out more than {@link MAX_PLAIN_DECIMAL_DIGITS} digits in plain notation
 * (`1e-100000`, `0e600000000`: probe36 A-F7), so that the work is linear in the text's length.
 * @param field the option, named in the message (`tolerance`, `public_fraction`, a JSON path
 *   `$.answers[0].ordinal`)
 * @param opts {@link SentNumberOptions}: whether the message advises a decimal string (default yes)
 * @returns the plain decimal text (`1e-7` -> `"0.0000001"`), or an error message naming `field`
 */
export function sentNumberText(
  field: string,
  v: number | bigint | JsonFloat,
  opts: SentNumberOptions = {},
): string | { error: string } {
  const asString = opts.asString ?? true;
  const advice = (text: string) =>
    asString ? `: send it as a decimal string, e.g. "${shownNumber(text)}"` : "";
  // first, before any digit is moved: a number spelling out too many digits (probe36 A-F7)
  const long = longNumberError(field, typeof v === "object" ? v.lexeme : String(v));
  if (long !== null) return { error: long };
  // the lossless parser gives an integer beyond 2^53-1 as a bigint: its digits are the text sent (probe22)
  if (typeof v === "bigint") {
    if (v >= -BigInt(Number.MAX_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)) return String(v);
    return { error: bigIntegerError(field, String(v), asString) };
  }
  const value = typeof v === "number" ? v : v.value;
  const sent = typeof v === "number" ? String(v) : v.lexeme;
  if (!Number.isFinite(value)) return { error: `${field} must be a finite number` };
  if (Number.isInteger(value) && !Number.isSafeInteger(value))
    return { error: bigIntegerError(field, sent, asString) };
  const asSent = plainDecimal(sent);
  if (opts.integer && /\.[0-9]*[1-9]/.test(asSent))
    return { error: `${field} ${shownNumber(sent)} is not a whole number` };
  const unkept = unkeptNumberError(field, sent, value, asString);
  if (unkept !== null) return { error: unkept };
  const digits = asSent.replace(/[-.]/g, "").replace(/^0+/, "").length;
  if (!Number.isInteger(value) && digits > DOUBLE_DIGITS)
    return {
      error: `${field} ${shownNumber(sent)} has ${digits} significant digits, more than the ${DOUBLE_DIGITS} a JSON number keeps as written${advice(asSent)}`,
    };
  return asSent;
}

/**
 * Normalises a tolerance option: a non-negative integer stays a number, anything else becomes a plain
 * decimal string. A JSON number (a JS number or a {@link JsonFloat} with the text sent) is kept only
 * as sent ({@link sentNumberText}).
 * @returns the tolerance, or an error message
 */
export function normaliseTolerance(t: unknown): number | string | { error: string } {
  if (t === undefined || t === null) return 0;
  if (typeof t === "bigint") {
    const text = sentNumberText("tolerance", t);
    if (typeof text === "object") return text;
    return t < 0n ? { error: "tolerance must be a finite number >= 0" } : Number(t);
  }
  if (typeof t === "number" || isJsonFloat(t)) {
    const value = typeof t === "number" ? t : t.value;
    if (!Number.isFinite(value) || value < 0) return { error: "tolerance must be a finite number >= 0" };
    const text = sentNumberText("tolerance", t);
    if (typeof text === "object") return text;
    return Number.isInteger(value) ? Math.abs(value) : text;
  }
  if (typeof t === "string" && PLAIN_DECIMAL_RE.test(t.trim())) return t.trim();
  return { error: 'tolerance must be a number or a plain decimal string >= 0 (e.g. 0.5 or "0.5")' };
}

/**
 * The gold field's twin for the whole test set (probe28 B-F4: a typo in `alternatives_field` published a
 * benchmark whose exact grader had no alternatives, its commitment anchored): a row may go without
 * alternatives (the field absent or null), but a field that no row has is refused as a gold field
 * missing from a row is, one issue per row (code `missing`; {@link shapeGold} checks the rows that
 * have it).
 * @param rows the stored row bodies
 * @param field the `alternatives_field` option, or undefined (nothing to check)
 * @returns an issue for every row when no row has `field`, else none
 */
export function alternativesIssues(rows: readonly JsonValue[], field: string | undefined): RowIssue[] {
  if (field === undefined || rows.some((row) => getPath(row, field).found)) return [];
  return rows.map((_, i) => ({
    row_index: i,
    field,
    code: "missing",
    message: `alternatives field ${field} is missing from the row (as from every row: a row may go without alternatives, but a field no row has is a typo)`,
  }));
}

/**
 * Shapes the gold of one row for a grader.
 * @param row the stored row body
 * @param rowIndex dataset row index, for the error
 * @returns `{gold}`, or `{issue}` naming the row and the gold field (`alternatives_field` for an
 *   alternative the grader rules refuse)
 */
export function shapeGold(
  graderType: GraderType,
  row: JsonValue,
  rowIndex: number,
  opts: GoldOptions = {},
): { gold: JsonObject } | { issue: RowIssue } {
  const field = opts.gold_field ?? "label";
  const bad = (message: string, code = "invalid_label"): { issue: RowIssue } => ({
    issue: { row_index: rowIndex, field, code, message },
  });
  const got = getPath(row, field);
  if (!got.found) return bad(`gold field ${field} is missing from the row`, "missing");
  const label = got.value;
  let gold: JsonObject;
  switch (graderType) {
    case "exact": {
      if (label === null || Array.isArray(label) || isJsonObject(label))
        return bad(`exact gold needs a scalar label, got ${jsonTypeName(label)}`);
      const value = renderValue(label);
      if (!/[\p{L}\p{N}]/u.test(value))
        return bad(`exact label ${JSON.stringify(value)} has no letter or digit: no answer could match it`);
      gold = { value };
      if (opts.alternatives_field !== undefined) {
        const alt = getPath(row, opts.alternatives_field);
        if (alt.found && alt.value !== null) {
          if (!Array.isArray(alt.value) || alt.value.some((a) => typeof a !== "string")) {
            return {
              issue: {
                row_index: rowIndex,
                field: opts.alternatives_field,
                code: "invalid_label",
                message: "alternatives must be a list of strings",
              },
            };
          }
          if (alt.value.length > 0) gold.alternatives = alt.value;
        }
      }
      break;
    }
    case "numeric": {
      let value: JsonValue;
      if (typeof label === "number" || typeof label === "bigint") value = label;
      else if (isJsonFloat(label)) value = plainDecimal(label.toString());
      else if (typeof label === "string" && NUMERIC_RE.test(label.trim())) value = label.trim();
      else
        return bad(
          `numeric label ${typeof label === "string" ? JSON.stringify(label) : jsonTypeName(label)} is not a plain decimal number`,
        );
      const tol = normaliseTolerance(opts.tolerance);
      if (typeof tol === "object") return bad(tol.error, "invalid_option");
      gold = { value, tolerance: tol };
      break;
    }
    case "contains_all": {
      let terms: string[];
      if (Array.isArray(label)) {
        if (label.some((t) => typeof t !== "string"))
          return bad("contains_all label list must hold only strings");
        terms = label as string[];
      } else if (typeof label === "string") {
        terms = label
          .split(",")
          .map((t) => t.trim())
          .filter((t) => t !== "");
      } else
        return bad(
          `contains_all label must be a list of strings or a comma-separated string, got ${jsonTypeName(label)}`,
        );
      if (terms.length === 0 || terms.some((t) => t.trim() === ""))
        return bad("contains_all label has no usable terms (an empty term matches nothing useful)");
      gold = { terms };
      break;
    }
    case "json_fields": {
      if (!isJsonObject(label) || Object.keys(label).length === 0)
        return bad(`json_fields label must be a non-empty object, got ${jsonTypeName(label)}`);
      gold = { fields: label };
      break;
    }
    default:
      return bad(`unknown grader_type ${String(graderType)}`, "invalid_option");
  }
  try {
    validateGold(graderType, gold);
  } catch (e) {
    if (!isEvidenceError(e)) throw e;
    const issue = bad(`gold refused by the grader rules: ${e.message}`, "invalid_gold");
    // an alternative comes from its own field of the row: the issue names that field
    if (opts.alternatives_field !== undefined && /^\$\.alternatives\b/.test(e.path))
      issue.issue.field = opts.alternatives_field;
    return issue;
  }
  return { gold };
}
