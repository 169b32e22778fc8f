/**
 * The three ways the demo's agents reach the service, as strangers' agents would: the remote runner
 * (`bench-bounty run SLUG --server URL --agent CMD`, its key in `BENCH_BOUNTY_API_KEY`), the byte-static
 * `run-benchmark.sh` (curl and sh only), and MCP (the official SDK client, the five-call fast path).
 * Each agent is the same CLI program (`demo/agents/*.mjs`, protocol `bench-bounty.agent.v1`): the
 * channel only carries its tasks and answers.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENTS_DIR } from "./agents-dir.js";
import { runCli } from "./services.js";
import type { ProcessRegistry } from "./processes.js";

/** How an agent competes. */
export type Channel = "runner" | "script" | "mcp";

/** A task as the service hands it out (never gold). */
interface ServedTask {
  ordinal: number;
  prompt: string;
  visibility: string;
  grader_type: string;
}

/** Milliseconds one attempt of one agent may take. */
const ATTEMPT_TIMEOUT_MS = 300_000;

/** The command line of a demo agent. */
export function agentCommand(agentId: string): string {
  return `"${process.execPath}" "${join(AGENTS_DIR, `${agentId}.mjs`)}"`;
}

/**
 * Runs a demo agent once on a set of tasks through its stdin/stdout protocol.
 * @throws Error naming the agent when it fails or prints no answers
 */
