/**
 * Phase 4: the agents compete over the network, each with its own account and API key, as strangers'
 * agents would: most through the remote runner (REST), one through `run-benchmark.sh`, one over MCP.
 * Every receipt is anchored at finalize; the phase checks each on the AnchorRegistry.
 */
import { BenchBountyClient, type RunView } from "@bench-bounty/client";
import { anchorRegistryAbi } from "@bench-bounty/contracts";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Hex } from "viem";
import {
  competeOverMcp,
  competeWithRunner,
  competeWithScript,
  fetchScript,
  registerOverMcp,
} from "../channels.js";
import { agentHiddenPaths, need, type DemoPhase } from "../context.js";
import { AUTHOR_AGENT } from "../options.mjs";
import { short } from "../table.js";
import { CHANNEL_OF, FIRST_OWNER_INDEX } from "../terms.js";

export { AGENTS_DIR } from "../agents-dir.js";

const CHANNEL_LABEL = { runner: "remote runner (REST)", script: "run-benchmark.sh", mcp: "MCP" } as const;

/** agents compete over HTTP. */
export const competePhase: DemoPhase = {
  name: "agents compete over HTTP (remote runner, run-benchmark.sh, MCP)",
  async run(ctx, p) {
    const { options, registry, storeDir } = ctx;
    const c = need(ctx.chain, "the chain");
    const url = need(ctx.serviceUrl, "the service URL");
    const slug = need(ctx.published, "the published benchmark").slug;
    const api = new BenchBountyClient({ baseUrl: url });
    const checkpoints = join(storeDir, "agents");
    mkdirSync(checkpoints, { recursive: true, mode: 0o700 }); // the runners' checkpoints: their owner's only

    const keys = new Map<string, string>();
    for (const [i, agentId] of options.agents.entries()) {
      const channel = CHANNEL_OF[agentId] ?? "runner";
      if (agentId === AUTHOR_AGENT) {
        const authorKey = need(ctx.authorKey, "the author's key");
        await api.withKey(authorKey).registerAgent(agentId, { is_author_agent: true });
        keys.set(agentId, authorKey);
        p.note(
          `agent      ${agentId.padEnd(20)} the author's own account, ${CHANNEL_LABEL[channel]} (ranks, takes no money)`,
        );
        continue;
      }
      const owner = c.accounts[FIRST_OWNER_INDEX + i]!.address;
      const key =
        channel === "mcp"
          ? await registerOverMcp(url, slug, agentId, owner)
          : (await api.register({ name: agentId, agent_id: agentId, withdrawal_address: owner })).api_key;
      keys.set(agentId, key);
      p.note(
        `agent      ${agentId.padEnd(20)} owner ${owner}, own account and key, ${CHANNEL_LABEL[channel]}`,
      );
    }

    const script = options.agents.some((a) => CHANNEL_OF[a] === "script")
      ? await fetchScript(url, storeDir)
      : null;
    for (let attempt = 1; attempt <= options.attempts; attempt++) {
      for (const agentId of options.agents) {
        const apiKey = keys.get(agentId)!;
        const channel = CHANNEL_OF[agentId] ?? "runner";
        if (channel === "script") competeWithScript({ script: script!, url, slug, agentId, apiKey, attempt });
        else if (channel === "mcp") await competeOverMcp({ url, slug, agentId, apiKey, attempt });
        else
          await competeWithRunner({
            registry,
            url,
            slug,
            agentId,
            apiKey,
            checkpoints,
            hide: agentHiddenPaths(storeDir),
            note: p.note,
            verbose: options.verbose,
          });
        const run = await latestRun(api.withKey(apiKey), slug, agentId);
        p.note(
          `attempt ${attempt}/${options.attempts} ${agentId.padEnd(20)} ${CHANNEL_LABEL[channel].padEnd(20)} public ${run.score_public}  ` +
            `public composite ${run.score_composite_public}  wall ${run.wall_seconds} s  receipt ${short(run.receipt_hash ?? "")}`,
        );
      }
    }

    // Every receipt hash must be on-chain before the award (SPEC 4).
    let anchored = 0;
    for (const [agentId, apiKey] of keys) {
      const runs = (await api.withKey(apiKey).runsMine()).runs.filter(
        (r) => r.benchmark === slug && r.agent_id === agentId,
      );
      for (const r of runs) {
        if (r.status !== "finalized" || !r.receipt_hash)
          throw new Error(`run ${r.run_id} of ${agentId} is ${r.status}`);
        const [, block] = await c.publicClient.readContract({
          address: c.contracts.anchorRegistry,
          abi: anchorRegistryAbi,
          functionName: "anchorOf",
          args: [r.receipt_hash as Hex],
        });
        if (block === 0n)
          throw new Error(`receipt ${r.receipt_hash} of run ${r.run_id} is not anchored on-chain`);
        anchored++;
      }
    }
    p.note(`${anchored} receipts anchored on-chain (AnchorRegistry.anchorOf checked)`);
    p.summary(`${anchored} runs by ${options.agents.length} agents over HTTP, every receipt anchored`);
  },
};

/** The agent's newest finalized run on the benchmark (what the channel just finished). */
async function latestRun(client: BenchBountyClient, slug: string, agentId: string): Promise<RunView> {
  const runs = (await client.runsMine()).runs.filter((r) => r.benchmark === slug && r.agent_id === agentId);
  const last = runs.sort((a, b) => b.attempt - a.attempt)[0];
  if (!last || last.status !== "finalized") throw new Error(`${agentId}: no finalized run after the attempt`);
  return last;
}
