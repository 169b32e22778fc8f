/**
 * Exact rational arithmetic on bigints (`spec/SPEC.md` sections 5-6: no binary floats on any
 * scoring path) and the decimal-string conversions of SPEC 6.
 * @packageDocumentation
 */
import { parseExactDecimal } from "./decimal.js";
import { EvidenceError } from "./errors.js";

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/**
 * An exact rational number `num/den`, always reduced, `den > 0`. The reduction is Euclid's gcd, fast
 * while one of the two is short (credits, scores, amounts); long decimals (numeric gold and answers) are
 * compared as `ExactDecimal`s (decimal.ts) instead, never reduced (probe26 B-F1).
 * `toString()` is the SPEC 6 credit form: `"2/3"`, `"1/1"`, `"0/1"`.
 */
export class Fraction {
  /** numerator (sign of the fraction) */
  readonly num: bigint;
  /** denominator, > 0 */
  readonly den: bigint;

  /** @throws EvidenceError `malformed` for a zero denominator */
  constructor(num: bigint | number, den: bigint | number = 1n) {
    let n = BigInt(num);
    let d = BigInt(den);
    if (d === 0n) throw new EvidenceError("malformed", "$", "division by zero");
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    const g = gcd(n, d);
    this.num = g > 1n ? n / g : n;
    this.den = g > 1n ? d / g : d;
  }

  /** 0/1 */
  static readonly ZERO = new Fraction(0n);
  /** 1/1 */
  static readonly ONE = new Fraction(1n);

  /** this + o */
  add(o: Fraction): Fraction {
    return new Fraction(this.num * o.den + o.num * this.den, this.den * o.den);
  }
  /** this - o */
  sub(o: Fraction): Fraction {
    return new Fraction(this.num * o.den - o.num * this.den, this.den * o.den);
  }
  /** this * o */
  mul(o: Fraction): Fraction {
    return new Fraction(this.num * o.num, this.den * o.den);
  }
  /** @throws EvidenceError `malformed` when dividing by zero */
  div(o: Fraction): Fraction {
    return new Fraction(this.num * o.den, this.den * o.num);
  }
  /** -this */
  neg(): Fraction {
    return new Fraction(-this.num, this.den);
  }
  /** |this| */
  abs(): Fraction {
    return this.num < 0n ? this.neg() : this;
  }
  /** -1, 0 or 1 as this <, =, > o */
  cmp(o: Fraction): number {
    const l = this.num * o.den;
    const r = o.num * this.den;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  /** exact equality */
  eq(o: Fraction): boolean {
    return this.num === o.num && this.den === o.den;
  }
  /** this == 0 */
  isZero(): boolean {
    return this.num === 0n;
  }
  /** Clamp into `[lo, hi]`. */
  clamp(lo: Fraction, hi: Fraction): Fraction {
    return this.cmp(lo) < 0 ? lo : this.cmp(hi) > 0 ? hi : this;
  }
  /** `"num/den"`, e.g. `"2/3"`, `"0/1"` (SPEC 6 credit form). */
  toString(): string {
    return `${this.num}/${this.den}`;
  }
  /** JSON form: the credit string */
  toJSON(): string {
    return this.toString();
  }
}

/** A credit: a reduced fraction in [0, 1] (`toString()` gives `"2/3"`). */
export type Credit = Fraction;

const FRACTION_RE = /^(-?)(0|[1-9][0-9]*)\/([1-9][0-9]*)$/;

/**
 * Parse a credit/fraction string `"n/d"`.
 * @param strict require the reduced form (SPEC 6: a graded receipt credit is a reduced fraction)
 * @throws EvidenceError `schema`
 */
export function parseFraction(s: string, path = "$", strict = false): Fraction {
  const m = typeof s === "string" ? FRACTION_RE.exec(s) : null;
  if (m === null) throw new EvidenceError("schema", path, `not a fraction "n/d": ${JSON.stringify(s)}`);
  const f = new Fraction(BigInt(`${m[1]}${m[2]}`), BigInt(m[3] as string));
  if (strict && f.toString() !== s)
    throw new EvidenceError("schema", path, `fraction ${s} is not reduced (expected ${f.toString()})`);
  return f;
}

/**
 * Exact value of a decimal text: plain (`"-12.50"`, `".5"`, `"12."`) or, with
 * `allowExponent`, scientific (`"1e-07"`, `"1E2"`; used for JSON number
 * lexemes and Python float renderings). At least one digit is required.
 * @throws EvidenceError `schema` for anything else
 */
export function decimalToFraction(s: string, path = "$", allowExponent = false): Fraction {
  const d = parseExactDecimal(s, path, allowExponent);
  return new Fraction(d.coef, 10n ** BigInt(d.scale));
}

/**
 * Round to `dp` decimal places, ROUND_HALF_UP (ties away from zero), and
 * render in plain notation with exactly `dp` places (`"0.5000"`).
 */
export function roundHalfUp(x: Fraction, dp: number): string {
  const scale = 10n ** BigInt(dp);
  const neg = x.num < 0n;
  const n = neg ? -x.num : x.num;
  // floor(n*scale/den + 1/2) = floor((2*n*scale + den) / (2*den))
  const q = (2n * n * scale + x.den) / (2n * x.den);
  const s = q.toString().padStart(dp + 1, "0");
  const body = dp === 0 ? s : `${s.slice(0, s.length - dp)}.${s.slice(s.length - dp)}`;
  return neg && q !== 0n ? `-${body}` : body;
}

/**
 * Exact value of a decimal string with exactly `dp` places (SPEC 6 format
 * rules: scores 4, `wall_seconds` 3, USDC 6), non-negative, plain notation.
 * @throws EvidenceError `schema` naming `path`
 */
export function parseFixedDecimal(s: unknown, dp: number, path = "$", what = "value"): Fraction {
  const re = dp === 0 ? /^(0|[1-9][0-9]*)$/ : new RegExp(`^(0|[1-9][0-9]*)\\.[0-9]{${dp}}$`);
  if (typeof s !== "string" || !re.test(s))
    throw new EvidenceError(
      "schema",
      path,
      `${what} must be a decimal string with exactly ${dp} decimal places, got ${JSON.stringify(s)}`,
    );
  return decimalToFraction(s, path);
}
