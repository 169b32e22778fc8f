/**
 * `Platform`: the facade the CLI, the HTTP server, the demo and tests use. It owns one store and,
 * optionally, chain access; every method maps to one operation of the seeds (accounts, datasets,
 * publish, runs, leaderboard, award, evidence).
 *
 * **Every method is async** (returns a Promise), whatever the storage engine: callers `await` them.
 *
 * **Every operation that changes something takes the caller's {@link Principal}** first: get one with
 * {@link Platform.authenticate} (an API key) or {@link Platform.localOperator} (the keyless CLI, which may
 * publish, close, anchor and award, and owns no agents). Refusals are {@link PlatformError}s with a code:
 * `unauthenticated`, `forbidden` (`details.rule` naming the owner rule of `identity/access.ts`).
 * Reads that may show private figures take the viewer (null: anonymous) and follow SPEC 6.1.
 *
 * ```ts
 * const platform = await Platform.open({ dir: "./store", chain: { rpcUrl, chainId, contracts, privateKey } });
 * const op = platform.localOperator();
 * const ds = await platform.createDataset(op, await loadCsvDataset(csvPath, mapping, { name: "seattle-weather" }));
 * const bench = await platform.publish(op, ds.dataset_id, { title, prompt_template, grader_type: "exact" });
 * const { api_key } = await platform.createAccount({ name: "alice" });
 * const alice = await platform.authenticate(api_key);
 * const run = await platform.startRun(alice, bench.slug, "alice-agent");
 * ```
 */
import { randomBytes as nodeRandomBytes } from "node:crypto";
import { AnchorBatcher, type AnchorBatching } from "./anchor-batch.js";
import { ChainGateway, type ChainConfig } from "./chain.js";
import {
  CallsInFlight,
  type AttachedBounty,
  type BenchmarkRecord,
  type FaultHooks,
  type PlatformContext,
  type TaskRecord,
  type WriteHow,
} from "./context.js";
import { checkDataset, type DatasetInput, type DatasetReport } from "./dataset.js";
import {
  leaderboard,
  type Leaderboard,
  type LeaderboardOptions,
  type LeaderboardPage,
} from "./leaderboard.js";
import {
  taskScores,
  taskScoresOfIds,
  taskScoresOfRuns,
  type RunTaskScores,
  type TaskScores,
} from "./task-scores.js";
import {
  anchorCommitment,
  createDataset,
  getBenchmark,
  getDataset,
  getTasks,
  isOpen,
  listBenchmarks,
  publishBenchmark,
  DEFAULT_PUBLISH_QUOTA,
  DEFAULT_DATASET_BYTES_ALL_ACCOUNTS,
  DEFAULT_DATASET_BYTES_PER_ACCOUNT,
  type DatasetSummary,
  type PublishHow,
  type StoreHow,
  type PublishOptions,
  type PublishQuota,
  type PublishResult,
  storeDataset,
  type PreparedDataset,
  abandonStaleUploads,
} from "./publish.js";
import {
  anchorPending,
  finalizeRun,
  myRuns,
  ownRunAnswers,
  pendingAnchors,
  receiptOf,
  squattedAnchors,
  anchorBenchmark,
  type BenchmarkAnchoring,
  type PendingAnchor,
  type SquattedAnchor,
  runTasks,
  runView,
  startRun,
  submitAnswers,
  DEFAULT_BATCH_ANCHOR_QUOTA,
  DEFAULT_IMMEDIATE_ANCHOR_QUOTA,
  DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS,
  DEFAULT_ANSWER_BYTES_PER_ACCOUNT,
  type FinalizeOptions,
  type FinalizeResult,
  type AnchorQuota,
  type ImmediateAnchorQuota,
  type RunView,
  type RunsPage,
  type ServedTask,
  type StartedRun,
} from "./runs.js";
import {
  checkWithdrawalAddress,
  checkWithdrawalAddressOnChain,
  DEFAULT_AGENT_QUOTA,
  defaultRunAgent,
  getAgent,
  inheritedWithdrawalAddress,
  myAgents,
  registerAgent,
  setWithdrawalAddress,
  type AgentQuota,
  type AgentRecord,
  type AgentSettings,
} from "./agents.js";
import {
  authenticate,
  createAccount,
  getAccount,
  issueKey,
  setAccountWithdrawalAddress,
  listKeys,
  revokeKey,
  type AccountInput,
  type CreateAccountHow,
  type AccountRecord,
  type IssuedKey,
  type KeyListing,
} from "./identity/accounts.js";
import { hashKey } from "./identity/keys.js";
import { withheldDigests, type Withheld } from "./reveal.js";
import {
  benchmarkDetail,
  benchmarkList,
  benchmarkRecordView,
  chainlessOnChainStore,
  commitmentOf,
  type BenchmarkDetail,
  type BenchmarkListPage,
  type Commitment,
} from "./detail.js";
import { datasetFormats } from "./formats.js";
import {
  deleteDataset,
  finishDeletions,
  myDatasets,
  type DeletedDataset,
  type OwnedDatasets,
} from "./dataset-library.js";
import { localOperator, type Principal } from "./identity/principal.js";
import { assertAuthor, assertOperator, goldVisible, requirePrincipal } from "./identity/access.js";
import { DEFAULT_SLICE_MS, type Receipt, type Hex } from "@bench-bounty/evidence";
import { PlatformError } from "./errors.js";
import { Store } from "./store.js";
import type { StoreTarget } from "./store/engine.js";
import type { VerificationJobsTable } from "./store/verification-jobs.js";
import { systemClock, type Clock } from "./time.js";
import {
  attachBounty,
  parseBountyId,
  awardBenchmark,
  awardChainState,
  awardEvidence,
  awardEvidenceBytes,
  awardEvidenceChunks,
  awardEvidenceHead,
  closeBenchmark,
  lockBounty,
  type AwardEvidenceHead,
  type AwardEvidenceResult,
  type AttachExpectations,
  type AwardHow,
  type AwardResult,
  type LockOptions,
} from "./award.js";
import { attachedChainOf } from "./award/bounty.js";
import { awardedPlaces, type AwardedPlace } from "./award/state.js";

