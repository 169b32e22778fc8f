// Small process helpers for the repo's entry scripts (setup, test, demo).
// Only Node 20 and npm are assumed: pnpm is run through `npx` at the exact
// version pinned in package.json's `packageManager` field.
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
/** e.g. "pnpm@12.4.2" */
export const PNPM_SPEC = pkg.packageManager;

/** Where the set-up writes the install and build output (gitignored by `*.log`). */
export const SETUP_LOG = join(ROOT, ".logs", "setup.log");

/** Environment for children whose output goes to a file or a pipe: no colour codes, no update notices. */
export function plainEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  if (!process.stdout.isTTY) {
    env.NO_COLOR = "1";
    env.FORCE_COLOR = "0";
  }
  env.npm_config_update_notifier = "false";
  return env;
}

/** Seconds since `t0` (a `performance.now()` reading), one decimal. */
export function elapsed(t0) {
  return `${((performance.now() - t0) / 1000).toFixed(1)} s`;
}

/**
 * Runs a command with inherited stdio in the repo root; exits the process with
 * the command's status when it fails (the failing command is named first).
 */
export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", env: plainEnv(), ...opts });
  if (res.error) {
    console.error(`\n✗ could not start ${cmd}: ${res.error.message}`);
    process.exit(1);
  }
  if (res.status !== 0) {
    console.error(`\n✗ ${[cmd, ...args].join(" ")} exited with ${res.status ?? res.signal}`);
    process.exit(res.status ?? 1);
  }
}

/** Runs pnpm (pinned version) with the given arguments. */
export function pnpm(args, opts = {}) {
  run("npx", ["--yes", PNPM_SPEC, ...args], opts);
}

/** Prints the last `n` lines of a log file to stderr. */
function tail(file, n) {
  const lines = readFileSync(file, "utf8").split("\n");
  console.error(lines.slice(-n).join("\n"));
}

/**
 * Installs the workspace from the lockfile and builds contracts and packages, as one phase:
 * one line when it starts, one with its time when it ends; the install and build output (package
 * lists, compiler warnings about library files) goes to {@link SETUP_LOG}, whose last lines are
 * printed when a step fails. `BENCH_BOUNTY_VERBOSE_SETUP=1` prints it all instead.
 */
export function setup() {
  const t0 = performance.now();
  const verbose = process.env.BENCH_BOUNTY_VERBOSE_SETUP === "1";
  const logName = relative(ROOT, SETUP_LOG);
  console.log(
    `▶ set-up: install (${PNPM_SPEC}, frozen lockfile) and build${verbose ? "" : ` (log: ${logName})`}`,
  );
  mkdirSync(dirname(SETUP_LOG), { recursive: true });
  const fd = verbose ? null : openSync(SETUP_LOG, "w");
  const stdio = verbose ? "inherit" : ["ignore", fd, fd];
  let failed = false;
  let failure;
  try {
    for (const [what, args] of [
      ["install", ["install", "--frozen-lockfile"]],
      ["build", ["run", "build"]],
    ]) {
      const res = spawnSync("npx", ["--yes", PNPM_SPEC, ...args], { cwd: ROOT, stdio, env: plainEnv() });
      if (res.error || res.status !== 0) {
        if (fd !== null) {
          closeSync(fd);
          tail(SETUP_LOG, 40);
        }
        const why = res.error ? res.error.message : `exit ${res.status ?? res.signal}`;
        console.error(`\n✗ set-up failed at ${what} (${why}) after ${elapsed(t0)}; whole log: ${logName}`);
        process.exit(res.status || 1);
      }
    }
  } catch (err) {
    failed = true;
    failure = err;
  }
  // Closed here rather than in a `finally`, so that an error closing it needs no throw from a `finally`.
  if (fd !== null) {
    try {
      closeSync(fd);
    } catch (err) {
      if (err.code !== "EBADF") throw err;
    }
  }
  if (failed) throw failure;
  console.log(`✓ set-up done in ${elapsed(t0)}`);
}
