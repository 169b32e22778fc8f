/**
 * Phase 1: the local Base-profile chain, the Ponder indexer and `bench-bounty serve` (REST, MCP, the
 * evidence door and the web leaderboard), started as an operator would run it: its own process, its own
 * SQLite store, the platform's signer key and the operator's API key from the environment.
 */
import { BASE_USDC_ADDRESS } from "@bench-bounty/contracts";
import { startDevChain } from "@bench-bounty/devchain";
import { freePort, startIndexer } from "@bench-bounty/indexer/testing";
import { randomBytes } from "node:crypto";
import type { Address } from "viem";
import { writeDemoAddressBook } from "../chain-tools.js";
import { serviceStoreDir, type DemoPhase } from "../context.js";
import { startServe } from "../services.js";
import { PLATFORM_INDEX } from "../terms.js";

/** start local Base chain, indexer and the platform service. */
export const startPhase: DemoPhase = {
  name: "start local Base chain, indexer and bench-bounty serve",
  async run(ctx, p) {
    const { options, registry, result, storeDir } = ctx;
    p.note("starting hardhat node (chain id 8453) and deploying with the Ignition module ...");
    // --base-port: the chain, the indexer and the service on three fixed ports, else ports the system picks
    const fixed = (offset: number) => (options.basePort === null ? {} : { port: options.basePort + offset });
    const c = await startDevChain({ log: options.verbose, ...fixed(0) });
    ctx.chain = c;
    registry.addStop("devchain (hardhat node)", () => c.stop());
    result.rpcUrl = c.rpcUrl;
    result.contracts = c.contracts;
    const code = await c.publicClient.getCode({ address: BASE_USDC_ADDRESS as Address });
    if (c.chainId !== 8453) throw new Error(`devchain reports chain id ${c.chainId}, expected 8453`);
    if (!code || code === "0x")
      throw new Error(`no test USDC code at the Base USDC address ${BASE_USDC_ADDRESS}`);
    p.note(`chain      ${c.rpcUrl} (chain id ${c.chainId}, start block ${c.startBlock})`);
    p.note(`USDC       ${c.contracts.usdc} (test USDC at the Base USDC address)`);
    p.note(`bounty     ${c.contracts.benchmarkBounty}`);
    p.note(`anchors    ${c.contracts.anchorRegistry}`);
    ctx.addressBook = writeDemoAddressBook(c, storeDir);

    p.note("starting the Ponder indexer (embedded PGlite) in the background ...");
    const ix = await startIndexer({
      chain: c,
      wait: "none",
      logLevel: "warn",
      ...(options.verbose ? { log: true } : {}),
      ...fixed(1),
    });
    ctx.indexer = ix;
    registry.addStop("indexer (ponder)", async () => {
      await ix.stop();
    });
    result.indexerUrl = ix.url;
    p.note(`indexer    ${ix.url} (pid ${ix.pid})`);

    const port = options.basePort === null ? await freePort() : options.basePort + 2;
    const publicUrl = `http://127.0.0.1:${port}`;
    ctx.operatorKey = `bb_operator_${randomBytes(24).toString("hex")}`;
    const serve = await startServe(
      registry,
      [
        "--store",
        serviceStoreDir(storeDir),
        "--rpc-url",
        c.rpcUrl,
        "--chain-id",
        String(c.chainId),
        "--bounty-contract",
        c.contracts.benchmarkBounty,
        "--anchor-registry",
        c.contracts.anchorRegistry,
        "--usdc",
        c.contracts.usdc,
        "--public-url",
        publicUrl,
        "--receipt-anchoring",
        "immediate",
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--indexer-url",
        ix.url,
        "--local-chain",
      ],
      {
        BENCH_BOUNTY_PRIVATE_KEY: c.accounts[PLATFORM_INDEX]!.privateKey,
        BENCH_BOUNTY_OPERATOR_KEY: ctx.operatorKey,
      },
      p.note,
      options.verbose,
    );
    ctx.serviceUrl = serve.url;
    result.serviceUrl = serve.url;
    for (const line of serve.banner) if (line.trim()) p.note(`│ ${line}`);
    p.summary(`chain ${c.rpcUrl}, indexer ${ix.url}, service and web leaderboard ${serve.url}/`);
  },
};
