/**
 * The demo's run: the whole prize lifecycle of one benchmark on a local Base-profile chain, each step
 * through the project's own packages and tasks (no shortcuts around the protocol):
 *
 * 1. `@bench-bounty/devchain` starts a hardhat node (chain id 8453, test USDC at the Base USDC address,
 *    BenchmarkBounty and AnchorRegistry deployed with the Ignition module); the Ponder indexer
 *    (`@bench-bounty/indexer/testing`, embedded PGlite) and the evidence door (`serveDoor` of
 *    `@bench-bounty/platform`) start beside it;
 * 2. the platform publishes a benchmark from `vega-datasets/data/seattle-weather.csv` (predict `weather`,
 *    `exact` grader, a private split) and anchors its commitment;
 * 3. the author locks a `top_n_split` USDC prize with an EIP-2612 permit through `hardhat bounty:lock`;
 * 4. the CLI agents of `demo/agents/` compete through the platform runner, several attempts each; every
 *    receipt is anchored at finalize;
 * 5. the chain clock moves past `closesAt`; the platform awards (winners, ranking digest), mints, anchors
 *    and stores the evidence pack, and the door serves it;
 * 6. the winners claim with `hardhat bounty:claim` (place 1 to another address);
 * 7. the indexer catches up; its award must equal the chain's `Awarded` log;
 * 8. `@bench-bounty/verifier` fetches the pack from the door and verifies it with the `full` policy.
 *
 * Amounts are base units (`bigint`, USDC has 6 decimals); times are unix seconds unless named `Ms`.
 */
import {
  anchorRegistryAbi,
  benchmarkBountyAbi,
  testUsdcAbi,
  BASE_USDC_ADDRESS,
} from "@bench-bounty/contracts";
import { REPO_ROOT, startDevChain, type DevChain } from "@bench-bounty/devchain";
import { freePort, startIndexer, type RunningIndexer } from "@bench-bounty/indexer/testing";
import {
  Platform,
  ensureWritableDir,
  loadCsvDataset,
  runBenchmark,
  serveDoor,
  type AwardResult,
  type LeaderboardRow,
  type PublishResult,
} from "@bench-bounty/platform";
import { FACT_DESCRIPTIONS, verifyPack, type VerificationReport } from "@bench-bounty/verifier";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { decodeFunctionData, getAddress, type Address, type Hex } from "viem";
import { PROMPT_TEMPLATE, sampleBySeed, seattleWeatherCsvPath } from "./dataset.js";
import { AUTHOR_AGENT, type DemoOptions } from "./options.mjs";
import { formatSeconds, PhaseRunner, type PhaseContext, type PhaseResult } from "./phases.js";
import { ProcessRegistry, withTimeout } from "./processes.js";
import { clip, formatUsdc, markdownTable, renderTable, short, type Table } from "./table.js";

/** Directory of the CLI agents (`demo/agents/*.mjs`). */
export const AGENTS_DIR = fileURLToPath(new URL("../agents/", import.meta.url));

/** The phases, in order (names used in the progress output and the report). */
export const PHASES = [
  "start local Base chain, indexer and evidence door",
  "publish benchmark and anchor its commitment",
  "lock the prize (bounty:lock, EIP-2612 permit)",
  "agents compete (runner, receipts anchored)",
  "close the contest (move chain time past closesAt)",
  "award, mint, anchor and serve the evidence pack",
  "winners claim (bounty:claim)",
  "index the chain (Ponder, PGlite)",
  "verify the pack as a stranger (policy full)",
  "write outputs",
] as const;

/** Seconds between the lock and `closesAt` (the contest window on the chain clock). */
const CONTEST_SECONDS = 3600;
/** Seconds between `closesAt` and `awardDeadline`. */
const AWARD_WINDOW_SECONDS = 7 * 24 * 3600;
/** Composite threshold of the prize, in bps (composite >= 0.6000 to win). */
const THRESHOLD_BPS = 6000;
/** SPEC 7.2 splits of `top_n_split`. */
const TOP_N_SPLIT = [5000, 3000, 2000];

/**
 * Account roles on the devchain (Hardhat's 20 funded accounts): 0 deployed the contracts and owns the test
 * USDC; 1 is the platform (anchors, awarder); 2 the benchmark author; agent owners start at 3; the first
 * winner claims to {@link COLD_WALLET_INDEX}.
 */
const PLATFORM_INDEX = 1;
const AUTHOR_INDEX = 2;
const FIRST_OWNER_INDEX = 3;
const COLD_WALLET_INDEX = 19;

/** One claim as made and checked by the demo. */
export interface ClaimRecord {
  place: number;
  agent_id: string;
  /** The winner's withdrawal address (the claimer). */
  account: string;
  /** Where the USDC went. */
  to: string;
  /** Base units. */
  amount: string;
  tx_hash: string;
  /** `to`'s USDC balance before and after (base units). */
  balance_before: string;
  balance_after: string;
  /** The claimer's remaining credit after the claim (base units; must be 0). */
  credit_after: string;
}

/** The chain's `Awarded` log of the bounty (what the indexer must agree with). */
export interface ChainAward {
  bounty_id: string;
  tx_hash: string;
  block: number;
  winners: string[];
  amounts: string[];
  author_remainder: string;
  ranking_digest: string;
}

/** One award as the indexer's `GET /awards` serves it (fields used by the demo). */
export interface IndexerAward {
  bountyId: string;
  pool: string;
  authorRemainder: string;
  rankingDigest: string;
  awardedBlock: number | string;
  awardedTx: string;
  winners: { place: number; account: string; amount: string; claimedAmount: string; outstanding: string }[];
}

