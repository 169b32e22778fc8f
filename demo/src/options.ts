/**
 * Command-line options of `npm run demo` (commander). Every option has an
 * embedded default, so the bare command runs the whole lifecycle.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { resolve } from "node:path";

/** The CLI agents shipped in `demo/agents/` (file name without `.mjs`). */
export const AGENT_NAMES = [
  "always-sun",
  "precipitation-rule",
  "precip-temp-snow",
  "seasonal-rule",
  "author-baseline",
] as const;

/** Agent whose owner is the benchmark author: it ranks but takes no money (SPEC 7.2). */
export const AUTHOR_AGENT = "author-baseline";

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
  /** Keep the chain, the indexer and the evidence door up after the run until Ctrl-C. */
  readonly keepRunning: boolean;
  /** Print the children's own log lines (hardhat node, ponder). */
  readonly verbose: boolean;
}

function positiveInt(name: string, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number.`);
    const n = Number(value);
    if (n < 1 || n > max) throw new InvalidArgumentError(`${name} must be between 1 and ${max}.`);
    return n;
  };
}

function fraction(value: string): number {
  const n = Number(value);
  if (!/^(0(\.\d+)?|1(\.0*)?)$/.test(value) || n <= 0 || n >= 1) {
    throw new InvalidArgumentError(
      "--public-fraction must be a decimal strictly between 0 and 1, e.g. 0.25.",
    );
  }
  return n;
}

function agentList(value: string): string[] {
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(AGENT_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(`unknown agent ${unknown.join(", ")}; known: ${AGENT_NAMES.join(", ")}.`);
  }
  if (new Set(names).size !== names.length) throw new InvalidArgumentError("an agent is listed twice.");
  if (names.length === 0) throw new InvalidArgumentError("name at least one agent.");
  return names;
}

/** Builds the commander program (exported for the help test). */
export function buildProgram(): Command {
  return new Command("npm run demo --")
    .description(
      "Runs the whole bench-bounty prize lifecycle on a local Base-profile chain: publish a benchmark from the " +
        "Seattle weather dataset, lock a USDC prize with a permit, let the CLI agents compete, award, mint and " +
        "serve the evidence pack, claim, index, and verify the pack as a stranger.",
    )
    .addHelpText(
      "after",
      "\nExamples:\n" +
        "  npm run demo\n" +
        "  npm run demo -- --size 400 --attempts 2\n" +
        "  npm run demo -- --agents always-sun,precipitation-rule,author-baseline --keep-running\n" +
        "\nOutputs: <out>/pack.json, <out>/verification.json, <out>/report.md. DEMO_SKIP_SETUP=1 skips the install and build.",
    )
    .addOption(
      new Option("-n, --size <rows>", "rows sampled from vega-datasets seattle-weather.csv (1..1461)")
        .default(200)
        .argParser(positiveInt("--size", 1461)),
    )
    .addOption(
      new Option("--public-fraction <f>", "share of the rows that become public tasks (the rest are private)")
        .default(0.25)
        .argParser(fraction),
    )
    .addOption(
      new Option("-a, --agents <names>", `comma-separated agents from demo/agents/`)
        .default([...AGENT_NAMES], AGENT_NAMES.join(","))
        .argParser(agentList),
    )
    .addOption(
      new Option("-s, --seed <n>", "seed of the row sample")
        .default(8453)
        .argParser(positiveInt("--seed", 2 ** 31)),
    )
    .addOption(
      new Option("--attempts <n>", "attempts per agent (max_attempts)")
        .default(3)
        .argParser(positiveInt("--attempts", 10)),
    )
    .addOption(
      new Option("--prize <usdc>", "prize pool in whole USDC, split top_n_split 50/30/20")
        .default(100)
        .argParser(positiveInt("--prize", 1_000_000)),
    )
    .addOption(
      new Option("-o, --out <dir>", "output directory for pack.json, verification.json, report.md").default(
        "out",
      ),
    )
    .addOption(
      new Option(
        "-k, --keep-running",
        "keep the chain, the indexer and the evidence door running after the run (Ctrl-C stops them)",
      ).default(false),
    )
    .addOption(
      new Option("-v, --verbose", "print the log lines of the hardhat node and the indexer").default(false),
    )
    .showHelpAfterError()
    .allowExcessArguments(false);
}

/** Parses argv (without the node and script entries). Exits with usage on a bad option. */
export function parseOptions(argv: readonly string[]): DemoOptions {
  const program = buildProgram();
  program.parse([...argv], { from: "user" });
  const o = program.opts<{
    size: number;
    publicFraction: number;
    agents: string[];
    seed: number;
    attempts: number;
    prize: number;
    out: string;
    keepRunning: boolean;
    verbose: boolean;
  }>();
  return {
    size: o.size,
    publicFraction: o.publicFraction,
    agents: o.agents,
    seed: o.seed,
    attempts: o.attempts,
    prizeUsdc: o.prize,
    outDir: resolve(o.out),
    keepRunning: o.keepRunning,
    verbose: o.verbose,
  };
}
