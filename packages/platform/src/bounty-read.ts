/**
 * The chain's view of a bounty for READS: the detail's prize check ("locked at") and the evidence door's
 * bounty status before an award (`award/door.ts`). One `getBounty` per bounty is in flight at a time,
 * shared by every concurrent reader (single flight); its answer, a failure included, is reused for
 * {@link BOUNTY_READ_TTL_MS}; a reader waits for it at most {@link BOUNTY_READ_WAIT_MS} (or its own
 * deadline) and then answers from the store, saying so. So reads cost the operator's RPC at most one
 * eth_call per bounty per TTL plus the RPC's own latency, whatever their rate (probe19 A-F7: every
 * anonymous detail, entries page, door and verification read made one, and a 9.5 s RPC held the detail
 * 9.5 s).
 *
 * Nothing that moves money or records an award reads through here: attaching a bounty, the award's
 * checks and its recovery read the chain fresh (`ChainGateway.getBounty`).
 */
import type { PlatformContext } from "./context.js";
import type { ChainGateway, OnChainBounty } from "./chain.js";
import { PlatformError } from "./errors.js";
import { byDeadline } from "./deadline.js";

/**
 * How long (ms, on the platform's clock) a read reuses the chain's answer about a bounty, counted from
 * the moment that answer came: a prize funded on-chain a moment ago may still read as before for this
 * long (a status never goes back: awarded and reclaimed are final, {@link isFinalBountyStatus}).
 */
export const BOUNTY_READ_TTL_MS = 5_000;

/**
 * How long (ms, wall clock) a read waits for the chain's view of a bounty before answering from the
 * store (the door's `DOOR_WAIT_MS` is the same 5 s); the read it waited for goes on and serves the
 * next readers for {@link BOUNTY_READ_TTL_MS}.
 */
export const BOUNTY_READ_WAIT_MS = 5_000;

/** Bounties whose view is kept before the expired ones are dropped (ids come from the store's records). */
const PRUNE_AT = 1_024;

/** One read (a bounty's, or the chain's clock): in flight (`settledAt` null) or answered at `settledAt` (platform clock, ms). */
interface SharedRead<T = unknown> {
  read: Promise<T>;
  settledAt: number | null;
}

/** The shared reads of each chain, by key: a bounty id, {@link CLOCK_KEY} or {@link NEXT_BLOCK_KEY}. */
const reads = new WeakMap<ChainGateway, Map<string, SharedRead>>();

/** The key of the chain clock's shared read ({@link chainTimeForRead}); bounty ids are decimal digits. */
const CLOCK_KEY = "latest-block-time";

/** The key of the next block's time's shared read ({@link nextBlockTimeForRead}). */
const NEXT_BLOCK_KEY = "pending-block-time";

/** Whether a recorded bounty status is final on-chain (the contract never moves a bounty out of it). */
export function isFinalBountyStatus(status: string): boolean {
  return status === "awarded" || status === "reclaimed";
}

/** A read of `bountyId` answered before `now - BOUNTY_READ_TTL_MS` (or in the clock's future) is stale. */
function stale(r: SharedRead, now: number): boolean {
  return r.settledAt !== null && (now - r.settledAt >= BOUNTY_READ_TTL_MS || now < r.settledAt);
}

/**
 * The shared read `key` on `chain` (`fetch` makes a new one): the one in flight or fresh, else a new one.
 * An answer `keep` refuses (a value it returns false for) is shared only while in flight, never reused.
 */
function sharedRead<T>(
  ctx: PlatformContext,
  chain: ChainGateway,
  key: string,
  fetch: () => Promise<T>,
  keep: (value: T) => boolean = () => true,
): SharedRead<T> {
  let byBounty = reads.get(chain);
  if (!byBounty) reads.set(chain, (byBounty = new Map()));
  const now = ctx.clock();
  const kept = byBounty.get(key) as SharedRead<T> | undefined;
  if (kept && !stale(kept, now)) return kept;
  if (byBounty.size >= PRUNE_AT) for (const [k, r] of byBounty) if (stale(r, now)) byBounty.delete(k);
  const fresh: SharedRead<T> = { read: fetch(), settledAt: null };
  const settle = () => void (fresh.settledAt = ctx.clock());
  fresh.read.then((value) => {
    settle();
    if (!keep(value) && byBounty.get(key) === fresh) byBounty.delete(key);
  }, settle);
  byBounty.set(key, fresh);
  return fresh;
}