/** What {@link runDemo} returns. */
export interface DemoResult {
  /** True when every phase succeeded. */
  ok: boolean;
  phases: PhaseResult[];
  totalMs: number;
  /** Output files written (absolute paths); a file is absent when its phase did not run. */
  files: { pack?: string; verification?: string; report?: string };
  rpcUrl?: string;
  indexerUrl?: string;
  doorUrl?: string;
  slug?: string;
  bountyId?: string;
  contracts?: { benchmarkBounty: Address; anchorRegistry: Address; usdc: Address };
  leaderboard?: LeaderboardRow[];
  award?: AwardResult;
  chainAward?: ChainAward;
  indexerAward?: IndexerAward;
  claims?: ClaimRecord[];
  verification?: VerificationReport;
  /** The independent Python check of the pack (`demo/independent/check_pack.py`), when python3 exists. */
  independent?: IndependentCheck;
  /** Stops every process the demo started (idempotent). */
  stop(): Promise<void>;
}

/** How {@link runDemo} talks to its caller. */
export interface DemoIo {
  /** Prints one line (default `console.log`). */
  log?: (line: string) => void;
  /**
   * Leave the chain, indexer and door running and let the caller stop them with `result.stop()`
   * (the CLI's `--keep-running`, and the end-to-end test). Default false: everything is stopped
   * before `runDemo` returns.
   */
  hold?: boolean;
  /** The registry to put children in (the CLI passes the one its signal handlers stop). */
  registry?: ProcessRegistry;
}

/** Writes a file atomically (temp file in the same directory, then rename): no partial outputs. */
function writeAtomically(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** Milliseconds a Hardhat task may take before it is killed (ts-node start-up plus one transaction). */
const TASK_TIMEOUT_MS = 180_000;

/**
 * Writes the demo's own address book: the repo's `packages/contracts/deployments.json` with its `local`
 * entry replaced by the devchain's deployment, so the Hardhat tasks (`BENCH_BOUNTY_ADDRESS_BOOK`) act on
 * exactly these contracts whatever the repo's book says.
 * @returns the file path
 */
function writeDemoAddressBook(chain: DevChain, dir: string): string {
  const repoBook = join(REPO_ROOT, "packages", "contracts", "deployments.json");
  const book = JSON.parse(readFileSync(repoBook, "utf8")) as Record<string, unknown>;
  book["local"] = {
    network: "localhost",
    benchmarkBounty: chain.contracts.benchmarkBounty,
    anchorRegistry: chain.contracts.anchorRegistry,
    usdc: chain.contracts.usdc,
    startBlock: chain.startBlock,
  };
  const file = join(dir, "deployments.json");
  writeFileSync(file, JSON.stringify(book, null, 2) + "\n");
  return file;
}

/**
 * Runs a Hardhat task against the devchain (`--network localhost`, the demo's address book); resolves
 * with its stdout. Its output is shown under the phase, prefixed with `│`.
 * @throws Error with the task's last lines when it exits non-zero or runs past {@link TASK_TIMEOUT_MS}
 */
async function hardhatTask(
  registry: ProcessRegistry,
  chain: DevChain,
  addressBook: string,
  args: string[],
  note: (line: string) => void,
): Promise<string> {
  const out: string[] = [];
  const child = registry.spawn(
    `hardhat ${args[0]}`,
    join(REPO_ROOT, "node_modules", ".bin", "hardhat"),
    args,
    {
      cwd: REPO_ROOT,
      env: { ...process.env, LOCAL_RPC_URL: chain.rpcUrl, BENCH_BOUNTY_ADDRESS_BOOK: addressBook },
      onLine: (line, stream) => {
        if (stream === "stdout") out.push(line);
        if (line.trim() !== "") note(`│ ${line}`);
      },
    },
  );
  let code: number | string;
  try {
    code = await withTimeout(child.exited, TASK_TIMEOUT_MS, `npx hardhat ${args[0]}`);
  } catch (e) {
    await child.stop();
    throw e;
  }
  if (code !== 0) throw new Error(`npx hardhat ${args.join(" ")} exited with ${code}:\n${child.tail()}`);
  return out.join("\n");
}

/**
 * Checks that a transaction sent by a Hardhat task went to the devchain's BenchmarkBounty (a guard on the
 * money path: the tasks find the contracts through the address book the demo hands them).
 * @throws Error naming both addresses
 */
async function checkTaskTarget(chain: DevChain, hash: Hex, task: string): Promise<void> {
  const tx = await chain.publicClient.getTransaction({ hash });
  if (tx.to?.toLowerCase() !== chain.contracts.benchmarkBounty.toLowerCase()) {
    throw new Error(
      `${task} sent ${hash} to ${tx.to ?? "(contract creation)"}, not to the devchain's BenchmarkBounty ` +
        `${chain.contracts.benchmarkBounty}: check the "local" entry of the address book (BENCH_BOUNTY_ADDRESS_BOOK)`,
    );
  }
}

/** Outcome of `demo/independent/check_pack.py`. */
export interface IndependentCheck {
  /** False when python3 is not installed (the check is optional: the setup needs only Node and npm). */
  ran: boolean;
  passed: boolean;
  /** Its output (one line per check), or why it did not run. */
  output: string;
}

/** Path of the independent Python check. */
export const INDEPENDENT_CHECK = fileURLToPath(new URL("../independent/check_pack.py", import.meta.url));

/** Runs the independent Python check of a pack file against the chain. */
export function runIndependentCheck(packFile: string, rpcUrl: string): IndependentCheck {
  const probe = spawnSync("python3", ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return { ran: false, passed: false, output: "python3 not found" };
  const r = spawnSync("python3", [INDEPENDENT_CHECK, packFile, "--rpc", rpcUrl], {
    encoding: "utf8",
    timeout: 300_000,
  });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
  return { ran: true, passed: r.status === 0, output: output || String(r.error ?? `exit ${r.status}`) };
}

/** USDC balance (base units) of an account. */
async function usdcBalance(chain: DevChain, account: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: chain.contracts.usdc,
    abi: testUsdcAbi,
    functionName: "balanceOf",
    args: [account],
  });
}

