/**
 * Starting a run (seed "Compete on Benchmarks", step 4; SPEC 4): one run in progress per agent and
 * benchmark (`run_in_progress`), at most `max_attempts` attempts (`max_attempts_reached`), only while
 * the benchmark is open (`benchmark_closed`); an agent that can win has a withdrawal address first.
 */
import { squattedError } from "../chain.js";
import type { BenchmarkRecord, PlatformContext, WriteHow } from "../context.js";
import { PlatformError } from "../errors.js";
import type { Tables } from "../store.js";
import { isUniqueViolation } from "../store/executor.js";
import { closingChainTime, closureOf, getBenchmark, getTasks } from "../publish.js";
import { assertAgentOwner, assertMayOwnAgents } from "../identity/access.js";
import { assertKeyActive } from "../identity/key-check.js";
import { type Principal } from "../identity/principal.js";
import {
  assertRoomForAccountOnBenchmark,
  checkAgentId,
  checkAgentRegistration,
  inheritedWithdrawalAddress,
  isAuthorAgent,
  paysBountyAuthor,
  writeAgent,
  type AgentSettings,
} from "../agents.js";
import { maxRankedRows, packByteLimit } from "../pack-budget.js";
import { isoMillis } from "../time.js";
import { runIdOf, runPlan } from "./plan.js";
import { type ServedTask } from "./record.js";
import { countStoredBytes, runStartBytes } from "./submit.js";

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

const CLOCK_NOTE =
  "Wall clock starts now and stops at finalize. Faster runs score higher: the composite blends accuracy with pace via speed_weight.";

/** What a run start's checks read of its agent (known, or about to be registered). */
interface StartingAgent {
  agent_id: string;
  owner_account_id: string;
  is_author_agent: boolean;
  withdrawal_address: string | null;
}

/**
 * The one place of the invariant "a row that can be a winner has a withdrawal address" (SPEC 1 `award`:
 * a winner without one blocks the whole award; probe11 O1: an account whose start named an unseen agent
 * ranked address-less and `award` refused everyone). On a service with a chain (any benchmark may get a
 * bounty, even after its runs started) a run of an agent that can win (not the benchmark author's,
 * SPEC 7.2) does not start without a withdrawal address; once set an address can only be replaced,
 * never cleared (`checkAgentRegistration`). Refused at start rather than at finalize: a competitor learns
 * it before doing any work, and nothing is left behind (a new agent is not registered). A store no
 * process opened with a chain never awards, so its runs need none; a store marked with a chain
 * (`meta.anchoring_chain_id`) is awarded there whatever this process has, so a chainless process on
 * it applies the rule too (probe30 A-F8: a start through a chainless `serve` on a shared database ranked
 * an address-less winner, and its award was refused for everyone).
 * @param awardable the store may be awarded: this process has a chain, or the store is marked with one ({@link storeAwardable})
 * @throws PlatformError `withdrawal_address_required` naming the field, the agent and how to set it
 */
function assertPayable(awardable: boolean, b: BenchmarkRecord, agent: StartingAgent): void {
  if (!awardable || agent.withdrawal_address || isAuthorAgent(agent, b.author_account_id)) return;
  throw new PlatformError(
    "withdrawal_address_required",
    `withdrawal_address: agent ${agent.agent_id} has none, and a winner without one would block the whole award; set it first (through a server: REST PUT /api/v1/accounts/me/withdrawal-address or MCP set_withdrawal_address; on a local store: bench-bounty run --withdrawal-address ADDR without --server, or bench-bounty agent ID --withdrawal-address ADDR), then start`,
    { field: "withdrawal_address", path: "$.withdrawal_address", agent_id: agent.agent_id },
  );
}

/**
 * A run on a benchmark with a bounty does not start for an agent that would pay the bounty's author
 * (`paysBountyAuthor`, SPEC 7.2; probe34 C-F1: a second account's agent with the author's wallet as its
 * withdrawal address was ranked and paid as a competitor), unless it is the author's own agent (it ranks
 * and takes no money anyway). Refused at start, before any work; an award still ranks such an agent's
 * rows as author agents (a bounty attached after its runs started, `mintRunsToPrepare`).
 * @throws PlatformError `invalid_withdrawal_address` (`details.reason: "bounty_author"`, `field`,
 *   `path`, `agent_id`, `bounty_author`)
 */
function assertNotPayingAuthor(b: BenchmarkRecord, agent: StartingAgent): void {
  if (!paysBountyAuthor(agent.withdrawal_address, b.bounty) || isAuthorAgent(agent, b.author_account_id))
    return;
  throw new PlatformError(
    "invalid_withdrawal_address",
    `withdrawal_address: agent ${agent.agent_id} pays ${b.bounty!.author.toLowerCase()}, the address that locked the bounty of ${b.slug}: the author's own wallet takes no prize (SPEC 7.2, author agents rank but take no money); set another withdrawal address for this agent, then start`,
    {
      field: "withdrawal_address",
      path: "$.withdrawal_address",
      reason: "bounty_author",
      agent_id: agent.agent_id,
      bounty_author: b.bounty!.author.toLowerCase(),
    },
  );
}

/**
 * Whether runs on this store may be awarded, so that a competitor's run needs a withdrawal address
 * ({@link assertPayable}; the detail's `withdrawal_address_required`): this process has a chain, or some
 * process marked the store with one (`meta.anchoring_chain_id`).
 */
