/**
 * The evidence door's answer (SPEC 8): the stored pack bytes once awarded, else the reason there is none.
 */
import type { Hex } from "@bench-bounty/evidence";
import type { BenchmarkRecord, PlatformContext } from "../context.js";
import { squatFacts } from "../chain.js";
import { getBenchmark, isOpen } from "../publish.js";
import {
  statusName,
  awardRow,
  awardLock,
  awardWindowPassed,
  isSignerNotAwarder,
  preparedAward,
  recordConfirmed,
} from "./state.js";
import { ensurePack } from "./pack.js";
import { awardChainState } from "./recovery.js";
import { noNewAward } from "./send.js";
import { LockWaitExpired } from "../store.js";
import { byDeadline } from "../deadline.js";
import { PlatformError } from "../errors.js";
import { bountyForRead, chainTimeForRead, isFinalBountyStatus, sharedChainRead } from "../bounty-read.js";

/** The door's "no pack (yet)" answer: the SPEC 8 reason and a sentence for people. */
export interface AwardEvidenceUnavailable {
  kind: "unavailable";
  reason: AwardEvidenceReason;
  message: string;
  /**
   * Facts of the reason, served in the door's `details` beside `reason`: for `awarded_elsewhere`, the
   * bounty (`bounty_id`), the ranking digest prepared here (`prepared_ranking_digest`, null when this store
   * prepared no award) and, when the chain's `Awarded` log was read, the award's transaction (`award_tx`,
   * `award_block`) and its ranking digest (`awarded_ranking_digest`); for `pack_pending` (the door's
   * 503), `retry_after_seconds`, when to ask again (an integer >= 1: REST's `Retry-After`; after a mint
   * that failed for the operator's reasons, the seconds to the next attempt, {@link DOOR_MINT_BACKOFF_MS});
   * for `bounty_status_unknown` (the door's 503), the bounty (`bounty_id`) and `retry_after_seconds`
   * ({@link DOOR_RETRY_SECONDS}). Absent for the other reasons.
   */
  details?: Record<string, unknown>;
  /**
   * Why this process cannot mint the pack itself, for callers that refuse rather than wait (the CLI's
   * `evidence`, the verifier's start-up sweep): set with `pack_pending` when this process signs with
   * another key than the bounty's awarder (`award_not_allowed`, `details.signer` and `details.awarder`:
   * probe36 C-F1, nothing was minted nor sent). Not served to readers (the door serves the message).
   */
  refusal?: PlatformError;
}

/**
 * The door's answer without the pack's bytes ({@link awardEvidenceHead}): `pack`, the stored pack's hash
 * and size (bytes); or `unavailable`, with the reason there is none (yet).
 */
export type AwardEvidenceHead =
  | { kind: "pack"; pack_hash: Hex; pack_size: number }
  | AwardEvidenceUnavailable;

/**
 * The door's answer (SPEC 8), by domain outcome: `pack`, the stored canonical bytes, their hash and size
 * (bytes); or `unavailable`, with the reason there is none (yet). The HTTP edge maps each reason to its
 * status.
 */
export type AwardEvidenceResult =
  | { kind: "pack"; bytes: Uint8Array; pack_hash: Hex; pack_size: number }
  | AwardEvidenceUnavailable;

/**
 * The SPEC 8 reasons (plus `unknown_benchmark`, the transient `pack_pending` and `award_pending`: an
 * award is confirmed or in flight and its pack will exist soon; and `awarded_elsewhere`: the bounty is
 * Awarded on-chain by an award this store did not prepare, another ranking digest or other winners or
 * amounts, or none prepared here, so no pack of this store will ever exist; never `not_awarded` while the
 * chain says Awarded, probe37 C-F2; and the transient `bounty_status_unknown`: no award prepared here and
 * the bounty's on-chain status not read by the door's deadline (a slow or failing chain RPC), so whether it
 * is Awarded cannot be told, never the recorded `funded` taken for the chain's, probe39 C-F1; an
 * implementation note of spec/README.md).
 */
export type AwardEvidenceReason =
  | "unknown_benchmark"
  | "no_commitment"
  | "anchor_squatted"
  | "not_verifiable_arm"
  | "not_awarded"
  | "awarded_elsewhere"
  | "withheld_live_contest"
  | "reclaimed_never_reveals"
  | "pack_pending"
  | "award_pending"
  | "bounty_status_unknown";

