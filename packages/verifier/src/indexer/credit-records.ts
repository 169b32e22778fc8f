/**
 * The credit records an award leaves (SPEC 7.3), as the pack implies them, and the comparison of an
 * indexer's record with one: shared by the bounty's page (`GET /bounties/:id`'s `credits`, bounty.ts) and
 * the keyed credit read of each winner (`GET /accounts/:a/credits?bounty=`, credits.ts).
 * @packageDocumentation
 */
import type { PackView } from "../pack.js";
import { claimAgreement } from "./claims.js";
import { s, type Disagreements, type IndexerWalk, type Json } from "./context.js";

/** One account's credit in the bounty as the pack implies it (SPEC 7.3; base units). */
export interface PackCredit {
  fromPlaces: bigint;
  fromRemainder: bigint;
  /** The places the account holds, 1-based, ascending. */
  places: number[];
}

/**
 * The credit records the pack implies, by lowercase account, in the indexer's order (the winners' accounts
 * by first place, then the author's when the author's remainder is above zero): each winner account's
 * amounts and places, and the author's remainder (pool - paid to winners, SPEC 7.3).
 */
export function packCredits(view: PackView): Map<string, PackCredit> {
  const credits = new Map<string, PackCredit>();
  const entry = (account: string): PackCredit => {
    const held = credits.get(account) ?? { fromPlaces: 0n, fromRemainder: 0n, places: [] };
    credits.set(account, held);
    return held;
  };
  view.winners.forEach((w, i) => {
    const held = entry(w.withdrawal_address.toLowerCase());
    held.fromPlaces += w.amount_base_units;
    held.places.push(i + 1);
  });
  const b = view.benchmark;
  const remainder = b.pool_base_units - view.winners.reduce((t, w) => t + w.amount_base_units, 0n);
  if (remainder > 0n) entry(b.author.toLowerCase()).fromRemainder += remainder;
  return credits;
}

/**
 * Every field of a credit record the pack states, as `at` names it in `route`'s answer (probe28 B-F13:
 * only fromPlaces was compared, and a record naming place 9, another credited amount or a remainder was
 * verified; probe29 C-F2: a record naming 0x...dead, or another token, was verified), and, with `--rpc`,
 * its outstanding and claimed amounts against creditOf ({@link claimAgreement}).
 */
export function creditRecordFields(
  walk: IndexerWalk,
  route: string,
  at: string,
  item: Record<string, Json>,
  account: string,
  want: PackCredit,
  found: Disagreements,
): void {
  const b = walk.view.benchmark;
  const cmp = (name: string, got: Json | undefined, value: string): void =>
    found.cmp(route, `${at}.${name}`, s(got), value);
  cmp("bountyId", item.bountyId, b.bounty_id);
  cmp("account", item.account, account);
  cmp("token", item.token, b.token.toLowerCase());
  cmp("fromPlaces", item.fromPlaces, String(want.fromPlaces));
  cmp("fromRemainder", item.fromRemainder, String(want.fromRemainder));
  cmp("credited", item.credited, String(want.fromPlaces + want.fromRemainder));
  cmp("places", item.places, JSON.stringify(want.places));
  // what it still owes, against creditOf (probe29 C-F2)
  claimAgreement(
    walk,
    {
      route,
      at,
      item,
      account,
      amount: want.fromPlaces + want.fromRemainder,
      claimedField: "claimed",
      whole: true,
    },
    found,
  );
}
