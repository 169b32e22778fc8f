/**
 * Agents (issue 13 item 5, issue 15 item 2): an account registers its agents and alone changes them.
 * `withdrawal_address` (SPEC 7: where the award credits a winner) is set by the owner only, must be a
 * valid address (mixed case only with a correct EIP-55 checksum), and is refused when it is the zero
 * address, a precompile (0x1-0x1ff), an OP-stack predeploy (0x4200...0000-0x4200...07ff) or one of the
 * platform's own contracts (the bounty contract, the anchor registry, the token):
 * credit sent there could never be claimed.
 */
import {
  addressForm,
  PROTOCOL_CONTRACTS,
  recipientCodeProblem,
  recipientProblem,
} from "@bench-bounty/contracts";
import { paysAuthor } from "@bench-bounty/evidence";
import type { PlatformContext, WriteHow } from "./context.js";
import { PlatformError } from "./errors.js";
import { assertAgentOwner, assertMayOwnAgents } from "./identity/access.js";
import { assertKeyActive } from "./identity/key-check.js";
import { isOperatorAccount, OPERATOR_ACCOUNT_ID, type Principal } from "./identity/principal.js";
import type { Tables } from "./store.js";
import { isoMillis } from "./time.js";
import { foldName } from "./store/accounts.js";
import { fromStored } from "./json.js";
import { awardMayStillPay } from "./award/recovery.js";

/**
 * The agents one account may hold (probe10 R9: free accounts registered agents without bound and
 * each first start took a row of a benchmark's `max_ranked_agents`, so a few accounts filled a prize
 * benchmark and locked every newcomer out).
 */
export interface AgentQuota {
  /** Agents one account may register (an integer >= 1). */
  perAccount: number;
  /** Distinct agents of one account that may start runs on one benchmark (an integer >= 1). */
  perBenchmark: number;
}

/** The default {@link AgentQuota}: 20 agents per account, 3 of them per benchmark. */
export const DEFAULT_AGENT_QUOTA: AgentQuota = { perAccount: 20, perBenchmark: 3 };

/**
 * Refuses a new agent of an account that holds {@link AgentQuota.perAccount} agents already.
 * @throws PlatformError `agent_quota_exceeded`, `details: {limit: "agents_per_account", max_agents}`
 */
async function assertRoomForAccountAgent(ctx: PlatformContext, t: Tables, accountId: string): Promise<void> {
  const quota = ctx.agentQuota;
  if (quota === null) return;
  const held = await t.agents.countOfAccount(accountId);
  if (held >= quota.perAccount)
    throw new PlatformError(
      "agent_quota_exceeded",
      `agent quota reached: an account may register ${quota.perAccount} agents (agents_per_account); reuse one of yours`,
      { limit: "agents_per_account", max_agents: quota.perAccount },
    );
}

/**
 * Refuses the first run of one more agent of an account on a benchmark where
 * {@link AgentQuota.perBenchmark} of its agents have runs already (the caller holds the benchmark's
 * new-agents lock, `RunsTable.lockNewAgents`, inside a transaction, or checks early outside one).
 * @throws PlatformError `agent_quota_exceeded`, `details: {limit: "agents_per_account_per_benchmark",
 *   slug, max_agents}`
 */
export async function assertRoomForAccountOnBenchmark(
  ctx: PlatformContext,
  t: Tables,
  slug: string,
  accountId: string,
): Promise<void> {
  const quota = ctx.agentQuota;
  if (quota === null) return;
  const held = await t.runs.agentCountOfAccount(slug, accountId);
  if (held >= quota.perBenchmark)
    throw new PlatformError(
      "agent_quota_exceeded",
      `agent quota reached: ${quota.perBenchmark} agents of one account may run on a benchmark (agents_per_account_per_benchmark); start one of your agents already on ${slug}`,
      { limit: "agents_per_account_per_benchmark", slug, max_agents: quota.perBenchmark },
    );
}