/** Latest block timestamp (unix seconds). */
async function chainNow(chain: DevChain): Promise<bigint> {
  return (await chain.publicClient.getBlock()).timestamp;
}

/** GET a JSON document; throws naming the URL on a non-2xx answer. */
async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/**
 * Runs the demo end to end. Never throws for a failed phase: the failure is in `phases` and `ok` is false
 * (the phases after it are `skipped`). Everything started is stopped before returning unless `io.hold`.
 */
export async function runDemo(options: DemoOptions, io: DemoIo = {}): Promise<DemoResult> {
  const log = io.log ?? ((line: string) => console.log(line));
  // The output directory is checked (and created level by level) before anything starts or is sent
  // on-chain: a bad --out is one line naming the option (PlatformError), not a phase-6 ENOTDIR.
  ensureWritableDir(options.outDir, "--out");
  const registry = io.registry ?? new ProcessRegistry();
  const phases = new PhaseRunner(PHASES, log);
  const storeDir = mkdtempSync(join(tmpdir(), "bench-bounty-demo-"));
  const result: DemoResult = {
    ok: false,
    phases: phases.results,
    totalMs: 0,
    files: {},
    stop: () => registry.stopAll((line) => log(`    ${line}`)),
  };
  registry.addStop("demo store", () => {
    // Keep the store (runs, agent logs under runs/) when a phase failed, for the post-mortem.
    if (phases.results.some((r) => r.status === "failed")) log(`    platform store kept at ${storeDir}`);
    else rmSync(storeDir, { recursive: true, force: true });
  });

  log(
    `bench-bounty demo: ${options.size} Seattle weather rows (seed ${options.seed}), ${options.agents.length} agents × ` +
      `${options.attempts} attempts, ${options.prizeUsdc} USDC top_n_split prize`,
  );
  log(`  platform store: ${storeDir}`);

  let chain: DevChain | undefined;
  let indexer: RunningIndexer | undefined;
  let platform: Platform | undefined;
  let doorUrl = "";
  let slug = "";
  let bountyId = 0n;
  let closesAt = 0n;
  let addressBook = "";

  try {
    // ---- 1. chain, indexer, door ----------------------------------------------------------------
    await phases.run(PHASES[0], async (p) => {
      p.note("starting hardhat node (chain id 8453) and deploying with the Ignition module ...");
      chain = await startDevChain({ log: options.verbose });
      const c = chain;
      registry.addStop("devchain (hardhat node)", () => c.stop());
      result.rpcUrl = c.rpcUrl;
      result.contracts = c.contracts;
      const code = await c.publicClient.getCode({ address: BASE_USDC_ADDRESS as Address });
      if (c.chainId !== 8453) throw new Error(`devchain reports chain id ${c.chainId}, expected 8453`);
      if (!code || code === "0x")
        throw new Error(`no test USDC code at the Base USDC address ${BASE_USDC_ADDRESS}`);
      p.note(`chain      ${c.rpcUrl} (chain id ${c.chainId}, start block ${c.startBlock})`);
      p.note(`USDC       ${c.contracts.usdc} (test USDC at the Base USDC address)`);
      p.note(`bounty     ${c.contracts.benchmarkBounty}`);
      p.note(`anchors    ${c.contracts.anchorRegistry}`);
      addressBook = writeDemoAddressBook(c, storeDir);

      p.note("starting the Ponder indexer (embedded PGlite) in the background ...");
      indexer = await startIndexer({
        chain: c,
        wait: "none",
        logLevel: "warn",
        ...(options.verbose ? { log: true } : {}),
      });
      const ix = indexer;
      registry.addStop("indexer (ponder)", async () => {
        await ix.stop();
      });
      result.indexerUrl = ix.url;
      p.note(`indexer    ${ix.url} (pid ${ix.pid})`);

      const port = await freePort();
      doorUrl = `http://127.0.0.1:${port}`;
      platform = Platform.open({
        dir: storeDir,
        chain: {
          rpcUrl: c.rpcUrl,
          chainId: c.chainId,
          contracts: c.contracts,
          privateKey: c.accounts[PLATFORM_INDEX]!.privateKey,
        },
        publicBaseUrl: doorUrl,
        receiptAnchoring: "immediate",
      });
      const pf = platform;
      registry.addStop("platform store", () => pf.close());
      const door = await serveDoor(pf, { port, host: "127.0.0.1" });
      registry.addStop("evidence door (hono)", () => door.close());
      result.doorUrl = door.url;
      p.note(`door       ${door.url}/api/v1/benchmarks`);
      p.summary(`chain ${c.rpcUrl}, indexer ${ix.url}, door ${door.url}`);
    });
    const c = chain!;
    const pf = platform!;

    // ---- 2. publish --------------------------------------------------------------------------------
    let published: PublishResult | undefined;
    await phases.run(PHASES[1], async (p) => {
      const csv = seattleWeatherCsvPath();
      p.note(`dataset    ${relative(REPO_ROOT, csv)}`);
      const all = await loadCsvDataset(
        csv,
        {
          decision_ts: "date",
          label: "weather",
          payload: ["date", "precipitation", "temp_max", "temp_min", "wind"],
        },
        {
          name: `seattle-weather-${options.size}-s${options.seed}`,
          description:
            "Daily weather in Seattle 2012-2015 (vega-datasets): precipitation (mm), max/min temperature (°C), wind (m/s); label: drizzle, fog, rain, snow or sun.",
          label_policy: "observed weather of the day, as published in vega-datasets/data/seattle-weather.csv",
        },
      );
      const rows = sampleBySeed(all.rows, options.size, options.seed, (r) =>
        String((r as { decision_ts: string }).decision_ts),
      );
      p.note(`sampled    ${rows.length} of ${all.rows.length} rows (seed ${options.seed})`);
      const dataset = pf.createDataset({ ...all, rows });
      published = await pf.publish(dataset.dataset_id, {
        title: "Seattle weather: name the day's weather from its observations",
        prompt_template: PROMPT_TEMPLATE,
        grader_type: "exact",
        gold_field: "label",
        public_fraction: String(options.publicFraction),
        max_attempts: options.attempts,
        time_budget_seconds: 60,
        speed_weight: "0.3",
      });
      slug = published.slug;
      result.slug = slug;
      const anchor = published.commitment_anchor;
      if (!anchor) throw new Error("the commitment was not anchored at publish");
      p.note(
        `benchmark  ${slug}: ${published.public_count} public + ${published.private_count} private tasks, grader exact`,
      );
      p.note(`commitment root ${published.commit_root}, ${published.leaf_count} leaves`);
      p.note(`anchored   tx ${anchor.tx_hash} (block ${anchor.anchor_block}, kind commitment)`);
      p.summary(`${slug}, root ${short(published.commit_root)}, anchored in block ${anchor.anchor_block}`);
    });
    const pub = published!;

    // ---- 3. lock ------------------------------------------------------------------------------------
    await phases.run(PHASES[2], async (p) => {
      const author = c.accounts[AUTHOR_INDEX]!.address;
      const platformAccount = c.accounts[PLATFORM_INDEX]!.address;
      const pool = BigInt(options.prizeUsdc) * 1_000_000n;
      await c.mintUsdc(author, pool);
      p.note(`minted     ${formatUsdc(pool)} test USDC to the author ${author}`);
      const commitmentFile = join(storeDir, "commitment.json");
      writeFileSync(
        commitmentFile,
        JSON.stringify({ root: pub.commit_root, leafCount: pub.leaf_count }) + "\n",
      );
      const now = await chainNow(c);
      closesAt = now + BigInt(CONTEST_SECONDS);
      const stdout = await hardhatTask(
        registry,
        c,
        addressBook,
        [
          "bounty:lock",
          "--network",
          "localhost",
          "--commitment",
          commitmentFile,
          "--pool",
          String(options.prizeUsdc),
          "--closes-at",
          String(closesAt),
          "--award-deadline",
          String(closesAt + BigInt(AWARD_WINDOW_SECONDS)),
          "--payout-rule",
          "top_n_split",
          "--threshold-bps",
          String(THRESHOLD_BPS),
          "--awarder",
          platformAccount,
          "--from",
          author,
        ],
        p.note,
      );
      const m = /Bounty (\d+) locked/.exec(stdout);
      const txm = /tx\s+(0x[0-9a-fA-F]{64})/.exec(stdout);
      if (!m || !txm) throw new Error(`bounty:lock did not report the bounty id and tx:\n${stdout}`);
      await checkTaskTarget(c, txm[1] as Hex, "bounty:lock");
      bountyId = BigInt(m[1]!);
      result.bountyId = bountyId.toString();
      const tx = await c.publicClient.getTransaction({ hash: txm[1] as Hex });
      const call = decodeFunctionData({ abi: benchmarkBountyAbi, data: tx.input });
      if (call.functionName !== "createAndFundWithPermit") {
        throw new Error(`the lock was sent as ${call.functionName}, expected createAndFundWithPermit`);
      }
      const attached = await pf.attachBounty(slug, bountyId);
      p.note(
        `attached   bounty ${attached.bounty_id} (${attached.status}) to ${slug}: pool ${formatUsdc(attached.pool_base_units)} USDC, splits ${attached.splits_bps.join("/")}`,
      );
      const expected = `pool ${pool}, splits ${TOP_N_SPLIT.join("/")}, threshold ${THRESHOLD_BPS}, status funded`;
      const got = `pool ${attached.pool_base_units}, splits ${attached.splits_bps.join("/")}, threshold ${attached.threshold_bps}, status ${attached.status}`;
      if (got !== expected) throw new Error(`the locked bounty has ${got}; expected ${expected}`);
      const door = await fetch(`${doorUrl}/api/v1/benchmarks/${slug}/award-evidence`);
      const body = (await door.json()) as { error?: { reason?: string } };
      p.note(
        `door       GET award-evidence -> ${door.status} ${body.error?.reason ?? ""} (nothing revealed before the award)`,
      );
      if (
        door.status !== 404 ||
        !["not_awarded", "withheld_live_contest"].includes(body.error?.reason ?? "")
      ) {
        throw new Error(
          `the door answered ${door.status} ${JSON.stringify(body)} before the award; expected 404 not_awarded or withheld_live_contest`,
        );
      }
      p.summary(
        `bounty ${bountyId} Funded with ${formatUsdc(pool)} USDC by createAndFundWithPermit (tx ${short(txm[1]!)})`,
      );
    });

    // ---- 4. compete ---------------------------------------------------------------------------------
    await phases.run(PHASES[3], async (p) => {
      options.agents.forEach((agentId, i) => {
        const isAuthor = agentId === AUTHOR_AGENT;
        const index = isAuthor ? AUTHOR_INDEX : FIRST_OWNER_INDEX + i;
        const rec = pf.registerAgent(agentId, {
          withdrawal_address: c.accounts[index]!.address.toLowerCase(),
          is_author_agent: isAuthor,
        });
        p.note(
          `agent      ${agentId.padEnd(20)} owner ${rec.withdrawal_address}${rec.is_author_agent ? "  (author's agent: ranks, takes no money)" : ""}`,
        );
      });
      let runs = 0;
      for (let attempt = 1; attempt <= options.attempts; attempt++) {
        for (const agentId of options.agents) {
          const r = await runBenchmark(
            pf,
            slug,
            agentId,
            {
              kind: "command",
              command: `"${process.execPath}" "${join(AGENTS_DIR, `${agentId}.mjs`)}"`,
              cwd: AGENTS_DIR,
            },
            { batchSize: 50, taskTimeoutMs: 10_000, progress: process.stderr.isTTY === true },
          );
          const f = r.finalized;
          if (!f) throw new Error(`run ${r.run_id} of ${agentId} was not finalized`);
          if (!f.receipt_anchor)
            throw new Error(`the receipt of run ${r.run_id} was not anchored at finalize`);
          const bad = r.outcomes.filter((o) => o.status !== "answered").length;
          runs++;
          p.note(
            `attempt ${attempt}/${options.attempts} ${agentId.padEnd(20)} ${String(f.counts.answered).padStart(4)}/${f.counts.tasks} answered` +
              `${bad ? ` (${bad} invalid)` : ""}  public ${f.score_public}  composite ${f.score_composite}  wall ${f.wall_seconds} s  ` +
              `receipt ${short(f.receipt_hash)} anchored in block ${f.receipt_anchor.anchor_block}`,
          );
        }
      }
      // Every receipt hash must be on-chain before the award (SPEC 4).
      const finalized = pf.listRuns(slug).filter((r) => r.status === "finalized");
      for (const r of finalized) {
        const [, block] = await c.publicClient.readContract({
          address: c.contracts.anchorRegistry,
          abi: anchorRegistryAbi,
          functionName: "anchorOf",
          args: [r.receipt_hash!],
        });
        if (block === 0n)
          throw new Error(`receipt ${r.receipt_hash} of run ${r.run_id} is not anchored on-chain`);
      }
      p.note(`${finalized.length}/${runs} receipts anchored on-chain (AnchorRegistry.anchorOf checked)`);
      p.summary(`${runs} runs by ${options.agents.length} agents, every receipt anchored`);
    });

    // ---- 5. close -----------------------------------------------------------------------------------
    await phases.run(PHASES[4], async (p) => {
      const now = await chainNow(c);
      const jump = closesAt - now + 1n;
      if (jump > 0n) await c.increaseTime(jump);
      const after = await chainNow(c);
      p.note(
        `chain time ${new Date(Number(now) * 1000).toISOString()} -> ${new Date(Number(after) * 1000).toISOString()} (closesAt ${new Date(Number(closesAt) * 1000).toISOString()})`,
      );
      if (after < closesAt) throw new Error(`chain time ${after} is still before closesAt ${closesAt}`);
      p.summary(`moved ${jump > 0n ? jump : 0n} s forward; the contest is closed`);
    });

    // ---- 6. award + pack ----------------------------------------------------------------------------
    await phases.run(PHASES[5], async (p) => {
      const award = await pf.award(slug);
      result.award = award;
      p.note(
        `award tx   ${award.award_tx} (block ${award.award_block}), ranking digest ${short(award.ranking_digest)}`,
      );
      for (const w of award.winners) {
        p.note(
          `place ${w.place}    ${w.agent_id.padEnd(20)} ${w.withdrawal_address}  ${formatUsdc(w.amount_base_units)} USDC`,
        );
      }
      if (award.zero_winner_reason) p.note(`no winners: ${award.zero_winner_reason}`);
      if (!award.pack_anchor) throw new Error("the pack hash was not anchored");
      p.note(`pack       ${award.pack_hash} anchored in block ${award.pack_anchor.anchor_block} (kind pack)`);
      const logs = await c.publicClient.getContractEvents({
        address: c.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        eventName: "Awarded",
        args: { bountyId },
        fromBlock: BigInt(award.award_block),
        toBlock: BigInt(award.award_block),
      });
      const ev = logs[0];
      if (!ev) throw new Error(`no Awarded log for bounty ${bountyId} in block ${award.award_block}`);
      result.chainAward = {
        bounty_id: bountyId.toString(),
        tx_hash: ev.transactionHash,
        block: Number(ev.blockNumber),
        winners: ev.args.winners!.map((a) => a.toLowerCase()),
        amounts: ev.args.amounts!.map(String),
        author_remainder: ev.args.authorRemainder!.toString(),
        ranking_digest: ev.args.rankingDigest!,
      };
      const url = `${doorUrl}/api/v1/benchmarks/${slug}/award-evidence`;
      const res = await fetch(url);
      if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${await res.text()}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      p.note(`door       GET ${url} -> 200, ${bytes.byteLength} bytes, ETag ${res.headers.get("etag")}`);
      const packFile = join(options.outDir, "pack.json");
      writeAtomically(packFile, bytes);
      result.files.pack = packFile;
      p.summary(
        `${award.winners.length} winners credited on-chain; pack ${short(award.pack_hash)} served by the door`,
      );
    });
    const award = result.award!;

    // ---- 7. claims ----------------------------------------------------------------------------------
    await phases.run(PHASES[6], async (p) => {
      const claims: ClaimRecord[] = [];
      const claimed = new Set<string>();
      for (const w of award.winners) {
        const account = getAddress(w.withdrawal_address);
        if (claimed.has(account)) continue; // one owner, two winning agents: one claim takes both credits
        claimed.add(account);
        const to = w.place === 1 ? c.accounts[COLD_WALLET_INDEX]!.address : account;
        const credit = await c.publicClient.readContract({
          address: c.contracts.benchmarkBounty,
          abi: benchmarkBountyAbi,
          functionName: "creditOf",
          args: [bountyId, account],
        });
        const before = await usdcBalance(c, to);
        const stdout = await hardhatTask(
          registry,
          c,
          addressBook,
          [
            "bounty:claim",
            "--network",
            "localhost",
            "--id",
            bountyId.toString(),
            "--to",
            to,
            "--from",
            account,
          ],
          p.note,
        );
        const after = await usdcBalance(c, to);
        const creditAfter = await c.publicClient.readContract({
          address: c.contracts.benchmarkBounty,
          abi: benchmarkBountyAbi,
          functionName: "creditOf",
          args: [bountyId, account],
        });
        const tx = /tx\s+(0x[0-9a-fA-F]{64})/.exec(stdout)?.[1];
        if (!tx) throw new Error(`bounty:claim did not report its transaction:\n${stdout}`);
        await checkTaskTarget(c, tx as Hex, "bounty:claim");
        if (after - before !== credit) {
          throw new Error(
            `claim of ${account}: ${to} received ${after - before} base units, the credit was ${credit}`,
          );
        }
        if (creditAfter !== 0n)
          throw new Error(`claim of ${account}: ${creditAfter} base units of credit left`);
        claims.push({
          place: w.place,
          agent_id: w.agent_id,
          account: account.toLowerCase(),
          to: to.toLowerCase(),
          amount: credit.toString(),
          tx_hash: tx,
          balance_before: before.toString(),
          balance_after: after.toString(),
          credit_after: creditAfter.toString(),
        });
      }
      result.claims = claims;
      const moved = claims.reduce((s, cl) => s + BigInt(cl.amount), 0n);
      p.summary(`${claims.length} claims, ${formatUsdc(moved)} USDC paid out (place 1 to another address)`);
    });

    // ---- 8. indexer ---------------------------------------------------------------------------------
    await phases.run(PHASES[7], async (p) => {
      const ix = indexer!;
      const head = Number(await c.publicClient.getBlockNumber());
      p.note(`waiting for the indexer to reach block ${head} ...`);
      await ix.waitForBlock(head, 180_000);
      const awards = await getJson<{ items: IndexerAward[] }>(`${ix.url}/awards`);
      const mine = awards.items.find((a) => String(a.bountyId) === bountyId.toString());
      if (!mine) throw new Error(`GET ${ix.url}/awards has no award for bounty ${bountyId}`);
      result.indexerAward = mine;
      const chainAward = result.chainAward!;
      const problems: string[] = [];
      const winners = [...mine.winners].sort((a, b) => a.place - b.place);
      if (winners.length !== chainAward.winners.length)
        problems.push(`${winners.length} winners, chain ${chainAward.winners.length}`);
      winners.forEach((w, i) => {
        if (w.account.toLowerCase() !== chainAward.winners[i])
          problems.push(`place ${w.place} account ${w.account} vs ${chainAward.winners[i]}`);
        if (String(w.amount) !== chainAward.amounts[i])
          problems.push(`place ${w.place} amount ${w.amount} vs ${chainAward.amounts[i]}`);
      });
      if (String(mine.authorRemainder) !== chainAward.author_remainder)
        problems.push(`author remainder ${mine.authorRemainder} vs ${chainAward.author_remainder}`);
      if (mine.rankingDigest.toLowerCase() !== chainAward.ranking_digest.toLowerCase())
        problems.push(`ranking digest ${mine.rankingDigest} vs ${chainAward.ranking_digest}`);
      if (mine.awardedTx.toLowerCase() !== chainAward.tx_hash.toLowerCase())
        problems.push(`award tx ${mine.awardedTx} vs ${chainAward.tx_hash}`);
      if (problems.length > 0)
        throw new Error(`the indexer's award differs from the chain's Awarded log: ${problems.join("; ")}`);
      p.note(
        `GET ${ix.url}/awards: bounty ${mine.bountyId} awarded in block ${mine.awardedBlock}, ${winners.length} winners; equal to the chain's Awarded log`,
      );
      p.summary(`indexed to block ${head}; the indexer's award equals the chain's`);
    });

    // ---- 9. verify ----------------------------------------------------------------------------------
    await phases.run(PHASES[8], async (p) => {
      const url = `${doorUrl}/api/v1/benchmarks/${slug}/award-evidence`;
      p.note(`verifyPack({source: ${url}, rpcUrl, indexerUrl, policy: "full"})`);
      const report = await verifyPack({
        source: url,
        rpcUrl: c.rpcUrl,
        indexerUrl: indexer!.url,
        policy: "full",
      });
      result.verification = report;
      const verificationFile = join(options.outDir, "verification.json");
      writeAtomically(verificationFile, JSON.stringify(report, null, 2) + "\n");
      result.files.verification = verificationFile;
      const states = Object.entries(report.facts);
      const notVerified = states.filter(([, f]) => f.state !== "verified").map(([n, f]) => `${n}=${f.state}`);
      if (!report.policy_met) throw new Error(`policy full not met: ${report.policy_unmet.join(", ")}`);
      if (notVerified.length > 0) throw new Error(`facts not verified: ${notVerified.join(", ")}`);

      // A second, independent implementation of the checks (Python standard library, SPEC only).
      const independent = runIndependentCheck(result.files.pack!, c.rpcUrl);
      result.independent = independent;
      if (!independent.ran) {
        p.note(`independent check (Python): skipped, ${independent.output}`);
      } else {
        for (const line of independent.output.split("\n")) if (line.trim()) p.note(`│ ${line}`);
        if (!independent.passed)
          throw new Error("the independent Python check of the pack failed (see above)");
      }
      p.summary(
        `policy full met: ${states.length}/${states.length} facts verified` +
          (independent.ran ? "; independent Python check passed" : ""),
      );
    });
  } catch {
    // The failed phase is recorded (and printed) by the phase runner.
  }

  // ---- 10. outputs (also after a failure: the report says which phase failed) ------------------------
  const failedBefore = phases.results.some((r) => r.status === "failed");
  if (failedBefore) phases.skipRest();
  try {
    if (platform && slug) {
      try {
        result.leaderboard = platform.leaderboard(slug).rows;
      } catch {
        /* no leaderboard to show */
      }
    }
    const writeOutputs = async (p: PhaseContext): Promise<void> => {
      const reportFile = join(options.outDir, "report.md");
      result.totalMs = phases.elapsedMs();
      printSummary(result, options, log);
      // The report is written inside its own phase: it lists that phase as ok (it is the last step).
      const listed: PhaseResult[] = failedBefore
        ? phases.results
        : [...phases.results, { name: PHASES[9], status: "ok", ms: 0, detail: "this report" }];
      writeAtomically(reportFile, renderReport(result, options, listed, phases.elapsedMs()));
      result.files.report = reportFile;
      for (const [name, file] of Object.entries(result.files)) p.note(`${name.padEnd(13)} ${file}`);
    };
    if (failedBefore) {
      await writeOutputs({ note: (l) => log(`    ${l}`), summary: () => {} });
    } else {
      await phases.run(PHASES[9], writeOutputs);
    }
  } catch {
    /* recorded by the phase runner */
  }

  result.totalMs = phases.elapsedMs();
  result.ok = phases.allOk() && phases.results.length === PHASES.length;
  log(`\n${result.ok ? "✓ demo finished" : "✗ demo FAILED"} in ${formatSeconds(result.totalMs)}`);
  for (const r of phases.results) {
    log(
      `    ${r.status === "ok" ? "✓" : r.status === "failed" ? "✗" : "-"} ${formatSeconds(r.ms).padStart(10)}  ${r.name}${r.status === "skipped" ? " (skipped)" : ""}`,
    );
  }
  if (!io.hold) await result.stop();
  return result;
}

