/**
 * The {@link Domain} port over `@bench-bounty/platform`: each function is a call (or two) into the
 * async Platform API with the caller's principal, plus the shaping of payloads for the wire. Owner
 * rules, SPEC 6.1 secrecy and idempotence are the platform's (`identity/access.ts`, `runs/`,
 * `leaderboard.ts`); nothing here decides who may do what.
 */
import { GRADER_TYPES, isJsonObject, type JsonObject, type JsonValue } from "@bench-bounty/evidence";
import {
  accountWithdrawalAddress,
  gaosTaskScores,
  requirePrincipal,
  toJsonValue,
  type Platform,
  type Principal,
  type PublishHow,
  type ServedTask,
} from "@bench-bounty/platform";
import {
  RUN_TASKS_PAGE_BYTES,
  type AccountView,
  type Domain,
  type PlanningCharges,
  type Registration,
} from "./domain.js";
import { relayClaimOp } from "./claims/relay.js";
import { DatasetChecker, jobBytes } from "./dataset-check.js";
import { storeVerificationQueue } from "./verification/store-jobs.js";
import { verificationOps } from "./verification/ops.js";
import type { VerificationQueue } from "./verification/worker.js";

/** Options of {@link platformDomain}. */
export interface PlatformDomainOptions {
  /**
   * The verification queue (default: the store's `verification_jobs`, {@link storeVerificationQueue});
   * give the worker (`startVerifier`) the same one.
   */
  jobs?: VerificationQueue;
  /** The chain is a local node (the detail's `chain.local`: no explorer links on the web pages). */
  localChain?: boolean;
  /** Unix ms (the queue's clock). */
  now?: () => number;
}

/** The dataset bodies' worker thread, one per process (`dataset-check.ts`). */
const datasets = new DatasetChecker();

/**
 * Stops the dataset bodies' worker thread (a process that has checked a dataset does not exit on
 * SIGTERM while it runs, unref'd or not): `serve` calls this first when it stops, so the dataset
 * requests in flight (validate, upload, publish planning) and every later one are answered 503
 * `server_busy` with `details.stopping` at once, before their connections close (probe31 A-F6), and the
 * worker is terminated outside the native Keccak addon (`DatasetChecker.close`). Resolves once it has exited.
 */
export function closeDatasetWorker(): Promise<void> {
  return datasets.close(true);
}

/**
 * JSON-safe copy (bigints as decimal strings) in the evidence library's value model. The pack's fixed
 * `grader_types` block (SPEC 8), served as is by the detail, the formats and the publish answer, keeps
 * its numbers as written (`1e-07`, `9007199254740993`): copied, its exact numbers became `{lexeme, value}`
 * objects and a decimal string (probe36 A-F1).
 */
function json(v: unknown): JsonValue {
  const out = toJsonValue(
    JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x))),
  );
  if (isJsonObject(out) && (v as { grader_types?: unknown }).grader_types === GRADER_TYPES)
    out.grader_types = GRADER_TYPES as unknown as JsonValue;
  return out;
}

/**
 * A run's served tasks as they go on the wire: each already a JSON value (numbers and strings), so not
 * copied through {@link json} (probe26 A-F3: a 240 MB test set's tasks were stringified, parsed and
 * walked per run start and per `GET /runs/:id/tasks`, ~1.6 s of the event loop and their size again
 * in memory each).
 */
function servedTasks(tasks: readonly ServedTask[]): JsonValue {
  return tasks.map((t) => ({
    ordinal: t.ordinal,
    prompt: t.prompt,
    visibility: t.visibility,
    grader_type: t.grader_type,
  }));
}

/** One page of a run's tasks ({@link tasksPage}). */
export interface TasksPage {
  tasks: JsonValue;
  task_count: number;
  offset: number;
  /** The ordinal of the first task not in this page, null when it holds the last one. */
  next_offset: number | null;
}

/**
 * The run's tasks from ordinal `offset` on, as many as fit in {@link RUN_TASKS_PAGE_BYTES} (at least
 * one, so that every task is served: a single task larger than the page is served alone). The one rule
 * of a tasks answer's size; the work is bounded by the page, not by the run. An `offset` at or past the
 * last task gives an empty last page. `bytes`: the page's tasks as counted (their JSON text and commas).
 */