/**
 * Holds a store to one chain (the review of probe26 A-F5; store28 R-F1): a process with a chain marks
 * the store with the chain id (`meta.anchoring_chain_id`; every process on it then records its digests
 * pending, reveal.ts) and its genesis block hash (`meta.anchoring_genesis_hash`, read once here:
 * {@link ChainGateway.genesisHash}; a store marked before the hash existed gets it now), unless it opens
 * it read-only (`mark` false); a store marked with another chain id or another genesis is refused: its
 * pending digests would be anchored, and its anchors and award looked up, on the wrong chain (a devchain,
 * chain id 8453 as Base, and Base mainnet; or a devchain started anew, its anchors gone). A read-only
 * process compares the hash when the store has one and the chain answers, and skips it otherwise.
 * @throws PlatformError `invalid_store` naming both chain ids (`details.store_chain_id`,
 *   `details.chain_id`) and, for another genesis, both hashes (`details.store_genesis_hash`,
 *   `details.genesis_hash`); `chain_error` when the genesis block cannot be read (not read-only)
 */
async function assertAnchoringChain(store: Store, chain: ChainGateway, mark: boolean): Promise<void> {
  const chainId = chain.config.chainId;
  // read before anything is written: a process whose chain does not answer marks nothing
  const read = mark ? await chain.genesisHash() : undefined;
  const marked = mark ? await store.anchors.markOnChain(chainId) : await store.anchors.anchoringChainId();
  if (marked !== null && marked !== chainId)
    throw new PlatformError(
      "invalid_store",
      `this store's digests are anchored on chain ${marked}, and this process is configured with chain ${chainId}: ` +
        `configure chain ${marked}, or use a store of its own for chain ${chainId}`,
      { store_chain_id: marked, chain_id: chainId },
    );
  const storeGenesis = await store.anchors.anchoringGenesisHash();
  if (!mark && storeGenesis === null) return;
  const genesis =
    read ??
    (await chain.genesisHash().catch((e: unknown) => {
      if (e instanceof PlatformError && e.code === "chain_error") return null; // read-only: as before
      throw e;
    }));
  if (genesis === null) return;
  const markedGenesis = mark ? await store.anchors.markGenesis(genesis) : storeGenesis!;
  if (markedGenesis !== genesis)
    throw new PlatformError(
      "invalid_store",
      `this store's digests are anchored on chain ${marked ?? chainId} with genesis block ${markedGenesis}, and ` +
        `this process's chain ${chainId} has genesis block ${genesis}: another chain with the same id (a ` +
        `devchain beside Base, or a devchain started anew, whose anchors are gone); configure the store's ` +
        `chain, or use a store of its own for this one`,
      {
        store_chain_id: marked ?? chainId,
        chain_id: chainId,
        store_genesis_hash: markedGenesis,
        genesis_hash: genesis,
      },
    );
}

/**
 * Records the award confirmation depth a process sets (`chain.awardConfirmations`, blocks) as the
 * store's (`meta.award_confirmations`, read by every award on the store: `award/state.ts` `awardDepth`;
 * store28 R-F2), and writes a change to the operator's log (the chain's `log`, default stderr).
 */
async function recordAwardDepth(store: Store, chain: ChainGateway, depth: number): Promise<void> {
  const was = await store.awards.recordAwardConfirmations(depth);
  if ((was ?? 1) !== depth)
    (chain.config.log ?? ((line) => void process.stderr.write(`${line}\n`)))(
      `bench-bounty: this store's awards now wait for ${depth} confirmation(s) (was ${was ?? "1, the default"}): every process on the store uses it unless it sets its own`,
    );
}

