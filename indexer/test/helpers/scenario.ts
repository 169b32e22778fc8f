/**
 * The scenario the tests drive on a devchain: several bounties in every
 * status, awards with 0 to 3 winners (a repeated winner included), claims to
 * other addresses, and anchors of every kind of SPEC 1.2.
 */
import { ANCHOR_KINDS } from "@bench-bounty/contracts";
import type { Address } from "viem";
import { digestOf, Driver } from "./driver";

/** Account roles (devchain account indexes). */
export const A = {
  authorA: 1,
  authorB: 2,
  awarder: 3,
  w4: 4,
  w5: 5,
  w6: 6,
  w7: 7,
  w8: 8,
  w9: 9,
  r10: 10,
  r11: 11,
  r12: 12,
} as const;

/** Accounts whose credits the comparisons check. */
export function scenarioAccounts(d: Driver): Address[] {
  return Array.from({ length: 13 }, (_, i) => d.addr(i));
}

const USDC = 1_000_000n;

/**
 * Phase 1. Leaves bounty 1 Pending, 2 Reclaimed (cancelled while Pending),
 * 3 Funded, 4 Reclaimed after its deadline, 5 Awarded with no winner (author
 * remainder claimed to another address), 6 one winner, 7 two of three places,
 * 8 three places with a repeated winner, 9 three of four places with the
 * author as awarder; some credits claimed (to others, to self, with
 * claimMany), some left outstanding.
 */
export async function driveInitialScenario(d: Driver, tag: string): Promise<void> {
  await d.fundAccount(A.authorA, 1_000_000n * USDC);
  await d.fundAccount(A.authorB, 1_000_000n * USDC);
  const t0 = await d.now();
  const long = { closesAt: t0 + 100n, awardDeadline: t0 + 1_000_000n };
  const short = { closesAt: t0 + 20n, awardDeadline: t0 + 50n };
  const top3 = [5000, 3000, 2000];

  const b1 = await d.create(
    { author: A.authorA, awarder: A.awarder, pool: 5n * USDC, splitsBps: [10000], ...long, label: `${tag}1` },
    "create",
  );
  const b2 = await d.create(
    { author: A.authorB, awarder: A.awarder, pool: 7n * USDC, splitsBps: top3, ...long, label: `${tag}2` },
    "create",
  );
  await d.reclaim(A.authorB, b2);
  const b3 = await d.create(
    {
      author: A.authorA,
      awarder: A.awarder,
      pool: 11n * USDC,
      splitsBps: [10000],
      ...long,
      label: `${tag}3`,
    },
    "createAndFund",
  );
  const b4 = await d.create(
    {
      author: A.authorB,
      awarder: A.awarder,
      pool: 13n * USDC,
      splitsBps: [10000],
      ...short,
      label: `${tag}4`,
    },
    "createAndFund",
  );
  const b5 = await d.create(
    {
      author: A.authorA,
      awarder: A.awarder,
      pool: 17n * USDC + 1n,
      splitsBps: top3,
      ...long,
      label: `${tag}5`,
    },
    "createAndFund",
  );
  const b6 = await d.create(
    {
      author: A.authorB,
      awarder: A.awarder,
      pool: 19n * USDC,
      splitsBps: [10000],
      ...long,
      label: `${tag}6`,
    },
    "createAndFund",
  );
  const b7 = await d.create(
    { author: A.authorA, awarder: A.awarder, pool: 1_000_003n, splitsBps: top3, ...long, label: `${tag}7` },
    "create",
  );
  await d.fund(A.authorA, b7);
  const b8 = await d.create(
    {
      author: A.authorB,
      awarder: A.awarder,
      pool: 10n * USDC + 7n,
      splitsBps: top3,
      ...long,
      label: `${tag}8`,
    },
    "createAndFund",
  );
  const b9 = await d.create(
    { author: A.authorA, pool: 3_333_333n, splitsBps: [4000, 3000, 2000, 1000], ...long, label: `${tag}9` },
    "createAndFund",
  );
  if ([b1, b3].some((b) => b === 0n)) throw new Error("unexpected bounty id");

  await d.anchor(A.authorA, digestOf(`root:${tag}5`), ANCHOR_KINDS.commitment);
  await d.anchorMany(
    A.awarder,
    [digestOf(`${tag}rcpt1`), digestOf(`${tag}rcpt2`), digestOf(`${tag}rcpt3`)],
    ANCHOR_KINDS.receipt,
  );
  await d.anchorMany(
    A.w4,
    [digestOf(`${tag}compute1`), digestOf(`${tag}compute2`)],
    ANCHOR_KINDS["compute-receipt"],
  );

  await d.dc.increaseTime(120); // past every closesAt and past bounty 4's award deadline
  await d.reclaim(A.authorB, b4, A.r12); // to another address (v1.1)
  await d.award(A.awarder, b5, [], `${tag}5`);
  await d.award(A.awarder, b6, [A.w4], `${tag}6`);
  await d.award(A.awarder, b7, [A.w5, A.w6], `${tag}7`);
  await d.award(A.awarder, b8, [A.w7, A.w8, A.w7], `${tag}8`);
  await d.award(A.authorA, b9, [A.w9, A.w4, A.w5], `${tag}9`);
  await d.anchor(A.awarder, digestOf(`${tag}pack`), ANCHOR_KINDS.pack);

  await d.claim(A.authorA, b5, A.r12); // the author's remainder, to another address
  await d.claim(A.w4, b6, A.r10);
  await d.claim(A.w5, b7, A.w5);
  await d.claim(A.w7, b8, A.r11); // places 1 and 3 in one claim
  await d.claimMany(A.w4, [b9], A.r12);
  await d.claimMany(A.w9, [b9], A.r10);
}