/**
 * The evidence door's answer for a benchmark: the stored pack bytes once awarded (minted, under the
 * award's lock, if an award was confirmed but its pack not yet stored), else the SPEC 8 reason. Answers
 * within {@link DOOR_WAIT_MS}, the chain's reads included: past it, what the store knows
 * (`pack_pending`, `award_pending`, or `bounty_status_unknown`: the bounty's recorded status only on a
 * chainless store, probe39 C-F1), probe16 A-F3. The door's logic
 * runs once ({@link awardEvidenceHead}), then the bytes are read by the head's hash
 * ({@link awardEvidenceBytes}).
 */
export async function awardEvidence(ctx: PlatformContext, slug: string): Promise<AwardEvidenceResult> {
  const head = await awardEvidenceHead(ctx, slug);
  if (head.kind !== "pack") return head;
  return { ...head, bytes: await awardEvidenceBytes(ctx, slug, head.pack_hash) };
}

/**
 * {@link awardEvidence} without reading the pack's bytes: its hash and size, or the SPEC 8 reason. A 304
 * of the door or a metadata answer costs the same whatever the pack's size (probe20 F4); the award's
 * recovery and minting run as for {@link awardEvidence}. A 200 then reads the bytes by the hash
 * answered ({@link awardEvidenceBytes}), without running the door's logic again.
 */
export function awardEvidenceHead(ctx: PlatformContext, slug: string): Promise<AwardEvidenceHead> {
  return doorAnswer(ctx, slug, Date.now() + DOOR_WAIT_MS);
}

/**
 * The stored bytes of the pack of `slug` whose hash is `packHash`, the `pack_hash` of an
 * {@link awardEvidenceHead} `pack` answer: one read of the pack's bytes, none of the benchmark's or the
 * award's rows (the door's logic ran for the head). A stored pack is never changed nor removed
 * (`PacksTable.insertIfAbsent`), so the head's pack is there.
 * @throws Error when this store holds no pack of `slug` with that hash (a hash no head of this store
 *   answered): a fault, never a domain outcome
 */
export async function awardEvidenceBytes(
  ctx: PlatformContext,
  slug: string,
  packHash: Hex,
): Promise<Uint8Array> {
  const bytes = await ctx.store.packs.bytes(slug, packHash);
  if (!bytes) throw new Error(`no pack ${packHash} of ${slug} is stored (a hash its door never answered)`);
  return bytes;
}

/** Bytes of one chunk {@link awardEvidenceChunks} hands out (1 MiB). */
export const PACK_CHUNK_BYTES = 1024 * 1024;

/**
 * Bytes of packs a process keeps read ({@link sharedPackBytes}): the most recently read packs whose
 * sizes add up to at most this (256 MiB), plus the one just read.
 */
export const PACK_CACHE_BYTES = 256 * 1024 * 1024;

/** The packs a process holds, by `slug\nhash`: one read (in flight or done) of each, shared. */
const packCaches = new WeakMap<PlatformContext, Map<string, { bytes: Promise<Uint8Array>; size: number }>>();

/**
 * The stored bytes of a pack, read from the store once per process and shared by every reader (a pack
 * is never changed once stored, `PacksTable.insertIfAbsent`): concurrent readers wait for the same
 * read, later ones take the kept bytes. The packs kept are the most recent, at most
 * {@link PACK_CACHE_BYTES} besides the last one read; a failed read is not kept.
 * @throws Error when no pack of `slug` with that hash is stored
 */
