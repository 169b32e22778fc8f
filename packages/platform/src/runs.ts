/**
 * Runs (seed "Compete on Benchmarks", steps 4-6; SPEC 4 and 6): start, submit, finalize.
 *
 * - start: one run in progress per agent and benchmark (`run_in_progress`), at most `max_attempts`
 *   attempts (`max_attempts_reached`), only while the benchmark is open (`benchmark_closed`).
 *   The run's tasks are the private tasks in bank order (fixed) followed by a deterministic, seeded
 *   shuffle of a subset of the public tasks ({@link runPlan}); ordinal `i` of the run is position `i`.
 * - submit: answers `[{ordinal, answer_text}]`, idempotent upserts per ordinal; the whole batch is
 *   refused (`invalid_answers`, one entry per bad item in `details.errors`) when an ordinal is
 *   unknown (stale ordinals of an earlier attempt included), an answer is empty or not a string.
 * - finalize: grades every task (evidence `grade`), computes `rank_accuracy`, `score_public` and the
 *   composite with the wall clock from start to finalize in milliseconds, builds the receipt (credits
 *   null while the benchmark is open), stores it in one transaction and anchors its hash (kind
 *   `receipt`). While attempts remain it returns aggregate numbers only; per-task public correctness
 *   once the attempts are used up or the benchmark is closed; private correctness only once closed.
 *   A second finalize is `already_finalized`.
 */
import {
  buildReceipt,
  keccak256Hex,
  receiptTextAndHash,
  trimWhiteSpace,
  type Hex,
  type Receipt,
} from "@bench-bounty/evidence";
import { anchorDigests } from "./anchor-batch.js";
import { squatFacts, squattedError, type AnchorEvidence, type SquatFacts } from "./chain.js";
import type { BenchmarkRecord, PlatformContext, TaskRecord, WriteHow } from "./context.js";
import { textProblem, TEXT_PROBLEM_TEXT } from "./utf8.js";
import { PlatformError } from "./errors.js";
import type { Tables } from "./store.js";
import { isUniqueViolation } from "./store/executor.js";
import { accountScope, ALL_ACCOUNTS_SCOPE } from "./store/answer-totals.js";
import { anchorCommitment, getBenchmark, getTasks, isOpen } from "./publish.js";
import {
  assertAgentOwner,
  assertMayOwnAgents,
  assertRunOwner,
  isAuthorOf,
  privateFiguresVisible,
  buyerOnlyHides,
  receiptsVisible,
} from "./identity/access.js";
import { isOperator, isOperatorAccount, OPERATOR_ACCOUNT_ID, type Principal } from "./identity/principal.js";
import {
  assertRoomForAccountOnBenchmark,
  checkAgentId,
  checkAgentRegistration,
  isAuthorAgent,
  writeAgent,
  type AgentSettings,
} from "./agents.js";
import { answerPackBytes, MAX_ANSWER_LENGTH, maxRankedRows, packByteLimit } from "./pack-budget.js";
import { answerAllowanceOf } from "./publish.js";
import { gradePlan, scoreGraded, type GradedPlanTask } from "./grading.js";
import { receiptRevealed, shownDigest, withheldDigests, type AnchorState, type Withheld } from "./reveal.js";
import { isoMillis, wallSeconds } from "./time.js";
import { checkPage, pageOfRows } from "./paging.js";
import type { RunSummary } from "./store/runs.js";

/** A task as served to an agent (no gold, ever). */
export interface ServedTask {
  /** Position in this run (what answers refer to). */
  ordinal: number;
  prompt: string;
  visibility: "public" | "private";
  grader_type: string;
}

/** The response of {@link startRun}. */
export interface StartedRun {
  run: {
    id: string;
    benchmark: string;
    agent_id: string;
    attempt: number;
    max_attempts: number;
    attempts_remaining: number;
    started_at: string;
    time_budget_seconds: number;
    speed_weight: string;
    clock_note: string;
  };
  tasks: ServedTask[];
}

/** A run as stored. */
export interface RunRecord {
  run_id: string;
  slug: string;
  agent_id: string;
  /** The account that owns the agent and started the run (the only one that may submit, finalize, resume). */
  account_id: string;
  attempt: number;
  status: "in_progress" | "finalized";
  /** Bank ordinals in run order. */
  plan: number[];
  started_at_ms: number;
  finalized_at_ms: number | null;
  answer_salt: string | null;
  receipt: Receipt | null;
  receipt_hash: Hex | null;
  rank_accuracy: string | null;
  score_public: string | null;
  score_composite: string | null;
  /** SPEC 6.1: the composite with the public accuracy in place of the private one. */
  score_composite_public: string | null;
  wall_seconds: string | null;
  queries_used: number | null;
  usdc_spent: string | null;
}

/** The response of {@link finalizeRun}. */
export interface FinalizeResult {
  run_id: string;
  status: "finalized";
  attempt: number;
  attempts_used: number;
  attempts_remaining: number;
  score_public: string;
  /** SPEC 6.1: the composite over the public accuracy; always served. */
  score_composite_public: string;
  /** The ranking composite (private accuracy when the bank has private tasks): only when SPEC 6.1 allows
   * it (the benchmark is closed, or has no private tasks, or the caller is its author). */
  score_composite?: string;
  wall_seconds: string;
  queries_used: number;
  usdc_spent: string;
  counts: { tasks: number; answered: number; public: number; private: number };
  /**
   * The receipt's hash (anchored at finalize, so the receipt cannot change before it is served); null
   * while its anchor is pending (`reveal.ts`: shown once anchored, at GET run).
   */
  receipt_hash: Hex | null;
  /** The receipt payload: only once the benchmark is closed (or to its author), SPEC 6.1; never before its hash shows. */
  receipt?: Receipt;
  /** Anchor evidence, or null when the batch did not land in time, anchoring failed (retried later) or off-chain. */
  receipt_anchor: AnchorEvidence | null;
  /**
   * `anchored`, `pending` (batched or failed: `anchor` retries it), `squatted` (anchored first by
   * someone else with another kind: never anchored as a receipt, the award is refused), or `off_chain`.
   */
  receipt_anchor_status: AnchorState;
  /** Why the immediate anchoring failed (it stays pending and is retried), when it did. */
  receipt_anchor_error?: string;
  /** Public tasks' credits: only once the attempts are used up or the benchmark closed. */
  per_task?: { ordinal: number; visibility: "public" | "private"; credit: string }[];
  /** Private accuracy: only once the benchmark is closed (or to its author). */
  rank_accuracy?: string;
}

/**
 * A run as served to a caller (SPEC 6.1): no plan, no salt, no answers; private figures and the receipt
 * only when {@link privateFiguresVisible} / {@link receiptsVisible} allow them.
 */
