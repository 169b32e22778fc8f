/**
 * `spec/SPEC.md` section 2: Python's float repr, the canonical rendering of a
 * binary64 number.
 * @packageDocumentation
 */
import { EvidenceError } from "../errors.js";

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
