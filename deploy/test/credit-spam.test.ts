/**
 * probe27 C-F8: a stranger's dust awards to a winner's address must not break the winner's tools.
 * A stranger (node account #9) creates and awards 300 bounties of one base unit of USDC and 30 of
 * another token to the winner, who also holds one real 5 USDC prize. Through an RPC endpoint that
 * breaks off any `eth_getLogs` answer over 64 KiB (as the probe's node did with its ~10 MB answer),
 * `bounty:credits` and `bounty:claim --all` must still answer: the real prize first, the dust summed
 * up, the other token's credits counted and not mixed in, at most `--max-claims` credits claimed; and
 * an endpoint that breaks every `eth_getLogs` answer is one `Error:` line, not a stack trace.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { DevChain } from "@bench-bounty/devchain";
import { benchmarkBountyAbi, testUsdcAbi } from "@bench-bounty/contracts";
import {
  encodeFunctionData,
  getAddress,
  keccak256,
  parseAbi,
  toFunctionSelector,
  toHex,
  type Abi,
} from "viem";
import {
  chainTime,
  expectOk,
  expectRefusal,
  hardhat,
  localDeploymentFile,
  REPO_ROOT,
  startChain,
  startIndexer,
  type IndexedCredit,
  tempDir,
  type Run,
} from "./helpers";

const DUST_USDC = 300;
const DUST_OTHER = 30;
const REAL_POOL = 5_000_000n;
/** The answer size above which the proxy breaks off an `eth_getLogs` answer. */
const MAX_LOGS_ANSWER = 64 * 1024;

/**
 * A JSON-RPC proxy in front of `target`: in mode `big`, an `eth_getLogs` answer over
 * {@link MAX_LOGS_ANSWER} bytes is broken off (the socket destroyed); in mode `all`, every one is; in
 * mode `none`, none. `observe` sees every request's body.
 */