function sharedPackBytes(
  ctx: PlatformContext,
  slug: string,
  packHash: Hex,
  size: number,
): Promise<Uint8Array> {
  let cache = packCaches.get(ctx);
  if (!cache) packCaches.set(ctx, (cache = new Map()));
  const key = `${slug}\n${packHash}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key); // most recent last
    cache.set(key, hit);
    return hit.bytes;
  }
  const bytes = awardEvidenceBytes(ctx, slug, packHash);
  const entry = { bytes, size };
  bytes.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  cache.set(key, entry);
  let total = 0;
  for (const e of cache.values()) total += e.size;
  for (const [k, e] of cache) {
    if (total - size <= PACK_CACHE_BYTES || k === key) break;
    cache.delete(k);
    total -= e.size;
  }
  return bytes;
}

/**
 * The stored bytes of the pack of `slug` whose hash is `packHash` and size `size` (bytes), both from an
 * {@link awardEvidenceHead} `pack` answer, in order, in chunks of at most `chunkBytes` (views of one
 * copy, never copies). The pack is read from the store when the first chunk is asked for (a reader
 * that is refused before, a 429, reads nothing), once per process for all its readers
 * ({@link sharedPackBytes}): a door answer costs the event loop and memory of the pack once, not per
 * reader (probe26 A-F2: each 200 read a 60 MB pack whole, ~1 s of PostgreSQL's event loop and ~69 MB
 * per reader, 20 stalled readers held 1.4 GB).
 * @param chunkBytes bytes per chunk, an integer >= 1 (default {@link PACK_CHUNK_BYTES})
 * @throws Error when this store holds no pack of `slug` with that hash, or its bytes are not `size`
 *   long (a fault, never a domain outcome)
 */
export async function* awardEvidenceChunks(
  ctx: PlatformContext,
  slug: string,
  packHash: Hex,
  size: number,
  chunkBytes = PACK_CHUNK_BYTES,
): AsyncGenerator<Uint8Array, void, undefined> {
  const bytes = await sharedPackBytes(ctx, slug, packHash, size);
  if (bytes.byteLength !== size)
    throw new Error(
      `the pack ${packHash} of ${slug} has ${bytes.byteLength} bytes, not ${size} as its head said`,
    );
  for (let offset = 0; offset < size; offset += chunkBytes) yield bytes.subarray(offset, offset + chunkBytes);
}

/** {@link awardEvidenceHead} by `by` (unix ms) for what waits on the chain or the award's lock. */
async function doorAnswer(ctx: PlatformContext, slug: string, by: number): Promise<AwardEvidenceHead> {
  const b = await ctx.store.benchmarks.get(slug);
  if (!b) return { kind: "unavailable", reason: "unknown_benchmark", message: `no benchmark ${slug}` };
  const stored = await ctx.store.packs.head(slug);
  const row = await awardRow(ctx, slug);
  if (stored && row?.status === "packed")
    return { kind: "pack", pack_hash: stored.pack_hash as Hex, pack_size: stored.size };
  if (row && (row.status === "packed" || row.status === "confirmed")) {
    // nothing mints it without a chain: never "being minted" (probe25 B-F6)
    if (!ctx.chain)
      return pendingPack(
        `the award is confirmed and its pack is not minted yet: a process with the chain and the platform account's key mints it (a running serve, or award ${slug})`,
        DOOR_MINT_BACKOFF_MS / 1000,
      );
    // one mint per benchmark at a time, none for a while after one failed for the operator's reasons
    // (probe38 C-F3: each anonymous read minted the whole pack again, ~1 s of the event loop for 11 MB)
    const packed = await sharedDoorMint(ctx, slug, by);
    if (packed === null) return packBeingMinted(row.award_tx);
    if (packed.kind === "backoff")
      return pendingPack(
        "the award is confirmed; its pack could not be minted just now: ask again later",
        (packed.retryAt - ctx.clock()) / 1000,
      );
    if (isSignerNotAwarder(packed.value))
      return {
        ...pendingPack(
          `the award is confirmed (transaction ${row.award_tx}); its pack waits for its anchor by the bounty's awarder ${String(packed.value.details.awarder)}, and this service signs as ${String(packed.value.details.signer)}: only the awarder's anchoring binds the pack, so none was sent (the operator mints it with the awarder's key: award ${slug})`,
          DOOR_MINT_BACKOFF_MS / 1000,
        ),
        refusal: packed.value,
      };
    if (packed.value instanceof PlatformError) {
      const e = packed.value;
      return pendingPack(
        `the award is confirmed (transaction ${row.award_tx}); ${
          e.details.confirmations_required !== undefined
            ? "its pack's anchor waits for the confirmations this service requires: ask again later"
            : e.details.anchor_state === "unknown"
              ? `its pack's anchor transaction ${String(e.details.tx_hash)} was dropped before it was mined (it is sent anew): ask again in a moment`
              : `its pack's anchor transaction ${String(e.details.tx_hash)} is not mined yet: ask again in a moment`
        }`,
        typeof e.details.retry_after_seconds === "number"
          ? e.details.retry_after_seconds
          : DOOR_RETRY_SECONDS,
      );
    }
    const pack = packed.value;
    return { kind: "pack", pack_hash: pack.pack_hash, pack_size: pack.bytes.byteLength };
  }
  if (row && (row.status === "prepared" || row.status === "sent")) {
    // without a chain nothing tells where the award is: never "not awarded yet" for one this store made
    // (probe14 D3-F9: a store opened without --rpc-url said so for a sent award)
    if (!ctx.chain)
      return {
        kind: "unavailable",
        reason: "award_pending",
        message:
          row.status === "sent"
            ? `an award transaction ${row.award_tx} was sent; its state cannot be read without a chain (--rpc-url)`
            : "an award was prepared (it may have been sent); its state cannot be read without a chain (--rpc-url)",
      };
    // how far the chain's reading got when the deadline came (probe28 C-F9: an award mined and recorded,
    // its pack's anchor pending, was answered "the chain answered too slowly to say where it is")
    const reached: { recorded?: string } = {};
    const fromChain = await byDeadline(
      awardFromChain(ctx, slug, row.award_tx, by, reached).catch((e: unknown) =>
        operatorsProblem(ctx, slug, e) === "operator"
          ? {
              kind: "unavailable" as const,
              reason: "award_pending" as const,
              message: `an award was ${row.status}; where it is could not be read from the chain just now: ask again later`,
            }
          : null,
      ),
      by,
      () =>
        reached.recorded !== undefined
          ? packBeingMinted(reached.recorded)
          : {
              kind: "unavailable" as const,
              reason: "award_pending" as const,
              message: `an award was ${row.status} (${row.award_tx ? `transaction ${row.award_tx}` : "it may have been sent"}); the chain answered too slowly to say where it is: ask again in a moment`,
            },
    );
    if (fromChain) return fromChain;
  }
  return notYetAwarded(ctx, b, by);
}

/**
 * The door's one answer for a confirmed award whose pack is not minted by the deadline, whichever wait
 * ran out (the pack's own, or the chain's reading that recorded the award: CI29 saw both race).
 * @param awardTx the confirmed award's transaction hash, if recorded
 */
function packBeingMinted(awardTx: string | null | undefined): AwardEvidenceHead {
  return pendingPack(
    `the award is confirmed${awardTx ? ` (transaction ${awardTx})` : ""}; its pack is being minted: ask again in a moment`,
    DOOR_RETRY_SECONDS,
  );
}

/**
 * A `pack_pending` answer (the door's 503) saying when to ask again: `details.retry_after_seconds`
 * (REST's `Retry-After`, MCP's details), every one of them (probe38 C-F3).
 * @param retryAfterSeconds seconds, rounded up to an integer >= 1
 */
function pendingPack(message: string, retryAfterSeconds: number): AwardEvidenceUnavailable {
  return {
    kind: "unavailable",
    reason: "pack_pending",
    message,
    details: { retry_after_seconds: Math.max(1, Math.ceil(retryAfterSeconds)) },
  };
}

/**
 * How long (ms, platform clock) the door makes no new attempt to mint a confirmed award's pack after one
 * failed for the operator's reasons ({@link operatorsProblem}: the RPC failing, the platform account
 * without ETH for the anchor, another chain configured): 30 s, per benchmark and process. Meanwhile
 * every read answers `pack_pending` from memory with the seconds left (`retry_after_seconds`), minting
 * nothing (probe38 C-F3: each anonymous read minted the whole pack again, ~1 s of the event loop per
 * 11 MB, and held every other request of the service). The operator's `award` is not held back.
 */
export const DOOR_MINT_BACKOFF_MS = 30_000;

/**
 * The `retry_after_seconds` of a `pack_pending` for work under way (the pack being minted, its anchor
 * waiting for confirmations): 5 s, the door's own deadline.
 */
export const DOOR_RETRY_SECONDS = 5;

/** What one door mint of a confirmed award's pack came to: the pack, or why none (a value, not thrown). */
type DoorMintOutcome = Awaited<ReturnType<typeof ensurePack>> | PlatformError;

/** A benchmark's door mint: the one in flight, and the back-off after a failed one (platform clock, ms). */
interface DoorMintState {
  inFlight: Promise<DoorMintOutcome | "operator" | null> | null;
  /** when the last mint failed for the operator's reasons */
  failedAt: number;
  /** from when a new mint may start */
  retryAt: number;
  /**
   * The last mint's `pack_pending` (its anchor not mined, or not deep enough) and until when (platform
   * clock, ms) it answers the reads instead of a new mint: each would mint the whole pack again only to
   * find the same anchor pending (e38's note beside probe38 C-F3)
   */
  pending: { value: PlatformError; until: number } | null;
}

/** The door mints of each process, by benchmark slug. */
const doorMints = new WeakMap<PlatformContext, Map<string, DoorMintState>>();

/**
 * The door's mint of the pack of `slug`'s confirmed award (`ensurePack` under the award's lock),
 * shared (probe38 C-F3): one per benchmark in flight, every concurrent reader waiting (by its own `by`)
 * for the same one; after one that failed for the operator's reasons ({@link operatorsProblem}, logged
 * once), no new one for {@link DOOR_MINT_BACKOFF_MS}, answered `backoff` with the time it ends; after one
 * that found the pack's anchor pending, its `pack_pending` answers the reads of the next
 * `retry_after_seconds` (default {@link DOOR_RETRY_SECONDS}) with the seconds left, minting nothing. Its
 * work goes on past a reader's deadline under the lock (counted with the award calls, stopped by close).
 * @returns the pack or the `pack_pending` / signer refusal (`value`), `backoff`, or null when the lock or
 *   the mint outlasted `by`
 * @throws what `ensurePack` throws that is neither (a bug)
 */
async function sharedDoorMint(
  ctx: PlatformContext,
  slug: string,
  by: number,
): Promise<{ kind: "done"; value: DoorMintOutcome } | { kind: "backoff"; retryAt: number } | null> {
  let mints = doorMints.get(ctx);
  if (!mints) doorMints.set(ctx, (mints = new Map()));
  let state = mints.get(slug);
  if (!state) mints.set(slug, (state = { inFlight: null, failedAt: 0, retryAt: 0, pending: null }));
  const now = ctx.clock();
  // a clock set back (now before the failure) ends the back-off
  if (!state.inFlight && now < state.retryAt && now >= state.failedAt)
    return { kind: "backoff", retryAt: state.retryAt };
  const pending = state.pending;
  if (!state.inFlight && pending !== null && now < pending.until)
    return { kind: "done", value: withRetryAfter(pending.value, (pending.until - now) / 1000) };
  const mint = (state.inFlight ??= startDoorMint(ctx, slug, by, state));
  const value = await byDeadline(mint, by, () => null);
  if (value === null) return null;
  if (value === "operator") return { kind: "backoff", retryAt: state.retryAt };
  return { kind: "done", value };
}

/** `pending` with `retry_after_seconds` set to `seconds` (rounded up, at least 1): the time left of its window. */
function withRetryAfter(pending: PlatformError, seconds: number): PlatformError {
  return new PlatformError(pending.code, pending.message, {
    ...pending.details,
    retry_after_seconds: Math.max(1, Math.ceil(seconds)),
  });
}

/** The one door mint of {@link sharedDoorMint}: sets the back-off when it fails for the operator's reasons. */
function startDoorMint(
  ctx: PlatformContext,
  slug: string,
  by: number,
  state: DoorMintState,
): Promise<DoorMintOutcome | "operator" | null> {
  state.pending = null;
  const mint = lockedForDoor(ctx, slug, by, async () => {
    const bench = await getBenchmark(ctx, slug);
    const fresh = (await awardRow(ctx, slug))!;
    // the anchor's transaction waited for by the door's deadline only, and not past a stop of the
    // process: the mint left running after the answer ends with it (probe33 C-F3: viem's 180 s wait
    // held the CLI's `evidence` for 3 minutes after it printed "ask again in a moment")
    return ensurePack(ctx, bench, fresh, preparedAward(fresh), { until: by, stop: ctx.awardCalls.signal });
  })
    .catch((e: unknown): DoorMintOutcome | "operator" => {
      // its anchor not mined by the deadline, or not yet as deep as the store's depth (probe30 C-F8), or
      // this process signs with another key than the awarder's (probe36 C-F1): nothing stored yet
      if (e instanceof PlatformError && e.code === "pack_pending") {
        const seconds =
          typeof e.details.retry_after_seconds === "number"
            ? e.details.retry_after_seconds
            : DOOR_RETRY_SECONDS;
        state.pending = { value: e, until: ctx.clock() + 1000 * seconds };
        return e;
      }
      if (isSignerNotAwarder(e)) return e;
      const theirs = operatorsProblem(ctx, slug, e);
      state.failedAt = ctx.clock();
      state.retryAt = state.failedAt + DOOR_MINT_BACKOFF_MS;
      return theirs;
    })
    .finally(() => {
      state.inFlight = null;
    });
  return mint;
}

/**
 * The door when the store is not sure (issue 13 item 7): the award is prepared or sent but not recorded
 * as confirmed (a crash between sending and recording it, or a transaction in flight). The chain says
 * where it is ({@link awardChainState}): a pending transaction (recorded as sent, or the prepared call
 * waiting in the pool after a crash before it was recorded) answers `award_pending`; a mined one, or an
 * `Awarded` log of the bounty that is the prepared award (its ranking digest, winners and amounts:
 * `findOwnAward`), is adopted (recorded as confirmed, under the award's lock, never sent again) and its
 * pack served; a reverted one is `not_awarded`, saying so. A bounty awarded on-chain by another award
 * (another ranking digest, or the prepared one paying other winners or amounts: nothing minted or recorded
 * here, probe24 C-F3, probe36 C-F4) is `awarded_elsewhere`, with the award's transaction, block and
 * ranking digest and the prepared digest in `details` (never `not_awarded` while the chain says Awarded,
 * probe37 C-F2). Null when the chain shows no award.
 * `reached.recorded` is set to the transaction once the award is recorded (the caller's deadline answer).
 * `awardTx` is the award row's transaction (null while only prepared): the shared read's key.
 */
async function awardFromChain(
  ctx: PlatformContext,
  slug: string,
  awardTx: string | null,
  by: number,
  reached: { recorded?: string } = {},
): Promise<AwardEvidenceHead | null> {
  // read the chain outside the award's lock (an `award` waiting for its transaction holds it), one read
  // per benchmark and award transaction shared by every reader for BOUNTY_READ_TTL_MS (5 s), a failure
  // included; a mined award is never answered from an old read (probe38 C-F3: three RPC calls per
  // anonymous read of a sent award)
  const read = sharedChainRead(
    ctx,
    `award-state\n${slug}\n${awardTx ?? ""}`,
    () => awardChainState(ctx, slug),
    (s) => s.state !== "mined",
  );
  const state = await read.catch((e: unknown) => {
    // awarded elsewhere (probe24 C-F3, probe36 C-F4): the door's 404 `awarded_elsewhere` (probe37 C-F2),
    // not the operator's 409 `bounty_mismatch` (the award still answers that)
    // (another chain or contract configured, `details.field`, is the operator's problem, not this)
    if (!(e instanceof PlatformError && e.code === "bounty_mismatch" && e.details.ranking_digest)) throw e;
    const d = e.details;
    return {
      state: "elsewhere" as const,
      message: `${e.message}: that award is not this store's, so it has no pack to serve`,
      details: {
        ...(d.award_tx !== undefined ? { award_tx: d.award_tx, award_block: d.award_block } : {}),
        ...(d.awarded_ranking_digest !== undefined
          ? { awarded_ranking_digest: d.awarded_ranking_digest }
          : {}),
        prepared_ranking_digest: d.ranking_digest,
      },
    };
  });
  if (state.state === "elsewhere") {
    const b = await getBenchmark(ctx, slug);
    return {
      kind: "unavailable",
      reason: "awarded_elsewhere",
      message: state.message,
      details: { bounty_id: b.bounty?.bounty_id ?? null, ...state.details },
    };
  }
  if (state.state === "pending")
    return {
      kind: "unavailable",
      reason: "award_pending",
      message: `the award transaction ${state.tx_hash} is pending (sent, not mined yet)`,
    };
  if (state.state === "reverted") {
    const b = await getBenchmark(ctx, slug);
    const never = b.bounty ? await noNewAward(ctx, slug, BigInt(b.bounty.bounty_id)) : null;
    return {
      kind: "unavailable",
      reason: "not_awarded",
      message: never
        ? `the award transaction ${state.tx_hash} reverted: nothing was paid, and no award can be sent any more: ${never.message}`
        : `the award transaction ${state.tx_hash} reverted: nothing was paid; the operator's next award sends a new one`,
    };
  }
  if (state.state !== "mined") return null;
  // mined, but not as deep as the service waits for (`awardConfirmations`): still pending to the reader
  const shallow: { message: string | null } = { message: null };
  const adopted = await underDoorLock(ctx, slug, by, async () => {
    const fresh = (await awardRow(ctx, slug))!;
    if (fresh.status === "prepared" || fresh.status === "sent")
      await recordConfirmed(ctx, slug, state.tx_hash!, state.block!).catch((e: unknown) => {
        if (!(e instanceof PlatformError && e.code === "award_pending")) throw e;
        shallow.message = e.message;
      });
    return true;
  });
  if (shallow.message !== null)
    return { kind: "unavailable", reason: "award_pending", message: shallow.message };
  if (!adopted)
    return {
      kind: "unavailable",
      reason: "award_pending",
      message: `the award transaction ${state.tx_hash} is mined; the award is being recorded`,
    };
  reached.recorded = state.tx_hash!;
  return doorAnswer(ctx, slug, by);
}