export interface RunView {
  run_id: string;
  benchmark: string;
  agent_id: string;
  attempt: number;
  status: "in_progress" | "finalized";
  started_at: string;
  finalized_at: string | null;
  task_count: number;
  score_public: string | null;
  score_composite_public: string | null;
  wall_seconds: string | null;
  queries_used: number | null;
  receipt_hash: Hex | null;
  /** Where the receipt hash's anchor stands ({@link AnchorState}); null while the run is in progress. */
  receipt_anchor_status: AnchorState | null;
  score_composite?: string | null;
  rank_accuracy?: string | null;
  receipt?: Receipt | null;
}

/**
 * The task plan of an attempt: private bank ordinals ascending (fixed), then the public bank ordinals
 * ordered by `keccak256("bench-bounty.plan:" + plan_seed + ":" + agent_id + ":" + attempt + ":" + ordinal)`
 * and cut to `public_tasks_per_run`. Deterministic: the same benchmark, agent and attempt always give
 * the same plan, and different attempts draw different shuffles.
 */
export function runPlan(
  b: Pick<BenchmarkRecord, "plan_seed" | "config">,
  tasks: Pick<TaskRecord, "ordinal" | "visibility">[],
  agentId: string,
  attempt: number,
): number[] {
  const priv = tasks
    .filter((t) => t.visibility === "private")
    .map((t) => t.ordinal)
    .sort((a, c) => a - c);
  const keyed = tasks
    .filter((t) => t.visibility === "public")
    .map((t) => ({
      o: t.ordinal,
      k: keccak256Hex(`bench-bounty.plan:${b.plan_seed}:${agentId}:${attempt}:${t.ordinal}`),
    }))
    .sort((x, y) => (x.k < y.k ? -1 : x.k > y.k ? 1 : x.o - y.o));
  const k =
    b.config.public_tasks_per_run === null
      ? keyed.length
      : Math.min(b.config.public_tasks_per_run, keyed.length);
  return [...priv, ...keyed.slice(0, k).map((x) => x.o)];
}

/**
 * A new agent on a benchmark takes a row of the award pack's rank derivation: the pack budget holds at most
 * `maxRankedRows` of them (`pack-budget.ts`), so once that many agents have runs a new one is refused.
 * @throws PlatformError `benchmark_full` (`details.limit: "max_ranked_agents"`, `max_agents`)
 */
async function assertRoomForAgent(ctx: PlatformContext, t: Tables, slug: string): Promise<void> {
  const max = maxRankedRows(packByteLimit(ctx));
  const agents = await t.runs.agentCount(slug);
  if (agents >= max)
    throw new PlatformError(
      "benchmark_full",
      `benchmark ${slug} has runs of ${agents} agents, the most its award's evidence pack can rank (${max}): no new agent may start`,
      { slug, limit: "max_ranked_agents", max_agents: max },
    );
}

/**
 * The form of every run id ({@link runIdOf}): what a client checks a server's run id against before it
 * names a file or a printed command after it (probe15 B-F1).
 */
export const RUN_ID_PATTERN = /^run-[0-9a-f]{16}$/;

/** Deterministic run id of an attempt: `run-` + 16 hex of keccak256(slug, agent, attempt). */
export function runIdOf(slug: string, agentId: string, attempt: number): string {
  return `run-${keccak256Hex(`bench-bounty.run:${slug}\n${agentId}\n${attempt}`).slice(2, 18)}`;
}

const CLOCK_NOTE =
  "Wall clock starts now and stops at finalize. Faster runs score higher: the composite blends accuracy with pace via speed_weight.";

/**
 * The one place of the invariant "a row that can be a winner has a withdrawal address" (SPEC 1 `award`:
 * a winner without one blocks the whole award; probe11 O1: an account whose start named an unseen agent
 * ranked address-less and `award` refused everyone). On a service with a chain (any benchmark may get a
 * bounty, even after its runs started) a run of an agent that can win (not the benchmark author's,
 * SPEC 7.2) does not start without a withdrawal address; once set an address can only be replaced,
 * never cleared (`checkAgentRegistration`). Refused at start rather than at finalize: a competitor learns
 * it before doing any work, and nothing is left behind (a new agent is not registered). A chainless
 * service never awards, so its runs need none.
 * @throws PlatformError `withdrawal_address_required` naming the field, the agent and how to set it
 */
function assertPayable(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  agent: {
    agent_id: string;
    owner_account_id: string;
    is_author_agent: boolean;
    withdrawal_address: string | null;
  },
): void {
  if (!ctx.chain || agent.withdrawal_address || isAuthorAgent(agent, b.author_account_id)) return;
  throw new PlatformError(
    "withdrawal_address_required",
    `withdrawal_address: agent ${agent.agent_id} has none, and a winner without one would block the whole award; set it first (through a server: REST PUT /api/v1/accounts/me/withdrawal-address or MCP set_withdrawal_address; on a local store: bench-bounty run --withdrawal-address ADDR without --server, or bench-bounty agent ID --withdrawal-address ADDR), then start`,
    { field: "withdrawal_address", path: "$.withdrawal_address", agent_id: agent.agent_id },
  );
}

/**
 * Starts a run for an agent (registering the agent on first sight, with the address of the account's
 * first agent).
 * @throws PlatformError `invalid_option` (`agent_id` not of the agent-id rule), `unknown_benchmark`, `benchmark_closed`, `anchor_squatted` (its commitment was
 *   anchored first by someone else with another kind: its award can never verify, probe15 A-F6),
 *   `withdrawal_address_required`
 *   ({@link assertPayable}), `run_in_progress`, `max_attempts_reached`, `benchmark_full` (a new agent beyond what the award pack can rank), `agent_quota_exceeded`
 *   (`agents_per_account`, or `agents_per_account_per_benchmark`: a new agent of an account that has
 *   that many agents on the benchmark already, `AgentQuota`)
 */
