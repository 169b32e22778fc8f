/**
 * INTERIM adapter: the {@link Domain} port over today's synchronous `Platform` plus the in-memory
 * {@link InterimIdentity}. Replaced on merge by the platform's async API with principals and owner
 * checks (branch `h/platform`, commit `[platform-api]`): every owner check below (`ownRun`,
 * `ownDataset`, `requireOperator`, `requireAccount`) and the receipts-after-close rule then move to
 * the platform, and this file shrinks to calls.
 */
import { GRADER_TYPES, type JsonValue } from "@bench-bounty/evidence";
import { PlatformError, toJsonValue, type BenchmarkRecord, type Platform } from "@bench-bounty/platform";
import type { AccountView, AwardEvidence, Domain, Principal, Registration } from "../domain.js";
import { InterimIdentity, refuse } from "./identity.js";

/** Options of {@link platformDomain}. */
export interface PlatformDomainOptions {
  /** The operator's API key (from the environment), or null: nobody may award. */
  operatorKey: string | null;
}

/** Base units (6 decimals) as a plain decimal USDC string: `50000000` -> `50`, `12500000` -> `12.5`. */
export function usdcOf(baseUnits: string): string {
  const n = BigInt(baseUnits);
  const whole = n / 1_000_000n;
  const frac = (n % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : `${whole}`;
}

function json(v: unknown): JsonValue {
  return toJsonValue(JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x))));
}

