/**
 * Bounty: lock, attach and close (SPEC 1.1, 7): the author's side before the award.
 */
import { addressForm } from "@bench-bounty/contracts";
import type { Hex } from "@bench-bounty/evidence";
import type { Address } from "viem";
import type { AttachedBounty, BenchmarkRecord, PlatformContext, WriteHow } from "../context.js";
import { signerAccount, type OnChainBounty } from "../chain.js";
import { PlatformError } from "../errors.js";
import { anchorCommitment, getBenchmark } from "../publish.js";
import { shownDigest, withheldDigests } from "../reveal.js";
import {
  assertAttachableBounty,
  assertAwardWindow,
  assertBountyTerms,
  assertServiceParties,
  type ServiceBountyParties,
} from "../terms.js";
import { assertAuthorOrOperator, isAuthorOf } from "../identity/access.js";
import { assertKeyActive } from "../identity/key-check.js";
import { isAuthorAgent } from "../agents.js";
import type { Tables } from "../store.js";
import type { Principal } from "../identity/principal.js";
import { isoMillis } from "../time.js";
import { chainOf, statusName } from "./state.js";
import { bountyKey } from "../store/bounty-key.js";
import { isUniqueViolation } from "../store/executor.js";

/** Options of {@link lockBounty}. Amounts in base units, times in unix seconds. */
export interface LockOptions {
  /** The author's private key: it approves and pays the pool. */
  authorPrivateKey: Hex;
  /** Pool in token base units (USDC has 6 decimals: 50 USDC = 50000000). */
  pool: bigint | string | number;
  /** Unix seconds at which the contest closes (runs stop, the award may be sent). */
  closesAt: number;
  /** Unix seconds, after `closesAt`: the last moment for the award, after which the author may reclaim. */
  awardDeadline: number;
  /** Composite threshold in basis points (0..10000). */
  thresholdBps: number;
  /** `winner_take_all` ([10000]) or `top_n_split` ([5000, 3000, 2000]); required unless `splitsBps` is given. */
  payoutRule?: "winner_take_all" | "top_n_split";
  /** Explicit splits (overrides payoutRule). */
  splitsBps?: number[];
  /** Token (default: the configured USDC; any other is refused before anything is sent). */
  token?: Address;
  /** Awarder (default: the platform account; any other is refused before anything is sent). */
  awarder?: Address;
}

/**
 * The token and awarder this service accepts (`terms.ts`): the configured USDC of the chain and the
 * platform account, which sends `award`.
 */
export function serviceParties(chain: NonNullable<PlatformContext["chain"]>): ServiceBountyParties {
  return { usdc: chain.config.contracts.usdc?.toLowerCase() ?? null, awarder: chain.address };
}

/**
 * Attaches an on-chain bounty to a benchmark after checking that it commits to the same root and leaf
 * count, that its token is the configured USDC and its awarder the service's, and that its terms pass
 * the one terms rule and an award window of at least `MIN_AWARD_WINDOW_SECONDS` (`assertAttachableBounty`).
 * A caller other than the benchmark's author (the operator) must declare the bounty's on-chain author
 * (`expect.author`, {@link assertAuthorDeclared}). The bounty's `closesAt` becomes the benchmark's close.
 * Only a funded bounty is attached (an awarded or reclaimed one is final), and a bounty (chain id,
 * contract, id) is attached to at most one benchmark of the store (unique `bounty_key`, migration 0011):
 * the benchmark whose root it commits to, which is one benchmark since a publish refuses a root already
 * published (probe27 A-F2). The store's checks and the write are one transaction under the benchmark's
 * row lock: of concurrent attaches exactly one wins (probe27 A-F5).
 * @throws PlatformError `invalid_option` (`bounty_id`, and `author` or `pool_base_units` of `expect` per
 *   {@link checkAttachExpectations}, `author` missing for a caller not the author, before any chain read),
 *   `award_window_too_short` (`details: {award_window_seconds, minimum_seconds, closes_at, award_deadline}`,
 *   nothing stored), `no_chain`, `bounty_mismatch` (root, leaf
 *   count, declared author or pool, another bounty attached to the benchmark, the bounty attached to
 *   another benchmark: `details.attached_to`), `invalid_bounty` (token, awarder, a term, or a status
 *   other than funded: `details.field: "status"`; with `details.expected` / `details.actual`),
 *   `chain_error`, `server_busy` (a lock wait past `how.answerBy`, {@link WriteHow}: nothing written),
 *   `benchmark_closed` (closed before a bounty was attached: {@link assertPrizeMayAttach}), `invalid_bounty`
 *   naming `closes_at` (its close not after the next block's time, unless it is the bounty already attached:
 *   {@link assertCloseAhead}),
 *   `winner_without_withdrawal_address` (a run that ranks or may still rank belongs to an agent without a
 *   withdrawal address: {@link assertRunsPayable}; nothing written)
 * @throws PlatformError `forbidden` (`details.rule: "known_key"`) when the calling key was revoked before
 *   the write (`assertKeyActive`, checked in its transaction: probe39 A-F2); nothing written
 */
