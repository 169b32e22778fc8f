/**
 * Helpers shared by the handlers: anomaly reporting and per-account totals.
 * (Ponder loads every file of `src/` as indexing code; this one registers no handler.)
 */
import type { Context } from "ponder:registry";
import { accountTotal, anomalyRecord as anomaly } from "ponder:schema";

type Db = Context["db"];

/** Where an event came from, for anomaly rows and log lines. */
export interface EventRef {
  id: string;
  blockNumber: bigint;
  txHash: `0x${string}`;
}

/** The shape of a Ponder log event these helpers read (any event of the indexed contracts). */
interface LogEvent {
  id: string;
  block: { number: bigint; timestamp: bigint };
  log: { logIndex: number };
  transaction: { hash: `0x${string}` };
}

/** The {@link EventRef} of a log event. */
export function eventRef(event: LogEvent): EventRef {
  return { id: event.id, blockNumber: event.block.number, txHash: event.transaction.hash };
}

/**
 * The `logPosition` columns of a row made from a log event (see `ponder.schema.ts`):
 * block number, log index, transaction hash and block timestamp (unix seconds).
 */
export function logPositionOf(event: LogEvent): {
  blockNumber: bigint;
  logIndex: number;
  txHash: `0x${string}`;
  timestamp: bigint;
} {
  return {
    blockNumber: event.block.number,
    logIndex: event.log.logIndex,
    txHash: event.transaction.hash,
    timestamp: event.block.timestamp,
  };
}

/** True when this event was already refused (a replay of an impossible event). */
export async function alreadyReported(db: Db, eventId: string): Promise<boolean> {
  return (await db.find(anomaly, { id: eventId })) !== null;
}

/**
 * Logs an impossible event loudly (stderr) and records it in `anomaly`. The
 * caller does not apply the event.
 */
export async function reportAnomaly(
  db: Db,
  ref: EventRef,
  eventName: string,
  bountyId: bigint | null,
  message: string,
): Promise<void> {
  console.error(
    `[bench-bounty indexer] IMPOSSIBLE EVENT NOT APPLIED: ${eventName}` +
      (bountyId === null ? "" : ` bounty ${bountyId}`) +
      ` at block ${ref.blockNumber} tx ${ref.txHash}: ${message}`,
  );
  await db
    .insert(anomaly)
    .values({ id: ref.id, eventName, bountyId, message, blockNumber: ref.blockNumber, txHash: ref.txHash })
    .onConflictDoNothing();
}

/** Changes to one `(account, token)` total; omitted fields are unchanged. */
export interface TotalDelta {
  credited?: bigint;
  claimed?: bigint;
  outstanding?: bigint;
  received?: bigint;
  placesWon?: number;
  bountiesAuthored?: number;
}

/** Adds `delta` to the `(account, token)` totals, creating the row at zero first. */
export async function addToAccountTotal(
  db: Db,
  account: `0x${string}`,
  token: `0x${string}`,
  delta: TotalDelta,
): Promise<void> {
  const d = {
    credited: delta.credited ?? 0n,
    claimed: delta.claimed ?? 0n,
    outstanding: delta.outstanding ?? 0n,
    received: delta.received ?? 0n,
    placesWon: delta.placesWon ?? 0,
    bountiesAuthored: delta.bountiesAuthored ?? 0,
  };
  await db
    .insert(accountTotal)
    .values({ account, token, ...d })
    .onConflictDoUpdate((row) => ({
      credited: row.credited + d.credited,
      claimed: row.claimed + d.claimed,
      outstanding: row.outstanding + d.outstanding,
      received: row.received + d.received,
      placesWon: row.placesWon + d.placesWon,
      bountiesAuthored: row.bountiesAuthored + d.bountiesAuthored,
    }));
}
