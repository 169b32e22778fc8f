/**
 * Phase 6: the operator awards over the API (`POST /benchmarks/:slug/award` with the operator's key):
 * the service selects the winners, sends `award`, mints, anchors and stores the pack; the door serves it.
 */
import { BenchBountyClient } from "@bench-bounty/client";
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { join } from "node:path";
import { writeAtomically } from "../chain-tools.js";
import { need, type DemoPhase } from "../context.js";
import { OUTPUT_FILES } from "../options.mjs";
import { formatUsdc, short } from "../table.js";

/** award, mint, anchor and serve the evidence pack. */
export const awardPhase: DemoPhase = {
  name: "award over the API, mint, anchor and serve the evidence pack",
  async run(ctx, p) {
    const { options, result } = ctx;
    const c = need(ctx.chain, "the chain");
    const slug = need(ctx.published, "the published benchmark").slug;
    const bountyId = need(ctx.bountyId, "the bounty id");
    const doorUrl = need(ctx.serviceUrl, "the service URL");
    const operator = new BenchBountyClient({
      baseUrl: doorUrl,
      apiKey: need(ctx.operatorKey, "the operator key"),
    });
    const award = await operator.award(slug);
    result.award = award;
    p.note(
      `award tx   ${award.award_tx} (block ${award.award_block}), ranking digest ${short(award.ranking_digest)}`,
    );
    for (const w of award.winners) {
      p.note(
        `place ${w.place}    ${w.agent_id.padEnd(20)} ${w.withdrawal_address}  ${formatUsdc(w.amount_base_units)} USDC`,
      );
    }
    if (award.zero_winner_reason) p.note(`no winners: ${award.zero_winner_reason}`);
    if (!award.pack_anchor) throw new Error("the pack hash was not anchored");
    p.note(`pack       ${award.pack_hash} anchored in block ${award.pack_anchor.anchor_block} (kind pack)`);
    const logs = await c.publicClient.getContractEvents({
      address: c.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      eventName: "Awarded",
      args: { bountyId },
      fromBlock: BigInt(award.award_block),
      toBlock: BigInt(award.award_block),
    });
    const ev = logs[0];
    if (!ev) throw new Error(`no Awarded log for bounty ${bountyId} in block ${award.award_block}`);
    result.chainAward = {
      bounty_id: bountyId.toString(),
      tx_hash: ev.transactionHash,
      block: Number(ev.blockNumber),
      winners: ev.args.winners!.map((a) => a.toLowerCase()),
      amounts: ev.args.amounts!.map(String),
      author_remainder: ev.args.authorRemainder!.toString(),
      ranking_digest: ev.args.rankingDigest!,
    };
    const url = `${doorUrl}/api/v1/benchmarks/${slug}/award-evidence`;
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${await res.text()}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    p.note(`door       GET ${url} -> 200, ${bytes.byteLength} bytes, ETag ${res.headers.get("etag")}`);
    const packFile = join(options.outDir, OUTPUT_FILES.pack);
    writeAtomically(packFile, bytes);
    result.files.pack = packFile;
    p.summary(
      `${award.winners.length} winners credited on-chain; pack ${short(award.pack_hash)} served by the door`,
    );
  },
};