/** Options of {@link Platform.open}. */
export interface PlatformOptions {
  /** SQLite store directory (created if missing): `platform.sqlite` and the runner's `runs/`. */
  dir?: string;
  /** Any other store (PostgreSQL: `{ engine: "postgres", url }`); overrides `dir`. */
  database?: StoreTarget;
  /** Where the local runner keeps checkpoints (default `<dir>/runs`; needed to run locally on PostgreSQL). */
  runsDir?: string;
  /** Open only a store that exists (`no_store` otherwise) and create nothing: for read-only use. */
  existingStore?: boolean;
  /**
   * A read-only command (the CLI's `evidence`): the chain's `awardConfirmations` is this process's only,
   * not recorded as the store's. Otherwise a process that sets it records it (`meta.award_confirmations`),
   * an existing store included (`award --award-confirmations N`; probe30 C-F9).
   */
  keepStoreAwardDepth?: boolean;
  /**
   * This process is the service's awarder (`serve` with the chain and the platform account's key): it
   * records its signing address as the store's `meta.service_awarder`
   * (`AnchorsTable.recordAwarder`), which a process without the chain on the store serves as the
   * commitment's `awarder` (probe36 A-F3, A-F6). Only `serve` sets it: another command opened with the
   * chain and some other key (`account create`, `agent`, `publish`, `award`) records nothing, so the
   * awarder served stays the one the running serve signs with (probe36 V-F6). Ignored without a chain
   * or with a read-only one.
   */
  recordServiceAwarder?: boolean;
  /** Chain access (omit for an off-chain platform: no anchors, no award). */
  chain?: ChainConfig | ChainGateway;
  /** Injectable clock (unix ms), for tests and the demo. Default: `Date.now`. */
  clock?: Clock;
  /** Injectable randomness (salts). Default: `crypto.randomBytes`. */
  randomBytes?: (n: number) => Uint8Array;
  /** Derive answer salts from this seed (reproducible runs for tests/demos; never in production). */
  answerSaltSeed?: string;
  /**
   * Base URL of the evidence door, used in `receipt_url` (default `http://127.0.0.1:8787`; `serve` sets
   * the address it listens on with {@link Platform.setPublicBaseUrl} when `--public-url` is not given).
   */
  publicBaseUrl?: string;
  /** Anchor each receipt at finalize (`immediate`, default) or in batches with `anchorPending` (`batch`). */
  receiptAnchoring?: "immediate" | "batch";
  /**
   * Batch receipt and commitment anchors and flush them within `flushMs` (one `anchorMany` per kind
   * for every digest pending then): the operator's anchor transactions are bounded whatever the number
   * of finalizes and publishes (`anchor-batch.ts`); a publish answers `commitment_anchor_status:
   * "pending"` until its batch is mined. Implies `receiptAnchoring: "batch"` when a chain is set;
   * `serve` sets it.
   */
  anchorBatching?: AnchorBatching;
  /**
   * Benchmarks one account may publish per period and, with `allAccountsCount`, all accounts but the
   * operator's together (default {@link DEFAULT_PUBLISH_QUOTA}: 20 per account per 24 h, no budget for
   * all accounts; null: none).
   */
  publishQuota?: PublishQuota | null;
  /**
   * The agents one account may hold (default {@link DEFAULT_AGENT_QUOTA}: 20 per account, 3 of them
   * per benchmark; null: none).
   */
  agentQuota?: AgentQuota | null;
  /**
   * Finalizes per account per period that anchor at once in `immediate` mode (default
   * {@link DEFAULT_IMMEDIATE_ANCHOR_QUOTA}: 20 per account and 200 for all accounts together per 24 h;
   * past either the receipt stays pending for
   * `anchor` / the award; null: none).
   */
  immediateAnchorQuota?: ImmediateAnchorQuota | null;
  /**
   * Finalizes per account per period whose receipt the batcher's flushes anchor, and with
   * `allAccountsCount` of all accounts but the operator's together (default
   * {@link DEFAULT_BATCH_ANCHOR_QUOTA}: 200 per account and 5,000 for all accounts together per 24 h;
   * past either the receipt stays pending, held from the flushes, for `anchor` / the award; null:
   * none). Probe28 A-F1: each batched receipt costs the operator ~32,000 gas.
   */
  batchAnchorQuota?: AnchorQuota | null;
  /**
   * Bytes of dataset rows (their stored JSON, UTF-8) one account may keep stored, an integer >= 1
   * (default {@link DEFAULT_DATASET_BYTES_PER_ACCOUNT}, 256 MiB; null: no bound). The operator's
   * account is not counted.
   */
  datasetBytesPerAccount?: number | null;
  /**
   * Bytes of dataset rows all accounts but the operator's may keep stored together, an integer >= 1
   * (default {@link DEFAULT_DATASET_BYTES_ALL_ACCOUNTS}, 8 GiB; null: no bound).
   */
  datasetBytesAllAccounts?: number | null;
  /**
   * Bytes of answers (`answer_text`, UTF-8) the runs of one account may keep stored, an integer >= 1
   * (default {@link DEFAULT_ANSWER_BYTES_PER_ACCOUNT}, 1 GiB; null: no bound). The operator's account
   * is not counted.
   */
  answerBytesPerAccount?: number | null;
  /**
   * Bytes of answers the runs of all accounts but the operator's may keep stored together, an integer
   * >= 1 (default {@link DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS}, 32 GiB; null: no bound).
   */
  answerBytesAllAccounts?: number | null;
  /** The operator's API key (from the environment, e.g. `BENCH_BOUNTY_OPERATOR_KEY`): kept only as its hash. */
  operatorKey?: string;
  /**
   * Milliseconds of grading (finalize, the per-task regrades after close, the award's pack minting) per
   * slice before the event loop gets a turn, a number >= 0 (default evidence's `DEFAULT_SLICE_MS`, 10;
   * 0: after every answer). One answer is never cut (probe27 A-F6).
   */
  gradeSliceMs?: number;
  /** Fault injection for crash tests. */
  faults?: FaultHooks;
}

/**
 * The store lock (`Store.withLock`) every send signed with the platform account's key (`address`,
 * lowercase) holds from the read of its nonce to the node's answer ({@link ChainGateway.sendThrough}).
 */
export function platformSendsLock(address: string): string {
  return `platform-sends:${address.toLowerCase()}`;
}

/** The benchmark platform over one store. All methods are async (see the module doc). */
export class Platform {
  private constructor(readonly ctx: PlatformContext) {}