export async function startRun(
  ctx: PlatformContext,
  p: Principal,
  slug: string,
  agentId: string,
  how: WriteHow = {},
): Promise<StartedRun> {
  checkAgentId(agentId);
  const b = await getBenchmark(ctx, slug);
  // checked before the agent is registered: a refused start leaves nothing behind
  if (!isOpen(ctx, b))
    throw new PlatformError("benchmark_closed", `benchmark ${slug} is closed to new runs`, {
      slug,
      status: b.status,
    });
  if (b.commitment_anchor === null) {
    const squat = await ctx.store.anchors.squatOf(b.commit_root);
    if (squat !== null) throw squattedError(b.commit_root, "commitment", squat);
  }
  const known = await ctx.store.agents.get(agentId);
  let newAgent: AgentSettings | null = null;
  if (known) {
    assertAgentOwner(p, known);
    assertPayable(ctx, b, known);
  } else {
    assertMayOwnAgents(p);
    // a new agent takes the address of the account's first agent (as `POST /accounts/me/agents` does)
    const inherited = (await ctx.store.agents.ofAccount(p.account_id))[0]?.withdrawal_address ?? null;
    assertPayable(ctx, b, {
      agent_id: agentId,
      owner_account_id: p.account_id,
      is_author_agent: false,
      withdrawal_address: inherited,
    });
    await assertRoomForAgent(ctx, ctx.store, slug); // again in the transaction below
    await assertRoomForAccountOnBenchmark(ctx, ctx.store, slug, p.account_id); // likewise
    newAgent = checkAgentRegistration(ctx, p, agentId, inherited ? { withdrawal_address: inherited } : {});
  }
  const tasks = await getTasks(ctx, slug);
  const started = await ctx.store.tx(
    async (t) => {
      // a new agent is registered in the run's transaction: a start refused (or busy) leaves no agent
      if (newAgent !== null) assertAgentOwner(p, await writeAgent(ctx, t, p, agentId, newAgent));
      // The agent's row is locked (PostgreSQL) so two processes starting its runs take turns; the
      // partial unique index (one run in progress per agent) decides any race left. The row read under
      // the lock is checked again: a concurrent change of is_author_agent (which takes the same lock,
      // `writeAgent`) either committed before, and is seen here, or waits and then sees this run.
      const locked = await t.agents.get(agentId, { lock: true });
      if (locked !== null) {
        assertAgentOwner(p, locked);
        assertPayable(ctx, b, locked);
      }
      const open = await t.runs.inProgress(slug, agentId);
      if (open !== null) throw runInProgress(agentId, open);
      const used = await t.runs.attempts(slug, agentId);
      if (used >= b.config.max_attempts) {
        throw new PlatformError(
          "max_attempts_reached",
          `agent ${agentId} used all ${b.config.max_attempts} attempts on ${slug}`,
          { max_attempts: b.config.max_attempts },
        );
      }
      if (used === 0) {
        // the count and the insert are one decision: first starts of this benchmark take turns
        await t.runs.lockNewAgents(slug);
        await assertRoomForAgent(ctx, t, slug);
        await assertRoomForAccountOnBenchmark(ctx, t, slug, p.account_id);
      }
      const attempt = used + 1;
      const plan = runPlan(b, tasks, agentId, attempt);
      const runId = runIdOf(slug, agentId, attempt);
      const now = ctx.clock();
      try {
        await t.runs.insert({
          run_id: runId,
          slug,
          agent_id: agentId,
          account_id: p.account_id,
          attempt,
          plan,
          started_at_ms: now,
        });
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
        throw runInProgress(agentId, runId);
      }
      return { attempt, plan, runId, now };
    },
    { locksBy: how.answerBy, account: p.account_id },
  );
  const { attempt, plan, runId, now } = started;
  return {
    run: {
      id: runId,
      benchmark: slug,
      agent_id: agentId,
      attempt,
      max_attempts: b.config.max_attempts,
      attempts_remaining: b.config.max_attempts - attempt,
      started_at: isoMillis(now),
      time_budget_seconds: b.config.time_budget_seconds,
      speed_weight: b.config.speed_weight,
      clock_note: CLOCK_NOTE,
    },
    tasks: plan.map((o, i) => {
      const t = tasks[o]!;
      return { ordinal: i, prompt: t.prompt, visibility: t.visibility, grader_type: t.grader_type };
    }),
  };
}

function runInProgress(agentId: string, runId: string): PlatformError {
  return new PlatformError(
    "run_in_progress",
    `agent ${agentId} already has run ${runId} in progress; finalize it first`,
    { run_id: runId },
  );
}

/** Reads a run (through `q`: the store, or a transaction's tables). @throws PlatformError `unknown_run` */
export async function getRun(
  ctx: PlatformContext,
  runId: string,
  q: Tables = ctx.store,
  opts: { lock?: boolean } = {},
): Promise<RunRecord> {
  const r = await q.runs.get(runId, opts);
  if (!r) throw new PlatformError("unknown_run", `no run ${runId}`, { run_id: runId });
  return r;
}

/** Runs of a benchmark (optionally of one agent), in start order. */
export function listRuns(
  ctx: PlatformContext,
  slug: string,
  agentId?: string,
  q: Tables = ctx.store,
): Promise<RunRecord[]> {
  return q.runs.ofBenchmark(slug, agentId);
}

/** The run's tasks as served (by ordinal), to the run's owner. @throws PlatformError `unknown_run`, `forbidden` */
export async function runTasks(ctx: PlatformContext, p: Principal, runId: string): Promise<ServedTask[]> {
  const run = await getRun(ctx, runId);
  assertRunOwner(p, run);
  const tasks = await getTasks(ctx, run.slug);
  return run.plan.map((o, i) => ({
    ordinal: i,
    prompt: tasks[o]!.prompt,
    visibility: tasks[o]!.visibility,
    grader_type: tasks[o]!.grader_type,
  }));
}

/** Answers stored for a run (to its owner): ordinal -> answer text. @throws PlatformError `unknown_run`, `forbidden` */
export async function ownRunAnswers(
  ctx: PlatformContext,
  p: Principal,
  runId: string,
): Promise<Map<number, string>> {
  assertRunOwner(p, await getRun(ctx, runId));
  return runAnswers(ctx, runId);
}

/** Answers stored for a run: ordinal -> answer text (store-internal: finalize and the award). */
export function runAnswers(
  ctx: PlatformContext,
  runId: string,
  q: Tables = ctx.store,
): Promise<Map<number, string>> {
  return q.answers.ofRun(runId);
}

/** One submitted answer. */
export interface SubmittedAnswer {
  ordinal: number;
  answer_text: string;
}

/** One refused item of a submitted batch (`details.errors` of `invalid_answers`). */
export interface AnswerIssue {
  index: number;
  ordinal: unknown;
  code: string;
  message: string;
  [k: string]: unknown;
}

/**
 * What is wrong with answer `index` of a batch over `n` tasks, or null when it is good (then its
 * ordinal is added to `seen`: a later item with the same ordinal is `duplicate_ordinal`, in O(1)).
 */