/**
 * The rule of account names and agent ids (one namespace, see `store/accounts.ts`): 1-64 ASCII
 * characters, letters, digits, `.`, `_`, `-`, the first a letter or digit. {@link NAME_RULE} states it in
 * every refusal (probeD1 F15: the message left out the first character's rule).
 */
export const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** {@link NAME_RE} in words, for refusals and help texts. */
export const NAME_RULE = "1-64 characters: letters, digits, '.', '_', '-', starting with a letter or digit";

/** Agent ids: {@link NAME_RE}. */
export const AGENT_ID_RE = NAME_RE;

/**
 * Names no account and no agent may take (one namespace), compared without regard to case: the
 * operator account's name (`operator`, the store's built-in account, which registers no agents) and
 * `platform`; and the account-id form, {@link RESERVED_NAME_PREFIX}, which `acct_operator`, the
 * operator's account id, has. So no board row can pose as the operator or as an account id (probe30
 * A-F11: `operator` was refused as "another account's agent", while `acct_operator` and `platform` were
 * anyone's).
 */
export const RESERVED_NAMES = ["operator", "platform"] as const;

/** The prefix of account ids (`acct_...`, {@link OPERATOR_ACCOUNT_ID} among them): reserved for names too. */
export const RESERVED_NAME_PREFIX = "acct_";

/** The prefix of API keys (`bbk_<12 hex>_<secret>`): no name may begin with it ({@link assertNameNotReserved}). */
export const KEY_NAME_PREFIX = "bbk_";

/**
 * The reserved-name rule ({@link RESERVED_NAMES}, {@link RESERVED_NAME_PREFIX}, {@link KEY_NAME_PREFIX}) of a new account's `name`
 * or a registered agent's `agent_id` (an id matching {@link NAME_RE}).
 * @throws PlatformError `invalid_option` naming the field (`details.field`, `details.reason: "reserved"`, or
 *   `"key_form"` for a name beginning `bbk_`, not echoed)
 */
export function assertNameNotReserved(name: string, field: "name" | "agent_id"): void {
  const folded = foldName(name);
  // the API key form: a name is public (the agent_id on every board), so a key pasted as one would be
  // published (probe37 V-N2); refused without echoing it
  if (folded.startsWith(KEY_NAME_PREFIX))
    throw new PlatformError(
      "invalid_option",
      `${field} begins with ${KEY_NAME_PREFIX}, the form of an API key: a name is public (the agent_id on every leaderboard), never paste a key into it; choose another (the text given is not shown)`,
      { field, reason: "key_form" },
    );
  if (!(RESERVED_NAMES as readonly string[]).includes(folded) && !folded.startsWith(RESERVED_NAME_PREFIX))
    return;
  throw new PlatformError(
    "invalid_option",
    `${field} ${name} is reserved: ${RESERVED_NAMES.join(", ")} and names beginning with ${RESERVED_NAME_PREFIX} (the form of account ids, ${OPERATOR_ACCOUNT_ID} among them) name the platform's own; choose another`,
    { field, reason: "reserved", reserved: [...RESERVED_NAMES, `${RESERVED_NAME_PREFIX}*`] },
  );
}

/** An agent registration. */
export interface AgentRecord {
  agent_id: string;
  /** The account that registered it (the only one that may change it or run it). */
  owner_account_id: string;
  /** Lowercase address credited by the award, or null (a winner without one blocks the award). */
  withdrawal_address: string | null;
  /** Author agents rank but take no money (SPEC 7.2). */
  is_author_agent: boolean;
}

/** What an owner may set on an agent. */
export interface AgentSettings {
  withdrawal_address?: string | null;
  is_author_agent?: boolean;
}

/**
 * The agent-id rule ({@link AGENT_ID_RE}), for a registration and for a run's start (probe17 A-F4: a
 * start's `agent_id` holding U+0000 reached the store and was refused there without naming the field).
 * @throws PlatformError `invalid_option` (`details.field: "agent_id"`)
 */
export function checkAgentId(agentId: unknown): asserts agentId is string {
  if (typeof agentId !== "string" || !AGENT_ID_RE.test(agentId))
    throw new PlatformError("invalid_option", `agent_id must be ${NAME_RULE}`, {
      field: "agent_id",
    });
}

