/**
 * The one definition of the bounty status ladder outside Solidity: compare with `BountyStatus.Funded`,
 * never with a bare 2. Mirror of the Solidity `Status` enum of BenchmarkBounty (docs/interfaces.md):
 * `statusOf(id)` returns one of these numbers. `None` means the id is unknown.
 * Ladder (SPEC 1.1): Pending -> Funded -> Awarded | Reclaimed; Pending -> Reclaimed (cancel).
 */
export enum BountyStatus {
  None = 0,
  Pending = 1,
  Funded = 2,
  Awarded = 3,
  Reclaimed = 4,
}

/** The name of an on-chain status number (`"Funded"`); throws RangeError on a number outside the enum. */
export function bountyStatusName(status: number | bigint): keyof typeof BountyStatus {
  const name = BountyStatus[Number(status)];
  if (name === undefined) throw new RangeError(`unknown bounty status ${status}`);
  return name as keyof typeof BountyStatus;
}
