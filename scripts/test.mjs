#!/usr/bin/env node
// The README's test command: set-up, quality gates, then every test suite.
import { pnpm, setup } from "./lib/run.mjs";

setup();
console.log("▶ quality gates: solhint, prettier, tsc");
pnpm(["run", "lint"]);
console.log("▶ contract tests (Hardhat, local Base profile)");
pnpm(["run", "test:contracts"]);
console.log("▶ deployment and task tests (local Base-profile node)");
pnpm(["run", "test:deploy"]);
console.log("▶ package tests (vitest)");
pnpm(["run", "test:packages"]);
console.log("✓ all test suites passed");
