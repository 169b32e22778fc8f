import { describe, expect, it } from "vitest";
import { IndexerSettingsError, readIndexerSettings, type ContractLocation } from "../../lib/settings";

const BOUNTY = "0xBB71DA83504363D607824853660D362f3eb8dc09";
const REGISTRY = "0xF646ce19E9F80a7927058CE47Bc7c8B7c00aB0B8";
const emptyBook = (): ContractLocation => ({ benchmarkBounty: null, anchorRegistry: null, startBlock: null });

function variableOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof IndexerSettingsError) return e.variable;
    throw e;
  }
  throw new Error("did not throw");
}

describe("indexer settings", () => {
  const local = {
    PONDER_RPC_URL_8453: "http://127.0.0.1:8545",
    BOUNTY_ADDRESS: BOUNTY,
    ANCHOR_REGISTRY_ADDRESS: REGISTRY,
    START_BLOCK: "3",
  };

  it("PONDER_PGLITE_DIR that is not a directory is refused naming the variable (probe26 B-F7)", () => {
    for (const dir of ["/dev/null", "/etc/hostname", "/etc/hostname/pglite"]) {
      let message = "";
      expect(
        variableOf(() => {
          try {
            return readIndexerSettings({ ...local, PONDER_PGLITE_DIR: dir }, emptyBook);
          } catch (e) {
            message = (e as Error).message;
            throw e;
          }
        }),
      ).toBe("PONDER_PGLITE_DIR");
      expect(message).toMatch(new RegExp(`^PONDER_PGLITE_DIR: ${dir} is not a directory`));
    }
    // a directory, or one PGlite will create, is taken
    expect(readIndexerSettings({ ...local, PONDER_PGLITE_DIR: "/tmp" }, emptyBook).database).toEqual({
      kind: "pglite",
      directory: "/tmp",
    });
    expect(
      readIndexerSettings({ ...local, PONDER_PGLITE_DIR: "/tmp/no-such-dir-probe26" }, emptyBook).database,
    ).toMatchObject({ kind: "pglite" });
  });

  it("a loopback RPC gets the local defaults: cache off, fast polling, PGlite", () => {
    expect(readIndexerSettings(local, emptyBook)).toEqual({
      chainId: 8453,
      rpcUrl: "http://127.0.0.1:8545",
      bountyAddress: BOUNTY.toLowerCase(),
      anchorRegistryAddress: REGISTRY.toLowerCase(),
      startBlock: 3,
      pollingIntervalMs: 250,
      disableCache: true,
      ethGetLogsBlockRange: undefined,
      unsafeSqlOnPglite: false,
      sqlRole: undefined,
      database: { kind: "pglite", directory: undefined },
    });
    expect(readIndexerSettings({ ...local, INDEXER_UNSAFE_SQL_ON_PGLITE: "true" }, emptyBook)).toMatchObject({
      unsafeSqlOnPglite: true,
    });
  });

  it("a remote RPC keeps the cache and reads the address book for what the environment leaves out", () => {
    const s = readIndexerSettings(
      { PONDER_RPC_URL_8453: "https://base.example/rpc", DATABASE_URL: "postgresql://u:p@h/db" },
      (key) => {
        expect(key).toBe("8453");
        return { benchmarkBounty: BOUNTY, anchorRegistry: REGISTRY, startBlock: 25_000_000 };
      },
    );
    expect(s).toMatchObject({ disableCache: false, pollingIntervalMs: 1000, startBlock: 25_000_000 });
    expect(s.database).toEqual({ kind: "postgres", connectionString: "postgresql://u:p@h/db" });
  });

  it("ADDRESS_BOOK selects the entry read", () => {
    let asked = "";
    readIndexerSettings({ PONDER_RPC_URL_8453: "http://localhost:8545", ADDRESS_BOOK: "84532" }, (key) => {
      asked = key;
      return { benchmarkBounty: BOUNTY, anchorRegistry: REGISTRY, startBlock: 0 };
    });
    expect(asked).toBe("84532");
  });

  it("ADDRESS_BOOK=local (no such entry) is refused naming the variables that give a local deployment (probe31 B-F1)", () => {
    const read = () =>
      readIndexerSettings({ PONDER_RPC_URL_8453: "http://localhost:8545", ADDRESS_BOOK: "local" }, () => ({
        benchmarkBounty: BOUNTY,
        anchorRegistry: REGISTRY,
        startBlock: 0,
      }));
    expect(variableOf(read)).toBe("ADDRESS_BOOK");
    expect(read).toThrow(
      /expected 8453 or 84532, got "local": .*set BOUNTY_ADDRESS, ANCHOR_REGISTRY_ADDRESS and START_BLOCK/,
    );
  });

  it("names the variable that is missing or malformed", () => {
    expect(
      variableOf(() => readIndexerSettings({ ...local, PONDER_RPC_URL_8453: undefined }, emptyBook)),
    ).toBe("PONDER_RPC_URL_8453");
    expect(variableOf(() => readIndexerSettings({ ...local, BOUNTY_ADDRESS: "0x12" }, emptyBook))).toBe(
      "BOUNTY_ADDRESS",
    );
    // a mixed-case address with a wrong EIP-55 checksum (a mistyped one), probe19 B nit
    const badChecksum = "0x52908400098527886e0F7030069857D2E4169EE7";
    expect(
      variableOf(() => readIndexerSettings({ ...local, ANCHOR_REGISTRY_ADDRESS: badChecksum }, emptyBook)),
    ).toBe("ANCHOR_REGISTRY_ADDRESS");
    expect(
      readIndexerSettings({ ...local, BOUNTY_ADDRESS: badChecksum.toLowerCase() }, emptyBook).bountyAddress,
    ).toBe(badChecksum.toLowerCase());
    expect(variableOf(() => readIndexerSettings({ ...local, START_BLOCK: "-1" }, emptyBook))).toBe(
      "START_BLOCK",
    );
    expect(variableOf(() => readIndexerSettings({ ...local, CHAIN_ID: "1" }, emptyBook))).toBe("CHAIN_ID");
    expect(variableOf(() => readIndexerSettings({ ...local, DATABASE_URL: "mysql://x" }, emptyBook))).toBe(
      "DATABASE_URL",
    );
    expect(
      variableOf(() => readIndexerSettings({ ...local, PONDER_DISABLE_CACHE: "maybe" }, emptyBook)),
    ).toBe("PONDER_DISABLE_CACHE");
    expect(
      variableOf(() => readIndexerSettings({ ...local, INDEXER_UNSAFE_SQL_ON_PGLITE: "yes" }, emptyBook)),
    ).toBe("INDEXER_UNSAFE_SQL_ON_PGLITE");
    expect(variableOf(() => readIndexerSettings({ ...local, INDEXER_SQL_ROLE: 'x"; DROP' }, emptyBook))).toBe(
      "INDEXER_SQL_ROLE",
    );
    // An undeployed address book entry (null addresses) is not guessed around.
    expect(
      variableOf(() => readIndexerSettings({ PONDER_RPC_URL_8453: "https://base.example/rpc" }, emptyBook)),
    ).toBe("BOUNTY_ADDRESS");
  });

  it("never echoes an RPC URL or a database URL it refuses (they carry keys and passwords)", () => {
    const messageOf = (env: Record<string, string | undefined>): string => {
      try {
        readIndexerSettings({ ...local, ...env }, emptyBook);
      } catch (e) {
        if (e instanceof IndexerSettingsError) return e.message;
        throw e;
      }
      throw new Error("did not throw");
    };
    expect(messageOf({ PONDER_RPC_URL_8453: "base-rpc/v2/PROVIDER_SECRET" })).not.toContain(
      "PROVIDER_SECRET",
    );
    expect(messageOf({ DATABASE_URL: "mysql://u:DB_PASSWORD@h/db" })).not.toContain("DB_PASSWORD");
  });

  it("refuses a ws:// or wss:// RPC URL naming the variable, never the URL (probe11 O2)", () => {
    for (const url of [
      "ws://127.0.0.1:1/v3/WSPATHKEY/?apikey=WSQKEY",
      "wss://base.example/v2/WSPATHKEY",
      "ftp://x/WSPATHKEY",
    ]) {
      let err: unknown;
      try {
        readIndexerSettings({ ...local, PONDER_RPC_URL_8453: url }, emptyBook);
      } catch (e) {
        err = e;
      }
      expect(err, url).toBeInstanceOf(IndexerSettingsError);
      expect((err as IndexerSettingsError).variable).toBe("PONDER_RPC_URL_8453");
      expect((err as Error).message).toMatch(/^PONDER_RPC_URL_8453: must be an http:\/\/ or https:\/\/ URL/);
      expect((err as Error).message).not.toMatch(/WSPATHKEY|WSQKEY/);
    }
  });
});
