/**
 * The benchmark runner (RFC section 3): drives one agent through one attempt of a benchmark
 * (start -> answer every task -> submit -> finalize), sequentially or with bounded parallelism, with a
 * per-task timeout, an explicit invalid-answer policy, durable checkpoints and resume.
 *
 * ## CLI agent protocol (`bench-bounty.agent.v1`)
 * The runner starts the agent command (through `sh -c`) once per batch of tasks (`batchSize`, default
 * 1: one process per task), writes ONE JSON document to its stdin and closes stdin:
 * ```json
 * {"protocol": "bench-bounty.agent.v1", "benchmark": "slug", "run_id": "run-...", "attempt": 1,
 *  "tasks": [{"ordinal": 0, "prompt": "...", "visibility": "private", "grader_type": "exact"}]}
 * ```
 * and reads ONE JSON document from its stdout when it exits with status 0:
 * ```json
 * {"answers": [{"ordinal": 0, "answer_text": "rain"}]}
 * ```
 * (a bare array of answers is accepted too). `ordinal` is the run's task ordinal as given. stderr is
 * appended to `<store>/runs/<run_id>.agent.log`, its first `MAX_AGENT_LOG_BYTES` over the run (then a
 * note of the bytes dropped: `agent-log.ts`). A batch gets `taskTimeoutMs * tasks` milliseconds,
 * then the process group is killed. Gold never reaches an agent.
 *
 * ## Invalid answers
 * A task whose answer is missing, not a string, empty (White_Space only), refused by submit, timed out,
 * or whose process failed (non-zero exit, unparseable stdout: not UTF-8, naming the byte offset, not
 * JSON, or JSON the strict parser of SPEC 2 refuses, a duplicate key named by its JSON path), or whose
 * ordinal the answer list names twice or writes as no integer (`0.0`), is *invalid*; a task left without an answer names
 * the entries that answer no task of the batch by their JSON path (`$.answers[0].ordinal is a string`). Policy `skip` (default):
 * the task stays unanswered (it scores 0, `answer_digest: null`) and the run goes on. Policy `abort`:
 * the runner stops, leaves the run in progress and throws `agent_failed`; `resume` continues it and
 * asks the failed task again.
 *
 * ## An agent that fails before answering costs no attempt
 * Whatever the policy, when the agent fails (status `error`: non-zero exit, a signal, could not start,
 * threw; `timeout`; or it exited 0 with no JSON document on stdout, empty or not JSON, which stays status
 * `invalid`: probe39 B-F3, it was finalized with zero answers) before it gave any answer in this runner session (a `run`, or a `resume`: the
 * answers of an earlier session do not count, probe37 B-F3), the runner stops at once, does not finalize,
 * leaves the run in progress (the failed tasks are not recorded) and throws `agent_failed` with
 * `details.attempt_used: false`, its message naming the agent command the checkpoint records: a broken
 * agent command (or one whose file has moved since the run was interrupted) does not use up an attempt,
 * and `resume` with a fixed agent (or `--agent CMD`) continues the same attempt. The error and the outcome reasons show the useful
 * tail of the agent's stderr (`stderrTailOf`: its last lines, bounded); the log has its start (up to its bound).
 *
 * ## An agent process that cannot be made stops the run
 * When the runner cannot make an agent's process after the run started (its sandbox's mounts refused: a
 * file with another hard link appeared in a hidden directory; a system refusal such as `EMFILE`), the
 * run stops the same way: in progress, nothing of the batch recorded, `agent_failed` with
 * `details.cause_code` (the rule's or the system's code) and `attempt_used: false`, the CLI printing its
 * `resume` (probe36 B-F2: an internal error, exit 4, with no word of resume).
 *
 * ## A benchmark that closes during the run
 * A submit refused `benchmark_closed` (the benchmark closed, was awarded, or its bounty's `closes_at`
 * passed while the run was in progress) stops the run: no more tasks are asked, and the run is finalized
 * at once (unless `finalize: false`), `run` and `resume` alike. Its stored answers are exactly those given
 * before the close (submissions are refused after it), and the platform takes a finalize after the close
 * until the award is prepared (platform README, Notes), so the answers given in time are ranked
 * (probe37 A-F2: the runner stopped on `benchmark_closed`, left the run in progress, and the run was
 * never ranked). The result's `closed` says so. A finalize refused then (the award already prepared:
 * `benchmark_awarded`) is thrown with its code, its message saying the benchmark closed first.
 *
 * ## Determinism
 * The plan (which tasks, in which order) is fixed by the platform at start; answers are stored per
 * ordinal with idempotent upserts; batches are fixed slices of the plan. So sequential, parallel and
 * interrupted-then-resumed executions of the same plan with a deterministic agent give the same
 * answers, the same answer digests and the same accuracy.
 *
 * ## Checkpoints
 * `<store>/runs/<run_id>.json` (fsync'd, atomic rename) records the agent, the options, the plan and the
 * outcome of every finished task; answers live in the store. `resume` re-runs only the tasks with no
 * recorded outcome and no stored answer. While a runner drives a run, `<run_id>.lock` beside the
 * checkpoint names its process (`runner/lock.ts`): a second `resume` of a run a live process still
 * runs is refused before any agent starts; a killed runner's lock is taken over.
 *
 * Files: this module runs the plan (batches, submit, finalize, resume); `runner/agent.ts` asks an
 * agent for one answer; `runner/checkpoint.ts` writes and reads the checkpoint.
 */
