import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { keccak256, toHex, type Hex } from "viem";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { Command } from "commander";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, vi } from "vitest";
import { sql, type QueryExecutorProvider } from "kysely";
import { citiesDataset, dropPostgresSchemas, freshPostgresTarget, TEST_ENGINE } from "../src/testing.js";

// shared with the server's tests through @bench-bounty/platform/testing
export { waitForLockWaiters } from "../src/testing.js";
import type { StoreTarget } from "../src/store/engine.js";
import { ChainGateway, type ChainConfig } from "../src/chain.js";
import { registerPlatformCommands } from "../src/cli.js";
import { invokedAs } from "../src/cli/common.js";
import type { DatasetInput } from "../src/dataset.js";
import { PlatformError } from "../src/errors.js";
import { Platform, type PlatformOptions } from "../src/platform.js";
import { LocalRunBackend } from "../src/backend.js";
import type { Principal } from "../src/identity/principal.js";
import type { AwardHow } from "../src/award.js";
import type { AgentSettings } from "../src/agents.js";
import type { FinalizeOptions } from "../src/runs.js";
import { getRun, listRuns } from "../src/runs.js";
import type { LeaderboardOptions } from "../src/leaderboard.js";
import type { LockOptions } from "../src/award.js";
import type { FaultHooks } from "../src/context.js";
import { runBenchmark } from "../src/runner.js";
import { runRecordBytesSql } from "../src/store/migrations/0013_run_record_bytes.js";

