/**
 * The indexer's store (SPEC 1.1 BenchmarkBounty, 1.2 AnchorRegistry).
 *
 * Conventions: snake_case table names, camelCase columns. Amounts are token
 * base units (`bigint`, NUMERIC(78) in the database), times are block
 * timestamps in unix seconds (`bigint`), addresses and hashes are lowercase
 * `0x` hex. Every row records the block, transaction and log that produced it.
 * Amounts of different tokens are never added together: per-account totals are
 * kept per `(account, token)`.
 */
import { BountyStatus } from "@bench-bounty/contracts";
import { index, onchainEnum, onchainTable, primaryKey, relations, type PgColumnsBuilders } from "ponder";

/**
 * Where a row made from one log comes from: block number, the log's index in
 * the block, transaction hash, block timestamp (unix seconds). Filled in by
 * the handlers' `logPositionOf(event)`.
 */
const logPosition = (t: PgColumnsBuilders) => ({
  blockNumber: t.bigint().notNull(),
  logIndex: t.integer().notNull(),
  txHash: t.hex().notNull(),
  timestamp: t.bigint().notNull(),
});

/** Status ladder of SPEC 1.1: `Pending -> Funded -> Awarded | Reclaimed`, `Pending -> Reclaimed`. */
export const bountyStatus = onchainEnum("bounty_status", [
  BountyStatus[BountyStatus.Pending] as "Pending",
  BountyStatus[BountyStatus.Funded] as "Funded",
  BountyStatus[BountyStatus.Awarded] as "Awarded",
  BountyStatus[BountyStatus.Reclaimed] as "Reclaimed",
]);

/** One row per bounty id: every field of `BountyCreated`, then the ladder's later steps. */
/**
 * Exported as `bountyRecord` (SQL table `bounty`): Ponder names GraphQL fields after the
 * export and pluralises with an `s`, so this reads `bountyRecord(id:)` / `bountyRecords`.
 */
export const bountyRecord = onchainTable(
  "bounty",
  (t) => ({
    /** `bountyId` (sequential from 1). */
    id: t.bigint().primaryKey(),
    author: t.hex().notNull(),
    token: t.hex().notNull(),
    awarder: t.hex().notNull(),
    testSetRoot: t.hex().notNull(),
    leafCount: t.integer().notNull(),
    /** Prize pool in token base units. */
    pool: t.bigint().notNull(),
    /** Unix seconds. */
    closesAt: t.bigint().notNull(),
    /** Unix seconds. */
    awardDeadline: t.bigint().notNull(),
    thresholdBps: t.integer().notNull(),
    /** Place splits in basis points, place 1 first. */
    splitsBps: t.integer().array().notNull(),
    status: bountyStatus("status").notNull(),
    createdEventId: t.text().notNull(),
    createdBlock: t.bigint().notNull(),
    createdTx: t.hex().notNull(),
    createdAt: t.bigint().notNull(),
    fundedEventId: t.text(),
    fundedBy: t.hex(),
    /** Amount pulled by `fund` (base units). */
    fundedAmount: t.bigint(),
    fundedBlock: t.bigint(),
    fundedTx: t.hex(),
    fundedAt: t.bigint(),
    awardedEventId: t.text(),
    awardedBlock: t.bigint(),
    awardedLogIndex: t.integer(),
    awardedTx: t.hex(),
    awardedAt: t.bigint(),
    rankingDigest: t.hex(),
    /** Part of the pool credited to the author by the award (the whole pool with no winners). */
    authorRemainder: t.bigint(),
    winnerCount: t.integer(),
    /** Sum of the winners' amounts. */
    paidToWinners: t.bigint(),
    reclaimedEventId: t.text(),
    reclaimedBlock: t.bigint(),
    reclaimedTx: t.hex(),
    reclaimedAt: t.bigint(),
    /** Amount returned by `reclaim` (base units). */
    reclaimedAmount: t.bigint(),
    /** Where `reclaim(bountyId, to)` sent the pool (SPEC 1.1 v1.1; may differ from the author). */
    reclaimedTo: t.hex(),
    /** Sum of the applied `Claimed` amounts of this bounty (base units). */
    claimedTotal: t.bigint().notNull(),
  }),
  (table) => ({
    authorIdx: index().on(table.author),
    tokenIdx: index().on(table.token),
    statusIdx: index().on(table.status),
    awarderIdx: index().on(table.awarder),
    rootIdx: index().on(table.testSetRoot),
    awardedIdx: index().on(table.awardedBlock, table.awardedLogIndex),
    awardedAtIdx: index().on(table.awardedAt),
  }),
);

/** One row per place of an award (`Awarded.winners[i]`, place = i + 1). */
export const awardWinner = onchainTable(
  "award_winner",
  (t) => ({
    bountyId: t.bigint().notNull(),
    /** 1-based place. */
    place: t.integer().notNull(),
    account: t.hex().notNull(),
    token: t.hex().notNull(),
    /** Amount of this place (base units). */
    amount: t.bigint().notNull(),
    /** Part of `amount` already claimed (a claim takes the account's whole credit on the bounty). */
    claimedAmount: t.bigint().notNull(),
    /** `amount - claimedAmount`. */
    outstanding: t.bigint().notNull(),
    awardedBlock: t.bigint().notNull(),
    awardedLogIndex: t.integer().notNull(),
    awardedTx: t.hex().notNull(),
    awardedAt: t.bigint().notNull(),
    /** Transaction of the claim that paid this place, when claimed. */
    claimTx: t.hex(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.bountyId, table.place] }),
    accountIdx: index().on(table.account, table.awardedBlock),
    awardedAtIdx: index().on(table.awardedAt),
  }),
);