export function tasksPage(
  tasks: readonly ServedTask[],
  offset: number,
  maxBytes: number = RUN_TASKS_PAGE_BYTES,
): { page: TasksPage; bytes: number } {
  const page: ServedTask[] = [];
  let bytes = 0;
  let i = offset;
  for (; i < tasks.length; i++) {
    const t = tasks[i]!;
    const size = Buffer.byteLength(JSON.stringify(t)) + 1;
    if (page.length > 0 && bytes + size > maxBytes) break;
    page.push(t);
    bytes += size;
  }
  const next_offset = i < tasks.length ? i : null;
  return { page: { tasks: servedTasks(page), task_count: tasks.length, offset, next_offset }, bytes };
}

/**
 * The first 8 hex digits of the commitment root, as the list's `version`: a benchmark's tasks never
 * change after publication, so its version is the test set it committed to. Absent (undefined) while
 * the root is withheld (its anchor pending, platform `reveal.ts`; probe15 A-F3).
 */
export function versionOf(commitRoot: string | null): string | undefined {
  return commitRoot === null ? undefined : commitRoot.slice(0, 10);
}

/**
 * The dataset bodies' operations: each body waits its turn for the worker in its account's queue
 * (fair across accounts, `dataset-check.ts`); the upload's insert (and the dataset quota) is the
 * platform's `storeDataset`.
 */
function datasetOps(
  platform: Platform,
): Pick<Domain, "validateDataset" | "datasetFormats" | "createDataset" | "myDatasets" | "deleteDataset"> {
  return {
    validateDataset: (p, body, opts) =>
      datasets.check(body, p?.account_id ?? "", opts?.answerBy, opts?.stopBy),
    datasetFormats: async () => json(await platform.datasetFormats()),
    async createDataset(p, body, opts) {
      // checked in the worker (its queue may be long); stored only by the request's deadline for
      // waits, else 503 `server_busy` with nothing stored (probe16 A-F5: stored after a 503)
      const who = requirePrincipal(p);
      const prepared = await datasets.prepare(body, who.account_id, opts?.answerBy, opts?.stopBy);
      const how = opts?.answerBy === undefined ? {} : { answerBy: opts.answerBy };
      return json(await platform.storeDataset(who, prepared, how));
    },
    myDatasets: async (p) => json(await platform.myDatasets(requirePrincipal(p))),
    deleteDataset: async (p, datasetId, opts) =>
      json(await platform.deleteDataset(requirePrincipal(p), datasetId, opts)),
  };
}

/**
 * One page of the benchmark list (`{benchmarks, offset, limit, next_offset}`) with each benchmark's
 * grader and `version` ({@link versionOf}). @throws PlatformError `invalid_option` naming `offset` or `limit`
 */
async function benchmarkListView(
  platform: Platform,
  page?: { offset: number; limit: number },
): Promise<JsonValue> {
  const { rows, ...where } = await platform.benchmarkList(page);
  const withheld = await platform.withheldDigests(
    [],
    rows.map((r) => r.record),
  );
  return json({
    benchmarks: rows.map(({ item, record: b }) => {
      const version = versionOf(withheld.has(b.commit_root) ? null : b.commit_root);
      return { ...item, grader_type: b.config.grader_type, ...(version ? { version } : {}) };
    }),
    ...where,
  });
}

/**
 * How the server publishes: the planning (seconds of CPU for a large dataset) in the dataset worker, in
 * the author's turn; `answerBy` the request's deadline for waits (half its limit): a planning that ends
 * later, after waiting in the worker's queue, is refused 503 `server_busy` with nothing written, rather
 * than stored after the request was answered 503 `request_timeout` (probe16 A-F5), and the commitment's
 * anchor is awaited until then.
 */
function publishHow(
  who: Principal,
  { answerBy, stopBy, chargePlanning, owePlanning }: PlanningCharges,
): PublishHow {
  return {
    planner: async (job) => {
      // each try costs its caller the rows it plans, refused or not (probe17 A-F3)
      const stored = jobBytes(job);
      chargePlanning?.(stored);
      const planned = await datasets.plan(job, who.account_id, answerBy, stopBy);
      // and the test set it rendered beyond them (a template repeating a field renders more than it stores)
      if (planned.test_set_bytes > stored) owePlanning?.(planned.test_set_bytes - stored);
      return planned;
    },
    ...(answerBy !== undefined ? { answerBy } : {}),
    // a network client's `seed` only from the operator (probe29 A-F8)
    seedFromOperatorOnly: true,
  };
}

