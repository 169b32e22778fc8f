/**
 * `cost_sum`: `base_cost_usdc + margin_usdc == total_usdc` in exact decimal
 * arithmetic, each a USDC amount in its one canonical form (SPEC 6, evidence `USDC6`: `"0.012075"`,
 * exactly 6 decimals, no sign, no leading zero); `token_sum`: `prompt_tokens + completion_tokens == total_tokens`.
 * @packageDocumentation
 */
import {
  addDecimals,
  compareDecimals,
  isEvidenceError,
  parseExactDecimal,
  USDC6,
  type ExactDecimal,
  type JsonValue,
} from "@bench-bounty/evidence";
import { USDC_DECIMALS } from "@bench-bounty/contracts";
import { describeError } from "../errors.js";
import { fact, type Fact } from "../facts.js";
import { printable } from "../text.js";
import type { ComputeReceiptFacts, ReceiptWalk } from "./context.js";

/** A token count: an integer >= 0, else null (probe25 B-F4: `-1 + 1501 == 1500` was verified). */
function asCount(v: JsonValue | undefined): bigint | null {
  const n = typeof v === "number" && Number.isSafeInteger(v) ? BigInt(v) : typeof v === "bigint" ? v : null;
  return n !== null && n >= 0n ? n : null;
}

/** How many characters of a signed amount a fact quotes (probe25 B-F5: 100,001 digits were printed whole). */
const MAX_AMOUNT_CHARS = 60;
const shown = (amount: string): string => printable(amount, MAX_AMOUNT_CHARS);

/** The `cost_sum` and `token_sum` facts. */
export function sumFacts(walk: ReceiptWalk): Pick<ComputeReceiptFacts, "cost_sum" | "token_sum"> {
  const p = walk.payload;
  const pt = asCount(p.prompt_tokens);
  const ct = asCount(p.completion_tokens);
  const tt = asCount(p.total_tokens);
  return {
    cost_sum: costSum(p.base_cost_usdc, p.margin_usdc, p.total_usdc),
    token_sum:
      pt === null || ct === null || tt === null
        ? fact("failed", "prompt_tokens, completion_tokens and total_tokens must be integers >= 0")
        : pt + ct === tt
          ? fact("verified", `${pt} + ${ct} == ${tt} tokens`)
          : fact("failed", `prompt_tokens ${pt} + completion_tokens ${ct} != total_tokens ${tt}`),
  };
}

/**
 * A cost's text read as a USDC amount: its exact value, or why it is none: not a decimal (thrown, an
 * EvidenceError naming `name`), negative, finer than USDC's 6 decimals, or not in the one canonical form
 * the platform writes every USDC amount in (SPEC 6, the evidence's `USDC6`: exactly 6 decimals, no sign,
 * no leading zero; probe34 C-N1: `"+0.010500"`, `".001575"` and `"0.0105000"` verified).
 */
function usdcAmount(name: string, text: string): { value: ExactDecimal } | { problem: string } {
  const value = parseExactDecimal(text, name);
  // by value: "-5.00" is negative (probe25 B-F4, probe26 B-F5); "-0" is 0, refused below for its sign
  if (value.coef < 0n) return { problem: `${name} ${shown(text)} is negative: a cost is a USDC amount >= 0` };
  // USDC has USDC_DECIMALS (6) decimals: 0.0000001 is no amount of it ("0.0100000" is 0.01, refused below
  // for its form)
  const excess = value.scale - USDC_DECIMALS;
  if (excess > 0 && value.coef % 10n ** BigInt(excess) !== 0n)
    return {
      problem: `${name} ${shown(text)} is not a USDC amount: USDC has ${USDC_DECIMALS} decimals (0.000001 is its smallest unit)`,
    };
  // the value is a USDC amount; its text must also be the one form of it (a signed cost has one spelling)
  if (!USDC6.test(text))
    return {
      problem: `${name} ${shown(text)} is not in the canonical USDC form: exactly ${USDC_DECIMALS} decimals, no sign, no leading zero (e.g. "0.012075")`,
    };
  return { value };
}

function costSum(
  base: JsonValue | undefined,
  margin: JsonValue | undefined,
  total: JsonValue | undefined,
): Fact {
  if (typeof base !== "string" || typeof margin !== "string" || typeof total !== "string")
    return fact("failed", "base_cost_usdc, margin_usdc and total_usdc must be decimal strings");
  try {
    const amounts: ExactDecimal[] = [];
    for (const [name, text] of [
      ["base_cost_usdc", base],
      ["margin_usdc", margin],
      ["total_usdc", total],
    ] as const) {
      const a = usdcAmount(name, text);
      if ("problem" in a) return fact("failed", a.problem);
      amounts.push(a.value);
    }
    const [b, m, t] = amounts as [ExactDecimal, ExactDecimal, ExactDecimal];
    return compareDecimals(addDecimals(b, m), t) === 0
      ? fact("verified", `${shown(base)} + ${shown(margin)} == ${shown(total)} USDC`)
      : fact(
          "failed",
          `base_cost_usdc ${shown(base)} + margin_usdc ${shown(margin)} != total_usdc ${shown(total)}`,
        );
  } catch (e) {
    if (!isEvidenceError(e)) throw e;
    return fact("failed", `a cost is not a decimal: ${describeError(e)}`);
  }
}
