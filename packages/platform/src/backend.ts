/**
 * The runner's view of a platform: {@link RunBackend} is everything the runner needs to compete
 * (start, tasks, answers already stored, submit, finalize, the run's status for resume). The runner
 * competes locally through {@link LocalRunBackend} (a {@link Platform} and the caller's principal), or
 * remotely through an HTTP backend built on the typed client (package `@bench-bounty/client`), with the
 * same agent protocol, timeouts, checkpoints and resume.
 */
import { PlatformError } from "./errors.js";
import type { Principal } from "./identity/principal.js";
import type { Platform } from "./platform.js";
import type { FinalizeOptions, FinalizeResult, RunView, ServedTask, StartedRun } from "./runs.js";

/** What submit answers. */
export interface SubmitResult {
  run_id: string;
  accepted: number;
  answered: number;
  total: number;
}

/** The operations the runner needs, all async; every one acts as the backend's caller (its key). */
export interface RunBackend {
  /** A label for messages (`local store DIR`, `https://host`). */
  readonly where: string;
  /** Directory for the runner's checkpoints and agent logs. */
  readonly checkpointDir: string;
  /**
   * Paths a CLI agent must not see: the local store, and the directory of the checkpoints and agent
   * logs (the CLI's `--store`, remote runs too: a `platform.sqlite` may sit there).
   */
  readonly privatePaths: readonly string[];
  /**
   * Starts an attempt (the wall clock starts) and reads every task of it.
   * @param agentId the agent to run; undefined: the account's default agent, as the service decides
   *   (`POST /benchmarks/:slug/runs` without `agent_id`: the agent named after the account; refused
   *   `invalid_option` `no_default_agent` naming the account's agents), the remote backend only (probe39
   *   A-N2); the answer's `run.agent_id` names the agent that runs
   * @param signal the runner's interrupt: a backend that reads the tasks in pages (the remote one) stops
   *   there at once, throwing `interrupted` with `details.run_id`, `attempt` and `attempt_used: false`
   *   (the run is started: `resume RUN_ID --agent CMD` adopts it; probe38 B-F3); a local backend ignores it
   * @throws PlatformError `run_in_progress`, `max_attempts_reached`, ...; `interrupted`; `invalid_option`
   *   naming `agent_id` (no agent named, and none the service decides)
   */
  start(slug: string, agentId: string | undefined, signal?: AbortSignal): Promise<StartedRun>;
  /**
   * The run's tasks as served.
   * @param signal as {@link start}'s: `interrupted` with `details.run_id` and `attempt_used: false`
   */
  tasks(runId: string, signal?: AbortSignal): Promise<ServedTask[]>;
  /** Ordinals already answered (resume skips them). */
  answeredOrdinals(runId: string): Promise<number[]>;
  /** Idempotent upserts. @throws PlatformError `invalid_answers` naming the ordinal */
  submit(runId: string, answers: { ordinal: number; answer_text: string }[]): Promise<SubmitResult>;
  /** Finalizes (SPEC 6.1 shape). @throws PlatformError `already_finalized` */
  finalize(runId: string, opts?: FinalizeOptions): Promise<FinalizeResult>;
  /** The run as the caller may see it (status, attempt, task count). */
  run(runId: string): Promise<RunView>;
}

/**
 * The runner's backend over a local platform, acting as `principal`. `alsoPrivate`: more paths its
 * agents must not see besides the store's own (the CLI's `--store` directory, which on PostgreSQL
 * holds only the checkpoints but may hold an SQLite store's `platform.sqlite` too).
 */
export class LocalRunBackend implements RunBackend {
  constructor(
    readonly platform: Platform,
    readonly principal: Principal,
    private readonly alsoPrivate: readonly string[] = [],
  ) {}
  get where(): string {
    const s = this.platform.ctx.store;
    return s.engine === "sqlite" ? `local store ${s.dir}` : `local store ${s.description}`;
  }
  get checkpointDir(): string {
    return this.platform.ctx.store.runsDir;
  }
  get privatePaths(): readonly string[] {
    return [...this.platform.ctx.store.localPaths, ...this.alsoPrivate];
  }
  /** @throws PlatformError `invalid_option` naming `agent_id` when none is named: a local run names its agent */
  start(slug: string, agentId: string | undefined): Promise<StartedRun> {
    if (agentId === undefined)
      return Promise.reject(
        new PlatformError("invalid_option", "a run on a local store names its agent (agent_id)", {
          field: "agent_id",
        }),
      );
    return this.platform.startRun(this.principal, slug, agentId);
  }
  tasks(runId: string): Promise<ServedTask[]> {
    return this.platform.runTasks(this.principal, runId);
  }
  async answeredOrdinals(runId: string): Promise<number[]> {
    return [...(await this.platform.runAnswers(this.principal, runId)).keys()].sort((a, b) => a - b);
  }
  submit(runId: string, answers: { ordinal: number; answer_text: string }[]): Promise<SubmitResult> {
    return this.platform.submit(this.principal, runId, answers);
  }
  finalize(runId: string, opts?: FinalizeOptions): Promise<FinalizeResult> {
    return this.platform.finalize(this.principal, runId, opts);
  }
  run(runId: string): Promise<RunView> {
    return this.platform.getRun(this.principal, runId);
  }
}
