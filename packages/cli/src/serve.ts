/**
 * `bench-bounty serve`: the platform as a network service (`@bench-bounty/server`): REST, MCP, the
 * evidence door, the script and the tutorials, on one store.
 *
 * - storage: `--store DIR` (embedded SQLite, the default) or `DATABASE_URL=postgresql://...`;
 * - chain: `--rpc-url`, `--chain-id`, contract addresses (flags or the address book), the operator's
 *   signer key (awarder and anchorer) from `BENCH_BOUNTY_PRIVATE_KEY` only;
 * - the operator's API key (may award over the API) from `BENCH_BOUNTY_OPERATOR_KEY` only;
 * - receipt and commitment anchors batched: one `anchorMany` per kind within `--anchor-flush-ms` (2000)
 *   of a finalize or publish, whatever their number (`--receipt-anchoring immediate`, given explicitly,
 *   sends one transaction per finalize and per publish);
 * - publishes: {@link DEFAULT_PUBLISH_QUOTA} per account; `--publish-budget-all N` also caps all accounts but the
 *   operator's together (default none: free accounts would fill it and lock every author out);
 * - batched receipt anchors: {@link DEFAULT_BATCH_ANCHOR_QUOTA} (the receipts of 200 finalizes per account and
 *   5,000 of all accounts but the operator's together per 24 h go into the batches; past it a receipt stays
 *   pending for `anchor <slug>` or the award); `--anchor-budget-per-account N`, `--anchor-budget-all N`
 *   change it;
 * - agents: {@link DEFAULT_AGENT_QUOTA} (20 per account, 3 of them per benchmark);
 *   `--agents-per-account N`, `--agents-per-benchmark N` change it;
 * - stored datasets: {@link DEFAULT_DATASET_BYTES_PER_ACCOUNT} bytes of rows per account
 *   (`--dataset-bytes-per-account`), {@link DEFAULT_DATASET_BYTES_ALL_ACCOUNTS} for all accounts together
 *   (`--dataset-bytes-all`);
 * - stored answers: {@link DEFAULT_ANSWER_BYTES_PER_ACCOUNT} bytes per account (`--answer-bytes-per-account`),
 *   {@link DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS} for all accounts together (`--answer-bytes-all`);
 * - `--host`, `--port`. It prints where it listens and which database it uses, then serves until
 *   SIGINT, SIGTERM or SIGHUP, and with `--exit-with-parent` until the process that started it dies
 *   (a wrapper killed without passing the signal on: the demo, `npx`, `npm run`); then it answers the
 *   award requests in flight at once (`Platform.stopAwards`), ends the uploads and publishes in flight
 *   at their next step (`Platform.stopUploads`: 503, nothing stored), answers the dataset worker's jobs
 *   503 and stops it (`closeDatasetWorker`), stops the listener (the requests in
 *   flight get {@link SERVE_STOP_GRACE_MS} to be answered), the verifier and the store, and exits.
 */
import { Option, type Command } from "commander";
import { optionSourceName } from "@bench-bounty/verifier/cli";
import {
  isLoopbackHost,
  openStore,
  SERVE_API_KEY_REFUSAL,
  storeOptions,
  type StoreOpts,
} from "@bench-bounty/platform/cli";
import type { StepOutcome } from "@bench-bounty/server";
import {
  DEFAULT_AGENT_QUOTA,
  DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS,
  DEFAULT_ANSWER_BYTES_PER_ACCOUNT,
  DEFAULT_BATCH_ANCHOR_QUOTA,
  DEFAULT_DATASET_BYTES_ALL_ACCOUNTS,
  DEFAULT_DATASET_BYTES_PER_ACCOUNT,
  DEFAULT_PUBLISH_QUOTA,
  PlatformError,
  bareOrigin,
  publicOrigin,
  publicUrl,
  publicUrlRemoved,
  type FaultHooks,
  type Platform,
  terminalText,
} from "@bench-bounty/platform";

/**
 * How long an award waits in all under `serve` (the chain's `awardWaitMs`; `POST /award` also passes its
 * request's deadline, `awardBy`, the same 45 s from the request's start): under the server's 60 s request
 * limit (`handlerTimeoutMs`), so the operator learns where the award is (probe14 D3-F7, probe16 A-F3:
 * it ended in a bare 503 `request_timeout` after 60 s).
 */
export const SERVE_AWARD_WAIT_MS = 45_000;

/**
 * How long (ms) a stopping `serve` lets the requests in flight be answered before it closes their
 * connections: the award requests are answered at once by the stop (`Platform.stopAwards`), the others
 * get this long.
 */
export const SERVE_STOP_GRACE_MS = 2_000;

