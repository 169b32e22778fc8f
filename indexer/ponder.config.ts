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
import { IndexerSettingsError, readIndexerSettings, type IndexerSettings } from "./lib/settings";

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

export default createConfig({
  database:
    s.database.kind === "postgres"
      ? { kind: "postgres", connectionString: s.database.connectionString }
      : { kind: "pglite", directory: s.database.directory },
  chains: {
    base: {
      id: s.chainId,
      rpc: s.rpcUrl,
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
