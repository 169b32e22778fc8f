/**
 * `GET /awards?winner=` and `GET /accounts/:address/credits`, per winner
 * address: the bounty is in the account's award history, with every field of the
 * award and its winners (places, accounts, amounts) as the pack says (probe15 B-F13:
 * only its presence was checked), and its credit from places equals the sum of the
 * pack's amounts to that address.
 *
 * Both lists are paged by the indexer (at most 100 items a page, newest first, `nextCursor` null on the
 * last page): the bounty of an older award of a prolific winner is on a later page, so the pages are
 * followed (probe16 B-F6: only the first was read, and an honest indexer failed `indexer_agreement`),
 * within {@link MAX_INDEXER_PAGES} pages and {@link MAX_INDEXER_LIST_BYTES} bytes a list (each answer
 * also within the answer limit). A `nextCursor` that was already followed, or is not a short printable
 * ASCII string, is not the indexer's paging
 * (exit 2, `indexer_refused`); a list that does not end within the bounds before the bounty is an indexer
 * that cannot be read (exit 3), never a disagreement: the bounty may be further on.
 * @packageDocumentation
 */
import { VerifierNetworkError } from "../errors.js";
import { printable } from "../text.js";
import { awardAgreement } from "./bounty.js";
import { arr, obj, s, type Disagreements, type IndexerWalk, type Json } from "./context.js";

/** Most pages of one list (a winner's awards, or credits) read looking for the bounty: 10,000 items of 100. */
export const MAX_INDEXER_PAGES = 100;

/** Most bytes of one list read over its pages (each page is also within the answer limit). */
export const MAX_INDEXER_LIST_BYTES = 64 * 1024 * 1024;

/**
 * The form of a `nextCursor` the verifier follows: printable ASCII, at most 128 characters. The
 * indexer's cursors are decimal ids or `<block>:<logIndex>` (well under it); another string (a lone
 * surrogate `encodeURIComponent` throws on, a cursor of megabytes echoed into every error line: probe19
 * B-F1, B-F2) is not its paging.
 */
const CURSOR_FORM = /^[\x21-\x7e]{1,128}$/;

/** The item of a list found on a page: the page's route, the item and its index there. */
interface FoundItem {
  route: string;
  item: Record<string, Json>;
  index: number;
}

/**
 * Follow the pages of `firstRoute` (its `key` array, `nextCursor`) until an item's `bountyId` is `id`.
 * @returns the item, or null when the list ended without it
 * @throws VerifierInputError `indexer_refused` for a `nextCursor` that is neither a string nor null, not of
 *   {@link CURSOR_FORM}, or repeats
 * @throws VerifierNetworkError when the list does not end (nor show the bounty) within the bounds
 */
async function findInPages(
  walk: IndexerWalk,
  firstRoute: string,
  key: string,
  id: string,
): Promise<FoundItem | null> {
  const followed = new Set<string>();
  let route = firstRoute;
  let bytes = 0;
  for (let pages = 1; ; pages++) {
    const answer = await walk.get(route);
    bytes += answer.bytes;
    const body = obj(answer.body);
    const items = arr(body[key]).map(obj);
    const index = items.findIndex((it) => s(it.bountyId) === id);
    if (index !== -1) return { route, item: items[index]!, index };
    const next = body.nextCursor;
    if (next === null || next === undefined) return null;
    if (typeof next !== "string") throw walk.notTheIndexer(route, "its nextCursor is not a string");
    if (!CURSOR_FORM.test(next))
      throw walk.notTheIndexer(
        route,
        `its nextCursor "${printable(next, 80)}" (length ${next.length}) is not a cursor of the indexer's paging (printable ASCII, 1 to 128 characters)`,
      );
    if (followed.has(next))
      throw walk.notTheIndexer(route, `its nextCursor "${printable(next, 80)}" was already followed`);
    if (pages >= MAX_INDEXER_PAGES || bytes >= MAX_INDEXER_LIST_BYTES)
      throw new VerifierNetworkError(
        walk.target,
        `GET ${firstRoute}: bounty ${id} is not within the first ${pages} pages (${bytes} bytes) of the list, the verifier's bound (${MAX_INDEXER_PAGES} pages, ${MAX_INDEXER_LIST_BYTES} bytes): cannot check it`,
      );
    followed.add(next);
    route = `${firstRoute}&cursor=${encodeURIComponent(next)}`;
  }
}

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
    const award = await findInPages(walk, awardsRoute, "items", id);
    if (award === null) found.push(`GET ${awardsRoute}: bounty ${id} is not in ${account}'s award history`);
    else {
      const at = `items[${award.index}]`;
      const winners = arr(award.item.winners).map(obj);
      awardAgreement(
        walk,
        { route: award.route, at, award: award.item, winners, winnersAt: `${at}.winners` },
        found,
      );
    }
    const creditsRoute = `/accounts/${account}/credits?limit=100`;
    const credit = await findInPages(walk, creditsRoute, "credits", id);
    if (credit === null) found.push(`GET ${creditsRoute}: no credit on bounty ${id}`);
    else
      found.cmp(credit.route, `credits[bounty ${id}].fromPlaces`, s(credit.item.fromPlaces), String(amount));
  }
}
