/**
 * `GET /awards?winner=` and `GET /accounts/:address/credits`, per winner
 * address: the bounty is in the account's award history, with every field of the
 * award and its winners (places, accounts, amounts) as the pack says (probe15 B-F13:
 * only its presence was checked), and its credit from places equals the sum of the
 * pack's amounts to that address.
 * @packageDocumentation
 */
import { awardAgreement } from "./bounty.js";
import { arr, obj, s, type Disagreements, type IndexerWalk } from "./context.js";

/** Award history and credits per winner address. */
export async function creditAgreement(walk: IndexerWalk, found: Disagreements): Promise<void> {
  const id = walk.view.benchmark.bounty_id;
  const perAccount = new Map<string, bigint>();
  for (const w of walk.view.winners) {
    const account = w.withdrawal_address.toLowerCase();
    perAccount.set(account, (perAccount.get(account) ?? 0n) + w.amount_base_units);
  }
  for (const [account, amount] of perAccount) {
    const awardsRoute = `/awards?winner=${account}&limit=100`;
    const ar = await walk.get(awardsRoute);
    const items = arr(obj(ar.body).items).map(obj);
    const k = items.findIndex((it) => s(it.bountyId) === id);
    if (k === -1) found.push(`GET ${awardsRoute}: bounty ${id} is not in ${account}'s award history`);
    else {
      const item = items[k]!;
      const at = `items[${k}]`;
      const winners = arr(item.winners).map(obj);
      awardAgreement(
        walk,
        { route: awardsRoute, at, award: item, winners, winnersAt: `${at}.winners` },
        found,
      );
    }
    const creditsRoute = `/accounts/${account}/credits?limit=100`;
    const cr = await walk.get(creditsRoute);
    const credit = arr(obj(cr.body).credits)
      .map(obj)
      .find((c) => s(c.bountyId) === id);
    if (credit === undefined) found.push(`GET ${creditsRoute}: no credit on bounty ${id}`);
    else found.cmp(creditsRoute, `credits[bounty ${id}].fromPlaces`, s(credit.fromPlaces), String(amount));
  }
}
