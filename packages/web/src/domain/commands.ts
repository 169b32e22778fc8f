/**
 * The copyable "how to compete" commands of a benchmark (compete seed): the REST walk, the MCP
 * endpoint, and the one auditable script. Every command names this benchmark's own slug and the
 * API it was read from, so it is copy-paste correct as printed.
 *
 * @packageDocumentation
 */

import type { CompeteAtMain } from "@bench-bounty/platform";

/** Commands of one benchmark. */
export interface CompeteCommands {
  rest: { title: string; command: string }[];
  mcp: { endpoint: string; calls: string[] };
  script: { title: string; command: string }[];
}

/** The shell variable naming the service's main address in a walk (the API's `how_to_compete` too). */
export const MAIN_VAR = "$MAIN";

/** Single-quotes a value for POSIX sh (`it's` -> `'it'\''s'`). */
export function shQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * @param origin the API origin without trailing slash (`https://bench.example` or the page's own)
 * @param slug the benchmark slug
 * @param atMain the detail's `compete_at_main` (platform `competeAtMainOf`, the one rule of both walks):
 *   the steps the API refuses here (503 `no_chain`) name `"$MAIN"`, the service's main address, as the
 *   API's `how_to_compete` does: the withdrawal address, a prize benchmark's start, answers and finalize;
 *   the MCP endpoint and the script's runs, which set the address, too (probe37 A-F1). Reads stay at `origin`.
 */
export function competeCommands(
  origin: string,
  slug: string,
  atMain: Pick<CompeteAtMain, "withdrawal_address" | "runs"> | null = null,
): CompeteCommands {
  const base = origin.replace(/\/+$/, "");
  const api = `${base}/api/v1`;
  const s = encodeURIComponent(slug);
  const key = '-H "X-API-Key: $BENCH_BOUNTY_API_KEY"';
  const script = `${api}/scripts/run-benchmark.sh`;
  // a URL of this API, or of the main address's (double-quoted: the shell expands $MAIN)
  const here = (path: string) => shQuote(`${api}${path}`);
  const main = (path: string) => `"${MAIN_VAR}/api/v1${path}"`;
  const address = atMain?.withdrawal_address === true ? main : here;
  const runs = atMain?.runs === true ? main : here;
  // the MCP calls and the script's start set the address: all of them at the main address then
  const elsewhere = atMain !== null && (atMain.withdrawal_address || atMain.runs);
  const runBase = elsewhere ? `"${MAIN_VAR}"` : shQuote(base);
  const runApi = atMain?.runs === true ? `${MAIN_VAR}/api/v1` : api;
  return {
    rest: [
      {
        title:
          'Get a key (shown once): export it as BENCH_BOUNTY_API_KEY (the platform picks a name; send {"name":"..."} to choose one)',
        command: `curl -s -X POST ${shQuote(`${api}/accounts`)} -H 'Content-Type: application/json' -d '{}'`,
      },
      {
        title: "Set a withdrawal address before you compete (a winner without one blocks the whole award)",
        command: `curl -s -X PUT ${address("/accounts/me/withdrawal-address")} ${key} -H 'Content-Type: application/json' -d '{"withdrawal_address":"0x..."}'`,
      },
      {
        title: "Detail (scoring, grader types, how to compete)",
        command: `curl -s ${shQuote(`${api}/benchmarks/${s}`)}`,
      },
      {
        title: "Corpus (read it before you start: the clock starts at run start)",
        command: `curl -s ${shQuote(`${api}/benchmarks/${s}/corpus`)} ${key}`,
      },
      {
        title: "Start a run (prints the run id and tasks)",
        command: `curl -s -X POST ${runs(`/benchmarks/${s}/runs`)} ${key}`,
      },
      {
        title: "Submit answers",
        command: `curl -s -X POST "${runApi}/benchmarks/runs/$RUN_ID/submissions" ${key} -H 'Content-Type: application/json' -d '{"answers":[{"ordinal":0,"answer_text":"your answer"}]}'`,
      },
      {
        title: "Finalize (stops the clock)",
        command: `curl -s -X POST "${runApi}/benchmarks/runs/$RUN_ID/finalize" ${key}`,
      },
      { title: "Leaderboard", command: `curl -s ${shQuote(`${api}/benchmarks/${s}/leaderboard`)}` },
    ],
    mcp: {
      endpoint: `${elsewhere ? MAIN_VAR : base}/mcp/benchmarks/${s}/http`,
      calls: [
        "register (with withdrawal_address; with a key: set_withdrawal_address)",
        "benchmark_corpus",
        "benchmark_start_run",
        "benchmark_submit_answers",
        "benchmark_finalize_run",
      ],
    },
    script: [
      {
        title: "Audit the script once (byte-static; the slug is an argument)",
        command: `curl -sSL ${shQuote(script)} | less`,
      },
      { title: "Its published SHA-256", command: `curl -sSL ${shQuote(`${api}/scripts/sha256sums.txt`)}` },
      { title: "Must match (macOS: shasum -a 256)", command: `curl -sSL ${shQuote(script)} | sha256sum` },
      {
        title:
          "Where a prize goes (a service that pays prizes needs it before a run): your 0x address in place of 0xYOUR_ADDRESS",
        command: "export BENCH_BOUNTY_WITHDRAWAL_ADDRESS=0xYOUR_ADDRESS",
      },
      {
        title: "Phase 1: start a run",
        command: `curl -sSL ${shQuote(script)} | sh -s -- ${runBase} start ${shQuote(slug)}`,
      },
      {
        title:
          "Between the phases: the key Phase 1 printed on stderr (when it registered an account) and run.id of its JSON",
        command: "export BENCH_BOUNTY_API_KEY=...; RUN_ID=...",
      },
      {
        title:
          "Phase 2: submit = submit ALL your answers and finalize the run (uses up the attempt): one call, every answer in it, the key of Phase 1; prints the score and receipt, then the leaderboard",
        command: `curl -sSL ${shQuote(script)} | sh -s -- ${runBase} submit "$RUN_ID" '[{"ordinal": 0, "answer_text": "your answer"}]'`,
      },
    ],
  };
}

/**
 * The set-up a clone of bench-bounty needs before {@link verifyCommand} works: the root README's
 * install and build (probe35 B-F3: the page said "after npx pnpm@12.4.2 install", and the install alone
 * builds no CLI, so the command failed with a stack trace).
 */
export const VERIFY_SETUP = "npx pnpm@12.4.2 install --frozen-lockfile && npx pnpm@12.4.2 build";

/**
 * The command that verifies a downloaded pack locally, as the root README prints it (run in a
 * clone of bench-bounty after {@link VERIFY_SETUP}), with the chain and indexer when known.
 */
export function verifyCommand(opts: {
  packFile?: string;
  rpcUrl?: string | null;
  indexerUrl?: string | null;
  policy?: string;
}): string {
  const parts = [
    "npx",
    "pnpm@12.4.2",
    "exec",
    "bench-bounty",
    "verify",
    shQuote(opts.packFile ?? "pack.json"),
  ];
  if (opts.rpcUrl) parts.push("--rpc", shQuote(opts.rpcUrl));
  if (opts.indexerUrl) parts.push("--indexer", shQuote(opts.indexerUrl));
  const policy = opts.policy ?? (opts.rpcUrl ? (opts.indexerUrl ? "full" : "onchain") : "offline");
  parts.push("--policy", policy);
  return parts.join(" ");
}
