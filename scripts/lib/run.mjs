// Small process helpers for the repo's entry scripts (setup, test, demo).
// Only Node 20 and npm are assumed: pnpm is run through `npx` at the exact
// version pinned in package.json's `packageManager` field.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
/** e.g. "pnpm@12.4.2" */
export const PNPM_SPEC = pkg.packageManager;

/**
 * Runs a command with inherited stdio in the repo root; exits the process with
 * the command's status when it fails (the failing command is named first).
 */
export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", ...opts });
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

/** Installs the workspace from the lockfile and builds contracts and packages. */
export function setup() {
  console.log(`▶ installing dependencies with ${PNPM_SPEC} (frozen lockfile)`);
  pnpm(["install", "--frozen-lockfile"]);
  console.log("▶ compiling contracts and building packages");
  pnpm(["run", "build"]);
}
