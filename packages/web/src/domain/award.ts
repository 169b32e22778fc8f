/**
 * The award page's table: the pack's winners (place, agent, amount, withdrawal address) joined by
 * place with the indexer's view of the same award (claimed, outstanding, claim transaction).
 * Where the indexer and the pack disagree on an amount or an account, the row says so; nothing is
 * reconciled silently.
 *
 * @packageDocumentation
 */
import type { EvidencePack, IndexedBounty } from "../api/types.js";

/** Claim state of one place. */
export type ClaimState = "claimed" | "unclaimed" | "partly claimed" | "not observed";

/** One place as displayed. */
export interface PlaceView {
  place: number;
  agent: string;
  account: string;
  amountBaseUnits: string;
  claimState: ClaimState;
  claimedBaseUnits: string | null;
  outstandingBaseUnits: string | null;
  claimTx: string | null;
  /** Contradictions between the pack and the indexer for this place. */
  disagreements: string[];
}

/** @param indexed null when no indexer is configured or it does not know the bounty */
export function placeViews(pack: EvidencePack, indexed: IndexedBounty | null): PlaceView[] {
  return pack.winners.map((w) => {
    const iw = indexed?.winners.find((x) => x.place === w.place) ?? null;
    const disagreements: string[] = [];
    if (indexed !== null && iw === null) disagreements.push(`the indexer has no place ${w.place}`);
    if (iw !== null && iw.amount !== w.amount_base_units)
      disagreements.push(`amount: pack ${w.amount_base_units}, indexer ${iw.amount}`);
    if (iw !== null && iw.account.toLowerCase() !== w.withdrawal_address.toLowerCase())
      disagreements.push(`account: pack ${w.withdrawal_address}, indexer ${iw.account}`);
    let claimState: ClaimState = "not observed";
    if (iw !== null) {
      const claimed = BigInt(iw.claimedAmount);
      const outstanding = BigInt(iw.outstanding);
      claimState =
        outstanding === 0n && claimed > 0n ? "claimed" : claimed === 0n ? "unclaimed" : "partly claimed";
    }
    return {
      place: w.place,
      agent: w.agent_id,
      account: w.withdrawal_address,
      amountBaseUnits: w.amount_base_units,
      claimState,
      claimedBaseUnits: iw?.claimedAmount ?? null,
      outstandingBaseUnits: iw?.outstanding ?? null,
      claimTx: iw?.claimTx ?? null,
      disagreements,
    };
  });
}

/** Sum of the outstanding credit of the winners' places (base units), or null when not observed. */
export function outstandingTotal(places: PlaceView[]): string | null {
  if (places.some((p) => p.outstandingBaseUnits === null)) return null;
  return places.reduce((s, p) => s + BigInt(p.outstandingBaseUnits!), 0n).toString();
}
