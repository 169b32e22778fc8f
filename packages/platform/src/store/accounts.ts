/**
 * Data access of the `accounts` and `api_keys` tables. Keys are stored only as their SHA-256 hash,
 * keyed by their random prefix. Methods are async: callers `await` them whatever the engine.
 */
import type Database from "better-sqlite3";
import { PlatformError } from "../errors.js";
import type { AccountRecord, KeyListing } from "../identity/accounts.js";
import type { MintedKey } from "../identity/keys.js";
import type { Role } from "../identity/principal.js";

interface AccountRow {
  account_id: string;
  name: string;
  roles_json: string;
  created_at: string;
}

const toAccount = (r: AccountRow): AccountRecord => ({
  account_id: r.account_id,
  name: r.name,
  roles: JSON.parse(r.roles_json) as Role[],
  created_at: r.created_at,
});

/** The `accounts` / `api_keys` tables. */
export class AccountsTable {
  constructor(
    private readonly db: Database.Database,
    private readonly tx: <T>(fn: () => T) => T,
  ) {}

  /** Inserts an account and its first key in one transaction. @throws PlatformError `account_exists` (409) for a taken name */
  async insertWithKey(a: AccountRecord, key: MintedKey): Promise<void> {
    this.tx(() => {
      const taken = this.db.prepare("SELECT 1 FROM accounts WHERE name = ?").get(a.name);
      if (taken)
        throw new PlatformError("account_exists", `account name ${a.name} is taken`, { field: "name" });
      this.db
        .prepare("INSERT INTO accounts (account_id, name, roles_json, created_at) VALUES (?, ?, ?, ?)")
        .run(a.account_id, a.name, JSON.stringify(a.roles), a.created_at);
      this.insertKeySync(a.account_id, key, a.created_at);
    });
  }

  /** Adds a key to an account. */
  async insertKey(accountId: string, key: MintedKey, createdAt: string): Promise<void> {
    this.insertKeySync(accountId, key, createdAt);
  }

  private insertKeySync(accountId: string, key: MintedKey, createdAt: string): void {
    this.db
      .prepare("INSERT INTO api_keys (key_prefix, account_id, key_hash, created_at) VALUES (?, ?, ?, ?)")
      .run(key.key_prefix, accountId, key.key_hash, createdAt);
  }

  /** The key row of a prefix with its account's roles, or null. */
  async keyByPrefix(
    prefix: string,
  ): Promise<{ account_id: string; key_hash: string; revoked_at: string | null; roles: Role[] } | null> {
    const r = this.db
      .prepare(
        "SELECT k.account_id, k.key_hash, k.revoked_at, a.roles_json FROM api_keys k JOIN accounts a ON a.account_id = k.account_id WHERE k.key_prefix = ?",
      )
      .get(prefix) as
      | { account_id: string; key_hash: string; revoked_at: string | null; roles_json: string }
      | undefined;
    return r
      ? {
          account_id: r.account_id,
          key_hash: r.key_hash,
          revoked_at: r.revoked_at,
          roles: JSON.parse(r.roles_json),
        }
      : null;
  }

  /** An account, or null. */
  async get(accountId: string): Promise<AccountRecord | null> {
    const r = this.db.prepare("SELECT * FROM accounts WHERE account_id = ?").get(accountId) as
      | AccountRow
      | undefined;
    return r ? toAccount(r) : null;
  }

  /** An account's keys, oldest first. */
  async listKeys(accountId: string): Promise<KeyListing[]> {
    return this.db
      .prepare(
        "SELECT key_prefix, created_at, revoked_at FROM api_keys WHERE account_id = ? ORDER BY created_at, key_prefix",
      )
      .all(accountId) as KeyListing[];
  }

  /** Revokes a key of an account (first revocation time kept); null when the account has no such key. */
  async revokeKey(accountId: string, prefix: string, at: string): Promise<KeyListing | null> {
    return this.tx(() => {
      this.db
        .prepare(
          "UPDATE api_keys SET revoked_at = ? WHERE key_prefix = ? AND account_id = ? AND revoked_at IS NULL",
        )
        .run(at, prefix, accountId);
      const r = this.db
        .prepare(
          "SELECT key_prefix, created_at, revoked_at FROM api_keys WHERE key_prefix = ? AND account_id = ?",
        )
        .get(prefix, accountId) as KeyListing | undefined;
      return r ?? null;
    });
  }
}
