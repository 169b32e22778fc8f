/**
 * Migration 0011: `benchmarks.bounty_key`, the attached bounty's `<chain id>:<BenchmarkBounty
 * contract>:<bounty id>` ({@link bountyKey}), under a unique index: one on-chain bounty is attached to at
 * most one benchmark of a store, whatever process attaches it (probe27 A-F2: one bounty attached to three
 * benchmarks, one of them another account's, paid the first one awarded). Filled from `bounty_json`; a
 * store in which one bounty is attached to several benchmarks already is not migrated (the error names
 * the bounty and the benchmarks: which of them the prize is for is the operator's decision, never a
 * guess; clear `bounty_json` of the others, then open the store again). And an index on
 * `benchmarks (commit_root)`: a publish looks for a benchmark with its root (`slugOfRoot`; not unique, as
 * a store from before may hold two benchmarks of the same rows and seed). Additive: the schema version
 * stays 3.
 */
import { sql, type Kysely } from "kysely";
import type { AttachedBounty } from "../../context.js";
import { fromStored } from "../../json.js";
import { bountyKey } from "../bounty-key.js";

/** Applies migration 0011 (the same statements on both engines). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`ALTER TABLE benchmarks ADD COLUMN bounty_key TEXT`).execute(db);
  const rows = (
    await sql<{
      slug: string;
      bounty_json: string;
    }>`SELECT slug, bounty_json FROM benchmarks WHERE bounty_json IS NOT NULL ORDER BY slug`.execute(db)
  ).rows;
  const holders = new Map<string, string[]>();
  for (const r of rows) {
    const key = bountyKey(fromStored<AttachedBounty>(r.bounty_json));
    holders.set(key, [...(holders.get(key) ?? []), r.slug]);
  }
  for (const [key, slugs] of holders)
    if (slugs.length > 1)
      throw new Error(
        `bounty ${key} is attached to ${slugs.length} benchmarks (${slugs.join(", ")}); a bounty pays one benchmark: clear bounty_json of all but the one it was locked for, then open the store again`,
      );
  for (const [key, [slug]] of holders)
    await sql`UPDATE benchmarks SET bounty_key = ${key} WHERE slug = ${slug}`.execute(db);
  await sql.raw(`CREATE UNIQUE INDEX benchmarks_one_per_bounty ON benchmarks (bounty_key)`).execute(db);
  await sql.raw(`CREATE INDEX benchmarks_by_root ON benchmarks (commit_root)`).execute(db);
}
