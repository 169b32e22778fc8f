#!/usr/bin/env node
// The README's test command: set-up, quality gates, then every test suite.
// Ends with one summary line "tests: N passed, N failed, N skipped" counted from
// the runners' own closing lines (mocha and vitest).
import { spawn } from "node:child_process";
import { PNPM_SPEC, ROOT, elapsed, plainEnv, pnpm, setup } from "./lib/run.mjs";

const totals = { passed: 0, failed: 0, skipped: 0 };
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, "");

/** Counts one closing line of mocha ("12 passing", "1 failing", "2 pending") or vitest ("Tests  3 passed | 1 skipped (4)"). */
function count(line) {
  const plain = stripAnsi(line);
  const mocha = plain.match(/^\s*(\d+) (passing|failing|pending)\b/);
  if (mocha) {
    const key = { passing: "passed", failing: "failed", pending: "skipped" }[mocha[2]];
    totals[key] += Number(mocha[1]);
    return;
  }
  const vitest = plain.match(/\bTests\s+(\d+ (?:passed|failed|skipped|todo).*)$/);
  if (vitest) {
    for (const [, n, kind] of vitest[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
      totals[kind === "todo" ? "skipped" : kind] += Number(n);
    }
  }
}

/** Runs one suite through pnpm, echoing its output and counting its results. */
function suite(title, args) {
  console.log(`▶ ${title}`);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn("npx", ["--yes", PNPM_SPEC, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: plainEnv(),
    });
    let pending = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      const lines = (pending + chunk.toString("utf8")).split("\n");
      pending = lines.pop() ?? "";
      lines.forEach(count);
    });
    child.stderr.on("data", (chunk) => process.stderr.write(chunk));
    child.on("close", (code, signal) => {
      if (pending) count(pending);
      const time = elapsed(t0);
      console.log(`${code === 0 ? "✓" : "✗"} ${title}: ${time}`);
      resolve({ title, ok: code === 0, status: code ?? signal, time });
    });
  });
}

const t0 = performance.now();
setup();
console.log("▶ quality gates: solhint, prettier, tsc");
const tLint = performance.now();
pnpm(["run", "lint"]);
console.log(`✓ quality gates: ${elapsed(tLint)}`);

const results = [];
results.push(await suite("contract tests (Hardhat, local Base profile)", ["run", "test:contracts"]));
results.push(await suite("deployment and task tests (local Base-profile node)", ["run", "test:deploy"]));
results.push(await suite("package tests (vitest)", ["run", "test:packages"]));

const failedSuites = results.filter((r) => !r.ok);
for (const r of failedSuites) console.error(`✗ ${r.title} exited with ${r.status}`);
console.log(
  `whole run: ${elapsed(t0)} (${results.map((r) => `${r.title.split(" (")[0]} ${r.time}`).join(", ")})`,
);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (failedSuites.length > 0 || totals.failed > 0 || totals.passed === 0) process.exit(1);
