/**
 * probe31 B-F6: a platform command refused a value from the environment as a flag nobody gave
 * (`BENCH_BOUNTY_STORE=afile leaderboard x` said `error: --store afile: exists and is not a directory`).
 * Every option with an environment form of the platform commands (found from the program itself), given
 * a bad value in its variable only, is refused naming the variable; the flag itself is still named as the flag.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../src/program.js";
import { CLI_BIN } from "./serve-process.js";

/** A refused value of each variable, and the command (arguments) that reads it. */
const BAD: Record<string, { value: (dir: string) => string; args: string[] }> = {
  BENCH_BOUNTY_STORE: {
    value: (dir) => {
      const file = join(dir, "afile");
      writeFileSync(file, "");
      return file;
    },
    args: ["leaderboard", "x"],
  },
  BENCH_BOUNTY_RPC_URL: { value: () => "ftp://x", args: ["leaderboard", "x"] },
  BENCH_BOUNTY_PUBLIC_URL: { value: () => "http://u:p@x/", args: ["leaderboard", "x"] },
  BENCH_BOUNTY_BOUNTY_CONTRACT: { value: () => "0x12", args: ["leaderboard", "x"] },
  BENCH_BOUNTY_ANCHOR_REGISTRY: { value: () => "0x12", args: ["leaderboard", "x"] },
  BENCH_BOUNTY_USDC: { value: () => "0x12", args: ["leaderboard", "x"] },
  BENCH_BOUNTY_CHAIN_ID: { value: () => "abc", args: ["leaderboard", "x"] },
  BENCH_BOUNTY_AWARD_CONFIRMATIONS: { value: () => "abc", args: ["leaderboard", "x"] },
  BENCH_BOUNTY_AGENT_HIDE: {
    value: (dir) => join(dir, "no-such-dir"),
    args: ["run", "x", "--agent", "true", "--agent-id", "a"],
  },
  BENCH_BOUNTY_SERVER: {
    value: () => "ftp://x",
    args: ["account", "keys", "--api-key", "bbk_0123456789ab_x"],
  },
};

/** The platform commands' options with an environment form (serve's own are serve-options.test.ts's). */
function platformEnvOptions(): Map<string, string> {
  const walk = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(walk)];
  const found = new Map<string, string>();
  for (const cmd of walk(buildProgram()))
    if (cmd.name() !== "serve" && cmd.options.some((o) => o.long === "--store"))
      for (const o of cmd.options)
        if (o.envVar !== undefined && o.long !== undefined) found.set(o.envVar, o.long);
  return found;
}

function run(args: string[], env: Record<string, string>, cwd: string) {
  return spawnSync(process.execPath, [CLI_BIN, ...args], {
    encoding: "utf8",
    cwd,
    env: { PATH: process.env.PATH!, ...env },
    timeout: 60_000,
  });
}

describe("a refused value from a platform command's environment names the variable (probe31 B-F6)", () => {
  const options = platformEnvOptions();

  it("every option with an environment form is covered (BENCH_BOUNTY_API_KEY: a key, never checked for form)", () => {
    expect([...options.keys()].filter((v) => v !== "BENCH_BOUNTY_API_KEY").sort()).toEqual(
      Object.keys(BAD).sort(),
    );
  });

  it.each(
    Object.entries(BAD).map(([variable, bad]) => [variable, options.get(variable) ?? "?", bad] as const),
  )("%s is refused naming the variable, not %s", (variable, flag, bad) => {
    const dir = mkdtempSync(join(tmpdir(), "bb-platform-env-"));
    const r = run(bad.args, { [variable]: bad.value(dir) }, dir);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(variable);
    expect(r.stderr).not.toMatch(new RegExp(`^error: ${flag}\\b`));
  });

  // probe33 B-F5: an empty value made the current directory the store (platform.sqlite and runs/ in it)
  it("an empty BENCH_BOUNTY_STORE or --store '' is refused naming it, and nothing is created", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-platform-env-"));
    const why =
      "is invalid. the store directory is empty: name one, or leave the option out for ./.bench-bounty";
    const env = run(["account", "create", "--name", "e1"], { BENCH_BOUNTY_STORE: "" }, dir);
    expect(env.status, env.stderr).toBe(1);
    expect(env.stderr.split("\n")[0]).toBe(
      `error: option '--store <dir>' value '' from env 'BENCH_BOUNTY_STORE' ${why}`,
    );
    const flag = run(["leaderboard", "x", "--store", ""], {}, dir);
    expect(flag.status, flag.stderr).toBe(1);
    expect(flag.stderr.split("\n")[0]).toBe(`error: option '--store <dir>' argument '' ${why}`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("the probe's cases in full, and the flag itself still named as the flag", () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-platform-env-"));
    writeFileSync(join(dir, "afile"), "");
    const env = run(["leaderboard", "x"], { BENCH_BOUNTY_STORE: "afile" }, dir);
    expect(env.stderr.split("\n")[0]).toBe(
      "error: BENCH_BOUNTY_STORE (the environment form of --store) afile: exists and is not a directory",
    );
    const flag = run(["leaderboard", "x", "--store", "afile"], {}, dir);
    expect(flag.stderr.split("\n")[0]).toBe("error: --store afile: exists and is not a directory");
    const contract = run(["leaderboard", "x"], { BENCH_BOUNTY_BOUNTY_CONTRACT: "0x12" }, dir);
    expect(contract.stderr.split("\n")[0]).toBe(
      "error: BENCH_BOUNTY_BOUNTY_CONTRACT (the environment form of --bounty-contract) must be an address (0x + 40 hex), got 0x12",
    );
    const server = run(
      ["account", "keys", "--api-key", "bbk_0123456789ab_x"],
      { BENCH_BOUNTY_SERVER: "ftp://x" },
      dir,
    );
    expect(server.stderr.split("\n")[0]).toBe(
      "error: BENCH_BOUNTY_SERVER (the environment form of --server) must be an http:// or https:// URL (the value given is not printed: it may carry a key)",
    );
    const serverFlag = run(
      ["account", "keys", "--api-key", "bbk_0123456789ab_x", "--server", "ftp://x"],
      {},
      dir,
    );
    expect(serverFlag.stderr.split("\n")[0]).toBe(
      "error: --server must be an http:// or https:// URL (the value given is not printed: it may carry a key)",
    );
  });
});