/**
 * The errors of the door's chain work (recovering a sent award, minting its pack) that are the operator's
 * to fix, not a reader's (probe26 C-F2): the chain RPC failing, the platform account without ETH for the
 * pack's anchor (`chain_error`, naming the account and its balance), a chain or contract configured other
 * than the attached bounty's (`bounty_mismatch` with `details.field`). The door answers them from the
 * store like a chain that answers slowly (`award_pending` / `pack_pending`), and they go to the
 * operator's log (`ChainConfig.log`, default stderr: serve's log), never to the reader.
 * @returns `"operator"` when `e` is one (logged)
 * @throws `e` otherwise
 */
function operatorsProblem(ctx: PlatformContext, slug: string, e: unknown): "operator" {
  // a read-only process (no key: the CLI's `evidence`) is told it cannot mint, as before (its caller says how)
  const theirs =
    e instanceof PlatformError &&
    ((e.code === "chain_error" && e.details.read_only !== true) ||
      (e.code === "bounty_mismatch" && e.details.field !== undefined));
  if (!theirs) throw e;
  // a shared read's failure is logged once, not once per reader that waited for it
  if (loggedProblems.has(e)) return "operator";
  loggedProblems.add(e);
  const log = ctx.chain?.config.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  log(`bench-bounty: evidence door ${slug}: ${e.code}: ${e.message}`);
  return "operator";
}