/** The publish quota's period in hours (help text). */
const PERIOD_HOURS = DEFAULT_PUBLISH_QUOTA.periodMs / 3_600_000;

/** The batched-anchoring budget's period in hours (help text). */
const BATCH_PERIOD_HOURS = DEFAULT_BATCH_ANCHOR_QUOTA.periodMs / 3_600_000;

interface ServeOpts extends StoreOpts {
  port: string;
  host: string;
  /** The indexer the verifier reads (its base URL; may carry credentials: never printed or served whole). */
  indexerUrl?: string;
  /** The indexer the web pages read (served without credentials; default: `--indexer-url` when it is a bare origin). */
  publicIndexerUrl?: string;
  /** An RPC the web page may print in its verify command (never `--rpc-url`: it may carry a key). */
  publicRpcUrl?: string;
  /** The chain is a local node (no explorer links on the web pages, whatever its chain id). */
  localChain?: boolean;
  /** Stop when the parent process dies (see {@link untilStopped}). */
  exitWithParent?: boolean;
  /** Longest a receipt or commitment waits for its batched anchor, in ms (digits). */
  anchorFlushMs: string;
  /** Publishes per 24 h by all accounts but the operator's together (digits); default none. */
  publishBudgetAll?: string;
  /** Finalizes per 24 h of one account whose receipt the batches anchor (digits); default {@link DEFAULT_BATCH_ANCHOR_QUOTA}. */
  anchorBudgetPerAccount?: string;
  /** The same for all accounts but the operator's together (digits); default {@link DEFAULT_BATCH_ANCHOR_QUOTA}. */
  anchorBudgetAll?: string;
  /** Agents one account may register (digits); default {@link DEFAULT_AGENT_QUOTA}. */
  agentsPerAccount?: string;
  /** Agents of one account that may start runs on one benchmark (digits); default {@link DEFAULT_AGENT_QUOTA}. */
  agentsPerBenchmark?: string;
  /** Bytes of dataset rows one account may keep stored (digits); default the platform's 256 MiB. */
  datasetBytesPerAccount?: string;
  datasetBytesAll?: string;
  answerBytesPerAccount?: string;
  answerBytesAll?: string;
}

/**
 * True when npm, npx or pnpm started this process (`npm run`, `npx` of the workspace's bin, `pnpm exec`):
 * they set `npm_command` / `npm_lifecycle_event` / `npm_config_user_agent` and, killed with SIGTERM, do
 * not pass it on, which left serve running under PID 1 (found by a probe); serve then watches its parent
 * as with `--exit-with-parent`.
 */
export function startedByPackageManager(env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    env.npm_command !== undefined ||
    env.npm_lifecycle_event !== undefined ||
    env.npm_config_user_agent !== undefined
  );
}

/** How often `--exit-with-parent` looks at the parent (ms). */
export const PARENT_POLL_MS = 500;

/**
 * The verifier worker's steps on serve's terminal: a verification on stdout, saying whether its policy
 * was met and, if not, which facts kept it from it (probe19 B-F8: "verified (full policy)" was printed
 * for a report whose policy was not met); retries and failures on stderr.
 */
export function verifierStepLine(step: StepOutcome): string | null {
  if (step.kind === "done")
    return step.unmet.length === 0
      ? `verifier: ${step.slug} ${step.policy} policy met`
      : `verifier: ${step.slug} ${step.policy} policy NOT met (${step.unmet.join(", ")}: see GET /api/v1/benchmarks/${step.slug}/verification)`;
  return null;
}

function printVerifierStep(step: StepOutcome): void {
  const line = verifierStepLine(step);
  if (line !== null) process.stdout.write(`${line}\n`);
  else if (step.kind === "retry" || step.kind === "failed")
    process.stderr.write(`verifier: ${step.slug || "queue"} ${step.kind}: ${terminalText(step.error)}\n`);
}

/** Prints the packs another process minted that the verifier's periodic sweep queued (probe14 D3-F11). */
function printVerifierSweep(slugs: string[]): void {
  process.stdout.write(
    `verifier: queued ${terminalText(slugs.join(", "))} (a pack another process minted)\n`,
  );
}

/**
 * Resolves with the reason to stop: the first of SIGINT, SIGTERM, SIGHUP, or (with `watchParent`)
 * the death of the parent process, seen as `process.ppid` changing (the orphan is re-parented) or
 * the parent pid no longer existing, polled every {@link PARENT_POLL_MS} ms.
 */
