/**
 * What `bounty:status` says is left to claim of an award (deploy/tasks/status.ts).
 */
import { baseUnits } from "./format";

/** An amount as the task prints it (`5.000000 USDC (5000000 base units)`). */
export type Fmt = (v: bigint) => string;

/**
 * What is left to claim of each place of an award and of the author's remainder, from the amounts the
 * `Awarded` log credited and each account's credit now (`creditOf`, one number per account and bounty).
 * A place credited 0 base units has nothing to claim (probe30 C-F1: it read "claimed" though nobody had
 * claimed); an account credited more than once (two places of one owner, SPEC 7, or a winner who is
 * the author) has one credit for all its entries, so that total is named as the account's, not the
 * place's.
 * @param credit each account's credit now, by lower-case address
 * @returns one note per place, then the remainder's (null when the remainder is 0)
 */
export function awardClaimNotes(
  winners: readonly string[],
  amounts: readonly bigint[],
  author: string,
  authorRemainder: bigint,
  credit: ReadonlyMap<string, bigint>,
  fmt: Fmt,
): { places: string[]; remainder: string | null } {
  const entries = new Map<string, number>();
  const credited = (account: string) =>
    entries.set(account.toLowerCase(), (entries.get(account.toLowerCase()) ?? 0) + 1);
  winners.forEach((w, i) => amounts[i]! > 0n && credited(w));
  if (authorRemainder > 0n) credited(author);
  const note = (account: string, amount: bigint): string => {
    if (amount === 0n) return `credited ${baseUnits(0n)}: nothing to claim`;
    const left = credit.get(account.toLowerCase()) ?? 0n;
    if (left === 0n) return "claimed";
    const n = entries.get(account.toLowerCase()) ?? 1;
    return n > 1
      ? `${fmt(left)} to claim by this address for its ${n} credited entries together`
      : `${fmt(left)} to claim`;
  };
  return {
    places: winners.map((w, i) => note(w, amounts[i]!)),
    remainder: authorRemainder === 0n ? null : note(author, authorRemainder),
  };
}
