/**
 * `Platform`: the facade the CLI, the HTTP door, the demo and tests use. It owns one store (a
 * directory with one SQLite file) and, optionally, chain access; every method maps to one operation
 * of the seeds (datasets, publish, runs, leaderboard, award, evidence).
 *
 * ```ts
 * const platform = Platform.open({ dir: "./store", chain: { rpcUrl, chainId, contracts, privateKey } });
 * const ds = platform.createDataset(await loadCsvDataset(csvPath, mapping, { name: "seattle-weather" }));
 * const bench = await platform.publish(ds.dataset_id, { title, prompt_template, grader_type: "exact" });
 * ```
 */
import { randomBytes as nodeRandomBytes } from "node:crypto";
import { ChainGateway, type ChainConfig } from "./chain.js";
import type { AttachedBounty, BenchmarkRecord, FaultHooks, PlatformContext, TaskRecord } from "./context.js";
import { checkDataset, type DatasetInput, type DatasetReport } from "./dataset.js";
import { leaderboard, type Leaderboard } from "./leaderboard.js";
import {
  anchorCommitment,
  createDataset,
  getBenchmark,
  getDataset,
  getTasks,
  isOpen,
  listBenchmarks,
  publishBenchmark,
  type DatasetSummary,
  type PublishOptions,
  type PublishResult,
} from "./publish.js";
import {
  anchorPending,
  finalizeRun,
  getAgent,
  getRun,
  listRuns,
  registerAgent,
  runAnswers,
  runTasks,
  startRun,
  submitAnswers,
  type AgentRecord,
  type FinalizeOptions,
  type FinalizeResult,
  type RunRecord,
  type ServedTask,
  type StartedRun,
} from "./runs.js";
import { Store } from "./store.js";
import { systemClock, type Clock } from "./time.js";
import {
  attachBounty,
  awardBenchmark,
  awardEvidence,
  closeBenchmark,
  lockBounty,
  type AwardEvidenceResult,
  type AwardResult,
  type LockOptions,
} from "./award.js";

/** Options of {@link Platform.open}. */
export interface PlatformOptions {
  /** Store directory (created if missing): `platform.sqlite`, `packs/`, `runs/`. */
  dir: string;
  /** Open only a store that exists (`no_store` otherwise) and create nothing: for read-only use. */
  existingStore?: boolean;
  /** Chain access (omit for an off-chain platform: no anchors, no award). */
  chain?: ChainConfig | ChainGateway;
  /** Injectable clock (unix ms), for tests and the demo. Default: `Date.now`. */
  clock?: Clock;
  /** Injectable randomness (salts). Default: `crypto.randomBytes`. */
  randomBytes?: (n: number) => Uint8Array;
  /** Derive answer salts from this seed (reproducible runs for tests/demos; never in production). */
  answerSaltSeed?: string;
  /** Base URL of the evidence door, used in `receipt_url` (default `http://127.0.0.1:8787`). */
  publicBaseUrl?: string;
  /** Anchor each receipt at finalize (`immediate`, default) or in batches with `anchorPending` (`batch`). */
  receiptAnchoring?: "immediate" | "batch";
  /** Fault injection for crash tests. */
  faults?: FaultHooks;
}

/** The benchmark platform over one store. */
export class Platform {
  private constructor(readonly ctx: PlatformContext) {}

  /** Opens (or creates) a store. */
  static open(opts: PlatformOptions): Platform {
    const chain =
      opts.chain === undefined
        ? null
        : opts.chain instanceof ChainGateway
          ? opts.chain
          : ChainGateway.connect(opts.chain);
    return new Platform({
      store: new Store(opts.dir, { existing: opts.existingStore === true }),
      clock: opts.clock ?? systemClock,
      randomBytes: opts.randomBytes ?? ((n) => new Uint8Array(nodeRandomBytes(n))),
      answerSaltSeed: opts.answerSaltSeed ?? null,
      chain,
      publicBaseUrl: opts.publicBaseUrl ?? "http://127.0.0.1:8787",
      receiptAnchoring: opts.receiptAnchoring ?? "immediate",
      faults: opts.faults ?? {},
    });
  }

  /** The chain gateway, or null. */
  get chain(): ChainGateway | null {
    return this.ctx.chain;
  }

  /** Closes the store. */
  close(): void {
    this.ctx.store.close();
  }

  // ---- datasets -----------------------------------------------------------

