/**
 * `GET /bounties/:id`: the indexer's bounty (status, root, leaf count, pool,
 * parties, close time, award deadline, threshold, splits, award, its log index, the
 * claimed total) and its winners (and their claim transactions) agree with the
 * pack and, when the chain was read, with `getBounty` and the `Awarded` log. The award's fields and
 * winners are compared by the same functions for the award history's items
 * (`GET /awards`, credits.ts), which state them too (probe15 B-F13).
 * @packageDocumentation
 */
import { BountyStatus } from "@bench-bounty/contracts";
import { fact, type Fact } from "../facts.js";
import { shownValue } from "../text.js";
import {
  arr,
  obj,
  packValueRefused,
  s,
  shownField,
  uint,
  type Disagreements,
  type IndexerWalk,
  type Json,
} from "./context.js";
import { claimAgreement, claimTxAgreement } from "./claims.js";
import { creditRecordFields, packCredits } from "./credit-records.js";

/** The bounty and its award; a 404 decides the fact (the indexer has no such bounty). */
export async function bountyAgreement(walk: IndexerWalk, found: Disagreements): Promise<Fact | void> {
  const b = walk.view.benchmark;
  const route = `/bounties/${b.bounty_id}`;
  let br;
  try {
    br = await walk.get(route);
  } catch (e) {
    const refused = packValueRefused(e, route, "id", "$.benchmark.bounty_id");
    if (refused !== null) return fact("unverified", refused);
    throw e;
  }
  if (br.status === 404) return fact("failed", `GET ${route}: 404, the indexer has no bounty ${b.bounty_id}`);
  const raw = obj(br.body).bounty;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw walk.notTheIndexer(route, "no bounty object");
  const bounty = obj(raw);
  // the answer is of the bounty asked for (probe29 C-F2: a bounty "2" and its winners answering
  // `/bounties/1` was verified)
  found.cmp(route, "bounty.id", s(bounty.id), b.bounty_id);
  bountyOnlyFields(walk, route, bounty, found);
  chainBountyFields(walk, route, bounty, found);
  const winners = arr(obj(br.body).winners).map(obj);
  awardAgreement(walk, { route, at: "bounty", award: bounty, winners, winnersAt: "winners" }, found);
  if (obj(br.body).credits !== undefined) bountyCredits(walk, route, arr(obj(br.body).credits), found);
  claimedTotal(walk, route, bounty, obj(br.body).credits, found);
  noReclaim(route, bounty, obj(br.body), found);
}

/** The fields of a bounty record that only a reclaim sets (indexer `ponder.schema.ts`, `bounty`). */
const RECLAIM_FIELDS = [
  "reclaimedEventId",
  "reclaimedBlock",
  "reclaimedTx",
  "reclaimedAt",
  "reclaimedAmount",
  "reclaimedTo",
] as const;

/**
 * The pack's bounty is Awarded, and an Awarded bounty has no reclaim (SPEC 1.1: Awarded and Reclaimed end
 * the ladder apart): any reclaim field of the record, its `reclaim` record or a `reclaims` item is a
 * disagreement (probe29 C-F2: an Awarded bounty whose pool the indexer said went back to the author was
 * verified).
 */
function noReclaim(
  route: string,
  bounty: Record<string, Json>,
  body: Record<string, Json>,
  found: Disagreements,
): void {
  const none = "the pack says null (an Awarded bounty has no reclaim)";
  for (const field of RECLAIM_FIELDS) {
    const v = s(bounty[field]);
    if (v !== null) found.push(`GET ${route}: bounty.${field} is ${shownValue(v, 200)}, ${none}`);
  }
  if (body.reclaim !== undefined && body.reclaim !== null)
    found.push(
      `GET ${route}: reclaim is ${Array.isArray(body.reclaim) ? "a list" : typeof body.reclaim === "object" ? "a record" : shownValue(String(s(body.reclaim)), 200)}, ${none}`,
    );
  if (arr(body.reclaims).length > 0)
    found.push(`GET ${route}: reclaims has ${arr(body.reclaims).length} items, ${none}`);
}

