/**
 * The runner's remote backend: {@link HttpRunBackend} implements the platform's `RunBackend` over the
 * HTTP API with `@bench-bounty/client`, so `bench-bounty run SLUG --server URL --api-key KEY --agent CMD`
 * competes like a stranger's agent (same agent protocol, progress, timeouts, checkpoints, resume).
 * A refusal of the server becomes the PlatformError of the same code, so the runner treats it exactly
 * as a local refusal (an `invalid_answers` marks the task invalid, a `run_in_progress` stops).
 */
import { ApiError, BenchBountyClient } from "@bench-bounty/client";
import {
  PlatformError,
  redactRpc,
  type FinalizeResult,
  type RunBackend,
  type RunView,
  type ServedTask,
  type StartedRun,
  type SubmitResult,
} from "@bench-bounty/platform";

/** A refusal of the server as the PlatformError of its code; `server` (whose path may hold a key) by its origin only. */
async function viaApi<T>(p: Promise<T>, server: string): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof ApiError)
      throw new PlatformError(e.code as never, redactRpc(e.message, server), {
        ...e.details,
        http_status: e.status,
      });
    throw e;
  }
}

/**
 * `RunBackend` over `bench-bounty serve`, acting as the holder of `apiKey`; its checkpoints and agent
 * logs go to `checkpointDir`, and its agents must not see `privatePaths` (the `--store` directory).
 */
export class HttpRunBackend implements RunBackend {
  private readonly client: BenchBountyClient;
  constructor(
    readonly server: string,
    apiKey: string,
    readonly checkpointDir: string,
    readonly privatePaths: readonly string[],
  ) {
    this.client = new BenchBountyClient({ baseUrl: server, apiKey });
  }
  get where(): string {
    return this.server;
  }
  start(slug: string, agentId: string): Promise<StartedRun> {
    return viaApi(this.client.startRun(slug, { agent_id: agentId }), this.server);
  }
  async tasks(runId: string): Promise<ServedTask[]> {
    return (await viaApi(this.client.runTasks(runId), this.server)).tasks;
  }
  async answeredOrdinals(runId: string): Promise<number[]> {
    return (await viaApi(this.client.runTasks(runId), this.server)).answered_ordinals;
  }
  submit(runId: string, answers: { ordinal: number; answer_text: string }[]): Promise<SubmitResult> {
    return viaApi(this.client.submit(runId, answers), this.server);
  }
  finalize(runId: string): Promise<FinalizeResult> {
    return viaApi(this.client.finalize(runId), this.server);
  }
  run(runId: string): Promise<RunView> {
    return viaApi(this.client.run(runId), this.server);
  }
}