export function answerTasks(
  agentId: string,
  slug: string,
  runId: string,
  attempt: number,
  tasks: ServedTask[],
) {
  const input = JSON.stringify({
    protocol: "bench-bounty.agent.v1",
    benchmark: slug,
    run_id: runId,
    attempt,
    tasks,
  });
  const r = spawnSync(process.execPath, [join(AGENTS_DIR, `${agentId}.mjs`)], {
    input,
    encoding: "utf8",
    cwd: AGENTS_DIR,
    timeout: ATTEMPT_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0)
    throw new Error(`agent ${agentId} exited with ${r.status ?? r.signal}: ${r.stderr.slice(-500)}`);
  const out = JSON.parse(r.stdout) as { answers?: { ordinal: number; answer_text: string }[] };
  if (!Array.isArray(out.answers)) throw new Error(`agent ${agentId} printed no "answers" array`);
  return out.answers;
}

/** What {@link runnerInvocation} builds a `bench-bounty run` from. */
export interface RunnerAttempt {
  url: string;
  slug: string;
  agentId: string;
  apiKey: string;
  checkpoints: string;
  /** Paths its agent must not see besides `checkpoints` (`--agent-hide`: the demo's `agentHiddenPaths` of `context.ts`). */
  hide: readonly string[];
}

/**
 * The arguments and extra environment of one remote-runner attempt: the agent's key goes in
 * `BENCH_BOUNTY_API_KEY`, never in the arguments, which every local user reads in `ps` (issue 13
 * re-probe O7); each of `hide` is an `--agent-hide` (the agent runs on the serving host as the
 * service's user: probe35 A-F1).
 */
export function runnerInvocation(o: RunnerAttempt): { args: string[]; env: Record<string, string> } {
  return {
    args: [
      "run",
      o.slug,
      "--server",
      o.url,
      "--agent",
      agentCommand(o.agentId),
      "--agent-id",
      o.agentId,
      "--store",
      o.checkpoints,
      "--batch-size",
      "50",
      "--timeout-ms",
      "10000",
      "--no-progress",
      ...o.hide.flatMap((p) => ["--agent-hide", p]),
    ],
    env: { BENCH_BOUNTY_API_KEY: o.apiKey },
  };
}

/** One attempt through the remote runner (a `bench-bounty run` child, {@link runnerInvocation}). */
export async function competeWithRunner(
  o: RunnerAttempt & { registry: ProcessRegistry; note: (line: string) => void; verbose: boolean },
): Promise<void> {
  const { args, env } = runnerInvocation(o);
  await runCli(o.registry, args, { env, note: o.note, verbose: o.verbose, timeoutMs: ATTEMPT_TIMEOUT_MS });
}

/**
 * Downloads `run-benchmark.sh`, checks it against `sha256sums.txt` (as the compete seed asks before
 * running it), and returns its path.
 * @throws Error when the checksum differs
 */
export async function fetchScript(url: string, dir: string): Promise<string> {
  const script = new Uint8Array(await (await fetch(`${url}/api/v1/scripts/run-benchmark.sh`)).arrayBuffer());
  const sums = await (await fetch(`${url}/api/v1/scripts/sha256sums.txt`)).text();
  const digest = createHash("sha256").update(script).digest("hex");
  if (!sums.split("\n").some((l) => l.startsWith(digest) && l.includes("run-benchmark.sh"))) {
    throw new Error(`run-benchmark.sh (sha256 ${digest}) is not listed in sha256sums.txt`);
  }
  const file = join(dir, "run-benchmark.sh");
  writeFileSync(file, script);
  return file;
}

/** The POSIX shell to run the script with: `dash` when installed (strict POSIX), else `sh`. */
function posixShell(): string {
  return spawnSync("dash", ["-c", "exit 0"]).status === 0 ? "dash" : "sh";
}

/** One attempt through `run-benchmark.sh` (phases `start` and `submit`), answers from the agent. */
export function competeWithScript(o: {
  script: string;
  url: string;
  slug: string;
  agentId: string;
  apiKey: string;
  attempt: number;
}): void {
  const sh = posixShell();
  const env = { ...process.env, BENCH_BOUNTY_API_KEY: o.apiKey };
  const started = JSON.parse(
    execFileSync(sh, [o.script, o.url, "start", o.slug], {
      env,
      encoding: "utf8",
      timeout: ATTEMPT_TIMEOUT_MS,
    }),
  ) as { run: { id: string }; tasks: ServedTask[] };
  const answers = answerTasks(o.agentId, o.slug, started.run.id, o.attempt, started.tasks);
  execFileSync(sh, [o.script, o.url, "submit", started.run.id, JSON.stringify(answers)], {
    env,
    encoding: "utf8",
    timeout: ATTEMPT_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Connects an MCP client to the benchmark's own endpoint (Bearer key when given). */
async function connectMcp(url: string, slug: string, apiKey?: string): Promise<Client> {
  const client = new Client({ name: "bench-bounty-demo-agent", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp/benchmarks/${slug}/http`), {
    ...(apiKey ? { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } } : {}),
  });
  await client.connect(transport);
  return client;
}

/** Calls one MCP tool; throws with the tool error's `{code, message}` when it refuses. */
async function tool<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.structuredContent as (T & { error?: { code: string; message: string } }) | undefined;
  if (r.isError || !content)
    throw new Error(
      `MCP ${name}: ${content?.error ? `${content.error.code}: ${content.error.message}` : "no result"}`,
    );
  return content;
}

/** MCP `register` on the benchmark's endpoint (no key needed): the new account's key. */
export async function registerOverMcp(
  url: string,
  slug: string,
  name: string,
  withdrawalAddress: string,
): Promise<string> {
  const anon = await connectMcp(url, slug);
  try {
    const reg = await tool<{ api_key: string }>(anon, "register", {
      name,
      agent_id: name,
      withdrawal_address: withdrawalAddress,
    });
    return reg.api_key;
  } finally {
    await anon.close();
  }
}

/** One attempt over MCP: `benchmark_corpus`, `benchmark_start_run`, `benchmark_submit_answers`, `benchmark_finalize_run`. */
export async function competeOverMcp(o: {
  url: string;
  slug: string;
  agentId: string;
  apiKey: string;
  attempt: number;
}): Promise<void> {
  const client = await connectMcp(o.url, o.slug, o.apiKey);
  try {
    await tool(client, "benchmark_corpus", {});
    const started = await tool<{ run: { id: string }; tasks: ServedTask[] }>(
      client,
      "benchmark_start_run",
      {},
    );
    const answers = answerTasks(o.agentId, o.slug, started.run.id, o.attempt, started.tasks);
    await tool(client, "benchmark_submit_answers", { run_id: started.run.id, answers });
    await tool(client, "benchmark_finalize_run", { run_id: started.run.id });
  } finally {
    await client.close();
  }
}
