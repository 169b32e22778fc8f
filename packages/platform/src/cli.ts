/**
 * The platform's commands for the `bench-bounty` CLI (`registerPlatformCommands`) and the package's own
 * bin `bench-bounty-platform`.
 *
 * Every command works on one store (`--store DIR`, env `BENCH_BOUNTY_STORE`, default `./.bench-bounty`).
 * Chain access is enabled by `--rpc-url` (env `BENCH_BOUNTY_RPC_URL`) with `--chain-id`,
 * `--bounty-contract`, `--anchor-registry`, `--usdc` (env `BENCH_BOUNTY_CHAIN_ID`,
 * `BENCH_BOUNTY_BOUNTY_CONTRACT`, `BENCH_BOUNTY_ANCHOR_REGISTRY`, `BENCH_BOUNTY_USDC`; addresses default
 * to the address book of `@bench-bounty/contracts`) and the platform key in `BENCH_BOUNTY_PRIVATE_KEY`
 * (never a flag: flags leak into process lists). The author's key for `lock` is
 * `BENCH_BOUNTY_AUTHOR_KEY`.
 *
 * Output: JSON on stdout (one document), progress and diagnostics on stderr. A refusal prints
 * `error: <message>` and its machine-readable details on stderr and exits 1; an interrupted run exits 130.
 */
import { addressBookEntry } from "@bench-bounty/contracts";
import { isEvidenceError, parseJson } from "@bench-bounty/evidence";
import { Command, InvalidArgumentError, Option } from "commander";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isAddress, type Address, type Hex } from "viem";
import type { ChainConfig } from "./chain.js";
import { loadCsvDataset, type CsvMapping } from "./csv.js";
import { checkDataset, type DatasetInput } from "./dataset.js";
import { PlatformError } from "./errors.js";
import { isJsonObject } from "./json.js";
import { Platform } from "./platform.js";
import type { Principal } from "./identity/principal.js";
import { LocalRunBackend, type RunBackend } from "./backend.js";
import { benchmarkConfig, type PublishOptions } from "./publish.js";
import { resumeRun, runBenchmark, type AgentSpec, type RunnerOptions, type RunnerResult } from "./runner.js";
import { serveDoor } from "./server.js";
import { ensureWritableDir, requireExistingStore } from "./store.js";
import { BUCKET_UNITS, type BucketUnit } from "./time.js";
import { decodeUtf8Strict } from "./utf8.js";

export interface StoreOpts {
  store: string;
  apiKey?: string;
  rpcUrl?: string;
  chainId: string;
  bountyContract?: string;
  anchorRegistry?: string;
  usdc?: string;
  publicUrl?: string;
  receiptAnchoring: "immediate" | "batch";
}

const int =
  (name: string, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  (v: string) => {
    const n = /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `${name} must be an integer >= ${min}`
          : `${name} must be an integer in ${min}..${max}`,
      );
    return n;
  };

/** USDC decimals: `--pool` is given in USDC like the Hardhat task `bounty:lock`. */
const USDC_DECIMALS = 6;

/**
 * Parses a decimal USDC amount (`100`, `12.5`) exactly into 6-decimal base units (`12.5` -> 12500000n).
 * @throws InvalidArgumentError (commander prints it naming `--pool`) on anything else: signs, exponents,
 *   more than 6 decimals, zero
 */
export function parseUsdcAmount(v: string): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(v.trim());
  if (!m)
    throw new InvalidArgumentError(
      `pool must be a positive decimal USDC amount (e.g. 100 or 12.5), got ${v}`,
    );
  const frac = m[2] ?? "";
  if (frac.length > USDC_DECIMALS)
    throw new InvalidArgumentError(`pool has more than ${USDC_DECIMALS} decimals (USDC): ${v}`);
  const units = BigInt(m[1]!) * 10n ** BigInt(USDC_DECIMALS) + BigInt(frac.padEnd(USDC_DECIMALS, "0") || "0");
  if (units === 0n) throw new InvalidArgumentError("pool must be more than 0");
  return units;
}