export async function storeAwardable(ctx: PlatformContext): Promise<boolean> {
  return ctx.chain !== null || (await ctx.store.anchors.anchoringChainId()) !== null;
}

/**
 * Starts a run for an agent (registering the agent on first sight, with the address of the account's
 * default agent, `inheritedWithdrawalAddress`).
 * @throws PlatformError `invalid_option` (`agent_id` not of the agent-id rule), `unknown_benchmark`, `benchmark_closed` (its status,
 *   or its bounty's `closes_at` reached by the wall clock or the chain's: `details.closed_by`, `closes_at`, `chain_time`),
 *   `chain_error` (the chain's clock could not be read for a benchmark with a bounty: nothing stored), `anchor_squatted` (its commitment was
 *   anchored first by someone else with another kind: its award can never verify, probe15 A-F6),
 *   `withdrawal_address_required`
 *   ({@link assertPayable}), `invalid_withdrawal_address` (`reason: "bounty_author"`: the agent pays the
 *   bounty's author, {@link assertNotPayingAuthor}), `run_in_progress`, `max_attempts_reached`, `benchmark_full` (a new agent beyond what the award pack can rank), `agent_quota_exceeded`
 *   (`agents_per_account`, or `agents_per_account_per_benchmark`: a new agent of an account that has
 *   that many agents on the benchmark already, `AgentQuota`), `answer_quota_exceeded` (the run's plan
 *   and receipt reserve, `runStartBytes`, would take the account's or all accounts' stored bytes past
 *   their bound, `countStoredBytes`; nothing stored, no attempt used)
 * @throws PlatformError `forbidden` (`details.rule: "known_key"`) when the calling key was revoked before
 *   the write (`assertKeyActive`, checked in its transaction: probe39 A-F2); nothing written
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
  // checked before the agent is registered: a refused start leaves nothing behind; the chain's clock
  // read now (probe33 A-F2: a run started after the on-chain close was ranked and paid)
  const closure = closureOf(ctx, b, await closingChainTime(ctx, b, "write"));
  if (closure !== null)
    throw new PlatformError(
      "benchmark_closed",
      `benchmark ${slug} is closed to new runs: ${closure.reason}`,
      { slug, ...closure.details, closed_by: closure.closed_by },
    );
  if (b.commitment_anchor === null) {
    const squat = await ctx.store.anchors.squatOf(b.commit_root);
    if (squat !== null) throw squattedError(b.commit_root, "commitment", squat);
  }
  const known = await ctx.store.agents.get(agentId);
  const awardable = await storeAwardable(ctx);
  let newAgent: AgentSettings | null = null;
  if (known) {
    assertAgentOwner(p, known);
    assertPayable(awardable, b, known);
    assertNotPayingAuthor(b, known);
  } else {
    assertMayOwnAgents(p);
    // a new agent takes the address of the account's default agent (as `POST /accounts/me/agents` does;
    // never the first by id, probe38 A-F1)
    const inherited = await inheritedWithdrawalAddress(ctx, p);
    const fresh = {
      agent_id: agentId,
      owner_account_id: p.account_id,
      is_author_agent: false,
      withdrawal_address: inherited,
    };
    assertPayable(awardable, b, fresh);
    assertNotPayingAuthor(b, fresh);
    await assertRoomForAgent(ctx, ctx.store, slug); // again in the transaction below
    await assertRoomForAccountOnBenchmark(ctx, ctx.store, slug, p.account_id); // likewise
    newAgent = checkAgentRegistration(ctx, p, agentId, inherited ? { withdrawal_address: inherited } : {});
  }
  const tasks = await getTasks(ctx, slug);
  // run ids are keyed with the store's secret (probe29 A-F9): written once, read outside the transaction
  const idKey = await ctx.store.datasets.idKey(Buffer.from(ctx.randomBytes(32)).toString("hex"));
  const started = await ctx.store.tx(
    async (t) => {
      await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
      // a new agent is registered in the run's transaction: a start refused (or busy) leaves no agent
      if (newAgent !== null) assertAgentOwner(p, await writeAgent(ctx, t, p, agentId, newAgent));
      // The agent's row is locked (PostgreSQL) so two processes starting its runs take turns; the
      // partial unique index (one run in progress per agent) decides any race left. The row read under
      // the lock is checked again: a concurrent change of is_author_agent (which takes the same lock,
      // `writeAgent`) either committed before, and is seen here, or waits and then sees this run.
      const locked = await t.agents.get(agentId, { lock: true });
      if (locked !== null) {
        assertAgentOwner(p, locked);
        assertPayable(awardable, b, locked);
        assertNotPayingAuthor(b, locked);
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
      const runId = runIdOf(idKey, slug, agentId, attempt);
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
      // last: the plan and the receipt's reserve count in the stored-answer quotas (probe28 A-F4), so a
      // refused start stores nothing and the finalize never fails on a quota
      await countStoredBytes(
        ctx,
        t,
        { run_id: runId, account_id: p.account_id },
        runStartBytes(plan),
        "run_start",
      );
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
    `agent ${agentId} already has run ${runId} in progress; finish it first (answer its tasks, then finalize it)`,
    { run_id: runId },
  );
}