async function startProxy(
  target: string,
  mode: "big" | "all" | "none",
  observe: (body: string) => void = () => {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      observe(body.toString());
      void fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })
        .then(async (r) => {
          const answer = Buffer.from(await r.arrayBuffer());
          const getLogs = body.toString().includes('"eth_getLogs"');
          if (getLogs && (mode === "all" || (mode === "big" && answer.length > MAX_LOGS_ANSWER))) {
            req.socket.destroy();
            return;
          }
          res.writeHead(r.status, { "content-type": "application/json" });
          res.end(answer);
        })
        .catch(() => req.socket.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe("a stranger's dust awards to a winner (probe27 C-F8)", function () {
  let chain: DevChain;
  let dir: string;
  let book: string;
  let victim: `0x${string}`;
  let realId: bigint;
  /** The stranger's other token (RefusingToken, 6 decimals). */
  let other: `0x${string}`;
  /** The id before the first dust bounty (the real prize's). */
  let first: bigint;
  let nextId = 1;

  /** Sends transactions from the node's unlocked accounts in one JSON-RPC batch (automine: one block each). */
  async function send(txs: { from: string; to: string; data: `0x${string}` }[]): Promise<void> {
    const body = txs.map((t, i) => ({
      jsonrpc: "2.0",
      id: nextId + i,
      method: "eth_sendTransaction",
      params: [{ ...t, gas: toHex(500_000) }],
    }));
    nextId += txs.length;
    const res = await fetch(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const out = (await res.json()) as { error?: { message: string } }[];
    const failed = out.find((o) => o.error);
    if (failed) throw new Error(failed.error!.message);
  }
  const bountyCount = async () =>
    chain.publicClient.readContract({
      address: chain.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "bountyCount",
    });
  const creditOf = (id: bigint) =>
    chain.publicClient.readContract({
      address: chain.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "creditOf",
      args: [id, victim],
    });
  const usdcOf = (a: `0x${string}`) =>
    chain.publicClient.readContract({
      address: chain.contracts.usdc,
      abi: testUsdcAbi,
      functionName: "balanceOf",
      args: [a],
    });

  /** `count` bounties of `pool` base units of `token` by `author`, closing at `closesAt`, awarder `author`. */
  function creations(
    author: string,
    token: string,
    pool: bigint,
    count: number,
    closesAt: bigint,
    tag: string,
  ) {
    const txs = [];
    for (let j = 0; j < count; j++) {
      const params = {
        token: token as `0x${string}`,
        awarder: author as `0x${string}`,
        pool,
        testSetRoot: keccak256(toHex(`${tag}-${j}`)),
        leafCount: 1,
        closesAt,
        awardDeadline: closesAt + 100_000n,
        thresholdBps: 0,
        splitsBps: [10000],
      };
      txs.push({
        from: author,
        to: chain.contracts.benchmarkBounty,
        data: encodeFunctionData({ abi: benchmarkBountyAbi, functionName: "createAndFund", args: [params] }),
      });
    }
    return txs;
  }
  const erc20 = parseAbi([
    "function approve(address,uint256) returns (bool)",
    "function mint(address,uint256)",
  ]);

  /** `hardhat <args> --network localhost` against `rpcUrl` (the devchain, or a proxy in front of it). */
  const runVia = (rpcUrl: string, args: string[]): Promise<Run> =>
    hardhat([...args, "--network", "localhost"], {
      LOCAL_RPC_URL: rpcUrl,
      BENCH_BOUNTY_LOCAL_DEPLOYMENT: book,
    });

  before(async function () {
    chain = await startChain();
    dir = tempDir();
    book = localDeploymentFile(dir, chain);
    victim = chain.accounts[5]!.address;
    const author = chain.accounts[2]!.address;
    const stranger = chain.accounts[9]!.address;
    // the other token: a test token deployed by the stranger (anyone can award in any token)
    const artifact = JSON.parse(
      fs.readFileSync(`${REPO_ROOT}/artifacts/contracts/test/RefusingToken.sol/RefusingToken.json`, "utf8"),
    ) as { abi: Abi; bytecode: `0x${string}` };
    const hash = await chain.wallet(9).deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
    other = (await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    await chain.mintUsdc(author, REAL_POOL);
    await chain.mintUsdc(stranger, BigInt(DUST_USDC));
    const bounty = chain.contracts.benchmarkBounty;
    await send([
      {
        from: author,
        to: chain.contracts.usdc,
        data: encodeFunctionData({ abi: erc20, functionName: "approve", args: [bounty, REAL_POOL] }),
      },
      {
        from: stranger,
        to: chain.contracts.usdc,
        data: encodeFunctionData({ abi: erc20, functionName: "approve", args: [bounty, BigInt(DUST_USDC)] }),
      },
      {
        from: stranger,
        to: other,
        data: encodeFunctionData({ abi: erc20, functionName: "mint", args: [stranger, BigInt(DUST_OTHER)] }),
      },
      {
        from: stranger,
        to: other,
        data: encodeFunctionData({ abi: erc20, functionName: "approve", args: [bounty, BigInt(DUST_OTHER)] }),
      },
    ]);
    const closesAt = (await chainTime(chain)) + 100_000n;
    first = (await bountyCount()) + 1n;
    // the real prize first (the lowest id: the dust comes after it, as after a real award)
    await send(creations(author, chain.contracts.usdc, REAL_POOL, 1, closesAt, "real"));
    realId = first;
    const dust = [
      ...creations(stranger, chain.contracts.usdc, 1n, DUST_USDC, closesAt, "dust"),
      ...creations(stranger, other, 1n, DUST_OTHER, closesAt, "other"),
    ];
    for (let i = 0; i < dust.length; i += 100) await send(dust.slice(i, i + 100));
    expect(await bountyCount()).to.equal(first + BigInt(DUST_USDC + DUST_OTHER));
    await chain.increaseTime(100_001);
    const award = (from: string, id: bigint) => ({
      from,
      to: bounty,
      data: encodeFunctionData({
        abi: benchmarkBountyAbi,
        functionName: "award",
        args: [id, [victim], keccak256(toHex(`digest-${id}`))],
      }),
    });
    // the real bounty's awarder is its author (creations() makes the author the awarder)
    const awards = [award(author, realId)];
    for (let k = 1; k <= DUST_USDC + DUST_OTHER; k++) awards.push(award(stranger, first + BigInt(k)));
    for (let i = 0; i < awards.length; i += 100) await send(awards.slice(i, i + 100));
    expect(await creditOf(realId)).to.equal(REAL_POOL);
  });
  after(async function () {
    await chain?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("bounty:credits through an RPC that breaks off big eth_getLogs answers: the real prize first, the dust summed up, the other token counted", async function () {
    const proxy = await startProxy(chain.rpcUrl, "big");
    try {
      const out = expectOk(await runVia(proxy.url, ["bounty:credits", "--account", victim]));
      const lines = out.split("\n");
      expect(lines[1], out).to.equal(
        `  bounty ${realId}  5.000000 USDC  (5000000 base units of ${chain.contracts.usdc})`,
      );
      expect(
        lines.filter((l) => l.startsWith("  bounty ")),
        out,
      ).to.have.length(20);
      expect(out).to.include(`  ... and ${DUST_USDC + 1 - 20} smaller credits (--limit 0 lists every one)`);
      expect(out).to.include(`  total 5.000300 USDC in ${DUST_USDC + 1} bounties (${chain.contracts.usdc})`);
      expect(out).to.include(`  ${DUST_OTHER} credits in 1 other token not listed`);
      expect(out).to.match(/bounty:credits --network localhost --account 0x[0-9a-fA-F]{40} --token all$/m);
    } finally {
      await proxy.close();
    }
  });

  it("bounty:credits --token all --limit 0 lists every credit", async function () {
    const out = expectOk(
      await runVia(chain.rpcUrl, ["bounty:credits", "--account", victim, "--token", "all", "--limit", "0"]),
    );
    expect(
      out.split("\n").filter((l) => l.startsWith("  bounty ")),
      out,
    ).to.have.length(1 + DUST_USDC + DUST_OTHER);
    // a credit of 1 base unit is "1 base unit", singular (probe29 C-F4's nit: "(1 base units of ...)")
    expect(out).to.include(`  bounty ${first + 1n}  0.000001 USDC  (1 base unit of ${chain.contracts.usdc})`);
    expect(out).not.to.include("(1 base units");
  });

  it("an RPC that breaks off every eth_getLogs answer: one Error line naming the blocks, no stack trace", async function () {
    const proxy = await startProxy(chain.rpcUrl, "all");
    try {
      const r = await runVia(proxy.url, ["bounty:credits", "--account", victim]);
      expectRefusal(
        r,
        /^Error: Reading the logs of blocks \d+\.\.\d+ from the localhost RPC endpoint \(LOCAL_RPC_URL\) failed: /m,
      );
      expect(r.stderr.trim().split("\n"), r.stderr).to.have.length(1);
    } finally {
      await proxy.close();
    }
  });

  it("bounty:claim --all claims the 50 largest USDC credits in one transaction, the real prize among them, and says what is left", async function () {
    const proxy = await startProxy(chain.rpcUrl, "big");
    try {
      const before = await usdcOf(victim);
      const out = expectOk(await runVia(proxy.url, ["bounty:claim", "--from", victim, "--all"]));
      expect(out).to.include(`Claimed bounty ${realId}: 5.000000 USDC`);
      expect(
        out.split("\n").filter((l) => l.startsWith("Claimed bounty ")),
        out,
      ).to.have.length(50);
      expect(out).to.include(
        `(${DUST_USDC - 49} smaller credits left for another run of the same command (--max-claims 50))`,
      );
      expect(out).to.include(
        `(${DUST_OTHER} credits in 1 other token not claimed (--token all, or --token <address>))`,
      );
      expect(await usdcOf(victim)).to.equal(before + REAL_POOL + 49n);
      expect(await creditOf(realId)).to.equal(0n);
    } finally {
      await proxy.close();
    }
  });

  describe("--indexer with one token asks the indexer for that token only (review28 R-F5)", function () {
    let indexer: Awaited<ReturnType<typeof startIndexer>>;
    let proxy: Awaited<ReturnType<typeof startProxy>>;
    /** `creditOf(id, victim)` views sent to the chain (each a call inside a multicall's data). */
    let creditReads = 0;
    const usdc = () => chain.contracts.usdc.toLowerCase();
    before(async function () {
      // the indexer lists what the chain holds: the real prize and the USDC dust, then the other token's
      const credits: IndexedCredit[] = [];
      for (let k = 0; k <= DUST_USDC + DUST_OTHER; k++)
        credits.push({ bountyId: first + BigInt(k), token: k <= DUST_USDC ? usdc() : other.toLowerCase() });
      indexer = await startIndexer(() => credits);
      const creditOfCall = new RegExp(
        `${toFunctionSelector("creditOf(uint256,address)").slice(2)}[0-9a-f]{64}0{24}${victim.slice(2).toLowerCase()}`,
        "g",
      );
      proxy = await startProxy(chain.rpcUrl, "none", (body) => {
        creditReads += body.match(creditOfCall)?.length ?? 0;
      });
    });
    after(async function () {
      await indexer?.close();
      await proxy?.close();
    });
    beforeEach(function () {
      indexer.requests.length = 0;
      creditReads = 0;
    });
    const servedBefore = () => indexer.served();

    it("bounty:credits --indexer: every request carries token=USDC; no other token's credit is paged or read", async function () {
      const served = servedBefore();
      const out = expectOk(
        await runVia(proxy.url, ["bounty:credits", "--account", victim, "--indexer", indexer.url]),
      );
      expect(indexer.requests.length, out).to.be.greaterThan(0);
      expect(indexer.served() - served).to.equal(DUST_USDC + 1);
      expect(creditReads).to.equal(DUST_USDC + 1);
      for (const q of indexer.requests) expect(q.get("token")?.toLowerCase(), q.toString()).to.equal(usdc());
      expect(out).to.include(
        `(found via the indexer ${indexer.url}, asked for this token only: --token all for every token; amounts read on-chain)`,
      );
    });

    it("bounty:credits --indexer --token all asks for every token", async function () {
      const served = servedBefore();
      expectOk(
        await runVia(proxy.url, [
          "bounty:credits",
          "--account",
          victim,
          "--indexer",
          indexer.url,
          "--token",
          "all",
        ]),
      );
      for (const q of indexer.requests) expect(q.has("token"), q.toString()).to.equal(false);
      expect(indexer.served() - served).to.equal(1 + DUST_USDC + DUST_OTHER);
      expect(creditReads).to.equal(1 + DUST_USDC + DUST_OTHER);
    });

    it("bounty:claim --all --indexer: the same, and the claim is of USDC", async function () {
      const served = servedBefore();
      const before = await usdcOf(victim);
      const out = expectOk(
        await runVia(proxy.url, [
          "bounty:claim",
          "--from",
          victim,
          "--all",
          "--indexer",
          indexer.url,
          "--max-claims",
          "1",
        ]),
      );
      expect(
        out.split("\n").filter((l) => l.startsWith("Claimed bounty ")),
        out,
      ).to.have.length(1);
      expect(indexer.served() - served).to.equal(DUST_USDC + 1);
      expect(creditReads).to.equal(DUST_USDC + 1);
      for (const q of indexer.requests) expect(q.get("token")?.toLowerCase(), q.toString()).to.equal(usdc());
      expect(await usdcOf(victim)).to.equal(before + 1n);
    });
    it("bounty:claim --all --indexer with no credit in the token says the indexer was asked for that token only", async function () {
      const empty = await startIndexer(() => []);
      try {
        const r = await runVia(proxy.url, [
          "bounty:claim",
          "--from",
          victim,
          "--all",
          "--indexer",
          empty.url,
        ]);
        expectRefusal(
          r,
          /has no outstanding credit on localhost \(as far as the indexer knows; it was asked for this token only: --token all for every token\): nothing to claim\./,
        );
        expect(empty.requests.map((q) => q.get("token")?.toLowerCase())).to.deep.equal([usdc()]);
      } finally {
        await empty.close();
      }
    });
  });

  it("--token all orders the credits by token, USDC first, then by amount within a token, not by raw base units (review28 R-F7)", async function () {
    // a stranger's 18-decimal token: 10^12 base units (0.000001 REENT) outnumber any USDC dust
    const stranger = chain.accounts[9]!.address;
    const artifact = JSON.parse(
      fs.readFileSync(`${REPO_ROOT}/artifacts/contracts/test/ReentrantToken.sol/ReentrantToken.json`, "utf8"),
    ) as { abi: Abi; bytecode: `0x${string}` };
    const hash = await chain.wallet(9).deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
    const reent = (await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    const big = 10n ** 12n;
    const bounty = chain.contracts.benchmarkBounty;
    await send([
      {
        from: stranger,
        to: reent,
        data: encodeFunctionData({ abi: erc20, functionName: "mint", args: [stranger, big] }),
      },
      {
        from: stranger,
        to: reent,
        data: encodeFunctionData({ abi: erc20, functionName: "approve", args: [bounty, big] }),
      },
    ]);
    const closesAt = (await chainTime(chain)) + 100n;
    const id = (await bountyCount()) + 1n;
    await send(creations(stranger, reent, big, 1, closesAt, "reent"));
    await chain.increaseTime(101);
    await send([
      {
        from: stranger,
        to: bounty,
        data: encodeFunctionData({
          abi: benchmarkBountyAbi,
          functionName: "award",
          args: [id, [victim], keccak256(toHex(`digest-${id}`))],
        }),
      },
    ]);
    expect(await creditOf(id)).to.equal(big);

    const listed = expectOk(
      await runVia(chain.rpcUrl, ["bounty:credits", "--account", victim, "--token", "all", "--limit", "0"]),
    );
    const tokens = listed
      .split("\n")
      .filter((l) => l.startsWith("  bounty "))
      .map((l) => /base units? of (0x[0-9a-fA-F]{40})\)$/.exec(l)![1]!.toLowerCase());
    // each amount with its token's decimals (was 6 for every token: "1000000.000000 REENT")
    expect(listed).to.include(
      `  bounty ${id}  0.000001000000000000 REENT  (${big} base units of ${getAddress(reent)})`,
    );
    // one run per token, USDC's first
    const runs = tokens.filter((t, i) => i === 0 || tokens[i - 1] !== t);
    expect(runs[0], listed).to.equal(chain.contracts.usdc.toLowerCase());
    expect(new Set(runs).size, listed).to.equal(runs.length);
    expect(runs.slice(1).sort(), listed).to.deep.equal([other.toLowerCase(), reent.toLowerCase()].sort());

    // --max-claims cuts the same order: USDC's credits first, the big REENT credit left
    const before = await usdcOf(victim);
    const out = expectOk(
      await runVia(chain.rpcUrl, [
        "bounty:claim",
        "--from",
        victim,
        "--all",
        "--token",
        "all",
        "--max-claims",
        "3",
      ]),
    );
    const claimed = out.split("\n").filter((l) => l.startsWith("Claimed bounty "));
    expect(claimed, out).to.have.length(3);
    for (const l of claimed) expect(l, out).to.match(/^Claimed bounty \d+: \d+\.\d{6} USDC from /);
    expect((await usdcOf(victim)) > before).to.equal(true);
    expect(await creditOf(id)).to.equal(big);
  });
});
