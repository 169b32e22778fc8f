/**
 * Indexer cross-check (`--indexer URL`): the indexer's REST answers
 * (`indexer/src/api/index.ts`) must agree, field by field, with the pack and,
 * when the chain was read, with the chain. Every disagreement is one reason
 * naming the indexer route and field (`GET /bounties/3: bounty.rankingDigest is ..., the pack says ...`).
 *
 * One module per route family, each a step of {@link INDEXER_STEPS}:
 * - `bounty.ts`: `GET /bounties/:id` (the bounty, its award and winners);
 * - `credits.ts`: `GET /awards?winner=&bounty=` and `GET /accounts/:address/credits?bounty=` per winner
 *   address (keyed reads: their cost does not grow with the winner's history, probe27 C-F8);
 * - `anchors.ts`: `GET /anchors/:digest` (commitment, every receipt, the pack);
 * - `head.ts`: `GET /status`, read first: an indexer whose head is below the award (or the pack's anchor)
 *   has not read it, and its disagreements make the fact `unverified`, not `failed` (probe29 C-F7).
 *
 * Every answer is read within {@link DEFAULT_MAX_INDEXER_ANSWER_BYTES} (streamed). Every read is keyed (a
 * bounty id, a digest): none pages through a list an outsider can grow (a winner's history, credits).
 *
 * @packageDocumentation
 */
import { capReasons, fact, factFrom, type Fact } from "../facts.js";
import type { OfflineDerived } from "../offline/index.js";
import type { ChainCredits, ChainObservation } from "../onchain/index.js";
import { ContractAnswerError, addr } from "../onchain/context.js";
import type { PackView } from "../pack.js";
import type { ProgressCallback } from "../progress.js";
import { anchorAgreement, expectedAnchors } from "./anchors.js";
import { bountyAgreement } from "./bounty.js";
import {
  AN_ADDRESS,
  Disagreements,
  indexerGetter,
  indexerTarget,
  notTheIndexer,
  type IndexerStep,
  type IndexerWalk,
} from "./context.js";
import { creditAgreement } from "./credits.js";
import { behindThePack, readIndexerHead } from "./head.js";
import { claimTxReceipts, type ClaimCheck } from "./claims.js";
import { packCredits } from "./credit-records.js";

/** Largest indexer answer read (bytes, streamed; a page of at most 100 items is far smaller). */
export const DEFAULT_MAX_INDEXER_ANSWER_BYTES = 16 * 1024 * 1024;

/** Options of {@link verifyIndexer}. */
export interface IndexerOptions {
  indexerUrl: string;
  /** Per-request timeout, milliseconds (default 20 000). */
  timeoutMs?: number;
  onProgress?: ProgressCallback;
  /** Largest answer, bytes (default {@link DEFAULT_MAX_INDEXER_ANSWER_BYTES}). */
  maxAnswerBytes?: number;
  /** Aborts every request (the verification's total deadline). */
  signal?: AbortSignal;
}

/** The steps of the cross-check, in order. */
export const INDEXER_STEPS: readonly IndexerStep[] = [bountyAgreement, creditAgreement, anchorAgreement];

/**
 * Cross-check the indexer against the pack (and the chain when observed).
 * @returns `indexer_agreement`: `failed` with one reason per disagreement (and any part not observed),
 *   `unverified` when its head (`GET /status`) is below the award or the pack's anchor and something
 *   disagrees (the first reason names the head and the block), `unverified` when nothing disagrees but a part could not be observed (an indexer that refuses a keyed
 *   read's `bounty` parameter), else `verified`; `failed` whatever the head when a value of the pack keys no
 *   read (a winner's `withdrawal_address` or the author that is not an address, a `commit_root` or
 *   `receipt_hash` that is not a bytes32: {@link Disagreements.unkeyed}, probe36 B-F3), the first reasons
 *   naming their JSON paths
 * @throws VerifierNetworkError when the indexer cannot be reached, answers neither 200 nor 404, or answers more than the limit,
 *   or (with the chain) the RPC cannot be read for a winner record's `claimTx` receipt
 * @throws VerifierInputError `indexer_refused` when the URL is not the indexer's API or the indexer refuses a query
 */