export async function attachBounty(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
  bountyId: bigint,
  expect: AttachExpectations = {},
  how: WriteHow = {},
): Promise<AttachedBounty> {
  if (bountyId < 1n || bountyId >= 2n ** 256n)
    throw new PlatformError(
      "invalid_option",
      `bounty_id must be an integer from 1 to 2^256-1, got ${bountyId}`,
      { field: "bounty_id" },
    );
  checkAttachExpectations(expect);
  // the owner rule first: a stranger learns nothing (not even that no chain is configured)
  const b = await getBenchmark(ctx, slug);
  assertAuthorOrOperator(p, b);
  const chain = chainOf(ctx);
  assertAuthorDeclared(p, b, expect); // before any chain read
  const onchain = await chain.getBounty(bountyId);
  if (onchain.status === 0)
    throw new PlatformError("bounty_mismatch", `bounty ${bountyId} does not exist`, {
      bounty_id: String(bountyId),
    });
  if (onchain.testSetRoot.toLowerCase() !== b.commit_root || onchain.leafCount !== b.leaf_count) {
    // the benchmark's root is named only once anchored (reveal.ts; probe15 A-F2)
    const root = shownDigest(b.commit_root, await withheldDigests(ctx.store, [b.commit_root]));
    throw new PlatformError(
      "bounty_mismatch",
      `bounty ${bountyId} commits to root ${onchain.testSetRoot} (${onchain.leafCount} leaves), the benchmark to ${root ?? "a root whose anchor is pending"} (${b.leaf_count})`,
      { bounty_id: String(bountyId), on_chain_root: onchain.testSetRoot, commit_root: root },
    );
  }
  checkExpectations(bountyId, onchain, expect);
  // only a funded bounty pays: an awarded or reclaimed one is final on-chain (probe27 A-F2 variant)
  const status = statusName(onchain.status);
  if (status !== "funded")
    throw new PlatformError(
      "invalid_bounty",
      `bounty ${bountyId} is ${status} on-chain, not funded: only a funded bounty can be attached`,
      { bounty_id: String(bountyId), field: "status", expected: "funded", actual: status },
    );
  assertAttachableBounty(serviceParties(chain), bountyId, onchain);
  const attached: AttachedBounty = {
    chain_id: chain.config.chainId,
    bounty_contract: chain.config.contracts.benchmarkBounty.toLowerCase(),
    bounty_id: String(bountyId),
    token: onchain.token.toLowerCase(),
    author: onchain.author.toLowerCase(),
    awarder: onchain.awarder.toLowerCase(),
    pool_base_units: onchain.pool.toString(),
    closes_at: Number(onchain.closesAt),
    award_deadline: Number(onchain.awardDeadline),
    threshold_bps: onchain.thresholdBps,
    splits_bps: [...onchain.splitsBps],
    status: statusName(onchain.status),
  };
  // its close by the chain's clock (probe38 C-N1): the next block's time, the earliest block anything
  // (a receipt's anchor, the award) can land in, not the latest block's, long past on an idle node
  // (probe38 V-F1, as the lock judges it: C-F2); read before the store's transaction
  const nextBlockTime = await chain.pendingTimestamp();
  // The chain was read before; the rules are checked again and the bounty written in one transaction
  // under the benchmark's row lock (probe27 A-F5: two concurrent attaches both passed the check, the
  // later silently replaced the earlier); the unique bounty key decides a race with another benchmark.
  try {
    await ctx.store.tx(
      async (t) => {
        await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
        const now = await getBenchmark(ctx, slug, t, { lock: true });
        assertAttachable(now, attached, await t.benchmarks.slugOfBounty(attached));
        assertPrizeMayAttach(now, attached);
        assertCloseAhead(now, attached, nextBlockTime);
        await assertRunsPayable(t, now);
        await t.benchmarks.setBounty(slug, attached);
      },
      { locksBy: how.answerBy, account: p.account_id },
    );
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    throw attachedElsewhere(
      attached,
      (await ctx.store.benchmarks.slugOfBounty(attached)) ?? "another benchmark",
    );
  }
  return attached;
}

/**
 * The operator attaching a bounty to another author's benchmark names the bounty's on-chain author
 * (probe38 C-F1: the operator attached a stranger's 1-USDC bounty on the root a competitor copied from the
 * public commitment, binding the author's benchmark to it for good): `expect.author` is required of any
 * caller but the benchmark's author, and {@link checkExpectations} then refuses a bounty whose on-chain
 * author differs (`bounty_mismatch`). Checked before any chain read.
 * @throws PlatformError `invalid_option` (`details: {field: "author", rule: "author_required"}`)
 */
function assertAuthorDeclared(
  p: Principal,
  b: Pick<BenchmarkRecord, "slug" | "author_account_id">,
  expect: AttachExpectations,
): void {
  if (expect.author !== undefined || isAuthorOf(p, b)) return;
  throw new PlatformError(
    "invalid_option",
    `author is required: you are not the author of ${b.slug}, so name the address that locked the bounty (its on-chain author) and the attach checks it`,
    { field: "author", rule: "author_required" },
  );
}

/**
 * The store's half of the attach rule (probe27 A-F2, A-F5), checked under the benchmark's row lock: a
 * benchmark has one bounty (another attached is `bounty_mismatch`, the same bounty again refreshes its
 * facts), and a bounty (chain id, contract, id) is attached to one benchmark (`holder`: the benchmark it
 * is attached to in this store, or null).
 * @throws PlatformError `bounty_mismatch` (`details.bounty_id`; `details.attached_to` for another benchmark's)
 */
