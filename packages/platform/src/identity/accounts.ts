/**
 * Accounts and their API keys (issue 15 item 2; issue 13 item 5): {@link createAccount} returns the
 * first key once; {@link authenticate} turns a key into a {@link Principal}; keys are issued, listed
 * (by prefix, never the key) and revoked by their account.
 *
 * Account names and agent ids share one namespace: an account's name is the id of its default agent
 * (the agent a run starts for when none is named). So a name is taken when an account has it or when
 * any agent has it as its id (`account_exists`, 409, naming `name`), and an account may register an
 * agent id that is its own name but not another account's name (`agent_owner_only`, `agents.ts`).
 * Names are compared without regard to case ({@link foldName}: `P6V-x` is taken once `p6v-x` is) and
 * kept as written. A few names are reserved for the platform's own (`operator`, `platform`, and the
 * account-id form `acct_...`: `assertNameNotReserved`, probe30 A-F11): refused `invalid_option`.
 */
import { randomBytes } from "node:crypto";
import type { PlatformContext, WriteHow } from "../context.js";
import { PlatformError } from "../errors.js";
import {
  assertNameNotReserved,
  checkAgentRegistration,
  checkWithdrawalAddressOnChain,
  NAME_RE,
  NAME_RULE,
  pastSettledAwards,
  updateAgent,
  writeAgent,
  type AgentRecord,
} from "../agents.js";
import { foldName } from "../store/accounts.js";
import { isoMillis } from "../time.js";
import { hashKey, keyPrefixOf, mintKey, namedKeyPrefix, sameHash } from "./keys.js";
import { assertKeyActive, invalidKeyMessage, revokedKeyReason, UNKNOWN_KEY } from "./key-check.js";
import { ACCOUNT_ROLES, OPERATOR_ACCOUNT_ID, type Principal, type Role } from "./principal.js";

/** Account names: {@link NAME_RE} (one namespace with agent ids). */
export const ACCOUNT_NAME_RE = NAME_RE;

/** An account as served to its owner. */
export interface AccountRecord {
  account_id: string;
  name: string;
  roles: Role[];
  created_at: string;
}

/** A key as listed (never the key itself, never its hash). */
export interface KeyListing {
  key_prefix: string;
  created_at: string;
  /** Null while the key works. */
  revoked_at: string | null;
}

/** What {@link createAccount} and {@link issueKey} return: the key text is shown here once, never again. */
export interface IssuedKey {
  account_id: string;
  key_prefix: string;
  /** The key: store it now, the platform keeps only its hash. */
  api_key: string;
}

/** What {@link createAccount} takes. */
export interface AccountInput {
  /**
   * Unique; also the id of the account's default agent. Absent: the platform picks one,
   * `agent-<10 hex digits>` (the one place of that rule: REST, MCP and the CLI alike).
   */
  name?: unknown;
  /** Default `["author", "competitor"]`. */
  roles?: unknown;
  /**
   * Register an agent with the account, in the same transaction: its id (default: the account's
   * name) and settings. A refused agent leaves no account behind.
   */
  agent?: { agent_id?: unknown; withdrawal_address?: unknown };
}

function checkAccountInput(input: AccountInput): { name: string; roles: Role[] } {
  const name = input.name === undefined ? `agent-${randomBytes(5).toString("hex")}` : input.name;
  if (typeof name !== "string" || !ACCOUNT_NAME_RE.test(name))
    throw new PlatformError("invalid_option", `name must be ${NAME_RULE}`, { field: "name" });
  assertNameNotReserved(name, "name");
  const roles = input.roles ?? ["author", "competitor"];
  if (
    !Array.isArray(roles) ||
    roles.length === 0 ||
    roles.some((r) => !(ACCOUNT_ROLES as readonly unknown[]).includes(r))
  )
    throw new PlatformError(
      "invalid_option",
      `roles must be a non-empty list of ${ACCOUNT_ROLES.join(", ")}`,
      {
        field: "roles",
      },
    );
  return { name, roles: [...new Set(roles as Role[])].sort() };
}

/** How an account is created: the request's bound ({@link WriteHow}) and the client network it came from. */
export interface CreateAccountHow extends WriteHow {
  /**
   * The client network of the request (the server's grouping of its address: `net:a.b.c.0/24`,
   * `net6:<prefix>::/48`), recorded on the account: its accounts share a part of each all-accounts
   * budget (`src/network-share.ts`, probe30 A-F7). Absent: none (the CLI, the operator).
   */
  network?: string | undefined;
}

