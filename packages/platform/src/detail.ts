/**
 * What a competitor reads about a benchmark before entering (seed "Compete on Benchmarks", steps 1-2
 * and 8): the list item, the detail, the prize facts with their three renders, the dataset formats. The
 * HTTP edge serves these shapes as they are (it only fills `base_url`).
 *
 * Prize renders (seed step 8): `"Prize: 50 USDC, locked at 0x..."` only on the detail and only after the
 * pool was checked on-chain for this read (bounty funded, token, author and pool as attached, token the
 * configured USDC, awarder the service; the chain's answer at most 5 s old, `bounty-read.ts`) and, by the
 * chain's clock, still within its award window (past it no award can come and the author may reclaim:
 * `prize_note` says so, probe29 C-F5); `"Prize: 50 USDC"`
 * for a declared pool this read did not verify (the list never verifies); `"--"` for no pool.
 */
import { GRADER_TYPES } from "@bench-bounty/evidence";
import type { AttachedBounty, BenchmarkRecord, PlatformContext } from "./context.js";
import { bountyForRead, chainTimeForRead, isFinalBountyStatus } from "./bounty-read.js";
import { awardWindowPassed } from "./award/state.js";
import { PlatformError } from "./errors.js";
import { BOUNTY_STATUS_NAMES, squatFacts, type SquatFacts } from "./chain.js";
import { attachedBountyDifference } from "./award/bounty.js";
import { answerAllowanceOf, getBenchmark, isOpen } from "./publish.js";
import { checkPage, pageOfRows } from "./paging.js";
import { MAX_ANSWER_LENGTH } from "./pack-budget.js";
import { shownDigest, withheldDigests, type AnchorState } from "./reveal.js";
import { isAuthorOf } from "./identity/access.js";
import { isOperator, type Principal } from "./identity/principal.js";
import { storeAwardable } from "./runs/start.js";

