/**
 * The indexer's claims against the chain (`--rpc`, probe29 C-F2 variants): what a winner record
 * (`outstanding`, `claimedAmount`) or a credit record (`outstanding`, `claimed`) says is still owed, against
 * `creditOf(bounty_id, account)` read at the chain's latest block L (one `eth_call` per account the pack
 * credits, {@link ChainObservation.readCredits}).
 *
 * Claims after the award are legitimate, so the comparison minds the indexer's head: a credit is set by the
 * award and zeroed by its one claim (BenchmarkBounty `_credit`, `_claim`), so creditOf only falls, from the
 * credit to 0, once. Let X be the indexer's outstanding, read when its head H0 (`GET /status`, read after L
 * and before the answers) was reached, and H1 its head read after the answers:
 * - X equal to creditOf at L: agreement;
 * - creditOf 0 at L (claimed by L), X the whole credit (not claimed): a disagreement when H0 >= L (the
 *   indexer had read block L), else `unverified` (the claim may be after its head);
 * - creditOf above 0 at L (not claimed by L), X 0 (claimed): a disagreement when H1 <= L (the indexer had
 *   read nothing after L), else `unverified` (a claim after L the indexer may have read);
 * - any other X: a disagreement (a credit is whole or claimed, never in between).
 * An indexer without `/status` has no head: the timing cases are `unverified`.
 * @packageDocumentation
 */
import type { Hex } from "viem";
import type { ChainCredits } from "../onchain/index.js";
import type { ClaimedLog } from "../onchain/context.js";
import { s, shownField, type Disagreements, type IndexerWalk, type Json } from "./context.js";

/** The claims' state of one cross-check: the chain's credits, the indexer's first head, the decisions that wait for its later head. */
export interface ClaimCheck {
  /** creditOf at the chain's latest block, or null without `--rpc` (or without the chain's Awarded log). */
  readonly credits: ChainCredits | null;
  /** The indexer's head read before its answers, or null when it cannot say it. */
  readonly head: number | null;
  /** Decisions that need the indexer's head after its answers (`laterHead`, null when unknown). */
  readonly deferred: ((laterHead: number | null) => void)[];
  /** The winner records' claim transactions whose receipts are read after the answers ({@link claimTxReceipts}). */
  readonly claimTxs: ClaimTx[];
}

/** A winner record's `claimTx`: a 32-byte hash (lowercase) the record says paid `account`'s credit. */
export interface ClaimTx {
  route: string;
  at: string;
  account: string;
  tx: Hex;
}

/** What a record states of a claim: the names of its outstanding and claimed fields, and its amount. */
export interface ClaimRecord {
  /** The record's route and how it is named there (`winners[0]`, `credits[bounty 7]`). */
  route: string;
  at: string;
  item: Record<string, Json>;
  /** The account (lowercase) whose credit the record states. */
  account: string;
  /** The record's amount as the pack implies it (a place's amount, or the account's whole credit), base units. */
  amount: bigint;
  /** The field of the part already claimed (`claimedAmount` of a winner record, `claimed` of a credit record). */
  claimedField: string;
  /** True when the record is the account's whole credit (its outstanding is creditOf itself). */
  whole: boolean;
}

/**
 * Compare a record's `outstanding` (and its claimed part) with creditOf as described in the module doc; a
 * record that states no `outstanding` is not compared.
 */
export function claimAgreement(walk: IndexerWalk, r: ClaimRecord, found: Disagreements): void {
  const credits = walk.claims.credits;
  const onChain = credits?.of.get(r.account);
  if (credits === null || onChain === undefined || r.item.outstanding === undefined) return;
  const id = walk.view.benchmark.bounty_id;
  const L = credits.block;
  const says = `creditOf(${id}, ${r.account}) at block ${L} says`;
  const claimedOnChain = onChain === 0n;
  // what the record's outstanding is when creditOf holds `onChain`, and when it is at its other value
  const now = claimedOnChain ? 0n : r.whole ? onChain : r.amount;
  const other = claimedOnChain ? r.amount : 0n;
  const got = s(r.item.outstanding);
  const stated = (outstanding: bigint): void => {
    found.cmp(r.route, `${r.at}.outstanding`, got, String(outstanding), says);
    if (r.item[r.claimedField] !== undefined)
      found.cmp(
        r.route,
        `${r.at}.${r.claimedField}`,
        s(r.item[r.claimedField]),
        String(r.amount - outstanding),
        says,
      );
  };
  if (got !== String(other) || got === String(now)) return stated(now);
  const unknown = (head: number | null, why: string): void =>
    found.unobservable(
      `GET ${r.route}: ${r.at}.outstanding is ${got}, creditOf(${id}, ${r.account}) is ${onChain} at block ${L} and the indexer has ${head === null ? "no head (GET /status)" : `indexed up to block ${head}`}: ${why}`,
    );
  if (claimedOnChain) {
    // claimed by L: the indexer must show it once it has read block L
    const head = walk.claims.head;
    if (head !== null && BigInt(head) >= L) stated(now);
    else unknown(head, "a claim after its head is not a disagreement");
    return;
  }
  // not claimed by L, claimed at the indexer: a disagreement only if it had read nothing after L
  walk.claims.deferred.push((laterHead) => {
    if (laterHead !== null && BigInt(laterHead) <= L) stated(now);
    else unknown(laterHead, "a claim after block " + L + " is not a disagreement");
  });
}