/** Rows of `dataset_rows` and of `datasets` in `h`'s store, whatever their state (pending, deleted). */
export async function storedDatasetCounts(h: Harness): Promise<{ rows: number; datasets: number }> {
  const db = h.ctx.store.db;
  const count = async (table: string) =>
    Number(
      (await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql.table(table)}`.execute(db)).rows[0]!
        .n,
    );
  return { rows: await count("dataset_rows"), datasets: await count("datasets") };
}

/**
 * The program as a printed command (`resume`, the `anchor` retry) names it, `invokedAs` (here the
 * clone's `bin/bench-bounty` by its absolute path), escaped for a `RegExp`.
 */
export function programPattern(): string {
  return invokedAs().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A manual clock (unix ms) for tests. */
export function manualClock(startMs = Date.UTC(2026, 0, 1)): {
  now: () => number;
  advance: (ms: number) => void;
  set: (ms: number) => void;
} {
  let t = startMs;
  return { now: () => t, advance: (ms) => void (t += ms), set: (ms) => void (t = ms) };
}

const dirs: string[] = [];

/** A fresh temporary store directory (removed by {@link cleanup}). */
export { engines, freshPostgresTarget, TEST_ENGINE } from "../src/testing.js";

export function tempDir(prefix = "bb-platform-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/**
 * A test harness over a {@link Platform}: the operations under the names the tests use, each acting as
 * the right principal (the local operator publishes, closes and awards; each agent id gets its own
 * account, named like the agent, which owns the agent and its runs). Owner rules are tested with the
 * real {@link Platform} methods (`h.real`), never through this.
 */
export class Harness {
  private readonly byAgent = new Map<string, Principal>();
  private readonly byAccount = new Map<string, Principal>();
  constructor(readonly real: Platform) {}
  get ctx() {
    return this.real.ctx;
  }
  get chain() {
    return this.real.chain;
  }
  /**
   * A finalized run's receipt hash as stored (answers show it only once anchored, `reveal.ts`): what
   * a test needs to look a pending receipt up on-chain.
   */
  async storedReceiptHash(runId: string): Promise<Hex> {
    const run = await this.real.ctx.store.runs.get(runId);
    if (!run?.receipt_hash) throw new Error(`run ${runId} has no receipt`);
    return run.receipt_hash;
  }
  /** A benchmark's commit root as stored (answers show it only once anchored, `reveal.ts`). */
  async storedCommitRoot(slug: string): Promise<Hex> {
    return (await this.real.getBenchmark(slug)).commit_root;
  }
  /** The local operator. */
  get op(): Principal {
    return this.real.localOperator();
  }
  /** The principal of the account owning `agentId` (created on first use). */
  async principal(agentId: string): Promise<Principal> {
    let p = this.byAgent.get(agentId);
    if (!p) {
      // on a chain a run needs a withdrawal address (probe11 O1): each helper account's default agent
      // gets one of its own, derived from its name (a test that awards sets the ones it checks)
      const { api_key } = await this.real.createAccount(
        this.real.chain
          ? { name: agentId, agent: { agent_id: agentId, withdrawal_address: helperAddress(agentId) } }
          : { name: agentId },
      );
      p = await this.real.authenticate(api_key);
      this.byAgent.set(agentId, p);
      this.byAccount.set(p.account_id, p);
    }
    return p;
  }
  /** The principal of the account owning run `runId` (works on a reopened store: only the account id matters to the rules). */
  async ownerOfRun(runId: string): Promise<Principal> {
    const accountId = (await getRun(this.ctx, runId)).account_id;
    return (
      this.byAccount.get(accountId) ?? {
        account_id: accountId,
        roles: ["author", "competitor"],
        via: "key",
        key_prefix: null,
      }
    );
  }
  createDataset(input: DatasetInput) {
    return this.real.createDataset(this.op, input);
  }
  publish(datasetId: string, o: Parameters<Platform["publish"]>[2]) {
    return this.real.publish(this.op, datasetId, o);
  }
  testSet(slug: string) {
    return this.real.testSet(this.op, slug);
  }
  getBenchmark(slug: string) {
    return this.real.getBenchmark(slug);
  }
  listBenchmarks() {
    return this.real.listBenchmarks();
  }
  isOpen(slug: string) {
    return this.real.isOpen(slug);
  }
  getDataset(id: string) {
    return this.real.getDataset(id);
  }
  validateDataset(input: unknown) {
    return this.real.validateDataset(input);
  }
  leaderboard(slug: string, o?: LeaderboardOptions) {
    return this.real.leaderboard(slug, o);
  }
  async registerAgent(agentId: string, settings: AgentSettings = {}) {
    return this.real.registerAgent(await this.principal(agentId), agentId, settings);
  }
  getAgent(agentId: string) {
    return this.real.getAgent(agentId);
  }
  async startRun(slug: string, agentId: string) {
    return this.real.startRun(await this.principal(agentId), slug, agentId);
  }
  async submit(runId: string, answers: unknown) {
    return this.real.submit(await this.ownerOfRun(runId), runId, answers);
  }
  async finalize(runId: string, o?: FinalizeOptions) {
    return this.real.finalize(await this.ownerOfRun(runId), runId, o);
  }
  /** One whole run of `agentId` on `slug`: start, answer every task with {@link promptAgent}, finalize. */
  async play(slug: string, agentId: string) {
    const s = await this.startRun(slug, agentId);
    await this.submit(
      s.run.id,
      s.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: promptAgent(t.prompt) })),
    );
    return this.finalize(s.run.id);
  }
  /** The stored run record (plan included): store-internal, for assertions. */
  async getRun(runId: string) {
    return getRun(this.ctx, runId);
  }
  async runTasks(runId: string) {
    return this.real.runTasks(await this.ownerOfRun(runId), runId);
  }
  async runAnswers(runId: string) {
    return this.real.runAnswers(await this.ownerOfRun(runId), runId);
  }
  /** The stored runs of a benchmark (store-internal, for assertions). */
  async listRuns(slug: string, agentId?: string) {
    return listRuns(this.ctx, slug, agentId);
  }
  /** The runner backend of the account owning run `runId`. */
  async backendOfRun(runId: string): Promise<LocalRunBackend> {
    return new LocalRunBackend(this.real, await this.ownerOfRun(runId));
  }
  /** The runner backend of `agentId`'s account. */
  async backend(agentId: string): Promise<LocalRunBackend> {
    return new LocalRunBackend(this.real, await this.principal(agentId));
  }
  lockBounty(slug: string, o: LockOptions) {
    return this.real.lockBounty(this.op, slug, o);
  }
  attachBounty(slug: string, id: bigint | string | number) {
    return this.real.attachBounty(this.op, slug, id);
  }
  closeBenchmark(slug: string) {
    return this.real.closeBenchmark(this.op, slug);
  }
  award(slug: string, how?: AwardHow) {
    return this.real.award(this.op, slug, how);
  }
  awardEvidence(slug: string) {
    return this.real.awardEvidence(slug);
  }
  awardEvidenceHead(slug: string) {
    return this.real.awardEvidenceHead(slug);
  }
  awardEvidenceBytes(slug: string, packHash: Hex) {
    return this.real.awardEvidenceBytes(slug, packHash);
  }
  anchorCommitment(slug: string) {
    return this.real.anchorCommitment(slug);
  }
  anchorPendingReceipts(slug: string) {
    return this.real.anchorPendingReceipts(slug);
  }
  close() {
    return this.real.close();
  }
}

/**
 * Opens a platform on a fresh store of the engine under test ({@link TEST_ENGINE}: a fresh directory on
 * SQLite, a fresh schema on PostgreSQL), wrapped in a {@link Harness}.
 */
export async function openTemp(opts: Partial<PlatformOptions> = {}): Promise<Harness> {
  if (TEST_ENGINE === "postgres" && opts.dir === undefined && opts.database === undefined)
    return new Harness(
      await Platform.open({ runsDir: tempDir(), ...opts, database: await freshPostgresTarget() }),
    );
  return new Harness(await Platform.open({ dir: tempDir(), ...opts }));
}

/** A fresh store of the engine under test, to open (and reopen) with {@link openAt}: a directory on SQLite, a schema on PostgreSQL. */
export async function freshStoreLocation(): Promise<
  { dir: string } | { database: Awaited<ReturnType<typeof freshPostgresTarget>>; runsDir: string }
> {
  if (TEST_ENGINE === "postgres") return { database: await freshPostgresTarget(), runsDir: tempDir() };
  return { dir: tempDir() };
}

/** A lock held by another process: {@link holdLockInChild}. */
export interface LockInChild {
  /** Lets the lock go (the child then exits); resolves once it did. */
  release(): Promise<void>;
  /** Kills the child (SIGKILL) while it holds the lock; resolves once it is gone. */
  kill(): Promise<void>;
}

/**
 * Spawns a node process (test/fixtures/hold-lock.ts, through tsx) that opens the store at `where` and
 * holds `Store.withLock(name)`; resolves once it holds it. Another process's view of the store on
 * both engines (probe19 A-F9: on SQLite the lock was only per process).
 */
export async function holdLockInChild(
  where: { dir: string } | { database: StoreTarget },
  name: string,
): Promise<LockInChild> {
  // node itself with tsx's loader (not the tsx wrapper, whose own child would outlive a SIGKILL)
  const tsx = new URL("../../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
  const fixture = fileURLToPath(new URL("./fixtures/hold-lock.ts", import.meta.url));
  const location = "dir" in where ? where : where.database;
  const child = spawn(process.execPath, ["--import", tsx, fixture, JSON.stringify(location), name], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stderr.on("data", (b: Buffer) => (err += b.toString()));
  const exited = new Promise<void>((done) => child.on("exit", () => done()));
  const printed = (line: string) =>
    new Promise<void>((ok, fail) => {
      const check = () => {
        if (out.split("\n").includes(line)) ok();
      };
      child.stdout.on("data", (b: Buffer) => {
        out += b.toString();
        check();
      });
      void exited.then(() =>
        out.split("\n").includes(line) ? ok() : fail(new Error(`hold-lock exited: ${out} ${err}`)),
      );
      check();
    });
  await printed("held");
  return {
    release: async () => {
      child.stdin.write("release\n");
      await printed("released");
      await exited;
    },
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** Opens a platform on `dir` (or `database`), wrapped in a {@link Harness}. */
export async function openAt(opts: PlatformOptions): Promise<Harness> {
  return new Harness(await Platform.open(opts));
}

/** Removes every store directory made by {@link tempDir} and every schema made by {@link freshPostgresTarget} so far. */
export async function cleanup(): Promise<void> {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  await dropPostgresSchemas();
}

/** The publish options most tests give the cities test set (an exact grader over `Q <city> #<index>`). */
export const CITIES_PUBLISH = {
  title: "Cities",
  prompt_template: "Q {payload.city} #{payload.index}",
  grader_type: "exact",
} as const;

/** A small labelled dataset: the shared "cities" test set of `n` rows (`src/testing.ts`). */
export { citiesDataset as cities } from "../src/testing.js";

/** A deterministic in-process agent: answers `answer-<index>` read from the prompt, wrong on every third. */
export function promptAgent(prompt: string): string {
  const m = /#(\d+)/.exec(prompt);
  const i = Number(m?.[1] ?? -1);
  return i % 3 === 0 ? "wrong" : `answer-${i}`;
}

/**
 * Starts one local Base devchain for the whole test file: registers a `beforeAll` that starts it
 * (240 s allowed) and an `afterAll` that stops it and then runs {@link cleanup}.
 * @returns a getter for the running chain, to call inside a test
 */
/**
 * The CLI options that point a command at `dc`: `--rpc-url` (unless `rpc` is false), `--bounty-contract`,
 * `--anchor-registry` and, with `usdc`, `--usdc`.
 */
export function devChainArgs(dc: DevChain, opts: { rpc?: boolean; usdc?: boolean } = {}): string[] {
  return [
    ...(opts.rpc === false ? [] : ["--rpc-url", dc.rpcUrl]),
    ...["--bounty-contract", dc.contracts.benchmarkBounty, "--anchor-registry", dc.contracts.anchorRegistry],
    ...(opts.usdc === true ? ["--usdc", dc.contracts.usdc] : []),
  ];
}

export function useDevChain(): () => DevChain {
  let dc: DevChain | undefined;
  beforeAll(async () => {
    dc = await startDevChain();
  }, 240_000);
  afterAll(async () => {
    await dc?.stop();
    await cleanup();
  });
  return () => {
    if (dc === undefined) throw new Error("the devchain is not running (call the getter inside a test)");
    return dc;
  };
}

/**
 * Runs `open` (a `Platform.open` on a chain whose RPC does not answer) with the open's genesis read
 * (`ChainGateway.genesisHash`, store28 R-F1) answered `genesis`: a chain that goes down after the open,
 * which is what the tests of chain outages are about (an open on a chain that does not answer is refused
 * `chain_error`: award-target.test.ts).
 * @param genesis the chain's genesis hash (a devchain's real one, or any 32 bytes for a made-up chain)
 */
export async function openedBeforeOutage<T>(genesis: Hex, open: () => Promise<T>): Promise<T> {
  const spy = vi.spyOn(ChainGateway.prototype, "genesisHash").mockResolvedValue(genesis);
  try {
    return await open();
  } finally {
    spy.mockRestore();
  }
}

/** The genesis block hash of `dc` (lowercase). */
export async function genesisOf(dc: DevChain): Promise<Hex> {
  return (await dc.publicClient.getBlock({ blockNumber: 0n })).hash.toLowerCase() as Hex;
}

/** The platform's chain settings on `dc`, sending as the funded account `accountIndex`. */
export function chainConfig(dc: DevChain, accountIndex: number): ChainConfig {
  return {
    rpcUrl: dc.rpcUrl,
    chainId: dc.chainId,
    contracts: dc.contracts,
    privateKey: dc.accounts[accountIndex]!.privateKey,
  };
}

/**
 * The author `dc.accounts[p.author]` locks the prize of `slug` (the pool minted to it first): closes
 * `closesIn` seconds after `chainNow` (default 3600), award deadline `awardWindow` seconds after the
 * close (default a day), threshold `thresholdBps` (default 5000).
 * @returns the attached bounty and `closesAt` (unix seconds)
 */
export async function lockPrize(
  platform: Harness,
  dc: DevChain,
  slug: string,
  chainNow: number,
  p: {
    pool: bigint;
    author: number;
    payoutRule: LockOptions["payoutRule"];
    closesIn?: number;
    awardWindow?: number;
    thresholdBps?: number;
  },
) {
  const author = dc.accounts[p.author]!;
  await dc.mintUsdc(author.address, p.pool);
  const closesAt = chainNow + (p.closesIn ?? 3600);
  const bounty = await platform.lockBounty(slug, {
    authorPrivateKey: author.privateKey,
    pool: p.pool,
    closesAt,
    awardDeadline: closesAt + (p.awardWindow ?? 86400),
    thresholdBps: p.thresholdBps ?? 5000,
    ...(p.payoutRule ? { payoutRule: p.payoutRule } : {}),
  });
  return { bounty, closesAt };
}

/** `statusOf(bountyId)` of the devchain's BenchmarkBounty (2 Funded, 3 Awarded). */
export function bountyStatus(dc: DevChain, bountyId: bigint | string): Promise<number> {
  return dc.publicClient.readContract({
    address: dc.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    functionName: "statusOf",
    args: [BigInt(bountyId)],
  });
}

/** `creditOf(bountyId, account)` of the devchain's BenchmarkBounty, in base units. */
export function bountyCredit(dc: DevChain, bountyId: bigint | string, account: string): Promise<bigint> {
  return dc.publicClient.readContract({
    address: dc.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    functionName: "creditOf",
    args: [BigInt(bountyId), account as `0x${string}`],
  });
}

/** The chain's clock now (`now`, unix seconds of the latest block) and a {@link manualClock} set to it. */
export async function chainClock(
  dc: DevChain,
): Promise<{ now: number; clock: ReturnType<typeof manualClock> }> {
  const now = await latestBlockTime(dc);
  return { now, clock: manualClock(now * 1000) };
}

/**
 * A platform on a fresh store (the test run's engine) whose clock starts at `dc`'s latest block time
 * (see {@link chainClock}) and whose chain is `dc` sending from `accountIndex`.
 */
export async function openOnChainClock(
  dc: DevChain,
  accountIndex: number,
): Promise<{ platform: Harness; chainNow: number; clock: ReturnType<typeof manualClock> }> {
  const { now: chainNow, clock } = await chainClock(dc);
  const platform = await openAt({
    ...(await freshStoreLocation()),
    clock: clock.now,
    chain: chainConfig(dc, accountIndex),
  });
  return { platform, chainNow, clock };
}

/** A fault hook that "kills the process" once at its step (throws `injected crash at <point>` the first time). */
export function crashOnce(point: keyof FaultHooks): FaultHooks {
  let armed = true;
  return {
    [point]: () => {
      if (armed) {
        armed = false;
        throw new Error(`injected crash at ${point}`);
      }
    },
  } as FaultHooks;
}

/** The timestamp (unix seconds) of the chain's latest block. */
export async function latestBlockTime(dc: DevChain): Promise<number> {
  return Number((await dc.publicClient.getBlock()).timestamp);
}

/** The {@link PlatformError} that `fn` throws (the test fails if it throws anything else, or nothing). */
export function refusal(fn: () => unknown): PlatformError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PlatformError);
    return e as PlatformError;
  }
  throw new Error("expected a refusal");
}