import { setMaxListeners } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PlatformError } from "./errors.js";
import { MAX_TIMER_MS } from "./time.js";
import { terminalText } from "./terminal.js";
import { agentArgv, agentWorkRoot, bubblewrapAvailable, passedAgentEnv } from "./agent-process.js";
import type { RunBackend } from "./backend.js";
import { checkRunId, type FinalizeResult, type RunView, type ServedTask } from "./runs.js";
import {
  CHECKPOINT_SCHEMA,
  type Checkpoint,
  checkpointFile,
  saveCheckpoint,
  tasksDigest,
  readCheckpoint,
} from "./runner/checkpoint.js";
import { type AgentSpec, askAgent } from "./runner/agent.js";
import { acquireRunLock } from "./runner/lock.js";

export { CHECKPOINT_SCHEMA, tasksDigest, readCheckpoint } from "./runner/checkpoint.js";
export { AGENT_PROTOCOL, type AgentTask, type AgentFunction, type AgentSpec } from "./runner/agent.js";

/** What happened to one task. */
export interface TaskOutcome {
  ordinal: number;
  status: "answered" | "invalid" | "timeout" | "error";
  /** Why it is not answered (invalid/timeout/error). */
  reason?: string;
  /**
   * What to do about it, printed after the reason on a line of its own (`note: ...` with a paste-able
   * `--agent` word: probe32 B-F9, inside the reason it ended with the `)` that closed the message's
   * parenthesis).
   */
  note?: string;
}

/** Options of {@link runBenchmark} and {@link resumeRun}. */
export interface RunnerOptions {
  /** Tasks (or batches) in flight at once (default 1: sequential). */
  concurrency?: number;
  /** CLI agents: tasks per process (default 1). Ignored for in-process agents. */
  batchSize?: number;
  /** Per-task timeout in milliseconds (default 60000). */
  taskTimeoutMs?: number;
  /** Invalid-answer policy (default `skip`). */
  invalidAnswerPolicy?: "skip" | "abort";
  /** Finalize when every task has an outcome (default true). */
  finalize?: boolean;
  /** Interrupts the run (tasks in flight are cancelled; the run stays in progress for `resume`). */
  signal?: AbortSignal;
  /** Show a progress bar on stderr (cli-progress). */
  progress?: boolean;
  /** Called after each task outcome is recorded (tests use it to interrupt). */
  onOutcome?: (outcome: TaskOutcome, done: number, total: number) => void;
  /** Resource observations passed to finalize. */
  queriesUsed?: number;
  usdcSpent?: string;
}

/** What a runner invocation returns. */
export interface RunnerResult {
  run_id: string;
  /** The benchmark's slug. */
  benchmark: string;
  agent_id: string;
  attempt: number;
  /** Tasks of the run. */
  task_count: number;
  /** keccak256 of the served tasks (ordinal, prompt, visibility, grader_type): the same plan gives the same digest. */
  tasks_digest: string;
  outcomes: TaskOutcome[];
  /** True when the signal stopped the run before every task had an outcome. */
  interrupted: boolean;
  finalized: FinalizeResult | null;
  /**
   * Set when the benchmark closed while the run was in progress (a submit refused `benchmark_closed`):
   * the refusal's message and details, and `answered`, the tasks whose answers were stored before the
   * close (the ones the finalize after the close ranks). Null otherwise.
   */
  closed: { message: string; details: Record<string, unknown>; answered: number } | null;
  checkpoint_file: string;
}

