/**
 * The runner commands: run and resume, on the local store or, with `--server URL --api-key KEY`,
 * through a server's HTTP API (the backend comes from the {@link PlatformCommandHooks} of the bin that
 * may import the HTTP client; the platform never speaks HTTP).
 */
import { Command, Option } from "commander";
import { repeatableOption } from "@bench-bounty/verifier/cli";
import {
  action,
  anchorRetryCommand,
  databaseUrlNote,
  ensureRunsDir,
  invokedAs,
  int,
  isLoopbackHost,
  shellCommand,
  openPlatform,
  optionName,
  print,
  principalOf,
  storeOptions,
  type StoreOpts,
} from "./common.js";
import { dirname, join, resolve } from "node:path";
import { LocalRunBackend, type RunBackend } from "../backend.js";
import type { RemoteAccountKeys } from "./account-commands.js";
import { PlatformError } from "../errors.js";
import { AGENT_HIDE_ENV, agentHidePaths, passedAgentEnv } from "../agent-process.js";
import {
  checkAgentSandbox,
  resumeRun,
  runBenchmark,
  type AgentSpec,
  type RunnerOptions,
  type RunnerResult,
} from "../runner.js";
import { absoluteAgentCommand } from "../runner/agent.js";
import { shellWord, terminalText } from "../terminal.js";
import { MAX_TIMER_MS } from "../time.js";
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
  /** `--agent-hide` (repeatable) or `BENCH_BOUNTY_AGENT_HIDE` (one `:`-separated value): see {@link agentHideOf}. */
  agentHide?: string[];
}

export { AGENT_HIDE_ENV } from "../agent-process.js";

/**
 * The `--agent-hide <path>` option of `run` and `resume` (repeatable; env {@link AGENT_HIDE_ENV}, a
 * `:`-separated list): more paths hidden from the runner's agents besides the `--store` directory (a
 * service's store on the same host: probe35 A-F1).
 */
function agentHideOption(): Option {
  return repeatableOption(
    "--agent-hide <path>",
    `hide this file or directory from the agents too, as the --store directory is (repeatable; e.g. the store of a service on this host: its gold; env ${AGENT_HIDE_ENV}: paths separated by ':')`,
  ).env(AGENT_HIDE_ENV);
}

/**
 * The paths `run`/`resume` hide from their agents besides the store's: every `--agent-hide` AND every
 * path of its environment form (split at `:`; an empty variable names none), each absolute and checked
 * by {@link agentHidePaths}, duplicates once. Both, never one instead of the other (probe35 V-F5: an
 * operator's standing BENCH_BOUNTY_AGENT_HIDE, the service's store, was dropped silently as soon as one
 * `--agent-hide` was given, as Commander reads an option's variable only when the flag is absent).
 * @throws PlatformError `invalid_option` (field `agent-hide`) naming the option, or its variable, and the path
 */
function agentHideOf(o: StoreOpts & RunOpts, cmd: Command): string[] {
  const fromCli = cmd.getOptionValueSource("agentHide") === "cli" ? (o.agentHide ?? []) : [];
  const variable = process.env[AGENT_HIDE_ENV];
  const fromEnv = variable === undefined || variable === "" ? [] : variable.split(":");
  return [
    ...new Set([
      ...agentHidePaths(fromCli, "--agent-hide"),
      ...agentHidePaths(fromEnv, `${AGENT_HIDE_ENV} (the environment form of --agent-hide)`),
    ]),
  ];
}