/** The edge's Domain over a Platform (interim; see the file comment). */
export function platformDomain(platform: Platform, opts: PlatformDomainOptions): Domain {
  const id = new InterimIdentity(opts.operatorKey);
  const now = () => new Date(platform.ctx.clock()).toISOString();

  const requireAccount = (p: Principal): string => {
    if (p.kind === "account") return p.account_id;
    if (p.kind === "operator")
      throw refuse("forbidden", "the operator key holds no account: use an account's key", {
        rule: "account_required",
      });
    throw refuse("unauthenticated", "an API key is required (X-API-Key or Authorization: Bearer)", {
      rule: "key_required",
    });
  };
  const requireOperator = (p: Principal): void => {
    if (p.kind === "operator") return;
    requireAccount(p);
    throw refuse("forbidden", "only the operator may do this", { rule: "operator_only" });
  };
  const view = (accountId: string): AccountView => {
    const a = id.account(accountId);
    const agents = a.agents.map((agent_id) => ({
      agent_id,
      is_author_agent: platform.getAgent(agent_id)?.is_author_agent ?? false,
    }));
    const first = a.agents[0];
    return {
      account_id: a.account_id,
      name: a.name,
      withdrawal_address: first ? (platform.getAgent(first)?.withdrawal_address ?? null) : null,
      agents,
      key_prefixes: [...a.key_prefixes],
      created_at: a.created_at,
    };
  };
  const ownRun = (p: Principal, runId: string) => {
    const accountId = requireAccount(p);
    const run = platform.getRun(runId);
    if (id.ownerOfAgent(run.agent_id) !== accountId)
      throw refuse("forbidden", "this run belongs to another API key", {
        rule: "run_owner_only",
        run_id: runId,
      });
    return run;
  };
  const authorOf = (b: BenchmarkRecord) => id.ownerOfDataset(b.dataset_id);
  const ownDataset = (p: Principal, datasetId: string) => {
    const accountId = requireAccount(p);
    platform.getDataset(datasetId);
    if (id.ownerOfDataset(datasetId) !== accountId)
      throw refuse("forbidden", "this dataset belongs to another account", {
        rule: "dataset_owner_only",
        dataset_id: datasetId,
      });
    return accountId;
  };
  const summary = (b: BenchmarkRecord) => ({
    slug: b.slug,
    title: b.title,
    status: b.status,
    open: platform.isOpen(b.slug),
    public_tasks: b.public_count,
    private_tasks: b.private_count,
    prize_pool_usdc: b.bounty ? usdcOf(b.bounty.pool_base_units) : null,
    prize: b.bounty ? `${usdcOf(b.bounty.pool_base_units)} USDC` : "--",
    bounty_status: b.bounty?.status ?? null,
    prize_closes_at: b.bounty?.closes_at ?? null,
    prize_contract: b.bounty?.bounty_contract ?? null,
  });
  /** "locked at 0x..." only when this read checked the pool on-chain. */
  const verifiedPrize = async (b: BenchmarkRecord): Promise<string> => {
    const bounty = b.bounty;
    if (!bounty) return "--";
    const declared = `${usdcOf(bounty.pool_base_units)} USDC`;
    if (!platform.chain) return declared;
    const onChain = await platform.chain.getBounty(BigInt(bounty.bounty_id));
    const ok =
      onChain.status === 2 &&
      onChain.pool.toString() === bounty.pool_base_units &&
      onChain.token.toLowerCase() === bounty.token &&
      onChain.author.toLowerCase() === bounty.author;
    return ok ? `${declared}, locked at ${bounty.bounty_contract}` : declared;
  };

  const detail = async (slug: string): Promise<JsonValue> => {
    const b = platform.getBenchmark(slug);
    return json({
      ...summary(b),
      prize: await verifiedPrize(b),
      created_at: b.created_at,
      max_attempts: b.config.max_attempts,
      public_tasks_per_run: b.config.public_tasks_per_run,
      grader_type: b.config.grader_type,
      speed_weight: b.config.speed_weight,
      cost_weight: b.config.cost_weight,
      time_budget_seconds: b.config.time_budget_seconds,
      time_budget_minutes: b.config.time_budget_seconds / 60,
      cost_budget_usdc: b.config.cost_budget_usdc,
      leaderboard_visibility: "public",
      commitment: { commit_root: b.commit_root, leaf_count: b.leaf_count, anchor: b.commitment_anchor },
      bounty: b.bounty,
      grader_types: GRADER_TYPES,
      rooms: [],
    });
  };

  return {
    async authenticate(apiKey) {
      const r = id.resolve(apiKey);
      if (r === null) return null;
      return r === "operator" ? { kind: "operator" } : { kind: "account", account_id: r };
    },
    async register(input): Promise<Registration> {
      const name = input.name ?? "agent";
      const { account, api_key } = id.create(name, now());
      const agentId = input.agent_id ?? account.account_id;
      id.claimAgent(account.account_id, agentId, platform.getAgent(agentId) !== null);
      platform.registerAgent(agentId, { withdrawal_address: input.withdrawal_address ?? null });
      return { account: view(account.account_id), api_key };
    },
    async me(p) {
      return view(requireAccount(p));
    },
    async setWithdrawalAddress(p, address) {
      const accountId = requireAccount(p);
      for (const agentId of id.account(accountId).agents)
        platform.registerAgent(agentId, { withdrawal_address: address });
      return view(accountId);
    },
    async registerAgent(p, input) {
      const accountId = requireAccount(p);
      id.claimAgent(accountId, input.agent_id, platform.getAgent(input.agent_id) !== null);
      const first = id.account(accountId).agents[0]!;
      platform.registerAgent(input.agent_id, {
        withdrawal_address: platform.getAgent(first)?.withdrawal_address ?? null,
        is_author_agent: input.is_author_agent ?? false,
      });
      return view(accountId);
    },

    async listBenchmarks() {
      return json({ benchmarks: platform.listBenchmarks().map(summary) });
    },
    benchmarkDetail: (_p, slug) => detail(slug),
    async corpus(p, slug) {
      requireAccount(p);
      platform.getBenchmark(slug);
      return json({
        slug,
        documents: [],
        note: "This benchmark was published from a dataset: its tasks are answered from the prompt text alone.",
      });
    },
    async leaderboard(_p, slug) {
      return json({ ...platform.leaderboard(slug), leaderboard_visibility: "public", leaderboard_visible: true });
    },
    async commitment(_p, slug) {
      const b = platform.getBenchmark(slug);
      return json({ slug, commit_root: b.commit_root, leaf_count: b.leaf_count, commitment_anchor: b.commitment_anchor });
    },
    async receipt(_p, slug, runId) {
      const run = platform.getRun(runId);
      if (run.slug !== slug || run.status !== "finalized" || !run.receipt)
        throw new PlatformError("unknown_run", "no finalized run with this id on this benchmark", { run_id: runId });
      if (platform.isOpen(slug))
        throw refuse("receipts_withheld", "receipts are served once the benchmark has closed (SPEC 6.1)", {
          slug,
        });
      return json({ receipt: run.receipt, receipt_hash: run.receipt_hash });
    },
    async awardEvidence(slug): Promise<AwardEvidence> {
      return platform.awardEvidence(slug);
    },

    async startRun(p, slug, input) {
      const accountId = requireAccount(p);
      const agents = id.account(accountId).agents;
      const agentId = input.agent_id ?? agents[0]!;
      if (!agents.includes(agentId))
        throw refuse("forbidden", `agent ${agentId} belongs to another account`, {
          rule: "agent_owner_only",
          agent_id: agentId,
        });
      return json(platform.startRun(slug, agentId));
    },
    async submit(p, runId, answers) {
      ownRun(p, runId);
      return json(platform.submit(runId, answers));
    },
    async finalize(p, runId) {
      ownRun(p, runId);
      return json(await platform.finalize(runId));
    },
    async getRun(p, runId) {
      const run = ownRun(p, runId);
      const answers = platform.runAnswers(runId);
      return json({
        run_id: run.run_id,
        slug: run.slug,
        agent_id: run.agent_id,
        attempt: run.attempt,
        status: run.status,
        tasks: platform.runTasks(runId),
        answered_ordinals: [...answers.keys()].sort((a, b) => a - b),
      });
    },
    async runsMine(p) {
      const accountId = requireAccount(p);
      const agents = id.account(accountId).agents;
      const runs = platform
        .listBenchmarks()
        .flatMap((b) => agents.flatMap((a) => platform.listRuns(b.slug, a)))
        .map((r) => ({
          run_id: r.run_id,
          slug: r.slug,
          agent_id: r.agent_id,
          attempt: r.attempt,
          status: r.status,
          started_at: new Date(r.started_at_ms).toISOString(),
          finalized_at: r.finalized_at_ms === null ? null : new Date(r.finalized_at_ms).toISOString(),
        }));
      return json({ runs });
    },

    async validateDataset(_p, input) {
      return json(platform.validateDataset(input));
    },
    async datasetFormats() {
      return json(DATASET_FORMATS);
    },
    async createDataset(p, input) {
      const accountId = requireAccount(p);
      const ds = platform.createDataset(input as never);
      id.setDatasetOwner(ds.dataset_id, accountId);
      if (id.ownerOfDataset(ds.dataset_id) !== accountId)
        throw refuse("forbidden", "an identical dataset belongs to another account", {
          rule: "dataset_owner_only",
          dataset_id: ds.dataset_id,
        });
      return json(ds);
    },
    async publish(p, datasetId, options) {
      ownDataset(p, datasetId);
      const result = await platform.publish(datasetId, options as never);
      return json({ ...((await detail(result.slug)) as object), ...result });
    },
    async attachBounty(p, slug, input) {
      const accountId = requireAccount(p);
      const b = platform.getBenchmark(slug);
      if (authorOf(b) !== accountId)
        throw refuse("forbidden", "only the benchmark's author may attach its bounty", {
          rule: "author_only",
          slug,
        });
      return json(await platform.attachBounty(slug, input.bounty_id));
    },
    async award(p, slug) {
      requireOperator(p);
      return json(await platform.award(slug));
    },
  };
}