/**
 * The bounty's credit records (`credits` of `GET /bounties/:id`) as the pack implies them: one per winner
 * account and, when the author's remainder is above zero, the author's, every field equal (probe29 C-F2's
 * class: the records the bounty's page lists were never compared).
 */
function bountyCredits(walk: IndexerWalk, route: string, listed: Json[], found: Disagreements): void {
  const want = packCredits(walk.view);
  if (listed.length !== want.size)
    found.push(`GET ${route}: ${listed.length} credits, the pack implies ${want.size}`);
  listed.map(obj).forEach((item, i) => {
    const account = s(item.account);
    const expected = account === null ? undefined : want.get(account);
    if (expected === undefined)
      found.push(
        `GET ${route}: credits[${i}].account is ${account === null ? "null" : shownValue(account, 80)}, not an account the pack credits`,
      );
    else creditRecordFields(walk, route, `credits[${i}]`, item, account!, expected, found);
  });
}

/**
 * The indexer's bounty against `getBounty` as the chain was read (probe28 C-F2: read against another
 * chain whose bounty of that id was Funded with another root, the indexer's Awarded bounty was
 * `verified`, as it was compared with the pack only): status, root, leaf count, parties, token, close
 * time, threshold and splits, and, for an Awarded indexer bounty, the chain's `Awarded` log of the
 * pack's transaction (`award_log` found none: a disagreement).
 */
function chainBountyFields(
  walk: IndexerWalk,
  route: string,
  bounty: Record<string, Json>,
  found: Disagreements,
): void {
  const onChain = walk.chain?.bounty;
  if (!onChain) return;
  const says = "getBounty says";
  const cmp = (field: string, want: string): void =>
    found.cmp(route, `bounty.${field}`, s(bounty[field]), want.toLowerCase(), says);
  cmp("status", BountyStatus[Number(onChain.status)] ?? String(onChain.status));
  cmp("testSetRoot", onChain.testSetRoot);
  cmp("leafCount", String(onChain.leafCount));
  cmp("author", onChain.author);
  cmp("awarder", onChain.awarder);
  cmp("token", onChain.token);
  cmp("closesAt", String(onChain.closesAt));
  cmp("thresholdBps", String(onChain.thresholdBps));
  cmp("splitsBps", JSON.stringify(onChain.splitsBps.map(Number)));
  // the term that decides when the author may reclaim (probe35 B-F8: "0" was verified)
  if (bounty.awardDeadline !== undefined) cmp("awardDeadline", String(onChain.awardDeadline));
  if (walk.chain!.awarded === null && s(bounty.status) === "awarded")
    found.push(
      `GET ${route}: the indexer says bounty ${walk.view.benchmark.bounty_id} is Awarded (awardedTx ${s(bounty.awardedTx)}), the chain shows no Awarded log of it in $.benchmark.award_tx`,
    );
}

/** The fields only `GET /bounties/:id` states: status, leaf count, close time, threshold, splits. */
function bountyOnlyFields(
  walk: IndexerWalk,
  route: string,
  bounty: Record<string, Json>,
  found: Disagreements,
): void {
  const b = walk.view.benchmark;
  const rd = walk.view.rank_derivation;
  const cmp = (field: string, want: string): void =>
    found.cmp(route, `bounty.${field}`, s(bounty[field]), want);
  cmp("status", "awarded");
  cmp("leafCount", String(b.leaf_count));
  cmp("closesAt", String(b.closes_at));
  cmp("thresholdBps", String(rd.threshold_bps));
  cmp("splitsBps", JSON.stringify(rd.splits_bps));
  if (bounty.awardDeadline !== undefined && uint(bounty.awardDeadline) === null)
    found.push(
      `GET ${route}: bounty.awardDeadline is ${shownField(bounty.awardDeadline)}, not a time (unix seconds)`,
    );
}

