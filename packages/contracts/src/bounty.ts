/**
 * The bounty record of BenchmarkBounty (`IBenchmarkBounty.Bounty`, SPEC 1.1) as viem decodes it:
 * one type for every reader (platform, verifier, indexer tests), derived from the ABI so it cannot
 * drift from the contract.
 */
import type { ContractFunctionReturnType } from "viem";
import type { benchmarkBountyAbi } from "./generated/abis.js";

/**
 * A bounty as `getBounty(bountyId)` returns it: `author`, `awarder`, `token` addresses; `pool` in
 * token base units (bigint); `testSetRoot` (bytes32) and `leafCount` (number) pinned together;
 * `closesAt` and `awardDeadline` in unix seconds (bigint); `thresholdBps` and `splitsBps` in basis
 * points (numbers); `status` a `BountyStatus` number.
 */
export type BountyRecord = ContractFunctionReturnType<typeof benchmarkBountyAbi, "view", "getBounty">;
