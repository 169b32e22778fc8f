/**
 * Data access of the `accounts` and `api_keys` tables. Keys are stored only as their SHA-256 hash,
 * keyed by their random prefix.
 */
import { sql } from "kysely";
import { PlatformError } from "../errors.js";
import type { AccountRecord, KeyListing } from "../identity/accounts.js";
import type { MintedKey } from "../identity/keys.js";
import type { Role } from "../identity/principal.js";
import { arg, isUniqueViolation, TableModule } from "./executor.js";
import type { AccountsTable as AccountRow } from "./schema.js";

const toAccount = (r: AccountRow): AccountRecord => ({
  account_id: r.account_id,
  name: r.name,
  roles: JSON.parse(r.roles_json) as Role[],
  created_at: r.created_at,
});

/**
 * The form in which names of the shared namespace of account names and agent ids are compared:
 * ASCII lower case (names are ASCII: `ACCOUNT_NAME_RE`, `AGENT_ID_RE`), so `P6V-x` and `p6v-x` are
 * one name (re-probe 6 O9: impersonation). The name as written is kept and shown.
 */
export function foldName(name: string): string {
  return name.toLowerCase();
}

/** SQL `lower(name)` (ASCII lower case on both engines, as {@link foldName}). */
const foldedName = sql<string>`lower(name)`;

/** The `accounts` / `api_keys` tables. */
export class AccountsTable extends TableModule {
  /**
   * Inserts an account and its first key (call inside a transaction: both or neither).
   * @throws PlatformError `account_exists` for a taken name (also when another process took it first)
   */
  async insertWithKey(a: AccountRecord, key: MintedKey, network: string | null = null): Promise<void> {
    const taken = (as: string) =>
      new PlatformError(
        "account_exists",
        as === a.name
          ? `account name ${a.name} is taken`
          : `account name ${a.name} is taken: names are compared without regard to case, and ${as} exists`,
        { field: "name", ...(as === a.name ? {} : { existing: as }) },
      );
    const existing = await this.db
      .selectFrom("accounts")
      .select("name")
      .where(foldedName, "=", foldName(a.name))
      .executeTakeFirst();
    if (existing) throw taken(existing.name);
    try {
      await this.db
        .insertInto("accounts")
        .values({
          account_id: a.account_id,
          name: a.name,
          roles_json: JSON.stringify(a.roles),
          created_at: a.created_at,
          network,
        })
        .execute();
    } catch (e) {
      if (isUniqueViolation(e)) throw taken(a.name);
      throw e;
    }
    await this.insertKey(a.account_id, key, a.created_at);
  }

  /**
   * The client network an account was created from (`accounts.network`, migration 0015), or null (none
   * recorded, or no such account).
   */
  async networkOf(accountId: string): Promise<string | null> {
    const r = await this.db
      .selectFrom("accounts")
      .select("network")
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return r?.network ?? null;
  }

  /** Adds a key to an account. */
  async insertKey(accountId: string, key: MintedKey, createdAt: string): Promise<void> {
    await this.db
      .insertInto("api_keys")
      .values({
        key_prefix: key.key_prefix,
        account_id: accountId,
        key_hash: key.key_hash,
        created_at: createdAt,
      })
      .execute();
  }

  /** The key row of a prefix with its account's roles, or null. */
  async keyByPrefix(
    prefix: string,
  ): Promise<{ account_id: string; key_hash: string; revoked_at: string | null; roles: Role[] } | null> {
    const r = (
      await this.compiled("accounts.keyByPrefix", [prefix], () =>
        this.db
          .selectFrom("api_keys as k")
          .innerJoin("accounts as a", "a.account_id", "k.account_id")
          .select(["k.account_id", "k.key_hash", "k.revoked_at", "a.roles_json"])
          .where("k.key_prefix", "=", arg<string>(0)),
      )
    ).rows[0];
    return r
      ? {
          account_id: r.account_id,
          key_hash: r.key_hash,
          revoked_at: r.revoked_at,
          roles: JSON.parse(r.roles_json) as Role[],
        }
      : null;
  }