/** The {@link PlatformError} that `p` rejects with (the test fails if it rejects with anything else, or resolves). */
export async function rejection(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(PlatformError);
    return e as PlatformError;
  }
  throw new Error("expected a refusal");
}

/**
 * Runs the `bench-bounty` platform commands in-process with stdout and stderr captured.
 * @returns what was written to stdout and stderr, and the exit code: the one commander exits with
 *   (its own errors, on any subcommand) or else the one the command set on `process.exitCode`
 */
export async function runCli(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation(
    (s: string | Uint8Array) => ((out += String(s)), true),
  );
  vi.spyOn(process.stderr, "write").mockImplementation(
    (s: string | Uint8Array) => ((err += String(s)), true),
  );
  process.exitCode = 0;
  const program = registerPlatformCommands(new Command("bench-bounty").exitOverride());
  for (const c of program.commands) c.exitOverride();
  let code: number | undefined;
  try {
    await program.parseAsync(["node", "bench-bounty", ...args]);
  } catch (e) {
    code = (e as { exitCode?: number }).exitCode ?? 99;
  } finally {
    vi.restoreAllMocks();
  }
  code ??= Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { out, err, code };
}

/** Creates an account on `store` with the CLI (`account create`) and returns its API key. */
export async function cliAccount(store: string, name: string): Promise<string> {
  const r = await runCli("account", "create", "--name", name, "--store", store);
  expect(r.code, r.err).toBe(0);
  return (JSON.parse(r.out) as { api_key: string }).api_key;
}