function resolved(o: RunnerOptions) {
  const concurrency = o.concurrency ?? 1;
  const batch = o.batchSize ?? 1;
  const timeout = o.taskTimeoutMs ?? 60_000;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new PlatformError("invalid_option", "concurrency must be an integer >= 1", {
      field: "concurrency",
    });
  if (!Number.isSafeInteger(batch) || batch < 1)
    throw new PlatformError("invalid_option", "batchSize must be an integer >= 1", { field: "batchSize" });
  if (!Number.isSafeInteger(timeout) || timeout < 1 || timeout > MAX_TIMER_MS)
    throw new PlatformError(
      "invalid_option",
      `taskTimeoutMs (--timeout-ms) must be an integer in 1..${MAX_TIMER_MS} ms (a timer's maximum)`,
      { field: "taskTimeoutMs" },
    );
  // a batch of a CLI agent gets one timer of taskTimeoutMs x its tasks (runner/agent.ts)
  if (timeout * batch > MAX_TIMER_MS)
    throw new PlatformError(
      "invalid_option",
      `taskTimeoutMs x batchSize (--timeout-ms ${timeout} x --batch-size ${batch}) must be at most ${MAX_TIMER_MS} ms (a timer's maximum): lower one of them`,
      { field: "batchSize", max_ms: MAX_TIMER_MS },
    );
  const policy = o.invalidAnswerPolicy ?? "skip";
  if (policy !== "skip" && policy !== "abort")
    throw new PlatformError("invalid_option", "invalidAnswerPolicy must be skip or abort", {
      field: "invalidAnswerPolicy",
    });
  return {
    concurrency,
    batch_size: batch,
    task_timeout_ms: timeout,
    invalid_answer_policy: policy,
  } as Checkpoint["options"];
}

/**
 * The checks of a CLI agent's sandbox that need no task, made before anything is registered or started
 * (probe31 B-F4: a store layout the sandbox refuses was refused at the first agent process, after the
 * agent was registered and the attempt started): the agents' directory ({@link agentWorkRoot}) and,
 * when bubblewrap works, the sandbox's mounts as every agent of `backend` gets them ({@link agentArgv}:
 * each of `backend.privatePaths` can be hidden, and `cwd` is none of them).
 * @param cwd the agent's working directory (`AgentSpec.cwd`; default: a fresh one under the agents'
 *   directory, made for the check and removed, as every agent process gets one: hiding the agents'
 *   directory itself is no refusal, probe37 B-N1)
 * @throws PlatformError `invalid_option`: field `agents_dir` (the agents' directory is not safe), `store`
 *   (a store path cannot be hidden: the root directory, a file with another hard link, a tree over
 *   `MAX_HIDDEN_ENTRIES`), `agent.cwd` (the working directory given is a hidden path: `details.hidden`
 *   the path given that hides it)
 */
export function checkAgentSandbox(backend: Pick<RunBackend, "privatePaths">, cwd?: string): void {
  const root = agentWorkRoot();
  // no working directory: the agent's own fresh one under the agents' directory, as every agent process
  // gets it (probe37 B-N1: the agents' directory itself stood in, and `--agent-hide /tmp/bb-agents-<uid>`
  // was refused as a working directory that is a hidden path)
  const own = cwd === undefined ? mkdtempSync(join(root, "bb-agent-")) : null;
  try {
    agentArgv("true", cwd ?? own!, [...backend.privatePaths], bubblewrapAvailable());
  } finally {
    if (own !== null) rmSync(own, { recursive: true, force: true });
  }
}

/**
 * Starts a new attempt of `agentId` on `slug` and runs it to the end (or until interrupted).
 * `agentId` undefined: the account's default agent, as a remote backend's service decides
 * ({@link RunBackend.start}); the checkpoint and the result name the agent the start answers.
 * @throws PlatformError from start (`run_in_progress`, `max_attempts_reached`, ...), `agent_failed` (policy
 *   abort), `invalid_option` (fields `agents_dir`, `store`, `agent.cwd`) before the attempt starts when a
 *   CLI agent's sandbox cannot be made ({@link checkAgentSandbox})
 */
