/**
 * Handlers of BenchmarkBounty's events (SPEC 1.1), one per event.
 *
 * Each handler is idempotent: it first looks for the row its event id produced
 * (the `*EventId` columns of `bounty`, the ids of `claim`, `reclaim` and
 * `anomaly`) and does nothing when the event was already applied, so a replay
 * leaves exactly one row. Reorgs are undone by Ponder itself, which rolls every
 * table back to the common ancestor before re-running the handlers.
 *
 * The status ladder is enforced (`lib/ladder.ts`): an impossible event is
 * logged loudly, recorded in `anomaly`, and not applied.
 */
import { ponder, type Context } from "ponder:registry";
import { awardWinner, bountyRecord as bounty, claim, credit, reclaim } from "ponder:schema";
import { checkClaim, checkTransition, foldAward } from "../lib/ladder";
import { addToAccountTotal, alreadyReported, eventRef, logPositionOf, reportAnomaly } from "./shared";

type Db = Context["db"];

ponder.on("BenchmarkBounty:BountyCreated", async ({ event, context }) => {
  const db: Db = context.db;
  const {
    bountyId,
    author,
    token,
    awarder,
    testSetRoot,
    leafCount,
    pool,
    closesAt,
    awardDeadline,
    thresholdBps,
    splitsBps,
  } = event.args;
  const ref = eventRef(event);
  const existing = await db.find(bounty, { id: bountyId });
  if (existing !== null && existing.createdEventId === event.id) return; // replay
  if (await alreadyReported(db, event.id)) return;
  const refusal = checkTransition("BountyCreated", existing?.status ?? null);
  if (refusal !== null) {
    await reportAnomaly(db, ref, "BountyCreated", bountyId, refusal);
    return;
  }
  await db.insert(bounty).values({
    id: bountyId,
    author: lower(author),
    token: lower(token),
    awarder: lower(awarder),
    testSetRoot: lower(testSetRoot),
    leafCount: Number(leafCount),
    pool,
    closesAt,
    awardDeadline,
    thresholdBps: Number(thresholdBps),
    splitsBps: splitsBps.map(Number),
    status: "Pending",
    createdEventId: event.id,
    createdBlock: event.block.number,
    createdTx: event.transaction.hash,
    createdAt: event.block.timestamp,
    claimedTotal: 0n,
  });
  await addToAccountTotal(db, lower(author), lower(token), { bountiesAuthored: 1 });
});

ponder.on("BenchmarkBounty:BountyFunded", async ({ event, context }) => {
  const db: Db = context.db;
  const { bountyId, funder, amount } = event.args;
  const ref = eventRef(event);
  const row = await db.find(bounty, { id: bountyId });
  if (row !== null && row.fundedEventId === event.id) return;
  if (await alreadyReported(db, event.id)) return;
  const refusal =
    checkTransition("BountyFunded", row?.status ?? null) ??
    (row !== null && amount !== row.pool
      ? `BountyFunded amount ${amount} differs from the pool ${row.pool}`
      : null);
  if (refusal !== null || row === null) {
    await reportAnomaly(db, ref, "BountyFunded", bountyId, refusal ?? "unknown bounty");
    return;
  }
  await db.update(bounty, { id: bountyId }).set({
    status: "Funded",
    fundedEventId: event.id,
    fundedBy: lower(funder),
    fundedAmount: amount,
    fundedBlock: event.block.number,
    fundedTx: event.transaction.hash,
    fundedAt: event.block.timestamp,
  });
});