function assertAttachable(b: BenchmarkRecord, attached: AttachedBounty, holder: string | null): void {
  if (b.bounty && bountyKey(b.bounty) !== bountyKey(attached))
    throw new PlatformError(
      "bounty_mismatch",
      `benchmark ${b.slug} already has bounty ${b.bounty.bounty_id}`,
      { bounty_id: b.bounty.bounty_id },
    );
  if (holder !== null && holder !== b.slug) throw attachedElsewhere(attached, holder);
}

/**
 * A prize attaches to a benchmark still open to new runs (probe37 C-F3): a benchmark closed before a
 * bounty was attached (`bench-bounty close`) would pay only the runs already there, while the bounty's
 * on-chain `closesAt` promises competitors a later close. Re-attaching the bounty already attached (which
 * refreshes its facts) is not refused: the award closes the benchmark it pays.
 * @param attached the bounty about to be attached, or null (a lock, before anything is sent)
 * @throws PlatformError `benchmark_closed` (`details: {slug, status, closed_at, closed_by: "status"}`)
 */
export function assertPrizeMayAttach(b: BenchmarkRecord, attached: AttachedBounty | null): void {
  if (b.status === "published") return;
  if (b.bounty && attached && bountyKey(b.bounty) === bountyKey(attached)) return;
  throw new PlatformError(
    "benchmark_closed",
    `benchmark ${b.slug} is ${b.status} (closed at ${b.closed_at ?? "an unknown time"}): a prize attached now would go only to the runs already there; publish a fresh benchmark for the prize`,
    { slug: b.slug, status: b.status, closed_at: b.closed_at, closed_by: "status" },
  );
}

/**
 * A prize attaches only while its on-chain close is ahead of the chain's clock (probe38 C-N1): a bounty
 * whose `closesAt` has passed would close the open benchmark at once (its detail closed, the award due),
 * cutting off the runs in progress and paying only the runs already there, which {@link assertPrizeMayAttach}
 * refuses for a benchmark closed before. The close is judged by the next block's time (the pending block,
 * the earliest block anything can land in: probe38 V-F1), not the latest block's, which on an idle node is
 * minutes old: a close between the two would close the benchmark at the very next block. No lead is asked
 * (an attach sends nothing). Re-attaching the bounty already attached (which refreshes its facts) is not
 * refused: an attach may be retried after the close.
 * @param nextBlockTime the pending block's time (`ChainGateway.pendingTimestamp`), unix seconds
 * @throws PlatformError `invalid_bounty` (`details: {bounty_id, field: "closes_at", expected, actual,
 *   next_block_time}`, unix seconds; nothing stored)
 */
function assertCloseAhead(b: BenchmarkRecord, attached: AttachedBounty, nextBlockTime: bigint): void {
  if (b.bounty && bountyKey(b.bounty) === bountyKey(attached)) return;
  if (BigInt(attached.closes_at) > nextBlockTime) return;
  throw new PlatformError(
    "invalid_bounty",
    `bounty ${attached.bounty_id}: closes_at ${attached.closes_at} (${new Date(attached.closes_at * 1000).toISOString()}) is not after the next block's time ${nextBlockTime} (${new Date(Number(nextBlockTime) * 1000).toISOString()}): attached now, it would close ${b.slug} at the next block and go only to the runs already there; lock a bounty that closes later; nothing was attached`,
    {
      bounty_id: attached.bounty_id,
      field: "closes_at",
      expected: `after ${nextBlockTime}`,
      actual: attached.closes_at,
      next_block_time: Number(nextBlockTime),
    },
  );
}

/** How many agent ids a {@link assertRunsPayable} refusal names (the count is always given). */
export const UNPAYABLE_AGENTS_NAMED = 20;

/**
 * A prize never attaches while a run of the benchmark that ranks or may still rank (finalized, or in
 * progress: it can still finalize) belongs to an agent that can win (not an author agent, SPEC 7.2:
 * {@link isAuthorAgent}) and has no withdrawal address (probe37 C-F4): the award refuses the whole
 * prize while such an agent is among the winners (`winner_without_withdrawal_address`), so its owner
 * could hold everyone's prize until the award deadline passes and the author reclaims the pool, the
 * test set never revealed. Such runs exist only when they started while the store was never used on a
 * chain (`storeAwardable`: the run start's rule, `assertPayable` of `runs/start.ts`). Checked by
 * `lockBounty` before anything is sent and by `attachBounty` under the benchmark's row lock; the award's
 * own check stays as the last guard. An address, once set, is never cleared, so the refusal is lifted
 * for good once each named agent sets one.
 * @param q the store, or the attach's transaction
 * @throws PlatformError `winner_without_withdrawal_address` (`details: {slug, agent_ids (at most
 *   {@link UNPAYABLE_AGENTS_NAMED}), agent_count, reason: "attach"}`)
 */
export async function assertRunsPayable(q: Tables, b: BenchmarkRecord): Promise<void> {
  const missing = new Set<string>();
  const seen = new Set<string>();
  for (const r of await q.runs.ofBenchmark(b.slug)) {
    if ((r.status !== "finalized" && r.status !== "in_progress") || seen.has(r.agent_id)) continue;
    seen.add(r.agent_id);
    const agent = await q.agents.get(r.agent_id);
    if (agent && !agent.withdrawal_address && !isAuthorAgent(agent, b.author_account_id))
      missing.add(r.agent_id);
  }
  if (missing.size === 0) return;
  const named = [...missing].sort().slice(0, UNPAYABLE_AGENTS_NAMED);
  throw new PlatformError(
    "winner_without_withdrawal_address",
    `benchmark ${b.slug} has runs of ${missing.size} agent(s) without a withdrawal address (${named.join(", ")}${missing.size > named.length ? ", ..." : ""}): a winner without one would block the whole award, so no prize is attached until each sets one (REST PUT /api/v1/accounts/me/withdrawal-address, MCP set_withdrawal_address, or bench-bounty agent ID --withdrawal-address ADDR); nothing was sent or attached`,
    { slug: b.slug, agent_ids: named, agent_count: missing.size, reason: "attach" },
  );
}