export function storeOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option("--store <dir>", "store directory").env("BENCH_BOUNTY_STORE").default("./.bench-bounty"),
    )
    .addOption(
      new Option("--rpc-url <url>", "JSON-RPC URL (enables anchoring and the award)").env(
        "BENCH_BOUNTY_RPC_URL",
      ),
    )
    .addOption(new Option("--chain-id <id>", "chain id").env("BENCH_BOUNTY_CHAIN_ID").default("8453"))
    .addOption(
      new Option("--bounty-contract <address>", "BenchmarkBounty address").env(
        "BENCH_BOUNTY_BOUNTY_CONTRACT",
      ),
    )
    .addOption(
      new Option("--anchor-registry <address>", "AnchorRegistry address").env("BENCH_BOUNTY_ANCHOR_REGISTRY"),
    )
    .addOption(new Option("--usdc <address>", "USDC token address").env("BENCH_BOUNTY_USDC"))
    .addOption(
      new Option("--public-url <url>", "public base URL of the evidence door (receipt_url)").env(
        "BENCH_BOUNTY_PUBLIC_URL",
      ),
    )
    .addOption(
      new Option("--receipt-anchoring <mode>", "anchor each receipt at finalize, or batch them (anchor)")
        .choices(["immediate", "batch"])
        .default("immediate"),
    )
    .addOption(
      new Option(
        "--api-key <key>",
        "act as this account (default: the local operator, who owns no agents)",
      ).env("BENCH_BOUNTY_API_KEY"),
    );
}

/** The caller: the account of `--api-key` (env `BENCH_BOUNTY_API_KEY`), else the local operator. */
async function principalOf(platform: Platform, o: StoreOpts): Promise<Principal> {
  return o.apiKey !== undefined ? platform.authenticate(o.apiKey) : platform.localOperator();
}

/**
 * Checks the chain options that were given, whether or not `--rpc-url` enables the chain: the URL is
 * http(s) (the gateway's transport is viem `http`), each contract address is 0x + 40 hex. Nothing is contacted.
 * @throws PlatformError `invalid_option` naming the option
 */
function checkChainOptions(o: StoreOpts): void {
  if (o.rpcUrl !== undefined) {
    let protocol: string | null = null;
    try {
      protocol = new URL(o.rpcUrl).protocol;
    } catch {
      protocol = null;
    }
    if (protocol !== "http:" && protocol !== "https:")
      throw new PlatformError(
        "invalid_option",
        `--rpc-url must be an http:// or https:// URL, got ${JSON.stringify(o.rpcUrl)}`,
        { field: "rpc-url" },
      );
  }
  for (const [field, v] of [
    ["bounty-contract", o.bountyContract],
    ["anchor-registry", o.anchorRegistry],
    ["usdc", o.usdc],
  ] as const) {
    if (v !== undefined && !isAddress(v, { strict: false }))
      throw new PlatformError("invalid_option", `--${field} must be an address (0x + 40 hex), got ${v}`, {
        field,
      });
  }
}

export function chainConfig(o: StoreOpts): ChainConfig | undefined {
  checkChainOptions(o);
  if (!o.rpcUrl) return undefined;
  const chainId = Number(o.chainId);
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new PlatformError("invalid_option", "--chain-id must be a positive integer", { field: "chain-id" });
  const key = process.env.BENCH_BOUNTY_PRIVATE_KEY;
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new PlatformError("invalid_option", "set BENCH_BOUNTY_PRIVATE_KEY (0x + 64 hex) to use the chain", {
      field: "BENCH_BOUNTY_PRIVATE_KEY",
    });
  }
  let book: { benchmarkBounty: string | null; anchorRegistry: string | null; usdc: string } | null = null;
  try {
    book = addressBookEntry(chainId);
  } catch {
    book = null;
  }
  const bounty = o.bountyContract ?? book?.benchmarkBounty ?? null;
  const registry = o.anchorRegistry ?? book?.anchorRegistry ?? null;
  if (!bounty || !registry) {
    throw new PlatformError(
      "invalid_option",
      "no contract addresses: pass --bounty-contract and --anchor-registry (or fill the address book)",
      { field: "bounty-contract" },
    );
  }
  const usdc = o.usdc ?? book?.usdc;
  return {
    rpcUrl: o.rpcUrl,
    chainId,
    contracts: {
      benchmarkBounty: bounty as Address,
      anchorRegistry: registry as Address,
      ...(usdc ? { usdc: usdc as Address } : {}),
    },
    privateKey: key as Hex,
  };
}

/**
 * Opens the platform on `--store`.
 * @param existing the command only reads, or needs a stored benchmark or run: a missing store is
 *   refused (`no store at ...`) and nothing is created
 */
function openPlatform(o: StoreOpts, existing = false): Platform {
  // The options, then the store (created level by level) are checked before anything else: no work,
  // nothing sent, nothing created on bad options.
  const chain = chainConfig(o);
  if (existing) requireExistingStore(o.store, "--store");
  else ensureWritableDir(o.store, "--store");
  return Platform.open({
    dir: o.store,
    ...(existing ? { existingStore: true } : {}),
    receiptAnchoring: o.receiptAnchoring,
    ...(chain ? { chain } : {}),
    ...(o.publicUrl ? { publicBaseUrl: o.publicUrl } : {}),
  });
}