/** The operator's problems {@link operatorsProblem} logged already (a shared read's, once). */
const loggedProblems = new WeakSet<object>();

/**
 * How long (ms) a door request waits in all, for the award's lock and the chain's reads together,
 * before answering from the store that the award or its pack is under way (probe14 D3-F7, probe16
 * A-F3: the chain's reads took a door request to 41 s on a slow RPC).
 */
export const DOOR_WAIT_MS = 5_000;

/**
 * Runs `fn` under the award's lock for a door request, by `by` (unix ms): a read never waits long on an
 * award that holds the lock while it waits for its transaction or mints its pack (probe14 D3-F7's
 * class), nor on `fn`'s chain reads (it goes on, under the lock, after the answer). Its work is counted
 * with the award calls (`ctx.awardCalls`), so `Platform.close` stops it (its anchor wait ends at the
 * stop) and waits for it before closing the store (probe33 C-F3).
 * @returns `fn`'s result, or null when the lock stayed held, or `fn` ran, until `by`
 */
function underDoorLock<T>(
  ctx: PlatformContext,
  slug: string,
  by: number,
  fn: () => Promise<T>,
): Promise<T | null> {
  return byDeadline(lockedForDoor(ctx, slug, by, fn), by, () => null);
}

/**
 * {@link underDoorLock} without its deadline: `fn` under the award's lock, the lock waited for until
 * `by` (null past it), counted with the award calls; the promise ends when `fn` does.
 */
