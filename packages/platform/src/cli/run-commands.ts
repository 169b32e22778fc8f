/**
 * The runner commands: run and resume, on the local store or, with `--server URL --api-key KEY`,
 * through a server's HTTP API (the backend comes from the {@link PlatformCommandHooks} of the bin that
 * may import the HTTP client; the platform never speaks HTTP).
 */
import { Command, Option } from "commander";
import { action, int, openPlatform, print, principalOf, storeOptions, type StoreOpts } from "./common.js";
import { dirname, join } from "node:path";
import { LocalRunBackend, type RunBackend } from "../backend.js";
import { PlatformError } from "../errors.js";
import { ensureWritableDir } from "../store.js";
import { resumeRun, runBenchmark, type AgentSpec, type RunnerOptions, type RunnerResult } from "../runner.js";
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
 * Hooks of `registerPlatformCommands`. `remoteBackend` (given by the `bench-bounty` bin, which may import
 * the HTTP client) makes `run`/`resume --server URL --api-key KEY` compete through the HTTP API instead
 * of a local store; checkpoints then live in `checkpointDir`.
 */
export interface PlatformCommandHooks {
  remoteBackend?: (server: string, apiKey: string, checkpointDir: string) => RunBackend;
}

/**
 * The backend of `run`/`resume`: remote with `--server`, else the local store (and its platform).
 * @throws PlatformError `invalid_option` for `--server` without a hook or without `--api-key`
 */
async function runBackendOf(
  o: StoreOpts & { server?: string },
  hooks: PlatformCommandHooks,
): Promise<{ backend: () => Promise<RunBackend>; close: () => void }> {
  if (o.server) {
    if (!hooks.remoteBackend)
      throw new PlatformError("invalid_option", "--server is not available in this binary", {
        field: "server",
      });
    if (!o.apiKey)
      throw new PlatformError(
        "invalid_option",
        "--server needs --api-key (or BENCH_BOUNTY_API_KEY): the run belongs to that key",
        { field: "api-key" },
      );
    ensureWritableDir(join(o.store, "runs"), "--store");
    const b = hooks.remoteBackend(o.server, o.apiKey, join(o.store, "runs"));
    return { backend: async () => b, close: () => {} };
  }
  const platform = await openPlatform(o, true, { localRuns: true });
  return {
    backend: async () => new LocalRunBackend(platform, await principalOf(platform, o)),
    close: () => void platform.close(),
  };
}

/** Registers the runner commands: run and resume. */
export function registerRunCommands(program: Command, hooks: PlatformCommandHooks = {}): void {
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
    .addOption(
      new Option("--server <url>", "compete through this server's HTTP API (with --api-key)").env(
        "BENCH_BOUNTY_SERVER",
      ),
    )
    .action(
      action(async (slug: string, o: StoreOpts & RunOpts & { server?: string }) => {
        if (o.server && (o.withdrawalAddress || o.author))
          throw new PlatformError(
            "invalid_option",
            "with --server, set the withdrawal address on the server (PUT /api/v1/accounts/me/withdrawal-address)",
            { field: o.withdrawalAddress ? "withdrawal-address" : "author" },
          );
        const where = await runBackendOf(o, hooks);
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
    .addOption(
      new Option("--server <url>", "resume through this server's HTTP API (with --api-key)").env(
        "BENCH_BOUNTY_SERVER",
      ),
    )
    .action(
      action(async (runId: string, o: StoreOpts & RunOpts & { server?: string }) => {
        const where = await runBackendOf(o, hooks);
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
}
