/**
 * probe34 C-F4: a send whose answer is lost. Through a JSON-RPC proxy that forwards
 * `eth_sendTransaction` / `eth_sendRawTransaction` to the node and then answers 502 with an empty body
 * (a load balancer whose upstream answer was lost: Hardhat's HH110), `bounty:award`, `bounty:claim` and
 * `bounty:claim --relay` ended in a stack trace and exit 1 though the award and the claims were paid.
 * They must settle the send by the chain (the signer's transaction of its nonce): found mined and
 * successful, the task reports it as done (exit 0, one line saying the answer was lost); a rerun of the
 * award says it is already done by that transaction; a send the node never got is one `Error:` line
 * saying it may not have been sent; and any other RPC failure is one line, never a stack trace.
 */
import fs from "node:fs";
import { expect } from "chai";
import type { DevChain } from "@bench-bounty/devchain";
import { anchorRegistryAbi, benchmarkBountyAbi, BountyStatus, testUsdcAbi } from "@bench-bounty/contracts";
import {
  blockNumber,
  closedSmallPackBounty,
  expectOk,
  expectRefusal,
  hardhat,
  localDeploymentFile,
  rpc,
  startChain,
  tempDir,
  writeFile,
  type Run,
} from "./helpers";

const SENDS = ["eth_sendTransaction", "eth_sendRawTransaction"];