  /** Opens (or creates) a store. @throws PlatformError `invalid_store`, `no_store`, `invalid_option` */
  static async open(opts: PlatformOptions): Promise<Platform> {
    if (opts.database === undefined && opts.dir === undefined)
      throw new PlatformError("invalid_option", "give the store: dir (SQLite) or database", { field: "dir" });
    const chain =
      opts.chain === undefined
        ? null
        : opts.chain instanceof ChainGateway
          ? opts.chain
          : ChainGateway.connect(opts.chain);
    const depth = chain?.config.awardConfirmations;
    if (depth !== undefined && !(Number.isInteger(depth) && depth >= 1 && depth <= 1000))
      throw new PlatformError("invalid_option", "chain.awardConfirmations must be an integer in 1..1000", {
        field: "awardConfirmations",
      });
    const batching = chain !== null && opts.anchorBatching !== undefined;
    if (batching && !(Number.isFinite(opts.anchorBatching!.flushMs) && opts.anchorBatching!.flushMs > 0))
      throw new PlatformError("invalid_option", "anchorBatching.flushMs must be a number of ms > 0", {
        field: "flushMs",
      });
    const sweep = opts.anchorBatching?.sweepMs;
    if (batching && sweep !== undefined && !(Number.isFinite(sweep) && sweep > 0))
      throw new PlatformError("invalid_option", "anchorBatching.sweepMs must be a number of ms > 0", {
        field: "sweepMs",
      });
    const reveal = opts.anchorBatching?.revealWaitMs;
    if (batching && reveal !== undefined && !(Number.isFinite(reveal) && reveal >= 0))
      throw new PlatformError("invalid_option", "anchorBatching.revealWaitMs must be a number of ms >= 0", {
        field: "revealWaitMs",
      });
    const all = opts.publishQuota?.allAccountsCount;
    if (all !== undefined && !(Number.isSafeInteger(all) && all >= 1))
      throw new PlatformError("invalid_option", "publishQuota.allAccountsCount must be an integer >= 1", {
        field: "publishQuota.allAccountsCount",
      });
    const aq = opts.agentQuota;
    for (const [field, v] of [
      ["agentQuota.perAccount", aq?.perAccount],
      ["agentQuota.perBenchmark", aq?.perBenchmark],
      ["immediateAnchorQuota.count", opts.immediateAnchorQuota?.count],
      ["immediateAnchorQuota.allAccountsCount", opts.immediateAnchorQuota?.allAccountsCount],
      ["batchAnchorQuota.count", opts.batchAnchorQuota?.count],
      ["batchAnchorQuota.allAccountsCount", opts.batchAnchorQuota?.allAccountsCount],
    ] as const)
      if (v !== undefined && !(Number.isSafeInteger(v) && v >= 1))
        throw new PlatformError("invalid_option", `${field} must be an integer >= 1`, { field });
    for (const field of ["answerBytesPerAccount", "answerBytesAllAccounts"] as const) {
      const v = opts[field];
      if (v !== undefined && v !== null && !(Number.isSafeInteger(v) && v >= 1))
        throw new PlatformError("invalid_option", `${field} must be an integer >= 1 (bytes) or null`, {
          field,
        });
    }
    const dsBytes = opts.datasetBytesPerAccount;
    if (dsBytes !== undefined && dsBytes !== null && !(Number.isSafeInteger(dsBytes) && dsBytes >= 1))
      throw new PlatformError(
        "invalid_option",
        "datasetBytesPerAccount must be an integer >= 1 (bytes) or null",
        {
          field: "datasetBytesPerAccount",
        },
      );
    const dsAll = opts.datasetBytesAllAccounts;
    if (dsAll !== undefined && dsAll !== null && !(Number.isSafeInteger(dsAll) && dsAll >= 1))
      throw new PlatformError(
        "invalid_option",
        "datasetBytesAllAccounts must be an integer >= 1 (bytes) or null",
        {
          field: "datasetBytesAllAccounts",
        },
      );
    const slice = opts.gradeSliceMs;
    if (slice !== undefined && !(typeof slice === "number" && Number.isFinite(slice) && slice >= 0))
      throw new PlatformError("invalid_option", "gradeSliceMs must be a number >= 0 (milliseconds)", {
        field: "gradeSliceMs",
      });
    const ctx: PlatformContext = {
      store: await Store.open(opts.database ?? { dir: opts.dir! }, {
        existing: opts.existingStore === true,
        ...(opts.runsDir !== undefined ? { runsDir: opts.runsDir } : {}),
      }),
      clock: opts.clock ?? systemClock,
      randomBytes: opts.randomBytes ?? ((n) => new Uint8Array(nodeRandomBytes(n))),
      answerSaltSeed: opts.answerSaltSeed ?? null,
      chain,
      publicBaseUrl: opts.publicBaseUrl ?? "http://127.0.0.1:8787",
      receiptAnchoring: batching ? "batch" : (opts.receiptAnchoring ?? "immediate"),
      anchorBatcher: null,
      publishQuota: opts.publishQuota === undefined ? DEFAULT_PUBLISH_QUOTA : opts.publishQuota,
      agentQuota: opts.agentQuota === undefined ? DEFAULT_AGENT_QUOTA : opts.agentQuota,
      immediateAnchorQuota:
        opts.immediateAnchorQuota === undefined ? DEFAULT_IMMEDIATE_ANCHOR_QUOTA : opts.immediateAnchorQuota,
      batchAnchorQuota:
        opts.batchAnchorQuota === undefined ? DEFAULT_BATCH_ANCHOR_QUOTA : opts.batchAnchorQuota,
      datasetBytesPerAccount: dsBytes === undefined ? DEFAULT_DATASET_BYTES_PER_ACCOUNT : dsBytes,
      datasetBytesAllAccounts: dsAll === undefined ? DEFAULT_DATASET_BYTES_ALL_ACCOUNTS : dsAll,
      answerBytesPerAccount:
        opts.answerBytesPerAccount === undefined
          ? DEFAULT_ANSWER_BYTES_PER_ACCOUNT
          : opts.answerBytesPerAccount,
      answerBytesAllAccounts:
        opts.answerBytesAllAccounts === undefined
          ? DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS
          : opts.answerBytesAllAccounts,
      operatorKeyHash: opts.operatorKey ? hashKey(opts.operatorKey) : null,
      gradeSliceMs: opts.gradeSliceMs ?? DEFAULT_SLICE_MS,
      faults: opts.faults ?? {},
      awardCalls: new CallsInFlight(),
      uploadCalls: new CallsInFlight(),
    };
    if (chain !== null)
      await assertAnchoringChain(ctx.store, chain, opts.existingStore !== true).catch(async (e: unknown) => {
        await ctx.store.close();
        throw e;
      });
    // the service's awarder, which a process without the chain on this store serves (probe36 A-F3,
    // A-F6): recorded by serve only, never by another command's key (probe36 V-F6)
    if (chain !== null && !chain.readOnly && opts.recordServiceAwarder === true)
      await ctx.store.anchors.recordAwarder(chain.address).catch(async (e: unknown) => {
        await ctx.store.close();
        throw e;
      });
    if (chain !== null && depth !== undefined && opts.keepStoreAwardDepth !== true)
      await recordAwardDepth(ctx.store, chain, depth).catch(async (e: unknown) => {
        await ctx.store.close();
        throw e;
      });
    // the platform key's sends, one at a time across the processes on this store (probe29 C-F11)
    if (chain !== null && !chain.readOnly)
      chain.sendThrough((fn) => ctx.store.withLock(platformSendsLock(chain.address), fn));
    if (batching) {
      const batcher = new AnchorBatcher(ctx, opts.anchorBatching!);
      ctx.anchorBatcher = batcher;
      batcher.notify(); // receipts and commitments left pending by an earlier process
      batcher.startSweep(); // and those another process on the store leaves pending (probe26 A-F5)
    }
    await abandonStaleUploads(ctx); // uploads an earlier process left half inserted (probe29 A-F3)
    await finishDeletions(ctx); // dataset deletions an earlier process left under way (probeD1 F16)
    return new Platform(ctx);
  }

  /** The verifier worker's queue in this store (the `VerificationJobs` port of the server's worker). */
  get verificationJobs(): VerificationJobsTable {
    return this.ctx.store.verificationJobs;
  }

  /**
   * Queues the verification of `slug` again on request (`VerificationJobsTable.enqueue`, `now` unix ms)
   * in one transaction whose lock waits end by `how.answerBy` ({@link WriteHow}; probe19 A-F3).
   * @throws PlatformError `server_busy` (past `how.answerBy`: nothing written)
   */
  enqueueVerification(slug: string, now: number, how: WriteHow = {}): Promise<void> {
    return this.ctx.store.tx((t) => t.verificationJobs.enqueue(slug, now), { locksBy: how.answerBy });
  }

  /** The chain gateway, or null. */
  get chain(): ChainGateway | null {
    return this.ctx.chain;
  }

  /**
   * Sets the base URL of `receipt_url` (SPEC 8) once it is known: `serve` calls it with `--public-url`,
   * else with the address it listens on (only known after it binds, port 0 included), so the final
   * board, the award pack's input, names the same host as `how_to_compete` (probeD1 F17).
   * @param url an absolute `http(s)` base URL, no trailing path needed
   */
  setPublicBaseUrl(url: string): void {
    this.ctx.publicBaseUrl = url;
  }

