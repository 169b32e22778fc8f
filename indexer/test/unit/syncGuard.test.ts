import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { guardSyncStore, type SqlRun } from "../../lib/syncGuard";

// An in-memory PGlite with the columns of Ponder's sync store that the guard reads and deletes.
const db = new PGlite();
const run: SqlRun = async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows;
const count = async (table: string, chainId: number) =>
  Number((await run(`SELECT count(*) AS n FROM ponder_sync.${table} WHERE chain_id = $1`, [chainId]))[0]!.n);

describe("stale sync-store guard", () => {
  beforeEach(async () => {
    await db.exec(`DROP SCHEMA IF EXISTS ponder_sync CASCADE; CREATE SCHEMA ponder_sync;
      CREATE TABLE ponder_sync.blocks (chain_id bigint, number bigint, hash text);
      CREATE TABLE ponder_sync.logs (chain_id bigint, block_number bigint, block_hash text);
      INSERT INTO ponder_sync.blocks VALUES (8453, 0, '0xg0'), (8453, 5, '0xa5'), (8453, 9, '0xa9'), (1, 9, '0xother');
      INSERT INTO ponder_sync.logs VALUES (8453, 9, '0xa9'), (1, 9, '0xother');`);
  });
  afterAll(() => db.close());

  it("keeps the rows when the stored blocks are the chain's own (a restart)", async () => {
    const chain = new Map([
      [5n, "0xA5"],
      [9n, "0xa9"],
    ]);
    const r = await guardSyncStore(run, async (n) => chain.get(n) ?? null, 8453);
    expect(r).toEqual({ outcome: "fresh", checked: [9n, 5n] });
    expect(await count("blocks", 8453)).toBe(3);
  });

  it("deletes the chain id's rows, and only those, when a block hash differs (a new chain)", async () => {
    const r = await guardSyncStore(run, async (n) => (n === 9n ? "0xb9" : "0xa5"), 8453);
    expect(r.outcome).toBe("discarded");
    expect(r.reason).toContain("stored block 9");
    expect(await count("blocks", 8453)).toBe(0);
    expect(await count("logs", 8453)).toBe(0);
    expect(await count("blocks", 1)).toBe(1);
    expect(await count("logs", 1)).toBe(1);
  });

  it("deletes them when the stored blocks lie beyond the new chain's head", async () => {
    const r = await guardSyncStore(run, async () => null, 8453);
    expect(r).toMatchObject({ outcome: "discarded", reason: "stored block 9 is beyond the chain's head" });
  });

  it("does nothing without a sync store or without rows for the chain", async () => {
    expect((await guardSyncStore(run, async () => null, 84532)).outcome).toBe("no-store");
    await db.exec("DROP SCHEMA ponder_sync CASCADE");
    expect((await guardSyncStore(run, async () => null, 8453)).outcome).toBe("no-store");
  });
});
