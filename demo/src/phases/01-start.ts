/** Phase 1: the local Base-profile chain, the Ponder indexer and the platform with its evidence door. */
import { BASE_USDC_ADDRESS } from "@bench-bounty/contracts";
import { startDevChain } from "@bench-bounty/devchain";
import { freePort, startIndexer } from "@bench-bounty/indexer/testing";
import { Platform, serveDoor } from "@bench-bounty/platform";
import type { Address } from "viem";
import { writeDemoAddressBook } from "../chain-tools.js";
import type { DemoPhase } from "../context.js";
import { PLATFORM_INDEX } from "../terms.js";

/** start local Base chain, indexer and evidence door. */
export const startPhase: DemoPhase = {
  name: "start local Base chain, indexer and evidence door",
  async run(ctx, p) {
    const { options, registry, result, storeDir } = ctx;
    p.note("starting hardhat node (chain id 8453) and deploying with the Ignition module ...");
    const chain = await startDevChain({ log: options.verbose });
    const c = chain;
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
    const indexer = await startIndexer({
      chain: c,
      wait: "none",
      logLevel: "warn",
      ...(options.verbose ? { log: true } : {}),
    });
    const ix = indexer;
    ctx.indexer = ix;
    registry.addStop("indexer (ponder)", async () => {
      await ix.stop();
    });
    result.indexerUrl = ix.url;
    p.note(`indexer    ${ix.url} (pid ${ix.pid})`);

    const port = await freePort();
    const doorUrl = `http://127.0.0.1:${port}`;
    const platform = Platform.open({
      dir: storeDir,
      chain: {
        rpcUrl: c.rpcUrl,
        chainId: c.chainId,
        contracts: c.contracts,
        privateKey: c.accounts[PLATFORM_INDEX]!.privateKey,
      },
      publicBaseUrl: doorUrl,
      receiptAnchoring: "immediate",
    });
    const pf = platform;
    ctx.platform = pf;
    registry.addStop("platform store", () => pf.close());
    const door = await serveDoor(pf, { port, host: "127.0.0.1" });
    registry.addStop("evidence door (hono)", () => door.close());
    result.doorUrl = door.url;
    ctx.doorUrl = door.url;
    p.note(`door       ${door.url}/api/v1/benchmarks`);
    p.summary(`chain ${c.rpcUrl}, indexer ${ix.url}, door ${door.url}`);
  },
};