/**
 * The contract addresses (lowercase) that may never receive credit: the configured chain's contracts
 * and {@link PROTOCOL_CONTRACTS}.
 */
export function knownContracts(ctx: PlatformContext): string[] {
  const c = ctx.chain?.config.contracts;
  const configured = c
    ? [c.benchmarkBounty, c.anchorRegistry, c.usdc]
        .filter((a): a is `0x${string}` => !!a)
        .map((a) => a.toLowerCase())
    : [];
  return [...new Set([...configured, ...PROTOCOL_CONTRACTS])];
}

/**
 * Checks an address credit is paid to (an agent's withdrawal address, a relayed claim's `to`);
 * returns it lowercase (the form the pack uses). Its form: {@link addressForm}.
 * @param field the input's name for it, named in the refusal (`withdrawal_address`, `to`)
 * @throws PlatformError `invalid_withdrawal_address` (`details.field` the field, `details.path`
 *   `$.<field>`, `details.reason` `not_an_address` | `bad_checksum` | `zero_address` | `precompile`
 *   (0x1-0x1ff) | `predeploy` (the OP-stack range 0x4200...0000-0x4200...07ff) | `platform_contract`)
 */
export function checkWithdrawalAddress(
  ctx: PlatformContext,
  addr: unknown,
  field: string = "withdrawal_address",
): string {
  const refuse = (reason: string, message: string): never => {
    throw new PlatformError("invalid_withdrawal_address", `${field}: ${message}`, {
      field,
      path: `$.${field}`,
      reason,
    });
  };
  const form = typeof addr === "string" ? addressForm(addr) : "not_an_address";
  if (typeof addr !== "string" || form === "not_an_address")
    return refuse("not_an_address", "must be a 0x address of 40 hex digits");
  if (form === "bad_checksum")
    return refuse("bad_checksum", "mixed-case address with a wrong EIP-55 checksum (check for a typo)");
  const problem = recipientProblem(addr, knownContracts(ctx));
  if (problem !== null) return refuse(problem.reason, problem.message);
  return addr.toLowerCase();
}

/**
 * {@link checkWithdrawalAddress}, then, with a chain configured, the code the address runs
 * (`recipientCodeProblem` of @bench-bounty/contracts): a BenchmarkBounty or an AnchorRegistry deployed
 * at any other address is refused, as USDC paid there is lost for good (probe26 C-F7). A smart-contract
 * wallet (any other code) is allowed. Without a chain only the address rule applies, on a store no
 * process opened with a chain; a store marked with a chain (`meta.anchoring_chain_id`, probe26 A-F5) is
 * paid on that chain, so a process without one cannot judge the address and refuses it (`no_chain`,
 * `details.reason: "chain_marked"`, nothing written: probe29 C-F8, a chainless CLI set an address running
 * BenchmarkBounty's code). With a chain whose RPC fails the address is refused (`chain_error`: nothing is
 * written, try again).
 * @returns the address lowercase
 * @throws PlatformError `invalid_withdrawal_address` (`details.reason` `platform_contract` for such code,
 *   or {@link checkWithdrawalAddress}'s), `chain_error` (the code could not be read), `no_chain` (a
 *   chain-marked store and no chain here: `details.chain_id`, `field`, `path`)
 */
export async function checkWithdrawalAddressOnChain(
  ctx: PlatformContext,
  addr: unknown,
  field: string = "withdrawal_address",
): Promise<string> {
  const lower = checkWithdrawalAddress(ctx, addr, field);
  if (ctx.chain === null) {
    // never guessed harmless: the store's payouts are on the chain it is marked with (probe29 C-F8)
    const marked = await ctx.store.anchors.anchoringChainId();
    if (marked === null) return lower;
    throw new PlatformError(
      "no_chain",
      `${field}: this store is used on chain ${marked} (a process with a chain opened it), and this process has no chain, so the code that ${lower} runs cannot be checked: nothing was written; pass --rpc-url (with the contracts) to set it, or set it through a serve with the chain (the service's main address)`,
      { field, path: `$.${field}`, reason: "chain_marked", chain_id: marked },
    );
  }
  // a chain that cannot be read refuses the address (chain_error, nothing written): a money path never
  // guesses that code it could not read is harmless (the review of probe26 C-F7)
  const code = await ctx.chain.codeAt(lower as `0x${string}`);
  const problem = recipientCodeProblem(lower, code);
  if (problem !== null)
    throw new PlatformError("invalid_withdrawal_address", `${field}: ${problem.message}`, {
      field,
      path: `$.${field}`,
      reason: problem.reason,
    });
  return lower;
}

