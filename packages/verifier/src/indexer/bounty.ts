/**
 * `GET /bounties/:id`: the indexer's bounty (status, root, leaf count, pool,
 * parties, close time, threshold, splits, award) and its winners agree with the
 * pack and, when the chain was read, with the `Awarded` log.
 * @packageDocumentation
 */
import { fact, type Fact } from "../facts.js";
import { arr, obj, s, type Disagreements, type IndexerWalk, type Json } from "./context.js";

/** The bounty and its award; a 404 decides the fact (the indexer has no such bounty). */
export async function bountyAgreement(walk: IndexerWalk, found: Disagreements): Promise<Fact | void> {
  const b = walk.view.benchmark;
  const route = `/bounties/${b.bounty_id}`;
  const br = await walk.get(route);
  if (br.status === 404) return fact("failed", `GET ${route}: 404, the indexer has no bounty ${b.bounty_id}`);
  const raw = obj(br.body).bounty;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw walk.notTheIndexer(route, "no bounty object");
  const bounty = obj(raw);
  const winners = arr(obj(br.body).winners).map(obj);
  bountyFields(walk, route, bounty, found);
  winnerFields(walk, route, winners, found);
  if (walk.chain?.awarded) awardedLogFields(walk, route, bounty, winners, found);
}

function bountyFields(
  walk: IndexerWalk,
  route: string,
  bounty: Record<string, Json>,
  found: Disagreements,
): void {
  const { view, derived } = walk;
  const b = view.benchmark;
  const rd = view.rank_derivation;
  const sum = view.winners.reduce((t, w) => t + w.amount_base_units, 0n);
  const cmp = (field: string, want: string): void =>
    found.cmp(route, `bounty.${field}`, s(bounty[field]), want);
  cmp("status", "awarded");
  cmp("testSetRoot", b.commit_root.toLowerCase());
  cmp("leafCount", String(b.leaf_count));
  cmp("pool", String(b.pool_base_units));
  cmp("token", b.token.toLowerCase());
  cmp("author", b.author.toLowerCase());
  cmp("awarder", b.awarder.toLowerCase());
  cmp("closesAt", String(b.closes_at));
  cmp("thresholdBps", String(rd.threshold_bps));
  cmp("splitsBps", JSON.stringify(rd.splits_bps));
  cmp("rankingDigest", b.ranking_digest.toLowerCase());
  cmp("awardedTx", b.award_tx.toLowerCase());
  cmp("awardedBlock", String(b.award_block));
  cmp("winnerCount", String(view.winners.length));
  cmp("paidToWinners", String(sum));
  cmp("authorRemainder", String(b.pool_base_units - sum));
  if (derived.rankingDigest !== null)
    found.cmp(
      route,
      "bounty.rankingDigest",
      s(bounty.rankingDigest),
      derived.rankingDigest,
      "rank_derivation hashes to",
    );
}

function winnerFields(
  walk: IndexerWalk,
  route: string,
  winners: readonly Record<string, Json>[],
  found: Disagreements,
): void {
  const pack = walk.view.winners;
  if (winners.length !== pack.length)
    found.push(`GET ${route}: ${winners.length} winners, the pack has ${pack.length}`);
  pack.forEach((w, i) => {
    const iw = winners[i];
    if (iw === undefined) return;
    found.cmp(route, `winners[${i}].place`, s(iw.place), String(i + 1));
    found.cmp(route, `winners[${i}].account`, s(iw.account), w.withdrawal_address.toLowerCase());
    found.cmp(route, `winners[${i}].amount`, s(iw.amount), String(w.amount_base_units));
  });
}

function awardedLogFields(
  walk: IndexerWalk,
  route: string,
  bounty: Record<string, Json>,
  winners: readonly Record<string, Json>[],
  found: Disagreements,
): void {
  const a = walk.chain!.awarded!;
  const log = "the Awarded log says";
  found.cmp(route, "bounty.rankingDigest", s(bounty.rankingDigest), a.rankingDigest, log);
  found.cmp(route, "bounty.authorRemainder", s(bounty.authorRemainder), String(a.authorRemainder), log);
  found.cmp(route, "bounty.awardedBlock", s(bounty.awardedBlock), String(a.blockNumber), "the chain says");
  a.winners.forEach((acct, i) => {
    const iw = winners[i];
    found.cmp(route, `winners[${i}].account`, iw === undefined ? null : s(iw.account), acct, log);
    found.cmp(
      route,
      `winners[${i}].amount`,
      iw === undefined ? null : s(iw.amount),
      String(a.amounts[i]),
      log,
    );
  });
}