  /**
   * {@link setPublicBaseUrl}, and records `url` in the store (`meta.public_base_url`): `serve` calls it, so
   * that an award prepared by another process on the store (the CLI's `bench-bounty award` without
   * `--public-url`) names the same receipt URLs as one prepared by `serve` (probe27 C-F6).
   * @param url an absolute `http(s)` base URL
   */
  async recordPublicBaseUrl(url: string): Promise<void> {
    this.ctx.publicBaseUrl = url;
    await this.ctx.store.awards.recordPublicBaseUrl(url);
  }

  /**
   * The public base URL a `serve` on this store recorded ({@link recordPublicBaseUrl}), or null when
   * none did (a store never served).
   */
  recordedPublicBaseUrl(): Promise<string | null> {
    return this.ctx.store.awards.recordedPublicBaseUrl();
  }

  /**
   * Stops this process's award calls (`CallsInFlight.stop`): each in flight is answered at once, as at
   * its deadline (409-shaped `award_pending` with `details.tx_hash` once its transaction is sent;
   * `server_busy`, nothing sent, before), sends nothing more and stops waiting for its transaction (a
   * rerun, here or in another process on the store, adopts it); a new call is refused `server_busy`.
   * The evidence door's mint left running after its answer stops its wait for the pack's anchor too
   * (probe33 C-F3). Resolves once their work has ended (its lock released). `serve` calls it first when it stops
   * (probe29 C-F9); {@link close} does too.
   */
  stopAwards(): Promise<void> {
    return this.ctx.awardCalls.stop();
  }

  /**
   * Stops this process's uploads and publishes of requests (`storeDataset`, `publish` with `answerBy`;
   * probe30 A-F10, probe31 A-F6): an upload in flight ends at its next slice of rows, its pending dataset
   * marked deleted and its rows removed, a publish after its planning or in its transaction before the
   * insert, and each is refused 503-shaped `server_busy` with `details.stopping` (nothing stored); a new
   * one is refused so before it reads or writes anything. Resolves once their work has ended: the store
   * may be closed then.
   * `serve` calls it first when it stops, with {@link stopAwards}; {@link close} does too.
   */
  stopUploads(): Promise<void> {
    return this.ctx.uploadCalls.stop();
  }

  /**
   * Stops the award calls ({@link stopAwards}), the uploads ({@link stopUploads}) and the anchor batcher
   * (waiting for a flush under way), and closes the store.
   */
  async close(): Promise<void> {
    await Promise.all([this.stopAwards(), this.stopUploads()]);
    await this.ctx.anchorBatcher?.stop();
    await this.ctx.store.close();
  }

  /**
   * Anchors every pending commitment and receipt now, one `anchorMany` per kind per batch (what the
   * batcher does on its timer).
   * @returns how many digests were anchored
   * @throws PlatformError `no_chain`, `chain_error`
   */
  flushAnchors(): Promise<number> {
    if (!this.ctx.chain) throw new PlatformError("no_chain", "no chain configured", {});
    return (this.ctx.anchorBatcher ?? new AnchorBatcher(this.ctx, { flushMs: 1 })).flush();
  }

  // ---- identity -------------------------------------------------------------

  /** The local operator principal (the keyless CLI): publishes, closes, anchors, awards; owns no agents. */
  localOperator(): Principal {
    return localOperator();
  }
  /**
   * Creates an account (and with `input.agent` its first agent, in the same transaction); its first key
   * is in the answer, shown once. Writes of a request take `how` ({@link WriteHow}): here and in
   * `issueKey`, `revokeKey`, `registerAgent`, `setWithdrawalAddress`, `setAccountWithdrawalAddress`,
   * `deleteDataset`, `attachBounty`, `startRun`, `submit`, `enqueueVerification`, and `finalize` (its
   * `revealBy`): a lock wait
   * past `how.answerBy` refuses the write `server_busy`, nothing written (probe19 A-F3).
   * @throws PlatformError `invalid_option`, `account_exists`, `invalid_withdrawal_address`, `forbidden`,
   *   `server_busy`
   */
  createAccount(
    input: AccountInput,
    how?: CreateAccountHow,
  ): Promise<{ account: AccountRecord } & IssuedKey> {
    return createAccount(this.ctx, input, how);
  }
  /** The principal of an API key. @throws PlatformError `unauthenticated` */
  authenticate(apiKey: unknown): Promise<Principal> {
    return authenticate(this.ctx, apiKey);
  }
  /** The caller's account. */
  account(p: Principal): Promise<AccountRecord> {
    return getAccount(this.ctx, p);
  }
  /**
   * Issues another key for the caller (shown once), at most `MAX_ACTIVE_KEYS` active. `how`: {@link WriteHow}
   * (`server_busy` past it). @throws PlatformError `too_many_keys` (revoke one first), `forbidden` for the operator
   */
  issueKey(p: Principal, how?: WriteHow): Promise<IssuedKey> {
    return issueKey(this.ctx, p, how);
  }
  /** The caller's keys, by prefix. */
  listKeys(p: Principal): Promise<KeyListing[]> {
    return listKeys(this.ctx, p);
  }
  /** Revokes one of the caller's keys by prefix. @throws PlatformError `unknown_key` */
  revokeKey(p: Principal, keyPrefix: string, how?: WriteHow): Promise<KeyListing> {
    return revokeKey(this.ctx, p, keyPrefix, how);
  }

  // ---- datasets -----------------------------------------------------------

