/** The one line the indexer prints when the sync-store guard fails at start (probe17 B-F4: a stack trace before). */
import { describe, expect, it } from "vitest";
import type { IndexerSettings } from "../../lib/settings";
import { syncGuardFailureLine } from "../../lib/syncGuardRun";

const base: Omit<IndexerSettings, "database"> = {
  chainId: 31337,
  rpcUrl: "http://127.0.0.1:8545",
  bountyAddress: "0x0000000000000000000000000000000000000001",
  anchorRegistryAddress: "0x0000000000000000000000000000000000000002",
  startBlock: 0,
  pollingIntervalMs: 1000,
  disableCache: true,
  ethGetLogsBlockRange: undefined,
  unsafeSqlOnPglite: false,
  sqlRole: undefined,
};
const onPostgres: IndexerSettings = {
  ...base,
  database: {
    kind: "postgres",
    connectionString: "postgresql://secret-user:secret-pass@db.example:6543/ponder?options=-c%20x%3Dy",
  },
};

/** A refusal as `pg` throws it: a `DatabaseError` carrying severity, SQLSTATE and PostgreSQL's text. */
function pgRefusal(code: string, message: string): Error {
  return Object.assign(new Error(message), { severity: "ERROR", code });
}

describe("syncGuardFailureLine", () => {
  it("a PostgreSQL refusal: one line naming the database by host, port and name and the SQLSTATE, never its message", () => {
    const line = syncGuardFailureLine(
      onPostgres,
      pgRefusal("42501", 'permission denied for schema ponder_sync (role "secret-user")'),
    );
    expect(line).toBe(
      "indexer settings: DATABASE_URL: the sync store check failed on postgresql db.example:6543/ponder (SQLSTATE 42501; PostgreSQL's message is not shown: it may quote the URL's user or options)",
    );
    expect(line).not.toMatch(/secret|permission denied|\n/);
  });

  it("an RPC failure: one line with the call's message, its line breaks folded", () => {
    const line = syncGuardFailureLine(
      onPostgres,
      new Error("eth_getBlockByNumber(5): fetch failed\n    at stack frame"),
    );
    expect(line).toBe(
      "indexer: the sync store check failed: eth_getBlockByNumber(5): fetch failed at stack frame",
    );
  });

  it("on PGlite an error with a severity is shown by its message, on one line", () => {
    const line = syncGuardFailureLine(
      { ...base, database: { kind: "pglite", directory: undefined } },
      pgRefusal("XX000", "could not open\nfile"),
    );
    expect(line).toBe("indexer: the sync store check failed: could not open file");
  });

  it("a thrown non-error is shown as text", () => {
    expect(syncGuardFailureLine(onPostgres, "boom")).toBe("indexer: the sync store check failed: boom");
  });
});