function print(value: unknown): void {
  process.stdout.write(
    JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n",
  );
}

/** Wraps an action: refusals print `error: ...` and details on stderr and exit 1, never a stack trace. */
function action<A extends unknown[]>(
  fn: (...args: A) => Promise<void> | void,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (e) {
      if (e instanceof PlatformError) {
        process.stderr.write(`error: ${e.message}\n`);
        if (Object.keys(e.details).length > 0)
          process.stderr.write(JSON.stringify({ code: e.code, details: e.details }, null, 2) + "\n");
      } else if (isEvidenceError(e)) {
        process.stderr.write(`error: ${e.message} (${e.code})\n`);
      } else throw e;
      process.exitCode = 1;
    }
  };
}

interface DatasetOpts {
  csv?: boolean;
  name?: string;
  description?: string;
  label?: string;
  decisionTs?: string;
  payload?: string;
  offset?: number;
  every?: number;
  limit?: number;
  sanitize?: boolean;
  bucket?: string[];
  timeBound?: string[];
}

function datasetOptions(cmd: Command): Command {
  return cmd
    .option("--csv", "read FILE as CSV (default: by the .csv extension)")
    .option("--name <name>", "dataset name (CSV; JSON files carry their own)")
    .option("--description <text>", "dataset description")
    .option("--label <column>", "CSV: label column")
    .option("--decision-ts <column>", "CSV: decision_ts column")
    .option("--payload <columns>", "CSV: comma-separated payload columns (default: all but the label)")
    .option("--offset <n>", "CSV: skip the first n data rows", int("offset"))
    .option("--every <n>", "CSV: keep every n-th row", int("every", 1))
    .option("--limit <n>", "CSV: keep at most n rows", int("limit", 1))
    .option("--sanitize", "NFC-normalise, strip control characters and trim strings")
    .option("--bucket <field=unit...>", `floor a payload timestamp field to ${BUCKET_UNITS.join("|")}`)
    .option("--time-bound <field...>", "payload fields that must be knowable at decision_ts");
}

