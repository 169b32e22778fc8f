/**
 * Migration 0011: `benchmarks.bounty_key`, the attached bounty's `<chain id>:<BenchmarkBounty
 * contract>:<bounty id>` ({@link bountyKey}), under a unique index: one on-chain bounty is attached to at
 * most one benchmark of a store, whatever process attaches it (probe27 A-F2: one bounty attached to three
 * benchmarks, one of them another account's, paid the first one awarded). Filled from `bounty_json`; a
 * store in which one bounty is attached to several benchmarks already is not migrated (the error names
 * per bounty every benchmark holding it with its award, if any, and the SQL, the same on both engines,
 * that detaches the others: which of them the prize is for is the operator's decision, never a guess;
 * run it, then open the store again; store28 R-F3). And an index on
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
  const duplicated = [...holders].filter(([, slugs]) => slugs.length > 1);
  // checked before anything is changed: a refused store is left as it was, to be repaired and reopened
  // (SQLite's migrations run outside a transaction: an ALTER before the refusal stayed, store28 R-F3)
  if (duplicated.length > 0) throw new Error(await duplicatesMessage(db, duplicated));
  await sql.raw(`ALTER TABLE benchmarks ADD COLUMN bounty_key TEXT`).execute(db);
  for (const [key, [slug]] of holders)
    await sql`UPDATE benchmarks SET bounty_key = ${key} WHERE slug = ${slug}`.execute(db);
  await sql.raw(`CREATE UNIQUE INDEX benchmarks_one_per_bounty ON benchmarks (bounty_key)`).execute(db);
  await sql.raw(`CREATE INDEX benchmarks_by_root ON benchmarks (commit_root)`).execute(db);
}

/** A text as an SQL string literal (single quotes doubled). */
const literal = (text: string): string => `'${text.split("'").join("''")}'`;

/**
 * The refusal of a store holding bounties attached to several benchmarks (`duplicated`: each bounty's
 * key and the slugs holding it): per bounty, every benchmark with its award (`awards.status`, `award_tx`)
 * or "no award", and the `UPDATE` (SQLite and PostgreSQL alike) that detaches all but one: the one with
 * an award when exactly one has one, else the first by slug, named so the operator may keep another.
 */
async function duplicatesMessage(db: Kysely<unknown>, duplicated: [string, string[]][]): Promise<string> {
  const awards = new Map(
    (
      await sql<{
        slug: string;
        status: string;
        award_tx: string | null;
      }>`SELECT slug, status, award_tx FROM awards`.execute(db)
    ).rows.map((r) => [r.slug, r]),
  );
  const parts = duplicated.map(([key, slugs]) => {
    const held = slugs.map((slug) => {
      const a = awards.get(slug);
      return a === undefined
        ? `${slug} (no award)`
        : `${slug} (award ${a.status}${a.award_tx === null ? "" : `, tx ${a.award_tx}`})`;
    });
    const awarded = slugs.filter((slug) => awards.has(slug));
    const keep = awarded.length === 1 ? awarded[0]! : slugs[0]!;
    const detach = slugs.filter((slug) => slug !== keep);
    return (
      `bounty ${key} is attached to ${slugs.length} benchmarks: ${held.join(", ")}; to keep it on ${keep} ` +
      `(${awarded.length === 1 ? "the one with an award" : "or name the one it was locked for"}), run: ` +
      `UPDATE benchmarks SET bounty_json = NULL WHERE slug IN (${detach.map(literal).join(", ")});`
    );
  });
  return (
    `${parts.join("\n")}\na bounty pays one benchmark: detach it from all but the one it was locked for ` +
    `(the statements are the same on SQLite and PostgreSQL), then open the store again`
  );
}