  /** Dry run: validates a dataset, persisting nothing. */
  async validateDataset(input: unknown): Promise<DatasetReport> {
    return checkDataset(input);
  }
  /** Validates and stores a dataset owned by `p` (idempotent for the same owner, name and content). */
  async createDataset(p: Principal, input: DatasetInput): Promise<DatasetSummary> {
    return createDataset(this.ctx, p, input);
  }
  /**
   * Stores a dataset checked by `prepareDataset` (elsewhere: a worker thread), owned by `p`; idempotent as
   * {@link createDataset}. `how.answerBy`: refused `server_busy`, nothing stored, past it.
   */
  async storeDataset(p: Principal, prepared: PreparedDataset, how?: StoreHow): Promise<DatasetSummary> {
    return storeDataset(this.ctx, p, prepared, how);
  }
  /** The row schema, publish options and worked examples (seed: `GET /datasets/formats`). */
  async datasetFormats() {
    return datasetFormats();
  }
  /** One page of the benchmark list, oldest first (prize never verified: the short render; default the first 100). */
  async benchmarkList(page?: { offset: unknown; limit: unknown }): Promise<BenchmarkListPage> {
    return benchmarkList(this.ctx, page);
  }
  /**
   * A benchmark's stored record as `show` prints it: the commitment's reveal rule, the plan seed to its
   * author and the operator only ({@link benchmarkRecordView}). @throws PlatformError `unknown_benchmark`
   */
  benchmarkRecord(viewer: Principal, slug: string) {
    return benchmarkRecordView(this.ctx, viewer, slug);
  }
  /** The benchmark detail (never gold); with a chain the prize is checked on-chain ("locked at"). */
  /** Whether this process runs without a chain on a store used on one (`chainlessOnChainStore`). */
  chainlessOnChainStore(): Promise<boolean> {
    return chainlessOnChainStore(this.ctx);
  }

  benchmarkDetail(slug: string, opts?: { baseUrl?: string }): Promise<BenchmarkDetail> {
    return benchmarkDetail(this.ctx, slug, opts);
  }

  /**
   * The anchor states of `digests` and of the roots of `benchmarks` (`reveal.ts`, the one rule): which
   * are withheld while their anchor is pending or squatted.
   */
  withheldDigests(
    digests: readonly (string | null)[],
    benchmarks: readonly BenchmarkRecord[] = [],
  ): Promise<Withheld> {
    return withheldDigests(this.ctx.store, digests, benchmarks);
  }

  /**
   * A benchmark's commitment as served: its root only once anchored (`reveal.ts`).
   * @throws PlatformError `unknown_benchmark`
   */
  async commitment(slug: string): Promise<Commitment> {
    return commitmentOf(this.ctx, await this.getBenchmark(slug));
  }
  /**
   * The caller's own datasets, newest first, each with `stored_bytes` and the `benchmark` published
   * from it (or null), and the account's `used_bytes` / `limit_bytes` (bytes; null: no bound).
   */
  myDatasets(p: Principal): Promise<OwnedDatasets> {
    return myDatasets(this.ctx, p);
  }
  /**
   * Deletes the caller's dataset never published, freeing its bytes (`freed_bytes`) of the quota.
   * @throws PlatformError `unknown_dataset`, `forbidden` (`dataset_owner_only`), `dataset_published`
   */
  deleteDataset(p: Principal, datasetId: string, how?: WriteHow): Promise<DeletedDataset> {
    return deleteDataset(this.ctx, p, datasetId, how);
  }
  /** A stored dataset's summary. @throws PlatformError `unknown_dataset` */
  async getDataset(datasetId: string): Promise<DatasetSummary> {
    return getDataset(this.ctx, datasetId);
  }

  // ---- benchmarks ---------------------------------------------------------

  /**
   * Publishes the benchmark of `p`'s dataset (and anchors its commitment when a chain is set);
   * `how.planner` runs the planning elsewhere (the server's worker thread), `how.answerBy` is the
   * latest moment to begin writing and to wait for the commitment's anchor batch.
   */
  publish(
    p: Principal,
    datasetId: string,
    options: PublishOptions,
    how?: PublishHow,
  ): Promise<PublishResult> {
    return publishBenchmark(this.ctx, p, datasetId, options, how);
  }
  /** Anchors a commitment left pending (a chain outage during publish). */
  anchorCommitment(slug: string) {
    return anchorCommitment(this.ctx, slug);
  }
  /** A benchmark record (no gold). @throws PlatformError `unknown_benchmark` */
  async getBenchmark(slug: string): Promise<BenchmarkRecord> {
    return getBenchmark(this.ctx, slug);
  }

  /**
   * The attached bounty of `slug` and this process's chain, once the configured chain id and
   * BenchmarkBounty contract are the ones recorded at attach (award `attachedChainOf`, read from no
   * chain): what a relayed claim checks before it reads or sends anything.
   * @throws PlatformError `unknown_benchmark`, `no_chain`, `no_bounty`, `bounty_mismatch` (both chains and contracts)
   */
  async attachedChain(slug: string): Promise<{ chain: ChainGateway; bounty: AttachedBounty }> {
    const { chain, attached } = attachedChainOf(this.ctx, await getBenchmark(this.ctx, slug));
    return { chain, bounty: attached };
  }
  /** All benchmarks. */
  async listBenchmarks(): Promise<BenchmarkRecord[]> {
    return listBenchmarks(this.ctx);
  }
  /**
   * The full test set (gold and salts included): to the benchmark's author, and to anyone once awarded.
   * @throws PlatformError `forbidden` (`benchmark_author_only`)
   */
  async testSet(viewer: Principal | null, slug: string): Promise<TaskRecord[]> {
    const b = await getBenchmark(this.ctx, slug);
    if (!goldVisible(viewer, b)) assertAuthor(requirePrincipal(viewer), b);
    return getTasks(this.ctx, slug);
  }
  /** True while the benchmark accepts runs (`isOpen`: its close by the wall clock or the chain's, read as the detail does). */
  async isOpen(slug: string): Promise<boolean> {
    return isOpen(this.ctx, await getBenchmark(this.ctx, slug));
  }
  /** The author (or operator) locks a prize on-chain for the benchmark and attaches it. */
  lockBounty(p: Principal, slug: string, opts: LockOptions): Promise<AttachedBounty> {
    return lockBounty(this.ctx, p, slug, opts);
  }
  /**
   * Attaches an on-chain bounty after checking root, leaf count, the declared author and pool (the author
   * is required of a caller other than the benchmark's author) and an award window of at least
   * `MIN_AWARD_WINDOW_SECONDS` (probe38 C-F1).
   */
  async attachBounty(
    p: Principal,
    slug: string,
    bountyId: bigint | string | number,
    expect?: AttachExpectations,
    how?: WriteHow,
  ): Promise<AttachedBounty> {
    return attachBounty(this.ctx, p, slug, parseBountyId(bountyId), expect, how);
  }
  /** Closes a benchmark to new runs (the operator or its author; the award closes it too). */
  async closeBenchmark(p: Principal, slug: string): Promise<BenchmarkRecord> {
    return closeBenchmark(this.ctx, p, slug);
  }

