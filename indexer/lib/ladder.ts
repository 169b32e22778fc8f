/**
 * Pure bookkeeping rules of the indexer (SPEC 1.1), kept apart from Ponder so
 * they can be tested on their own. Each check returns `null` when the event
 * may be applied, or the reason it cannot (an impossible transition).
 */

import { BountyStatus } from "@bench-bounty/contracts";

/** Bounty statuses as the events derive them (SPEC 1.1), named as `BountyStatus` of
 * `@bench-bounty/contracts`; `None` there is "no row yet" (`null`) here. */
export type BountyStatusName = Exclude<keyof typeof BountyStatus, "None">;

const name = (s: BountyStatus) => BountyStatus[s] as BountyStatusName;

/** Event names of BenchmarkBounty that move the status ladder. */
export type LadderEvent = "BountyCreated" | "BountyFunded" | "Awarded" | "Reclaimed";

/**
 * Status a ladder event moves a bounty to, and the statuses it may start from
 * (`null` = the bounty must not exist yet). Terminal states (`Awarded`,
 * `Reclaimed`) have no way out; the ladder never skips a step.
 */
export const LADDER: Readonly<
  Record<LadderEvent, { from: readonly (BountyStatusName | null)[]; to: BountyStatusName }>
> = {
  BountyCreated: { from: [null], to: name(BountyStatus.Pending) },
  BountyFunded: { from: [name(BountyStatus.Pending)], to: name(BountyStatus.Funded) },
  Awarded: { from: [name(BountyStatus.Funded)], to: name(BountyStatus.Awarded) },
  Reclaimed: {
    from: [name(BountyStatus.Pending), name(BountyStatus.Funded)],
    to: name(BountyStatus.Reclaimed),
  },
};

/**
 * Checks one step of the ladder.
 * @param event - the BenchmarkBounty event.
 * @param current - the bounty's indexed status, or `null` when no row exists.
 * @returns `null` when allowed, else a sentence naming the impossible transition.
 */
export function checkTransition(event: LadderEvent, current: BountyStatusName | null): string | null {
  const rule = LADDER[event];
  if (rule.from.includes(current)) return null;
  const where = current === null ? "an unknown bounty" : `a bounty in status ${current}`;
  return `${event} on ${where} (allowed from: ${rule.from.map((s) => s ?? "no bounty").join(", ")})`;
}

/** One winner's credit as the contract computes it for an award. */
export interface AwardCredit {
  account: `0x${string}`;
  /** Sum of the account's places (base units). */
  fromPlaces: bigint;
  /** Author remainder (base units), non-zero only for the author. */
  fromRemainder: bigint;
  /** 1-based places of the account, ascending. */
  places: number[];
}

/**
 * Checks an `Awarded` log against the indexed bounty and folds its places into
 * per-account credits (SPEC 1.1 `award`, 7.3).
 * @param p.pool - the bounty's pool (base units).
 * @param p.splitsCount - `splitsBps.length` of the bounty.
 * @param p.testSetRoot - the bounty's root, lowercase hex.
 * @returns `{ credits }` in first-place order (the author's remainder merged
 *   into the author's entry or appended), or `{ error }` naming what does not add up.
 */
export function foldAward(p: {
  author: `0x${string}`;
  pool: bigint;
  splitsCount: number;
  testSetRoot: string;
  loggedRoot: string;
  winners: readonly `0x${string}`[];
  amounts: readonly bigint[];
  authorRemainder: bigint;
}): { credits: AwardCredit[]; paidToWinners: bigint } | { error: string } {
  if (p.loggedRoot.toLowerCase() !== p.testSetRoot.toLowerCase()) {
    return { error: `Awarded testSetRoot ${p.loggedRoot} differs from the bounty's root ${p.testSetRoot}` };
  }
  if (p.winners.length !== p.amounts.length) {
    return { error: `Awarded has ${p.winners.length} winners but ${p.amounts.length} amounts` };
  }
  if (p.winners.length > p.splitsCount) {
    return { error: `Awarded has ${p.winners.length} winners for ${p.splitsCount} places` };
  }
  let paid = 0n;
  const byAccount = new Map<string, AwardCredit>();
  const order: AwardCredit[] = [];
  const entry = (account: `0x${string}`): AwardCredit => {
    const key = account.toLowerCase();
    let c = byAccount.get(key);
    if (c === undefined) {
      c = { account: key as `0x${string}`, fromPlaces: 0n, fromRemainder: 0n, places: [] };
      byAccount.set(key, c);
      order.push(c);
    }
    return c;
  };
  for (let i = 0; i < p.winners.length; i++) {
    const amount = p.amounts[i]!;
    if (amount < 0n) return { error: `Awarded amount ${i} is negative` };
    const c = entry(p.winners[i]!);
    c.fromPlaces += amount;
    c.places.push(i + 1);
    paid += amount;
  }
  if (paid + p.authorRemainder !== p.pool) {
    return {
      error: `Awarded amounts (${paid}) plus author remainder (${p.authorRemainder}) differ from the pool (${p.pool})`,
    };
  }
  if (p.authorRemainder > 0n) entry(p.author).fromRemainder += p.authorRemainder;
  return { credits: order, paidToWinners: paid };
}

/**
 * A claim takes the caller's whole credit on a bounty (SPEC 1.1 `claim`).
 * @returns `null` when `amount` is exactly the outstanding credit, else the reason.
 */
export function checkClaim(p: {
  status: BountyStatusName | null;
  outstanding: bigint | null;
  amount: bigint;
}): string | null {
  if (p.status !== "Awarded") {
    return `Claimed on ${p.status === null ? "an unknown bounty" : `a bounty in status ${p.status}`}`;
  }
  if (p.outstanding === null) return "Claimed by an account with no credit on this bounty";
  if (p.amount === 0n) return "Claimed a zero amount";
  if (p.amount !== p.outstanding) {
    return `Claimed ${p.amount} but the outstanding credit is ${p.outstanding}`;
  }
  return null;
}