function lockedForDoor<T>(
  ctx: PlatformContext,
  slug: string,
  by: number,
  fn: () => Promise<T>,
): Promise<T | null> {
  const locked = ctx.store
    .withLock(awardLock(slug), fn, { waitMs: Math.max(0, by - Date.now()) })
    .catch((e: unknown) => {
      if (e instanceof LockWaitExpired) return null;
      throw e;
    });
  ctx.awardCalls.track(locked);
  return locked;
}

/**
 * The SPEC 8 reason of a benchmark without an award (yet); the chain's bounty status if read by `by`
 * (`bountyForRead`: shared with the detail's reads, at most 5 s old). With a chain configured and no
 * answer by `by` (a slow or failing RPC), `bounty_status_unknown` with `retry_after_seconds`: the bounty
 * may be Awarded there by a key acting outside this store, so never `not_awarded` nor
 * `withheld_live_contest` from the recorded status (probe39 C-F1). Only a chainless store answers from
 * the recorded status.
 */
async function notYetAwarded(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  by: number,
): Promise<AwardEvidenceUnavailable> {
  const squat = b.commitment_anchor ? null : await ctx.store.anchors.squatOf(b.commit_root);
  if (squat)
    return {
      kind: "unavailable",
      reason: "anchor_squatted",
      message: `the benchmark's root was anchored first by ${squat.anchorer} in block ${squat.anchor_block} with kind ${squatFacts(squat).found_kind}: it can never be anchored as a commitment, so no award can be verified`,
    };
  if (!b.commitment_anchor)
    return {
      kind: "unavailable",
      reason: "no_commitment",
      message: "the benchmark's commitment is not anchored",
    };
  if (!b.bounty)
    return {
      kind: "unavailable",
      reason: "not_verifiable_arm",
      message: "no on-chain bounty binds this benchmark's root: it never reveals",
    };
  let status = b.bounty.status;
  let awardDeadline = BigInt(b.bounty.award_deadline);
  if (!isFinalBountyStatus(status)) {
    // the chain's view shared with the other reads (probe19 A-F7), by the door's deadline (probe16
    // A-F3); the recorded status only without a chain (a chainless store: nothing else to go by)
    const onChain = await bountyForRead(ctx, BigInt(b.bounty.bounty_id), by);
    if (onChain) {
      status = statusName(onChain.status);
      awardDeadline = onChain.awardDeadline;
    } else if (ctx.chain) {
      // the chain did not answer in time, or its read failed: the bounty may be Awarded (or reclaimed)
      // there by a key acting outside this store, so neither "not awarded yet" nor "live until" from
      // the recorded `funded` (probe39 C-F1)
      return {
        kind: "unavailable",
        reason: "bounty_status_unknown",
        message: `bounty ${b.bounty.bounty_id}'s status could not be read from the chain just now (it answered too slowly, or the read failed): whether it is awarded cannot be told: ask again in a moment`,
        details: { bounty_id: b.bounty.bounty_id, retry_after_seconds: DOOR_RETRY_SECONDS },
      };
    }
  }
  if (status === "reclaimed")
    return {
      kind: "unavailable",
      reason: "reclaimed_never_reveals",
      message: "the prize was reclaimed without an award: the test set is never revealed",
    };
  if (status === "awarded")
    // Awarded on-chain with no award prepared in this store (the awarder acted elsewhere): nothing to
    // adopt; awarded, never `not_awarded` (probe37 C-F2)
    return {
      kind: "unavailable",
      reason: "awarded_elsewhere",
      message: `bounty ${b.bounty.bounty_id} is Awarded on-chain, but this store prepared no award for it: it has no pack to serve`,
      details: { bounty_id: b.bounty.bounty_id, prepared_ranking_digest: null },
    };
  if (await isOpen(ctx, b, "read", by))
    return {
      kind: "unavailable",
      reason: "withheld_live_contest",
      message: `the contest is live until ${b.bounty.closes_at} (unix seconds)`,
    };
  // past the award window by the chain's clock (shared, by the door's deadline), no award can come any
  // more (probe29 C-F5: "not awarded yet" was said to competitors waiting for a prize the author may reclaim)
  const chainTime = status === "funded" ? await chainTimeForRead(ctx, by) : null;
  const passed = chainTime === null ? null : awardWindowPassed(awardDeadline, chainTime);
  if (passed)
    return {
      kind: "unavailable",
      reason: "not_awarded",
      message: `the contest is closed and no award can come any more: ${passed.message}`,
    };
  return { kind: "unavailable", reason: "not_awarded", message: "the contest is closed but not awarded yet" };
}
