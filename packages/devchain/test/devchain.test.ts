import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  anchorRegistryAbi,
  benchmarkBountyAbi,
  BASE_USDC_ADDRESS,
  expectedAddresses,
  testUsdcAbi,
  ANCHOR_KINDS,
} from "@bench-bounty/contracts";
import { keccak256, stringToHex } from "viem";
import { devChainAccounts, startDevChain, type DevChain } from "../src/index.js";

let chain: DevChain;

beforeAll(async () => {
  chain = await startDevChain();
}, 180_000);

afterAll(async () => {
  await chain?.stop();
});

describe("startDevChain", () => {
  it("serves chain id 8453 on 127.0.0.1", async () => {
    expect(chain.chainId).toBe(8453);
    expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await chain.publicClient.getChainId()).toBe(8453);
  });

  it("places the test USDC at the Base USDC address with the FiatToken surface", async () => {
    expect(chain.contracts.usdc).toBe(BASE_USDC_ADDRESS);
    const read = (functionName: "name" | "symbol" | "decimals") =>
      chain.publicClient.readContract({ address: BASE_USDC_ADDRESS, abi: testUsdcAbi, functionName });
    expect(await read("name")).toBe("USD Coin");
    expect(await read("symbol")).toBe("USDC");
    expect(await read("decimals")).toBe(6);
  });

  it("deploys both contracts at their CREATE2 addresses, from startBlock on", async () => {
    expect(chain.contracts.benchmarkBounty).toBe(expectedAddresses().benchmarkBounty);
    expect(chain.contracts.anchorRegistry).toBe(expectedAddresses().anchorRegistry);
    const count = await chain.publicClient.readContract({
      address: chain.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "bountyCount",
    });
    expect(count).toBe(0n);
    const code = await chain.publicClient.getCode({
      address: chain.contracts.anchorRegistry,
      blockNumber: BigInt(chain.startBlock - 1),
    });
    expect(code ?? "0x").toBe("0x");
  });

  it("ANCHOR_KINDS agree with the registry's KIND_* getters", async () => {
    const kind = (functionName: "KIND_COMMITMENT" | "KIND_RECEIPT" | "KIND_PACK" | "KIND_COMPUTE_RECEIPT") =>
      chain.publicClient.readContract({
        address: chain.contracts.anchorRegistry,
        abi: anchorRegistryAbi,
        functionName,
      });
    expect(await kind("KIND_COMMITMENT")).toBe(ANCHOR_KINDS.commitment);
    expect(await kind("KIND_RECEIPT")).toBe(ANCHOR_KINDS.receipt);
    expect(await kind("KIND_PACK")).toBe(ANCHOR_KINDS.pack);
    expect(await kind("KIND_COMPUTE_RECEIPT")).toBe(ANCHOR_KINDS["compute-receipt"]);
    expect(ANCHOR_KINDS.receipt).toBe(keccak256(stringToHex("bench-bounty.anchor.receipt")));
  });

  it("exposes Hardhat's funded accounts with working wallets", async () => {
    expect(chain.accounts).toHaveLength(20);
    // Hardhat's well-known account 0 of the "test ... junk" mnemonic.
    expect(chain.accounts[0]!.address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(chain.accounts[0]!.privateKey).toBe(
      "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    );
    expect(devChainAccounts()[1]!.address).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    const to = chain.accounts[5]!.address;
    const before = await chain.publicClient.getBalance({ address: to });
    const hash = await chain.wallet(3).sendTransaction({ to, value: 1n });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(await chain.publicClient.getBalance({ address: to })).toBe(before + 1n);
    expect(() => chain.wallet(20)).toThrow(RangeError);
  });

  it("mints test USDC in base units", async () => {
    const to = chain.accounts[7]!.address;
    await chain.mintUsdc(to, 1_234_567n);
    await chain.mintUsdc(to, 1n);
    const balance = await chain.publicClient.readContract({
      address: BASE_USDC_ADDRESS,
      abi: testUsdcAbi,
      functionName: "balanceOf",
      args: [to],
    });
    expect(balance).toBe(1_234_568n);
  });

  it("moves time, mines, snapshots and reverts", async () => {
    const t0 = (await chain.publicClient.getBlock()).timestamp;
    const id = await chain.snapshot();
    const n0 = await chain.publicClient.getBlockNumber();
    await chain.increaseTime(86_400);
    const t1 = (await chain.publicClient.getBlock()).timestamp;
    expect(t1 - t0 >= 86_400n).toBe(true);
    await chain.mine(5);
    expect(await chain.publicClient.getBlockNumber()).toBe(n0 + 6n);
    // Mined blocks form a proper chain (an indexer would otherwise see a reorg at every block).
    for (let n = n0 + 2n; n <= n0 + 6n; n++) {
      const [parent, block] = await Promise.all([
        chain.publicClient.getBlock({ blockNumber: n - 1n }),
        chain.publicClient.getBlock({ blockNumber: n }),
      ]);
      expect(block.parentHash).toBe(parent.hash);
    }
    await chain.revert(id);
    expect(await chain.publicClient.getBlockNumber()).toBe(n0);
    await expect(chain.revert(id)).rejects.toThrow(/refused/);
  });
});

describe("stop", () => {
  it("kills the node and frees its port", async () => {
    const other = await startDevChain();
    const port = Number(new URL(other.rpcUrl).port);
    await other.stop();
    await other.stop(); // idempotent
    await expect(other.publicClient.getBlockNumber()).rejects.toThrow();
    await new Promise<void>((resolve, reject) => {
      const server = createServer();
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
    });
  }, 180_000);

  it("a port another process holds is one line naming it, not the node's stack trace", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const e = await startDevChain({ port }).then(
        (dc) => dc.stop().then(() => null),
        (x: unknown) => x as Error,
      );
      expect(e?.message).toBe(
        `devchain: 127.0.0.1:${port} is in use by another process: stop it, or choose another port`,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 180_000);

  it("refuses a bad port before spawning anything", async () => {
    await expect(startDevChain({ port: 70_000 })).rejects.toThrow(/port must be 0\.\.65535/);
  });
});
