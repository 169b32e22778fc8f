/**
 * `cost_sum`: `base_cost_usdc + margin_usdc == total_usdc` in exact decimal
 * arithmetic; `token_sum`: `prompt_tokens + completion_tokens == total_tokens`.
 * @packageDocumentation
 */
import {
  addDecimals,
  compareDecimals,
  isEvidenceError,
  parseExactDecimal,
  type JsonValue,
} from "@bench-bounty/evidence";
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

function costSum(
  base: JsonValue | undefined,
  margin: JsonValue | undefined,
  total: JsonValue | undefined,
): Fact {
  if (typeof base !== "string" || typeof margin !== "string" || typeof total !== "string")
    return fact("failed", "base_cost_usdc, margin_usdc and total_usdc must be decimal strings");
  // USDC amounts: a cost is never negative (probe25 B-F4: `-5.00 + 5.01 == 0.01` was verified)
  const negative = (
    [
      ["base_cost_usdc", base],
      ["margin_usdc", margin],
      ["total_usdc", total],
    ] as const
  ).find(([, v]) => v.trim().startsWith("-"));
  if (negative)
    return fact("failed", `${negative[0]} ${shown(negative[1])} is negative: a cost is a USDC amount >= 0`);
  try {
    const sum = addDecimals(parseExactDecimal(base), parseExactDecimal(margin));
    return compareDecimals(sum, parseExactDecimal(total)) === 0
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
