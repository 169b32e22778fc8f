/**
 * Ponder configuration: BenchmarkBounty and AnchorRegistry on one chain
 * (Base 8453 by default; SPEC 1.3). Settings come from the environment and the
 * deployment address book: see `lib/settings.ts` and README.md.
 */
import {
  addressBook,
  anchorRegistryAbi,
  benchmarkBountyAbi,
  type AddressBookKey,
} from "@bench-bounty/contracts";
import { createConfig } from "ponder";
import { fileURLToPath } from "node:url";
import { redactedHttpTransport } from "./lib/rpcTransport";
import { IndexerSettingsError, readIndexerSettings, type IndexerSettings } from "./lib/settings";
import { databaseProblemAtStart } from "./lib/databaseCheck";
import { checkSqlRoleAtStart } from "./lib/sqlRoleCheck";
import { contractsProblemAtStart } from "./lib/contractsCheck";
import { rpcCall, runSyncGuard, syncGuardFailureLine } from "./lib/syncGuardRun";

function settings(): IndexerSettings {
  try {
    return readIndexerSettings(process.env, (key) => {
      const entry = addressBook[key as AddressBookKey];
      if (entry === undefined) throw new Error(`keys are ${Object.keys(addressBook).join(", ")}`);
      return entry;
    });
  } catch (e) {
    if (e instanceof IndexerSettingsError) {
      console.error(`indexer settings: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
}

const s = settings();

// One line naming DATABASE_URL when PostgreSQL refuses the connection, before the sync guard or Ponder
// connect (each printed raw pg stack traces quoting the URL's user and options: probe15 B-F5, B-F15).
if (s.database.kind === "postgres") {
  const problem = await databaseProblemAtStart(s.database.connectionString);
  if (problem !== null) {
    console.error(`indexer settings: ${problem}`);
    process.exit(1);
  }
}

// The addresses must run the protocol's code and START_BLOCK be reached (probe17 B-F9: an EOA, USDC or the
// two swapped served empty histories with no word). An RPC that cannot be read now is Ponder's to retry.
{
  const problem = await contractsProblemAtStart(s, (method, params) =>
    rpcCall(s.rpcUrl, method, params),
  ).catch((e: unknown) => {
    console.warn(
      `indexer: the contracts were not checked at start (${e instanceof Error ? e.message : String(e)})`,
    );
    return null;
  });
  if (problem !== null) {
    console.error(`indexer settings: ${problem}`);
    process.exit(1);
  }
}

// A local chain (cache disabled) restarted with the same chain id leaves blocks of the old
// chain in the sync store, which would hide the new chain's events: see lib/syncGuard.ts.
if (s.disableCache) {
  const guard = await runSyncGuard(s, fileURLToPath(new URL(".", import.meta.url))).catch((e: unknown) => {
    console.error(syncGuardFailureLine(s, e));
    process.exit(1);
  });
  if (guard.outcome === "discarded") {
    console.warn(
      `indexer: discarded the sync store's rows of chain ${s.chainId} from another chain (${guard.reason})`,
    );
  }
}

// INDEXER_SQL_ROLE must name a role the connection may take, or every /sql/db statement would be
// refused (probe14 D2-F12); its grants on the schema's tables are checked by /sql/db (503 sql_misconfigured)
if (s.database.kind === "postgres" && s.sqlRole !== undefined) {
  const problem = await checkSqlRoleAtStart(s.database.connectionString, s.sqlRole);
  if (problem !== null) {
    console.error(`indexer settings: INDEXER_SQL_ROLE: ${problem}`);
    process.exit(1);
  }
}

export default createConfig({
  database:
    s.database.kind === "postgres"
      ? { kind: "postgres", connectionString: s.database.connectionString }
      : { kind: "pglite", directory: s.database.directory },
  chains: {
    base: {
      id: s.chainId,
      // A transport, not the URL: Ponder's own client logs failed requests with the whole URL
      // (a provider key in the path or query); this one's errors name the RPC's origin only.
      // The settings refuse any other scheme than http(s) (a ws:// URL would be logged whole).
      // Its eth_getLogs answers are checked: a log of the contracts below that does not decode with its
      // event's ABI is refused loudly, not dropped by Ponder in silence (probe39 B-F6, lib/logCheck.ts).
      rpc: redactedHttpTransport(s.rpcUrl, undefined, undefined, [
        { name: "BenchmarkBounty", address: s.bountyAddress, abi: benchmarkBountyAbi },
        { name: "AnchorRegistry", address: s.anchorRegistryAddress, abi: anchorRegistryAbi },
      ]),
      pollingInterval: s.pollingIntervalMs,
      disableCache: s.disableCache,
      ethGetLogsBlockRange: s.ethGetLogsBlockRange,
    },
  },
  contracts: {
    BenchmarkBounty: {
      chain: "base",
      abi: benchmarkBountyAbi,
      address: s.bountyAddress,
      startBlock: s.startBlock,
    },
    AnchorRegistry: {
      chain: "base",
      abi: anchorRegistryAbi,
      address: s.anchorRegistryAddress,
      startBlock: s.startBlock,
    },
  },
});