/**
 * Checks an agent registration before anything is written: the agent id, the caller, the address.
 * @returns the settings to store (the address lowercase)
 * @throws PlatformError `invalid_option` (agent id: its form, or a reserved name,
 *   {@link assertNameNotReserved}), `invalid_withdrawal_address`, `forbidden` (`operator_owns_no_agents`)
 */
export function checkAgentRegistration(
  ctx: PlatformContext,
  p: Principal,
  agentId: unknown,
  settings: AgentSettings = {},
): AgentSettings {
  checkAgentId(agentId);
  // the operator owns no agent whatever its id (403 first: its own name "operator" is a reserved one)
  assertMayOwnAgents(p);
  assertNameNotReserved(agentId, "agent_id");
  // null is "none given", never written: a set address is replaced, never cleared (a ranked agent
  // clearing it would block the whole award, probe11 O1)
  const addr =
    settings.withdrawal_address === undefined || settings.withdrawal_address === null
      ? undefined
      : checkWithdrawalAddress(ctx, settings.withdrawal_address);
  return {
    ...(addr !== undefined ? { withdrawal_address: addr } : {}),
    ...(settings.is_author_agent !== undefined ? { is_author_agent: settings.is_author_agent } : {}),
  };
}

/**
 * Writes a checked agent registration inside the caller's transaction `t`: the name is locked
 * ({@link AccountsTable.lockName}), so "is it another account's name?" and the insert are one step
 * against a concurrent account creation of that name. Names and ids are compared without regard to
 * case (`foldName`): `Alice` is another account's `alice`.
 * A new agent past the account's {@link AgentQuota.perAccount} is refused.
 * @throws PlatformError `forbidden` (`agent_owner_only`) for another account's agent or name (in any
 *   case); `invalid_option` (`agent_id`) for an id that differs only in case from the caller's own agent;
 *   `agent_quota_exceeded` (`agents_per_account`); `is_author_agent_locked` for a change of
 *   `is_author_agent` once the agent has any run (probe12 P1); `award_in_progress` ({@link updateAgent},
 *   past the awards of `settled`)
 */
export async function writeAgent(
  ctx: PlatformContext,
  t: Tables,
  p: Principal,
  agentId: string,
  checked: AgentSettings,
  settled: ReadonlySet<string> = NONE_SETTLED,
): Promise<AgentRecord> {
  await t.accounts.lockName(agentId);
  const named = await t.accounts.idByName(agentId);
  if (named !== null) assertAgentOwner(p, { agent_id: agentId, owner_account_id: named });
  const twin = await t.agents.getFolded(agentId);
  if (twin !== null && twin.agent_id !== agentId) {
    assertAgentOwner(p, twin);
    throw new PlatformError(
      "invalid_option",
      `agent_id ${agentId} differs only in case from your agent ${twin.agent_id}: ids are compared without regard to case`,
      { field: "agent_id", existing: twin.agent_id },
    );
  }
  if (twin === null) {
    // a new agent: the account's agents take turns (PostgreSQL), so the count and the insert are one decision
    await t.agents.lockAccountAgents(p.account_id);
    await assertRoomForAccountAgent(ctx, t, p.account_id);
  }
  const stored = await t.agents.insertIfAbsent(
    { agent_id: agentId, owner_account_id: p.account_id, withdrawal_address: null, is_author_agent: false },
    isoMillis(ctx.clock()),
  );
  assertAgentOwner(p, stored);
  // the row is locked (PostgreSQL) before "has it runs?": a run start takes the same lock and checks
  // the flag again under it (`startRun`), so a flip and a first run never both pass
  const current = (await t.agents.get(agentId, { lock: true })) ?? stored;
  if (
    checked.is_author_agent !== undefined &&
    checked.is_author_agent !== current.is_author_agent &&
    (await t.runs.anyOfAgent(agentId))
  ) {
    // probe12 P1: an author agent starts without an address (it takes no money); flipped back to a
    // competitor after ranking, it would block the whole award (winner_without_withdrawal_address)
    throw new PlatformError(
      "is_author_agent_locked",
      `agent ${agentId} has runs already: its is_author_agent (${String(current.is_author_agent)}) cannot change any more; register a new agent id instead`,
      { field: "is_author_agent", agent_id: agentId, is_author_agent: current.is_author_agent },
    );
  }
  return updateAgent(t, p, current, checked, settled);
}

