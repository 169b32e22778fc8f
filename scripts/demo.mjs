#!/usr/bin/env node
// The README's first command: sets the repo up (frozen-lockfile install and
// build), then runs the demo (demo/src/main.ts through tsx) with the
// arguments after `--`, e.g. `npm run demo -- --size 100 --keep-running`.
//
// DEMO_SKIP_SETUP=1 skips the install and build (for repeated runs).
// `--help` skips them too when the tree is already installed.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, setup } from "./lib/run.mjs";

const args = process.argv.slice(2);
const installed =
  existsSync(join(ROOT, "node_modules", "tsx")) &&
  existsSync(join(ROOT, "demo", "node_modules", "commander"));
const wantsHelp = args.includes("--help") || args.includes("-h");
if (process.env.DEMO_SKIP_SETUP !== "1" && !(wantsHelp && installed)) setup();

// One Node process runs the demo (tsx as an import hook), so Ctrl-C reaches it
// directly and it stops its own children before exiting.
const child = spawn(process.execPath, ["--import", "tsx", join("demo", "src", "main.ts"), ...args], {
  cwd: ROOT,
  stdio: "inherit",
});
// The terminal delivers Ctrl-C to the demo itself; keep this wrapper alive
// until the demo has cleaned up, and pass on a SIGTERM sent to the wrapper only.
process.on("SIGINT", () => {});
process.on("SIGTERM", () => child.kill("SIGTERM"));
child.on("exit", (code, signal) => {
  process.exit(code ?? (signal === "SIGINT" ? 130 : 1));
});
