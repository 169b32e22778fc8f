/**
 * The bounty record of BenchmarkBounty (`IBenchmarkBounty.Bounty`, SPEC 1.1) as viem decodes it:
 * one type for every reader (platform, verifier, indexer tests), derived from the ABI so it cannot
 * drift from the contract.
 */
import type { ContractFunctionReturnType } from "viem";
import { benchmarkBountyAbi } from "./generated/abis.js";

/**
 * A bounty as `getBounty(bountyId)` returns it: `author`, `awarder`, `token` addresses; `pool` in
 * token base units (bigint); `testSetRoot` (bytes32) and `leafCount` (number) pinned together;
 * `closesAt` and `awardDeadline` in unix seconds (bigint); `thresholdBps` and `splitsBps` in basis
 * points (numbers); `status` a `BountyStatus` number.
 */
export type BountyRecord = ContractFunctionReturnType<typeof benchmarkBountyAbi, "view", "getBounty">;

/** The `getBounty` tuple's integer members and their widths in bits, read from the ABI (SPEC 1.1 `Bounty`). */
const BOUNTY_UINT_BITS: ReadonlyArray<{ name: string; bits: number; list: boolean }> = (() => {
  const fn = benchmarkBountyAbi.find((x) => x.type === "function" && x.name === "getBounty");
  const tuple =
    fn && "outputs" in fn
      ? (fn.outputs[0] as { components?: readonly { name: string; type: string }[] })
      : undefined;
  return (tuple?.components ?? []).flatMap((c) => {
    const m = /^uint(\d+)(\[\])?$/.exec(c.type);
    return m ? [{ name: c.name, bits: Number(m[1]), list: m[2] !== undefined }] : [];
  });
})();

/**
 * Why a decoded `getBounty` record cannot be the contract's (a lying or broken RPC: viem decodes each
 * 32-byte word without checking it fits its ABI type, so a `status` of 1.16e77 or a `leafCount` of 2^64
 * read as a rounded number came through, probe38 W-N1), naming the member; null when every integer fits
 * its ABI type (`uint8` status, `uint16` bps, `uint32` leaf count, `uint64` times, `uint256` pool) and is
 * a safe integer where viem gives a number.
 */
export function bountyRecordProblem(b: BountyRecord): string | null {
  const fits = (v: unknown, bits: number): boolean => {
    if (typeof v === "number") return Number.isSafeInteger(v) && v >= 0 && BigInt(v) < 1n << BigInt(bits);
    return typeof v === "bigint" && v >= 0n && v < 1n << BigInt(bits);
  };
  const record = b as unknown as Record<string, unknown>;
  for (const { name, bits, list } of BOUNTY_UINT_BITS) {
    const v = record[name];
    if (!list) {
      if (!fits(v, bits)) return `${name} ${String(v)} is not a uint${bits}`;
      continue;
    }
    if (!Array.isArray(v)) return `${name} is not a list`;
    for (const [i, x] of v.entries())
      if (!fits(x, bits)) return `${name}[${i}] ${String(x)} is not a uint${bits}`;
  }
  return null;
}