ponder.on("BenchmarkBounty:Awarded", async ({ event, context }) => {
  const db: Db = context.db;
  const { bountyId, testSetRoot, winners, amounts, authorRemainder, rankingDigest } = event.args;
  const ref = eventRef(event);
  const row = await db.find(bounty, { id: bountyId });
  if (row !== null && row.awardedEventId === event.id) return;
  if (await alreadyReported(db, event.id)) return;
  const refusal = checkTransition("Awarded", row?.status ?? null);
  if (refusal !== null || row === null) {
    await reportAnomaly(db, ref, "Awarded", bountyId, refusal ?? "unknown bounty");
    return;
  }
  const folded = foldAward({
    author: row.author,
    pool: row.pool,
    splitsCount: row.splitsBps.length,
    testSetRoot: row.testSetRoot,
    loggedRoot: testSetRoot,
    winners,
    amounts,
    authorRemainder,
  });
  if ("error" in folded) {
    await reportAnomaly(db, ref, "Awarded", bountyId, folded.error);
    return;
  }
  const at = {
    awardedBlock: event.block.number,
    awardedLogIndex: event.log.logIndex,
    awardedTx: event.transaction.hash,
    awardedAt: event.block.timestamp,
  };
  await db.update(bounty, { id: bountyId }).set({
    status: "Awarded",
    awardedEventId: event.id,
    ...at,
    rankingDigest: lower(rankingDigest),
    authorRemainder,
    winnerCount: winners.length,
    paidToWinners: folded.paidToWinners,
  });
  if (winners.length > 0) {
    await db.insert(awardWinner).values(
      winners.map((account, i) => ({
        bountyId,
        place: i + 1,
        account: lower(account),
        token: row.token,
        amount: amounts[i]!,
        claimedAmount: 0n,
        outstanding: amounts[i]!,
        ...at,
      })),
    );
  }
  for (const c of folded.credits) {
    const credited = c.fromPlaces + c.fromRemainder;
    await db.insert(credit).values({
      bountyId,
      account: c.account,
      token: row.token,
      credited,
      fromPlaces: c.fromPlaces,
      fromRemainder: c.fromRemainder,
      claimed: 0n,
      outstanding: credited,
      places: c.places,
    });
    await addToAccountTotal(db, c.account, row.token, {
      credited,
      outstanding: credited,
      placesWon: c.places.length,
    });
  }
});

ponder.on("BenchmarkBounty:Claimed", async ({ event, context }) => {
  const db: Db = context.db;
  const { bountyId, account, to, amount } = event.args;
  const ref = eventRef(event);
  if ((await db.find(claim, { id: event.id })) !== null) return;
  const row = await db.find(bounty, { id: bountyId });
  const who = lower(account);
  const c = await db.find(credit, { bountyId, account: who });
  const refusal = checkClaim({ status: row?.status ?? null, outstanding: c?.outstanding ?? null, amount });
  await db.insert(claim).values({
    id: event.id,
    bountyId,
    account: who,
    to: lower(to),
    token: row?.token ?? null,
    amount,
    applied: refusal === null,
    ...logPositionOf(event),
  });
  if (refusal !== null || row === null || c === null) {
    await reportAnomaly(db, ref, "Claimed", bountyId, refusal ?? "unknown bounty or credit");
    return;
  }
  await db.update(credit, { bountyId, account: who }).set({
    claimed: c.claimed + amount,
    outstanding: c.outstanding - amount,
    lastClaimTx: event.transaction.hash,
  });
  // The claim took the account's whole credit: every place it holds is paid.
  for (const place of c.places) {
    await db.update(awardWinner, { bountyId, place }).set((w) => ({
      claimedAmount: w.amount,
      outstanding: 0n,
      claimTx: event.transaction.hash,
    }));
  }
  await db.update(bounty, { id: bountyId }).set({ claimedTotal: row.claimedTotal + amount });
  await addToAccountTotal(db, who, row.token, { claimed: amount, outstanding: -amount });
  await addToAccountTotal(db, lower(to), row.token, { received: amount });
});

ponder.on("BenchmarkBounty:Reclaimed", async ({ event, context }) => {
  const db: Db = context.db;
  const { bountyId, author, to, amount } = event.args;
  const ref = eventRef(event);
  if ((await db.find(reclaim, { id: event.id })) !== null) return;
  const row = await db.find(bounty, { id: bountyId });
  let refusal = checkTransition("Reclaimed", row?.status ?? null);
  if (refusal === null && row !== null) {
    if (lower(author) !== row.author) refusal = `Reclaimed by ${lower(author)}, not the author ${row.author}`;
    else if (row.status === "Funded" && amount !== row.pool)
      refusal = `Reclaimed ${amount} of a funded pool of ${row.pool}`;
    else if (row.status === "Pending" && amount !== 0n)
      refusal = `Reclaimed ${amount} of a bounty that was never funded`;
  }
  await db.insert(reclaim).values({
    id: event.id,
    bountyId,
    author: lower(author),
    to: lower(to),
    token: row?.token ?? null,
    amount,
    applied: refusal === null,
    ...logPositionOf(event),
  });
  if (refusal !== null || row === null) {
    await reportAnomaly(db, ref, "Reclaimed", bountyId, refusal ?? "unknown bounty");
    return;
  }
  await db.update(bounty, { id: bountyId }).set({
    status: "Reclaimed",
    reclaimedEventId: event.id,
    reclaimedBlock: event.block.number,
    reclaimedTx: event.transaction.hash,
    reclaimedAt: event.block.timestamp,
    reclaimedAmount: amount,
    reclaimedTo: lower(to),
  });
});

function lower<T extends `0x${string}`>(hex: T): `0x${string}` {
  return hex.toLowerCase() as `0x${string}`;
}