export function untilStopped(watchParent: boolean): Promise<string> {
  return new Promise((resolve) => {
    const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
    const parent = process.ppid;
    const parentGone = (): boolean => {
      if (process.ppid !== parent) return true;
      try {
        process.kill(parent, 0);
        return false;
      } catch (e) {
        return (e as NodeJS.ErrnoException).code === "ESRCH";
      }
    };
    const timer = watchParent
      ? setInterval(() => {
          if (parentGone()) done("parent exited");
        }, PARENT_POLL_MS)
      : undefined;
    const handlers = Object.fromEntries(signals.map((s) => [s, () => done(s)])) as Record<
      (typeof signals)[number],
      () => void
    >;
    function done(why: string): void {
      for (const s of signals) process.off(s, handlers[s]);
      clearInterval(timer);
      resolve(why);
    }
    for (const s of signals) process.once(s, handlers[s]);
  });
}

function portOf(v: string, named: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535)
    throw new PlatformError(
      "invalid_option",
      `${named} must be an integer 0..65535, got ${JSON.stringify(v)}`,
      { field: "port" },
    );
  return n;
}

/** The shortest operator key `serve` accepts (characters): 32 hex digits of randomness fit. */
export const MIN_OPERATOR_KEY_CHARS = 32;

/**
 * Opens the platform the options describe with the platform CLI's `openStore` (PostgreSQL when
 * `DATABASE_URL` is set, several `serve` processes may share it; else the SQLite store in
 * `--store DIR`), with the operator's key from `BENCH_BOUNTY_OPERATOR_KEY`; `batched`: receipt anchors
 * wait for one `anchorMany` per `--anchor-flush-ms`.
 * A refused number is named as it was given: `--flag`, or its variable (`named`, {@link optionSourceName}).
 * @returns the platform and the database it uses, for the banner (never a password)
 * @throws PlatformError `invalid_option`, `invalid_store`
 */
