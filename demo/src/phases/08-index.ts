/** Phase 8: the indexer catches up; its award must equal the chain's `Awarded` log. */
import { getJson } from "../chain-tools.js";
import { need, type DemoPhase } from "../context.js";
import type { IndexerAward } from "../result.js";

/** index the chain (Ponder, PGlite). */
export const indexPhase: DemoPhase = {
  name: "index the chain (Ponder, PGlite)",
  async run(ctx, p) {
    const { result } = ctx;
    const c = need(ctx.chain, "the chain");
    const ix = need(ctx.indexer, "the indexer");
    const bountyId = need(ctx.bountyId, "the bounty id");
    const head = Number(await c.publicClient.getBlockNumber());
    p.note(`waiting for the indexer to reach block ${head} ...`);
    await ix.waitForBlock(head, 180_000);
    const awards = await getJson<{ items: IndexerAward[] }>(`${ix.url}/awards`);
    const mine = awards.items.find((a) => String(a.bountyId) === bountyId.toString());
    if (!mine) throw new Error(`GET ${ix.url}/awards has no award for bounty ${bountyId}`);
    result.indexerAward = mine;
    const chainAward = need(result.chainAward, "the chain's Awarded log");
    const problems: string[] = [];
    const winners = [...mine.winners].sort((a, b) => a.place - b.place);
    if (winners.length !== chainAward.winners.length)
      problems.push(`${winners.length} winners, chain ${chainAward.winners.length}`);
    winners.forEach((w, i) => {
      if (w.account.toLowerCase() !== chainAward.winners[i])
        problems.push(`place ${w.place} account ${w.account} vs ${chainAward.winners[i]}`);
      if (String(w.amount) !== chainAward.amounts[i])
        problems.push(`place ${w.place} amount ${w.amount} vs ${chainAward.amounts[i]}`);
    });
    if (String(mine.authorRemainder) !== chainAward.author_remainder)
      problems.push(`author remainder ${mine.authorRemainder} vs ${chainAward.author_remainder}`);
    if (mine.rankingDigest.toLowerCase() !== chainAward.ranking_digest.toLowerCase())
      problems.push(`ranking digest ${mine.rankingDigest} vs ${chainAward.ranking_digest}`);
    if (mine.awardedTx.toLowerCase() !== chainAward.tx_hash.toLowerCase())
      problems.push(`award tx ${mine.awardedTx} vs ${chainAward.tx_hash}`);
    if (problems.length > 0)
      throw new Error(`the indexer's award differs from the chain's Awarded log: ${problems.join("; ")}`);
    p.note(
      `GET ${ix.url}/awards: bounty ${mine.bountyId} awarded in block ${mine.awardedBlock}, ${winners.length} winners; equal to the chain's Awarded log`,
    );
    p.summary(`indexed to block ${head}; the indexer's award equals the chain's`);
  },
};