export async function runBenchmark(
  backend: RunBackend,
  slug: string,
  agentId: string | undefined,
  agent: AgentSpec,
  opts: RunnerOptions = {},
): Promise<RunnerResult> {
  const options = resolved(opts);
  if (agent.kind === "command") checkAgentSandbox(backend, agent.cwd); // before the attempt starts, not at its first task
  // the interrupt stops a remote start's paging (probe38 B-F3): `interrupted`, naming the started run
  const started = await backend.start(slug, agentId, opts.signal);
  const cp = newCheckpoint(
    backend,
    { run_id: started.run.id, benchmark: slug, agent_id: started.run.agent_id, attempt: started.run.attempt },
    started.tasks,
    agent,
    options,
  );
  const lock = acquireRunLock(backend.checkpointDir, cp.run_id);
  try {
    saveCheckpoint(backend, cp);
    return await execute(backend, cp, agent, opts);
  } finally {
    lock.release();
  }
}

/**
 * An agent as a checkpoint records it: a CLI agent's command, working directory and the names of the
 * variables passed by name (`env_names`, `previous`'s when `agent` names none: a resume passes them
 * again); an in-process agent's name.
 */
function recordedAgent(agent: AgentSpec, previous?: Checkpoint["agent"]): Checkpoint["agent"] {
  if (agent.kind === "function") return { kind: "function", name: agent.name };
  const names =
    agent.env_names ??
    (previous?.kind === "command" && agent.env === undefined ? previous.env_names : undefined);
  return {
    kind: "command",
    command: agent.command,
    ...(agent.cwd ? { cwd: agent.cwd } : {}),
    ...(names && names.length > 0 ? { env_names: [...names] } : {}),
  };
}

/** The first checkpoint of a run: its identity, the agent as started, the options, no outcome yet. */
function newCheckpoint(
  backend: RunBackend,
  run: Pick<RunView, "run_id" | "benchmark" | "agent_id" | "attempt">,
  tasks: ServedTask[],
  agent: AgentSpec,
  options: Checkpoint["options"],
): Checkpoint {
  return {
    schema: CHECKPOINT_SCHEMA,
    run_id: run.run_id,
    benchmark: run.benchmark,
    agent_id: run.agent_id,
    attempt: run.attempt,
    agent: recordedAgent(agent),
    options,
    backend: backend.where,
    task_count: tasks.length,
    tasks_digest: tasksDigest(tasks),
    outcomes: {},
  };
}

/**
 * Resumes an interrupted run from its checkpoint: only tasks without an outcome or a stored answer are
 * asked again, with the checkpoint's options (overridable) and agent (a CLI agent's command is reused;
 * an in-process agent must be passed again). A run of the caller without a checkpoint here is adopted
 * when `agent` is given (a first checkpoint is written from the stored run, its answered tasks kept).
 * One runner per run: while it runs, the run's lock (`<run_id>.lock` beside the checkpoint,
 * `runner/lock.ts`) names this process; a run that a live process still runs is refused at once.
 * @throws PlatformError `invalid_option` (`field: "run_id"`) when `runId` is no run id (`run-` and 16 hex),
 *   before any file is named after it; `unknown_run`, `checkpoint_mismatch`, `run_not_in_progress`, `run_in_progress`
 *   (`details.rule: "one_runner_per_run"`, `pid`, `lock_file`) while another live runner drives the run
 */
export async function resumeRun(
  backend: RunBackend,
  runId: string,
  agent?: AgentSpec,
  opts: RunnerOptions = {},
): Promise<RunnerResult> {
  // the id names the checkpoint and lock files: checked first (probe32 B-F7)
  checkRunId(runId, "run_id");
  // a run without a checkpoint here (started by another runner killed before writing it, or by an HTTP
  // client) is adopted when an agent is given: its answered tasks are read from the store (probe29 B-F7)
  const adopt = agent !== undefined && !existsSync(checkpointFile(backend, runId));
  // an unknown or damaged checkpoint is refused before anything is locked
  const recorded = adopt ? undefined : readCheckpoint(backend, runId).agent;
  // a CLI agent's sandbox, checked before anything is written or asked
  if (agent?.kind === "command") checkAgentSandbox(backend, agent.cwd);
  else if (agent === undefined && recorded?.kind === "command") checkAgentSandbox(backend, recorded.cwd);
  const lock = acquireRunLock(backend.checkpointDir, runId);
  try {
    if (adopt && !existsSync(checkpointFile(backend, runId))) {
      const run = await backend.run(runId);
      const tasks = await backend.tasks(runId, opts.signal);
      saveCheckpoint(backend, newCheckpoint(backend, run, tasks, agent, resolved(opts)));
    }
    return await resumeLocked(backend, runId, agent, opts);
  } finally {
    lock.release();
  }
}

