/**
 * USDC amounts for display. USDC has 6 decimals (SPEC 1.3, `USDC_DECIMALS` of
 * `@bench-bounty/contracts`); amounts travel as base-unit integer strings and are converted with
 * bigint, never through a binary float.
 *
 * @packageDocumentation
 */
import { USDC_DECIMALS } from "@bench-bounty/contracts";

const SCALE = 10n ** BigInt(USDC_DECIMALS);

/**
 * Base units to a USDC decimal string without trailing zeros: `"12345679"` -> `"12.345679"`,
 * `"50000000"` -> `"50"`.
 * @param baseUnits a non-negative integer string (or bigint)
 * @returns the decimal string, or null when the input is not a non-negative integer
 */
export function usdcFromBaseUnits(baseUnits: string | bigint): string | null {
  let v: bigint;
  if (typeof baseUnits === "bigint") v = baseUnits;
  else if (/^[0-9]+$/.test(baseUnits)) v = BigInt(baseUnits);
  else return null;
  if (v < 0n) return null;
  const whole = v / SCALE;
  const frac = (v % SCALE).toString().padStart(USDC_DECIMALS, "0").replace(/0+$/, "");
  return frac === "" ? whole.toString() : `${whole}.${frac}`;
}

/** `"12.345679 USDC"`, or `"--"` when the amount is not a base-unit integer string. */
export function formatUsdc(baseUnits: string | bigint | null | undefined): string {
  if (baseUnits === null || baseUnits === undefined) return "--";
  const s = usdcFromBaseUnits(baseUnits);
  return s === null ? "--" : `${s} USDC`;
}