/**
 * Creates an account with one key, and with `input.agent` its first agent: everything is checked
 * first, then written in one transaction (all or nothing), with the name locked so that a concurrent
 * agent registration of the same name (`agents.ts`) waits and then sees it.
 * @throws PlatformError `invalid_option` naming `name`, `roles` or `agent_id` (a reserved name too:
 *   `assertNameNotReserved`, probe30 A-F11);
 *   `invalid_withdrawal_address` (the whole rule, `checkWithdrawalAddressOnChain`: with a chain, the code
 *   the address runs too); `chain_error` (that code could not be read: nothing written); `account_exists` (naming `name`) for a name another account has, or
 *   that is an agent's id (see the module doc); `forbidden` (`agent_owner_only`) for an agent id that is
 *   another account's name or agent
 */
export async function createAccount(
  ctx: PlatformContext,
  input: AccountInput,
  how: CreateAccountHow = {},
): Promise<{ account: AccountRecord } & IssuedKey> {
  const { name, roles } = checkAccountInput(input);
  const account: AccountRecord = {
    account_id: `acct_${randomBytes(8).toString("hex")}`,
    name,
    roles,
    created_at: isoMillis(ctx.clock()),
  };
  const key = mintKey();
  const owner: Principal = { account_id: account.account_id, roles, via: "key", key_prefix: key.key_prefix };
  const agentId = input.agent ? (input.agent.agent_id ?? name) : null;
  const agent =
    input.agent && agentId !== null
      ? checkAgentRegistration(ctx, owner, agentId, {
          ...(input.agent.withdrawal_address !== undefined
            ? { withdrawal_address: input.agent.withdrawal_address as string | null }
            : {}),
        })
      : null;
  // the whole rule of a payee, its code included, as registerAgent (probe28 C-F3's audit: an account
  // created with its first agent's address took a BenchmarkBounty deployed elsewhere)
  if (agent?.withdrawal_address !== undefined)
    await checkWithdrawalAddressOnChain(ctx, agent.withdrawal_address);
  await ctx.store.tx(
    async (t) => {
      // both names locked in one order, so two registrations naming each other cannot deadlock
      const names = [name, ...(typeof agentId === "string" ? [agentId] : [])].map(foldName);
      for (const n of [...new Set(names)].sort()) await t.accounts.lockName(n);
      const agentNamed = await t.agents.getFolded(name);
      if (agentNamed)
        throw new PlatformError(
          "account_exists",
          `account name ${name} is taken: it is the id of an agent${agentNamed.agent_id === name ? "" : ` (as ${agentNamed.agent_id}: names are compared without regard to case)`}, and an account's name is the id of its default agent`,
          { field: "name", reason: "agent_id", existing: agentNamed.agent_id },
        );
      await t.accounts.insertWithKey(account, key, how.network ?? null);
      if (agent !== null) await writeAgent(ctx, t, owner, agentId as string, agent);
    },
    { locksBy: how.answerBy },
  );
  return { account, account_id: account.account_id, key_prefix: key.key_prefix, api_key: key.api_key };
}

/**
 * The principal of an API key (account key, or the operator key configured with the platform).
 * @throws PlatformError `unauthenticated` for a missing, malformed, unknown or revoked key
 */
export async function authenticate(ctx: PlatformContext, apiKey: unknown): Promise<Principal> {
  const refuse = (why: string): never => {
    throw new PlatformError("unauthenticated", invalidKeyMessage(why), { rule: "valid_key_required" });
  };
  if (typeof apiKey !== "string" || apiKey === "") return refuse("none given");
  if (ctx.operatorKeyHash !== null && sameHash(hashKey(apiKey), ctx.operatorKeyHash))
    return {
      account_id: OPERATOR_ACCOUNT_ID,
      roles: ["operator", "author"],
      via: "operator_key",
      key_prefix: null,
    };
  const prefix = keyPrefixOf(apiKey);
  if (prefix === null) return refuse("not a bench-bounty key (bbk_...)");
  const row = await ctx.store.accounts.keyByPrefix(prefix);
  if (!row || !sameHash(hashKey(apiKey), row.key_hash)) return refuse(UNKNOWN_KEY);
  if (row.revoked_at !== null) return refuse(revokedKeyReason(prefix, row.revoked_at));
  return { account_id: row.account_id, roles: row.roles, via: "key", key_prefix: prefix };
}