/** {@link resumeRun} once its lock is held: the checkpoint is read again (its last runner may have written it since). */
async function resumeLocked(
  backend: RunBackend,
  runId: string,
  agent: AgentSpec | undefined,
  opts: RunnerOptions,
): Promise<RunnerResult> {
  const cp = readCheckpoint(backend, runId);
  const run = await backend.run(runId);
  if (tasksDigest(await backend.tasks(runId, opts.signal)) !== cp.tasks_digest)
    throw new PlatformError(
      "checkpoint_mismatch",
      `checkpoint plan of ${runId} differs from the stored run`,
      { run_id: runId },
    );
  if (run.status !== "in_progress")
    throw new PlatformError("run_not_in_progress", `run ${runId} is already ${run.status}`, {
      run_id: runId,
      status: run.status,
    });
  let spec = agent;
  if (!spec) {
    if (cp.agent.kind !== "command")
      throw new PlatformError(
        "invalid_option",
        `run ${runId} used an in-process agent (${cp.agent.name}); pass it again to resume`,
        { field: "agent" },
      );
    spec = { kind: "command", command: cp.agent.command, ...(cp.agent.cwd ? { cwd: cp.agent.cwd } : {}) };
  }
  // the variables the run passed by name are passed again, read from this runner's environment
  const names = cp.agent.kind === "command" ? (cp.agent.env_names ?? []) : [];
  if (spec.kind === "command" && spec.env === undefined && names.length > 0)
    spec = { ...spec, env: passedAgentEnv(names) };
  if (agent) {
    // the agent given is the one the run now uses: a later resume without --agent runs it again, as the
    // printed resume line says (probe33 B-F7: the checkpoint kept the first command, so the pasted line
    // ran the old one)
    cp.agent = recordedAgent(agent, cp.agent);
    saveCheckpoint(backend, cp);
  }
  const merged: RunnerOptions = {
    concurrency: cp.options.concurrency,
    batchSize: cp.options.batch_size,
    taskTimeoutMs: cp.options.task_timeout_ms,
    invalidAnswerPolicy: cp.options.invalid_answer_policy,
    ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
  };
  cp.options = resolved(merged);
  return execute(backend, cp, spec, merged);
}

