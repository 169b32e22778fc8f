/**
 * Indexer cross-check (`--indexer URL`): the indexer's REST answers
 * (`indexer/src/api/index.ts`) must agree, field by field, with the pack and,
 * when the chain was read, with the chain. Every disagreement is one reason
 * naming the indexer route and field (`GET /bounties/3: bounty.rankingDigest is ..., the pack says ...`).
 *
 * Routes read: `GET /bounties/:id`, `GET /anchors/:digest` (commitment, every receipt,
 * the pack), `GET /awards?winner=` and `GET /accounts/:address/credits` per winner address.
 *
 * @packageDocumentation
 */
import { VerifierNetworkError, describeError } from "./errors.js";
import { fact, factFrom, type Fact } from "./facts.js";
import { sameHex, type OfflineDerived, type ProgressCallback } from "./offline.js";
import type { ChainObservation } from "./onchain.js";
import type { PackView } from "./pack.js";

/** Options of {@link verifyIndexer}. */
export interface IndexerOptions {
  indexerUrl: string;
  /** Per-request timeout, milliseconds (default 20 000). */
  timeoutMs?: number;
  onProgress?: ProgressCallback;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Read a field of an indexer answer as a lowercase string (numbers and bigints are decimal strings there). */
function s(v: Json | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v.toLowerCase();
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

function obj(v: Json | undefined): Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v : {};
}

function arr(v: Json | undefined): Json[] {
  return Array.isArray(v) ? v : [];
}

/**
 * Cross-check the indexer against the pack (and the chain when observed).
 * @throws VerifierNetworkError when the indexer cannot be reached or answers neither 200 nor 404
 */
export async function verifyIndexer(
  view: PackView,
  derived: OfflineDerived,
  chain: ChainObservation | null,
  options: IndexerOptions,
): Promise<Fact> {
  const base = options.indexerUrl.replace(/\/+$/, "");
  const target = `indexer ${base}`;
  const get = async (route: string): Promise<{ status: number; body: Json }> => {
    let res: Response;
    try {
      res = await fetch(`${base}${route}`, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
      });
    } catch (e) {
      throw new VerifierNetworkError(target, `GET ${route}: ${describeError(e)}`, { cause: e });
    }
    if (res.status !== 200 && res.status !== 404)
      throw new VerifierNetworkError(target, `GET ${route}: http ${res.status}`);
    let body: Json;
    try {
      body = (await res.json()) as Json;
    } catch (e) {
      throw new VerifierNetworkError(target, `GET ${route}: the answer is not JSON (${describeError(e)})`);
    }
    return { status: res.status, body };
  };

  const b = view.benchmark;
  const rd = view.rank_derivation;
  const problems: string[] = [];
  const cmp = (
    route: string,
    field: string,
    got: string | null,
    want: string | null,
    wantWhat = "the pack says",
  ): void => {
    if (got !== want)
      problems.push(`GET ${route}: ${field} is ${got ?? "null"}, ${wantWhat} ${want ?? "null"}`);
  };

  // ---- the bounty and its award
  const bountyRoute = `/bounties/${b.bounty_id}`;
  const br = await get(bountyRoute);
  if (br.status === 404)
    return fact("failed", `GET ${bountyRoute}: 404, the indexer has no bounty ${b.bounty_id}`);
  const bounty = obj(obj(br.body).bounty);
  const sum = view.winners.reduce((t, w) => t + w.amount_base_units, 0n);
  cmp(bountyRoute, "bounty.status", s(bounty.status), "awarded");
  cmp(bountyRoute, "bounty.testSetRoot", s(bounty.testSetRoot), b.commit_root.toLowerCase());
  cmp(bountyRoute, "bounty.leafCount", s(bounty.leafCount), String(b.leaf_count));
  cmp(bountyRoute, "bounty.pool", s(bounty.pool), String(b.pool_base_units));
  cmp(bountyRoute, "bounty.token", s(bounty.token), b.token.toLowerCase());
  cmp(bountyRoute, "bounty.author", s(bounty.author), b.author.toLowerCase());
  cmp(bountyRoute, "bounty.awarder", s(bounty.awarder), b.awarder.toLowerCase());
  cmp(bountyRoute, "bounty.closesAt", s(bounty.closesAt), String(b.closes_at));
  cmp(bountyRoute, "bounty.thresholdBps", s(bounty.thresholdBps), String(rd.threshold_bps));
  cmp(bountyRoute, "bounty.splitsBps", s(bounty.splitsBps), JSON.stringify(rd.splits_bps));
  cmp(bountyRoute, "bounty.rankingDigest", s(bounty.rankingDigest), b.ranking_digest.toLowerCase());
  cmp(bountyRoute, "bounty.awardedTx", s(bounty.awardedTx), b.award_tx.toLowerCase());
  cmp(bountyRoute, "bounty.awardedBlock", s(bounty.awardedBlock), String(b.award_block));
  cmp(bountyRoute, "bounty.winnerCount", s(bounty.winnerCount), String(view.winners.length));
  cmp(bountyRoute, "bounty.paidToWinners", s(bounty.paidToWinners), String(sum));
  cmp(bountyRoute, "bounty.authorRemainder", s(bounty.authorRemainder), String(b.pool_base_units - sum));
  if (derived.rankingDigest !== null)
    cmp(
      bountyRoute,
      "bounty.rankingDigest",
      s(bounty.rankingDigest),
      derived.rankingDigest,
      "rank_derivation hashes to",
    );
  const winnersOf = arr(obj(br.body).winners).map(obj);
  if (winnersOf.length !== view.winners.length)
    problems.push(`GET ${bountyRoute}: ${winnersOf.length} winners, the pack has ${view.winners.length}`);
  view.winners.forEach((w, i) => {
    const iw = winnersOf[i];
    if (iw === undefined) return;
    cmp(bountyRoute, `winners[${i}].place`, s(iw.place), String(i + 1));
    cmp(bountyRoute, `winners[${i}].account`, s(iw.account), w.withdrawal_address.toLowerCase());
    cmp(bountyRoute, `winners[${i}].amount`, s(iw.amount), String(w.amount_base_units));
  });
  if (chain?.awarded) {
    const a = chain.awarded;
    cmp(
      bountyRoute,
      "bounty.rankingDigest",
      s(bounty.rankingDigest),
      a.rankingDigest,
      "the Awarded log says",
    );
    cmp(
      bountyRoute,
      "bounty.authorRemainder",
      s(bounty.authorRemainder),
      String(a.authorRemainder),
      "the Awarded log says",
    );
    cmp(bountyRoute, "bounty.awardedBlock", s(bounty.awardedBlock), String(a.blockNumber), "the chain says");
    a.winners.forEach((acct, i) => {
      const iw = winnersOf[i];
      cmp(
        bountyRoute,
        `winners[${i}].account`,
        iw === undefined ? null : s(iw.account),
        acct,
        "the Awarded log says",
      );
      cmp(
        bountyRoute,
        `winners[${i}].amount`,
        iw === undefined ? null : s(iw.amount),
        String(a.amounts[i]),
        "the Awarded log says",
      );
    });
  }

