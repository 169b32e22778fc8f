/**
 * probe35 B-F1: a printed command (`resume`, the `anchor` retry) started with `npx` and the bare name when the
 * CLI was not started by `./bin/bench-bounty`; pasted outside the clone, npx asks the public npm registry
 * for a package of that name (and would run whatever holds it, with the API key in its environment).
 * The program a printed command names must work pasted as printed from any directory.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { invokedAs } from "../src/cli/common.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("invokedAs: the program a printed command names", () => {
  it("without BENCH_BOUNTY_INVOKED_AS, is the clone's bin by its absolute path, which runs pasted in a directory outside the clone", () => {
    vi.stubEnv("BENCH_BOUNTY_INVOKED_AS", undefined);
    const program = invokedAs();
    expect(program).not.toMatch(/\bnpx\b/);
    // a competitor's own directory; npm offline, so a registry look-up fails at once instead of fetching
    const elsewhere = mkdtempSync(join(tmpdir(), "bb-invoked-as-"));
    const r = spawnSync("sh", ["-c", `${program} --help`], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH!, HOME: elsewhere, npm_config_offline: "true" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status, `${program} --help in ${elsewhere}: ${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/\n\s+resume\b/);
  });

  it("with BENCH_BOUNTY_INVOKED_AS (./bin/bench-bounty passes its $0), is that path, shell-quoted", () => {
    vi.stubEnv("BENCH_BOUNTY_INVOKED_AS", "/opt/my clone/bin/bench-bounty");
    expect(invokedAs()).toBe("'/opt/my clone/bin/bench-bounty'");
  });
});