async function execute(
  backend: RunBackend,
  cp: Checkpoint,
  agent: AgentSpec,
  opts: RunnerOptions,
): Promise<RunnerResult> {
  const tasks = await resumable(cp, () => backend.tasks(cp.run_id, opts.signal));
  const stored = await resumable(cp, () => backend.answeredOrdinals(cp.run_id));
  for (const o of stored) if (!cp.outcomes[o]) cp.outcomes[o] = { ordinal: o, status: "answered" };
  const todo = tasks.filter((t) => !cp.outcomes[t.ordinal]);
  const total = tasks.length;
  const batchSize = agent.kind === "command" ? cp.options.batch_size : 1;
  const batches: ServedTask[][] = [];
  for (let i = 0; i < todo.length; i += batchSize) batches.push(todo.slice(i, i + batchSize));

  const internal = new AbortController();
  const workers = Math.min(cp.options.concurrency, Math.max(1, batches.length));
  // one abort listener per task in flight, removed when it ends: no leak, so no warning of Node's
  // (probe31 B-F10: `MaxListenersExceededWarning ... 11 abort listeners` at --concurrency 11)
  setMaxListeners(workers + 10, internal.signal);
  const onAbort = () => internal.abort();
  opts.signal?.addEventListener("abort", onAbort);
  if (opts.signal?.aborted) internal.abort();
  let failure: PlatformError | null = null;
  // the first `benchmark_closed` refusal of a submit: the run is finalized with its answers given before it
  let closedBy: PlatformError | null = null;
  const bar = opts.progress ? await progressBar(total, cp.agent_id) : null;
  let done = Object.keys(cp.outcomes).length;
  bar?.start(total, done);

  // A task the run stops at without recording it: the run stays in progress (not finalized), so
  // the attempt is not used up, and `resume` asks this task again.
  const stopAt = (o: TaskOutcome, message: string): void => {
    if (failure) return;
    failure = new PlatformError("agent_failed", message, {
      run_id: cp.run_id,
      attempt: cp.attempt,
      attempt_used: false,
      ordinal: o.ordinal,
      status: o.status,
      reason: o.reason ?? null,
    });
    internal.abort();
  };

  // whether THIS runner session has had an answer: the "costs no attempt" rule is judged per session, so
  // a resume whose agent cannot start once stops as `run` does (probe37 B-F3: answers of an earlier
  // session counted, and a resume whose agent file had moved finalized the attempt with zeros)
  let answeredHere = false;
  // `noDocument`: the agent exited 0 with no JSON document on stdout, a failed process too (probe39 B-F3)
  const record = (o: TaskOutcome, noDocument = false): void => {
    if ((o.status === "error" || o.status === "timeout" || noDocument) && !answeredHere) {
      // see "costs no attempt" above
      const stored = cp.agent.kind === "command" ? cp.agent.command : null;
      stopAt(
        o,
        `the agent failed before any answer was submitted (task ${o.ordinal}: ${o.status}: ${o.reason ?? ""})\n` +
          (o.note !== undefined ? `note: ${o.note}\n` : "") +
          `run ${cp.run_id} was not finalized and stays in progress, so attempt ${cp.attempt} is not used up; ` +
          `fix the agent in place (resume runs the same command again; add --agent CMD to run another)` +
          (stored !== null
            ? `: the run's checkpoint records the agent command ${terminalText(stored)}, and what it names must still exist; `
            : ", ") +
          `then resume the run (resume ${cp.run_id})`,
      );
      return;
    }
    if (o.status === "answered") answeredHere = true;
    if (o.status !== "answered" && cp.options.invalid_answer_policy === "abort") {
      stopAt(
        o,
        `task ${o.ordinal}: ${o.status} (${o.reason ?? ""}); policy abort: run ${cp.run_id} stays in progress (attempt ${cp.attempt} not finalized), resume it (resume ${cp.run_id})` +
          (o.note !== undefined ? `\nnote: ${o.note}` : ""),
      );
      return;
    }
    cp.outcomes[o.ordinal] = o;
    done++;
    saveCheckpoint(backend, cp);
    bar?.update(done);
    opts.onOutcome?.(o, done, total);
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    while (!internal.signal.aborted) {
      const batch = batches[next++];
      if (!batch) return;
      let answers: Awaited<ReturnType<typeof askAgent>>;
      try {
        answers = await askAgent(backend, cp, agent, batch, internal.signal);
      } catch (e) {
        if (internal.signal.aborted) return;
        // the agent's process could not be made (its sandbox's mounts, its directory, a system refusal):
        // the run stops as an agent that failed does, in progress, its resume printed (probe36 B-F2: an
        // internal error, exit 4, left the run in progress with no word of resume)
        const code = e instanceof PlatformError ? e.code : (e as NodeJS.ErrnoException | null)?.code;
        if (typeof code !== "string") throw e; // not a refusal of the system or of a rule: a bug
        if (!failure) {
          failure = new PlatformError(
            "agent_failed",
            `the agent's process for task ${batch[0]!.ordinal} could not be started: ${(e as Error).message}\n` +
              `run ${cp.run_id} was not finalized and stays in progress (attempt ${cp.attempt} is not used up); ` +
              `fix the cause, then resume the run (resume ${cp.run_id})`,
            {
              run_id: cp.run_id,
              attempt: cp.attempt,
              attempt_used: false,
              ordinal: batch[0]!.ordinal,
              cause_code: code,
              ...(e instanceof PlatformError ? { cause_details: e.details } : {}),
            },
          );
          internal.abort();
        }
        return;
      }
      if (answers === "aborted") return;
      const good: { ordinal: number; answer_text: string }[] = [];
      const outcomes: TaskOutcome[] = [];
      const noDocument = new Set<number>(); // the ordinals whose process printed no JSON document
      for (const t of batch) {
        const a = answers.get(t.ordinal);
        if (a === undefined)
          outcomes.push({ ordinal: t.ordinal, status: "invalid", reason: "no answer for this ordinal" });
        else if (typeof a === "object") {
          const { no_document, ...outcome } = a;
          if (no_document) noDocument.add(t.ordinal);
          outcomes.push({ ordinal: t.ordinal, ...outcome });
        } else good.push({ ordinal: t.ordinal, answer_text: a });
      }
      try {
        outcomes.push(...(await submitGood(backend, cp.run_id, good)));
      } catch (e) {
        if (!(e instanceof PlatformError)) throw e; // not a refusal: a bug
        if (e.code === "benchmark_closed")
          closedBy ??= e; // see "closes during the run"
        else failure ??= interruption(cp, e);
        internal.abort();
        return;
      }
      for (const o of outcomes.sort((x, y) => x.ordinal - y.ordinal)) record(o, noDocument.has(o.ordinal));
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
    bar?.stop();
  }
  // a closed benchmark takes no more answers, so a resume could only finalize: that is done now
  if (closedBy) return finalizeClosed(backend, cp, tasks, closedBy, opts);
  if (failure) throw failure;
  const complete = tasks.every((t) => cp.outcomes[t.ordinal]);
  let finalized: FinalizeResult | null = null;
  if (complete && opts.finalize !== false)
    finalized = await resumable(cp, () => backend.finalize(cp.run_id, finalizeOptionsOf(opts)), "finalize");
  return runResultOf(backend, cp, tasks, { interrupted: !complete, finalized, closed: null });
}

/** The runner's answer from its checkpoint: the run's identity, its outcomes in task order, and how it ended. */
function runResultOf(
  backend: RunBackend,
  cp: Checkpoint,
  tasks: ServedTask[],
  end: Pick<RunnerResult, "interrupted" | "finalized" | "closed">,
): RunnerResult {
  return {
    run_id: cp.run_id,
    benchmark: cp.benchmark,
    agent_id: cp.agent_id,
    attempt: cp.attempt,
    task_count: cp.task_count,
    tasks_digest: cp.tasks_digest,
    outcomes: tasks.map((t) => cp.outcomes[t.ordinal]).filter((o): o is TaskOutcome => o !== undefined),
    ...end,
    checkpoint_file: checkpointFile(backend, cp.run_id),
  };
}

/** The resource observations the runner's options pass to finalize. */
function finalizeOptionsOf(opts: RunnerOptions): { queries_used?: number; usdc_spent?: string } {
  return {
    ...(opts.queriesUsed !== undefined ? { queries_used: opts.queriesUsed } : {}),
    ...(opts.usdcSpent !== undefined ? { usdc_spent: opts.usdcSpent } : {}),
  };
}

/**
 * A refusal of a submit that stops the run (the server unreachable, `network_error`; busy past its
 * retries, `server_busy`; the chain's clock unreadable, `chain_error`; a quota, ...): its code, message
 * and details, and that the run stays in progress, resumable, with `details.run_id`, `attempt` and
 * `attempt_used: false`, so the CLI prints its `resume` line as for every other interruption (probe37
 * A-N4: a remote run cut by a network error stopped without it). `run_not_in_progress` as it is.
 */
function interruption(cp: Checkpoint, e: PlatformError, at: "finalize" | "other" = "other"): PlatformError {
  if (e.code === "run_not_in_progress") return e; // finalized meanwhile (by hand): nothing to resume
  // the interrupt's own refusal already says the run stays in progress and names it (probe38 W-N2: wrapped
  // again, its "continue it with" dangled above a second message)
  if (e.code === "interrupted" && e.details.run_id === cp.run_id) return e;
  // a finalize that got no answer may have been applied (probe38 W-N3: "was not finalized" was said of a run
  // the server had finalized, and the pasted resume then said it was)
  const state =
    at === "finalize" && TRANSIENT_FAILURES.get(e.code) === "no_answer"
      ? `run ${cp.run_id}'s finalize got no answer, so it may be finalized already; if not, it stays in progress (attempt ${cp.attempt} is not used up); ` +
        `once the cause is gone, resume it: it finalizes the run, or says it is finalized`
      : `run ${cp.run_id} was not finalized and stays in progress (attempt ${cp.attempt} is not used up); ` +
        `once the cause is gone, resume it`;
  return new PlatformError(e.code, `${e.message}\n${state} (resume ${cp.run_id})`, {
    ...e.details,
    run_id: cp.run_id,
    attempt: cp.attempt,
    attempt_used: false,
  });
}

/**
 * The failures that say nothing of the run, so it may be resumed (a resume of a run finalized meanwhile
 * says `run_not_in_progress`), each with whether the request may have been applied: `no_answer` when no
 * answer came from the server itself (the server unreachable, a timeout, the server's own `internal`: probe38
 * V-F4; a gateway's 502/503/504 page in front of it, `http_<status>` for an answer that is not the server's
 * JSON), `refused` when the server or the runner turned it away before applying it (busy, the chain's clock
 * unreadable, the caller's rate limit `rate_limited`: probe38 W-F1; the runner's interrupt while the tasks
 * were read, `interrupted`). One table, so a code is classified once.
 */
const TRANSIENT_FAILURES: ReadonlyMap<string, "no_answer" | "refused"> = new Map([
  ["network_error", "no_answer"],
  ["request_timeout", "no_answer"],
  ["internal", "no_answer"],
  ["http_502", "no_answer"],
  ["http_503", "no_answer"],
  ["http_504", "no_answer"],
  ["interrupted", "refused"],
  ["server_busy", "refused"],
  ["chain_error", "refused"],
  ["rate_limited", "refused"],
]);

/**
 * Runs a read or the finalize of a run whose checkpoint is saved, outside a submit: a transient failure
 * ({@link TRANSIENT_FAILURES}) becomes an {@link interruption} (the run stays in progress, resumable: the CLI
 * prints its `resume` line), as a submit's does; any other refusal is thrown as it is.
 * @throws PlatformError the interruption, or the refusal unchanged
 */
async function resumable<T>(
  cp: Checkpoint,
  step: () => Promise<T>,
  at: "finalize" | "other" = "other",
): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (e instanceof PlatformError && TRANSIENT_FAILURES.has(e.code)) throw interruption(cp, e, at);
    throw e;
  }
}