/** No award found settled on-chain (the default of {@link updateAgent}: every in-flight award locks). */
const NONE_SETTLED: ReadonlySet<string> = new Set();

/**
 * Updates the caller's agent `agent` (its row read in `t`) with `fields`, the one place an agent's
 * settings change. A withdrawal address is never changed under an award that may still pay it and is
 * not confirmed yet (prepared or sent: the transaction pays the address frozen at preparation, probe21
 * A-F11): the row is written first (locked on PostgreSQL, as the award's preparation reads it), then
 * the in-flight awards are read, so a change either lands before the preparation or is refused. The
 * awards of `settled` (slugs the chain showed can never pay any more, `awardMayStillPay`; read outside
 * the transaction by {@link pastSettledAwards}) no longer lock (probe24 C-F1).
 * @throws PlatformError `award_in_progress` (`details.reason: "award_in_flight"`, the award's `slug`,
 *   the `agent_id`, the address it pays): nothing written; `invalid_withdrawal_address`
 *   (`reason: "bounty_author"`: the address locked the bounty of a benchmark the agent has runs on,
 *   {@link paysBountyAuthor})
 */
export async function updateAgent(
  t: Tables,
  p: Principal,
  agent: AgentRecord,
  fields: { withdrawal_address?: string | null; is_author_agent?: boolean },
  settled: ReadonlySet<string> = NONE_SETTLED,
): Promise<AgentRecord> {
  const written = (await t.agents.update(agent.agent_id, p.account_id, fields))!;
  if (
    fields.withdrawal_address !== undefined &&
    fields.withdrawal_address !== null &&
    fields.withdrawal_address !== agent.withdrawal_address
  )
    await assertNotPayingAuthorOfItsBenchmarks(t, agent, fields.withdrawal_address);
  if (fields.withdrawal_address !== undefined && fields.withdrawal_address !== agent.withdrawal_address)
    for (const award of await t.awards.inFlight()) {
      if (settled.has(award.slug)) continue;
      const paid = fromStored<{ agent_id: string; withdrawal_address: string }[]>(award.winners_json).find(
        (w) => w.agent_id === agent.agent_id,
      );
      if (paid)
        throw new PlatformError(
          "award_in_progress",
          `agent ${agent.agent_id} is a winner of the award of ${award.slug}, ${award.status} and not confirmed yet: it pays ${paid.withdrawal_address}; change the withdrawal address once that award is confirmed, or once the chain shows it can no longer be sent (its bounty reclaimed or awarded otherwise, or its award deadline passed)`,
          {
            reason: "award_in_flight",
            field: "withdrawal_address",
            slug: award.slug,
            agent_id: agent.agent_id,
            withdrawal_address: paid.withdrawal_address,
          },
        );
    }
  return written;
}

/**
 * A withdrawal address is not set on an agent with runs on a benchmark whose bounty was locked by that
 * address (`paysBountyAuthor`, SPEC 7.2; probe34 C-F1), unless the agent is that benchmark's author's
 * own (it takes no money there anyway). Read in the caller's transaction `t`.
 * @throws PlatformError `invalid_withdrawal_address` (`details.reason: "bounty_author"`, `field`, `path`,
 *   `agent_id`, the benchmark's `slug`, `bounty_author`)
 */