/**
 * A chain read for a READ path other than a bounty's or the clock's, shared as {@link bountyForRead}'s
 * are: one `fetch` per `key` in flight on the configured chain, its answer (a failure included) reused
 * for {@link BOUNTY_READ_TTL_MS} (platform clock) unless `keep` refuses it. The evidence door reads a
 * sent award's state through it (`award/door.ts`, probe38 C-F3: each anonymous read of a pending award
 * made three RPC calls). Never for a step that moves money or records an award on its own.
 * @param key the read's name, unique among the chain's shared reads (bounty ids are decimal digits: a
 *   key with another character never collides with them)
 * @returns the shared read's promise (the caller bounds its own wait: `byDeadline`)
 * @throws Error when no chain is configured (a caller bug: callers check `ctx.chain` first)
 */
export function sharedChainRead<T>(
  ctx: PlatformContext,
  key: string,
  fetch: () => Promise<T>,
  keep?: (value: T) => boolean,
): Promise<T> {
  if (!ctx.chain) throw new Error(`no chain configured for the shared read ${key}`);
  return sharedRead(ctx, ctx.chain, key, fetch, keep).read;
}

/**
 * The chain's view of bounty `bountyId` for a read (never for a step that moves money: those call
 * `ChainGateway.getBounty`): the shared read's answer, at most {@link BOUNTY_READ_TTL_MS} old, if it
 * comes by `by`.
 * @param by unix ms (wall clock); default {@link BOUNTY_READ_WAIT_MS} from now
 * @returns the bounty as read on-chain, or null when there is no chain, the chain did not answer by `by`,
 *   or the read failed (`chain_error`, served from the cache for the TTL too): the caller answers from
 *   what the store recorded, saying the chain was not checked
 * @throws what the read throws other than `chain_error` (a bug)
 */
export async function bountyForRead(
  ctx: PlatformContext,
  bountyId: bigint,
  by: number = Date.now() + BOUNTY_READ_WAIT_MS,
): Promise<OnChainBounty | null> {
  if (!ctx.chain) return null;
  try {
    const chain = ctx.chain;
    const shared = sharedRead(ctx, chain, bountyId.toString(), () => chain.getBounty(bountyId));
    return await byDeadline(shared.read, by, () => null);
  } catch (e) {
    if (e instanceof PlatformError && e.code === "chain_error") return null;
    throw e;
  }
}

/**
 * The chain's clock for a read (the latest block's time, unix seconds), shared as {@link bountyForRead}'s
 * answers are: one `eth_getBlock` per chain in flight, reused for {@link BOUNTY_READ_TTL_MS}. For the
 * door's and the detail's "no award can come any more" (`awardWindowPassed`, probe29 C-F5); never for a
 * step that moves money (the award reads `ChainGateway.latestTimestamp` fresh).
 * @param by unix ms (wall clock); default {@link BOUNTY_READ_WAIT_MS} from now
 * @returns the time, or null (no chain, no answer by `by`, or the read failed): the caller then says
 *   nothing about the chain's clock
 * @throws what the read throws other than `chain_error` (a bug)
 */
export async function chainTimeForRead(
  ctx: PlatformContext,
  by: number = Date.now() + BOUNTY_READ_WAIT_MS,
): Promise<bigint | null> {
  return sharedTimeForRead(ctx, by, CLOCK_KEY, (chain) => chain.latestTimestamp());
}

/**
 * The next block's time for a read (the pending block's, `ChainGateway.pendingTimestamp`, unix seconds:
 * the earliest block an award sent now can land in, the clock the award route and the contract judge
 * the close by), shared as {@link chainTimeForRead}'s answers are: one `eth_getBlock("pending")` per
 * chain in flight, reused for {@link BOUNTY_READ_TTL_MS}. For the close's reads (`isOpen` `read`:
 * the detail, the list, the boards, receipts, the door; probe39 A-F1).
 * @param by unix ms (wall clock); default {@link BOUNTY_READ_WAIT_MS} from now
 * @returns the time, or null (no chain, no answer by `by`, or the read failed): the caller then judges
 *   by the other clocks it has
 * @throws what the read throws other than `chain_error` (a bug)
 */
export async function nextBlockTimeForRead(
  ctx: PlatformContext,
  by: number = Date.now() + BOUNTY_READ_WAIT_MS,
): Promise<bigint | null> {
  return sharedTimeForRead(ctx, by, NEXT_BLOCK_KEY, (chain) => chain.pendingTimestamp());
}

/** A block time read through the shared read `key` ({@link chainTimeForRead}, {@link nextBlockTimeForRead}). */
async function sharedTimeForRead(
  ctx: PlatformContext,
  by: number,
  key: string,
  fetch: (chain: ChainGateway) => Promise<bigint>,
): Promise<bigint | null> {
  if (!ctx.chain) return null;
  try {
    const chain = ctx.chain;
    const shared = sharedRead(ctx, chain, key, () => fetch(chain));
    return await byDeadline(shared.read, by, () => null);
  } catch (e) {
    if (e instanceof PlatformError && e.code === "chain_error") return null;
    throw e;
  }
}