  // ---- agents and runs ----------------------------------------------------

  /** Registers the caller's agent, or updates it (owner only). */
  registerAgent(
    p: Principal,
    agentId: string,
    settings: AgentSettings = {},
    how?: WriteHow,
  ): Promise<AgentRecord> {
    return registerAgent(this.ctx, p, agentId, settings, how);
  }
  /**
   * The withdrawal-address rule (not an address, zero address, one of this platform's contracts: all
   * refused) applied to any address credit is paid to, e.g. a relayed claim's `to`.
   * @returns the address lowercase
   * @throws PlatformError `invalid_withdrawal_address` naming `field` (`details.path` `$.<field>`)
   */
  checkWithdrawalAddress(address: unknown, field?: string): string {
    return checkWithdrawalAddress(this.ctx, address, field);
  }
  /**
   * The whole withdrawal-address rule, the one a withdrawal address is set by: {@link checkWithdrawalAddress},
   * then, with a chain configured, the code the address runs (a BenchmarkBounty or AnchorRegistry
   * deployed at any other address is refused: `recipientCodeProblem` on `eth_getCode`, probe26 C-F7),
   * applied to any address credit is paid to, e.g. a relayed claim's `to` (probe28 C-F3: it was paid).
   * One `eth_getCode` read; without a chain, the address rule only.
   * @returns the address lowercase
   * @throws PlatformError `invalid_withdrawal_address` naming `field` (`details.path` `$.<field>`,
   *   `details.reason` `platform_contract` for such code, or the address rule's), `chain_error` (the code
   *   could not be read: refused, never guessed harmless)
   */
  checkWithdrawalAddressOnChain(address: unknown, field?: string): Promise<string> {
    return checkWithdrawalAddressOnChain(this.ctx, address, field);
  }

  /** Sets the withdrawal address of the caller's agent (checked; owner only). */
  setWithdrawalAddress(p: Principal, agentId: string, address: string, how?: WriteHow): Promise<AgentRecord> {
    return setWithdrawalAddress(this.ctx, p, agentId, address, how);
  }
  /**
   * Sets the withdrawal address of all the caller's agents in one transaction (an account without any
   * gets its default agent, named after it). @returns the agents written
   */
  setAccountWithdrawalAddress(p: Principal, address: string, how?: WriteHow): Promise<AgentRecord[]> {
    return setAccountWithdrawalAddress(this.ctx, p, address, how);
  }
  /** An agent, or null. */
  getAgent(agentId: string): Promise<AgentRecord | null> {
    return getAgent(this.ctx, agentId);
  }
  /** The caller's agents. */
  myAgents(p: Principal): Promise<AgentRecord[]> {
    return myAgents(this.ctx, p);
  }
  /**
   * The agent a run of the caller starts for when none is named: its default agent, the one named after
   * the account (an account without agents: its name). @throws PlatformError `invalid_option` naming
   * `agent_id` when the account has agents but none of its name (`defaultRunAgent`)
   */
  defaultRunAgent(p: Principal): Promise<string> {
    return defaultRunAgent(this.ctx, p);
  }
  /** The withdrawal address a new agent of the caller inherits: its default agent's, or null (`inheritedWithdrawalAddress`). */
  inheritedWithdrawalAddress(p: Principal): Promise<string | null> {
    return inheritedWithdrawalAddress(this.ctx, p);
  }
  /** Starts a run of the caller's agent (registered on first sight; the wall clock starts now). */
  startRun(p: Principal, slug: string, agentId: string, how?: WriteHow): Promise<StartedRun> {
    return startRun(this.ctx, p, slug, agentId, how);
  }
  /** Submits answers to the caller's run (idempotent upserts). */
  async submit(p: Principal, runId: string, answers: unknown, how?: WriteHow) {
    return submitAnswers(this.ctx, p, runId, answers, how);
  }
  /** Finalizes the caller's run: scores, receipt, anchor (SPEC 6.1 shape). */
  finalize(p: Principal, runId: string, opts?: FinalizeOptions): Promise<FinalizeResult> {
    return finalizeRun(this.ctx, p, runId, opts);
  }
  /** A run as `p` may see it (owner, the benchmark's author or the operator). */
  async getRun(p: Principal, runId: string): Promise<RunView> {
    return runView(this.ctx, p, runId);
  }
  /** One page of the caller's runs across all benchmarks, newest first (default the first 100, `RUNS_PAGE_SIZE`). */
  async myRuns(p: Principal, page?: { offset: unknown; limit: unknown }): Promise<RunsPage> {
    return myRuns(this.ctx, p, page);
  }
  /** The tasks of the caller's run as served. */
  async runTasks(p: Principal, runId: string): Promise<ServedTask[]> {
    return runTasks(this.ctx, p, runId);
  }
  /** The answers stored for the caller's run. */
  async runAnswers(p: Principal, runId: string): Promise<Map<number, string>> {
    return ownRunAnswers(this.ctx, p, runId);
  }
  /** A run's receipt: once the benchmark is closed, or to its author (SPEC 6.1). @throws PlatformError `receipt_withheld` */
  async receipt(
    viewer: Principal | null,
    slug: string,
    runId: string,
  ): Promise<{ receipt: Receipt; receipt_hash: Hex }> {
    return receiptOf(this.ctx, viewer, slug, runId);
  }
  /** What is still waiting for its anchor on a benchmark (commitment, receipts, pack). */
  async pendingAnchors(slug: string) {
    return pendingAnchors(this.ctx, slug);
  }
  /** The digests of a benchmark anchored first by someone else with another kind (never sent again). */
  squattedAnchors(slug: string): Promise<SquattedAnchor[]> {
    return squattedAnchors(this.ctx, slug);
  }
  /**
   * What waits for its anchor on a benchmark (digests no other answer shows yet, `reveal.ts`) and what
   * was squatted: the operator's, who pays the anchors (probe15 B-F11).
   * @throws PlatformError `forbidden` (`operator_only`), `unknown_benchmark`
   */
  async anchorsOf(
    p: Principal,
    slug: string,
  ): Promise<{ pending: PendingAnchor[]; squatted: SquattedAnchor[] }> {
    assertOperator(p, "list or send the anchors of a benchmark");
    return { pending: await pendingAnchors(this.ctx, slug), squatted: await squattedAnchors(this.ctx, slug) };
  }
  /**
   * Anchors what is pending for a benchmark, past any squat ({@link anchorBenchmark}): the operator's.
   * @throws PlatformError `forbidden` (`operator_only`), `unknown_benchmark`, `no_chain`, `chain_error`
   */
  async anchorBenchmark(p: Principal, slug: string): Promise<BenchmarkAnchoring> {
    assertOperator(p, "list or send the anchors of a benchmark");
    return anchorBenchmark(this.ctx, slug);
  }
  /** Anchors pending receipts of a benchmark in one `anchorMany`. */
  anchorPendingReceipts(slug: string) {
    return anchorPending(this.ctx, slug, "receipt");
  }