function answerIssue(
  a: unknown,
  index: number,
  n: number,
  maxBytes: number,
  seen: Set<number>,
): AnswerIssue | null {
  if (typeof a !== "object" || a === null || Array.isArray(a))
    return {
      index,
      ordinal: null,
      code: "not_an_object",
      message: "each answer must be {ordinal, answer_text}",
    };
  const { ordinal, answer_text } = a as { ordinal?: unknown; answer_text?: unknown };
  if (typeof ordinal !== "number" || !Number.isSafeInteger(ordinal))
    return { index, ordinal: ordinal ?? null, code: "bad_ordinal", message: "ordinal must be an integer" };
  if (ordinal < 0 || ordinal >= n)
    return {
      index,
      ordinal,
      code: "unknown_ordinal",
      message: `ordinal ${ordinal} is not a task of this run (0..${n - 1}); ordinals of earlier attempts do not carry over`,
    };
  if (seen.has(ordinal))
    return {
      index,
      ordinal,
      code: "duplicate_ordinal",
      message: `ordinal ${ordinal} appears twice in this batch`,
    };
  if (typeof answer_text !== "string")
    return { index, ordinal, code: "not_a_string", message: "answer_text must be a string" };
  if (trimWhiteSpace(answer_text) === "")
    return { index, ordinal, code: "empty_answer", message: "answer_text is empty" };
  const bad = textProblem(answer_text);
  if (bad !== null)
    return {
      index,
      ordinal,
      code: bad,
      field: "answer_text",
      path: `$.answers[${index}].answer_text`,
      message: `answer_text ${TEXT_PROBLEM_TEXT[bad]}`,
    };
  if (answer_text.length > MAX_ANSWER_LENGTH)
    return {
      index,
      ordinal,
      code: "answer_too_long",
      message: `answer_text is longer than ${MAX_ANSWER_LENGTH} characters`,
    };
  const bytes = answerPackBytes(answer_text);
  if (bytes > maxBytes)
    return {
      index,
      ordinal,
      code: "answer_too_large",
      field: "answer_text",
      limit: "max_answer_bytes",
      max_answer_bytes: maxBytes,
      answer_bytes: bytes,
      message: `answer_text takes ${bytes} bytes in canonical JSON (UTF-8; an escaped control character such as \\u000b counts 6), over this benchmark's max_answer_bytes of ${maxBytes}`,
    };
  seen.add(ordinal);
  return null;
}

/**
 * Refuses answers to a benchmark that no longer takes them (closed, awarded, reclaimed): a run left
 * in progress past the close must not change what the award was computed from.
 * @throws PlatformError `benchmark_closed` (`details.rule: "benchmark_closed"`)
 */
function assertTakesAnswers(ctx: PlatformContext, b: BenchmarkRecord, runId: string): void {
  if (!isOpen(ctx, b))
    throw new PlatformError(
      "benchmark_closed",
      `benchmark ${b.slug} is closed: run ${runId} takes no more answers`,
      {
        rule: "benchmark_closed",
        slug: b.slug,
        status: b.status,
        run_id: runId,
      },
    );
}

/**
 * Stores answers (idempotent upserts per ordinal; the whole batch or nothing).
 * A batch holds at most as many answers as the run has tasks (checked before any item is looked at).
 * @returns how many answers the run now holds
 * @throws PlatformError `unknown_run`, `run_not_in_progress`, `benchmark_closed` (the benchmark closed
 *   or was awarded while the run was in progress), `answer_quota_exceeded` (the account's or all
 *   accounts' stored answer bytes, {@link assertAnswerRoom}; nothing stored), `invalid_answers` with `details.field: "answers"`
 *   and `details.limit: "run_tasks"`, `max_answers` when the batch is longer than the run, else with
 *   `details.errors: [{index, ordinal, code}]` (`code`: `not_an_object`, `bad_ordinal`, `unknown_ordinal`,
 *   `duplicate_ordinal`, `not_a_string`, `empty_answer`, `lone_surrogate`, `nul_character`, `answer_too_long` (over `MAX_ANSWER_LENGTH` characters),
 *   `answer_too_large` (over the benchmark's `max_answer_bytes`, pack-budget.ts)) and `details.valid_ordinals`
 */
export async function submitAnswers(
  ctx: PlatformContext,
  p: Principal,
  runId: string,
  answers: unknown,
  how: WriteHow = {},
): Promise<{ run_id: string; accepted: number; answered: number; total: number }> {
  const run = await getRun(ctx, runId);
  assertRunOwner(p, run);
  if (run.status !== "in_progress") {
    throw new PlatformError("run_not_in_progress", `run ${runId} is ${run.status}; start a new attempt`, {
      run_id: runId,
      status: run.status,
    });
  }
  const b = await getBenchmark(ctx, run.slug);
  assertTakesAnswers(ctx, b, runId);
  if (!Array.isArray(answers))
    throw new PlatformError("invalid_answers", "answers must be a list of {ordinal, answer_text}", {
      field: "answers",
    });
  const n = run.plan.length;
  if (answers.length > n)
    throw new PlatformError(
      "invalid_answers",
      `answers holds ${answers.length} items; this run has ${n} tasks, so at most ${n} answers per submit`,
      { field: "answers", path: "$.answers", limit: "run_tasks", max_answers: n, answers: answers.length },
    );
  const maxBytes = await answerAllowanceOf(ctx, b);
  const errors: AnswerIssue[] = [];
  const seen = new Set<number>();
  const good: SubmittedAnswer[] = [];
  answers.forEach((a: unknown, index) => {
    const issue = answerIssue(a, index, n, maxBytes, seen);
    if (issue) errors.push(issue);
    else good.push(a as SubmittedAnswer);
  });
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new PlatformError("invalid_answers", `answers[${first.index}]: ${first.message}`, {
      errors,
      valid_ordinals: { min: 0, max: n - 1 },
    });
  }
  const now = isoMillis(ctx.clock());
  return ctx.store.tx(
    async (t) => {
      // The run's row is locked (PostgreSQL): a finalize in another process waits, or has finished.
      const cur = await getRun(ctx, runId, t, { lock: true });
      if (cur.status !== "in_progress")
        throw new PlatformError("run_not_in_progress", `run ${runId} is ${cur.status}`, {
          run_id: runId,
          status: cur.status,
        });
      assertTakesAnswers(ctx, await getBenchmark(ctx, run.slug, t), runId);
      // the stored-answer quotas (probe14 D1-F20): what the batch adds, over the answers it replaces
      const added =
        good.reduce((n, a) => n + Buffer.byteLength(a.answer_text, "utf8"), 0) -
        (await t.answers.bytesAt(
          runId,
          good.map((a) => a.ordinal),
        ));
      await t.runs.addAnswerBytes(runId, added);
      await t.answers.upsert(
        runId,
        good.map(({ ordinal, answer_text }) => ({ ordinal, answer_text })),
        now,
      );
      const answered = await t.answers.count(runId);
      // last: the counters' rows stay locked until the commit (a refusal rolls the whole batch back)
      await countAnswerBytes(ctx, t, cur.account_id, added);
      return { run_id: runId, accepted: good.length, answered, total: n };
    },
    { locksBy: how.answerBy, account: p.account_id },
  );
}