/** The refusal of a bounty attached to another benchmark: it pays that benchmark's competitors only. */
function attachedElsewhere(attached: AttachedBounty, holder: string): PlatformError {
  return new PlatformError(
    "bounty_mismatch",
    `bounty ${attached.bounty_id} is attached to benchmark ${holder}: a bounty pays the competitors of one benchmark`,
    { bounty_id: attached.bounty_id, attached_to: holder },
  );
}

/**
 * The first fact in which the bounty read on-chain differs from the one attached to `b` (SPEC 1.1, 7):
 * the chain id and BenchmarkBounty contract of `chain` against the attached bounty's recorded `chain_id` and
 * `bounty_contract` (the same id names another prize on another contract or chain), then, when `onchain` is
 * given, its test-set root and leaf count against the benchmark's commitment and its token, author, awarder
 * and pool against the attached record. The one rule of "this is the attached bounty": the award checks it
 * before anything is written or sent ({@link attachedBountyOnChain}), the detail before it shows "locked at".
 * @returns null when they agree, else the differing `field` with the attached value and the configured or
 *   on-chain one (addresses lower-case, amounts base-unit strings)
 */
export function attachedBountyDifference(
  chain: NonNullable<PlatformContext["chain"]>,
  b: BenchmarkRecord,
  attached: AttachedBounty,
  onchain?: OnChainBounty,
): { field: string; attached: string; actual: string } | null {
  const facts: [string, string, string][] = [
    ["chain_id", String(attached.chain_id), String(chain.config.chainId)],
    ["bounty_contract", attached.bounty_contract, chain.config.contracts.benchmarkBounty.toLowerCase()],
  ];
  if (onchain)
    facts.push(
      ["test_set_root", b.commit_root.toLowerCase(), onchain.testSetRoot.toLowerCase()],
      ["leaf_count", String(b.leaf_count), String(onchain.leafCount)],
      ["token", attached.token, onchain.token.toLowerCase()],
      ["author", attached.author, onchain.author.toLowerCase()],
      ["awarder", attached.awarder, onchain.awarder.toLowerCase()],
      ["pool_base_units", attached.pool_base_units, onchain.pool.toString()],
    );
  for (const [field, want, actual] of facts) if (want !== actual) return { field, attached: want, actual };
  return null;
}

/**
 * The attached bounty of `b` and the chain of `ctx`, once the configured chain id and BenchmarkBounty
 * contract are the bounty's recorded ones (the first two facts of {@link attachedBountyDifference}, read
 * from no chain): what the award's steps check before they read the bounty, and the pack's minting before
 * it anchors (review of probe26 C-F5: a confirmed award's pack was anchored on whatever chain the process
 * was configured with, and stored for good).
 * @throws PlatformError `no_chain`, `no_bounty`, `bounty_mismatch` (`details.field`, both chains and contracts)
 */
export function attachedChainOf(ctx: PlatformContext, b: BenchmarkRecord) {
  const chain = chainOf(ctx);
  const attached = b.bounty;
  if (!attached)
    throw new PlatformError(
      "no_bounty",
      `benchmark ${b.slug} has no bounty attached (lock or attach one first)`,
      {
        slug: b.slug,
      },
    );
  const where = {
    bounty_id: attached.bounty_id,
    attached: { chain_id: attached.chain_id, bounty_contract: attached.bounty_contract },
    configured: {
      chain_id: chain.config.chainId,
      bounty_contract: chain.config.contracts.benchmarkBounty.toLowerCase(),
    },
  };
  const place = (x: { chain_id: number; bounty_contract: string }) =>
    `BenchmarkBounty ${x.bounty_contract} on chain ${x.chain_id}`;
  const elsewhere = attachedBountyDifference(chain, b, attached);
  if (elsewhere)
    throw new PlatformError(
      "bounty_mismatch",
      `benchmark ${b.slug}'s bounty ${attached.bounty_id} is attached on ${place(where.attached)}, but this process is configured with ${place(where.configured)}: nothing was read, written or sent; configure the attached chain and contract (--chain-id, --bounty-contract)`,
      { ...where, field: elsewhere.field },
    );
  return { chain, attached, where, place };
}

/**
 * The attached bounty of `b` read fresh on-chain, once it is known to be the one attached
 * ({@link attachedBountyDifference}): the configured chain and contract are the recorded ones, and the
 * bounty there still carries the benchmark's root and leaf count and the attached token, author, awarder
 * and pool. Every step of the award that writes or sends reads the bounty through here (probe26 C-F5: an
 * award configured with another BenchmarkBounty paid that contract's bounty of the same id).
 * @throws PlatformError `no_chain`, `no_bounty`, `bounty_mismatch` (nothing read or written: `details.field`,
 *   `details.attached`, `details.configured` or `details.on_chain`, both chains and contracts), `chain_error`
 */
