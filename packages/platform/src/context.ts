/**
 * The shared context of the platform's operations and the stored shapes they exchange.
 */
import type { Hex } from "@bench-bounty/evidence";
import type { AnchorBatcher } from "./anchor-batch.js";
import type { PublishQuota } from "./publish.js";
import type { AgentQuota } from "./agents.js";
import type { AnchorQuota, ImmediateAnchorQuota } from "./runs.js";
import type { AnchorEvidence, ChainGateway } from "./chain.js";
import type { Store } from "./store.js";
import type { Clock } from "./time.js";

/** Points where tests inject a crash (fault injection); production code never sets them. */
export interface FaultHooks {
  /** Called inside the finalize transaction after the run row is updated, before commit. */
  finalizeBeforeCommit?: (runId: string) => void;
  /** Called after the award transaction is mined, before it is recorded in the store. */
  awardBeforeRecord?: (slug: string) => void;
  /** Called after the award transaction is sent, before its hash is recorded as sent (a crash here leaves only the chain knowing it). */
  awardBeforeMarkSent?: (slug: string) => void;
  /** Called after the award transaction is sent and recorded as sent, before it is mined (waited for). */
  awardAfterSend?: (slug: string) => void;
  /** A smaller pack size limit than `PACK_LIMITS.maxPackBytes`, so a test reaches it with a small pack. */
  maxPackBytes?: number;
  /** Called after the award transaction is confirmed and recorded, before the pack is minted. */
  awardBeforeMint?: (slug: string) => void;
  /** Awaited after the pack is minted, before its hash is anchored (a test front-runs the anchor). */
  packBeforeAnchor?: (slug: string, packHash: string) => void | Promise<void>;
  /** Awaited inside the publish transaction after its checks, before the insert (a test widens a race). */
  publishBeforeInsert?: (slug: string) => void | Promise<void>;
}

/**
 * How a write answering a request is bounded: `answerBy` (unix ms, wall clock) is the request's deadline
 * for waits (the server's `AppEnv.revealBy`, half its time limit). On PostgreSQL every lock wait of the
 * write's transaction ends by it (`Store.tx` `locksBy`): a row another session holds longer refuses the
 * write `server_busy` with nothing written, rather than the write committing after the request was
 * answered 503 `request_timeout` (probe19 A-F3). Absent: no bound (the CLI, background work). Only the
 * transaction that answers the request is bounded, never work after it (anchoring, the award's steps).
 */
export interface WriteHow {
  answerBy?: number | undefined;
}

/** Everything an operation needs. */
export interface PlatformContext {
  store: Store;
  /** Current instant in unix ms. */
  clock: Clock;
  /** Source of secret randomness (salts). */
  randomBytes: (n: number) => Uint8Array;
  /** When set, answer salts are derived from it (reproducible runs for tests and demos; never in production). */
  answerSaltSeed: string | null;
  /** Chain access, or null for an off-chain platform (no anchors, no award). */
  chain: ChainGateway | null;
  /** Base URL used for `receipt_url` in packs and links in the HTTP door. */
  publicBaseUrl: string;
  /**
   * `immediate`: each receipt is anchored at finalize; `batch`: receipts wait for one `anchorMany`:
   * the {@link PlatformContext.anchorBatcher}'s next flush, `anchor <slug>` or the award.
   */
  receiptAnchoring: "immediate" | "batch";
  /**
   * Flushes pending receipts and commitments within its interval (`anchor-batch.ts`; a publish then
   * leaves its commitment pending for it), or null (receipts in `batch` wait for `anchor` / the award;
   * a publish anchors its commitment inline).
   */
  anchorBatcher: AnchorBatcher | null;
  /**
   * Benchmarks one account may publish per period and, with `allAccountsCount`, all accounts but the
   * operator's together (`publish.ts`), or null for no quota.
   */
  publishQuota: PublishQuota | null;
  /** The agents one account may hold (`agents.ts`), or null for no bound. */
  agentQuota: AgentQuota | null;
  /**
   * Finalizes per account per period that anchor their receipt at once in `immediate` mode
   * (`runs/finalize.ts`; past it the receipt stays pending for `anchor` / the award), or null for no bound.
   */
  immediateAnchorQuota: ImmediateAnchorQuota | null;
  /**
   * Finalizes per account per period, and for all accounts together, whose receipt the batcher's
   * flushes anchor (`runs/finalize.ts`, probe28 A-F1; past it the receipt stays pending, held, for
   * `anchor` / the award), or null for no bound.
   */
  batchAnchorQuota: AnchorQuota | null;
  /** Bytes of dataset rows and published test sets one account may keep stored (`publish.ts` `storeDataset`, `publishBenchmark`), or null for no bound. */
  datasetBytesPerAccount: number | null;
  /** Bytes of dataset rows and published test sets all accounts but the operator's may keep stored together; null: no bound. */
  datasetBytesAllAccounts: number | null;
  /** Bytes of answers the runs of one account may keep stored (`runs/submit.ts` `submitAnswers`), or null for no bound. */
  answerBytesPerAccount: number | null;
  /** Bytes of answers the runs of all accounts but the operator's may keep stored together; null: no bound. */
  answerBytesAllAccounts: number | null;
  /** SHA-256 (hex) of the operator's key from the environment, or null (no operator key: local operator only). */
  operatorKeyHash: string | null;
  /**
   * Milliseconds of grading per slice before the event loop gets a turn (`grading.ts`
   * {@link gradePlanSliced}, the award's pack minting; probe27 A-F6); 0 yields after every answer.
   */
  gradeSliceMs: number;
  faults: FaultHooks;
  /**
   * The award calls in flight, and the evidence door's work under the award's lock (its pack's mint,
   * probe33 C-F3), and their stop when the platform stops ({@link CallsInFlight}).
   */
  awardCalls: CallsInFlight;
  /**
   * The uploads and publishes of requests in flight (`storeDataset`, `publishBenchmark` with
   * `answerBy`), and their stop when the platform stops ({@link CallsInFlight}; probe30 A-F10, probe31 A-F6).
   */
  uploadCalls: CallsInFlight;
}