function runnerOptions(cmd: Command): Command {
  return cmd
    .option("--concurrency <n>", "tasks (CLI: batches) in flight at once", int("concurrency", 1))
    .option("--batch-size <n>", "tasks per agent process (CLI agents)", int("batch-size", 1))
    .option(
      "--timeout-ms <ms>",
      `per-task timeout in milliseconds (at most ${MAX_TIMER_MS}, with --batch-size: per batch)`,
      int("timeout-ms", 1, MAX_TIMER_MS),
    )
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
 * The note under a printed `resume` of a run made with a key: the command names no key (an argument is
 * visible to every local user in `ps`: probe40 V-F6), it reads `BENCH_BOUNTY_API_KEY` from its environment.
 */
export const RESUME_KEY_NOTE =
  "(run it where BENCH_BOUNTY_API_KEY holds your API key, exported: the key is not printed)";

/** Where a run lives, as `resume` needs it: the store (checkpoints), and the server and key for a remote run. */
interface ResumeWhere {
  store: string;
  server?: string;
  /**
   * Whether the run was made with a key, `--api-key` or its variable `BENCH_BOUNTY_API_KEY` alike: the printed
   * command then says, on the next line, to run it with the variable exported (probe40 B-F1: a key from the
   * variable printed no note, and the line pasted in a shell without it was refused; probe40 V-F6: never a
   * key word in the command, which would put the key in the process arguments).
   */
  withKey: boolean;
  /** The agent command to name (`--agent`): a run another process started may have no checkpoint here. */
  agent?: string;
  /** Every `--agent-hide` path, its environment form's too (a pasted resume may run in a shell without the variable). */
  agentHide?: readonly string[];
}

/**
 * The `bench-bounty resume` command of a run, paste-able as printed: the command alone on its line
 * (probe21 B-F9: a note on the same line made the pasted line a shell syntax error), each note on a
 * line of its own after it. The key is never printed, nor put in the command's arguments: a run made with
 * a key, given with `--api-key` or in `BENCH_BOUNTY_API_KEY`, gets the command without any `--api-key`
 * and the next line {@link RESUME_KEY_NOTE}, since the command reads the exported variable itself (probe40
 * B-F1: a key from the variable printed no note, and the line pasted in a new shell was refused as another
 * account's run; probe40 V-F6: its `--api-key "$BENCH_BOUNTY_API_KEY"` word put the whole key in the
 * resume's process arguments, which every local user reads in `ps`, for the whole run).
 */
export function resumeCommand(runId: string, w: ResumeWhere): string {
  const cmd = [invokedAs(), "resume", runId, "--store", shellWord(resolve(w.store))];
  if (w.server) cmd.push("--server", shellWord(w.server));
  if (w.agent !== undefined) cmd.push("--agent", shellWord(w.agent));
  for (const p of w.agentHide ?? []) cmd.push("--agent-hide", shellWord(p));
  return cmd.join(" ") + (w.withKey ? `\n  ${RESUME_KEY_NOTE}` : "") + (w.server ? "" : databaseUrlNote());
}

function whereOf(o: StoreOpts & { server?: string }, agentHide: readonly string[]): ResumeWhere {
  return {
    store: o.store,
    ...(o.server ? { server: o.server } : {}),
    // whatever its source: the variable may not be set where the line is pasted (probe40 B-F1)
    withKey: o.apiKey !== undefined,
    // every hidden path, the variable's too: the printed command may be pasted in a shell without it
    // (probe35 V-F5: a resume there let the agent read what the variable was hiding)
    ...(agentHide.length > 0 ? { agentHide } : {}),
  };
}

/**
 * An `agent_failed` of the runner, any other refusal that stopped a run it leaves in progress
 * (`details.attempt_used: false`: a submit's `network_error`, `server_busy`, ...; probe37 A-N4), or a
 * `run_in_progress` of a run start (the agent's unfinished run:
 * `resume` finishes it; probe29 B-F7: "finalize it first" named no command the CLI has), with the exact
 * `resume` command appended (the runner does not know the command line). The command names `--agent`
 * for a run in progress (another process may have left no checkpoint here) and for a failed agent
 * whose command names files relative to this directory (made absolute: {@link absoluteAgentCommand}), and
 * for an `interrupted` read of a run's tasks or any failure of a start's task pages (`details.checkpoint:
 * false`: no checkpoint yet, probe38 B-F3).
 */
function withResumeCommand(e: unknown, w: ResumeWhere): unknown {
  if (
    !(e instanceof PlatformError) ||
    (e.code !== "agent_failed" && e.code !== "run_in_progress" && e.details.attempt_used !== false) ||
    typeof e.details.run_id !== "string"
  )
    return e;
  const runId = e.details.run_id;
  const message = e.message.replace(/ \(resume \S+\)$/, "").replace(/; finish it first.*$/, "");
  // an agent that failed is rerun from its checkpoint; an unfinished run of another process may have none
  // a failed agent whose command names files relative to this directory: resumed with them absolute
  // (probe31 B-F9 rest: the printed resume ran `./agent.sh` again in the agent's own directory)
  const { agent, ...where } = w;
  const inProgress = e.code === "run_in_progress";
  const how = inProgress ? "; resume it (it answers the rest and finalizes the run)" : "";
  // a run start interrupted while its tasks were read has no checkpoint yet: the resume adopts it with
  // --agent (probe38 B-F3), its files made absolute as a failed agent's are
  const adopted =
    (e.code === "interrupted" || e.details.checkpoint === false) && agent !== undefined
      ? (absoluteAgentCommand(agent) ?? agent)
      : undefined;
  const named =
    adopted ?? (inProgress ? agent : agent !== undefined ? absoluteAgentCommand(agent) : undefined);
  const command = resumeCommand(runId, named !== undefined ? { ...where, agent: named } : where);
  return new PlatformError(e.code, `${message}${how}:\n  ${command}`, e.details);
}

/**
 * A refusal `interrupted` (the interrupt stopped a read of the run's tasks, before the runner ran its
 * agent: probe38 B-F3), already with its `resume` line ({@link withResumeCommand}): printed on stderr as
 * an interrupted run (no `error:`), exit 130. @returns whether `e` was one (and is printed)
 */
function printedInterruption(e: unknown): boolean {
  if (!(e instanceof PlatformError) || e.code !== "interrupted") return false;
  process.stderr.write(`${terminalText(e.message)}\n`);
  process.exitCode = 130;
  return true;
}

/**
 * The printed summary of a run. On stderr: how to resume an interrupted run; for a finalized run with
 * unanswered tasks, how many, why (the first reason, and its note on a line of its own), where the agent's stderr is, and that the attempt
 * is used up with how many remain; for a receipt whose immediate anchor failed (probeD3 F3: it showed
 * as `pending` like a batched one, and with the CLI nothing retries it), the chain's error (naming the
 * RPC by its origin) and the `bench-bounty anchor` command that retries it (a remote run: that the
 * server's operator does).
 */
function summarise(r: RunnerResult, w: ResumeWhere, o: StoreOpts) {
  const counts: Record<string, number> = {};
  for (const o of r.outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  const failed = r.outcomes.filter((o) => o.status !== "answered");
  if (r.interrupted) {
    process.stderr.write(`run ${r.run_id} interrupted; continue with:\n  ${resumeCommand(r.run_id, w)}\n`);
    process.exitCode = 130;
  } else if (r.closed) {
    // probe37 A-F2: the close stopped the run; its answers given in time count, finalized here
    process.stderr.write(
      `the benchmark closed during run ${r.run_id}: ${terminalText(r.closed.message)}\n` +
        `${r.closed.answered} of ${r.task_count} tasks were answered before the close: those answers count, the other tasks score 0\n` +
        (r.finalized
          ? `run ${r.run_id} was finalized after the close (attempt ${r.attempt}; attempts remaining: ${r.finalized.attempts_remaining})\n`
          : `run ${r.run_id} was not finalized (finalize off)\n`),
    );
  } else if (r.finalized && failed.length > 0) {
    const log = join(dirname(r.checkpoint_file), `${r.run_id}.agent.log`);
    process.stderr.write(
      `warning: ${failed.length} of ${r.task_count} tasks of run ${r.run_id} have no answer (they score 0); ` +
        `the first, task ${failed[0]!.ordinal}: ${failed[0]!.status}: ${terminalText(failed[0]!.reason ?? "no reason")}\n` +
        (failed[0]!.note !== undefined ? `note: ${terminalText(failed[0]!.note)}\n` : "") +
        `the agent's stderr is in ${log}\n` +
        `attempt ${r.attempt} is used up; attempts remaining: ${r.finalized.attempts_remaining}\n`,
    );
  }
  const f = r.finalized;
  if (f?.receipt_anchor_error !== undefined)
    process.stderr.write(
      `warning: the receipt of run ${r.run_id} was not anchored (its hash is shown once it is): ${terminalText(f.receipt_anchor_error)}\n` +
        (w.server
          ? `  it is pending on the server: its operator's next anchor batch, \`bench-bounty anchor ${r.benchmark}\` or the award anchors it\n`
          : `  it is pending; retry it with:\n    ${anchorRetryCommand(r.benchmark, o)}\n`),
    );
  return {
    run_id: r.run_id,
    agent_id: r.agent_id,
    attempt: r.attempt,
    tasks: r.task_count,
    outcomes: counts,
    interrupted: r.interrupted,
    ...(r.closed ? { closed_during_run: true, answered_before_close: r.closed.answered } : {}),
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
 * Hooks of `registerPlatformCommands`, given by the `bench-bounty` bin, which may import the HTTP client
 * (the platform never speaks HTTP). `remoteBackend` makes `run`/`resume --server URL --api-key KEY`
 * compete through the HTTP API instead of a local store; checkpoints then live in `checkpointDir`, and
 * its agents must not see `privatePaths` (the `--store` directory: {@link runnerPrivatePaths}).
 * `remoteAccountKeys` makes `account keys | issue-key | revoke --server URL --api-key KEY` act on the
 * key's account on that server.
 */
export interface PlatformCommandHooks {
  remoteBackend?: (
    server: string,
    apiKey: string,
    checkpointDir: string,
    privatePaths: readonly string[],
  ) => RunBackend;
  remoteAccountKeys?: (server: string, apiKey: string) => RemoteAccountKeys;
}

/**
 * What `run`/`resume` hide from a sandboxed agent besides a local store's own paths: the whole `--store`
 * directory, local or remote run, SQLite or PostgreSQL. It holds the checkpoints and every run's agent
 * log, and may hold a `platform.sqlite` with every gold (probeD3 F1: `serve` and `run --server` both
 * default to `./.bench-bounty`, and a remote run hid nothing); a symlink inside it is followed
 * (`hiddenMounts`). Then the operator's `--agent-hide` paths (probe35 A-F1: the store of a service on the
 * same host, which a `run --server` agent could otherwise copy, every gold included).
 * @param store the `--store` directory
 * @param agentHide the `--agent-hide` paths, absolute and checked ({@link agentHidePaths})
 */
export function runnerPrivatePaths(store: string, agentHide: readonly string[] = []): string[] {
  return [resolve(store), ...agentHide];
}

/**
 * `--server` is an http(s) URL without userinfo (fetch refuses credentials in a URL; the key is
 * `--api-key`). The value is not echoed: it may carry a key (probe10 R2).
 * @param option how the refusal names the option (`--server`, or its variable when the value came from
 *   there: {@link optionName}, probe31 B-F6)
 * @throws PlatformError `invalid_option` naming `option`, field `server`
 */
export function checkServerUrl(server: string, option = "--server"): void {
  let u: URL | null;
  try {
    u = new URL(server);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e; // TypeError: not a URL at all
    u = null;
  }
  if (u === null || (u.protocol !== "http:" && u.protocol !== "https:") || u.hostname === "")
    throw new PlatformError(
      "invalid_option",
      `${option} must be an http:// or https:// URL (the value given is not printed: it may carry a key)`,
      { field: "server" },
    );
  if (u.username !== "" || u.password !== "")
    throw new PlatformError(
      "invalid_option",
      `${option} must not carry userinfo (${u.origin}: the key is --api-key; the value given is not printed)`,
      { field: "server" },
    );
  // the API's base or the MCP endpoint pasted for the service's (probe39 A-N1: the runner then asked
  // /api/v1/api/v1/... and said only "no such endpoint")
  const tail = /\/(api\/v1|mcp)(\/.*)?$/i.exec(u.pathname.replace(/\/+$/, ""));
  if (tail !== null) {
    const mount = u.pathname.slice(0, tail.index);
    throw new PlatformError(
      "invalid_option",
      `${option} is the service's base URL, without /${tail[1]} (for example ${u.origin}${/bbk_/i.test(mount) ? "" : mount}): bench-bounty adds /api/v1/... itself (the rest of the value is not printed: it may carry a key)`,
      { field: "server" },
    );
  }
}

/**
 * The `--server <url>` option (env `BENCH_BOUNTY_SERVER`) of every command that also works through a
 * server's HTTP API (`run`, `resume`, `account keys | issue-key | revoke`); its value is checked by
 * {@link remoteOf}.
 * @param what what the command does there, for the help (`compete` reads "compete through this
 *   server's HTTP API (with --api-key)")
 */
export function serverOption(what: string): Option {
  return new Option("--server <url>", `${what} through this server's HTTP API (with --api-key)`).env(
    "BENCH_BOUNTY_SERVER",
  );
}

/**
 * The checks of `--server` shared by every command that takes it (the one place of that rule): the URL
 * ({@link checkServerUrl}), the bin's hook that speaks HTTP (the platform never does), and `--api-key`,
 * whose holder the command acts as.
 * @param o the command's options: `server`, `apiKey`; a refusal names each as given ({@link optionName})
 * @param hook the bin's hook for `--server` (undefined in a binary without one)
 * @param why what belongs to the key, for the refusal without one (`the run belongs to that key`)
 * @returns the hook and the key
 * @throws PlatformError `invalid_option` naming `server` (not an http(s) URL, userinfo, or no hook in this
 *   binary) or `api-key` (none given)
 */
export function remoteOf<H>(
  o: StoreOpts & { server: string },
  hook: H | undefined,
  why: string,
): { hook: H; apiKey: string } {
  checkServerUrl(o.server, optionName(o, "--server"));
  const apiKey = o.apiKey;
  if (!hook)
    throw new PlatformError("invalid_option", "--server is not available in this binary", {
      field: "server",
    });
  if (!apiKey)
    throw new PlatformError("invalid_option", `--server needs --api-key (or BENCH_BOUNTY_API_KEY): ${why}`, {
      field: "api-key",
    });
  // probe40 B-N2: the key went in clear text to another host without a word
  const u = new URL(o.server);
  if (u.protocol === "http:" && !isLoopbackHost(u.hostname))
    process.stderr.write(
      `warning: ${optionName(o, "--server")} is plain http:// to ${u.host}, not this machine: the API key travels unencrypted to every hop on the way; use the service's https:// URL\n`,
    );
  return { hook, apiKey };
}

/**
 * The backend of `run`/`resume`: remote with `--server`, else the local store (and its platform).
 * @throws PlatformError `invalid_option` for `--server` without a hook or without `--api-key` ({@link remoteOf})
 */
async function runBackendOf(
  o: StoreOpts & { server?: string },
  hooks: PlatformCommandHooks,
  agentHide: readonly string[],
): Promise<{ backend: () => Promise<RunBackend>; close: () => void }> {
  if (o.server) {
    const { hook, apiKey } = remoteOf(
      { ...o, server: o.server },
      hooks.remoteBackend,
      "the run belongs to that key",
    );
    ensureRunsDir(o.store, optionName(o, "--store"));
    const b = hook(o.server, apiKey, join(o.store, "runs"), runnerPrivatePaths(o.store, agentHide));
    return { backend: async () => b, close: () => {} };
  }
  const platform = await openPlatform(o, true, { localRuns: true });
  return {
    backend: async () =>
      new LocalRunBackend(platform, await principalOf(platform, o), runnerPrivatePaths(o.store, agentHide)),
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
    .requiredOption("--agent <command>", "agent command (run with sh -c)", shellCommand)
    .option(
      "--agent-id <id>",
      "agent id on the leaderboard (required on a local store; with --server, default: the account's default agent, the one named after it, as the server decides)",
    )
    .addOption(
      repeatableOption(
        "--agent-env <name>",
        "pass this variable of your environment to the agent (repeatable; e.g. a model API key; a resume passes it again)",
      ),
    )
    .addOption(agentHideOption())
    .option(
      "--withdrawal-address <address>",
      "register/update the agent's withdrawal address first (local store only: with --server set it with PUT /api/v1/accounts/me/withdrawal-address or MCP set_withdrawal_address)",
    )
    .option("--author", "register the agent as the author's own")
    .option("--attempts <n>", "run this many attempts in a row", int("attempts", 1), 1)
    .addOption(serverOption("compete"))
    .action(
      action(
        async (
          slug: string,
          o: StoreOpts & RunOpts & { server?: string; agentEnv?: string[] },
          cmd: Command,
        ) => {
          // with --server the service names the agent when none is given (probe39 A-N2); a local run names it
          if (!o.server && o.agentId === undefined)
            throw new PlatformError(
              "invalid_option",
              "--agent-id is required on a local store (with --server, the account's default agent runs without it)",
              { field: "agent-id" },
            );
          // what works for a remote runner: the server's own routes (probe17 B-F11)
          if (o.server && (o.withdrawalAddress || o.author))
            throw new PlatformError(
              "invalid_option",
              o.withdrawalAddress
                ? "with --server, set the withdrawal address on the server (PUT /api/v1/accounts/me/withdrawal-address, MCP set_withdrawal_address)"
                : "with --server, register the author's agent on the server (POST /api/v1/accounts/me/agents {agent_id, is_author_agent: true})",
              { field: o.withdrawalAddress ? "withdrawal-address" : "author" },
            );
          // checked before anything is written or started
          const agent: AgentSpec = {
            kind: "command",
            command: o.agent!,
            ...(o.agentEnv ? { env: passedAgentEnv(o.agentEnv), env_names: o.agentEnv } : {}),
          };
          const agentHide = agentHideOf(o, cmd);
          const where = await runBackendOf(o, hooks, agentHide);
          const { signal, dispose } = interruptible();
          try {
            const backend = await where.backend();
            // the sandbox's layout too, before the agent is registered (probe31 B-F4)
            checkAgentSandbox(backend);
            if (!o.server && (o.withdrawalAddress || o.author)) {
              const local = backend as LocalRunBackend;
              await local.platform.registerAgent(local.principal, o.agentId!, {
                ...(o.withdrawalAddress ? { withdrawal_address: o.withdrawalAddress } : {}),
                ...(o.author ? { is_author_agent: true } : {}),
              });
            }
            const results: ReturnType<typeof summarise>[] = [];
            const w = whereOf(o, agentHide);
            for (let i = 0; i < (o.attempts ?? 1) && !signal.aborted; i++) {
              let r: RunnerResult;
              try {
                r = await runBenchmark(backend, slug, o.agentId, agent, toRunnerOptions(o, signal));
              } catch (e) {
                if (results.length > 0) print(results); // the attempts that did finish
                // the server's "name one with agent_id" is this command's --agent-id (probe39 A-N2)
                if (e instanceof PlatformError && e.details.reason === "no_default_agent")
                  throw new PlatformError(
                    e.code,
                    `${e.message}\n(here: run again with --agent-id ID)`,
                    e.details,
                  );
                const shown = withResumeCommand(e, { ...w, agent: o.agent! });
                // interrupted while the started run's tasks were read: its resume line (with --agent), exit 130
                if (printedInterruption(shown)) return;
                throw shown;
              }
              results.push(summarise(r, w, o));
              if (r.interrupted || r.closed) break; // a closed benchmark starts no further attempt
              // the last attempt the benchmark allows: the ones asked beyond it are not tried (probe33
              // B-N5: the next failed "used all 3 attempts", exit 1, after three good attempts)
              const left = o.attempts! - i - 1;
              if (r.finalized?.attempts_remaining === 0 && left > 0) {
                process.stderr.write(
                  `warning: agent ${r.agent_id} has used all its attempts on ${slug}; the ${left} more --attempts asked for were not run\n`,
                );
                break;
              }
            }
            print(results.length === 1 ? results[0] : results);
          } finally {
            dispose();
            where.close();
          }
        },
      ),
    );

  runnerOptions(
    storeOptions(
      program
        .command("resume")
        .description("resume an interrupted run from its checkpoint")
        .argument("<run-id>"),
    ),
  )
    .option("--agent <command>", "agent command (default: the one recorded in the checkpoint)", shellCommand)
    .addOption(agentHideOption())
    .addOption(serverOption("resume"))
    .action(
      action(async (runId: string, o: StoreOpts & RunOpts & { server?: string }, cmd: Command) => {
        const agentHide = agentHideOf(o, cmd);
        const where = await runBackendOf(o, hooks, agentHide);
        const { signal, dispose } = interruptible();
        try {
          const agent: AgentSpec | undefined = o.agent ? { kind: "command", command: o.agent } : undefined;
          const backend = await where.backend();
          const w = whereOf(o, agentHide);
          const r = await resumeRun(backend, runId, agent, toRunnerOptions(o, signal)).catch((e: unknown) => {
            const shown = withResumeCommand(e, o.agent !== undefined ? { ...w, agent: o.agent } : w);
            if (printedInterruption(shown)) return null;
            throw shown;
          });
          if (r !== null) print(summarise(r, w, o));
        } finally {
          dispose();
          where.close();
        }
      }),
    );
}
