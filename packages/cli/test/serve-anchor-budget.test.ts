/**
 * `serve --anchor-budget-per-account N` / `--anchor-budget-all N`: the batched-anchoring budget (the
 * platform's `batchAnchorQuota`, probe28 A-F1: every batched receipt costs the operator ~32,000 gas).
 * Documented in `--help` with its defaults and env names; bad values are refused before anything
 * starts, naming the flag. What the budget does is tested in the platform (`operator-spend.test.ts`).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "index.js");

describe("serve --anchor-budget-per-account / --anchor-budget-all", { timeout: 90_000 }, () => {
  it("are documented in serve --help with their defaults and env names", () => {
    const r = spawnSync(process.execPath, [bin, "serve", "--help"], { encoding: "utf8" });
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toMatch(/--anchor-budget-per-account <n> finalizes per 24 h of one account whose receipt/);
    expect(help).toContain("(default 200; the operator is not counted)");
    expect(help).toContain("BENCH_BOUNTY_ANCHOR_BUDGET_PER_ACCOUNT");
    expect(help).toMatch(
      /--anchor-budget-all <n> finalizes per 24 h of all accounts but the operator's .*\(default 5000\)/,
    );
    expect(help).toContain("BENCH_BOUNTY_ANCHOR_BUDGET_ALL");
  });

  it.each([
    ["--anchor-budget-per-account", "0"],
    ["--anchor-budget-per-account", "1.5"],
    ["--anchor-budget-all", "-1"],
    ["--anchor-budget-all", "abc"],
    ["--anchor-budget-all", ""],
  ])("refuses %s=%j naming the flag, before it listens", (flag, bad) => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-anchor-budget-"));
    const r = spawnSync(process.execPath, [bin, "serve", "--store", store, "--port", "0", `${flag}=${bad}`], {
      encoding: "utf8",
      env: { PATH: process.env.PATH! },
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${flag} must be an integer 1..999999999`);
    expect(r.stdout).not.toContain("listening on");
  });
});