async function assertNotPayingAuthorOfItsBenchmarks(
  t: Tables,
  agent: AgentRecord,
  address: string,
): Promise<void> {
  for (const slug of await t.runs.slugsOfAgent(agent.agent_id)) {
    const b = await t.benchmarks.get(slug);
    if (b === null || !paysBountyAuthor(address, b.bounty) || isAuthorAgent(agent, b.author_account_id))
      continue;
    throw new PlatformError(
      "invalid_withdrawal_address",
      `withdrawal_address: ${address.toLowerCase()} locked the bounty of ${slug}, where agent ${agent.agent_id} has runs: the author's own wallet takes no prize (SPEC 7.2, author agents rank but take no money); nothing was written`,
      {
        field: "withdrawal_address",
        path: "$.withdrawal_address",
        reason: "bounty_author",
        agent_id: agent.agent_id,
        slug,
        bounty_author: b.bounty!.author.toLowerCase(),
      },
    );
  }
}

/**
 * Runs `write`, a transaction changing agents' settings given the awards found settled, and when it is
 * refused `award_in_progress` (`award_in_flight`) asks the chain, outside the transaction (no store lock
 * held across an RPC read), whether that award may still pay (`awardMayStillPay`, probe24 C-F1). One that
 * never can is settled for good (a bounty's final state never changes back), so `write` runs again past
 * it; one that still may, or a chain that cannot be read (never guessed), keeps the refusal.
 * @throws PlatformError those of `write`; `award_in_progress` as {@link updateAgent}
 */
export async function pastSettledAwards<T>(
  ctx: PlatformContext,
  write: (settled: ReadonlySet<string>) => Promise<T>,
): Promise<T> {
  const settled = new Set<string>();
  for (;;) {
    try {
      return await write(settled);
    } catch (e) {
      const slug =
        e instanceof PlatformError && e.code === "award_in_progress" && e.details.reason === "award_in_flight"
          ? String(e.details.slug)
          : null;
      if (slug === null || settled.has(slug)) throw e;
      // a chain that cannot be read, or a process configured with another chain or contract than the
      // award's bounty (`bounty_mismatch`, the operator's problem: review of probe26 C-F5), tells nothing:
      // the award may still pay, the refusal stands (never guessed)
      const mayPay = await awardMayStillPay(ctx, slug).catch((c: unknown) => {
        if (c instanceof PlatformError && (c.code === "chain_error" || c.code === "bounty_mismatch"))
          return true;
        throw c;
      });
      if (mayPay) throw e;
      settled.add(slug);
    }
  }
}

/**
 * Registers an agent for the caller's account, or updates the caller's own agent, in one transaction
 * (everything is checked first). An agent id that is another account's name is that account's (its
 * default agent: account names and agent ids share one namespace, `identity/accounts.ts`).
 * @throws PlatformError `invalid_option` (agent id), `invalid_withdrawal_address`, `forbidden`
 *   (`agent_owner_only` for another account's agent or name, `operator_owns_no_agents` for the operator),
 *   `agent_quota_exceeded` (`agents_per_account`, {@link AgentQuota}), `is_author_agent_locked` (a
 *   change of `is_author_agent` once the agent has any run)
 * @throws PlatformError `forbidden` (`details.rule: "known_key"`) when the calling key was revoked before
 *   the write (`assertKeyActive`, checked in its transaction: probe39 A-F2); nothing written
 */
export async function registerAgent(
  ctx: PlatformContext,
  p: Principal,
  agentId: string,
  settings: AgentSettings = {},
  how: WriteHow = {},
): Promise<AgentRecord> {
  const checked = checkAgentRegistration(ctx, p, agentId, settings);
  if (checked.withdrawal_address !== undefined)
    await checkWithdrawalAddressOnChain(ctx, checked.withdrawal_address);
  return pastSettledAwards(ctx, (settled) =>
    ctx.store.tx(
      async (t) => {
        await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
        return writeAgent(ctx, t, p, agentId, checked, settled);
      },
      { locksBy: how.answerBy, account: p.account_id },
    ),
  );
}