async function openForServe(
  o: ServeOpts,
  faults: FaultHooks | undefined,
  batched: boolean,
  named: (flag: string) => string,
): Promise<{ platform: Platform; database: string }> {
  if (o.apiKey !== undefined)
    throw new PlatformError("invalid_option", SERVE_API_KEY_REFUSAL, { field: "api-key" });
  const operatorKey = process.env.BENCH_BOUNTY_OPERATOR_KEY;
  // Whoever holds the operator key may award: a placeholder or a short key pasted from an example
  // would hand that power to anyone who guesses it. The key itself is never echoed.
  if (operatorKey !== undefined && operatorKey !== "" && operatorKey.length < MIN_OPERATOR_KEY_CHARS)
    throw new PlatformError(
      "invalid_option",
      `BENCH_BOUNTY_OPERATOR_KEY is too short (${operatorKey.length} characters, at least ${MIN_OPERATOR_KEY_CHARS}): ` +
        "generate one, e.g. export BENCH_BOUNTY_OPERATOR_KEY=bb_operator_$(openssl rand -hex 16)",
      { field: "BENCH_BOUNTY_OPERATOR_KEY" },
    );
  if (!/^[1-9][0-9]{0,6}$/.test(o.anchorFlushMs))
    throw new PlatformError(
      "invalid_option",
      `${named("--anchor-flush-ms")} must be an integer 1..9999999 (ms), got ${JSON.stringify(o.anchorFlushMs)}`,
      {
        field: "anchor-flush-ms",
      },
    );
  const budgetAll = o.publishBudgetAll;
  if (budgetAll !== undefined && !/^[1-9][0-9]{0,8}$/.test(budgetAll))
    throw new PlatformError(
      "invalid_option",
      `${named("--publish-budget-all")} must be an integer 1..999999999 (publishes per 24 h by all accounts together), got ${JSON.stringify(budgetAll)}`,
      { field: "publish-budget-all" },
    );
  const batchAnchorQuota = { ...DEFAULT_BATCH_ANCHOR_QUOTA };
  for (const [flag, key, value] of [
    ["anchor-budget-per-account", "count", o.anchorBudgetPerAccount],
    ["anchor-budget-all", "allAccountsCount", o.anchorBudgetAll],
  ] as const) {
    if (value === undefined) continue;
    if (!/^[1-9][0-9]{0,8}$/.test(value))
      throw new PlatformError(
        "invalid_option",
        `${named(`--${flag}`)} must be an integer 1..999999999 (finalizes per ${PERIOD_HOURS} h whose receipt the batches anchor), got ${JSON.stringify(value)}`,
        { field: flag },
      );
    batchAnchorQuota[key] = Number(value);
  }
  const agentQuota = { ...DEFAULT_AGENT_QUOTA };
  for (const [flag, key, value] of [
    ["agents-per-account", "perAccount", o.agentsPerAccount],
    ["agents-per-benchmark", "perBenchmark", o.agentsPerBenchmark],
  ] as const) {
    if (value === undefined) continue;
    if (!/^[1-9][0-9]{0,8}$/.test(value))
      throw new PlatformError(
        "invalid_option",
        `${named(`--${flag}`)} must be an integer 1..999999999, got ${JSON.stringify(value)}`,
        { field: flag },
      );
    agentQuota[key] = Number(value);
  }
  const dsBytes = o.datasetBytesPerAccount;
  if (dsBytes !== undefined && !/^[1-9][0-9]{0,14}$/.test(dsBytes))
    throw new PlatformError(
      "invalid_option",
      `${named("--dataset-bytes-per-account")} must be an integer 1..999999999999999 (bytes of dataset rows one account may keep stored), got ${JSON.stringify(dsBytes)}`,
      { field: "dataset-bytes-per-account" },
    );
  const dsAll = o.datasetBytesAll;
  if (dsAll !== undefined && !/^[1-9][0-9]{0,14}$/.test(dsAll))
    throw new PlatformError(
      "invalid_option",
      `${named("--dataset-bytes-all")} must be an integer 1..999999999999999 (bytes of dataset rows all accounts but the operator's may keep stored together), got ${JSON.stringify(dsAll)}`,
      { field: "dataset-bytes-all" },
    );
  for (const [flag, value, what] of [
    ["answer-bytes-per-account", o.answerBytesPerAccount, "the runs of one account"],
    ["answer-bytes-all", o.answerBytesAll, "the runs of all accounts but the operator's together"],
  ] as const)
    if (value !== undefined && !/^[1-9][0-9]{0,14}$/.test(value))
      throw new PlatformError(
        "invalid_option",
        `${named(`--${flag}`)} must be an integer 1..999999999999999 (bytes of answers ${what} may keep stored), got ${JSON.stringify(value)}`,
        { field: flag },
      );
  // Receipts and commitments are batched: the operator's anchor transactions are one per kind per
  // flush, whatever the number of finalizes and publishes (issue 13 re-probe: one transaction per
  // finalize or publish drained the operator's gas).
  const anchorBatching = {
    flushMs: Number(o.anchorFlushMs),
    onError: (e: unknown) =>
      process.stderr.write(
        e instanceof PlatformError && e.code === "anchor_squatted"
          ? `anchor: squatted, recorded and never sent again (the other anchors were recorded): ${terminalText(e.message)}\n`
          : `anchor: a batch of anchors stays pending (retried): ${terminalText(e instanceof Error ? e.message : String(e))}\n`,
      ),
  };
  return openStore(o, {
    ...(operatorKey ? { operatorKey } : {}),
    ...(faults ? { faults } : {}),
    ...(batched ? { anchorBatching } : {}),
    ...(budgetAll !== undefined
      ? { publishQuota: { ...DEFAULT_PUBLISH_QUOTA, allAccountsCount: Number(budgetAll) } }
      : {}),
    batchAnchorQuota,
    agentQuota,
    ...(dsBytes !== undefined ? { datasetBytesPerAccount: Number(dsBytes) } : {}),
    ...(dsAll !== undefined ? { datasetBytesAllAccounts: Number(dsAll) } : {}),
    ...(o.answerBytesPerAccount !== undefined
      ? { answerBytesPerAccount: Number(o.answerBytesPerAccount) }
      : {}),
    ...(o.answerBytesAll !== undefined ? { answerBytesAllAccounts: Number(o.answerBytesAll) } : {}),
    awardWaitMs: SERVE_AWARD_WAIT_MS,
    // the process that awards: the awarder a chainless process on the store serves (probe36 V-F6)
    recordServiceAwarder: true,
  });
}

/**
 * The indexer URL the web pages are told (`config.json`, served to anyone): `--public-indexer-url`
 * without userinfo or secret parameters ({@link publicUrl}), else `--indexer-url` only when it is a bare
 * origin ({@link bareOrigin}): a path or query may hold the operator's key (probe9 Q1: `/v1/<key>`
 * was served), so such a URL is not served at all and the banner says so.
 * @param named how a refusal names a flag: as given, or its environment variable ({@link optionSourceName})
 * @throws PlatformError `invalid_option` naming the flag when it is not a URL (the value is not echoed)
 */
export function publicIndexerOf(
  o: Pick<ServeOpts, "indexerUrl" | "publicIndexerUrl">,
  named: (flag: string) => string = (flag) => flag,
): string | undefined {
  refuseNonUrls([
    [named("--indexer-url"), o.indexerUrl],
    [named("--public-indexer-url"), o.publicIndexerUrl],
  ]);
  if (o.publicIndexerUrl !== undefined) return publicUrl(o.publicIndexerUrl);
  return o.indexerUrl !== undefined ? bareOrigin(o.indexerUrl) : undefined;
}

