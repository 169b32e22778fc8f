/**
 * The state the demo's phases share: what each phase started or learned, read by the phases after it.
 * A phase that needs something an earlier phase did not produce gets a clear error from {@link need}.
 */
import type { DevChain } from "@bench-bounty/devchain";
import { join } from "node:path";
import type { RunningIndexer } from "@bench-bounty/indexer/testing";
import type { DemoOptions } from "./options.mjs";
import type { PhaseContext } from "./phase-runner.js";
import type { ProcessRegistry } from "./processes.js";
import type { DemoResult } from "./result.js";

/** The shared state of one demo run. */
export interface DemoContext {
  readonly options: DemoOptions;
  readonly registry: ProcessRegistry;
  /** The platform store directory (temporary; kept when a phase failed). */
  readonly storeDir: string;
  /** What the caller gets back (filled phase by phase). */
  readonly result: DemoResult;
  chain?: DevChain;
  indexer?: RunningIndexer;
  /** Base URL of `bench-bounty serve` (`http://127.0.0.1:PORT`): REST, MCP, the door, the web app. */
  serviceUrl?: string;
  /** The operator's API key handed to `serve` (may award over the API). */
  operatorKey?: string;
  /** The author's API key (their account on the service). */
  authorKey?: string;
  /** The demo's own address book file handed to the Hardhat tasks. */
  addressBook?: string;
  /** The benchmark as the service published it. */
  published?: { slug: string; commit_root: string; leaf_count: number };
  bountyId?: bigint;
  /** Unix seconds. */
  closesAt?: bigint;
}

/** One phase of the demo: a name (progress output and report) and its body. */
export interface DemoPhase {
  readonly name: string;
  run(ctx: DemoContext, p: PhaseContext): Promise<void>;
}

/**
 * Returns a value an earlier phase must have produced.
 * @throws Error naming what is missing
 */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing: an earlier phase did not produce it`);
  return value;
}

/**
 * The service's store directory inside the demo's `storeDir` (`bench-bounty serve --store`): its
 * `platform.sqlite` holds every benchmark's gold and salts, and the accounts' key hashes.
 */
export function serviceStoreDir(storeDir: string): string {
  return join(storeDir, "service");
}

/**
 * What every agent run the demo starts hides from its agents (`bench-bounty run --agent-hide`): the
 * whole `storeDir`, the service's store ({@link serviceStoreDir}: every gold) with it, the runners'
 * checkpoints and agent logs, the address book and the commitment. The demo's agents run as the
 * service's own user on the serving host, where a sandboxed agent reads every file its user can
 * outside the hidden paths (probe35 A-F1: an agent copied the service's `platform.sqlite` and read
 * every gold).
 */
export function agentHiddenPaths(storeDir: string): string[] {
  return [storeDir];
}
