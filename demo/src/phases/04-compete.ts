/** Phase 4: the CLI agents compete through the platform runner; every receipt is anchored at finalize. */
import { anchorRegistryAbi } from "@bench-bounty/contracts";
import { runBenchmark } from "@bench-bounty/platform";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { need, type DemoPhase } from "../context.js";
import { AUTHOR_AGENT } from "../options.mjs";
import { short } from "../table.js";
import { AUTHOR_INDEX, FIRST_OWNER_INDEX } from "../terms.js";

/** Directory of the CLI agents (`demo/agents/*.mjs`). */
export const AGENTS_DIR = fileURLToPath(new URL("../../agents/", import.meta.url));

/** agents compete (runner, receipts anchored). */
export const competePhase: DemoPhase = {
  name: "agents compete (runner, receipts anchored)",
  async run(ctx, p) {
    const { options } = ctx;
    const c = need(ctx.chain, "the chain");
    const pf = need(ctx.platform, "the platform");
    const slug = need(ctx.published, "the published benchmark").slug;
    options.agents.forEach((agentId, i) => {
      const isAuthor = agentId === AUTHOR_AGENT;
      const index = isAuthor ? AUTHOR_INDEX : FIRST_OWNER_INDEX + i;
      const rec = pf.registerAgent(agentId, {
        withdrawal_address: c.accounts[index]!.address.toLowerCase(),
        is_author_agent: isAuthor,
      });
      p.note(
        `agent      ${agentId.padEnd(20)} owner ${rec.withdrawal_address}${rec.is_author_agent ? "  (author's agent: ranks, takes no money)" : ""}`,
      );
    });
    let runs = 0;
    for (let attempt = 1; attempt <= options.attempts; attempt++) {
      for (const agentId of options.agents) {
        const r = await runBenchmark(
          pf,
          slug,
          agentId,
          {
            kind: "command",
            command: `"${process.execPath}" "${join(AGENTS_DIR, `${agentId}.mjs`)}"`,
            cwd: AGENTS_DIR,
          },
          { batchSize: 50, taskTimeoutMs: 10_000, progress: process.stderr.isTTY === true },
        );
        const f = r.finalized;
        if (!f) throw new Error(`run ${r.run_id} of ${agentId} was not finalized`);
        if (!f.receipt_anchor) throw new Error(`the receipt of run ${r.run_id} was not anchored at finalize`);
        const bad = r.outcomes.filter((o) => o.status !== "answered").length;
        runs++;
        p.note(
          `attempt ${attempt}/${options.attempts} ${agentId.padEnd(20)} ${String(f.counts.answered).padStart(4)}/${f.counts.tasks} answered` +
            `${bad ? ` (${bad} invalid)` : ""}  public ${f.score_public}  composite ${f.score_composite}  wall ${f.wall_seconds} s  ` +
            `receipt ${short(f.receipt_hash)} anchored in block ${f.receipt_anchor.anchor_block}`,
        );
      }
    }
    // Every receipt hash must be on-chain before the award (SPEC 4).
    const finalized = pf.listRuns(slug).filter((r) => r.status === "finalized");
    for (const r of finalized) {
      const [, block] = await c.publicClient.readContract({
        address: c.contracts.anchorRegistry,
        abi: anchorRegistryAbi,
        functionName: "anchorOf",
        args: [r.receipt_hash!],
      });
      if (block === 0n)
        throw new Error(`receipt ${r.receipt_hash} of run ${r.run_id} is not anchored on-chain`);
    }
    p.note(`${finalized.length}/${runs} receipts anchored on-chain (AnchorRegistry.anchorOf checked)`);
    p.summary(`${runs} runs by ${options.agents.length} agents, every receipt anchored`);
  },
};