/** USDC has 6 decimals: base units to a plain decimal string without trailing zeros (`50000000` -> `50`). */
export function usdcText(baseUnits: string): string {
  const v = BigInt(baseUnits);
  const whole = v / 1_000_000n;
  const frac = (v % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** The prize facts of a list item or a detail. */
export interface PrizeFacts {
  prize_pool_usdc: string | null;
  /** One of the seed's three renders. */
  prize: string;
  bounty_status: string | null;
  /** Unix seconds: the bounty's on-chain `closesAt` (the benchmark's close), or null without a bounty. */
  prize_closes_at: number | null;
  /**
   * Unix seconds: the bounty's on-chain `awardDeadline`, the last moment the service may award (after it
   * the author may reclaim the pool; SPEC 1.1), or null without a bounty (probe38 C-F1: a competitor could
   * not see it).
   */
  prize_award_deadline: number | null;
  prize_contract: string | null;
  /**
   * True only when the pool was checked on-chain for this read (funded, and as attached): the chain's
   * answer at most `BOUNTY_READ_TTL_MS` (5 s) old.
   */
  prize_verified: boolean;
  /**
   * Whether `bounty_status` and `prize_verified` come from the chain (at most `BOUNTY_READ_TTL_MS` old);
   * false: the store's recorded status, unchecked (the list; no chain; a bounty recorded awarded or
   * reclaimed, final on-chain; or the chain did not answer within `BOUNTY_READ_WAIT_MS`).
   */
  prize_checked_on_chain: boolean;
  /**
   * Why a funded pool this read checked is not "locked" for competitors, or null: past its award deadline by
   * the chain's clock no award can come any more and the author may reclaim it (`awardWindowPassed`,
   * probe29 C-F5: the detail said "locked" then), or its author reclaimed it (probe33 C-F6: no note said
   * so). The prize then renders `"Prize: 10 USDC"`, `prize_verified: false`.
   */
  prize_note: string | null;
}

/** A prize as checked on-chain for a read ({@link checkedOnChain}): its status, and a funded one past its window. */
interface CheckedPrize {
  status: string;
  /** The award window's end by the chain's clock (`awardWindowPassed`), or null. */
  windowPassed?: PlatformError | null;
}

function prizeFacts(b: BenchmarkRecord, verified: CheckedPrize | null): PrizeFacts {
  const bounty = b.bounty;
  if (!bounty)
    return {
      prize_pool_usdc: null,
      prize: "--",
      bounty_status: null,
      prize_closes_at: null,
      prize_award_deadline: null,
      prize_contract: null,
      prize_verified: false,
      prize_checked_on_chain: false,
      prize_note: null,
    };
  const usdc = usdcText(bounty.pool_base_units);
  const passed = verified?.windowPassed ?? null;
  const locked = verified !== null && verified.status === "funded" && passed === null;
  return {
    prize_pool_usdc: usdc,
    prize: locked ? `Prize: ${usdc} USDC, locked at ${bounty.bounty_contract}` : `Prize: ${usdc} USDC`,
    bounty_status: verified?.status ?? bounty.status,
    prize_closes_at: bounty.closes_at,
    prize_award_deadline: bounty.award_deadline,
    prize_contract: bounty.bounty_contract,
    prize_verified: locked,
    prize_checked_on_chain: verified !== null,
    prize_note:
      (verified?.status ?? bounty.status) === "reclaimed"
        ? "the author reclaimed the pool: no award can come"
        : passed === null
          ? null
          : `no award can come any more: ${passed.message}`,
  };
}

/** A benchmark in the list (drafts are never listed; closed and awarded ones are listed read-only). */
export interface BenchmarkListItem extends PrizeFacts {
  slug: string;
  title: string;
  status: BenchmarkRecord["status"];
  open: boolean;
  read_only: boolean;
  public_tasks: number;
  private_tasks: number;
}

/**
 * The list item of a benchmark; `verified` as in {@link prizeFacts} (null: the short render); `open` as
 * `isOpen` reads it (its close by the wall clock or the chain's, probe33 A-F2).
 */
function listItemOf(b: BenchmarkRecord, verified: CheckedPrize | null, open: boolean): BenchmarkListItem {
  return {
    slug: b.slug,
    title: b.title,
    status: b.status,
    open,
    read_only: !open,
    public_tasks: b.public_count,
    private_tasks: b.private_count,
    ...prizeFacts(b, verified),
  };
}

/** Benchmarks per page of the list when the caller names no `limit` (REST and MCP). */
export const BENCHMARKS_PAGE_SIZE = 100;
/** Largest `limit` of one page of the benchmark list (an item is about 300 bytes: a page is at most ~300 KB). */
export const BENCHMARKS_PAGE_MAX = 1000;

/** One page of the benchmark list: each benchmark's list item with its record (for the edge's additions). */
export interface BenchmarkListPage {
  rows: { item: BenchmarkListItem; record: BenchmarkRecord }[];
  offset: number;
  limit: number;
  /** The offset of the next page, null on the last one. */
  next_offset: number | null;
}

/**
 * One page of the list of benchmarks, oldest first then by slug (default the first
 * {@link BENCHMARKS_PAGE_SIZE}; never verifies prizes on-chain: the short render). Read with SQL
 * `LIMIT`/`OFFSET` (probe15 A-F11: the whole list was built per call).
 * @throws PlatformError `invalid_option` naming `offset` or `limit` (`limit` at most {@link BENCHMARKS_PAGE_MAX})
 */
export async function benchmarkList(
  ctx: PlatformContext,
  page: { offset: unknown; limit: unknown } = { offset: 0, limit: BENCHMARKS_PAGE_SIZE },
): Promise<BenchmarkListPage> {
  const asked = checkPage(page, BENCHMARKS_PAGE_MAX);
  const read = await ctx.store.benchmarks.list({ offset: asked.offset, limit: asked.limit + 1 });
  const { rows, next_offset } = pageOfRows(read, asked);
  return {
    rows: await Promise.all(
      rows.map(async (record) => ({ item: listItemOf(record, null, await isOpen(ctx, record)), record })),
    ),
    offset: asked.offset,
    limit: asked.limit,
    next_offset,
  };
}

/** The detail of a benchmark (never gold). */
export interface BenchmarkDetail extends BenchmarkListItem {
  created_at: string;
  max_attempts: number;
  public_tasks_per_run: number | null;
  /** `public`, or `buyer_only` (only the author sees the leaderboard's rows and the receipts; see `buyerOnlyHides`). */
  leaderboard_visibility: "public" | "buyer_only";
  grader_type: string;
  grader_types: typeof GRADER_TYPES;
  speed_weight: string;
  cost_weight: string;
  time_budget_seconds: number;
  cost_budget_usdc: string | null;
  /**
   * Longest accepted answer, in canonical-JSON bytes (UTF-8; an escaped control character such as
   * U+000B counts the 6 bytes of `\u000b`), derived at publish so that the award's
   * evidence pack always fits the verifier's limit (`pack-budget.ts`).
   */
  max_answer_bytes: number;
  /** Longest accepted answer, in UTF-16 code units (`MAX_ANSWER_LENGTH`, 100,000). */
  max_answer_length: number;
  commitment: Commitment;
  /**
   * Whether a competitor's run here needs a withdrawal address first (the start's own rule,
   * `storeAwardable`: this process has a chain, or the store is used on one; the author's own agents
   * never need one). What `run-benchmark.sh start` tests before registering an account (probe36 A-F3:
   * it tested `commitment.awarder`, null in a chainless process of a chain store, and then was refused).
   */
  withdrawal_address_required: boolean;
  /**
   * The attached bounty as recorded at attach, null without one: public facts of the chain (SPEC 1.1
   * `getBounty`), what an agent checks before spending a run (`npx hardhat bounty:status --id <bounty_id>
   * --author <author> --network <base|baseSepolia|localhost>`; probe27 A-F8: nothing served before the award named the bounty).
   */
  bounty: BountyFacts | null;
  /** ASCII; its curls name this benchmark's own slug at `base_url`. */
  how_to_compete: string;
  /**
   * The steps this process refuses and `how_to_compete` sends to the service's main address (`$MAIN`),
   * null when every step is taken here ({@link competeAtMainOf}): what the web page's walk reads, so
   * that its commands go where the API's walk sends them (probe37 A-F1: the page printed every step
   * against a chainless process, refused 503 `no_chain`).
   */
  compete_at_main: CompeteAtMain | null;
}

/**
 * Where a process's compete walk sends what it cannot take ({@link BenchmarkDetail.compete_at_main}):
 * the service's main address, `$MAIN`, which the process cannot know (its operator gives it).
 */
export interface CompeteAtMain {
  /** Setting a withdrawal address (`PUT /accounts/me/withdrawal-address`, or an account made with one) goes there. */
  withdrawal_address: boolean;
  /** A run's start, its answers and its finalize go there (a benchmark with a prize). */
  runs: boolean;
  /**
   * What this process cannot take and why, and to set MAIN to the main address (prose, no command: this
   * process cannot know that URL, and a placeholder pasted into a shell is a syntax error, probe37 V-N3;
   * ASCII; the walk's step 0).
   */
  note: string;
}

/** The attached bounty in a detail ({@link BenchmarkDetail.bounty}): addresses lower-case, amounts base units. */
export interface BountyFacts {
  chain_id: number;
  /** The BenchmarkBounty contract. */
  bounty_contract: string;
  /** Decimal. */
  bounty_id: string;
  /** The address that locked the pool (on-chain `author`). */
  author: string;
  token: string;
  /** The pool in token base units (USDC: 6 decimals), decimal. */
  pool_base_units: string;
}

/** The served facts of an attached bounty (SPEC 1.1; probe27 A-F8). */
export function bountyFacts(b: AttachedBounty): BountyFacts {
  return {
    chain_id: b.chain_id,
    bounty_contract: b.bounty_contract,
    bounty_id: b.bounty_id,
    author: b.author,
    token: b.token,
    pool_base_units: b.pool_base_units,
  };
}

/** A benchmark's test-set commitment (SPEC 3) as served. */
export interface Commitment {
  /** The Merkle root; null while its anchor is pending (`reveal.ts`, probe14 D3-F8). */
  commit_root: string | null;
  leaf_count: number;
  /** The commitment anchor's evidence, or null (pending, squatted, or a store without a chain). */
  anchor: BenchmarkRecord["commitment_anchor"];
  /**
   * Where its anchor stands: `anchored`, `pending`, `squatted` (the root was anchored first by someone
   * else with another kind: it can never be anchored as a commitment, the award can never verify and no
   * run starts), or `off_chain` (`reveal.ts`).
   */
  status: AnchorState;
  /** The squat (kind found, anchorer, block) when `squatted`, else null. */
  squat: SquatFacts | null;
  /**
   * The service's signing address (lowercase 0x hex): the awarder a bounty must name to be attached here
   * (`assertAttachableBounty`), what `bounty:lock --commitment` takes from this answer saved as a file
   * (probe32 A-F1: an author had no way to learn it but to ask the operator). In a process without a
   * chain, the awarder a process with the chain and its key recorded in the store
   * (`AnchorsTable.recordedAwarder`; probe36 A-F6: a chainless serve of a chain store said null and the
   * lock took the author's wallet as awarder); null when none did (a store never used on a chain).
   */
  awarder: string | null;
}

/** The commitment of `b` as served: its root only once anchored ({@link Commitment}). */
export async function commitmentOf(ctx: PlatformContext, b: BenchmarkRecord): Promise<Commitment> {
  const withheld = await withheldDigests(ctx.store, [], [b]);
  const squat = withheld.squatOf(b.commit_root);
  return {
    commit_root: shownDigest(b.commit_root, withheld),
    leaf_count: b.leaf_count,
    anchor: b.commitment_anchor,
    status: withheld.stateOf(b.commit_root),
    squat: squat === null ? null : squatFacts(squat),
    awarder: ctx.chain !== null ? ctx.chain.address : await ctx.store.anchors.recordedAwarder(),
  };
}

/**
 * A benchmark's stored record as `bench-bounty show` prints it (probe15 B-F14): the reveal rule of the
 * commitment applies ({@link commitmentOf}: `commit_root` null while its anchor is pending or squatted,
 * with `commitment_anchor_status` and `commitment_squat`), and the `plan_seed` (which orders every
 * agent's public tasks, `runPlan`; SPEC leaves it to the platform) and the `dataset_id` (a hash over the
 * labels, probe28 B-F5) are shown only to the benchmark's author and the operator.
 * @throws PlatformError `unknown_benchmark`
 */
export async function benchmarkRecordView(
  ctx: PlatformContext,
  viewer: Principal,
  slug: string,
): Promise<Omit<BenchmarkRecord, "commit_root" | "plan_seed" | "dataset_id"> & BenchmarkRecordReveal> {
  const b = await getBenchmark(ctx, slug);
  const c = await commitmentOf(ctx, b);
  const { plan_seed, dataset_id, ...record } = b;
  const theirs = isAuthorOf(viewer, b) || isOperator(viewer);
  return {
    ...record,
    commit_root: c.commit_root,
    commitment_anchor_status: c.status,
    commitment_squat: c.squat,
    ...(theirs ? { plan_seed, dataset_id } : {}),
    open: await isOpen(ctx, b),
  };
}

/** What {@link benchmarkRecordView} reveals of a record. */
export interface BenchmarkRecordReveal {
  commit_root: string | null;
  commitment_anchor_status: AnchorState;
  commitment_squat: SquatFacts | null;
  /** To the author and the operator only. */
  plan_seed?: string;
  /**
   * To the author and the operator only: the id is a hash over the dataset's content hash, which covers
   * the labels, so a stranger could test candidate label vectors against it offline (probe28 B-F5).
   */
  dataset_id?: string;
  open: boolean;
}

/**
 * What a process without a chain on a store used on one (`meta.anchoring_chain_id`) cannot take
 * ({@link howToCompete}; probe36 V-F5): a withdrawal address (`no_chain`, `reason: "chain_marked"`), and,
 * for a benchmark with a prize, a run, its answers and its finalize (`no_chain`, `chain_clock_unknown`,
 * or `benchmark_closed` once closed).
 */
export interface ChainlessWalk {
  /** The benchmark has a bounty attached. */
  prize: boolean;
}

/**
 * Whether this process runs without a chain on a store a process with a chain opened
 * (`meta.anchoring_chain_id`): it then refuses a withdrawal address and a prize benchmark's run, answers
 * and finalize (503 `no_chain`), which its walks send to the service's main address ({@link competeAtMainOf}).
 */
export async function chainlessOnChainStore(ctx: PlatformContext): Promise<boolean> {
  return ctx.chain === null && (await ctx.store.anchors.onChain());
}

/**
 * The MCP `instructions` sentence a process {@link chainlessOnChainStore} adds (m36's note: the
 * instructions were one text for every process, and told an agent of such a process to register with its
 * address, which it refuses): which calls go to the service's main address. Empty for any other process.
 */
export function chainlessMcpInstructions(chainless: boolean): string {
  return chainless
    ? " This server runs without the service's chain: it cannot set a withdrawal address and takes no run, answer or " +
        "finalize of a prize benchmark (503 no_chain); make those calls (register with a withdrawal_address or " +
        "set_withdrawal_address, and a prize benchmark's benchmark_start_run, benchmark_submit_answers and " +
        "benchmark_finalize_run) at the service's main address, which its operator gives (your key works there too)."
    : "";
}

/**
 * The steps a process refuses and its walk sends to the service's main address (`$MAIN`; probe36 V-F5,
 * the one rule of both walks: the API's `how_to_compete` and the web page's commands, probe37 A-F1):
 * with `chainless` (a process without a chain on a store used on one) the withdrawal address always,
 * and a prize benchmark's run, answers and finalize; null (every step here) without.
 */
export function competeAtMainOf(chainless: ChainlessWalk | null): CompeteAtMain | null {
  if (chainless === null) return null;
  return {
    withdrawal_address: true,
    runs: chainless.prize,
    note: `This server runs without the service's chain, so it cannot set a withdrawal address${chainless.prize ? " and takes no run, answer or finalize of this prize benchmark" : ""} (503 no_chain): the steps naming $MAIN go to the service's main address instead: set the shell variable MAIN to that address first (its operator gives it; your key works there too)`,
  };
}

/**
 * How to compete (ASCII), naming this slug's own endpoints at `baseUrl`: every step a command, the
 * withdrawal address before the run start (probe36 A-F2: the walk's start step was refused
 * `withdrawal_address_required` for a new account, the address only named in a closing sentence).
 * With `chainless` (a process without a chain on a store used on one), the steps this process refuses
 * (the address; a prize benchmark's start, answers and finalize) are sent to `$MAIN`, the service's main
 * address, which a first line says to set (probe36 V-F5: the walk printed here was refused 503 `no_chain`
 * at step 2, then `withdrawal_address_required` at step 4); this process cannot know that URL.
 * @param chainless null (the default) for a process with the chain or a store never used on one
 * @throws PlatformError `invalid_option` (field `base_url`) for a non-ASCII base URL
 */
export function howToCompete(slug: string, baseUrl: string, chainless: ChainlessWalk | null = null): string {
  const u = baseUrl.replace(/\/+$/, "");
  // where the address, and a prize benchmark's run, go
  const atMain = competeAtMainOf(chainless);
  const a = atMain?.withdrawal_address === true ? "$MAIN" : u;
  const r = atMain?.runs === true ? "$MAIN" : u;
  const lines = [
    ...(atMain === null ? [] : [`0. ${atMain.note}`]),
    `1. Get a key (shown once; export it as BENCH_BOUNTY_API_KEY): curl -s -X POST ${u}/api/v1/accounts -H 'Content-Type: application/json' -d '{}'`,
    `2. Set the 0x address your prize credit goes to (a service that pays prizes refuses a run start without it): curl -s -X PUT ${a}/api/v1/accounts/me/withdrawal-address -H "X-API-Key: $BENCH_BOUNTY_API_KEY" -H 'Content-Type: application/json' -d '{"withdrawal_address":"0x..."}'`,
    `3. Read the detail: curl -s ${u}/api/v1/benchmarks/${slug}`,
    `   Read the corpus before you start (the clock starts at run start): curl -s ${u}/api/v1/benchmarks/${slug}/corpus -H "X-API-Key: $BENCH_BOUNTY_API_KEY"`,
    `4. Start a run (the wall clock starts): curl -s -X POST ${r}/api/v1/benchmarks/${slug}/runs -H "X-API-Key: $BENCH_BOUNTY_API_KEY"`,
    `5. Submit: curl -s -X POST ${r}/api/v1/benchmarks/runs/$RUN_ID/submissions -H "X-API-Key: $BENCH_BOUNTY_API_KEY" -H 'Content-Type: application/json' -d '{"answers":[{"ordinal":0,"answer_text":"..."}]}'`,
    `6. Finalize: curl -s -X POST ${r}/api/v1/benchmarks/runs/$RUN_ID/finalize -H "X-API-Key: $BENCH_BOUNTY_API_KEY"`,
    `7. Leaderboard: curl -s ${u}/api/v1/benchmarks/${slug}/leaderboard`,
  ];
  const text = lines.join("\n");
  // The slug rule makes this ASCII already; a non-ASCII base URL is the caller's mistake.
  if (!/^[\x20-\x7e\n]*$/.test(text))
    throw new PlatformError("invalid_option", "base_url must be ASCII", { field: "base_url" });
  return text;
}

/**
 * The prize of `b` as the chain shows it for this read: its status name when token, author, pool and
 * root match the attached bounty and token and awarder are the service's, else `mismatch`; null when not
 * checked (no chain, a final recorded status, or no answer from the chain in time: `bountyForRead`).
 * A bounty the chain shows reclaimed is recorded so (final; the list shows the recorded status).
 * A funded one past its award deadline by the chain's clock (`chainTimeForRead`, shared) carries
 * `windowPassed` (probe29 C-F5).
 */
async function checkedOnChain(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  bounty: AttachedBounty,
): Promise<CheckedPrize | null> {
  if (!ctx.chain || isFinalBountyStatus(bounty.status)) return null;
  const on = await bountyForRead(ctx, BigInt(bounty.bounty_id));
  if (!on) return null;
  const usdc = ctx.chain.config.contracts.usdc?.toLowerCase();
  // a bounty attached before attach checked token and awarder is never shown "locked" either
  // the attached bounty (one rule: attachedBountyDifference, the configured chain and contract included)
  // and the service's terms
  const matches =
    attachedBountyDifference(ctx.chain, b, bounty, on) === null &&
    on.token.toLowerCase() === usdc &&
    on.awarder.toLowerCase() === ctx.chain.address;
  if (!matches) return { status: "mismatch" };
  const status = BOUNTY_STATUS_NAMES[on.status] ?? "unknown";
  // Reclaimed is final on-chain and nothing else records it: recorded here, so the list (which never
  // reads the chain) stops calling the bounty funded (probe33 C-F6). An award records its own status.
  if (status === "reclaimed") await ctx.store.benchmarks.setBounty(b.slug, { ...bounty, status });
  if (status !== "funded") return { status };
  const chainTime = await chainTimeForRead(ctx);
  return { status, windowPassed: chainTime === null ? null : awardWindowPassed(on.awardDeadline, chainTime) };
}

/**
 * The detail of a benchmark. With a chain, the bounty is read on-chain (shared and short-lived:
 * `bountyForRead`) and checked against the attached one (token, author, pool, root) and the service
 * (token = the configured USDC, awarder = the platform account): only then does the prize render
 * "locked at". A bounty recorded as awarded or reclaimed (final on-chain) is not read again, and a chain
 * that does not answer within `BOUNTY_READ_WAIT_MS` (or fails) is not waited for: the prize is then the
 * store's, `prize_checked_on_chain: false` (probe19 A-F7).
 * @throws PlatformError `unknown_benchmark`
 */
export async function benchmarkDetail(
  ctx: PlatformContext,
  slug: string,
  opts: { baseUrl?: string } = {},
): Promise<BenchmarkDetail> {
  const b = await getBenchmark(ctx, slug);
  const verified = b.bounty ? await checkedOnChain(ctx, b, b.bounty) : null;
  // a process without the chain on a store used on one: what it refuses goes to the main address
  const chainless: ChainlessWalk | null = (await chainlessOnChainStore(ctx))
    ? { prize: b.bounty !== null }
    : null;
  return {
    ...listItemOf(b, verified, await isOpen(ctx, b)),
    created_at: b.created_at,
    max_attempts: b.config.max_attempts,
    public_tasks_per_run: b.config.public_tasks_per_run,
    leaderboard_visibility: b.config.leaderboard_visibility ?? "public",
    grader_type: b.config.grader_type,
    grader_types: GRADER_TYPES,
    speed_weight: b.config.speed_weight,
    cost_weight: b.config.cost_weight,
    time_budget_seconds: b.config.time_budget_seconds,
    cost_budget_usdc: b.config.cost_budget_usdc,
    max_answer_bytes: await answerAllowanceOf(ctx, b),
    max_answer_length: MAX_ANSWER_LENGTH,
    commitment: await commitmentOf(ctx, b),
    withdrawal_address_required: await storeAwardable(ctx),
    bounty: b.bounty ? bountyFacts(b.bounty) : null,
    how_to_compete: howToCompete(b.slug, opts.baseUrl ?? ctx.publicBaseUrl, chainless),
    compete_at_main: competeAtMainOf(chainless),
  };
}