/**
 * Credit per `(bountyId, account)` as the contract keeps it (`creditOf`): the
 * account's places plus, for the author, the award's remainder.
 */
export const credit = onchainTable(
  "credit",
  (t) => ({
    bountyId: t.bigint().notNull(),
    account: t.hex().notNull(),
    token: t.hex().notNull(),
    /** Total credited by the award (base units). */
    credited: t.bigint().notNull(),
    /** Part of `credited` that comes from places won. */
    fromPlaces: t.bigint().notNull(),
    /** Part of `credited` that is the author's remainder. */
    fromRemainder: t.bigint().notNull(),
    claimed: t.bigint().notNull(),
    /** `credited - claimed`; equals the contract's `creditOf(bountyId, account)`. */
    outstanding: t.bigint().notNull(),
    /** Places held by this account (1-based), empty for a remainder-only credit. */
    places: t.integer().array().notNull(),
    lastClaimTx: t.hex(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.bountyId, table.account] }),
    accountIdx: index().on(table.account),
  }),
);

/** One row per `Claimed` log (keyed by the event id). */
export const claim = onchainTable(
  "claim",
  (t) => ({
    /** Ponder event id (block, transaction and log position). */
    id: t.text().primaryKey(),
    bountyId: t.bigint().notNull(),
    account: t.hex().notNull(),
    to: t.hex().notNull(),
    /** The bounty's token; null only for a claim on a bounty the indexer never saw (an anomaly). */
    token: t.hex(),
    amount: t.bigint().notNull(),
    /** False when the claim did not match the indexed credit (logged as an anomaly, totals untouched). */
    applied: t.boolean().notNull(),
    ...logPosition(t),
  }),
  (table) => ({
    bountyIdx: index().on(table.bountyId),
    accountIdx: index().on(table.account),
    toIdx: index().on(table.to),
  }),
);

/** One row per `Reclaimed` log (keyed by the event id). */
export const reclaim = onchainTable(
  "reclaim",
  (t) => ({
    id: t.text().primaryKey(),
    bountyId: t.bigint().notNull(),
    author: t.hex().notNull(),
    /** Recipient of the reclaimed pool (`Reclaimed.to`, SPEC 1.1 v1.1). */
    to: t.hex().notNull(),
    /** The bounty's token; null only for a reclaim of a bounty the indexer never saw (an anomaly). */
    token: t.hex(),
    amount: t.bigint().notNull(),
    applied: t.boolean().notNull(),
    ...logPosition(t),
  }),
  (table) => ({
    bountyIdx: index().on(table.bountyId),
    authorIdx: index().on(table.author),
    toIdx: index().on(table.to),
  }),
);

/** First anchoring of each digest (`Anchored`); the registry refuses a second one. */
export const anchor = onchainTable(
  "anchor",
  (t) => ({
    digest: t.hex().primaryKey(),
    /** bytes32 kind as logged. */
    kind: t.hex().notNull(),
    /** `commitment`, `receipt`, `pack`, `compute-receipt`, or `unknown`. */
    kindName: t.text().notNull(),
    anchorer: t.hex().notNull(),
    eventId: t.text().notNull(),
    ...logPosition(t),
  }),
  (table) => ({
    anchorerIdx: index().on(table.anchorer),
    kindIdx: index().on(table.kindName),
    blockIdx: index().on(table.blockNumber),
  }),
);

/** Per `(account, token)` totals over all bounties. */
export const accountTotal = onchainTable(
  "account_total",
  (t) => ({
    account: t.hex().notNull(),
    token: t.hex().notNull(),
    /** Credited by awards (places and author remainders). */
    credited: t.bigint().notNull(),
    /** Claimed by this account (whatever the `to`). */
    claimed: t.bigint().notNull(),
    /** `credited - claimed`. */
    outstanding: t.bigint().notNull(),
    /** Received as the `to` of claims (from this or other accounts). */
    received: t.bigint().notNull(),
    placesWon: t.integer().notNull(),
    bountiesAuthored: t.integer().notNull(),
  }),
  (table) => ({
    pk: primaryKey({ columns: [table.account, table.token] }),
    accountIdx: index().on(table.account),
  }),
);

/**
 * An event the status ladder or the bookkeeping says cannot happen (SPEC 1.1):
 * logged loudly and recorded here, never applied to the other tables.
 */
/** Exported as `anomalyRecord` (SQL table `anomaly`): GraphQL `anomalyRecords`. */
export const anomalyRecord = onchainTable(
  "anomaly",
  (t) => ({
    /** Event id of the offending log. */
    id: t.text().primaryKey(),
    eventName: t.text().notNull(),
    bountyId: t.bigint(),
    message: t.text().notNull(),
    blockNumber: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (table) => ({ bountyIdx: index().on(table.bountyId) }),
);

export const bountyRecordRelations = relations(bountyRecord, ({ many }) => ({
  winners: many(awardWinner),
  credits: many(credit),
  claims: many(claim),
  reclaims: many(reclaim),
}));

export const awardWinnerRelations = relations(awardWinner, ({ one }) => ({
  bounty: one(bountyRecord, { fields: [awardWinner.bountyId], references: [bountyRecord.id] }),
}));

export const creditRelations = relations(credit, ({ one }) => ({
  bounty: one(bountyRecord, { fields: [credit.bountyId], references: [bountyRecord.id] }),
}));

export const claimRelations = relations(claim, ({ one }) => ({
  bounty: one(bountyRecord, { fields: [claim.bountyId], references: [bountyRecord.id] }),
}));

export const reclaimRelations = relations(reclaim, ({ one }) => ({
  bounty: one(bountyRecord, { fields: [reclaim.bountyId], references: [bountyRecord.id] }),
}));