/**
 * Sets the withdrawal address of the caller's agent; `how.answerBy` bounds its lock waits ({@link WriteHow}).
 * @throws PlatformError `unknown_agent`, `forbidden` (`agent_owner_only`), `invalid_withdrawal_address`,
 *   `award_in_progress` (a winner of an award not confirmed yet, {@link updateAgent}), `server_busy` (past
 *   `how.answerBy`: nothing written)
 * @throws PlatformError `forbidden` (`details.rule: "known_key"`) when the calling key was revoked before
 *   the write (`assertKeyActive`, checked in its transaction: probe39 A-F2); nothing written
 */
export async function setWithdrawalAddress(
  ctx: PlatformContext,
  p: Principal,
  agentId: string,
  address: string,
  how: WriteHow = {},
): Promise<AgentRecord> {
  const agent = await requireAgent(ctx, agentId);
  assertAgentOwner(p, agent);
  const lower = await checkWithdrawalAddressOnChain(ctx, address);
  return pastSettledAwards(ctx, (settled) =>
    ctx.store.tx(
      async (t) => {
        await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
        return updateAgent(
          t,
          p,
          (await t.agents.get(agentId)) ?? agent,
          { withdrawal_address: lower },
          settled,
        );
      },
      { locksBy: how.answerBy, account: p.account_id },
    ),
  );
}

/** An agent. @throws PlatformError `unknown_agent` */
export async function requireAgent(ctx: PlatformContext, agentId: string): Promise<AgentRecord> {
  const a = await ctx.store.agents.get(agentId);
  if (!a) throw new PlatformError("unknown_agent", `no agent ${agentId}`, { agent_id: agentId });
  return a;
}

/** An agent, or null. */
export function getAgent(ctx: PlatformContext, agentId: string): Promise<AgentRecord | null> {
  return ctx.store.agents.get(agentId);
}

/** The caller's agents. */
export function myAgents(ctx: PlatformContext, p: Principal): Promise<AgentRecord[]> {
  return ctx.store.agents.ofAccount(p.account_id);
}

/**
 * The default agent of an account among `agents` (its agents): the one whose id is the account's
 * name `accountName` (compared without regard to case, `foldName`: agent ids are unique so, at most one
 * matches), or null when it has none (an account registered with another `agent_id`, an old store).
 * The one place of that rule: the agent a run starts for when none is named ({@link defaultRunAgent}),
 * the account view's `withdrawal_address`, and the address a newly registered agent inherits all read
 * it, never the first agent by id (probe38 A-F1: an agent `aaa-x` registered by account `x` took its
 * bodyless starts).
 */
export function defaultAgentOf(accountName: string, agents: readonly AgentRecord[]): AgentRecord | null {
  const folded = foldName(accountName);
  return (
    agents.find((a) => a.agent_id === accountName) ??
    agents.find((a) => foldName(a.agent_id) === folded) ??
    null
  );
}

/**
 * The account's withdrawal address (the account view's, and what a new agent of the account inherits): its
 * default agent's ({@link defaultAgentOf}); for an account without one (registered with another `agent_id`),
 * the address every agent of the account holds when they all hold the same one (what `PUT
 * /accounts/me/withdrawal-address` sets: probe38 V-F3, its own answer said null and a later agent inherited
 * nothing), else null.
 * @param accountName the account's name (its default agent's id)
 * @param agents the account's agents
 */
export function accountWithdrawalAddress(accountName: string, agents: readonly AgentRecord[]): string | null {
  const own = defaultAgentOf(accountName, agents);
  if (own !== null) return own.withdrawal_address;
  const addresses = new Set(agents.map((a) => a.withdrawal_address));
  return addresses.size === 1 ? ([...addresses][0] ?? null) : null;
}

/**
 * The withdrawal address a new agent of the caller's account inherits: the account's
 * ({@link accountWithdrawalAddress}), or null.
 */
