#!/usr/bin/env node
// The README's first command: sets the repo up (frozen-lockfile install and
// build), then runs the demo (demo/src/main.ts through tsx) with the
// arguments after `--`, e.g. `npm run demo -- --size 100 --keep-running`.
//
// The options are checked first (demo/src/options.mjs has no dependency), so a mistyped option
// (or a busy --base-port port) is refused at once and `--help` answers without any set-up. DEMO_SKIP_SETUP=1 skips the install
// and build (for repeated runs).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseOptionsOrExit, refuseBusyPortsOrExit } from "../demo/src/options.mjs";
import { ROOT, setup } from "./lib/run.mjs";

const args = process.argv.slice(2);
// the ports of --base-port are probed before the set-up too (probe39 B-N3: a busy port was found in
// phase 1, after the 76 s install and build)
await refuseBusyPortsOrExit(parseOptionsOrExit(args));
if (process.env.DEMO_SKIP_SETUP !== "1") setup();

// One Node process runs the demo (tsx as an import hook), so Ctrl-C reaches it
// directly and it stops its own children before exiting.
const child = spawn(process.execPath, ["--import", "tsx", join("demo", "src", "main.ts"), ...args], {
  cwd: ROOT,
  stdio: "inherit",
});
// Signals sent to this wrapper are passed on to the demo, which stops its children (hardhat node,
// Ponder) before exiting; a Ctrl-C that reaches both is one interrupt to the demo (it ignores a
// repeat within 2 s). If this wrapper's own parent dies (e.g. `timeout 60 npm run demo` killed
// npm), the demo is told to stop too instead of running on under PID 1; the demo also watches this
// wrapper and stops when it dies.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  });
}
const parent = process.ppid;
const parentWatch = setInterval(() => {
  let alive = process.ppid === parent;
  if (alive) {
    try {
      process.kill(parent, 0);
    } catch (e) {
      alive = e.code === "EPERM";
    }
  }
  if (!alive) {
    clearInterval(parentWatch);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  }
}, 1000);
parentWatch.unref();
child.on("exit", (code, signal) => {
  process.exit(code ?? (signal === "SIGINT" ? 130 : 1));
});