export async function attachedBountyOnChain(
  ctx: PlatformContext,
  b: BenchmarkRecord,
): Promise<OnChainBounty> {
  const { chain, attached, where, place } = attachedChainOf(ctx, b);
  const onchain = await chain.getBounty(BigInt(attached.bounty_id));
  const differs = attachedBountyDifference(chain, b, attached, onchain);
  if (differs)
    throw new PlatformError(
      "bounty_mismatch",
      `bounty ${attached.bounty_id} on ${place(where.configured)} is not the one attached to ${b.slug}: its ${differs.field} is ${differs.actual} on-chain, ${differs.attached} attached; nothing was written or sent`,
      { ...where, field: differs.field, on_chain: differs.actual, attached_value: differs.attached },
    );
  return onchain;
}

/**
 * A bounty id as a caller gives it: a bigint, a decimal string `^[1-9][0-9]*$`, or a safe integer
 * (a JSON number above 2^53 - 1 has already lost digits, so it is refused rather than guessed).
 * Negative, hexadecimal, fractional, exponent or zero-padded forms are refused; the range (1 to
 * 2^256 - 1) is checked by {@link attachBounty}.
 * @throws PlatformError `invalid_option` with `details.field: "bounty_id"`
 */
export function parseBountyId(v: bigint | string | number): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "string" && WHOLE_NUMBER.test(v)) return BigInt(v);
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 1) return BigInt(v);
  throw new PlatformError(
    "invalid_option",
    `bounty_id must be a whole number from 1 to 2^256-1 in decimal digits (a JSON number at most ${Number.MAX_SAFE_INTEGER}), got ${typeof v === "string" ? JSON.stringify(v.slice(0, 100)) : String(v)}`,
    { field: "bounty_id" },
  );
}

/** A whole number >= 1 in decimal digits, no sign and no leading zero: `bounty_id` and `pool_base_units`. */
const WHOLE_NUMBER = /^[1-9][0-9]*$/;

/**
 * The form of an attach's declarations, checked before any chain read (probe29 A-F6: a malformed
 * `author` was a 409 `bounty_mismatch` after the read, and `pool_base_units` `"05000000"` a mismatch of
 * the equal on-chain 5000000): `author` a 0x address of 40 hex digits (mixed case only with a valid
 * EIP-55 checksum: `addressForm`, the withdrawal-address rule), `pool_base_units` a whole number >= 1 in
 * decimal digits without a leading zero (the `bounty_id` rule).
 * @throws PlatformError `invalid_option` naming the field (`author`, `pool_base_units`)
 */
export function checkAttachExpectations(expect: AttachExpectations): void {
  if (expect.author !== undefined && addressForm(expect.author) !== "ok")
    throw new PlatformError(
      "invalid_option",
      `author must be a 0x address of 40 hex digits (mixed case only with a valid EIP-55 checksum), got ${JSON.stringify(expect.author.slice(0, 100))}`,
      { field: "author", reason: addressForm(expect.author) },
    );
  if (expect.pool_base_units !== undefined && !WHOLE_NUMBER.test(expect.pool_base_units))
    throw new PlatformError(
      "invalid_option",
      `pool_base_units must be a whole number >= 1 in decimal digits without a leading zero (token base units), got ${JSON.stringify(expect.pool_base_units.slice(0, 100))}`,
      { field: "pool_base_units" },
    );
}

/** What the author declares about the bounty they attach (each checked against the chain when given). */
export interface AttachExpectations {
  /** The author's address that locked it. */
  author?: string;
  /** The pool in base units. */
  pool_base_units?: string;
}

function checkExpectations(
  bountyId: bigint,
  onchain: { author: string; pool: bigint },
  expect: AttachExpectations,
): void {
  const mismatch = (field: string, declared: string, actual: string): never => {
    throw new PlatformError(
      "bounty_mismatch",
      `bounty ${bountyId}: ${field} on-chain is ${actual}, the request says ${declared}`,
      { bounty_id: String(bountyId), field, declared, on_chain: actual },
    );
  };
  if (expect.author !== undefined && expect.author.toLowerCase() !== onchain.author.toLowerCase())
    mismatch("author", expect.author, onchain.author);
  if (expect.pool_base_units !== undefined && expect.pool_base_units !== onchain.pool.toString())
    mismatch("pool_base_units", expect.pool_base_units, onchain.pool.toString());
}

/**
 * The author locks the prize: `approve` + `createAndFund` with the benchmark's root and leaf count,
 * then {@link attachBounty}.
 * Validates everything before sending anything: pool > 0 (and <= the author's balance, checked by the
 * gateway), threshold 0..10000, closesAt in the future, awardDeadline after closesAt, splits per
 * `validateSplits` of the evidence library: the one terms rule, `assertBountyTerms` (`terms.ts`), and
 * an award window (awardDeadline - closesAt) of at least `MIN_AWARD_WINDOW_SECONDS` (`assertAwardWindow`).
 * The close is judged by the block `createAndFund` can land in (probe38 C-F2): after the pending block's
 * time (not the latest block's: on an idle node it is long past) by more than {@link LOCK_CLOSE_LEAD_SECONDS},
 * room for the approve's block and createAndFund's.
 * A commitment whose anchor is pending is anchored first (the lock reveals the root on-chain).
 * The benchmark must still be open ({@link assertPrizeMayAttach}) and every run that ranks or may still
 * rank must be payable ({@link assertRunsPayable}): both are refused before anything is sent (a bounty
 * funded on-chain that the attach then refused would hold the author's pool until its award deadline).
 * @throws PlatformError `no_chain`, `invalid_option` (naming the field; a close too near: `closes_at` with
 *   `next_block_time` and `min_closes_at`), `chain_error` (naming the contract's custom error; after the
 *   approve was sent: `details.approve_tx` and `allowance_left`, read from the chain), `anchor_squatted` (the root was anchored first with another kind: nothing sent),
 *   `benchmark_closed`, `winner_without_withdrawal_address`, `award_window_too_short` (nothing sent)
 */