/**
 * Each given flag must be an http(s) URL: the indexer and the verifier read only those, and the web
 * page's verify command (`--rpc`, `--indexer`) must work when pasted (a `ws://` RPC is refused there).
 * @throws PlatformError `invalid_option` naming the first flag whose value is not an http(s) URL (the
 * value is not echoed: it may carry a secret; a URL's scheme is named)
 */
function refuseNonUrls(given: [string, string | undefined][]): void {
  for (const [flag, v] of given) {
    if (v === undefined) continue;
    if (publicUrl(v) === "(not a URL)")
      throw new PlatformError(
        "invalid_option",
        `${flag} is not a URL (the value is not printed: it may carry a secret)`,
        { field: flag },
      );
    const scheme = new URL(v).protocol.slice(0, -1);
    if (scheme !== "http" && scheme !== "https")
      throw new PlatformError(
        "invalid_option",
        `${flag} is not an http(s) URL (scheme ${scheme}; the value is not printed: it may carry a secret)`,
        { field: flag },
      );
  }
}

/**
 * The RPC the web pages print in their verify command (`config.json`, served to anyone):
 * `--public-rpc-url` treated as `--public-indexer-url` is ({@link publicUrl}: no userinfo, no
 * secret-named parameter, no fragment; probe10 R11 saw it served whole), or none.
 * @param named how a refusal names a flag ({@link publicIndexerOf})
 * @throws PlatformError `invalid_option` naming the flag when it is not a URL (the value is not echoed)
 */
export function publicRpcOf(
  o: Pick<ServeOpts, "publicRpcUrl">,
  named: (flag: string) => string = (flag) => flag,
): string | undefined {
  refuseNonUrls([[named("--public-rpc-url"), o.publicRpcUrl]]);
  return o.publicRpcUrl !== undefined ? publicUrl(o.publicRpcUrl) : undefined;
}

/** ` (left out of FLAG: userinfo, parameter key)` when {@link publicUrl} left something out of `url`. */
function removedNote(flag: string, url: string | undefined): string {
  const removed = url !== undefined ? publicUrlRemoved(url) : [];
  return removed.length > 0 ? ` (left out of ${flag}: ${removed.join("; ")})` : "";
}

/**
 * The banner's warning when the URL served to the web pages (`shown`, {@link publicUrl}'s form) keeps
 * a path: {@link publicUrl} takes out userinfo, secret parameters and the fragment but serves the path
 * as given, and the common hosted providers carry their key there (Alchemy `/v2/<key>`, Infura
 * `/v3/<key>`; probe31 A-F5), which every visitor of the pages then reads. A path is no proof of a key
 * (`https://rpc.ankr.com/base`), so it is said, not refused. Empty for a bare origin.
 * @param flag the option that gave the URL (`--public-rpc-url`)
 * @returns `"  warning: ...\n"` or `""`
 */
export function servedPathWarning(flag: string, shown: string | undefined): string {
  if (shown === undefined) return "";
  const path = new URL(shown).pathname;
  if (path === "" || path === "/") return "";
  return `  warning: the path of ${flag} (${path.length} characters) is served to every visitor of the web pages as given; a hosted provider's key in the path (Alchemy /v2/<key>, Infura /v3/<key>) would be public: give a public RPC that carries none\n`;
}

/**
 * The banner's `chain:` line: the chain id and the RPC's origin, or why there is none. An RPC on a
 * loopback address without `--local-chain` gets a note (probe32 A-F2: a local node has Base's chain id
 * 8453, so the web pages link its transactions to Basescan, where they are not).
 * @returns the line, with its newline (and the note's line)
 */
export function chainBannerLine(
  o: Pick<ServeOpts, "chainId" | "localChain">,
  rpc: string | undefined,
  markedChain: number | null,
): string {
  if (rpc === undefined)
    return markedChain !== null
      ? `  chain: none here (no anchors, no award from this process; the store is anchored on chain ${markedChain})\n`
      : "  chain: none (off-chain: no anchors, no award)\n";
  const loopback = isLoopbackHost(new URL(rpc).hostname);
  return (
    `  chain: chain id ${o.chainId} via ${publicOrigin(rpc)}\n` +
    (loopback && o.localChain !== true
      ? "  note: the RPC is on a loopback address: if it is a local node, pass --local-chain (the web pages would link its transactions to the public explorer of its chain id)\n"
      : "")
  );
}

/**
 * The banner's note when serve listens on every interface (`--host 0.0.0.0` or `::`) without
 * `--public-url`: `how_to_compete` and receipt URLs are built on that base, which no agent elsewhere can
 * use (probe33 B-F12).
 * @returns the note's line, or `""`
 */