/** A withdrawal address of a test account, derived from its name (never a refused range). */
export function helperAddress(name: string): string {
  return `0x${keccak256(toHex(`helper-address:${name}`)).slice(-40)}`;
}

/**
 * Brings `platform` to a benchmark ready to award on `dc`: published (anchored), a pool locked by
 * `dc.accounts[account + 1]`, one agent, "alice" (withdrawal address `dc.accounts[account + 2]`), run
 * right and finalized, the chain clock (and `clock`) past the close.
 */
export async function publishLockAndRun(
  platform: Harness,
  dc: DevChain,
  at: {
    chainNow: number;
    clock: ReturnType<typeof manualClock>;
    account: number;
    tag: string;
    title: string;
  },
): Promise<{ slug: string; bountyId: bigint; winner: Hex; closesAt: number }> {
  const ds = await platform.createDataset(citiesDataset(4, at.tag));
  const { slug } = await platform.publish(ds.dataset_id, {
    title: at.title,
    prompt_template: "What is the answer for {payload.city} #{payload.index}?",
    grader_type: "exact",
    time_budget_seconds: 600,
  });
  const { bounty, closesAt } = await lockPrize(platform, dc, slug, at.chainNow, {
    pool: 4_000_000n,
    author: at.account + 1,
    payoutRule: "winner_take_all",
  });
  const winner = dc.accounts[at.account + 2]!.address.toLowerCase() as Hex;
  await platform.registerAgent("alice", { withdrawal_address: winner });
  await runBenchmark(await platform.backend("alice"), slug, "alice", {
    kind: "function",
    name: "right",
    answer: (task) => {
      at.clock.advance(1000);
      return `answer-${/#(\d+)/.exec(task.prompt)![1]}`;
    },
  });
  await dc.increaseTime(3700);
  at.clock.set((closesAt + 200) * 1000);
  return { slug, bountyId: BigInt(bounty.bounty_id), winner, closesAt };
}