/**
 * The default bytes of answers the runs of one account (its agents together) may keep stored: 1 GiB
 * (probe14 D1-F20: publish bounds one agent on one benchmark at 128 MiB, but not an account with many
 * agents and benchmarks). `Platform.open({answerBytesPerAccount})` sets another
 * (`serve --answer-bytes-per-account`); null: no bound.
 */
export const DEFAULT_ANSWER_BYTES_PER_ACCOUNT = 1024 * 1024 * 1024;

/**
 * The default bytes of answers the runs of all accounts but the operator's may keep stored together:
 * 32 GiB (probe14 D1-F20). `Platform.open({answerBytesAllAccounts})` sets another
 * (`serve --answer-bytes-all`); null: no bound.
 */
export const DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS = 32 * 1024 * 1024 * 1024;

/**
 * Counts a submit's answer bytes in the stored-answer totals (`answer_bytes_totals`: the account's,
 * then all accounts' but the operator's; probe15 A-F5: O(1), where the sums read every run) and
 * refuses a batch that takes either past its bound (UTF-8 bytes of `answer_text`; a replaced answer's
 * bytes are given back). Inside the submit's transaction: each counter's row stays locked until it
 * ends, so two submits do not both pass a bound, and a refusal rolls back the whole batch (nothing of
 * it stored). The operator's runs are not counted. The counters are kept with or without a bound.
 * @param added the bytes the batch adds (negative when it shrinks what is stored: never refused)
 * @throws PlatformError `answer_quota_exceeded`, `details: {limit: "answer_bytes_per_account" |
 *   "answer_bytes_all_accounts", limit_bytes, used_bytes, answer_bytes}`
 */
async function countAnswerBytes(
  ctx: PlatformContext,
  t: Tables,
  account: string,
  added: number,
): Promise<void> {
  if (added === 0 || isOperatorAccount(account)) return;
  const count = async (
    scope: string,
    limitBytes: number | null,
    limit: string,
    whose: string,
    ask: string,
  ) => {
    const total = await t.answerTotals.add(scope, added);
    if (added > 0 && limitBytes !== null && total > limitBytes) {
      const used = total - added;
      throw new PlatformError(
        "answer_quota_exceeded",
        `answer quota reached: ${whose} may keep ${limitBytes} bytes of answers stored (${limit}); ` +
          `${used} bytes are stored and these answers add ${added} bytes. ${ask}`,
        { limit, limit_bytes: limitBytes, used_bytes: used, answer_bytes: added },
      );
    }
  };
  await count(
    accountScope(account),
    ctx.answerBytesPerAccount,
    "answer_bytes_per_account",
    "the runs of one account",
    "Send shorter answers, or ask the operator",
  );
  await count(
    ALL_ACCOUNTS_SCOPE,
    ctx.answerBytesAllAccounts,
    "answer_bytes_all_accounts",
    "all accounts together",
    "Ask the operator",
  );
}

/** Options of {@link finalizeRun}: the run's resource observations. */
export interface FinalizeOptions {
  /** Paid data queries the agent made (default 0: the free flow). */
  queries_used?: number;
  /** USDC spent, exactly 6 decimals (default "0.000000"). */
  usdc_spent?: string;
  /**
   * Latest moment (unix ms) to wait for the receipt's anchor batch before answering (default: no
   * deadline but the batcher's `revealWaitMs`): the server gives every finalize of one request the
   * same one, so their waits end together within its time limit (probe15 A-F9). The transaction's lock
   * waits end by it too (`WriteHow.answerBy`; probe19 A-F3): past it, `server_busy` with nothing written.
   */
  revealBy?: number;
}

/**
 * Finalizes a run (see the module doc).
 * @throws PlatformError `unknown_run`, `already_finalized`, `benchmark_awarded`, `invalid_option`
 */
export async function finalizeRun(
  ctx: PlatformContext,
  p: Principal,
  runId: string,
  opts: FinalizeOptions = {},
): Promise<FinalizeResult> {
  const owned = await getRun(ctx, runId);
  assertRunOwner(p, owned);
  const slug = owned.slug; // read once: the transaction reads the run again, locked
  const queries = opts.queries_used ?? 0;
  const spent = opts.usdc_spent ?? "0.000000";
  if (!Number.isSafeInteger(queries) || queries < 0)
    throw new PlatformError("invalid_option", "queries_used must be an integer >= 0", {
      field: "queries_used",
    });
  if (!/^(0|[1-9][0-9]*)\.[0-9]{6}$/.test(spent))
    throw new PlatformError("invalid_option", "usdc_spent must have exactly 6 decimals", {
      field: "usdc_spent",
    });
  const tasks = await getTasks(ctx, slug);
  const done = await ctx.store.tx(
    async (t) => {
      // Lock order: the benchmark, then the run (the award's preparation locks the benchmark too, so a
      // finalize either commits before the award ranks the runs or sees the award and is refused).
      const b = await getBenchmark(ctx, slug, t, { lock: true });
      const run = await getRun(ctx, runId, t, { lock: true });
      if (run.status !== "in_progress")
        throw new PlatformError("already_finalized", `run ${runId} is already finalized`, {
          run_id: runId,
          receipt_hash: shownDigest(run.receipt_hash, await withheldDigests(t, [run.receipt_hash])),
        });
      if (b.status === "awarded" || (await t.awards.get(slug)) !== null) {
        throw new PlatformError(
          "benchmark_awarded",
          `benchmark ${slug} is awarded; late runs are not scored`,
          {
            slug,
          },
        );
      }
      const answers = await runAnswers(ctx, runId, t);
      const scored = scoreRun(ctx, b, run, tasks, answers, { queries, spent });
      await t.runs.finalize(runId, {
        finalized_at_ms: scored.finalizedMs,
        answer_salt: scored.salt,
        receipt_json: scored.receiptJson,
        receipt_hash: scored.hash,
        rank_accuracy: scored.accuracyValue,
        score_public: scored.publicScore,
        score_composite: scored.compositeScore,
        score_composite_public: scored.compositePublic,
        wall_seconds: scored.wall,
        queries_used: queries,
        usdc_spent: spent,
      });
      if (ctx.chain) await t.anchors.addPending(scored.hash, "receipt", slug, isoMillis(scored.finalizedMs));
      await t.benchmarks.bumpBoard(slug);
      ctx.faults.finalizeBeforeCommit?.(runId);
      const used = await t.runs.attempts(slug, run.agent_id);
      return { ...scored, run, b, used };
    },
    { locksBy: opts.revealBy, account: p.account_id },
  );
  let anchor: AnchorEvidence | null = null;
  let anchorError: string | undefined;
  if (ctx.chain && ctx.receiptAnchoring === "batch") {
    // Batched: the receipt waits for the batcher's next anchorMany (within its flush interval); the
    // answer waits for it too, since the hash is shown only once anchored (reveal.ts)
    if (ctx.anchorBatcher) {
      ctx.anchorBatcher.notify();
      anchor = await ctx.anchorBatcher.anchored(done.hash, opts.revealBy);
    }
  } else if (ctx.chain && (await mayAnchorNow(ctx, p, done.finalizedMs))) {
    try {
      [anchor] = (await anchorDigests(ctx, [done.hash], "receipt")) as [AnchorEvidence];
    } catch (e) {
      // A chain failure leaves the anchor pending (reported here; `anchor` and the award retry it); a
      // squat (the hash anchored first by someone else with another kind) is reported the same way.
      if (!(e instanceof PlatformError && (e.code === "chain_error" || e.code === "anchor_squatted")))
        throw e;
      anchorError = e.message;
    }
  }
  const withheld = await withheldDigests(ctx.store, [done.hash], [done.b]);
  return finalizeResult(done, p, {
    queries,
    spent,
    anchor,
    anchorError,
    shown: shownDigest(done.hash, withheld),
    anchorState: withheld.stateOf(done.hash),
    receiptShown: receiptRevealed(done.hash, done.b.commit_root, withheld),
  });
}

