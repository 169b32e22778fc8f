// Command-line options of `npm run demo`. Plain JavaScript on Node's own `util.parseArgs`, with no
// dependency, so that `scripts/demo.mjs` can check them BEFORE the install and build of a fresh
// clone (a mistyped option is refused at once, not after the set-up). Types: options.d.mts.
import { createServer } from "node:net";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

/** The CLI agents shipped in `demo/agents/` (file name without `.mjs`). */
export const AGENT_NAMES = Object.freeze([
  "always-sun",
  "precipitation-rule",
  "precip-temp-snow",
  "seasonal-rule",
  "author-baseline",
]);

/** Agent whose owner is the benchmark author: it ranks but takes no money (SPEC 7.2). */
export const AUTHOR_AGENT = "author-baseline";

/**
 * The demo's outputs in `--out`, by the name `DemoResult.files` gives them. A run removes them from
 * `--out` before its first phase (`runDemo`), so every one there is its own.
 */
export const OUTPUT_FILES = Object.freeze({
  pack: "pack.json",
  verification: "verification.json",
  report: "report.md",
});

/** A refused option value; `message` names the option. */
export class DemoOptionError extends Error {
  name = "DemoOptionError";
}

const SPEC = {
  size: {
    type: "string",
    short: "n",
    default: "200",
    arg: "<rows>",
    help: "rows sampled from vega-datasets seattle-weather.csv (1..1461)",
  },
  "public-fraction": {
    type: "string",
    default: "0.25",
    arg: "<f>",
    help: "share of the rows that become public tasks (the rest are private)",
  },
  agents: {
    type: "string",
    short: "a",
    default: AGENT_NAMES.join(","),
    arg: "<names>",
    help: "comma-separated agents from demo/agents/",
  },
  seed: { type: "string", short: "s", default: "8453", arg: "<n>", help: "seed of the row sample" },
  attempts: { type: "string", default: "3", arg: "<n>", help: "attempts per agent (max_attempts)" },
  prize: {
    type: "string",
    default: "100",
    arg: "<usdc>",
    help: "prize pool in whole USDC, split top_n_split 50/30/20",
  },
  out: {
    type: "string",
    short: "o",
    default: "out",
    arg: "<dir>",
    help: "output directory for pack.json, verification.json, report.md",
  },
  "base-port": {
    type: "string",
    default: "",
    arg: "<port>",
    help: "listen on fixed loopback ports: the chain on <port>, the indexer on <port>+1, the service and web leaderboard on <port>+2 (1024..65533; default: ports the system picks)",
  },
  "keep-running": {
    type: "boolean",
    short: "k",
    default: false,
    help: "keep the chain, the indexer and the services running after the run (Ctrl-C stops them)",
  },
  verbose: {
    type: "boolean",
    short: "v",
    default: false,
    help: "print the log lines of the hardhat node and the indexer",
  },
  help: { type: "boolean", short: "h", default: false, help: "display help for command" },
};