// ---- presentation ------------------------------------------------------------------------------------

function leaderboardTable(rows: readonly LeaderboardRow[], award: AwardResult | undefined): Table {
  const place = new Map(award?.winners.map((w) => [w.run_id, w.place]) ?? []);
  return {
    head: ["rank", "agent", "author", "attempts", "accuracy", "public", "composite", "wall s", "place"],
    rows: rows.map((r) => [
      String(r.rank),
      r.agent_id,
      r.is_author_agent ? "yes" : "",
      String(r.attempts_used),
      r.rank_accuracy ?? "(hidden)",
      r.score_public,
      r.score_composite,
      r.wall_seconds,
      place.has(r.run_id) ? String(place.get(r.run_id)) : "-",
    ]),
  };
}

function awardTable(award: AwardResult): Table {
  return {
    head: ["place", "agent", "withdrawal address", "USDC"],
    rows: award.winners.map((w) => [
      String(w.place),
      w.agent_id,
      w.withdrawal_address,
      formatUsdc(w.amount_base_units),
    ]),
  };
}

function claimsTable(claims: readonly ClaimRecord[]): Table {
  return {
    head: ["place", "agent", "claimed by", "paid to", "USDC", "balance after", "credit left", "tx"],
    rows: claims.map((c) => [
      String(c.place),
      c.agent_id,
      short(c.account),
      c.to === c.account ? "(itself)" : c.to,
      formatUsdc(c.amount),
      formatUsdc(c.balance_after),
      formatUsdc(c.credit_after),
      short(c.tx_hash),
    ]),
  };
}