/**
 * Finalizes of one account that anchor their receipt at once (`receiptAnchoring: "immediate"`): one
 * operator transaction each (probe10 R13). Past `count` within `periodMs` the receipt is left pending,
 * as a failed immediate anchor is: the next `anchor <slug>` or the award anchors it (nothing is lost).
 */
export interface ImmediateAnchorQuota {
  /** Finalizes per period that anchor at once (an integer >= 1). */
  count: number;
  /** The period, in ms. */
  periodMs: number;
  /**
   * Finalizes per period by all accounts but the operator's together that anchor at once (an integer
   * >= 1; absent: no bound for all accounts). Probe11 O4: the per-account count times free accounts.
   */
  allAccountsCount?: number;
}

/**
 * The default {@link ImmediateAnchorQuota}: 20 immediate anchors per account and 200 for all accounts
 * together per 24 hours.
 */
export const DEFAULT_IMMEDIATE_ANCHOR_QUOTA: ImmediateAnchorQuota = {
  count: 20,
  periodMs: 24 * 3600 * 1000,
  allAccountsCount: 200,
};

/**
 * Whether a finalize (committed, at `finalizedMs`) may send its immediate anchor: the account's runs
 * finalized within the period, this one included, are at most the quota's count. Counted after the
 * commit, so concurrent finalizes each see the others: never more than `count` immediate anchors.
 */
async function mayAnchorNow(ctx: PlatformContext, p: Principal, finalizedMs: number): Promise<boolean> {
  const quota = ctx.immediateAnchorQuota;
  if (quota === null || isOperatorAccount(p.account_id)) return true;
  const since = finalizedMs - quota.periodMs + 1;
  if ((await ctx.store.runs.finalizedSince(p.account_id, since)) > quota.count) return false;
  // all accounts but the operator's together (probe11 O4), counted the same way
  if (quota.allAccountsCount === undefined) return true;
  return (await ctx.store.runs.finalizedSinceAll(OPERATOR_ACCOUNT_ID, since)) <= quota.allAccountsCount;
}

/**
 * Grades a run and builds its receipt (pure: the finalize transaction stores the result). The wall
 * clock runs from start to now in milliseconds; credits stay out of the receipt while the benchmark is open.
 */
function scoreRun(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  run: RunRecord,
  tasks: TaskRecord[],
  answers: Map<number, string>,
  o: { queries: number; spent: string },
) {
  const { queries, spent } = o;
  const runId = run.run_id;
  const open = isOpen(ctx, b);
  const graded = gradePlan(run.plan, tasks, answers);
  const finalizedMs = Math.max(ctx.clock(), run.started_at_ms);
  const wall = wallSeconds(finalizedMs - run.started_at_ms);
  const { accuracyValue, publicScore, compositeScore, compositePublic } = scoreGraded(b, graded, wall, spent);
  const salt =
    ctx.answerSaltSeed !== null
      ? keccak256Hex(`bench-bounty.answer-salt:${ctx.answerSaltSeed}:${runId}`).slice(2)
      : Buffer.from(ctx.randomBytes(32)).toString("hex");
  const receipt = buildReceipt({
    run_id: runId,
    benchmark_slug: run.slug,
    commit_root: b.commit_root,
    agent_id: run.agent_id,
    attempt: run.attempt,
    started_at: isoMillis(run.started_at_ms),
    finalized_at: isoMillis(finalizedMs),
    wall_seconds: wall,
    queries_used: queries,
    usdc_spent: spent,
    score_public: publicScore,
    score_composite: compositeScore,
    answer_salt: salt,
    tasks: graded.map((g) => ({
      bank_ordinal: g.bankOrdinal,
      prompt_hash: g.t.prompt_hash,
      visibility: g.t.visibility,
      answer_text: g.answer,
      credit: open ? null : g.credit,
    })),
  });
  const { text: receiptJson, hash } = receiptTextAndHash(receipt); // stored as is: serialised once
  return {
    open,
    graded,
    receipt,
    receiptJson,
    hash,
    accuracyValue,
    publicScore,
    compositeScore,
    compositePublic,
    wall,
    finalizedMs,
    salt,
  };
}

/** Everything the finalize transaction computed. */
interface FinalizedRun {
  run: RunRecord;
  b: BenchmarkRecord;
  open: boolean;
  graded: GradedPlanTask[];
  receipt: Receipt;
  hash: Hex;
  accuracyValue: string;
  publicScore: string;
  compositeScore: string;
  compositePublic: string;
  wall: string;
  used: number;
}