/** Every `Awarded` event of the bounty since `fromBlock`, by transaction. */
export async function awardedTxs(dc: DevChain, bountyId: bigint, fromBlock: bigint): Promise<Hex[]> {
  const logs = await dc.publicClient.getContractEvents({
    address: dc.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    eventName: "Awarded",
    args: { bountyId },
    fromBlock,
  });
  return logs.map((l) => l.transactionHash);
}

/**
 * Takes a store back to the schema before migration 0012 (no `anchors.held`, no index on what a flush
 * reads, 0012 not recorded; and before 0014: no `datasets.pending_until`, 0014 not recorded; and before
 * 0015: no `accounts.network` nor its index, 0015 not recorded; 0016, data only, not recorded):
 * {@link undoMigration0011} calls it first.
 */
export async function undoMigration0012(db: QueryExecutorProvider): Promise<void> {
  // 0016 changes data only (receipt squats cleared): not recorded, it runs again after the others
  await sql`DELETE FROM kysely_migration WHERE name = '0016_receipt_squats_adopted'`.execute(db);
  await sql`DROP INDEX accounts_by_network`.execute(db);
  await sql`ALTER TABLE accounts DROP COLUMN network`.execute(db);
  await sql`DELETE FROM kysely_migration WHERE name = '0015_account_network'`.execute(db);
  await sql`ALTER TABLE datasets DROP COLUMN pending_until`.execute(db);
  await sql`DELETE FROM kysely_migration WHERE name = '0014_dataset_pending'`.execute(db);
  await sql`DROP INDEX anchors_to_flush`.execute(db);
  await sql`ALTER TABLE anchors DROP COLUMN held`.execute(db);
  await sql`DELETE FROM kysely_migration WHERE name = '0012_anchor_held'`.execute(db);
}