/**
 * The verification facts: the terminal shows each fact's first reason cut to fit a line; the report
 * shows every reason in full, with what the fact recomputes.
 */
function factsTable(report: VerificationReport, full: boolean): Table {
  return {
    head: full ? ["fact", "state", "what it recomputes", "reasons"] : ["fact", "state", "reason"],
    rows: Object.entries(report.facts).map(([name, f]) =>
      full
        ? [name, f.state, FACT_DESCRIPTIONS[name as keyof typeof FACT_DESCRIPTIONS], f.reasons.join("; ")]
        : [name, f.state, clip(f.reasons[0] ?? "", 90)],
    ),
  };
}

function indexerTable(a: IndexerAward): Table {
  return {
    head: ["bounty", "block", "place", "account", "amount USDC", "claimed USDC", "outstanding"],
    rows: [...a.winners]
      .sort((x, y) => x.place - y.place)
      .map((w) => [
        String(a.bountyId),
        String(a.awardedBlock),
        String(w.place),
        w.account,
        formatUsdc(String(w.amount)),
        formatUsdc(String(w.claimedAmount)),
        formatUsdc(String(w.outstanding)),
      ]),
  };
}

/** Prints the tables the issue asks for (whatever is available after a failure). */
function printSummary(result: DemoResult, options: DemoOptions, log: (line: string) => void): void {
  if (result.leaderboard && result.leaderboard.length > 0) {
    log("\n── leaderboard (best run per agent, SPEC 7.1) ──");
    log(renderTable(leaderboardTable(result.leaderboard, result.award)));
  }
  if (result.award) {
    log(`\n── award: bounty ${result.award.bounty_id}, tx ${result.award.award_tx} ──`);
    log(renderTable(awardTable(result.award)));
    if (result.chainAward) log(`    author remainder ${formatUsdc(result.chainAward.author_remainder)} USDC`);
  }
  if (result.claims) {
    log("\n── claims ──");
    log(renderTable(claimsTable(result.claims)));
  }
  if (result.verification) {
    const v = result.verification;
    log(`\n── verification facts (policy ${v.policy}: ${v.policy_met ? "met" : "NOT met"}) ──`);
    log(renderTable(factsTable(v, false)));
  }
  if (result.indexerAward) {
    log(`\n── award history as the indexer serves it (GET ${result.indexerUrl}/awards) ──`);
    log(renderTable(indexerTable(result.indexerAward)));
  }
  log(`\n── outputs (in ${options.outDir}) ──`);
}

