/**
 * `GET /awards?winner=&bounty=` and `GET /accounts/:address/credits?bounty=`, per winner address: the
 * bounty is in the account's award history, with every field of the award and its winners (places,
 * accounts, amounts) as the pack says (probe15 B-F13: only its presence was checked), and its credit
 * record as the pack implies it: its account and token, places held, credit from places (the sum of the
 * pack's amounts to that address), from the author's remainder (the author only) and credited in all
 * (probe28 B-F13, probe29 C-F2).
 *
 * Both are **keyed reads**: the bounty is named (`bounty=<id>`), so the indexer answers at most that
 * bounty's item, whatever the length of the account's history. Anyone can award any address (SPEC 1.1:
 * a bounty of one base unit of any token), so a history is a list a stranger can grow: the pages of
 * `?winner=` were followed until the bounty (probe16 B-F6), within 100 pages, and ~10,000 dust awards to a
 * winner made every `--policy full` verification of its earlier packs exit 3 with no fact printed
 * (probe27 C-F8). An indexer that refuses the `bounty` parameter (one older than this verifier: 400
 * `invalid_parameter` naming `bounty`) leaves that part unobserved ({@link Disagreements.unobservable}:
 * `indexer_agreement` is then `unverified`, every other fact printed); any other refusal is the
 * configuration error it always was (exit 2, `indexer_refused`). A winner address of the pack that is not an
 * address keys neither read (probe36 B-F3: `/awards?winner=0x` blamed the `--indexer` URL): the fact fails
 * naming its JSON path ({@link Disagreements.unkeyed}).
 * @packageDocumentation
 */
import { shownValue } from "../text.js";
import { awardAgreement } from "./bounty.js";
import { creditRecordFields, packCredits } from "./credit-records.js";
import { addr } from "../onchain/context.js";
import {
  AN_ADDRESS,
  IndexerRefusedError,
  arr,
  obj,
  packValueRefused,
  s,
  type Disagreements,
  type IndexerWalk,
  type Json,
} from "./context.js";

/** The item of a keyed answer: the route, the item and its index in the answer's list. */
interface FoundItem {
  route: string;
  item: Record<string, Json>;
  index: number;
}

/**
 * GET `route`, a keyed read of bounty `id` (`bounty=<id>` in its query), and find its item in the
 * answer's `key` array. Items of other bounties in the answer are a disagreement (the read asked for one),
 * and so are several items of bounty `id` (one award per bounty, one credit record per account and bounty).
 * @param what what the read checks, for the reason of an indexer that refuses the parameter
 * @param packValue the route's path parameter taken from the pack and where the pack states it: the
 *   indexer's 400 naming it is recorded as unobservable naming that JSON path (probe29 C-F3), not an
 *   `--indexer` configuration error
 * @returns the item; null when the answer has none of bounty `id`; undefined when the indexer refuses the
 *   `bounty` parameter (recorded as unobservable)
 * @throws IndexerRefusedError another refusal (a parameter other than `bounty`, another status)
 * @throws VerifierNetworkError the indexer cannot be read
 */
async function keyedItem(
  walk: IndexerWalk,
  route: string,
  key: string,
  id: string,
  found: Disagreements,
  what: string,
  packValue?: { parameter: string; path: string },
): Promise<FoundItem | null | undefined> {
  let answer;
  try {
    answer = await walk.get(route);
  } catch (e) {
    const refused = packValue && packValueRefused(e, route, packValue.parameter, packValue.path);
    if (refused) {
      found.unobservable(refused);
      return undefined;
    }
    if (e instanceof IndexerRefusedError && e.status === 400 && e.parameter === "bounty") {
      found.unobservable(
        `GET ${route}: the indexer refuses the parameter bounty (http 400: an indexer older than this ` +
          `verifier, without the keyed read): ${what} could not be checked`,
      );
      return undefined;
    }
    throw e;
  }
  const items = arr(obj(answer.body)[key]).map(obj);
  const others = items.filter((it) => s(it.bountyId) !== id);
  if (others.length > 0)
    found.push(
      `GET ${route}: ${others.length} of its ${key} are of another bounty (${shownValue(String(s(others[0]!.bountyId)), 80)}), asked for bounty ${id} only`,
    );
  const index = items.findIndex((it) => s(it.bountyId) === id);
  // one item of the bounty: it is awarded once, and an account's credit in it is one record (probe28
  // C-F13: a second, contradicting record after the first was never looked at, and the fact was verified)
  const ofBounty = items.length - others.length;
  if (ofBounty > 1)
    found.push(
      `GET ${route}: ${ofBounty} of its ${key} are of bounty ${id}, one was expected (a bounty is awarded once)`,
    );
  return index === -1 ? null : { route, item: items[index]!, index };
}

/**
 * Award history and credits per winner address, each read by the bounty's key (two GETs per distinct
 * winner address, whatever its history).
 */
export async function creditAgreement(walk: IndexerWalk, found: Disagreements): Promise<void> {
  const id = walk.view.benchmark.bounty_id;
  for (const [account, want] of packCredits(walk.view)) {
    if (want.places.length === 0) continue; // the author's remainder alone: not a winner address
    // where the pack names the address: its first place's withdrawal address
    const path = `$.winners[${want.places[0]! - 1}].withdrawal_address`;
    // an address that is not one keys no read: neither route is asked, the fact fails naming it (probe36 B-F3)
    if (addr(account) === null) {
      found.unkeyed(
        path,
        walk.view.winners[want.places[0]! - 1]!.withdrawal_address,
        AN_ADDRESS,
        "GET /awards?winner=&bounty= and GET /accounts/:address/credits?bounty=",
      );
      continue;
    }
    const awardsRoute = `/awards?winner=${account}&bounty=${id}`;
    const history = `${account}'s award history`;
    const award = await keyedItem(walk, awardsRoute, "items", id, found, history);
    if (award === null) found.push(`GET ${awardsRoute}: bounty ${id} is not in ${history}`);
    else if (award !== undefined) {
      const at = `items[${award.index}]`;
      const winners = arr(award.item.winners).map(obj);
      awardAgreement(
        walk,
        { route: award.route, at, award: award.item, winners, winnersAt: `${at}.winners` },
        found,
      );
    }
    const creditsRoute = `/accounts/${account}/credits?bounty=${id}`;
    const credit = await keyedItem(walk, creditsRoute, "credits", id, found, `${account}'s credits`, {
      parameter: "address",
      path,
    });
    if (credit === null) found.push(`GET ${creditsRoute}: no credit on bounty ${id}`);
    else if (credit !== undefined)
      creditRecordFields(walk, credit.route, `credits[bounty ${id}]`, credit.item, account, want, found);
  }
}