export async function lockBounty(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
  o: LockOptions,
): Promise<AttachedBounty> {
  // the owner rule first: a stranger learns nothing (not even that no chain is configured)
  const b = await getBenchmark(ctx, slug);
  assertAuthorOrOperator(p, b);
  const chain = chainOf(ctx);
  if (b.bounty)
    throw new PlatformError("bounty_mismatch", `benchmark ${slug} already has bounty ${b.bounty.bounty_id}`, {
      bounty_id: b.bounty.bounty_id,
    });
  let pool: bigint;
  try {
    pool = BigInt(o.pool);
  } catch (e) {
    // BigInt refuses a non-integer with a SyntaxError (text) or a RangeError (fractional number)
    if (!(e instanceof SyntaxError || e instanceof RangeError || e instanceof TypeError)) throw e;
    throw new PlatformError("invalid_option", "pool must be an integer number of base units", {
      field: "pool",
    });
  }
  for (const [field, v] of [
    ["closes_at", o.closesAt],
    ["award_deadline", o.awardDeadline],
  ] as const)
    if (!Number.isSafeInteger(v))
      throw new PlatformError("invalid_option", `${field} must be an integer of unix seconds, got ${v}`, {
        field,
      });
  if (o.splitsBps === undefined && o.payoutRule === undefined)
    throw new PlatformError(
      "invalid_option",
      "give payout_rule (winner_take_all | top_n_split) or splits_bps: no default for money rules",
      { field: "payout_rule" },
    );
  const unchecked = {
    pool,
    thresholdBps: o.thresholdBps,
    closesAt: BigInt(o.closesAt),
    awardDeadline: BigInt(o.awardDeadline),
    splitsBps: o.splitsBps ?? (o.payoutRule === "winner_take_all" ? [10000] : [5000, 3000, 2000]),
  };
  // The terms rule (SPEC 1.1, one place: evidence's checkBountyTerms): everything but chain time before
  // the chain is read, then "closes in the future" against the chain's clock.
  assertBountyTerms(unchecked);
  // what attach will demand, refused before the author's money moves
  const parties = serviceParties(chain);
  assertServiceParties(
    parties,
    { token: o.token ?? parties.usdc ?? "(none)", awarder: o.awarder ?? parties.awarder },
    "lock",
  );
  // the close is judged by the block createAndFund can land in (probe38 C-F2): the pending block's time
  // (as the award judges its window, probe30 C-F6), then a lead for the approve's block and its own
  const landing = await chain.pendingTimestamp();
  // the author's own funded bounty on the root (a lock cut after createAndFund, re-run near the close) is
  // adopted or named before the close is judged (probe38 V-N3)
  const author = signerAccount(o.authorPrivateKey, "authorPrivateKey").address.toLowerCase();
  const wanted: LockTerms = {
    author,
    token: (o.token ?? parties.usdc ?? "").toLowerCase(),
    awarder: (o.awarder ?? parties.awarder).toLowerCase(),
    pool,
    leafCount: b.leaf_count,
    closesAt: unchecked.closesAt,
    awardDeadline: unchecked.awardDeadline,
    thresholdBps: unchecked.thresholdBps,
    splitsBps: unchecked.splitsBps,
  };
  // the gateway's lock parameters for the benchmark's root with these times and money terms
  const lockParams = (
    t: Pick<typeof unchecked, "closesAt" | "awardDeadline" | "thresholdBps" | "splitsBps">,
  ) => ({
    authorPrivateKey: o.authorPrivateKey,
    ...(o.token ? { token: o.token } : {}),
    ...(o.awarder ? { awarder: o.awarder } : {}),
    pool,
    testSetRoot: b.commit_root,
    leafCount: b.leaf_count,
    closesAt: t.closesAt,
    awardDeadline: t.awardDeadline,
    thresholdBps: t.thresholdBps,
    splitsBps: t.splitsBps,
  });
  let terms: ReturnType<typeof assertBountyTerms>;
  try {
    terms = assertBountyTerms(unchecked, landing);
    assertCloseAfterLanding(terms.closesAt, landing);
  } catch (e) {
    const live = await chain.liveBountyOfRoot(lockParams(unchecked), landing);
    if (live === undefined) throw e;
    return adoptLiveBounty(ctx, p, slug, live, wanted, landing);
  }
  // an award window the service can award in (probe38 C-F1): what attach refuses, before money moves
  assertAwardWindow(terms.closesAt, terms.awardDeadline, "lock");
  // what attach refuses on the store's side, refused before the author's money moves (probe37 C-F3, C-F4)
  assertPrizeMayAttach(b, null);
  await assertRunsPayable(ctx.store, b);
  // the lock puts the root on-chain for everyone: it must be anchored (kind commitment) first, or a
  // stranger could anchor it first with another kind (probe15 A-F1; reveal.ts). Nothing is sent when
  // the anchoring fails (chain_error) or finds the root squatted (anchor_squatted).
  if (!b.commitment_anchor) await anchorCommitment(ctx, slug);
  let bountyId: bigint;
  try {
    ({ bountyId } = await chain.lockBounty(lockParams(terms)));
  } catch (e) {
    const live = liveBountyOfRoot(e);
    if (live === undefined) throw e;
    return adoptLiveBounty(ctx, p, slug, live, wanted, landing);
  }
  return attachBounty(ctx, p, slug, bountyId, { author });
}