/** The finalize response, shaped by SPEC 6.1 and the seed's step 6 (see {@link FinalizeResult}). */
function finalizeResult(
  done: FinalizedRun,
  p: Principal,
  o: {
    queries: number;
    spent: string;
    anchor: AnchorEvidence | null;
    anchorError?: string;
    /** The receipt hash, or null while it is withheld (reveal.ts). */
    shown: Hex | null;
    /** Where the receipt hash's anchor stands (reveal.ts). */
    anchorState: AnchorState;
    /** Whether the receipt may be shown (`receiptRevealed`, reveal.ts). */
    receiptShown: boolean;
  },
): FinalizeResult {
  const { queries, spent, anchor } = o;
  const remaining = Math.max(0, done.b.config.max_attempts - done.used);
  const result: FinalizeResult = {
    run_id: done.run.run_id,
    status: "finalized",
    attempt: done.run.attempt,
    attempts_used: done.used,
    attempts_remaining: remaining,
    score_public: done.publicScore,
    score_composite_public: done.compositePublic,
    wall_seconds: done.wall,
    queries_used: queries,
    usdc_spent: spent,
    counts: {
      tasks: done.graded.length,
      answered: done.graded.filter((g) => g.answer !== null).length,
      public: done.graded.filter((g) => g.t.visibility === "public").length,
      private: done.graded.filter((g) => g.t.visibility === "private").length,
    },
    receipt_hash: o.shown,
    receipt_anchor: anchor,
    receipt_anchor_status: o.anchorState,
    ...(o.anchorError !== undefined ? { receipt_anchor_error: o.anchorError } : {}),
  };
  const privateOk = privateFiguresVisible(p, done.b, done.open);
  if (privateOk) {
    result.score_composite = done.compositeScore;
    result.rank_accuracy = done.accuracyValue;
  }
  if (receiptsVisible(p, done.b, done.open) && o.receiptShown) result.receipt = done.receipt;
  const seesAll = !done.open || isAuthorOf(p, done.b);
  if (remaining === 0 || seesAll) {
    // Public correctness once the attempts are used up; private correctness only once closed (or to the author).
    result.per_task = done.graded
      .map((g, i) => ({ ordinal: i, visibility: g.t.visibility, credit: g.credit }))
      .filter((x) => x.visibility === "public" || seesAll);
  }
  return result;
}

/**
 * A run as served to `viewer` (SPEC 6.1). The run's owner, the benchmark's author and the operator may
 * read it; private figures and the receipt follow {@link privateFiguresVisible} / {@link receiptsVisible}.
 * @throws PlatformError `unknown_run`, `forbidden` (`run_owner_only`)
 */
export async function runView(ctx: PlatformContext, viewer: Principal, runId: string): Promise<RunView> {
  const run = await getRun(ctx, runId);
  const b = await getBenchmark(ctx, run.slug);
  if (run.account_id !== viewer.account_id && !isAuthorOf(viewer, b) && !isOperator(viewer))
    assertRunOwner(viewer, run);
  return toView(ctx, viewer, run, b, await withheldDigests(ctx.store, [run.receipt_hash], [b]), run.receipt);
}

/**
 * A run as served to `viewer`. `receipt`: the one-run view passes the run's receipt (null before
 * finalize) and carries it where {@link receiptsVisible} allows it; a list of runs passes none and never
 * carries one (probe16 A-F7: a page of 1,000 closed runs carried every receipt, ~1.7 GB), only
 * `receipt_hash` and `receipt_anchor_status`.
 */
function toView(
  ctx: PlatformContext,
  viewer: Principal | null,
  run: RunSummary,
  b: BenchmarkRecord,
  withheld: Withheld,
  receipt?: Receipt | null,
): RunView {
  const hash = shownDigest(run.receipt_hash, withheld);
  const open = isOpen(ctx, b);
  const view: RunView = {
    run_id: run.run_id,
    benchmark: run.slug,
    agent_id: run.agent_id,
    attempt: run.attempt,
    status: run.status,
    started_at: isoMillis(run.started_at_ms),
    finalized_at: run.finalized_at_ms === null ? null : isoMillis(run.finalized_at_ms),
    task_count: run.plan.length,
    score_public: run.score_public,
    score_composite_public: run.score_composite_public,
    wall_seconds: run.wall_seconds,
    queries_used: run.queries_used,
    receipt_hash: hash,
    receipt_anchor_status: run.receipt_hash === null ? null : withheld.stateOf(run.receipt_hash),
  };
  if (privateFiguresVisible(viewer, b, open)) {
    view.score_composite = run.score_composite;
    view.rank_accuracy = run.rank_accuracy;
  }
  if (receipt !== undefined && receiptsVisible(viewer, b, open))
    view.receipt = receiptRevealed(run.receipt_hash, b.commit_root, withheld) ? receipt : null;
  return view;
}

/** Runs per page of the caller's runs when the caller names no `limit` (REST and MCP). */
export const RUNS_PAGE_SIZE = 100;
/** Largest `limit` of one page of the caller's runs (a RunView is about 330 bytes: a page is at most ~330 KB). */
export const RUNS_PAGE_MAX = 1000;

/** One page of the caller's runs: {@link RunView}s `offset .. offset + limit - 1`, newest first. */
export interface RunsPage {
  runs: RunView[];
  offset: number;
  limit: number;
  /** The offset of the next page, null on the last one. */
  next_offset: number | null;
}

/**
 * The caller's runs across all benchmarks, newest first (then by run id), one page (default the first
 * {@link RUNS_PAGE_SIZE}; seed: `GET /benchmarks/runs/mine`, probe15 A-F8: it was every run at once).
 * @throws PlatformError `invalid_option` naming `offset` or `limit` (`limit` at most {@link RUNS_PAGE_MAX})
 */
export async function myRuns(
  ctx: PlatformContext,
  p: Principal,
  page: { offset: unknown; limit: unknown } = { offset: 0, limit: RUNS_PAGE_SIZE },
): Promise<RunsPage> {
  const asked = checkPage(page, RUNS_PAGE_MAX);
  const read = await ctx.store.runs.ofAccount(p.account_id, { offset: asked.offset, limit: asked.limit + 1 });
  const { rows: runs, next_offset } = pageOfRows(read, asked);
  const benches = new Map<string, BenchmarkRecord>();
  const views: RunView[] = [];
  for (const r of runs) if (!benches.has(r.slug)) benches.set(r.slug, await getBenchmark(ctx, r.slug));
  const withheld = await withheldDigests(
    ctx.store,
    runs.map((r) => r.receipt_hash),
    [...benches.values()],
  );
  for (const r of runs) {
    views.push(toView(ctx, p, r, benches.get(r.slug)!, withheld));
  }
  return { runs: views, offset: asked.offset, limit: asked.limit, next_offset };
}

/**
 * A finalized run's receipt (SPEC 6.1: only once the benchmark is closed, or to its author).
 * @throws PlatformError `unknown_run` unless the run is a finalized run of `slug`;
 *   `receipt_withheld` (`details.reason` `withheld_live_contest`) while the benchmark is open,
 *   (`anchor_pending`) while its hash is not anchored yet (`reveal.ts`), and
 *   (`details.reason` `buyer_only`, no hash) to anyone but the author of a `buyer_only` benchmark
 */