/** `GET /datasets/formats`: the row schema and a worked example (seed "Publish a Benchmark from Your Data"). */
const DATASET_FORMATS = {
  row_schema: {
    decision_ts: "ISO-8601 instant: YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS[.fff]] with Z or +-HH:MM",
    payload: "non-empty JSON object: what the prompt shows",
    label: "any non-null JSON value: what the gold is shaped from",
    knowable_at: "optional {payload_field: instant}, each at or before decision_ts",
  },
  options: {
    name: "required, non-empty",
    description: "optional text",
    label_policy: "optional text",
    sanitize: "boolean: NFC, control characters removed, trimmed",
    bucket_fields: "{payload_field: minute|hour|day|month}",
    time_bound_fields: "[payload_field]: each needs a knowable_at entry",
  },
  graders: GRADER_TYPES,
  examples: [
    {
      name: "eth-tip5m-2026-09",
      label_policy: "tip5m_clv+resolve",
      sanitize: true,
      bucket_fields: { bar_ts: "hour" },
      time_bound_fields: ["price"],
      rows: [
        {
          decision_ts: "2026-09-01T00:00:00Z",
          payload: { symbol: "ETH", price: "3000.5", bar_ts: "2026-09-01T00:00:00Z" },
          label: { tip5m_bps: 12 },
          knowable_at: { price: "2026-08-31T23:59:00Z" },
        },
      ],
    },
  ],
};