export async function inheritedWithdrawalAddress(ctx: PlatformContext, p: Principal): Promise<string | null> {
  const account = await ctx.store.accounts.get(p.account_id);
  if (account === null) return null;
  return accountWithdrawalAddress(account.name, await ctx.store.agents.ofAccount(p.account_id));
}

/**
 * The agent a run of the caller starts for when the start names none (REST `POST /benchmarks/:slug/runs`
 * without `agent_id`, MCP `benchmark_start_run` without it): the account's default agent
 * ({@link defaultAgentOf}); an account without agents, its name (the start registers its default agent).
 * @returns the agent id
 * @throws PlatformError `unknown_account`; `invalid_option` naming `agent_id` (`details.reason:
 *   "no_default_agent"`, `details.agents` the account's agent ids) when the account has agents but none
 *   named after it: which of them is meant is not guessed
 */
export async function defaultRunAgent(ctx: PlatformContext, p: Principal): Promise<string> {
  const account = await ctx.store.accounts.get(p.account_id);
  if (account === null) throw new PlatformError("unknown_account", `no account ${p.account_id}`, {});
  const agents = await ctx.store.agents.ofAccount(p.account_id);
  if (agents.length === 0) return account.name;
  const found = defaultAgentOf(account.name, agents);
  if (found !== null) return found.agent_id;
  const ids = agents.map((a) => a.agent_id);
  throw new PlatformError(
    "invalid_option",
    `agent_id is required: account ${account.name} has no default agent (an agent whose id is the account's name), so which of its agents (${ids.join(", ")}) starts the run is not guessed; name one with agent_id, or register the agent ${account.name}`,
    { field: "agent_id", reason: "no_default_agent", agents: ids },
  );
}

/**
 * SPEC 7.2 "author agents rank but take no money": an author agent is one of the benchmark's author,
 * so an agent is the author's on a benchmark exactly when its owner is that benchmark's author account
 * (the author knows the gold: an agent of theirs is never eligible, whatever its flag says). The
 * owner's `is_author_agent` flag counts only on the owner's own benchmarks, where this holds anyway: on
 * another account's benchmark it makes nobody an author agent (probe29 A-F2: any account flagged its
 * agent and was served as an "author agent" on every other author's board). One exception: a
 * benchmark the operator published (the keyless local CLI, `isOperatorAccount`), whose author owns
 * no agents (`operator_owns_no_agents`): there the flag stands for the author's own agent, as
 * `bench-bounty run --author` sets it. The one place of this rule: the leaderboard, the award
 * (eligibility, `only_author_agents`), the pack and the run start's withdrawal-address check read it.
 * @param agent the agent's flag and owner account, or null (no agent: false)
 * @param authorAccountId the benchmark's `author_account_id`
 */
export function isAuthorAgent(
  agent: { is_author_agent: boolean; owner_account_id: string } | null | undefined,
  authorAccountId: string,
): boolean {
  if (!agent) return false;
  if (agent.owner_account_id === authorAccountId) return true;
  return agent.is_author_agent && isOperatorAccount(authorAccountId);
}

/**
 * An agent whose withdrawal address is the benchmark's bounty author (`AttachedBounty.author`, the
 * address that locked the prize, read on-chain at attach) pays the author, whatever account owns it, so
 * it is an author agent of that benchmark (the author knows the gold: a second account's agent paying
 * the author's wallet is the author's own agent): `paysAuthor` of `@bench-bounty/evidence` (SPEC 7.2,
 * probe34 C-F1), for an attached bounty. The run start refuses such an agent
 * (`invalid_withdrawal_address`, `details.reason: "bounty_author"`), and the award's preparation ranks
 * its rows as author agents (`is_author_agent: true`: they rank, take no money).
 * @param withdrawalAddress the agent's withdrawal address (`0x` hex, any case), or null (none: false)
 * @param bounty the benchmark's attached bounty, or null (no bounty: false)
 */
export function paysBountyAuthor(
  withdrawalAddress: string | null | undefined,
  bounty: { author: string } | null | undefined,
): boolean {
  return paysAuthor(withdrawalAddress, bounty?.author);
}