/**
 * The most active (not revoked) API keys an account holds at once: 20. An account issues keys to replace
 * leaked ones and to give its runners their own; past this, {@link issueKey} is refused `too_many_keys`
 * until one is revoked (probe29 keys29 item 4: without a cap one account issued keys without end, each a
 * row, all under its key lock). Revoked keys do not count.
 */
export const MAX_ACTIVE_KEYS = 20;

/**
 * The most revoked keys an account keeps: 20, the most recently revoked; a revocation deletes the older
 * ones (probe31 A-F7: issuing and revoking without end kept every revoked key, listed in every account
 * answer: 1,500 pairs made `GET /accounts/me` 171 KB). A deleted key then authenticates as no key at all
 * (`known_key`), no longer as "revoked at ...".
 */
export const MAX_REVOKED_KEYS_KEPT = 20;

/**
 * Issues another key for the caller's account, at most {@link MAX_ACTIVE_KEYS} active at once. The count
 * and the insert are one transaction under the account's key lock (as {@link revokeKey}), so two issues
 * at once cannot pass the cap together.
 * @returns the new key, shown this once
 * @throws PlatformError `forbidden` (`operator_key_from_environment`) for the operator key;
 *   `too_many_keys` (`details.max_active_keys`, `details.active_keys`) when the account already holds
 *   the most active keys (revoke one first); `server_busy` past `how.answerBy` (nothing written);
 *   `forbidden` (`known_key`) when the calling key was revoked before the write (`assertKeyActive`, probe39 A-F2)
 */
export async function issueKey(ctx: PlatformContext, p: Principal, how: WriteHow = {}): Promise<IssuedKey> {
  refuseOperatorKeys(p);
  const key = mintKey();
  await ctx.store.tx(
    async (t) => {
      await t.accounts.lockKeys(p.account_id);
      await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
      const active = await t.accounts.countActiveKeys(p.account_id);
      if (active >= MAX_ACTIVE_KEYS)
        throw new PlatformError(
          "too_many_keys",
          `the account already holds ${active} active API keys, the most it may (${MAX_ACTIVE_KEYS}): revoke one first (account revoke), then issue another`,
          { max_active_keys: MAX_ACTIVE_KEYS, active_keys: active },
        );
      await t.accounts.insertKey(p.account_id, key, isoMillis(ctx.clock()));
    },
    { locksBy: how.answerBy, account: p.account_id },
  );
  return { account_id: p.account_id, key_prefix: key.key_prefix, api_key: key.api_key };
}

/** The caller's keys by prefix, oldest first. */
export async function listKeys(ctx: PlatformContext, p: Principal): Promise<KeyListing[]> {
  return ctx.store.accounts.listKeys(p.account_id);
}

/**
 * The prefix of the key a caller names (`namedKeyPrefix`): the prefix as listed (`bbk_<12 hex>`), or a
 * whole key taken as its prefix. The CLI's `account revoke --server` sends this, never the whole key, in
 * the server's URL.
 * @throws PlatformError `unknown_key` (`details.field: "key_prefix"`) for any other text, not echoed (it
 *   may be a key mistyped)
 */
export function keyPrefixNamed(named: string): string {
  const keyPrefix = namedKeyPrefix(named);
  if (keyPrefix === null)
    throw new PlatformError(
      "unknown_key",
      // one wording for every door (probe33 A-F4: REST refuses a whole key in its URL, so advising one there misled)
      "not a key prefix: give the key's prefix as the account's key list shows it (bbk_ and 12 hex digits; the text given is not shown)",
      { field: "key_prefix" },
    );
  return keyPrefix;
}

/**
 * Revokes one of the caller's keys (idempotent: a revoked key stays revoked at its first time; the account
 * keeps its {@link MAX_REVOKED_KEYS_KEPT} most recently revoked keys, older ones are deleted). The
 * account's last active key is kept: nothing else can issue a key for the account, so revoking it would
 * lock the account (its agents, datasets and benchmarks) out for good (probe16 B-F14). The check and the
 * write are one transaction, under the account's key lock, so two revocations cannot leave none.
 * `named` is the key's prefix as listed (`bbk_<12 hex>`), or the whole key (taken as its prefix: never
 * echoed, probe19 B-F6).
 * @throws PlatformError `unknown_key` when it is neither a prefix nor a key (not echoed), or not one of
 *   the caller's keys (the prefix named); `last_active_key` when it is the account's only active key
 *   (issue another key first); `forbidden` (`known_key`) when the calling key was revoked before the write (`assertKeyActive`, probe39 A-F2)
 */
