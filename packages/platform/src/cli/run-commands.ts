/** The runner commands: run and resume. */
import { Command, Option } from "commander";
import { action, int, openPlatform, print, principalOf, storeOptions, type StoreOpts } from "./common.js";
import { dirname, join } from "node:path";
import { LocalRunBackend } from "../backend.js";
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

/** Registers the runner commands: run and resume. */
export function registerRunCommands(program: Command): void {
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
    .action(
      action(async (slug: string, o: StoreOpts & RunOpts) => {
        const platform = openPlatform(o, true);
        const { signal, dispose } = interruptible();
        try {
          const me = await principalOf(platform, o);
          if (o.withdrawalAddress || o.author) {
            await platform.registerAgent(me, o.agentId!, {
              ...(o.withdrawalAddress ? { withdrawal_address: o.withdrawalAddress } : {}),
              ...(o.author ? { is_author_agent: true } : {}),
            });
          }
          const agent: AgentSpec = { kind: "command", command: o.agent! };
          const backend = new LocalRunBackend(platform, me);
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
          platform.close();
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
    .action(
      action(async (runId: string, o: StoreOpts & RunOpts) => {
        const platform = openPlatform(o, true);
        const { signal, dispose } = interruptible();
        try {
          const agent: AgentSpec | undefined = o.agent ? { kind: "command", command: o.agent } : undefined;
          const backend = new LocalRunBackend(platform, await principalOf(platform, o));
          print(summarise(await resumeRun(backend, runId, agent, toRunnerOptions(o, signal)), o.store));
        } finally {
          dispose();
          platform.close();
        }
      }),
    );
}