/**
 * How many seconds after the pending block's time a lock's close must be at the least (probe38 C-F2): the
 * `approve` lands in the pending block at the earliest and `createAndFund` in a later one, after the approve's
 * receipt is read, and the contract refuses a close not after that block's time (`ClosesAtNotInFuture`). A
 * few blocks of a 2 s chain (Base) and a slow RPC's receipt wait; a close nearer than this would be refused
 * by the contract after the approve was sent.
 */
export const LOCK_CLOSE_LEAD_SECONDS = 30;

/**
 * The lock's own close rule, after the terms rule judged "closes in the future" by the pending block's time
 * `landing` (probe38 C-F2): `closesAt` must be more than {@link LOCK_CLOSE_LEAD_SECONDS} after `landing`,
 * or the contract would refuse `createAndFund` after the approve was sent (and its gas spent, the
 * allowance left standing).
 * @param closesAt the close, unix seconds
 * @param landing the pending block's time (`ChainGateway.pendingTimestamp`), unix seconds
 * @throws PlatformError `invalid_option` (`details: {field: "closes_at", closes_at, next_block_time,
 *   min_closes_at}`, unix seconds; nothing sent)
 */
function assertCloseAfterLanding(closesAt: bigint, landing: bigint): void {
  const min = landing + BigInt(LOCK_CLOSE_LEAD_SECONDS) + 1n;
  if (closesAt >= min) return;
  throw new PlatformError(
    "invalid_option",
    `closes_at ${closesAt} is only ${closesAt - landing} s after the next block's time ${landing} (${new Date(Number(landing) * 1000).toISOString()}): the approve and then createAndFund land in later blocks, and the contract refuses a close that is not after createAndFund's block, so the close must be at least ${min} (more than ${LOCK_CLOSE_LEAD_SECONDS} s after the next block); nothing was sent`,
    {
      field: "closes_at",
      closes_at: Number(closesAt),
      next_block_time: Number(landing),
      min_closes_at: Number(min),
    },
  );
}

/** The terms a lock asks for, as {@link adoptLiveBounty} compares them (addresses lower-case). */
interface LockTerms {
  /** The author's address (the lock's signer), which the attach checks against the bounty's. */
  author: string;
  token: string;
  awarder: string;
  pool: bigint;
  leafCount: number;
  closesAt: bigint;
  awardDeadline: bigint;
  thresholdBps: number;
  splitsBps: readonly number[];
}

/**
 * The bounty id of a `RootBoundToLiveBounty(author, root, bountyId)` refusal of the lock's simulation (the
 * author already has a live bounty on this root: SPEC 1.1, per author), else undefined.
 */
function liveBountyOfRoot(e: unknown): bigint | undefined {
  if (!(e instanceof PlatformError) || e.code !== "chain_error") return undefined;
  if (e.details.revert !== "RootBoundToLiveBounty") return undefined;
  const args = e.details.args;
  const id = Array.isArray(args) ? args[2] : undefined;
  return typeof id === "string" && /^[1-9][0-9]*$/.test(id) ? BigInt(id) : undefined;
}

/**
 * A lock refused because the author's own live bounty `bountyId` holds the benchmark's root (probe27
 * C-F4: a `lock` killed while its `createAndFund` was pending funded a bounty nothing recorded, and its
 * re-run answered a raw `RootBoundToLiveBounty` revert): when that bounty is Funded with exactly the
 * terms `wanted` (token, awarder, pool, leaf count, closes_at, award_deadline, threshold, splits), it is
 * the lock's own and is attached ({@link attachBounty}: every attach check applies) and returned; nothing
 * is sent. Otherwise 409 `bounty_exists` naming it and the first term that differs (or its status), so
 * that its author attaches it (`bench-bounty attach SLUG ID`) or reclaims it: never a second guess.
 * A funded bounty of other terms that can never be attached (probe38 V-N1: an award window under
 * `MIN_AWARD_WINDOW_SECONDS`, or a close not after the next block's time `landing`) is named so, with
 * `details.attachable: false` and why: the root stays bound to it until its award deadline, after which its
 * author may reclaim it (the contract refuses a reclaim before), or a fresh benchmark is published; no
 * attach is offered for it. An attachable one has `details.attachable: true`.
 * @param landing the pending block's time (`ChainGateway.pendingTimestamp`), unix seconds
 * @throws PlatformError `bounty_exists` (`details.bounty_id`, `status`, and `field`, `on_chain`, `requested`
 *   for a differing term; for a funded one `attachable`, and when false `reason` (`award_window_too_short` |
 *   `closed`), `closes_at`, `award_deadline`, `next_block_time`, unix seconds), and {@link attachBounty}'s
 */