/**
 * Calls of one kind in flight in this process, and their stop: the award calls (probe29 C-F9: `serve`
 * stopped during an award that waited for its transaction cut the operator's request with no answer
 * and lingered for the award's whole wait) and the uploads (probe30 A-F10: the store was closed under
 * an upload inserting its rows). Once {@link stop}ped, every call in flight is answered at once (an
 * award as at its deadline, `award_pending` with its transaction or nothing sent, and it ends its wait
 * for its transaction; an upload at its next slice, its pending dataset removed), and a new call is
 * refused; {@link stop} resolves once the work of each has ended, so the store is closed after.
 */
export class CallsInFlight {
  private readonly stopper = new AbortController();
  private readonly inflight = new Set<Promise<unknown>>();

  /** Aborted once the platform stops. */
  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  /** True once {@link stop} was called. */
  get stopped(): boolean {
    return this.stopper.signal.aborted;
  }

  /** Counts `work` in flight until it settles (fulfilled or rejected). */
  track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.inflight.add(settled);
    void settled.then(() => this.inflight.delete(settled));
  }

  /** Stops the calls (see the class doc) and resolves once the work of each has ended. */
  async stop(): Promise<void> {
    this.stopper.abort();
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }
}

/** The scoring and competition settings of a benchmark (stored with it, served in its detail). */
export interface BenchmarkConfig {
  grader_type: string;
  prompt_template: string;
  gold_field: string;
  tolerance: number | string | null;
  alternatives_field: string | null;
  /** As configured (a decimal string). */
  public_fraction: string;
  max_attempts: number;
  time_budget_seconds: number;
  speed_weight: string;
  cost_weight: string;
  cost_budget_usdc: string | null;
  /** Public tasks drawn per attempt (null: all public tasks). */
  public_tasks_per_run: number | null;
  /**
   * Who sees the leaderboard: `public` (everyone), or `buyer_only` (a benchmark commissioned by one
   * buyer, its author: everyone else gets `leaderboard_visible: false` and no rows, and no receipts,
   * open or closed; agents still get their own scores from finalize; the award evidence pack stays
   * public, SPEC 8). One rule: `buyerOnlyHides`. Absent in stores published before the option: `public`.
   */
  leaderboard_visibility?: LeaderboardVisibility;
  /**
   * Each answer's allowance in canonical-JSON bytes (quotes excluded), derived at publish by the pack
   * budget (`pack-budget.ts`) so that any award's evidence pack fits the verifier's limit. Absent in
   * stores published before the rule: derived on read from the stored tasks.
   */
  max_answer_bytes?: number;
}

/** The leaderboard visibilities (the compete seed, section 7). */
export const LEADERBOARD_VISIBILITIES = ["public", "buyer_only"] as const;
/** Who sees a benchmark's leaderboard. */
export type LeaderboardVisibility = (typeof LEADERBOARD_VISIBILITIES)[number];

/** A bounty attached to a benchmark (read from the chain). Addresses lowercase, amounts base-unit strings. */
export interface AttachedBounty {
  chain_id: number;
  bounty_contract: string;
  bounty_id: string;
  token: string;
  author: string;
  awarder: string;
  pool_base_units: string;
  /** Unix seconds. */
  closes_at: number;
  /** Unix seconds. */
  award_deadline: number;
  threshold_bps: number;
  splits_bps: number[];
  /** Last status seen on-chain: pending, funded, awarded, reclaimed. */
  status: string;
}

/** A benchmark row as stored. */
export interface BenchmarkRecord {
  slug: string;
  dataset_id: string;
  /** The account that published it (the author: sees everything, SPEC 6.1). */
  author_account_id: string;
  title: string;
  config: BenchmarkConfig;
  commit_root: Hex;
  leaf_count: number;
  public_count: number;
  private_count: number;
  plan_seed: string;
  status: "published" | "closed" | "awarded";
  created_at: string;
  closed_at: string | null;
  commitment_anchor: AnchorEvidence | null;
  bounty: AttachedBounty | null;
}

/** A task (test-set row) as stored. */
export interface TaskRecord {
  ordinal: number;
  prompt: string;
  prompt_hash: string;
  gold: unknown;
  salt: string;
  visibility: "public" | "private";
  grader_type: string;
  row_index: number;
}