  // ---- award history and credits per winner address
  const perAccount = new Map<string, bigint>();
  for (const w of view.winners)
    perAccount.set(
      w.withdrawal_address.toLowerCase(),
      (perAccount.get(w.withdrawal_address.toLowerCase()) ?? 0n) + w.amount_base_units,
    );
  for (const [account, amount] of perAccount) {
    const awardsRoute = `/awards?winner=${account}&limit=100`;
    const ar = await get(awardsRoute);
    const items = arr(obj(ar.body).items).map(obj);
    if (!items.some((it) => s(it.bountyId) === b.bounty_id))
      problems.push(`GET ${awardsRoute}: bounty ${b.bounty_id} is not in ${account}'s award history`);
    const creditsRoute = `/accounts/${account}/credits?limit=100`;
    const cr = await get(creditsRoute);
    const credit = arr(obj(cr.body).credits)
      .map(obj)
      .find((c) => s(c.bountyId) === b.bounty_id);
    if (credit === undefined) problems.push(`GET ${creditsRoute}: no credit on bounty ${b.bounty_id}`);
    else cmp(creditsRoute, `credits[bounty ${b.bounty_id}].fromPlaces`, s(credit.fromPlaces), String(amount));
  }

  // ---- anchors
  const anchorChecks: {
    digest: string;
    kind: string;
    block?: number;
    tx?: string;
    atOrBefore?: number;
    optional?: boolean;
  }[] = [];
  if (b.commitment_anchor !== null)
    anchorChecks.push({
      digest: b.commit_root.toLowerCase(),
      kind: "commitment",
      block: b.commitment_anchor.anchor_block,
      tx: b.commitment_anchor.tx_hash.toLowerCase(),
    });
  for (const h of derived.receiptHashes)
    anchorChecks.push({ digest: h, kind: "receipt", atOrBefore: b.award_block });
  if (derived.packHash !== null)
    anchorChecks.push(
      view.pack_anchor === null
        ? { digest: derived.packHash, kind: "pack", optional: true }
        : {
            digest: derived.packHash,
            kind: "pack",
            block: view.pack_anchor.anchor_block,
            tx: view.pack_anchor.tx_hash.toLowerCase(),
          },
    );
  let done = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const c = anchorChecks[next++];
      if (c === undefined) return;
      const route = `/anchors/${c.digest}`;
      const r = await get(route);
      done++;
      options.onProgress?.({ phase: "indexer", done, total: anchorChecks.length });
      if (r.status === 404) {
        if (!c.optional) problems.push(`GET ${route}: 404, the indexer has no ${c.kind} anchor`);
        continue;
      }
      const a = obj(r.body);
      cmp(route, "kindName", s(a.kindName), c.kind);
      if (c.block !== undefined) cmp(route, "blockNumber", s(a.blockNumber), String(c.block));
      if (c.tx !== undefined) cmp(route, "txHash", s(a.txHash), c.tx);
      if (c.atOrBefore !== undefined && !(Number(s(a.blockNumber)) <= c.atOrBefore))
        problems.push(
          `GET ${route}: blockNumber ${s(a.blockNumber)} is after the award block ${c.atOrBefore}`,
        );
      const onChain = chain?.anchors.get(c.digest);
      if (onChain !== undefined && onChain.blockNumber !== 0n) {
        cmp(route, "blockNumber", s(a.blockNumber), String(onChain.blockNumber), "anchorOf says");
        cmp(route, "kind", s(a.kind), onChain.kind, "anchorOf says");
        cmp(route, "anchorer", s(a.anchorer), onChain.anchorer, "anchorOf says");
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));

  return factFrom(
    [...new Set(problems)],
    `the indexer agrees on bounty ${b.bounty_id}, its award (${view.winners.length} winners), credits and ${anchorChecks.length} anchors` +
      (chain ? " (pack and chain)" : " (pack only: no --rpc)"),
  );
}

/** `indexer_agreement` when no indexer was given. */
export function indexerNotObserved(): Fact {
  return fact("not-observed", "no --indexer: the indexer was not read");
}

export { sameHex };
