/**
 * The three prize renders of the compete seed ("Prizes: locked USDC behind some benchmarks"):
 *
 * - `Prize: 50 USDC, locked at 0x...` (the `Prize: ` label optional): a funded pool this read checked on-chain against the
 *   author's declared token and author. The API writes it on the benchmark detail only;
 * - `Prize: 50 USDC` (the label optional, the web shows `50 USDC`): a declared pool this read did not
 *   verify (the list never verifies, so a list item always has this form, even for a genuinely locked
 *   prize; a detail after the award, past the award window or without the chain too);
 * - `--`: no pool.
 *
 * The server decides the render (it is the one that read the chain). The web app reads it from the
 * API's structured prize facts (platform `PrizeFacts` of `detail.ts`: `prize_pool_usdc`,
 * `prize_verified`, `prize_contract`) when the API sends them ({@link prizeRenderOf}), and classifies
 * the display string only for an API without them (probe37 B-F9: the string's `Prize: ` label on the
 * declared form was not accepted, so every prized benchmark of the list read "no prize pool"). It never
 * upgrades a declared pool to "locked".
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
const DECLARED = /^(?:Prize: )?([0-9]+(?:\.[0-9]+)?) USDC$/;
const AMOUNT = /^[0-9]+(?:\.[0-9]+)?$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The prize facts of a list item or a detail as the API sends them (platform `PrizeFacts`), each optional
 * for an API that sends fewer (an older one, a fixture).
 */
export interface ServedPrize {
  /** The display render (`Prize: 50 USDC, locked at 0x...`, `Prize: 50 USDC`, `--`). */
  prize?: string | null;
  /** The declared pool in USDC as a plain decimal string (`"50"`, `"12.345679"`); null: no pool. */
  prize_pool_usdc?: string | null;
  /** True only when this read checked the pool on-chain (funded, as attached, within its award window). */
  prize_verified?: boolean | null;
  /** The bounty contract holding the pool (`0x` + 40 hex), or null. */
  prize_contract?: string | null;
}

/**
 * The render of a benchmark's prize as served (seed step 8).
 *
 * When the API sends its structured facts (`prize_verified` a boolean, as every bench-bounty server
 * does), they decide: `prize_pool_usdc` null is no pool; `prize_verified` true with a contract address is
 * locked; any other pool is declared. Otherwise the display string is classified ({@link classifyPrize}).
 * @param p the list item's or detail's prize facts
 * @param poolBaseUnits a pool in USDC base units (6 decimals) some APIs send instead (`prize_pool_base_units`,
 *   the detail's `bounty.pool_base_units`), used only without `prize` and `prize_pool_usdc`
 * @returns the render; never locked unless the API said this read verified it
 */
export function prizeRenderOf(p: ServedPrize, poolBaseUnits?: string | null): PrizeRender {
  if (typeof p.prize_verified === "boolean") {
    const amount = p.prize_pool_usdc;
    if (amount === null || amount === undefined || !AMOUNT.test(amount)) return { kind: "none", text: "--" };
    const address = p.prize_contract;
    if (p.prize_verified && typeof address === "string" && ADDRESS.test(address))
      return { kind: "locked", text: `Prize: ${amount} USDC, locked at ${address}`, amount, address };
    return { kind: "declared", text: `${amount} USDC`, amount };
  }
  return classifyPrize(p.prize, p.prize_pool_usdc ?? null, poolBaseUnits ?? null);
}

/**
 * Classifies a prize display string as served, for an API without the structured prize facts
 * ({@link prizeRenderOf} reads those first).
 * @param prize the API's `prize` string, when it sent one
 * @param poolUsdc the API's `prize_pool_usdc` (a USDC decimal string) or, failing that, a pool in
 *   base units (`poolBaseUnits`), used only when `prize` is absent; it can only give the declared
 *   render, never the locked one
 * @returns the render (the declared one's text without the `Prize: ` label, `50 USDC`); a string in
 *   none of the three forms is no pool
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
    if (declared) return { kind: "declared", text: `${declared[1]!} USDC`, amount: declared[1]! };
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

/**
 * The close and award deadline of a benchmark's prize as the API sends them (platform `PrizeFacts`:
 * `prize_closes_at`, `prize_award_deadline`, unix seconds), as one line for the detail page (probe38 C-F1:
 * a competitor could not see the award deadline, after which an unawarded pool goes back to its author).
 * @returns `Closes <ISO>; award deadline <ISO> (unawarded by then, the author may reclaim the pool)`, only
 *   the part the API sent, or null when it sent neither (no prize, an older API)
 */
export function prizeTimesText(p: {
  prize_closes_at?: number | null;
  prize_award_deadline?: number | null;
}): string | null {
  const iso = (t: number | null | undefined): string | null =>
    typeof t === "number" && Number.isSafeInteger(t) && t >= 0 && t <= 8_640_000_000_000
      ? new Date(t * 1000).toISOString()
      : null;
  const closes = iso(p.prize_closes_at);
  const deadline = iso(p.prize_award_deadline);
  const parts = [
    ...(closes ? [`Closes ${closes}`] : []),
    ...(deadline ? [`award deadline ${deadline} (unawarded by then, the author may reclaim the pool)`] : []),
  ];
  if (parts.length === 0) return null;
  const text = parts.join("; ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