export function unspecifiedHostNote(publicUrl: string | undefined, listenUrl: string): string {
  const host = URL.canParse(listenUrl) ? new URL(listenUrl).hostname : "";
  return publicUrl === undefined && (host === "0.0.0.0" || host === "[::]")
    ? `  note: ${listenUrl} is every interface, not an address agents can use: how_to_compete and receipt URLs are built on it; pass --public-url with the address they reach this server by\n`
    : "";
}

/** The banner's line on the indexer the web pages read ({@link publicIndexerOf}). */
function webIndexerLine(
  o: Pick<ServeOpts, "indexerUrl" | "publicIndexerUrl">,
  shown: string | undefined,
): string {
  if (shown !== undefined)
    return `web pages read claims from ${shown}${removedNote("--public-indexer-url", o.publicIndexerUrl)}`;
  if (o.indexerUrl === undefined) return "web pages: no indexer (claims not shown)";
  return "web pages: no indexer served (--indexer-url has a path or query, which may hold a key; pass --public-indexer-url URL to serve one)";
}

/** Options of {@link registerServeCommand}. */
export interface ServeCommandOptions {
  /** Test only (the crash tests' entry, never the bin): fault-injection hooks of the platform. */
  faults?: FaultHooks;
}

/**
 * The batched-anchoring budget (the platform's `batchAnchorQuota`, probe28 A-F1): finalizes per period
 * whose receipt the anchor batches carry, per account and for all accounts but the operator's together.
 */
function anchorBudgetOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        "--anchor-budget-per-account <n>",
        `finalizes per ${BATCH_PERIOD_HOURS} h of one account whose receipt the batches anchor (~32,000 operator gas each); past it the receipt stays pending for \`anchor <slug>\` or the award (default ${DEFAULT_BATCH_ANCHOR_QUOTA.count}; the operator is not counted)`,
      ).env("BENCH_BOUNTY_ANCHOR_BUDGET_PER_ACCOUNT"),
    )
    .addOption(
      new Option(
        "--anchor-budget-all <n>",
        `finalizes per ${BATCH_PERIOD_HOURS} h of all accounts but the operator's together whose receipt the batches anchor; past it the receipt stays pending likewise (default ${DEFAULT_BATCH_ANCHOR_QUOTA.allAccountsCount})`,
      ).env("BENCH_BOUNTY_ANCHOR_BUDGET_ALL"),
    );
}

/**
 * The bounds on stored bytes: dataset rows and test sets, and answers (probe14 D1-F20), per account
 * and for all accounts but the operator's together.
 */
function storedBytesOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option(
        "--dataset-bytes-per-account <bytes>",
        `bytes of dataset rows (their stored JSON) and published test sets one account but the operator's may keep stored (default: ${DEFAULT_DATASET_BYTES_PER_ACCOUNT}, 256 MiB)`,
      ).env("BENCH_BOUNTY_DATASET_BYTES_PER_ACCOUNT"),
    )
    .addOption(
      new Option(
        "--dataset-bytes-all <bytes>",
        `bytes of dataset rows and published test sets all accounts but the operator's may keep stored together (default: ${DEFAULT_DATASET_BYTES_ALL_ACCOUNTS}, 8 GiB)`,
      ).env("BENCH_BOUNTY_DATASET_BYTES_ALL"),
    )
    .addOption(
      new Option(
        "--answer-bytes-per-account <bytes>",
        `bytes of answers (UTF-8 answer text) and run records (plan, receipt) the runs of one account but the operator's may keep stored; past it a submit or a run start is refused, 413 answer_quota_exceeded (default: ${DEFAULT_ANSWER_BYTES_PER_ACCOUNT}, 1 GiB)`,
      ).env("BENCH_BOUNTY_ANSWER_BYTES_PER_ACCOUNT"),
    )
    .addOption(
      new Option(
        "--answer-bytes-all <bytes>",
        `bytes of answers the runs of all accounts but the operator's may keep stored together (default: ${DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS}, 32 GiB)`,
      ).env("BENCH_BOUNTY_ANSWER_BYTES_ALL"),
    );
}

/**
 * The banner's `receipt anchors:` line of a chainless serve on a store marked with chain `chainId`
 * (`meta.anchoring_chain_id`): its receipts and commitments stay pending (withheld: no receipt hash, no
 * commit root served) until a process with that chain anchors them (probe27 A-F3: it said "none (off-chain)").
 */
export function pendingForChainLine(chainId: number): string {
  return (
    `pending until a process with chain ${chainId} anchors them ` +
    `(the store is marked with chain ${chainId}: receipts and commitments written here are withheld until then)`
  );
}

