/**
 * The three prize renders of the compete seed ("Prizes: locked USDC behind some benchmarks"):
 *
 * - `Prize: 50 USDC, locked at 0x...` (the `Prize: ` label optional): a funded pool this read checked on-chain against the
 *   author's declared token and author. The API writes it on the benchmark detail only;
 * - `50 USDC`: a declared pool this read did not verify (the list never verifies, so a list item
 *   always has this shorter form, even for a genuinely locked prize);
 * - `--`: no pool.
 *
 * The server decides the render (it is the one that read the chain); the web app only classifies
 * the string it was given and explains it. It never upgrades a declared pool to "locked".
 *
 * @packageDocumentation
 */
import { usdcFromBaseUnits } from "./usdc.js";

/** Which of the three renders a prize string is. */
export type PrizeRender =
  | { kind: "locked"; text: string; amount: string; address: string }
  | { kind: "declared"; text: string; amount: string }
  | { kind: "none"; text: "--" };

const LOCKED = /^(?:Prize: )?([0-9]+(?:\.[0-9]+)?) USDC, locked at (0x[0-9a-fA-F]{40})$/;
const DECLARED = /^([0-9]+(?:\.[0-9]+)?) USDC$/;

/**
 * Classifies a prize as served.
 * @param prize the API's `prize` string, when it sent one
 * @param poolUsdc the API's `prize_pool_usdc` (a USDC decimal string) or, failing that, a pool in
 *   base units (`poolBaseUnits`), used only when `prize` is absent; it can only give the declared
 *   render, never the locked one
 * @returns the render; a string in none of the three forms is shown as declared text only if it
 *   names a USDC amount, otherwise as no pool
 */
export function classifyPrize(
  prize: string | null | undefined,
  poolUsdc?: string | null,
  poolBaseUnits?: string | null,
): PrizeRender {
  if (typeof prize === "string") {
    const text = prize.trim();
    const locked = LOCKED.exec(text);
    if (locked) return { kind: "locked", text, amount: locked[1]!, address: locked[2]! };
    const declared = DECLARED.exec(text);
    if (declared) return { kind: "declared", text, amount: declared[1]! };
    return { kind: "none", text: "--" };
  }
  const amount =
    poolUsdc ??
    (poolBaseUnits === null || poolBaseUnits === undefined ? null : usdcFromBaseUnits(poolBaseUnits));
  if (amount === null || amount === undefined || Number(amount) === 0) return { kind: "none", text: "--" };
  return { kind: "declared", text: `${amount} USDC`, amount };
}

/** What each render means, in the words of the seed (shown as the render's tooltip and legend). */
export const PRIZE_RENDER_MEANING: Readonly<Record<PrizeRender["kind"], string>> = Object.freeze({
  locked: "a funded pool this read verified on-chain against the author's declared token and author",
  declared:
    "a declared pool this read did not verify on-chain (fetch the benchmark detail before you treat it as real)",
  none: "no prize pool",
});
