/**
 * Migration 0015: `accounts.network`, the client network an account was created from (the server's
 * grouping of the request's address: an IPv4 /24, an IPv6 /48; null for an account created otherwise:
 * the CLI, the operator, a store from before), and an index on it. The accounts of one network share a
 * part of each all-accounts budget (`src/network-share.ts`; probe30 A-F7: free accounts of one /24
 * filled the whole dataset budget). Additive: the schema version stays 3.
 */
import { sql, type Kysely } from "kysely";

/** Applies migration 0015 (the same statements on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`ALTER TABLE accounts ADD COLUMN network TEXT`).execute(db);
  await sql.raw(`CREATE INDEX accounts_by_network ON accounts (network)`).execute(db);
}