/** The caller's account as `GET /accounts/me` serves it (agents, keys by prefix). */
async function accountView(platform: Platform, p: Principal): Promise<AccountView> {
  const [account, agents, keys] = await Promise.all([
    platform.account(p),
    platform.myAgents(p),
    platform.listKeys(p),
  ]);
  return {
    account_id: account.account_id,
    name: account.name,
    roles: [...account.roles],
    // the default agent's (the one named after the account), never the first by id (probe38 A-F1)
    withdrawal_address: accountWithdrawalAddress(account.name, agents),
    agents: agents.map((a) => ({
      agent_id: a.agent_id,
      withdrawal_address: a.withdrawal_address,
      is_author_agent: a.is_author_agent,
    })),
    keys: keys.map((k) => ({
      key_prefix: k.key_prefix,
      created_at: k.created_at,
      revoked_at: k.revoked_at,
    })),
    created_at: account.created_at,
  };
}

/** The account routes' operations (registration, the caller's account, its keys, agents and address). */
function accountOps(
  platform: Platform,
): Pick<
  Domain,
  "authenticate" | "register" | "me" | "setWithdrawalAddress" | "registerAgent" | "issueKey" | "revokeKey"
> {
  const view = (p: Principal) => accountView(platform, p);
  return {
    authenticate: (apiKey) => platform.authenticate(apiKey),
    async register(input, opts): Promise<Registration> {
      // one transaction: a refused agent id or address leaves no account behind (issue 13 re-probe);
      // without a name the platform picks one, and the agent id defaults to it (`createAccount`)
      const created = await platform.createAccount(
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          agent: {
            ...(input.agent_id !== undefined ? { agent_id: input.agent_id } : {}),
            ...(input.withdrawal_address !== undefined
              ? { withdrawal_address: input.withdrawal_address }
              : {}),
          },
        },
        opts,
      );
      const p = await platform.authenticate(created.api_key);
      return { account: await view(p), api_key: created.api_key, key_prefix: created.key_prefix };
    },
    me: async (p) => view(requirePrincipal(p)),
    async setWithdrawalAddress(p, address, opts) {
      const who = requirePrincipal(p);
      // all the account's agents in one transaction (all or none), its default agent if it has none
      await platform.setAccountWithdrawalAddress(who, address, opts);
      return view(who);
    },
    async registerAgent(p, input, opts) {
      const who = requirePrincipal(p);
      // a new agent takes the address of the account's default agent (probe38 A-F1: not the first by id);
      // an existing one registered again (to set is_author_agent) keeps its own address
      const inherited =
        (await platform.getAgent(input.agent_id)) === null
          ? await platform.inheritedWithdrawalAddress(who)
          : null;
      const settings = {
        ...(inherited ? { withdrawal_address: inherited } : {}),
        ...(input.is_author_agent !== undefined ? { is_author_agent: input.is_author_agent } : {}),
      };
      await platform.registerAgent(who, input.agent_id, settings, opts);
      return view(who);
    },
    async issueKey(p, opts) {
      const who = requirePrincipal(p);
      const issued = await platform.issueKey(who, opts);
      return { account: await view(who), api_key: issued.api_key, key_prefix: issued.key_prefix };
    },
    async revokeKey(p, keyPrefix, opts) {
      const who = requirePrincipal(p);
      await platform.revokeKey(who, keyPrefix, opts);
      return view(who);
    },
  };
}