export async function receiptOf(
  ctx: PlatformContext,
  viewer: Principal | null,
  slug: string,
  runId: string,
): Promise<{ receipt: Receipt; receipt_hash: Hex }> {
  const run = await getRun(ctx, runId);
  if (run.slug !== slug || run.status !== "finalized" || !run.receipt)
    throw new PlatformError("unknown_run", "no finalized run with this id on this benchmark", {
      run_id: runId,
    });
  const b = await getBenchmark(ctx, slug);
  if (buyerOnlyHides(viewer, b))
    throw new PlatformError(
      "receipt_withheld",
      `receipts of ${slug} are served to its author only (leaderboard_visibility buyer_only)`,
      { reason: "buyer_only", run_id: runId },
    );
  const withheld = await withheldDigests(ctx.store, [run.receipt_hash], [b]);
  const hash = shownDigest(run.receipt_hash, withheld);
  if (!receiptsVisible(viewer, b, isOpen(ctx, b)))
    throw new PlatformError(
      "receipt_withheld",
      `receipts of ${slug} are served once it closes (SPEC 6.1)${hash ? "; its hash is anchored already" : ""}`,
      { reason: "withheld_live_contest", run_id: runId, receipt_hash: hash },
    );
  if (!receiptRevealed(run.receipt_hash, b.commit_root, withheld)) {
    const squatted = [run.receipt_hash!, b.commit_root].find((d) => withheld.squatOf(d) !== null);
    if (squatted !== undefined)
      throw new PlatformError(
        "receipt_withheld",
        `the receipt of run ${runId} is never served: its ${squatted === b.commit_root ? "benchmark's root" : "hash"} was anchored first by someone else with another kind (squatted)`,
        { reason: "anchor_squatted", run_id: runId, ...squatFacts(withheld.squatOf(squatted)!) },
      );
    throw new PlatformError(
      "receipt_withheld",
      `the receipt of run ${runId} is served once its hash and its benchmark's root are anchored (an anchor is pending)`,
      { reason: "anchor_pending", run_id: runId },
    );
  }
  return { receipt: run.receipt, receipt_hash: run.receipt_hash! };
}

/**
 * Anchors every pending digest of a kind for a benchmark with one `anchorMany` (or `anchor` for one)
 * and records the evidence. For receipts, the receipts of runs finalized while the store had no chain
 * (`receipt_anchor_status: "off_chain"`: no pending row) are queued first, so `anchor` and the award
 * anchor them once a chain is configured (probe12 P2: a bounty attached later could never be awarded).
 * @returns evidence by digest (the newly anchored ones)
 * @throws PlatformError `no_chain`, `chain_error`
 */
export async function anchorPending(
  ctx: PlatformContext,
  slug: string,
  kind: "receipt" | "commitment" | "pack",
): Promise<Record<string, AnchorEvidence>> {
  if (!ctx.chain) throw new PlatformError("no_chain", "no chain configured", {});
  if (kind === "receipt") await queueOffChainReceipts(ctx, slug);
  const digests = (await ctx.store.anchors.pending(slug, kind)).map((r) => r.digest);
  const evs = await anchorDigests(ctx, digests, kind);
  return Object.fromEntries(digests.map((d, i) => [d, evs[i]!]));
}

/** What {@link anchorBenchmark} did: the digests pending before, what it anchored, what is left. */
export interface BenchmarkAnchoring {
  pending: PendingAnchor[];
  /** The commitment's anchor, or null when it is squatted. */
  commitment: AnchorEvidence | null;
  /** The receipts anchored now, by hash (empty when a squat was found among them: see `still_pending`). */
  receipts: Record<string, AnchorEvidence>;
  still_pending: PendingAnchor[];
  squatted: SquattedAnchor[];
}

/**
 * Anchors what is pending for a benchmark (`bench-bounty anchor SLUG`): its commitment, then its
 * receipts (one `anchorMany`). A squat does not stop the rest (probe15 A-F6): a commitment known to
 * be squatted is not sent again, and a squat found now is recorded and named in `squatted`, the
 * receipts still anchored.
 * @throws PlatformError `unknown_benchmark`, `no_chain`, `chain_error`
 */
export async function anchorBenchmark(ctx: PlatformContext, slug: string): Promise<BenchmarkAnchoring> {
  const pending = await pendingAnchors(ctx, slug);
  const squatFree = async <T>(fallback: T, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } catch (e) {
      if (!(e instanceof PlatformError && e.code === "anchor_squatted")) throw e;
      return fallback; // recorded: listed in `squatted` below
    }
  };
  const rootSquatted = (await squattedAnchors(ctx, slug)).some((a) => a.kind === "commitment");
  const commitment = rootSquatted ? null : await squatFree(null, () => anchorCommitment(ctx, slug));
  const receipts = await squatFree({}, () => anchorPending(ctx, slug, "receipt"));
  return {
    pending,
    commitment,
    receipts,
    still_pending: await pendingAnchors(ctx, slug),
    squatted: await squattedAnchors(ctx, slug),
  };
}

/** Queues (as pending) the receipt of every finalized run of a benchmark that has no anchor row yet. */
async function queueOffChainReceipts(ctx: PlatformContext, slug: string): Promise<void> {
  const at = isoMillis(ctx.clock());
  for (const r of await listRuns(ctx, slug))
    if (r.status === "finalized" && r.receipt_hash && !(await anchorOf(ctx, r.receipt_hash)))
      await ctx.store.anchors.addPending(r.receipt_hash, "receipt", slug, at);
}

/** A digest waiting to be anchored (a chain outage, batched anchoring): `anchor` retries these. */
export interface PendingAnchor {
  digest: Hex;
  kind: "commitment" | "receipt" | "pack";
  created_at: string;
}

/** The digests of a benchmark still waiting for their anchor, oldest first (issue 13 item 9). */
export async function pendingAnchors(ctx: PlatformContext, slug: string): Promise<PendingAnchor[]> {
  await getBenchmark(ctx, slug);
  return ctx.store.anchors.pending(slug);
}

/** A digest of a benchmark someone else anchored first with another kind: pending forever, never sent again. */
export interface SquattedAnchor extends SquatFacts {
  digest: Hex;
  /** The kind it was meant to be anchored with. */
  kind: "commitment" | "receipt" | "pack";
}

/**
 * The squatted digests of a benchmark, oldest first (probe15 B-F10: `pendingAnchors` no longer lists
 * them, and the award is refused while one is a ranked receipt or the commitment).
 * @throws PlatformError `unknown_benchmark`
 */
export async function squattedAnchors(ctx: PlatformContext, slug: string): Promise<SquattedAnchor[]> {
  await getBenchmark(ctx, slug);
  return (await ctx.store.anchors.squatted(slug)).map((r) => ({
    digest: r.digest,
    kind: r.kind,
    ...squatFacts(r.squat),
  }));
}

/** The recorded anchor of a digest, or null when pending or unknown. */
export function anchorOf(
  ctx: PlatformContext,
  digest: string,
  q: Tables = ctx.store,
): Promise<AnchorEvidence | null> {
  return q.anchors.evidence(digest);
}