/**
 * Takes a store back to the schema before migration 0011 (no `benchmarks.bounty_key`, no index on it or
 * on `commit_root`, 0011 not recorded; and before 0012, {@link undoMigration0012}, and 0013: each run's
 * `answer_bytes` without its plan and receipt, 0013 not recorded, the counters it sums again left as they
 * are): the tests of older migrations call it first, so that reopening runs 0011 to 0013 again too.
 */
export async function undoMigration0011(db: QueryExecutorProvider): Promise<void> {
  await sql
    .raw(`UPDATE runs SET answer_bytes = answer_bytes - ${runRecordBytesSql(TEST_ENGINE)}`)
    .execute(db);
  await sql`DELETE FROM kysely_migration WHERE name = '0013_run_record_bytes'`.execute(db);
  await undoMigration0012(db);
  await sql`DROP INDEX benchmarks_one_per_bounty`.execute(db);
  await sql`DROP INDEX benchmarks_by_root`.execute(db);
  await sql`ALTER TABLE benchmarks DROP COLUMN bounty_key`.execute(db);
  await sql`DELETE FROM kysely_migration WHERE name = '0011_bounty_attached_once'`.execute(db);
}

/**
 * A stub JSON-RPC node on loopback for the tests of the gateway's reads of hostile answers: each POST's
 * single call is answered `{jsonrpc: "2.0", id, result: resultOf(call.method, path, call.params)}` (`path` the request's
 * path without its leading `/`), as `text/plain` when the path ends in `/plain` (viem then parses the text
 * itself). Started before the file's tests, closed after them.
 * @returns its origin (`http://127.0.0.1:PORT`), read once the tests run
 */
export function useStubRpc(
  resultOf: (method: string, path: string, params: unknown[]) => unknown,
): () => string {
  let server: import("node:http").Server | undefined;
  let origin = "";
  beforeAll(async () => {
    const { createServer } = await import("node:http");
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const call = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          id: number;
          method: string;
          params?: unknown[];
        };
        const path = (req.url ?? "/").slice(1);
        const result = resultOf(call.method, path, call.params ?? []);
        res.writeHead(200, { "content-type": path.endsWith("/plain") ? "text/plain" : "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}`;
  });
  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });
  return () => origin;
}