/**
 * The bounty's `claimedTotal` (the sum of the applied `Claimed` amounts, base units), when stated: an amount
 * no larger than the pool and, when the answer lists the bounty's credits, the sum of their `claimed` (each
 * compared with creditOf when the chain was read, {@link claimAgreement}) (probe35 B-F8: null was verified).
 */
function claimedTotal(
  walk: IndexerWalk,
  route: string,
  bounty: Record<string, Json>,
  credits: Json | undefined,
  found: Disagreements,
): void {
  if (bounty.claimedTotal === undefined) return;
  const total = uint(bounty.claimedTotal);
  const pool = walk.view.benchmark.pool_base_units;
  if (total === null)
    return found.push(
      `GET ${route}: bounty.claimedTotal is ${shownField(bounty.claimedTotal)}, not an amount (base units)`,
    );
  if (BigInt(total) > pool)
    found.push(`GET ${route}: bounty.claimedTotal is ${total}, more than the pool ${pool}`);
  if (credits === undefined) return;
  let sum = 0n;
  for (const [i, item] of arr(credits).map(obj).entries()) {
    const claimed = uint(item.claimed);
    if (claimed === null)
      return found.push(
        `GET ${route}: credits[${i}].claimed is ${shownField(item.claimed)}, not an amount (base units): bounty.claimedTotal not compared with it`,
      );
    sum += BigInt(claimed);
  }
  found.cmp(route, "bounty.claimedTotal", total, String(sum), "the sum of its credits[].claimed is");
}

/** An award as one indexer answer states it (the bounty of `GET /bounties/:id`, or an item of `GET /awards`). */
export interface AwardAnswer {
  /** The route read. */
  readonly route: string;
  /** How the award object is named in a reason (`bounty`, `items[0]`). */
  readonly at: string;
  readonly award: Record<string, Json>;
  readonly winners: readonly Record<string, Json>[];
  /** How its winners are named (`winners`, `items[0].winners`). */
  readonly winnersAt: string;
}

/**
 * An award as the indexer states it against the pack and, when the chain was read, the `Awarded` log:
 * root, pool, parties, digest, transaction, block, winner count, sums, and every winner's place,
 * account and amount.
 */
export function awardAgreement(walk: IndexerWalk, answer: AwardAnswer, found: Disagreements): void {
  const { route, at, award } = answer;
  const { view, derived } = walk;
  const b = view.benchmark;
  const sum = view.winners.reduce((t, w) => t + w.amount_base_units, 0n);
  const cmp = (field: string, want: string): void =>
    found.cmp(route, `${at}.${field}`, s(award[field]), want);
  cmp("testSetRoot", b.commit_root.toLowerCase());
  cmp("pool", String(b.pool_base_units));
  cmp("token", b.token.toLowerCase());
  cmp("author", b.author.toLowerCase());
  cmp("awarder", b.awarder.toLowerCase());
  cmp("rankingDigest", b.ranking_digest.toLowerCase());
  cmp("awardedTx", b.award_tx.toLowerCase());
  cmp("awardedBlock", String(b.award_block));
  cmp("winnerCount", String(view.winners.length));
  cmp("paidToWinners", String(sum));
  cmp("authorRemainder", String(b.pool_base_units - sum));
  if (derived.rankingDigest !== null)
    found.cmp(
      route,
      `${at}.rankingDigest`,
      s(award.rankingDigest),
      derived.rankingDigest,
      "rank_derivation hashes to",
    );
  logIndexField(walk, route, `${at}.awardedLogIndex`, award.awardedLogIndex, found);
  winnerFields(walk, answer, found);
  if (walk.chain?.awarded) awardedLogFields(walk, answer, found);
}