describe("a send whose answer is lost (probe34 C-F4)", function () {
  let chain: DevChain;
  let dir: string;
  let book: string;
  let author: string, awarder: string, w1: string, w2: string, w3: string, relayer: string;
  let id: bigint;
  let awardArgs: string[];
  let awardTx: string;

  /** `hardhat <args> --network localhost` against `rpcUrl` (the devchain, or a proxy in front of it). */
  const runVia = (rpcUrl: string, args: string[]): Promise<Run> =>
    hardhat([...args, "--network", "localhost"], {
      LOCAL_RPC_URL: rpcUrl,
      BENCH_BOUNTY_LOCAL_DEPLOYMENT: book,
    });
  /** `args` run through a proxy losing the answers of `lose`, dropping `drop`. */
  async function runLossy(opts: { lose?: string[]; drop?: string[] }, args: string[]): Promise<Run> {
    const { startLossyRpcProxy } = await import("@bench-bounty/devchain/stubs");
    const proxy = await startLossyRpcProxy(chain.rpcUrl, opts);
    try {
      return await runVia(proxy.url, args);
    } finally {
      await proxy.close();
    }
  }
  const nonceOf = (a: string) => chain.publicClient.getTransactionCount({ address: a as `0x${string}` });
  const noStack = (r: Run) => {
    expect(r.stderr + r.stdout, "no stack trace").not.to.match(/^\s+at /m);
    expect(r.stderr + r.stdout).not.to.match(/HardhatError|An unexpected error occurred/);
  };

  before(async function () {
    chain = await startChain();
    dir = tempDir();
    book = localDeploymentFile(dir, chain);
    [awarder, author, w1, w2, w3, relayer] = chain.accounts.slice(1, 7).map((a) => a.address);
    ({ id, awardArgs } = await closedSmallPackBounty(
      chain,
      dir,
      (args) => runVia(chain.rpcUrl, args),
      { author, awarder, winners: [w1, w2, w3] },
      "c0ffee34",
    ));
  });
  after(async function () {
    await chain?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("bounty:award whose answer is lost finds its award mined and reports it (exit 0), not HH110 and a stack", async function () {
    const nonce = await nonceOf(awarder);
    const r = await runLossy({ lose: SENDS }, awardArgs);
    noStack(r);
    const out = expectOk(r);
    expect(out).to.match(
      /sent award: 0x[0-9a-f]{64} \(the node's answer to the award send was lost \(.*HH110/,
    );
    const m = /Awarded \(tx (0x[0-9a-f]{64}), block \d+\):/.exec(out);
    expect(m, out).to.not.equal(null);
    awardTx = m![1]!;
    expect(out).to.include(`  winner 1        ${w1}  6.172841 USDC`);
    const b = await chain.publicClient.readContract({
      address: chain.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "getBounty",
      args: [id],
    });
    expect(Number(b.status), "Awarded").to.equal(BountyStatus.Awarded);
    expect(await nonceOf(awarder), "one award sent").to.equal(nonce + 1);
  });

  it("a rerun of that award says it is done by that transaction (exit 0), sending nothing", async function () {
    const before = await blockNumber(chain);
    const out = expectOk(await runVia(chain.rpcUrl, awardArgs));
    expect(out).to.match(
      new RegExp(
        `Bounty ${id} is already awarded with this ranking digest 0x[0-9a-f]{64} and these winners, by transaction ${awardTx} \\(block \\d+\\): nothing to do, nothing was sent\\.`,
      ),
    );
    expect(await blockNumber(chain), "nothing sent").to.equal(before);
    // another ranking for the same bounty is still refused, naming the award that holds
    const otherWithdrawals = writeFile(dir, "other.json", { "vec-a": w2, "vec-c": w1, "vec-d": w3 });
    const other = [...awardArgs.slice(0, -1), otherWithdrawals];
    expectRefusal(
      await runVia(chain.rpcUrl, other),
      new RegExp(
        `Bounty ${id} is already Awarded by transaction ${awardTx} .*with this ranking digest, but to `,
      ),
    );
  });

  it("bounty:claim whose answer is lost finds the claim paid and reports it (exit 0)", async function () {
    const balance = () =>
      chain.publicClient.readContract({
        address: chain.contracts.usdc,
        abi: testUsdcAbi,
        functionName: "balanceOf",
        args: [w1 as `0x${string}`],
      });
    const before = await balance();
    const r = await runLossy({ lose: SENDS }, ["bounty:claim", "--from", w1, "--id", String(id)]);
    noStack(r);
    const out = expectOk(r);
    expect(out).to.match(/sent claim: 0x[0-9a-f]{64} \(the node's answer to the claim send was lost/);
    expect(out).to.include(`Claimed bounty ${id}: 6.172841 USDC from ${w1} to ${w1}`);
    expect(await balance()).to.equal(before + 6_172_841n);
  });

  it("bounty:claim --relay whose answer is lost finds the claim paid, sent once (no retried send), exit 0", async function () {
    const nonce = await nonceOf(relayer);
    const r = await runLossy({ lose: SENDS }, [
      ...["bounty:claim", "--relay", "--id", String(id), "--account", w2, "--from", relayer],
    ]);
    noStack(r);
    const out = expectOk(r);
    expect(out).to.match(
      /sent claimWithSig: 0x[0-9a-f]{64} \(the node's answer to the claimWithSig send was lost/,
    );
    expect(out).to.include(`Relayed claim of bounty ${id} for ${w2}, paid to ${w2}`);
    expect(out).to.include(`Claimed bounty ${id}: 3.703703 USDC from ${w2} to ${w2}`);
    expect(await nonceOf(relayer), "claimWithSig sent once").to.equal(nonce + 1);
    expect(
      await chain.publicClient.readContract({
        address: chain.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        functionName: "creditOf",
        args: [id, w2 as `0x${string}`],
      }),
    ).to.equal(0n);
  });

  it("anchor whose send never reached the node says it may not have been sent, in one line (exit 1)", async function () {
    const digest = "0x" + "ab34".repeat(16);
    const nonce = await nonceOf(awarder);
    const r = await runLossy({ drop: SENDS }, [
      ...["anchor", "--from", awarder, "--digest", digest, "--kind", "receipt"],
    ]);
    noStack(r);
    expectRefusal(
      r,
      new RegExp(
        `^Error: anchor may not have been sent: the node's answer to the anchor send was lost \\(.*HH110.*\\), and after 5 s the node knows no transaction of nonce ${nonce} from ${awarder}\\. Check before running this again: `,
        "m",
      ),
    );
    expect(r.stderr.trim().split("\n"), r.stderr).to.have.length(1);
    const record = await chain.publicClient.readContract({
      address: chain.contracts.anchorRegistry,
      abi: anchorRegistryAbi,
      functionName: "anchorOf",
      args: [digest as `0x${string}`],
    });
    expect(record[0], "not anchored").to.equal("0x0000000000000000000000000000000000000000");
  });

  it("a lost answer whose transaction waits in the pool is waited for, then found mined (anchor, exit 0)", async function () {
    const digest = "0x" + "cd34".repeat(16);
    await rpc(chain.rpcUrl, "evm_setAutomine", [false]);
    try {
      const anchoring = runLossy({ lose: SENDS }, [
        ...["anchor", "--from", awarder, "--digest", digest, "--kind", "receipt"],
      ]);
      // the anchor waits in the pool, its answer lost; the block that carries it comes seconds later
      const deadline = Date.now() + 60_000;
      let pending: { hash: string }[] = [];
      while (pending.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        const block = await rpc<{ transactions: { hash: string; from: string }[] }>(
          chain.rpcUrl,
          "eth_getBlockByNumber",
          ["pending", true],
        );
        pending = block.transactions.filter((t) => t.from.toLowerCase() === awarder.toLowerCase());
      }
      expect(pending, "the anchor was sent").to.have.length(1);
      await new Promise((r) => setTimeout(r, 3000));
      await rpc(chain.rpcUrl, "evm_mine");
      const r = await anchoring;
      noStack(r);
      const out = expectOk(r);
      expect(out).to.include(
        `sent anchor: ${pending[0]!.hash} (the node's answer to the anchor send was lost (HH110`,
      );
      expect(out).to.include(`Anchored ${digest} as receipt by ${awarder}`);
    } finally {
      await rpc(chain.rpcUrl, "evm_setAutomine", [true]);
    }
  });

  it("any other RPC failure of a task is one Error line, not a stack trace", async function () {
    const r = await runLossy({ drop: ["eth_getCode"] }, ["bounty:status", "--id", String(id)]);
    noStack(r);
    expectRefusal(
      r,
      /^Error: The localhost RPC endpoint failed: HH110: Invalid JSON-RPC response received:.*\. Check the endpoint and run again\.$/m,
    );
  });
});
