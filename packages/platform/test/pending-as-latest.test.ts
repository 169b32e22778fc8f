/**
 * probe39 V-F3: a node that builds no pending block answers `eth_getBlockByNumber("pending")` with the latest
 * block. On an idle chain that block is long past, so the close (judged by the next block's time since
 * probe39 A-F1) was judged by a stale time again: a run started 7 s after `closes_at` was taken, ranked and
 * paid. A "pending" block whose number is not after the latest's is no next block: the gateway takes the next
 * block's time as at least the latest's plus one and at least the process's clock.
 */
import { toHex } from "viem";
import { describe, expect, it } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { useStubRpc } from "./helpers.js";

const NOW = () => Math.floor(Date.now() / 1000);
/** The stub chain's latest block: number 16, mined ten minutes ago. */
const LATEST_AGE = 600;

/** A block as a node answers it (the fields viem formats). */
const block = (n: number, timestamp: number) => ({
  number: toHex(n),
  timestamp: toHex(timestamp),
  hash: `0x${n.toString(16).padStart(64, "0")}`,
  parentHash: `0x${"00".repeat(32)}`,
  transactions: [],
  baseFeePerGas: "0x1",
  gasLimit: "0x1c9c380",
  gasUsed: "0x0",
});

const rpc = useStubRpc((method, path, params) => {
  if (method === "eth_chainId") return "0x7a69";
  if (method !== "eth_getBlockByNumber") return null;
  const latest = block(16, NOW() - LATEST_AGE);
  if (params[0] !== "pending") return latest;
  // `/honest`: a real pending block (number 17) one second after now; `/latest`: the latest block again
  return path === "honest" ? block(17, NOW() + 1) : latest;
});

const gateway = (path: string): ChainGateway =>
  ChainGateway.connect({
    rpcUrl: `${rpc()}/${path}`,
    chainId: 31337,
    contracts: {
      benchmarkBounty: "0x1000000000000000000000000000000000000001",
      anchorRegistry: "0x2000000000000000000000000000000000000002",
    },
    readAs: "0xabcdef000000000000000000000000000000abcd",
    log: () => undefined,
  });

describe("the next block's time on a node that answers pending with the latest block (probe39 V-F3)", () => {
  it("a real pending block: its time", async () => {
    const before = NOW();
    const t = Number(await gateway("honest").pendingTimestamp());
    expect(t).toBeGreaterThanOrEqual(before + 1);
    expect(t).toBeLessThanOrEqual(NOW() + 1);
  });

  it("the latest block answered as pending: at least the process's clock, never the stale latest time", async () => {
    const before = NOW();
    const t = Number(await gateway("latest").pendingTimestamp());
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeGreaterThan(before - LATEST_AGE + 1);
  });
});