/**
 * Submits a batch's good answers: all in one submit (probe37 A-F3: one request per answer of an agent's
 * batch put tasks x round trips on a remote run's scored wall clock); when the platform refuses it
 * `invalid_answers` (the whole submit refused, nothing of it stored), one answer at a time, so that the
 * answers it refuses are invalid outcomes and the others answered.
 * @returns one outcome per answer, in their order
 * @throws PlatformError any other refusal of the submit (`benchmark_closed`, ...): the answers before it are stored
 */
async function submitGood(
  backend: RunBackend,
  runId: string,
  good: { ordinal: number; answer_text: string }[],
): Promise<TaskOutcome[]> {
  if (good.length > 1) {
    try {
      await backend.submit(runId, good);
      return good.map((g) => ({ ordinal: g.ordinal, status: "answered" }));
    } catch (e) {
      if (!(e instanceof PlatformError) || e.code !== "invalid_answers") throw e;
    }
  }
  const outcomes: TaskOutcome[] = [];
  for (const g of good) {
    try {
      await backend.submit(runId, [g]);
      outcomes.push({ ordinal: g.ordinal, status: "answered" });
    } catch (e) {
      if (!(e instanceof PlatformError) || e.code !== "invalid_answers") throw e;
      outcomes.push({ ordinal: g.ordinal, status: "invalid", reason: e.message });
    }
  }
  return outcomes;
}

