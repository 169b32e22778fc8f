/** Types of options.mjs (plain JavaScript so the demo's wrapper can check options before the set-up). */

/** The CLI agents shipped in `demo/agents/` (file name without `.mjs`). */
export declare const AGENT_NAMES: readonly string[];
/** Agent whose owner is the benchmark author: it ranks but takes no money (SPEC 7.2). */
export declare const AUTHOR_AGENT: string;

/** The demo's outputs in `--out` (file names), by the name `DemoResult.files` gives them. */
export declare const OUTPUT_FILES: Readonly<{ pack: string; verification: string; report: string }>;

/** A refused option value; `message` names the option. */
export declare class DemoOptionError extends Error {}

/** Parsed demo options. */
export interface DemoOptions {
  /** Rows sampled from the Seattle weather dataset (1461 rows in all). */
  readonly size: number;
  /** Share of the sampled rows that become public tasks; the rest are private. */
  readonly publicFraction: number;
  /** Agent names, a subset of {@link AGENT_NAMES}. */
  readonly agents: readonly string[];
  /** Seed of the row sample (the same seed picks the same rows). */
  readonly seed: number;
  /** Attempts per agent (the benchmark's max_attempts). */
  readonly attempts: number;
  /** Prize pool in whole USDC (locked as base units, 6 decimals). */
  readonly prizeUsdc: number;
  /** Directory for pack.json, verification.json and report.md (absolute). */
  readonly outDir: string;
  /**
   * First of three consecutive loopback ports (`--base-port`): the chain on it, the indexer on the next,
   * the service (and the web leaderboard) on the one after; null: ports the system picks.
   */
  readonly basePort: number | null;
  /** Keep the chain, the indexer and the services up after the run until Ctrl-C. */
  readonly keepRunning: boolean;
  /** Print the children's own log lines (hardhat node, ponder). */
  readonly verbose: boolean;
}

/** What {@link parseOptions} returns: the options plus whether `--help` was given. */
export interface ParsedDemoArgs extends DemoOptions {
  readonly help: boolean;
}

/** The `--help` text. */
export declare function helpText(): string;
/** Parses argv; throws {@link DemoOptionError} naming the option. */
export declare function parseOptions(argv: readonly string[]): ParsedDemoArgs;
/** Prints help (exit 0) or the error (exit 1), else returns the options. */
export declare function parseOptionsOrExit(argv: readonly string[]): DemoOptions;
/**
 * Probes the ports of `--base-port` (it and the next two on 127.0.0.1) before anything is set up:
 * null when each is free (or `basePort` is null), else one line naming the first busy port.
 */
export declare function busyBasePort(basePort: number | null): Promise<string | null>;
/** {@link busyBasePort} for the entry point: prints the refusal and exits 1 when a port is busy. */
export declare function refuseBusyPortsOrExit(options: DemoOptions): Promise<void>;
