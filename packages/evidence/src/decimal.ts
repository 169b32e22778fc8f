/**
 * Exact decimals as scaled integers, `coef / 10^scale`: the "exact decimal arithmetic" of `spec/SPEC.md`
 * section 5 (numeric gold and answers, json_fields numbers) and the decimal texts of section 6, compared
 * by aligning their scales, never by reducing a fraction. A reduction is Euclid's gcd, quadratic in the
 * digits: a 100,000-digit answer took 143 s to grade that way (probe26 B-F1); aligned, it takes
 * milliseconds.
 * @packageDocumentation
 */
import { EvidenceError } from "./errors.js";

/** An exact decimal `coef / 10^scale` (`scale >= 0`); `"-12.50"` is `{coef: -1250n, scale: 2}`. */
export interface ExactDecimal {
  /** the digits as an integer, with the sign */
  readonly coef: bigint;
  /** how many of them are after the point, >= 0 */
  readonly scale: number;
}

const DECIMAL_RE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/;

/** Largest exponent a decimal text may carry (`1e100000`): its digits are made. */
export const MAX_DECIMAL_EXPONENT = 100_000;

/**
 * The exact value of a decimal text: plain (`"-12.50"`, `".5"`, `"12."`) or, with `allowExponent`,
 * scientific (`"1e-07"`, `"1E2"`: JSON number lexemes and Python float renderings). At least one digit.
 * @throws EvidenceError `schema` naming `path` for anything else, or an exponent beyond
 *   +-{@link MAX_DECIMAL_EXPONENT}
 */
export function parseExactDecimal(s: string, path = "$", allowExponent = false): ExactDecimal {
  const m = typeof s === "string" ? DECIMAL_RE.exec(s) : null;
  const intPart = m?.[2] ?? "";
  const fracPart = m?.[3] ?? "";
  if (m === null || intPart.length + fracPart.length === 0 || (!allowExponent && m[4] !== undefined))
    throw new EvidenceError(
      "schema",
      path,
      `not a decimal number: ${JSON.stringify(typeof s === "string" ? s.slice(0, 80) : s)}`,
    );
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > MAX_DECIMAL_EXPONENT)
    throw new EvidenceError("schema", path, "decimal exponent out of range");
  const digits = BigInt((intPart + fracPart).replace(/^0+(?=.)/, "") || "0");
  const coef = m[1] === "-" ? -digits : digits;
  const shift = exp - fracPart.length;
  return shift >= 0 ? { coef: coef * 10n ** BigInt(shift), scale: 0 } : { coef, scale: -shift };
}

/**
 * The value key of a JSON number lexeme (`"0e-100001"`, `"1.50e3"`; SPEC 5 json_fields: an answer's number
 * is the exact decimal of its own JSON text), in time linear in its length and whatever its exponent as
 * written: no digit string is expanded (probe36 V-F10: `1e-99999`, 14 bytes, was expanded to 10^99999 to be
 * compared). Leading zeros of the digits and trailing zeros of the mantissa are dropped and the exponent
 * adjusted; a zero mantissa is exactly 0 whatever its exponent (probe36 V-F1). Two decimals are equal exactly
 * when their keys are ({@link decimalKey}).
 * @returns `"0"`, or the sign (`-` or none), the significant digits and `e` with the exponent (`"15e-1"` for
 *   `"1.50"`); `null` for an exponent past 15 digits (beyond every gold: no key equals it)
 * @throws EvidenceError `schema` naming `path` for a text that is not a decimal number
 */
export function decimalLexemeKey(s: string, path = "$"): string | null {
  const m = typeof s === "string" ? DECIMAL_RE.exec(s) : null;
  const intPart = m?.[2] ?? "";
  const fracPart = m?.[3] ?? "";
  if (m === null || intPart.length + fracPart.length === 0)
    throw new EvidenceError(
      "schema",
      path,
      `not a decimal number: ${JSON.stringify(typeof s === "string" ? s.slice(0, 80) : s)}`,
    );
  const digits = intPart + fracPart;
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === 0x30) first++;
  if (first === digits.length) return "0"; // a zero mantissa: 0 whatever the exponent
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 0x30) end--;
  // the exponent as written, its leading zeros aside: past 15 digits it is no gold's
  const expText = m[4] ?? "0";
  const expSign = expText.startsWith("-") ? -1 : 1;
  let e0 = expText.startsWith("-") || expText.startsWith("+") ? 1 : 0;
  while (e0 < expText.length - 1 && expText.charCodeAt(e0) === 0x30) e0++;
  if (expText.length - e0 > 15) return null;
  // value = digits[first, end) * 10^exp, exp = written exponent - fraction digits + trailing zeros dropped
  const exp = expSign * Number(expText.slice(e0)) - fracPart.length + (digits.length - end);
  return `${m[1] === "-" ? "-" : ""}${digits.slice(first, end)}e${exp}`;
}

/**
 * The value key of an exact decimal, as {@link decimalLexemeKey} gives it for a lexeme of the same value
 * (`{coef: 150n, scale: 2}` is `"15e-1"`, 0 is `"0"`): equal keys, equal values.
 */
export function decimalKey(d: ExactDecimal): string {
  if (d.coef === 0n) return "0";
  return decimalLexemeKey(d.scale === 0 ? d.coef.toString() : `${d.coef.toString()}e-${d.scale}`)!;
}

/** An integer as an {@link ExactDecimal}. */
export function integerDecimal(n: bigint): ExactDecimal {
  return { coef: n, scale: 0 };
}

/** The coefficients of `ds` at their common (largest) scale, in order. */
function aligned(...ds: ExactDecimal[]): bigint[] {
  const scale = Math.max(...ds.map((d) => d.scale));
  return ds.map((d) => (d.scale === scale ? d.coef : d.coef * 10n ** BigInt(scale - d.scale)));
}

/** -1, 0 or 1 as `a` <, =, > `b` (`"0.50"` equals `"0.5"`). */
export function compareDecimals(a: ExactDecimal, b: ExactDecimal): -1 | 0 | 1 {
  const [x, y] = aligned(a, b) as [bigint, bigint];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `a + b`, exactly. */
export function addDecimals(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  const [x, y] = aligned(a, b) as [bigint, bigint];
  return { coef: x + y, scale: Math.max(a.scale, b.scale) };
}

/** Whether `|a - b| <= tolerance` (SPEC 5 numeric), exactly. */
export function withinTolerance(a: ExactDecimal, b: ExactDecimal, tolerance: ExactDecimal): boolean {
  const [x, y, t] = aligned(a, b, tolerance) as [bigint, bigint, bigint];
  const d = x - y;
  return (d < 0n ? -d : d) <= t;
}