/**
 * The end of a run whose submit was refused `benchmark_closed` (see "A benchmark that closes during the
 * run"): the answers stored before the close are recorded as answered in the checkpoint (a part of a
 * batch may have been stored before the refusal), then the run is finalized, unless `opts.finalize` is
 * false (left in progress).
 * @throws PlatformError the finalize's refusal (`benchmark_awarded`: the award was prepared first, ...),
 *   its code and details kept (`details.run_id`, `details.closed`: the close's details), its message
 *   saying that the benchmark closed during the run and the finalize of its answers was refused
 */
async function finalizeClosed(
  backend: RunBackend,
  cp: Checkpoint,
  tasks: ServedTask[],
  closedBy: PlatformError,
  opts: RunnerOptions,
): Promise<RunnerResult> {
  const stored = await backend.answeredOrdinals(cp.run_id);
  for (const o of stored)
    if (cp.outcomes[o]?.status !== "answered") cp.outcomes[o] = { ordinal: o, status: "answered" };
  saveCheckpoint(backend, cp);
  let finalized: FinalizeResult | null = null;
  if (opts.finalize !== false) {
    try {
      finalized = await backend.finalize(cp.run_id, finalizeOptionsOf(opts));
    } catch (e) {
      if (!(e instanceof PlatformError)) throw e;
      throw new PlatformError(
        e.code,
        `${closedBy.message}; run ${cp.run_id} had ${stored.length} of ${cp.task_count} tasks answered before the close, ` +
          `but its finalize was refused, so it is not ranked: ${e.message}`,
        { ...e.details, run_id: cp.run_id, closed: closedBy.details },
      );
    }
  }
  return runResultOf(backend, cp, tasks, {
    interrupted: false,
    finalized,
    closed: { message: closedBy.message, details: closedBy.details, answered: stored.length },
  });
}

/** The runner's progress bar on stderr. */
async function progressBar(total: number, agentId: string) {
  const { default: cliProgress } = await import("cli-progress");
  return new cliProgress.SingleBar(
    {
      format: `${agentId} |{bar}| {value}/{total} tasks | {percentage}% | {duration_formatted}`,
      stream: process.stderr,
      hideCursor: false,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
}