  /**
   * The state of a key as a keyed write sees it, inside that write's transaction: its account and when
   * it was revoked (null while it works), or null when no key has `prefix` (never issued, or deleted).
   * On PostgreSQL the row is read `FOR SHARE`: a revocation (an `UPDATE` of the row, or the deletion
   * of an old revoked key) waits for the write to end, so a write that found its key working commits
   * before the key's revocation, never after it (probe39 A-F2). SQLite's IMMEDIATE transaction holds
   * the write lock already.
   */
  async keyStateForWrite(prefix: string): Promise<{ account_id: string; revoked_at: string | null } | null> {
    const name = `accounts.keyStateForWrite${this.locks ? ".share" : ""}`;
    const r = (
      await this.compiled(name, [prefix], () => {
        const q = this.db
          .selectFrom("api_keys")
          .select(["account_id", "revoked_at"])
          .where("key_prefix", "=", arg<string>(0));
        return this.locks ? q.forShare() : q;
      })
    ).rows[0];
    return r ?? null;
  }

  /**
   * Takes the lock of a name of the shared namespace of account names and agent ids until the
   * transaction ends (PostgreSQL: a transaction-scoped advisory lock; SQLite's IMMEDIATE transaction
   * holds the write lock already). Call it inside a transaction before checking and writing the name:
   * an account creation and an agent registration of one name then run one after the other.
   */
  async lockName(name: string): Promise<void> {
    // the folded name: `Alice` and `alice` are one name of the namespace (foldName)
    await this.advisoryLock(`name:${foldName(name)}`);
  }

  /** The id of the account named `name` in any case (`Alice` for `alice`, {@link foldName}), or null. */
  async idByName(name: string): Promise<string | null> {
    const r = await this.db
      .selectFrom("accounts")
      .select("account_id")
      .where(foldedName, "=", foldName(name))
      .executeTakeFirst();
    return r?.account_id ?? null;
  }

  /** An account, or null. */
  async get(accountId: string): Promise<AccountRecord | null> {
    const r = await this.db
      .selectFrom("accounts")
      .selectAll()
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return r ? toAccount(r) : null;
  }

  /** An account's keys, oldest first. */
  async listKeys(accountId: string): Promise<KeyListing[]> {
    return this.db
      .selectFrom("api_keys")
      .select(["key_prefix", "created_at", "revoked_at"])
      .where("account_id", "=", accountId)
      .orderBy("created_at")
      .orderBy("key_prefix")
      .execute();
  }

  /** How many keys of an account are active (not revoked). */
  async countActiveKeys(accountId: string): Promise<number> {
    const r = await this.db
      .selectFrom("api_keys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_id", "=", accountId)
      .where("revoked_at", "is", null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Takes the lock of an account's keys until the transaction ends (call inside {@link Store.tx} before
   * reading the keys an issue or a revocation is decided on).
   */
  async lockKeys(accountId: string): Promise<void> {
    await this.advisoryLock(`api_keys:${accountId}`);
  }

  /**
   * Deletes an account's revoked keys but the `keep` most recently revoked (ties: the greater prefix kept).
   * @returns how many were deleted
   */
  async pruneRevokedKeys(accountId: string, keep: number): Promise<number> {
    const r = await this.db
      .deleteFrom("api_keys")
      .where("account_id", "=", accountId)
      .where("revoked_at", "is not", null)
      .where("key_prefix", "not in", (eb) =>
        eb
          .selectFrom("api_keys")
          .select("key_prefix")
          .where("account_id", "=", accountId)
          .where("revoked_at", "is not", null)
          .orderBy("revoked_at", "desc")
          .orderBy("key_prefix", "desc")
          .limit(keep),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Revokes a key of an account (first revocation time kept); null when the account has no such key. */
  async revokeKey(accountId: string, prefix: string, at: string): Promise<KeyListing | null> {
    await this.db
      .updateTable("api_keys")
      .set({ revoked_at: at })
      .where("key_prefix", "=", prefix)
      .where("account_id", "=", accountId)
      .where("revoked_at", "is", null)
      .execute();
    const r = await this.db
      .selectFrom("api_keys")
      .select(["key_prefix", "created_at", "revoked_at"])
      .where("key_prefix", "=", prefix)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    return r ?? null;
  }
}