/**
 * Every winner as the pack says: place, account and amount, which every answer states, and the fields
 * of the award a winner record may state too (`GET /bounties/:id` serves them, `GET /awards` does not):
 * the bounty, the token, the award's transaction and block, compared whenever stated (probe29 C-F2: a
 * winner record naming another token was verified).
 */
function winnerFields(walk: IndexerWalk, answer: AwardAnswer, found: Disagreements): void {
  const { route, winners, winnersAt } = answer;
  const b = walk.view.benchmark;
  const pack = walk.view.winners;
  if (winners.length !== pack.length)
    found.push(`GET ${route}: ${winners.length} ${winnersAt}, the pack has ${pack.length}`);
  const stated: [string, string][] = [
    ["bountyId", b.bounty_id],
    ["token", b.token.toLowerCase()],
    ["awardedTx", b.award_tx.toLowerCase()],
    ["awardedBlock", String(b.award_block)],
  ];
  pack.forEach((w, i) => {
    const iw = winners[i];
    if (iw === undefined) return;
    found.cmp(route, `${winnersAt}[${i}].place`, s(iw.place), String(i + 1));
    found.cmp(route, `${winnersAt}[${i}].account`, s(iw.account), w.withdrawal_address.toLowerCase());
    found.cmp(route, `${winnersAt}[${i}].amount`, s(iw.amount), String(w.amount_base_units));
    for (const [field, want] of stated)
      if (iw[field] !== undefined) found.cmp(route, `${winnersAt}[${i}].${field}`, s(iw[field]), want);
    // what the place still owes, against creditOf (probe29 C-F2: claimed on chain, outstanding here)
    claimAgreement(
      walk,
      {
        route,
        at: `${winnersAt}[${i}]`,
        item: iw,
        account: w.withdrawal_address.toLowerCase(),
        amount: w.amount_base_units,
        claimedField: "claimedAmount",
        whole: false,
      },
      found,
    );
    const at = `${winnersAt}[${i}]`;
    logIndexField(walk, route, `${at}.awardedLogIndex`, iw.awardedLogIndex, found);
    claimTxAgreement(walk, { route, at, item: iw, account: w.withdrawal_address.toLowerCase() }, found);
  });
}

/**
 * The award's log index (`awardedLogIndex` of an award or a winner record), when stated: the index of the
 * `Awarded` log in award_tx's receipt when the chain was read, else at least a non-negative integer
 * (probe35 B-F8: 201 was verified).
 */
function logIndexField(
  walk: IndexerWalk,
  route: string,
  field: string,
  got: Json | undefined,
  found: Disagreements,
): void {
  if (got === undefined) return;
  const awarded = walk.chain?.awarded;
  if (awarded) found.cmp(route, field, s(got), String(awarded.logIndex), "award_tx's receipt says");
  else if (uint(got) === null)
    found.push(`GET ${route}: ${field} is ${shownField(got)}, not a log index (a non-negative integer)`);
}

function awardedLogFields(walk: IndexerWalk, answer: AwardAnswer, found: Disagreements): void {
  const { route, at, award, winners, winnersAt } = answer;
  const a = walk.chain!.awarded!;
  const log = "the Awarded log says";
  found.cmp(route, `${at}.rankingDigest`, s(award.rankingDigest), a.rankingDigest, log);
  found.cmp(route, `${at}.authorRemainder`, s(award.authorRemainder), String(a.authorRemainder), log);
  found.cmp(route, `${at}.awardedBlock`, s(award.awardedBlock), String(a.blockNumber), "the chain says");
  a.winners.forEach((acct, i) => {
    const iw = winners[i];
    found.cmp(route, `${winnersAt}[${i}].account`, iw === undefined ? null : s(iw.account), acct, log);
    found.cmp(
      route,
      `${winnersAt}[${i}].amount`,
      iw === undefined ? null : s(iw.amount),
      String(a.amounts[i]),
      log,
    );
  });
}
