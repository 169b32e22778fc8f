/**
 * `cost_sum`: `base_cost_usdc + margin_usdc == total_usdc` in exact decimal
 * arithmetic; `token_sum`: `prompt_tokens + completion_tokens == total_tokens`.
 * @packageDocumentation
 */
import { decimalToFraction, isEvidenceError, type JsonValue } from "@bench-bounty/evidence";
import { describeError } from "../errors.js";
import { fact, type Fact } from "../facts.js";
import type { ComputeReceiptFacts, ReceiptWalk } from "./context.js";

function asInt(v: JsonValue | undefined): bigint | null {
  if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === "bigint") return v;
  return null;
}

/** The `cost_sum` and `token_sum` facts. */
export function sumFacts(walk: ReceiptWalk): Pick<ComputeReceiptFacts, "cost_sum" | "token_sum"> {
  const p = walk.payload;
  const pt = asInt(p.prompt_tokens);
  const ct = asInt(p.completion_tokens);
  const tt = asInt(p.total_tokens);
  return {
    cost_sum: costSum(p.base_cost_usdc, p.margin_usdc, p.total_usdc),
    token_sum:
      pt === null || ct === null || tt === null
        ? fact("failed", "prompt_tokens, completion_tokens and total_tokens must be integers")
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
  try {
    const sum = decimalToFraction(base).add(decimalToFraction(margin));
    return sum.eq(decimalToFraction(total))
      ? fact("verified", `${base} + ${margin} == ${total} USDC`)
      : fact("failed", `base_cost_usdc ${base} + margin_usdc ${margin} != total_usdc ${total}`);
  } catch (e) {
    if (!isEvidenceError(e)) throw e;
    return fact("failed", `a cost is not a decimal: ${describeError(e)}`);
  }
}