/** The `--help` text. */
export function helpText() {
  const rows = Object.entries(SPEC).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : "    "}--${name}${o.arg ? ` ${o.arg}` : ""}`;
    const dflt = o.type === "string" && o.default !== "" ? ` (default: ${o.default})` : "";
    return `  ${flag.padEnd(30)} ${o.help}${dflt}`;
  });
  return [
    "Usage: npm run demo -- [options]",
    "",
    "Runs the whole bench-bounty prize lifecycle on a local Base-profile chain: publish a benchmark from the",
    "Seattle weather dataset, lock a USDC prize with a permit, let the CLI agents compete, award, mint and",
    "serve the evidence pack, claim, index, and verify the pack as a stranger.",
    "",
    "Options:",
    ...rows,
    "",
    "Examples:",
    "  npm run demo",
    "  npm run demo -- --size 400 --attempts 2",
    "  npm run demo -- --agents always-sun,precipitation-rule,author-baseline --keep-running",
    "  npm run demo -- --base-port 43000 --keep-running",
    "",
    "Outputs: <out>/pack.json, <out>/verification.json, <out>/report.md. DEMO_SKIP_SETUP=1 skips the install and build.",
  ].join("\n");
}

function positiveInt(name, value, max) {
  if (!/^\d+$/.test(value)) throw new DemoOptionError(`--${name} must be a whole number.`);
  const n = Number(value);
  if (n < 1 || n > max) throw new DemoOptionError(`--${name} must be between 1 and ${max}.`);
  return n;
}

/** `--base-port`: the first of three consecutive loopback ports (the chain, the indexer, the service). */
function basePort(value) {
  if (!/^\d+$/.test(value) || Number(value) < 1024 || Number(value) > 65533)
    throw new DemoOptionError(
      "--base-port must be a whole number between 1024 and 65533 (it and the next two ports are used).",
    );
  return Number(value);
}

function fraction(value) {
  const n = Number(value);
  if (!/^(0(\.\d+)?|1(\.0*)?)$/.test(value) || n <= 0 || n >= 1) {
    throw new DemoOptionError("--public-fraction must be a decimal strictly between 0 and 1, e.g. 0.25.");
  }
  return n;
}

function agentList(value) {
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !AGENT_NAMES.includes(n));
  if (unknown.length > 0) {
    throw new DemoOptionError(
      `--agents: unknown agent ${unknown.join(", ")}; known: ${AGENT_NAMES.join(", ")}.`,
    );
  }
  if (new Set(names).size !== names.length) throw new DemoOptionError("--agents: an agent is listed twice.");
  if (names.length === 0) throw new DemoOptionError("--agents: name at least one agent.");
  return names;
}

/** An option's flags as commander writes them (`-a, --agents <names>`), for messages. */
function flagsOf(name) {
  const o = SPEC[name];
  return `${o.short ? `-${o.short}, ` : ""}--${name}${o.arg ? ` ${o.arg}` : ""}`;
}

/**
 * The one rule of every bench-bounty command line (`refuseRepeatedOptions` of
 * `@bench-bounty/verifier/cli`, probe29 B-F2), here on `parseArgs`'s tokens since this file may not
 * import the verifier (it runs before the install): a value-taking option given a second time
 * (`-a x -a y`, `--size=5 --size 6`, long and short forms alike) is refused naming it and both values,
 * never read as its last value (probe37 B-F7: `util.parseArgs` keeps the last). The message is the
 * verifier's `repeatedOptionMessage` (test/units.test.ts holds them equal). Boolean flags may repeat.
 * @param tokens `parseArgs`'s `tokens`
 * @throws DemoOptionError on the first option given twice
 */
function refuseRepeated(tokens) {
  const first = new Map();
  for (const t of tokens) {
    if (t.kind !== "option" || t.value === undefined) continue;
    const seen = first.get(t.name);
    if (seen === undefined) {
      first.set(t.name, t.value);
      continue;
    }
    const hint =
      t.name === "agents" ? "; to run several agents, list them in one, comma-separated: --agents a,b" : "";
    throw new DemoOptionError(
      `option '${flagsOf(t.name)}' is given twice (${JSON.stringify(seen)} and ${JSON.stringify(t.value)}): give it once (a single-valued option is never read as its last value)${hint}`,
    );
  }
}

/**
 * Parses argv (without the node and script entries). Throws {@link DemoOptionError} naming the option
 * on a bad or unknown option, or a value-taking option given twice (both values named); returns
 * `{ help: true }` for `--help`.
 */
export function parseOptions(argv) {
  let values;
  try {
    const options = Object.fromEntries(
      Object.entries(SPEC).map(([k, o]) => [
        k,
        o.short ? { type: o.type, short: o.short, default: o.default } : { type: o.type, default: o.default },
      ]),
    );
    let tokens;
    ({ values, tokens } = parseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: false,
      tokens: true,
    }));
    refuseRepeated(tokens);
  } catch (err) {
    if (err && typeof err === "object" && "code" in err && String(err.code).startsWith("ERR_PARSE_ARGS")) {
      throw new DemoOptionError(err.message);
    }
    throw err;
  }
  return {
    help: values.help,
    size: positiveInt("size", values.size, 1461),
    publicFraction: fraction(values["public-fraction"]),
    agents: agentList(values.agents),
    seed: positiveInt("seed", values.seed, 2 ** 31),
    attempts: positiveInt("attempts", values.attempts, 10),
    prizeUsdc: positiveInt("prize", values.prize, 1_000_000),
    outDir: resolve(values.out),
    basePort: values["base-port"] === "" ? null : basePort(values["base-port"]),
    keepRunning: values["keep-running"],
    verbose: values.verbose,
  };
}

/**
 * `parseOptions` for the entry points: prints the help and exits 0 for `--help`, prints the error and
 * the usage line and exits 1 for a bad option; otherwise returns the options.
 */
export function parseOptionsOrExit(argv) {
  try {
    const o = parseOptions(argv);
    if (o.help) {
      console.log(helpText());
      process.exit(0);
    }
    return o;
  } catch (err) {
    if (!(err instanceof DemoOptionError)) throw err;
    console.error(`error: ${err.message}\n(npm run demo -- --help lists the options)`);
    process.exit(1);
  }
}

/** The loopback ports a demo with `--base-port` listens on, each with what listens there. */
function basePorts(base) {
  return [
    [base, "the chain"],
    [base + 1, "the indexer"],
    [base + 2, "the service and web leaderboard"],
  ];
}

/** Whether `port` on 127.0.0.1 can be listened on now: null, or why not (`in use by another process`). */
function probePort(port) {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", (err) =>
      done(
        err && err.code === "EADDRINUSE"
          ? "is in use by another process"
          : `cannot be listened on (${err.message})`,
      ),
    );
    server.listen({ host: "127.0.0.1", port, exclusive: true }, () => server.close(() => done(null)));
  });
}

/**
 * The ports of `--base-port` (it and the next two on 127.0.0.1), probed before anything is set up or
 * started (probe39 B-N3: a second demo on busy ports ran the 76 s set-up first, then failed in phase 1
 * and rewrote report.md). A port freed or taken after the probe is still caught where it is used.
 * @param basePort `DemoOptions.basePort` (null: ports the system picks, nothing to probe)
 * @returns null when every port is free, else one line naming the first busy port, what would listen
 *   there and the option
 */
export async function busyBasePort(basePort) {
  if (basePort === null) return null;
  for (const [port, what] of basePorts(basePort)) {
    const why = await probePort(port);
    if (why !== null)
      return (
        `--base-port ${basePort}: 127.0.0.1:${port} (${what}) ${why}: stop it, or choose another --base-port ` +
        `(the demo listens on ${basePort}, ${basePort + 1} and ${basePort + 2})`
      );
  }
  return null;
}

/**
 * {@link busyBasePort} for the entry point: prints the refusal and exits 1 when a port is busy.
 * @param options the parsed options
 */
export async function refuseBusyPortsOrExit(options) {
  const busy = await busyBasePort(options.basePort);
  if (busy === null) return;
  console.error(`error: ${busy}`);
  process.exit(1);
}