/** The Markdown report (`out/report.md`). */
export function renderReport(
  result: DemoResult,
  options: DemoOptions,
  phases: readonly PhaseResult[],
  totalMs: number,
): string {
  const lines: string[] = [];
  lines.push("# bench-bounty demo report", "");
  lines.push(
    `${result.ok || phases.every((p) => p.status === "ok") ? "Finished" : "**FAILED**"} in ${formatSeconds(totalMs)} on ${new Date().toISOString()}.`,
    "",
    `Dataset: ${options.size} rows of \`vega-datasets/data/seattle-weather.csv\` (seed ${options.seed}), ` +
      `public fraction ${options.publicFraction}; agents: ${options.agents.join(", ")}; ${options.attempts} attempts each; ` +
      `prize ${options.prizeUsdc} USDC, top_n_split, threshold ${THRESHOLD_BPS} bps.`,
    "",
  );
  lines.push("## Phases", "");
  lines.push(
    markdownTable({
      head: ["phase", "status", "time", "detail"],
      rows: phases.map((p) => [
        p.name,
        p.status,
        p.status === "skipped" ? "" : formatSeconds(p.ms),
        p.detail ?? "",
      ]),
    }),
    "",
    `Total: ${formatSeconds(totalMs)}.`,
    "",
  );
  if (result.rpcUrl) {
    lines.push("## Chain", "");
    lines.push(`- chain id 8453 at ${result.rpcUrl} (stopped at the end unless \`--keep-running\`)`);
    if (result.contracts) {
      lines.push(
        `- BenchmarkBounty \`${result.contracts.benchmarkBounty}\`, AnchorRegistry \`${result.contracts.anchorRegistry}\`, USDC \`${result.contracts.usdc}\``,
      );
    }
    if (result.slug)
      lines.push(`- benchmark \`${result.slug}\`, bounty ${result.bountyId ?? "(not locked)"}`);
    lines.push("");
  }
  if (result.leaderboard && result.leaderboard.length > 0)
    lines.push("## Leaderboard", "", markdownTable(leaderboardTable(result.leaderboard, result.award)), "");
  if (result.award) {
    lines.push(
      "## Award",
      "",
      `Award tx \`${result.award.award_tx}\` (block ${result.award.award_block}), ranking digest \`${result.award.ranking_digest}\`, pack hash \`${result.award.pack_hash}\`.`,
      "",
    );
    lines.push(markdownTable(awardTable(result.award)), "");
  }
  if (result.claims) lines.push("## Claims", "", markdownTable(claimsTable(result.claims)), "");
  if (result.verification) {
    lines.push(
      `## Verification (policy ${result.verification.policy}: ${result.verification.policy_met ? "met" : "not met"})`,
      "",
    );
    lines.push(markdownTable(factsTable(result.verification, true)), "");
  }
  if (result.indexerAward)
    lines.push("## Award history (indexer)", "", markdownTable(indexerTable(result.indexerAward)), "");
  if (result.independent) {
    lines.push("## Independent check (Python, from the SPEC alone)", "");
    lines.push(
      result.independent.ran
        ? ["```", result.independent.output, "```"].join("\n")
        : `Not run: ${result.independent.output}.`,
      "",
    );
  }
  lines.push("## Files", "");
  for (const [name, file] of Object.entries(result.files)) lines.push(`- ${name}: \`${file}\``);
  lines.push(`- report: \`${join(options.outDir, "report.md")}\``, "");
  return lines.join("\n");
}