/** A transaction hash: 0x and 64 hex digits. */
const TX_HASH = /^0x[0-9a-f]{64}$/i;

/**
 * A winner record's `claimTx` (`GET /bounties/:id` winners, `GET /awards` items' winners), when stated: null
 * (not claimed) or a transaction hash, whose receipt is read later when the chain is read
 * ({@link claimTxReceipts}). Anything else is a disagreement (probe35 B-F8: "abc" was verified).
 */
export function claimTxAgreement(
  walk: IndexerWalk,
  r: { route: string; at: string; item: Record<string, Json>; account: string },
  found: Disagreements,
): void {
  const v = r.item.claimTx;
  if (v === undefined || v === null) return;
  if (typeof v !== "string" || !TX_HASH.test(v))
    return found.push(
      `GET ${r.route}: ${r.at}.claimTx is ${shownField(v)}, not null or a transaction hash (0x and 64 hex digits)`,
    );
  if (walk.chain?.readClaims !== undefined)
    walk.claims.claimTxs.push({ route: r.route, at: r.at, account: r.account, tx: v.toLowerCase() as Hex });
}

/**
 * Every stated `claimTx` against the chain: its receipt (one `eth_getTransactionReceipt` per distinct
 * transaction) must hold a `Claimed` log of the bounty for the record's account; a receipt without such a
 * log is a disagreement naming the record and the transaction, and so is one the RPC has not mined
 * ({@link notMinedAtTheRpc}) unless the indexer has read past the RPC's block.
 * @throws VerifierNetworkError the RPC cannot be read
 */
export async function claimTxReceipts(walk: IndexerWalk, found: Disagreements): Promise<void> {
  const read = walk.chain?.readClaims;
  if (read === undefined) return;
  const id = walk.view.benchmark.bounty_id;
  const logs = new Map<string, ClaimedLog[] | null>();
  for (const c of walk.claims.claimTxs) {
    if (!logs.has(c.tx)) logs.set(c.tx, await read(c.tx));
    const claims = logs.get(c.tx)!;
    if (claims === null) notMinedAtTheRpc(walk, c, found);
    else if (!claims.some((l) => l.account === c.account))
      found.push(
        `GET ${c.route}: ${c.at}.claimTx is ${c.tx}, its receipt holds no Claimed log of bounty ${id} for ${c.account}`,
      );
  }
}

/**
 * A `claimTx` the RPC has no receipt of: a disagreement once the indexer's head after its answers is at or
 * below L, the RPC's block when the credits were read (or L is unknown: no credits read); above it the
 * RPC may lag the indexer, and the claim after block L is `unverified`, as claims after L are in
 * {@link claimAgreement} (probe35 g35's note: such a claim failed the fact). Decided with the later head.
 */
function notMinedAtTheRpc(walk: IndexerWalk, c: ClaimTx, found: Disagreements): void {
  const L = walk.claims.credits?.block;
  walk.claims.deferred.push((laterHead) => {
    if (L !== undefined && laterHead !== null && BigInt(laterHead) > L)
      found.unobservable(
        `GET ${c.route}: ${c.at}.claimTx is ${c.tx}, not mined at the RPC (block ${L} when read), and the indexer has indexed up to block ${laterHead}: a claim after block ${L} is not a disagreement`,
      );
    else found.push(`GET ${c.route}: ${c.at}.claimTx is ${c.tx}, the chain has no such mined transaction`);
  });
}
