/**
 * Drives BenchmarkBounty and AnchorRegistry on a devchain with real
 * transactions (viem), for the indexer's scenario tests and benchmark.
 * Every write waits for its receipt and throws if it reverted.
 */
import { anchorRegistryAbi, benchmarkBountyAbi, testUsdcAbi } from "@bench-bounty/contracts";
import type { DevChain } from "@bench-bounty/devchain";
import { keccak256, maxUint256, parseEventLogs, stringToHex, type Address, type Hash, type Hex } from "viem";

/** Fields of `BountyParams` a test chooses (token and awarder have defaults). */
export interface BountySpec {
  author: number;
  awarder?: number;
  pool: bigint;
  splitsBps: number[];
  closesAt: bigint;
  awardDeadline: bigint;
  thresholdBps?: number;
  leafCount?: number;
  /** Label hashed into a unique test-set root. */
  label: string;
}

/** keccak256 of a label: unique, reproducible bytes32 values for roots and digests. */
export const digestOf = (label: string): Hex => keccak256(stringToHex(label));

export class Driver {
  constructor(readonly dc: DevChain) {}

  /** Address of devchain account `i`. */
  addr(i: number): Address {
    const a = this.dc.accounts[i];
    if (a === undefined) throw new RangeError(`no account ${i}`);
    return a.address;
  }

  /**
   * Mines `n` empty blocks one `evm_mine` at a time. (`hardhat_mine` of several
   * blocks makes "reserved" blocks whose parentHash does not match the previous
   * block's hash, which an indexer rightly takes for a reorg.)
   */
  async mineBlocks(n: number): Promise<void> {
    for (let i = 0; i < n; i++)
      await this.dc.publicClient.request({ method: "evm_mine", params: [] } as never);
  }

  /**
   * Timestamp of a block mined now (unix seconds). Mining first matters: the latest block may
   * be minutes old on a loaded machine, and v1.1's `createBounty` refuses a `closesAt` that the
   * next block's (wall-clock) timestamp has already passed (`ClosesAtNotInFuture`).
   */
  async now(): Promise<bigint> {
    await this.dc.publicClient.request({ method: "evm_mine", params: [] } as never);
    return (await this.dc.publicClient.getBlock()).timestamp;
  }

  private async wait(hash: Hash, what: string) {
    const receipt = await this.dc.publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`${what} reverted (tx ${hash})`);
    return receipt;
  }

  /** Mints test USDC to account `i` and approves the bounty contract for everything. */
  async fundAccount(i: number, amount: bigint): Promise<void> {
    await this.dc.mintUsdc(this.addr(i), amount);
    const hash = await this.dc.wallet(i).writeContract({
      address: this.dc.contracts.usdc,
      abi: testUsdcAbi,
      functionName: "approve",
      args: [this.dc.contracts.benchmarkBounty, maxUint256],
    });
    await this.wait(hash, "approve");
  }

  private params(s: BountySpec) {
    return {
      token: this.dc.contracts.usdc,
      awarder: this.addr(s.awarder ?? s.author),
      pool: s.pool,
      testSetRoot: digestOf(`root:${s.label}`),
      leafCount: s.leafCount ?? 10,
      closesAt: s.closesAt,
      awardDeadline: s.awardDeadline,
      thresholdBps: s.thresholdBps ?? 5000,
      splitsBps: s.splitsBps,
    };
  }

  /** `createBounty` (Pending) or `createAndFund` (Funded); returns the new bounty id. */
  async create(s: BountySpec, how: "create" | "createAndFund"): Promise<bigint> {
    const hash = await this.dc.wallet(s.author).writeContract({
      address: this.dc.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: how === "create" ? "createBounty" : "createAndFund",
      args: [this.params(s)],
    });
    const receipt = await this.wait(hash, how);
    const [created] = parseEventLogs({
      abi: benchmarkBountyAbi,
      logs: receipt.logs,
      eventName: "BountyCreated",
    });
    if (created === undefined) throw new Error(`${how}: no BountyCreated log`);
    return created.args.bountyId;
  }

  async fund(author: number, bountyId: bigint): Promise<void> {
    await this.write(author, "fund", [bountyId]);
  }

  /** `award(bountyId, winners, rankingDigest)` from account `awarder`. */
  async award(awarder: number, bountyId: bigint, winners: number[], digestLabel: string): Promise<void> {
    await this.write(awarder, "award", [
      bountyId,
      winners.map((w) => this.addr(w)),
      digestOf(`ranking:${digestLabel}`),
    ]);
  }

  async claim(account: number, bountyId: bigint, to: number): Promise<void> {
    await this.write(account, "claim", [bountyId, this.addr(to)]);
  }

  async claimMany(account: number, bountyIds: bigint[], to: number): Promise<void> {
    await this.write(account, "claimMany", [bountyIds, this.addr(to)]);
  }

  /** `reclaim(bountyId, to)` (SPEC 1.1 v1.1); `to` defaults to the author. */
  async reclaim(author: number, bountyId: bigint, to: number = author): Promise<void> {
    await this.write(author, "reclaim", [bountyId, this.addr(to)]);
  }

  async anchor(account: number, digest: Hex, kind: Hex): Promise<void> {
    const hash = await this.dc.wallet(account).writeContract({
      address: this.dc.contracts.anchorRegistry,
      abi: anchorRegistryAbi,
      functionName: "anchor",
      args: [digest, kind],
    });
    await this.wait(hash, "anchor");
  }

  async anchorMany(account: number, digests: Hex[], kind: Hex): Promise<void> {
    const hash = await this.dc.wallet(account).writeContract({
      address: this.dc.contracts.anchorRegistry,
      abi: anchorRegistryAbi,
      functionName: "anchorMany",
      args: [digests, kind],
    });
    await this.wait(hash, "anchorMany");
  }

  private async write(
    account: number,
    functionName: "fund" | "award" | "claim" | "claimMany" | "reclaim",
    args: readonly unknown[],
  ): Promise<void> {
    const hash = await this.dc.wallet(account).writeContract({
      address: this.dc.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName,
      args,
    } as Parameters<ReturnType<DevChain["wallet"]>["writeContract"]>[0]);
    await this.wait(hash, functionName);
  }
}