/** The Domain over a Platform. */
export function platformDomain(platform: Platform, opts: PlatformDomainOptions = {}): Domain {
  const verification = verificationOps(platform, opts.jobs ?? storeVerificationQueue(platform), opts.now);
  const chain = platform.chain
    ? { chain_id: platform.chain.config.chainId, local: opts.localChain === true }
    : null;
  /** The detail as the platform builds it (prize checked on-chain; how_to_compete at this server's URL). */
  const detail = async (slug: string, baseUrl?: string) => {
    const d = await platform.benchmarkDetail(slug, baseUrl ? { baseUrl } : {});
    const version = versionOf(d.commitment.commit_root);
    return json({ ...d, ...(version ? { version } : {}), chain });
  };
  /**
   * The agent a run starts for: the one named (an empty name too, which the platform refuses naming
   * `agent_id`: never taken for "absent", probe21 A-F8), else the account's default agent, the one named
   * after it (`defaultRunAgent`; never the first by id, probe38 A-F1).
   */
  const agentFor = async (p: Principal, agentId: string | undefined): Promise<string> =>
    agentId !== undefined ? agentId : platform.defaultRunAgent(p);

  return {
    ...accountOps(platform),

    listBenchmarks: (_p, page) => benchmarkListView(platform, page),
    benchmarkDetail: (_p, slug, baseUrl) => detail(slug, baseUrl),
    async corpus(p, slug) {
      requirePrincipal(p);
      await platform.getBenchmark(slug);
      return json({
        slug,
        documents: [],
        note: "This benchmark was published from a dataset: its tasks are answered from the prompt text alone.",
      });
    },
    // The platform's board object as is: it is cached there until the board changes, so the edge
    // serialises it once per version (sendCachedJson).
    leaderboard: async (p, slug, board, page) =>
      (await platform.leaderboard(slug, { viewer: p, board, page })) as unknown as JsonValue,
    async commitment(_p, slug) {
      const c = await platform.commitment(slug);
      return json({
        slug,
        commit_root: c.commit_root,
        leaf_count: c.leaf_count,
        commitment_anchor: c.anchor,
        commitment_anchor_status: c.status,
        commitment_squat: c.squat,
        awarder: c.awarder,
      });
    },
    receipt: async (p, slug, runId) => json(await platform.receipt(p, slug, runId)),
    taskScores: async (p, slug, page) => (await platform.taskScores(p, slug, page)) as unknown as JsonValue,
    taskScoresOfIds: async (p, slug, runIds) =>
      (await platform.taskScoresOfIds(p, slug, runIds)) as unknown as JsonValue,
    async gaosTaskScoresOf(p, slug, runIds) {
      const runs = await platform.taskScoresOfRuns(p, slug, runIds);
      return new Map([...runs].map(([id, run]) => [id, gaosTaskScores(run)]));
    },
    awardEvidenceHead: (slug) => platform.awardEvidenceHead(slug),
    awardEvidenceBytes: (slug, packHash) => platform.awardEvidenceBytes(slug, packHash),
    awardEvidenceChunks: (slug, packHash, size) => platform.awardEvidenceChunks(slug, packHash, size),

    async startRun(p, slug, input, opts) {
      const who = requirePrincipal(p);
      const { tasks, ...started } = await platform.startRun(
        who,
        slug,
        await agentFor(who, input.agent_id),
        opts,
      );
      // the first page of the tasks (the rest by `GET /runs/:id/tasks?offset=`, MCP `benchmark_run_tasks`)
      const { tasks: first, task_count, next_offset } = tasksPage(tasks, 0).page;
      return { ...(json(started) as JsonObject), tasks: first, task_count, next_offset };
    },
    submit: async (p, runId, answers, opts) =>
      json(await platform.submit(requirePrincipal(p), runId, answers, opts)),
    finalize: async (p, runId, opts) =>
      json(
        await platform.finalize(
          requirePrincipal(p),
          runId,
          opts?.revealBy === undefined ? {} : { revealBy: opts.revealBy },
        ),
      ),
    getRun: async (p, runId) => json(await platform.getRun(requirePrincipal(p), runId)),
    async runTasks(p, runId, opts) {
      const who = requirePrincipal(p);
      const tasks = await platform.runTasks(who, runId);
      const offset = opts?.offset ?? 0;
      // the page is measured (at most RUN_TASKS_PAGE_BYTES of work) and admitted before it is served
      const { page, bytes } = tasksPage(tasks, offset);
      opts?.admit?.(bytes);
      const answered = [...(await platform.runAnswers(who, runId)).keys()].sort((a, b) => a - b);
      return { run_id: runId, ...page, answered_ordinals: answered } as unknown as JsonValue;
    },
    runsMine: async (p, page) => json(await platform.myRuns(requirePrincipal(p), page)),

    async assertBenchmark(slug) {
      await platform.getBenchmark(slug);
    },
    chainlessOnChainStore: () => platform.chainlessOnChainStore(),
    ...datasetOps(platform),
    async publish(p, datasetId, options, baseUrl, opts) {
      const who = requirePrincipal(p);
      const result = await platform.publish(who, datasetId, options as never, publishHow(who, opts ?? {}));
      return json({ ...((await detail(result.slug, baseUrl)) as object), ...result });
    },
    async attachBounty(p, slug, input, opts) {
      const expect = {
        ...(input.author ? { author: input.author } : {}),
        ...(input.pool_base_units ? { pool_base_units: input.pool_base_units } : {}),
      };
      return json(await platform.attachBounty(requirePrincipal(p), slug, input.bounty_id, expect, opts));
    },
    async award(p, slug, opts) {
      const how = opts?.answerBy === undefined ? {} : { answerBy: opts.answerBy };
      const result = json(await platform.award(requirePrincipal(p), slug, how));
      await verification.enqueueIfPacked(slug); // the pack is minted: verify it (once; again on request)
      return result;
    },
    // verification, verificationReport, requestVerification, storedVerification, enqueueIfPacked
    ...verification,
    relayClaim: relayClaimOp(platform),
  };
}