  // ---- leaderboard, award, evidence ----------------------------------------

  /** The leaderboard: public board while open, final board once closed (SPEC 6.1, 7.1); one page with `page`. */
  leaderboard(
    slug: string,
    opts: LeaderboardOptions & { page: { offset: number; limit: number } },
  ): Promise<LeaderboardPage>;
  leaderboard(slug: string, opts?: LeaderboardOptions): Promise<Leaderboard>;
  async leaderboard(slug: string, opts?: LeaderboardOptions): Promise<Leaderboard> {
    return leaderboard(this.ctx, slug, opts);
  }
  /**
   * One page of per-task credit of the finalized runs, regraded (the per-task tables, GAOS `taskScores`):
   * to everyone once closed, to the author at any time, and on a `buyer_only` board to the author only.
   * Paged over runs (default the first 100, `TASK_SCORES_PAGE_SIZE`), within `MAX_TASK_SCORE_CELLS` cells.
   * @throws PlatformError `invalid_option` naming `offset` or `limit`; `task_scores_withheld` while open,
   *   `forbidden` on a buyer_only board (see `task-scores.ts`)
   */
  async taskScores(
    viewer: Principal | null,
    slug: string,
    page?: { offset: unknown; limit: unknown },
  ): Promise<TaskScores> {
    return taskScores(this.ctx, viewer, slug, page);
  }
  /**
   * The per-task credits of the runs `runIds` of `slug` in the order asked (a leaderboard page's rows),
   * as many as the cell bound lets one answer hold (`next_offset` names the first id left): the
   * platform's `taskScoresOfIds`; the same access rule as {@link taskScores}.
   * @throws PlatformError `invalid_option` naming `run_ids` or `run_ids[i]`; the rest as {@link taskScores}
   */
  async taskScoresOfIds(viewer: Principal | null, slug: string, runIds: unknown): Promise<TaskScores> {
    return taskScoresOfIds(this.ctx, viewer, slug, runIds);
  }
  /**
   * The per-task credit of the finalized runs `runIds` of `slug` by run id (a page of GAOS entries; the
   * caller bounds the ids, `taskScoresPageRuns`); the same access rule as {@link taskScores}.
   * @throws PlatformError as {@link taskScores}
   */
  async taskScoresOfRuns(
    viewer: Principal | null,
    slug: string,
    runIds: readonly string[],
  ): Promise<Map<string, RunTaskScores>> {
    return taskScoresOfRuns(this.ctx, viewer, slug, runIds);
  }
  /**
   * Settles the award on-chain, mints, anchors and stores the pack (operator only; idempotent,
   * resumable); answers by `how.answerBy` (unix ms) if sooner than the chain's `awardWaitMs`.
   */
  /**
   * Whether an award of `slug` is recorded (prepared, sent or confirmed): its rank derivation, receipt
   * URLs included, is frozen, and resuming it builds nothing new.
   */
  async awardPrepared(slug: string): Promise<boolean> {
    return (await this.ctx.store.awards.get(slug)) !== null;
  }
  award(p: Principal, slug: string, how?: AwardHow): Promise<AwardResult> {
    return awardBenchmark(this.ctx, p, slug, how);
  }
  /**
   * The places `address` holds in `slug`'s award as mined here, each with the base units it credited
   * (`awardedPlaces`: none when no award of this store is mined, or `address` won none).
   */
  awardedPlaces(slug: string, address: string): Promise<AwardedPlace[]> {
    return awardedPlaces(this.ctx, slug, address);
  }
  /** Where the award transaction is, read from the chain when the store says sent-but-unconfirmed (`pending`, `mined`, ...). */
  awardState(slug: string) {
    return awardChainState(this.ctx, slug);
  }
  /** The pack bytes, hash and size (bytes), or the SPEC 8 reason why there is none yet. */
  awardEvidence(slug: string): Promise<AwardEvidenceResult> {
    return awardEvidence(this.ctx, slug);
  }
  /** {@link awardEvidence} without the pack's bytes: its hash and size (bytes), or the SPEC 8 reason (probe20 F4). */
  awardEvidenceHead(slug: string): Promise<AwardEvidenceHead> {
    return awardEvidenceHead(this.ctx, slug);
  }
  /**
   * The bytes of the stored pack of `slug` whose hash is `packHash` (an {@link awardEvidenceHead} `pack`
   * answer's): a 200 of the door reads them so, the door's logic run once (by the head).
   * @throws Error when no pack of `slug` with that hash is stored (a fault: a head of this store answered it)
   */
  awardEvidenceBytes(slug: string, packHash: Hex): Promise<Uint8Array> {
    return awardEvidenceBytes(this.ctx, slug, packHash);
  }
  /**
   * The bytes of the stored pack of `slug` whose hash is `packHash` and size `size` (bytes), an
   * {@link awardEvidenceHead} `pack` answer's, in chunks of at most `chunkBytes`: read from the store
   * when the first is asked for, once per process for all readers (the door's 200 streams them: no copy
   * per reader, probe26 A-F2).
   * @throws Error when no pack of `slug` with that hash and size is stored (a fault)
   */
  awardEvidenceChunks(
    slug: string,
    packHash: Hex,
    size: number,
    chunkBytes?: number,
  ): AsyncIterable<Uint8Array> {
    return awardEvidenceChunks(this.ctx, slug, packHash, size, chunkBytes);
  }
  /**
   * The slugs of every benchmark whose award evidence pack is stored, by whichever process minted it
   * (`serve`, or the CLI's `award` on the same store): one read of the slugs, no pack bytes.
   * @returns the slugs in ascending order
   */
  packedSlugs(): Promise<string[]> {
    return this.ctx.store.packs.slugs();
  }
}
