/**
 * bounty:deploy on a bare local Base-profile node (chain id 8453, no CreateX,
 * nothing deployed): dry run, Ignition CREATE2 deployment, address book, rerun;
 * and the environment / chain refusals every task shares.
 */
import fs from "node:fs";
import { expect } from "chai";
import { ADDRESS_BOOK_FILE, CREATEX_ADDRESS } from "@bench-bounty/contracts";
import {
  artifactAddresses,
  localDeploymentFile,
  expectOk,
  expectRefusal,
  hardhat,
  rpc,
  startBareNode,
  tempDir,
} from "./helpers";

const KEY0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"; // Hardhat account 0

describe("bounty:deploy (bare local node)", function () {
  let node: { rpcUrl: string; stop: () => Promise<void> };
  let dir: string;
  let book: string;
  let trackedBefore: string;
  let expected: { benchmarkBounty: string; anchorRegistry: string };
  const run = (args: string[], env: Record<string, string | undefined> = {}) =>
    hardhat(["bounty:deploy", ...args], {
      LOCAL_RPC_URL: node.rpcUrl,
      BENCH_BOUNTY_LOCAL_DEPLOYMENT: book,
      ...env,
    });

  before(async function () {
    node = await startBareNode();
    dir = tempDir();
    book = localDeploymentFile(dir);
    trackedBefore = fs.readFileSync(ADDRESS_BOOK_FILE, "utf8");
    expected = artifactAddresses();
  });
  after(async function () {
    await node?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("--dry-run prints the CREATE2 addresses and gas and sends nothing", async function () {
    const before = await rpc<string>(node.rpcUrl, "eth_blockNumber");
    const out = expectOk(await run(["--network", "localhost", "--dry-run"]));
    expect(out).to.include(expected.benchmarkBounty);
    expect(out).to.include(expected.anchorRegistry);
    expect(out).to.match(/BenchmarkBounty\s+0x[0-9a-fA-F]{40}\s+gas \d+/);
    expect(out).to.match(/Total gas \d+/);
    expect(out).to.include("Dry run: nothing sent.");
    expect(await rpc<string>(node.rpcUrl, "eth_blockNumber")).to.equal(before);
    expect(await rpc<string>(node.rpcUrl, "eth_getCode", [expected.benchmarkBounty, "latest"])).to.equal(
      "0x",
    );
    expect(await rpc<string>(node.rpcUrl, "eth_getCode", [CREATEX_ADDRESS, "latest"])).to.equal("0x");
  });

  it("deploys both contracts at their CREATE2 addresses and records them outside tracked files", async function () {
    expect(fs.existsSync(book)).to.equal(false);
    const out = expectOk(await run(["--network", "localhost"]));
    expect(out).to.include("CreateX is not on this local node yet");
    expect(out).to.include(`Recorded in ${book} (the local node's deployment; untracked, never committed):`);
    expect(await rpc<string>(node.rpcUrl, "eth_getCode", [expected.benchmarkBounty, "latest"])).to.not.equal(
      "0x",
    );
    expect(await rpc<string>(node.rpcUrl, "eth_getCode", [expected.anchorRegistry, "latest"])).to.not.equal(
      "0x",
    );
    const entry = JSON.parse(fs.readFileSync(book, "utf8"));
    expect(entry.network).to.equal("localhost");
    expect(entry.benchmarkBounty).to.equal(expected.benchmarkBounty);
    expect(entry.anchorRegistry).to.equal(expected.anchorRegistry);
    expect(entry.usdc).to.equal("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
    expect(entry.startBlock).to.be.a("number").greaterThan(0);
    // The recorded start block is the first with code at the address.
    const hex = (n: number) => "0x" + n.toString(16);
    expect(
      await rpc<string>(node.rpcUrl, "eth_getCode", [expected.benchmarkBounty, hex(entry.startBlock - 1)]),
    ).to.equal("0x");
    // The tracked address book (Base and Base Sepolia) is not rewritten, not even reformatted.
    expect(fs.readFileSync(ADDRESS_BOOK_FILE, "utf8")).to.equal(trackedBefore);
  });

  it("a second run finds both deployed and sends nothing", async function () {
    const before = await rpc<string>(node.rpcUrl, "eth_blockNumber");
    const out = expectOk(await run(["--network", "localhost"]));
    expect(out).to.include("already deployed at their CREATE2 addresses: nothing to send");
    expect(await rpc<string>(node.rpcUrl, "eth_blockNumber")).to.equal(before);
  });

  describe("refusals before anything is sent", function () {
    it("the in-process hardhat network", async function () {
      expectRefusal(await run(["--network", "hardhat"]), /needs a live chain: pass --network localhost/);
    });
    it("a missing BASE_RPC_URL", async function () {
      expectRefusal(await run(["--network", "base"]), /BASE_RPC_URL is not set/);
    });
    it("a missing DEPLOYER_PRIVATE_KEY", async function () {
      expectRefusal(
        await run(["--network", "base"], { BASE_RPC_URL: node.rpcUrl }),
        /DEPLOYER_PRIVATE_KEY is not set/,
      );
    });
    it("a malformed DEPLOYER_PRIVATE_KEY", async function () {
      expectRefusal(
        await run(["--network", "base"], { BASE_RPC_URL: node.rpcUrl, DEPLOYER_PRIVATE_KEY: "0x1234" }),
        /DEPLOYER_PRIVATE_KEY is not a private key: it must be 0x followed by 64 hex characters/,
      );
    });
    // probe15 B-F7: a key of the right form outside 1..n-1 was an error printing the key in decimal
    it("a DEPLOYER_PRIVATE_KEY of the right form outside 1..n-1, never printed", async function () {
      for (const key of [
        "0x" + "00".repeat(32),
        "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364142",
      ]) {
        const r = await run(["--network", "base"], { BASE_RPC_URL: node.rpcUrl, DEPLOYER_PRIVATE_KEY: key });
        expectRefusal(r, /DEPLOYER_PRIVATE_KEY is not a private key: its value is outside 1\.\.n-1/);
        for (const shown of [key.slice(2), BigInt(key).toString(), key.slice(-12)])
          if (shown.length >= 8) expect(r.stdout + r.stderr).not.to.include(shown);
      }
    });
    // probe16 B-F7: hardhat.config.ts put such a key in `accounts` (form only), and a read-only task failed
    // with "Cannot reach the base RPC endpoint: Expected valid bigint: 0 < bigint < curve.n"
    it("a read-only task with a DEPLOYER_PRIVATE_KEY outside 1..n-1 runs as without a key", async function () {
      const args = ["bounty:status", "--network", "base", "--id", "1"];
      const unset = await hardhat(args, { BASE_RPC_URL: node.rpcUrl });
      expect(unset.stdout + unset.stderr).not.to.match(/Cannot reach/);
      for (const key of [
        "0x" + "00".repeat(32),
        "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
      ]) {
        const r = await hardhat(args, { BASE_RPC_URL: node.rpcUrl, DEPLOYER_PRIVATE_KEY: key });
        expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).to.deep.equal({
          code: unset.code,
          stdout: unset.stdout,
          stderr: unset.stderr,
        });
      }
    });
    it("a wrong chain id (a chain-8453 node given as Base Sepolia)", async function () {
      const before = await rpc<string>(node.rpcUrl, "eth_blockNumber");
      expectRefusal(
        await run(["--network", "baseSepolia"], {
          BASE_SEPOLIA_RPC_URL: node.rpcUrl,
          DEPLOYER_PRIVATE_KEY: KEY0,
        }),
        /Wrong chain: --network baseSepolia expects chain id 84532 but BASE_SEPOLIA_RPC_URL serves chain id 8453/,
      );
      expect(await rpc<string>(node.rpcUrl, "eth_blockNumber")).to.equal(before);
    });
    it("an unreachable RPC endpoint", async function () {
      expectRefusal(
        await hardhat(["bounty:deploy", "--network", "localhost"], {
          LOCAL_RPC_URL: "http://127.0.0.1:9",
          BENCH_BOUNTY_LOCAL_DEPLOYMENT: book,
        }),
        /Cannot reach the localhost RPC endpoint/,
      );
    });
  });
});