export async function revokeKey(
  ctx: PlatformContext,
  p: Principal,
  named: string,
  how: WriteHow = {},
): Promise<KeyListing> {
  refuseOperatorKeys(p);
  const keyPrefix = keyPrefixNamed(named);
  return ctx.store.tx(
    async (t) => {
      await t.accounts.lockKeys(p.account_id);
      await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
      const keys = await t.accounts.listKeys(p.account_id);
      const target = keys.find((k) => k.key_prefix === keyPrefix);
      if (!target)
        throw new PlatformError("unknown_key", `no key ${keyPrefix} on this account`, {
          key_prefix: keyPrefix,
        });
      if (target.revoked_at === null && keys.every((k) => k === target || k.revoked_at !== null))
        throw new PlatformError(
          "last_active_key",
          `key ${keyPrefix} is the account's last active key: revoking it would lock the account out for good (nothing else can issue a key for it); issue a new key first (account issue-key), then revoke this one`,
          { key_prefix: keyPrefix },
        );
      const revoked = (await t.accounts.revokeKey(p.account_id, keyPrefix, isoMillis(ctx.clock())))!;
      await t.accounts.pruneRevokedKeys(p.account_id, MAX_REVOKED_KEYS_KEPT);
      return revoked;
    },
    { locksBy: how.answerBy, account: p.account_id },
  );
}

/** The caller's account. @throws PlatformError `unknown_account` */
export async function getAccount(ctx: PlatformContext, p: Principal): Promise<AccountRecord> {
  const a = await ctx.store.accounts.get(p.account_id);
  if (!a) throw new PlatformError("unknown_account", `no account ${p.account_id}`, {});
  return a;
}

function refuseOperatorKeys(p: Principal): void {
  if (p.via !== "key")
    throw new PlatformError(
      "forbidden",
      "the operator's key comes from the environment; it has no account keys",
      { rule: "operator_key_from_environment" },
    );
}

/**
 * Sets the withdrawal address of every agent of the caller's account in one transaction (all or none);
 * an account without agents gets its default agent (named after the account) with that address.
 * `how.answerBy` bounds its lock waits ({@link WriteHow}).
 * @returns the account's agents as written
 * @throws PlatformError `invalid_withdrawal_address`, `forbidden` (`operator_owns_no_agents`),
 *   `forbidden` (`known_key`) when the calling key was revoked before the write (`assertKeyActive`, probe39 A-F2);
 *   `server_busy` (past `how.answerBy`: nothing written), `award_in_progress` (an agent is a winner of
 *   an award that may still pay, `updateAgent`: an award the chain shows settled is passed,
 *   `pastSettledAwards`), and those of {@link writeAgent}
 */
export async function setAccountWithdrawalAddress(
  ctx: PlatformContext,
  p: Principal,
  address: string,
  how: WriteHow = {},
): Promise<AgentRecord[]> {
  const lower = await checkWithdrawalAddressOnChain(ctx, address);
  const settings = { withdrawal_address: lower };
  const none = (await ctx.store.agents.ofAccount(p.account_id)).length === 0;
  // checked before the transaction, as `registerAgent` does (the operator owns no agents)
  const fallback = none ? (await getAccount(ctx, p)).name : null;
  const checked = fallback === null ? null : checkAgentRegistration(ctx, p, fallback, settings);
  return pastSettledAwards(ctx, (settled) =>
    ctx.store.tx(
      async (t) => {
        await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
        const agents = await t.agents.ofAccount(p.account_id);
        if (agents.length === 0 && fallback !== null && checked !== null)
          return [await writeAgent(ctx, t, p, fallback, checked, settled)];
        const written: AgentRecord[] = [];
        for (const a of agents) written.push(await updateAgent(t, p, a, settings, settled));
        return written;
      },
      { locksBy: how.answerBy, account: p.account_id },
    ),
  );
}