/** Registers `serve` on the program: the platform over HTTP (`@bench-bounty/server`). */
export function registerServeCommand(program: Command, opts: ServeCommandOptions = {}): void {
  anchorBudgetOptions(
    storedBytesOptions(
      storeOptions(
        program.command("serve").description("serve the platform over HTTP: REST API, MCP, evidence door"),
        // serve batches receipt anchors; `--help` says so (probe11 O14); it acts as no account (probe27 A-F7)
        { receiptAnchoring: "batch", actsAsAccount: false },
      ),
    ),
  )
    .addOption(new Option("--port <port>", "TCP port (0: any free port)").env("PORT").default("8787"))
    .addOption(new Option("--host <host>", "bind address").env("HOST").default("127.0.0.1"))
    .addOption(
      new Option(
        "--indexer-url <url>",
        "indexer the verifier and the web leaderboard read award claims from (only its origin is printed; served to the web pages only when it is a bare origin)",
      ).env("BENCH_BOUNTY_INDEXER_URL"),
    )
    .addOption(
      new Option(
        "--public-indexer-url <url>",
        "the indexer the web pages read (served without userinfo or secret parameters; default: --indexer-url when it is a bare origin)",
      ),
    )
    .addOption(
      new Option(
        "--public-rpc-url <url>",
        "a chain RPC anyone may see, printed in the web page's verify command (served without userinfo, secret parameters or fragment; its path is served as given, so give none that holds a provider's key; default: none; --rpc-url is never shown)",
      ),
    )
    .addOption(new Option("--local-chain", "the chain is a local node: no explorer links on the web pages"))
    .addOption(
      new Option(
        "--anchor-flush-ms <ms>",
        "receipts and commitments are anchored in batches (one anchorMany per kind) within this many ms of their finalize or publish",
      )
        .env("BENCH_BOUNTY_ANCHOR_FLUSH_MS")
        .default("2000"),
    )
    .addOption(
      new Option(
        "--publish-budget-all <n>",
        `publishes per ${PERIOD_HOURS} h by all accounts but the operator's together (default: none; each account may publish ${DEFAULT_PUBLISH_QUOTA.count} per ${PERIOD_HOURS} h)`,
      ).env("BENCH_BOUNTY_PUBLISH_BUDGET_ALL"),
    )
    .addOption(
      new Option(
        "--agents-per-account <n>",
        `agents one account may register (default ${DEFAULT_AGENT_QUOTA.perAccount})`,
      ).env("BENCH_BOUNTY_AGENTS_PER_ACCOUNT"),
    )
    .addOption(
      new Option(
        "--agents-per-benchmark <n>",
        `agents of one account that may start runs on one benchmark (default ${DEFAULT_AGENT_QUOTA.perBenchmark})`,
      ).env("BENCH_BOUNTY_AGENTS_PER_BENCHMARK"),
    )
    .addOption(
      new Option(
        "--exit-with-parent",
        "stop when the process that started this one dies (for scripts that spawn serve; on by itself under npm, npx and pnpm)",
      ),
    )
    .action(async (o: ServeOpts, cmd: Command) => {
      // a refused value is named as given: the flag, or its variable (probe30 B-F7, probe32 B-F2)
      const named = (flag: string): string => optionSourceName(cmd, flag);
      try {
        const port = portOf(o.port, named("--port"));
        const [shownIndexer, shownRpc] = [publicIndexerOf(o, named), publicRpcOf(o, named)];
        // serve batches receipt anchors (the option's default here) unless `--receipt-anchoring immediate`
        const batched = o.receiptAnchoring === "batch";
        const { platform, database } = await openForServe(o, opts.faults, batched, named);
        // Loaded here, not at the bin's start: every other command stays as fast as before.
        const {
          closeDatasetWorker,
          platformDomain,
          serveApp,
          startVerifier,
          storeVerificationQueue,
          webMiddleware,
        } = await import("@bench-bounty/server");
        // The verification queue lives in the store (verification_jobs), shared by every serve process.
        const jobs = storeVerificationQueue(platform);
        const domain = platformDomain(platform, { jobs, localChain: o.localChain === true });
        const web = webMiddleware({
          ...(shownIndexer ? { indexerUrl: shownIndexer } : {}),
          ...(shownRpc ? { publicRpcUrl: shownRpc } : {}),
          localChain: o.localChain === true,
        });
        const server = await serveApp({
          domain,
          web,
          port,
          host: o.host,
          optionName: named,
          ...(o.publicUrl ? { publicBaseUrl: o.publicUrl } : {}),
        }).catch(async (e: unknown) => {
          await platform.close();
          throw e;
        });
        // One base URL for how_to_compete and receipt_url (the award pack's input): `--public-url`, else
        // the address serve listens on (probeD1 F17: receipt_url kept the platform's default :8787). Set
        // before any request is read: serveApp resolves in its listen callback, this runs next (the
        // base is set at once, then recorded in the store for the CLI's award: probe27 C-F6).
        await platform.recordPublicBaseUrl(o.publicUrl ?? server.url);
        // a start-up step failing after the listen closes what is open: the process exits, never hangs
        const verifier = await startVerifier(platform, {
          jobs,
          enqueueIfPacked: (slug) => domain.enqueueIfPacked(slug),
          rpcUrl: platform.chain?.config.rpcUrl,
          indexerUrl: o.indexerUrl,
          onStep: printVerifierStep,
          onSweep: printVerifierSweep,
        }).catch(async (e: unknown) => {
          await server.close();
          await closeDatasetWorker();
          await platform.close();
          throw e;
        });
        for (const r of verifier.refused)
          process.stderr.write(`verifier: ${r.slug} not queued at start: ${terminalText(r.error)}\n`);
        // The operator's RPC URL carries a provider's key: only its origin is printed (issue 13 re-probe).
        const rpc = platform.chain?.config.rpcUrl;
        // the signal handlers are in place before the banner: whoever waits for "listening on" may stop
        // it at once (a SIGINT between the banner and the handlers killed it with the default action)
        // a chainless process on a store a chain process marked keeps its digests pending for that chain
        // (reveal.ts): the banner says so rather than "off-chain" (probe27 A-F3)
        const markedChain = rpc ? null : await platform.ctx.store.anchors.anchoringChainId();
        const stopped = untilStopped(o.exitWithParent === true || startedByPackageManager());
        process.stdout.write(
          `bench-bounty serve: listening on ${server.url}\n${unspecifiedHostNote(o.publicUrl, server.url)}` +
            `  database: ${database}\n` +
            chainBannerLine(o, rpc, markedChain) +
            `  receipt anchors: ${!rpc ? (markedChain !== null ? pendingForChainLine(markedChain) : "none (off-chain)") : platform.ctx.anchorBatcher ? `batched (one anchorMany within ${o.anchorFlushMs} ms of a finalize; commitments likewise, of a publish)` : "one transaction per finalize and per publish (--receipt-anchoring immediate)"}\n` +
            `  operator key: ${process.env.BENCH_BOUNTY_OPERATOR_KEY ? "set (BENCH_BOUNTY_OPERATOR_KEY)" : "not set (nobody may award over the API)"}\n` +
            (rpc
              ? `  verifier: full policy, chain ${publicOrigin(rpc)}, indexer ${o.indexerUrl ? publicOrigin(o.indexerUrl) : "not set (takes no job a worker with one verified)"}`
              : "  verifier: takes no job here (no chain: awards are verified by a serve with one on this store)") +
            `${verifier.queued.length ? ` (queued at start: ${verifier.queued.join(", ")})` : ""}\n` +
            `  web: ${server.url}/  (${webIndexerLine(o, shownIndexer)})\n` +
            (shownRpc
              ? `  web verify command: --rpc ${shownRpc}${removedNote("--public-rpc-url", o.publicRpcUrl)}\n` +
                servedPathWarning("--public-rpc-url", shownRpc)
              : "") +
            `  REST: ${server.url}/api/v1/benchmarks  OpenAPI: ${server.url}/api/v1/openapi.json\n` +
            `  MCP: ${server.url}/mcp  (one benchmark: ${server.url}/mcp/benchmarks/<slug>/http)\n`,
        );
        const why = await stopped;
        process.stdout.write(`bench-bounty serve: ${why}: stopping\n`);
        // the award requests in flight are answered at once (409 award_pending naming the transaction, or
        // nothing sent) and their work ends, never the award's whole wait; the listener then gives the
        // requests in flight SERVE_STOP_GRACE_MS to be answered before it cuts them (probe29 C-F9: the
        // operator's award was cut with no answer and the process lingered 46 s); an upload inserting
        // its rows ends at its next slice, its pending dataset removed, and is answered 503 before the
        // store closes (probe30 A-F10: the store was closed under it, no answer, the dataset left behind);
        // the dataset jobs (validate, upload, a publish's planning) are answered 503 stopping at once and
        // the dataset worker terminated outside the native hashing, and a publish's reads and writes end
        // before the store closes (probe31 A-F6: the process aborted, or the store closed under the
        // publish, which was never answered)
        const awardsStopped = platform.stopAwards();
        const uploadsStopped = platform.stopUploads();
        const datasetsStopped = closeDatasetWorker();
        await server.close(SERVE_STOP_GRACE_MS);
        await verifier.stop();
        await awardsStopped;
        await uploadsStopped;
        await datasetsStopped;
        await platform.close();
      } catch (e) {
        if (!(e instanceof PlatformError)) throw e;
        process.stderr.write(`error: ${terminalText(e.message)}\n`);
        process.exitCode = 1;
      }
    });
}