  /** Dry run: validates a dataset, persisting nothing. */
  validateDataset(input: unknown): DatasetReport {
    return checkDataset(input);
  }
  /** Validates and stores a dataset (idempotent for identical name and content). */
  createDataset(input: DatasetInput): DatasetSummary {
    return createDataset(this.ctx, input);
  }
  /** A stored dataset's summary. */
  getDataset(datasetId: string): DatasetSummary {
    return getDataset(this.ctx, datasetId);
  }

  // ---- benchmarks ---------------------------------------------------------

  /** Publishes the benchmark of a stored dataset (and anchors its commitment when a chain is set). */
  publish(datasetId: string, options: PublishOptions): Promise<PublishResult> {
    return publishBenchmark(this.ctx, datasetId, options);
  }
  /** Anchors a commitment left pending (a chain outage during publish). */
  anchorCommitment(slug: string) {
    return anchorCommitment(this.ctx, slug);
  }
  /** A benchmark record. */
  getBenchmark(slug: string): BenchmarkRecord {
    return getBenchmark(this.ctx, slug);
  }
  /** All benchmarks. */
  listBenchmarks(): BenchmarkRecord[] {
    return listBenchmarks(this.ctx);
  }
  /** The full test set (gold and salts included): for the author and the pack only. */
  testSet(slug: string): TaskRecord[] {
    return getTasks(this.ctx, slug);
  }
  /** True while the benchmark accepts runs. */
  isOpen(slug: string): boolean {
    return isOpen(this.ctx, getBenchmark(this.ctx, slug));
  }
  /** The author locks a prize on-chain for the benchmark and attaches it. */
  lockBounty(slug: string, opts: LockOptions): Promise<AttachedBounty> {
    return lockBounty(this.ctx, slug, opts);
  }
  /** Attaches an existing on-chain bounty (its root and leaf count must match the commitment). */
  attachBounty(slug: string, bountyId: bigint | string | number): Promise<AttachedBounty> {
    return attachBounty(this.ctx, slug, BigInt(bountyId));
  }
  /** Closes a benchmark to new runs (the award closes it too). */
  closeBenchmark(slug: string): BenchmarkRecord {
    return closeBenchmark(this.ctx, slug);
  }

  // ---- agents and runs ----------------------------------------------------

  /** Registers an agent (withdrawal address, author flag). */
  registerAgent(
    agentId: string,
    opts: { withdrawal_address?: string | null; is_author_agent?: boolean } = {},
  ): AgentRecord {
    return registerAgent(this.ctx, agentId, opts);
  }
  /** An agent, or null. */
  getAgent(agentId: string): AgentRecord | null {
    return getAgent(this.ctx, agentId);
  }
  /** Starts a run (the wall clock starts now). */
  startRun(slug: string, agentId: string): StartedRun {
    return startRun(this.ctx, slug, agentId);
  }
  /** Submits answers (idempotent upserts). */
  submit(runId: string, answers: unknown) {
    return submitAnswers(this.ctx, runId, answers);
  }
  /** Finalizes a run: scores, receipt, anchor. */
  finalize(runId: string, opts?: FinalizeOptions): Promise<FinalizeResult> {
    return finalizeRun(this.ctx, runId, opts);
  }
  /** A run record. */
  getRun(runId: string): RunRecord {
    return getRun(this.ctx, runId);
  }
  /** The tasks of a run as served. */
  runTasks(runId: string): ServedTask[] {
    return runTasks(this.ctx, runId);
  }
  /** The answers stored for a run. */
  runAnswers(runId: string): Map<number, string> {
    return runAnswers(this.ctx, runId);
  }
  /** Runs of a benchmark. */
  listRuns(slug: string, agentId?: string): RunRecord[] {
    return listRuns(this.ctx, slug, agentId);
  }
  /** Anchors pending receipts of a benchmark in one `anchorMany`. */
  anchorPendingReceipts(slug: string) {
    return anchorPending(this.ctx, slug, "receipt");
  }

  // ---- leaderboard, award, evidence ----------------------------------------

  /** The leaderboard (SPEC 7.1). */
  leaderboard(slug: string): Leaderboard {
    return leaderboard(this.ctx, slug);
  }
  /** Settles the award on-chain, mints, anchors and stores the pack (idempotent, resumable). */
  award(slug: string): Promise<AwardResult> {
    return awardBenchmark(this.ctx, slug);
  }
  /** The pack bytes, or the SPEC 8 reason why there is none yet. */
  awardEvidence(slug: string): Promise<AwardEvidenceResult> {
    return awardEvidence(this.ctx, slug);
  }
}