async function readDataset(file: string, o: DatasetOpts): Promise<DatasetInput> {
  const extra: Partial<DatasetInput> = {};
  if (o.sanitize) extra.sanitize = true;
  if (o.bucket) {
    const b: Record<string, BucketUnit> = {};
    for (const spec of o.bucket) {
      const [f, u] = spec.split("=");
      if (!f || !u)
        throw new PlatformError("invalid_option", `--bucket ${spec}: expected field=unit`, {
          field: "bucket",
        });
      b[f] = u as BucketUnit;
    }
    extra.bucket_fields = b;
  }
  if (o.timeBound) extra.time_bound_fields = o.timeBound;
  if (o.csv || file.toLowerCase().endsWith(".csv")) {
    if (!o.label || !o.decisionTs)
      throw new PlatformError("invalid_option", "CSV needs --label <column> and --decision-ts <column>", {
        field: "label",
      });
    const mapping: CsvMapping = { label: o.label, decision_ts: o.decisionTs };
    if (o.payload) mapping.payload = o.payload.split(",").map((s) => s.trim());
    if (o.offset !== undefined) mapping.offset = o.offset;
    if (o.every !== undefined) mapping.every = o.every;
    if (o.limit !== undefined) mapping.limit = o.limit;
    const name = o.name ?? file.replace(/^.*\//, "").replace(/\.csv$/i, "");
    return loadCsvDataset(file, mapping, {
      name,
      ...(o.description ? { description: o.description } : {}),
      ...extra,
    });
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new PlatformError(
      "invalid_dataset",
      `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      { field: "file" },
    );
  }
  const text = decodeUtf8Strict(bytes, file, "invalid_dataset");
  let doc: unknown;
  try {
    doc = parseJson(text);
  } catch (e) {
    throw new PlatformError("invalid_dataset", `${file}: ${(e as Error).message}`, { field: "file" });
  }
  if (!isJsonObject(doc))
    throw new PlatformError("invalid_dataset", `${file}: expected a JSON object {name, rows, ...}`, {
      field: "$",
    });
  const d = doc as unknown as DatasetInput;
  return { ...d, ...(o.name ? { name: o.name } : {}), ...extra };
}

interface RunOpts {
  agent?: string;
  agentId?: string;
  concurrency?: number;
  batchSize?: number;
  timeoutMs?: number;
  onInvalid?: "skip" | "abort";
  progress: boolean;
  withdrawalAddress?: string;
  author?: boolean;
  attempts?: number;
}

function runnerOptions(cmd: Command): Command {
  return cmd
    .option("--concurrency <n>", "tasks (CLI: batches) in flight at once", int("concurrency", 1))
    .option("--batch-size <n>", "tasks per agent process (CLI agents)", int("batch-size", 1))
    .option("--timeout-ms <ms>", "per-task timeout in milliseconds", int("timeout-ms", 1))
    .addOption(new Option("--on-invalid <policy>", "invalid-answer policy").choices(["skip", "abort"]))
    .option("--no-progress", "no progress bar");
}

function toRunnerOptions(o: RunOpts, signal: AbortSignal): RunnerOptions {
  return {
    signal,
    progress: o.progress && process.stderr.isTTY === true,
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.batchSize !== undefined ? { batchSize: o.batchSize } : {}),
    ...(o.timeoutMs !== undefined ? { taskTimeoutMs: o.timeoutMs } : {}),
    ...(o.onInvalid !== undefined ? { invalidAnswerPolicy: o.onInvalid } : {}),
  };
}

function interruptible(): { signal: AbortSignal; dispose: () => void } {
  const ac = new AbortController();
  const onSig = () => {
    process.stderr.write("interrupt: stopping after the tasks in flight; the run stays resumable\n");
    ac.abort();
  };
  process.once("SIGINT", onSig);
  process.once("SIGTERM", onSig);
  return {
    signal: ac.signal,
    dispose: () => {
      process.removeListener("SIGINT", onSig);
      process.removeListener("SIGTERM", onSig);
    },
  };
}

/**
 * True when every task of a finished run ended with status `error` (the agent command could not start
 * or failed on every batch): the run is finalized under the skip policy, but nothing was answered.
 */
function everyTaskErrored(r: RunnerResult): boolean {
  return !r.interrupted && r.outcomes.length > 0 && r.outcomes.every((o) => o.status === "error");
}

function summarise(r: RunnerResult, store: string) {
  const counts: Record<string, number> = {};
  for (const o of r.outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  if (r.interrupted) {
    process.stderr.write(
      `run ${r.run_id} interrupted; continue with: bench-bounty resume ${r.run_id} --store ${store}\n`,
    );
    process.exitCode = 130;
  } else if (everyTaskErrored(r)) {
    const log = join(dirname(r.checkpoint_file), `${r.run_id}.agent.log`);
    process.stderr.write(
      `warning: every task of run ${r.run_id} failed with an agent error (${r.outcomes[0]!.reason ?? "no reason"}); ` +
        `the agent's stderr is in ${log}\n`,
    );
    process.exitCode = 1;
  }
  const f = r.finalized;
  return {
    run_id: r.run_id,
    agent_id: r.agent_id,
    attempt: r.attempt,
    tasks: r.task_count,
    outcomes: counts,
    interrupted: r.interrupted,
    ...(f
      ? {
          score_public: f.score_public,
          score_composite_public: f.score_composite_public,
          ...(f.score_composite !== undefined ? { score_composite: f.score_composite } : {}),
          wall_seconds: f.wall_seconds,
          attempts_remaining: f.attempts_remaining,
          receipt_hash: f.receipt_hash,
          receipt_anchor: f.receipt_anchor,
          receipt_anchor_status: f.receipt_anchor_status,
        }
      : {}),
  };
}

/**
 * Adds the platform commands to a commander program: `validate`, `publish`, `agent`, `lock`, `attach`,
 * `run`, `resume`, `leaderboard`, `show`, `anchor`, `close`, `award`, `evidence`, `serve`.
 */
/**
 * Hooks of {@link registerPlatformCommands}. `remoteBackend` (given by the `bench-bounty` bin, which
 * may import the HTTP client) makes `run`/`resume --server URL --api-key KEY` compete through the
 * HTTP API instead of a local store; checkpoints then live in `checkpointDir`.
 */
export interface PlatformCommandHooks {
  remoteBackend?: (server: string, apiKey: string, checkpointDir: string) => RunBackend;
}

/** The backend of `run`/`resume`: remote with `--server`, else the local store (and its platform). */
function runBackendOf(
  o: StoreOpts & { server?: string },
  hooks: PlatformCommandHooks,
): { backend: () => Promise<RunBackend>; close: () => void } {
  if (o.server) {
    if (!hooks.remoteBackend)
      throw new PlatformError("invalid_option", "--server is not available in this binary", { field: "server" });
    if (!o.apiKey)
      throw new PlatformError("invalid_option", "--server needs --api-key (or BENCH_BOUNTY_API_KEY): the run belongs to that key", {
        field: "api-key",
      });
    ensureWritableDir(join(o.store, "runs"), "--store");
    const b = hooks.remoteBackend(o.server, o.apiKey, join(o.store, "runs"));
    return { backend: async () => b, close: () => {} };
  }
  const platform = openPlatform(o, true);
  return {
    backend: async () => new LocalRunBackend(platform, await principalOf(platform, o)),
    close: () => void platform.close(),
  };
}

export function registerPlatformCommands(program: Command, hooks: PlatformCommandHooks = {}): Command {
  const account = program.command("account").description("accounts and their API keys (a key is shown once)");
  storeOptions(account.command("create").description("create an account; prints its first API key once"))
    .requiredOption("--name <name>", "account name (letters, digits, . _ -)")
    .option("--roles <roles>", "comma-separated roles: author,competitor (default both)")
    .action(
      action(async (o: StoreOpts & { name: string; roles?: string }) => {
        const platform = openPlatform(o);
        try {
          const r = await platform.createAccount({
            name: o.name,
            ...(o.roles !== undefined ? { roles: o.roles.split(",").map((x) => x.trim()) } : {}),
          });
          print(r);
          process.stderr.write(
            "store the api_key now: it is shown once (pass it as --api-key or BENCH_BOUNTY_API_KEY)\n",
          );
        } finally {
          await platform.close();
        }
      }),
    );
  storeOptions(account.command("keys").description("list the keys of --api-key's account, by prefix")).action(
    action(async (o: StoreOpts) => {
      const platform = openPlatform(o, true);
      try {
        print(await platform.listKeys(await platform.authenticate(o.apiKey)));
      } finally {
        await platform.close();
      }
    }),
  );
  storeOptions(account.command("issue-key").description("issue another key for --api-key's account")).action(
    action(async (o: StoreOpts) => {
      const platform = openPlatform(o, true);
      try {
        print(await platform.issueKey(await platform.authenticate(o.apiKey)));
      } finally {
        await platform.close();
      }
    }),
  );
  storeOptions(
    account.command("revoke").description("revoke a key of --api-key's account").argument("<key-prefix>"),
  ).action(
    action(async (prefix: string, o: StoreOpts) => {
      const platform = openPlatform(o, true);
      try {
        print(await platform.revokeKey(await platform.authenticate(o.apiKey), prefix));
      } finally {
        await platform.close();
      }
    }),
  );
  datasetOptions(
    program
      .command("validate")
      .description("dry-run: validate a dataset (JSON or CSV) and print row-numbered errors; stores nothing")
      .argument("<file>"),
  ).action(
    action(async (file: string, o: DatasetOpts) => {
      const input = await readDataset(file, o);
      const report = checkDataset(input);
      print(report);
      if (!report.ok) process.exitCode = 1;
    }),
  );

  storeOptions(
    datasetOptions(
      program
        .command("publish")
        .description(
          "store a dataset (JSON or CSV) and publish its benchmark; anchors the commitment when a chain is configured",
        )
        .argument("<file>"),
    ),
  )
    .requiredOption("--title <title>", "benchmark title")
    .requiredOption("--template <template>", "prompt template with {payload.field} placeholders")
    .addOption(
      new Option("--grader <type>", "grader type")
        .choices(["exact", "numeric", "contains_all", "json_fields"])
        .makeOptionMandatory(),
    )
    .option("--gold-field <path>", "dotted path of the gold (default label)")
    .option("--tolerance <t>", "numeric grader tolerance")
    .option("--alternatives-field <path>", "exact grader: dotted path of alternative answers")
    .option("--public-fraction <f>", "share of public tasks (default 0.5)")
    .option("--max-attempts <n>", "attempts per agent (default 3)", int("max-attempts", 1))
    .option("--time-budget <seconds>", "time budget of the speed term (default 900)", int("time-budget", 1))
    .option("--speed-weight <w>", 'speed weight (default "0.3")')
    .option("--public-per-run <n>", "public tasks drawn per attempt (default all)", int("public-per-run", 1))
    .option("--slug <slug>", "explicit slug")
    .option(
      "--seed <seed>",
      "reproducible salts and plans (tests/demos only: reveals nothing to you, everything to anyone who knows it)",
    )
    .action(
      action(
        async (file: string, o: DatasetOpts & StoreOpts & Record<string, string | number | undefined>) => {
          const input = await readDataset(file, o);
          const opts: PublishOptions = {
            title: String(o.title),
            prompt_template: String(o.template),
            grader_type: o.grader as PublishOptions["grader_type"],
          };
          if (o.goldField !== undefined) opts.gold_field = String(o.goldField);
          if (o.tolerance !== undefined) opts.tolerance = String(o.tolerance);
          if (o.alternativesField !== undefined) opts.alternatives_field = String(o.alternativesField);
          if (o.publicFraction !== undefined) opts.public_fraction = String(o.publicFraction);
          if (o.maxAttempts !== undefined) opts.max_attempts = Number(o.maxAttempts);
          if (o.timeBudget !== undefined) opts.time_budget_seconds = Number(o.timeBudget);
          if (o.speedWeight !== undefined) opts.speed_weight = String(o.speedWeight);
          if (o.publicPerRun !== undefined) opts.public_tasks_per_run = Number(o.publicPerRun);
          if (o.slug !== undefined) opts.slug = String(o.slug);
          if (o.seed !== undefined) opts.seed = String(o.seed);
          // The options (template included) are checked before the store is opened: nothing is stored.
          benchmarkConfig(opts);
          const platform = openPlatform(o);
          try {
            const me = await principalOf(platform, o);
            const ds = await platform.createDataset(me, input);
            const r = await platform.publish(me, ds.dataset_id, opts);
            print({ dataset: ds, benchmark: r });
          } finally {
            await platform.close();
          }
        },
      ),
    );

  storeOptions(program.command("agent").description("register or update an agent").argument("<agent-id>"))
    .option("--withdrawal-address <address>", "address credited when the agent wins")
    .option("--author", "mark as the author's own agent (ranks, takes no money)")
    .action(
      action(async (agentId: string, o: StoreOpts & { withdrawalAddress?: string; author?: boolean }) => {
        const platform = openPlatform(o);
        try {
          print(
            await platform.registerAgent(await principalOf(platform, o), agentId, {
              ...(o.withdrawalAddress ? { withdrawal_address: o.withdrawalAddress } : {}),
              ...(o.author ? { is_author_agent: true } : {}),
            }),
          );
        } finally {
          platform.close();
        }
      }),
    );

  storeOptions(
    program
      .command("lock")
      .description(
        "the author locks a USDC prize for a benchmark (approve + createAndFund, key in BENCH_BOUNTY_AUTHOR_KEY)",
      )
      .argument("<slug>"),
  )
    .requiredOption(
      "--pool <usdc>",
      "prize pool in USDC, decimal (e.g. 100 or 12.5; at most 6 decimals)",
      parseUsdcAmount,
    )
    .option("--closes-at <unix>", "close time, unix seconds (in the future)", int("closes-at", 1))
    .option("--closes-in <seconds>", "close time, seconds from the chain's latest block", int("closes-in", 1))
    .option(
      "--award-window <seconds>",
      "seconds between close and award deadline (default 7 days)",
      int("award-window", 1),
      7 * 86400,
    )
    .requiredOption(
      "--threshold-bps <bps>",
      "composite threshold in basis points, 0..10000 (required: no default for money rules)",
      int("threshold-bps", 0, 10000),
    )
    .addOption(
      new Option("--payout-rule <rule>", "payout rule (required: no default for money rules)")
        .choices(["winner_take_all", "top_n_split"])
        .makeOptionMandatory(),
    )
    .action(
      action(
        async (
          slug: string,
          o: StoreOpts & {
            pool: bigint;
            closesAt?: number;
            closesIn?: number;
            awardWindow: number;
            thresholdBps: number;
            payoutRule: "winner_take_all" | "top_n_split";
          },
        ) => {
          const key = process.env.BENCH_BOUNTY_AUTHOR_KEY;
          if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key))
            throw new PlatformError("invalid_option", "set BENCH_BOUNTY_AUTHOR_KEY (0x + 64 hex)", {
              field: "BENCH_BOUNTY_AUTHOR_KEY",
            });
          const platform = openPlatform(o, true);
          try {
            // An unknown slug is named before the chain is contacted.
            await platform.getBenchmark(slug);
            if (!platform.chain) throw new PlatformError("no_chain", "lock needs --rpc-url", {}, 503);
            if (o.closesAt !== undefined && o.closesIn !== undefined)
              throw new PlatformError("invalid_option", "give --closes-at or --closes-in, not both", {
                field: "closes-at",
              });
            const now = Number(await platform.chain.latestTimestamp());
            const closesAt = o.closesAt ?? now + (o.closesIn ?? 3600);
            if (closesAt <= now)
              throw new PlatformError(
                "invalid_option",
                `--closes-at ${closesAt} is not in the future (chain time ${now})`,
                { field: "closes-at" },
              );
            print(
              await platform.lockBounty(await principalOf(platform, o), slug, {
                authorPrivateKey: key as Hex,
                pool: o.pool,
                closesAt,
                awardDeadline: closesAt + o.awardWindow,
                thresholdBps: o.thresholdBps,
                payoutRule: o.payoutRule,
              }),
            );
          } finally {
            platform.close();
          }
        },
      ),
    );

  storeOptions(
    program
      .command("attach")
      .description("attach an existing on-chain bounty (root and leaf count must match)")
      .argument("<slug>")
      .argument("<bounty-id>"),
  ).action(
    action(async (slug: string, bountyId: string, o: StoreOpts) => {
      if (!/^\d+$/.test(bountyId))
        throw new PlatformError(
          "invalid_option",
          `<bounty-id> must be a non-negative integer, got ${bountyId}`,
          {
            field: "bounty-id",
          },
        );
      const platform = openPlatform(o, true);
      try {
        print(await platform.attachBounty(await principalOf(platform, o), slug, bountyId));
      } finally {
        platform.close();
      }
    }),
  );

  runnerOptions(
    storeOptions(
      program
        .command("run")
        .description(
          "run an agent through one attempt of a benchmark (CLI agent protocol: see the platform README)",
        )
        .argument("<benchmark>", "benchmark slug"),
    ),
  )
    .requiredOption("--agent <command>", "agent command (run with sh -c)")
    .requiredOption("--agent-id <id>", "agent id on the leaderboard")
    .option("--withdrawal-address <address>", "register/update the agent's withdrawal address first")
    .option("--author", "register the agent as the author's own")
    .option("--attempts <n>", "run this many attempts in a row (default 1)", int("attempts", 1), 1)
    .addOption(new Option("--server <url>", "compete through this server's HTTP API (with --api-key)").env("BENCH_BOUNTY_SERVER"))
    .action(
      action(async (slug: string, o: StoreOpts & RunOpts & { server?: string }) => {
        if (o.server && (o.withdrawalAddress || o.author))
          throw new PlatformError(
            "invalid_option",
            "with --server, set the withdrawal address on the server (PUT /api/v1/accounts/me/withdrawal-address)",
            { field: o.withdrawalAddress ? "withdrawal-address" : "author" },
          );
        const where = runBackendOf(o, hooks);
        const { signal, dispose } = interruptible();
        try {
          if (!o.server && (o.withdrawalAddress || o.author)) {
            const local = (await where.backend()) as LocalRunBackend;
            await local.platform.registerAgent(local.principal, o.agentId!, {
              ...(o.withdrawalAddress ? { withdrawal_address: o.withdrawalAddress } : {}),
              ...(o.author ? { is_author_agent: true } : {}),
            });
          }
          const agent: AgentSpec = { kind: "command", command: o.agent! };
          const backend = await where.backend();
          const results = [];
          for (let i = 0; i < (o.attempts ?? 1) && !signal.aborted; i++) {
            const r = await runBenchmark(backend, slug, o.agentId!, agent, toRunnerOptions(o, signal));
            results.push(summarise(r, o.store));
            // An agent that cannot run would only use up the remaining attempts the same way.
            if (r.interrupted || everyTaskErrored(r)) break;
          }
          print(results.length === 1 ? results[0] : results);
        } finally {
          dispose();
          where.close();
        }
      }),
    );

  runnerOptions(
    storeOptions(
      program
        .command("resume")
        .description("resume an interrupted run from its checkpoint")
        .argument("<run-id>"),
    ),
  )
    .option("--agent <command>", "agent command (default: the one recorded in the checkpoint)")
    .addOption(new Option("--server <url>", "resume through this server's HTTP API (with --api-key)").env("BENCH_BOUNTY_SERVER"))
    .action(
      action(async (runId: string, o: StoreOpts & RunOpts & { server?: string }) => {
        const where = runBackendOf(o, hooks);
        const { signal, dispose } = interruptible();
        try {
          const agent: AgentSpec | undefined = o.agent ? { kind: "command", command: o.agent } : undefined;
          const backend = await where.backend();
          print(summarise(await resumeRun(backend, runId, agent, toRunnerOptions(o, signal)), o.store));
        } finally {
          dispose();
          where.close();
        }
      }),
    );

  storeOptions(
    program
      .command("leaderboard")
      .description("the SPEC 7.1 leaderboard (best run per agent)")
      .argument("<slug>"),
  )
    .option("--json", "print JSON")
    .addOption(
      new Option("--board <board>", "public or final (final while open: the author only)").choices([
        "public",
        "final",
      ]),
    )
    .action(
      action(async (slug: string, o: StoreOpts & { json?: boolean; board?: "public" | "final" }) => {
        const platform = openPlatform(o, true);
        try {
          const lb = await platform.leaderboard(slug, {
            viewer: await principalOf(platform, o),
            ...(o.board ? { board: o.board } : {}),
          });
          if (o.json) return print(lb);
          process.stdout.write(`${lb.slug} (${lb.status}, ${lb.board} board, ranked on ${lb.ranked_on})\n`);
          process.stdout.write(
            "rank  agent                 composite  public   accuracy  wall_s      attempts  run\n",
          );
          for (const r of lb.rows) {
            const [comp, acc] =
              lb.board === "final"
                ? [
                    (r as { score_composite: string }).score_composite,
                    (r as { rank_accuracy: string }).rank_accuracy,
                  ]
                : [(r as { score_composite_public: string }).score_composite_public, "hidden"];
            process.stdout.write(
              `${String(r.rank).padEnd(6)}${(r.agent_id + (r.is_author_agent ? " (author)" : "")).padEnd(22)}${comp.padEnd(11)}${r.score_public.padEnd(9)}${acc.padEnd(10)}${r.wall_seconds.padEnd(12)}${String(r.attempts_used).padEnd(10)}${r.run_id}\n`,
            );
          }
        } finally {
          platform.close();
        }
      }),
    );

  storeOptions(
    program.command("show").description("a benchmark's detail (never gold)").argument("<slug>"),
  ).action(
    action(async (slug: string, o: StoreOpts) => {
      const platform = openPlatform(o, true);
      try {
        const b = await platform.getBenchmark(slug);
        print({ ...b, open: await platform.isOpen(slug) });
      } finally {
        platform.close();
      }
    }),
  );

  storeOptions(
    program
      .command("anchor")
      .description(
        "anchor what is pending for a benchmark (commitment, receipts via anchorMany); --list only lists it",
      )
      .argument("<slug>"),
  )
    .option("--list", "list what is pending, anchor nothing")
    .action(
      action(async (slug: string, o: StoreOpts & { list?: boolean }) => {
        const platform = openPlatform(o, true);
        try {
          const pending = await platform.pendingAnchors(slug);
          if (o.list) return print({ pending });
          process.stderr.write(`${pending.length} digest(s) pending for ${slug}\n`);
          const commitment = await platform.anchorCommitment(slug);
          const receipts = await platform.anchorPendingReceipts(slug);
          print({ pending, commitment, receipts, still_pending: await platform.pendingAnchors(slug) });
        } finally {
          platform.close();
        }
      }),
    );

  storeOptions(
    program.command("close").description("close a benchmark to new runs").argument("<slug>"),
  ).action(
    action(async (slug: string, o: StoreOpts) => {
      const platform = openPlatform(o, true);
      try {
        print(await platform.closeBenchmark(await principalOf(platform, o), slug));
      } finally {
        platform.close();
      }
    }),
  );

  storeOptions(
    program
      .command("award")
      .description("settle the award on-chain, mint, anchor and store the evidence pack (resumable)")
      .argument("<slug>"),
  ).action(
    action(async (slug: string, o: StoreOpts) => {
      const platform = openPlatform(o, true);
      try {
        print(await platform.award(await principalOf(platform, o), slug));
      } finally {
        platform.close();
      }
    }),
  );

  storeOptions(
    program
      .command("evidence")
      .description("print the stored award evidence pack (or why there is none)")
      .argument("<slug>"),
  ).action(
    action(async (slug: string, o: StoreOpts) => {
      const platform = openPlatform(o, true);
      try {
        const r = await platform.awardEvidence(slug);
        if (r.status === 200) process.stdout.write(Buffer.from(r.bytes).toString("utf8") + "\n");
        else {
          print({ error: { code: "award_evidence_unavailable", reason: r.reason, message: r.message } });
          process.exitCode = 1;
        }
      } finally {
        platform.close();
      }
    }),
  );

  storeOptions(
    program.command("serve").description("serve the evidence door and the read-only benchmark API (Hono)"),
  )
    .option("--port <port>", "TCP port (0..65535)", int("port", 0, 65535), 8787)
    .option("--host <host>", "bind address", "127.0.0.1")
    .action(
      action(async (o: StoreOpts & { port: number; host: string }) => {
        const platform = openPlatform(o);
        let door: Awaited<ReturnType<typeof serveDoor>>;
        try {
          door = await serveDoor(platform, { port: o.port, host: o.host });
        } catch (e) {
          platform.close();
          throw e;
        }
        process.stderr.write(`evidence door at ${door.url}/api/v1/benchmarks\n`);
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
        await door.close();
        platform.close();
      }),
    );
  return program;
}