async function adoptLiveBounty(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
  bountyId: bigint,
  wanted: LockTerms,
  landing: bigint,
): Promise<AttachedBounty> {
  const onchain = await chainOf(ctx).getBounty(bountyId);
  const status = statusName(onchain.status);
  const facts: [string, string, string][] = [
    ["token", onchain.token.toLowerCase(), wanted.token],
    ["awarder", onchain.awarder.toLowerCase(), wanted.awarder],
    ["pool_base_units", onchain.pool.toString(), wanted.pool.toString()],
    ["leaf_count", String(onchain.leafCount), String(wanted.leafCount)],
    ["closes_at", onchain.closesAt.toString(), wanted.closesAt.toString()],
    ["award_deadline", onchain.awardDeadline.toString(), wanted.awardDeadline.toString()],
    ["threshold_bps", String(onchain.thresholdBps), String(wanted.thresholdBps)],
    ["splits_bps", onchain.splitsBps.join(","), wanted.splitsBps.join(",")],
  ];
  const differs = facts.find(([, a, w]) => a !== w);
  const base = { bounty_id: bountyId.toString(), status };
  if (differs !== undefined) {
    const [field, actual, requested] = differs;
    const never = status === "funded" ? neverAttachable(bountyId, onchain, landing) : undefined;
    if (never !== undefined) {
      const deadline = Number(onchain.awardDeadline);
      throw new PlatformError(
        "bounty_exists",
        `the benchmark's root is already bound to your live bounty ${bountyId} (${status}) with other terms (${field}: ${actual} on-chain, ${requested} in this lock), and that bounty can never be attached: ${never.why}. The root stays bound to it until its award deadline ${deadline} (${new Date(deadline * 1000).toISOString()}); the contract refuses its reclaim before then: reclaim it after that (the bounty:reclaim task of deploy/), or publish a fresh benchmark for this prize; nothing was sent`,
        {
          ...base,
          field,
          on_chain: actual,
          requested,
          attachable: false,
          reason: never.reason,
          closes_at: Number(onchain.closesAt),
          award_deadline: deadline,
          next_block_time: Number(landing),
        },
      );
    }
    throw new PlatformError(
      "bounty_exists",
      `the benchmark's root is already bound to your live bounty ${bountyId} (${status}) with other terms (${field}: ${actual} on-chain, ${requested} in this lock): attach it, or reclaim it first; nothing was sent`,
      { ...base, field, on_chain: actual, requested, ...(status === "funded" ? { attachable: true } : {}) },
    );
  }
  if (status !== "funded")
    throw new PlatformError(
      "bounty_exists",
      `the benchmark's root is already bound to your bounty ${bountyId} with these terms, ${status}, not funded: attach it (and fund it), or reclaim it first; nothing was sent`,
      base,
    );
  return attachBounty(ctx, p, slug, bountyId, { author: wanted.author });
}

/**
 * Why a funded bounty can never be attached (probe38 V-N1), or undefined when it may be: an award window
 * under `MIN_AWARD_WINDOW_SECONDS` (`assertAwardWindow`, the attach's rule), or a close not after the next
 * block's time (the attach's {@link assertCloseAhead} rule, for a bounty not yet attached).
 * @param landing the pending block's time, unix seconds
 */
function neverAttachable(
  bountyId: bigint,
  onchain: { closesAt: bigint; awardDeadline: bigint },
  landing: bigint,
): { reason: "award_window_too_short" | "closed"; why: string } | undefined {
  try {
    assertAwardWindow(onchain.closesAt, onchain.awardDeadline, `bounty ${bountyId}`);
  } catch (e) {
    if (!(e instanceof PlatformError && e.code === "award_window_too_short")) throw e;
    return {
      reason: "award_window_too_short",
      why: `${e.message} (the attach refuses it: award_window_too_short)`,
    };
  }
  if (onchain.closesAt <= landing)
    return {
      reason: "closed",
      why: `its closes_at ${onchain.closesAt} (${new Date(Number(onchain.closesAt) * 1000).toISOString()}) is not after the next block's time ${landing}: attached, it would close the benchmark at once (the attach refuses it: invalid_bounty)`,
    };
  return undefined;
}

/**
 * Closes a benchmark to new runs (idempotent); the operator or the author. A benchmark with an attached
 * bounty is never closed this way, by anyone (probe37 C-F3: its author closed a funded contest a day
 * before the on-chain `closesAt` its competitors were promised, freezing the leader in): the bounty's
 * `closesAt` is its close (the detail's `prize_closes_at`), and the award closes it.
 * @throws PlatformError `forbidden`, `bounty_attached` (`details: {slug, bounty_id, prize_closes_at}`,
 *   unix seconds; nothing written)
 */
export async function closeBenchmark(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
): Promise<BenchmarkRecord> {
  const b = await getBenchmark(ctx, slug);
  assertAuthorOrOperator(p, b);
  if (b.bounty)
    throw new PlatformError(
      "bounty_attached",
      `benchmark ${slug} has bounty ${b.bounty.bounty_id} attached: it closes at the bounty's on-chain closesAt, prize_closes_at ${b.bounty.closes_at} (${new Date(b.bounty.closes_at * 1000).toISOString()}), as its competitors were promised, and no one closes it earlier; nothing was changed`,
      { slug, bounty_id: b.bounty.bounty_id, prize_closes_at: b.bounty.closes_at },
    );
  await closeToNewRuns(ctx, slug);
  return getBenchmark(ctx, slug);
}

/**
 * Marks a benchmark closed to new runs (idempotent), no questions asked: {@link closeBenchmark} after
 * its checks, and the award's preparation (operator only, once the chain's clock passed `closesAt`).
 */
export async function closeToNewRuns(ctx: PlatformContext, slug: string): Promise<void> {
  await ctx.store.benchmarks.close(slug, isoMillis(ctx.clock()));
}