export async function verifyIndexer(
  view: PackView,
  derived: OfflineDerived,
  chain: ChainObservation | null,
  options: IndexerOptions,
): Promise<Fact> {
  const base = options.indexerUrl;
  const claims: {
    credits: ChainCredits | null;
    head: number | null;
    deferred: ClaimCheck["deferred"];
    claimTxs: ClaimCheck["claimTxs"];
  } = { credits: null, head: null, deferred: [], claimTxs: [] };
  const walk: IndexerWalk = {
    view,
    derived,
    chain,
    onProgress: options.onProgress,
    target: indexerTarget(base),
    get: indexerGetter(
      base,
      options.timeoutMs ?? 20_000,
      options.maxAnswerBytes ?? DEFAULT_MAX_INDEXER_ANSWER_BYTES,
      options.signal,
    ),
    notTheIndexer: (route, why) => notTheIndexer(base, route, why),
    claims,
  };
  const found = new Disagreements();
  // the chain's credits at its latest block, then the indexer's head (claims.ts: that order, then the answers)
  if (chain?.readCredits !== undefined && chain.awarded !== null)
    try {
      claims.credits = await readChainCredits(walk, chain.readCredits, found);
    } catch (e) {
      if (!(e instanceof ContractAnswerError)) throw e;
      found.unobservable(`${e.call} ${e.answer}: the indexer's claims were not compared with the chain`);
    }
  // the indexer's head, read before its answers (they are at that block or later): below the award, its
  // disagreements are what it has not read yet (probe29 C-F7)
  const head = (claims.head = await readIndexerHead(walk));
  for (const step of INDEXER_STEPS) {
    const decided = await step(walk, found);
    if (decided !== undefined)
      return decided.state === "failed" ? (behindThePack(walk, head, decided.reasons) ?? decided) : decided;
  }
  // the claim transactions the winner records name, against their receipts (probe35 B-F8)
  await claimTxReceipts(walk, found);
  // the claims that wait for the indexer's head after its answers
  if (claims.deferred.length > 0) {
    const laterHead = await readIndexerHead(walk);
    for (const decide of claims.deferred) decide(laterHead);
  }
  const against = chain ? " (pack and chain)" : " (pack only: no --rpc)";
  const disagreements = [...new Set(found.reasons)];
  const unobserved = [...new Set(found.unobserved)];
  const unkeyed = [...new Set(found.unkeyedValues)];
  const behind =
    disagreements.length > 0 ? behindThePack(walk, head, [...disagreements, ...unobserved]) : null;
  // a value of the pack that keyed no read fails the fact whatever the indexer's head (probe36 B-F3)
  if (unkeyed.length > 0)
    return factFrom([...unkeyed, ...(behind?.reasons ?? [...disagreements, ...unobserved])], "");
  if (behind !== null) return behind;
  // a disagreement fails the fact; the parts not observed are listed after the disagreements
  if (disagreements.length > 0) return factFrom([...disagreements, ...unobserved], "");
  if (unobserved.length > 0)
    return fact(
      "unverified",
      ...capReasons(unobserved),
      `the rest agrees: the bounty, its award and ${expectedAnchors(walk).length} anchors${against}`,
    );
  return factFrom(
    [],
    `the indexer agrees on bounty ${view.benchmark.bounty_id}, its award (${view.winners.length} winners), credits and ${expectedAnchors(walk).length} anchors` +
      against,
  );
}

/** `indexer_agreement` when no indexer was given. */
export function indexerNotObserved(): Fact {
  return fact("not-observed", "no --indexer: the indexer was not read");
}

/**
 * creditOf of every account the pack credits (winner accounts, the author's remainder), one read per account
 * that is an address: one that is not is never put into the call (probe36 B-F3: `creditOf(1, 0x)` was exit 3,
 * "cannot read rpc"). A winner's is recorded by the credit step (credits.ts), the author's here.
 */
async function readChainCredits(
  walk: IndexerWalk,
  read: NonNullable<ChainObservation["readCredits"]>,
  found: Disagreements,
): Promise<ChainCredits> {
  const accounts: string[] = [];
  for (const [account, credit] of packCredits(walk.view))
    if (addr(account) !== null) accounts.push(account);
    else if (credit.places.length === 0)
      found.unkeyed(
        "$.benchmark.author",
        walk.view.benchmark.author,
        AN_ADDRESS,
        `creditOf(${walk.view.benchmark.bounty_id}, author)`,
      );
  return read(accounts);
}
