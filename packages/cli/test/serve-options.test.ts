/**
 * What `serve` says about its options and its store (probe27): it refuses `--api-key` (it acts as no
 * account; the operator's key is BENCH_BOUNTY_OPERATOR_KEY) and does not offer it; a chainless serve on
 * a store a chain process marked says its receipts stay pending for that chain; every command's help
 * states a default once.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Platform } from "@bench-bounty/platform";
import type { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { buildProgram } from "../src/program.js";
import { CLI_BIN, serveHelp, serveUrl } from "./serve-process.js";

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGTERM");
});

describe("serve's options and banner (probe27)", { timeout: 60_000 }, () => {
  // A-F7: `serve --api-key junk` started without a word; the key was never used
  it("refuses --api-key naming BENCH_BOUNTY_OPERATOR_KEY, never echoing the key, and its help does not offer it", () => {
    const store = mkdtempSync(join(tmpdir(), "bb-serve-apikey-"));
    const r = spawnSync(
      process.execPath,
      [CLI_BIN, "serve", "--store", store, "--port", "0", "--api-key", "junk-key-xyz"],
      { encoding: "utf8", env: { PATH: process.env.PATH! }, timeout: 60_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: serve takes no --api-key: .*BENCH_BOUNTY_OPERATOR_KEY/);
    expect(r.stdout).not.toContain("listening on");
    expect(r.stderr + r.stdout).not.toContain("junk-key-xyz");
    expect(serveHelp()).not.toContain("--api-key");
  });

  it("starts with BENCH_BOUNTY_API_KEY in its environment (a runner's key is not the server's)", async () => {
    const store = mkdtempSync(join(tmpdir(), "bb-serve-apikey-env-"));
    const child = spawn(process.execPath, [CLI_BIN, "serve", "--store", store, "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH!, BENCH_BOUNTY_API_KEY: "bb_some_runner_key" },
    });
    children.push(child);
    expect(await serveUrl(child)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  // A-F3: the banner said "receipt anchors: none (off-chain)" while every receipt stayed pending
  it("a chainless serve on a store marked with a chain says its receipts stay pending until that chain's process anchors them", async () => {
    const store = mkdtempSync(join(tmpdir(), "bb-serve-marked-"));
    const p = await Platform.open({ dir: store });
    await p.ctx.store.anchors.markOnChain(31337);
    await p.close();
    const child = spawn(process.execPath, [CLI_BIN, "serve", "--store", store, "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH! },
    });
    children.push(child);
    let out = "";
    await serveUrl(child, (o) => (out = o));
    expect(out).toContain("receipt anchors: pending until a process with chain 31337 anchors them");
    expect(out).not.toContain("none (off-chain)");
    // an unmarked store is off-chain, as before
    const fresh = mkdtempSync(join(tmpdir(), "bb-serve-unmarked-"));
    const plain = spawn(process.execPath, [CLI_BIN, "serve", "--store", fresh, "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH! },
    });
    children.push(plain);
    let plainOut = "";
    await serveUrl(plain, (o) => (plainOut = o));
    expect(plainOut).toContain("receipt anchors: none (off-chain)");
  });

  // B-F8: `run --help` said "(default 1) (default: 1)"
  it("every command's help states each default once", () => {
    const walk = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(walk)];
    const twice: string[] = [];
    for (const cmd of walk(buildProgram())) {
      for (const opt of cmd.options) {
        const help = cmd.createHelp().optionDescription(opt);
        if ((help.match(/\(default/g) ?? []).length > 1) twice.push(`${cmd.name()} ${opt.flags}: ${help}`);
      }
    }
    expect(twice).toEqual([]);
  });
});

describe(
  "a bad number from serve's environment names the variable (probe30 B-F7)",
  { timeout: 120_000 },
  () => {
    // `BENCH_BOUNTY_AGENTS_PER_ACCOUNT=abc serve` said `--agents-per-account must be ...`: a flag the user
    // did not give. Every numeric option of serve with an environment form, found from the program itself.
    const serve = buildProgram().commands.find((c) => c.name() === "serve")!;
    const numeric = serve.options.filter(
      (o) => o.envVar !== undefined && /<(n|ms|bytes|port|id)>$/.test(o.flags) && o.long !== undefined,
    );

    it("covers the numeric options (the list is not empty by accident)", () => {
      expect(numeric.map((o) => o.long)).toEqual(
        expect.arrayContaining([
          "--port",
          "--agents-per-account",
          "--anchor-flush-ms",
          "--answer-bytes-all",
          "--chain-id",
        ]),
      );
    });

    it.each(numeric.map((o) => [o.envVar!, o.long!] as const))(
      "%s=abc is refused naming %s's environment form, before it listens",
      (variable, flag) => {
        const store = mkdtempSync(join(tmpdir(), "bb-serve-env-num-"));
        const args = [CLI_BIN, "serve", "--store", store];
        if (flag !== "--port") args.push("--port", "0");
        const r = spawnSync(process.execPath, args, {
          encoding: "utf8",
          env: { PATH: process.env.PATH!, [variable]: "abc" },
          timeout: 60_000,
        });
        expect(r.status, r.stderr).toBe(1);
        // serve's own numbers say `VAR (the environment form of --flag)`; --award-confirmations and
        // --chain-id, the store's, are refused by commander's own parse, which names the variable too (`value 'abc' from env 'VAR'`)
        expect(r.stderr).toContain(variable);
        expect(r.stderr).not.toMatch(new RegExp(`^error: ${flag} must`));
        expect(r.stdout).not.toContain("listening on");
      },
    );

    it("the probe's case in full: BENCH_BOUNTY_AGENTS_PER_ACCOUNT=abc", () => {
      const store = mkdtempSync(join(tmpdir(), "bb-serve-env-num-"));
      const r = spawnSync(process.execPath, [CLI_BIN, "serve", "--store", store, "--port", "0"], {
        encoding: "utf8",
        env: { PATH: process.env.PATH!, BENCH_BOUNTY_AGENTS_PER_ACCOUNT: "abc" },
        timeout: 60_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(
        'error: BENCH_BOUNTY_AGENTS_PER_ACCOUNT (the environment form of --agents-per-account) must be an integer 1..999999999, got "abc"\n',
      );
    });

    // probe32 B-F2: the URL options and the listen address named the flag, not the variable given
    it.each([
      ["BENCH_BOUNTY_INDEXER_URL", "ftp://x", "--indexer-url", "is not an http(s) URL (scheme ftp;"],
      ["BENCH_BOUNTY_INDEXER_URL", "notaurl", "--indexer-url", "is not a URL (the value is not printed"],
      ["HOST", "999.1.1.1", "--host", "cannot listen on 999.1.1.1:0"],
    ])("%s=%s is refused naming the variable, not %s", (variable, value, flag, why) => {
      const store = mkdtempSync(join(tmpdir(), "bb-serve-env-url-"));
      const r = spawnSync(process.execPath, [CLI_BIN, "serve", "--store", store, "--port", "0"], {
        encoding: "utf8",
        env: { PATH: process.env.PATH!, [variable]: value },
        timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^error: ${variable} \\(the environment form of ${flag}\\):? `));
      expect(r.stderr).toContain(why);
      expect(r.stdout).not.toContain("listening on");
    });

    it("the flag itself is still named as the flag", () => {
      const store = mkdtempSync(join(tmpdir(), "bb-serve-env-num-"));
      const r = spawnSync(
        process.execPath,
        [CLI_BIN, "serve", "--store", store, "--port", "0", "--agents-per-account", "abc"],
        { encoding: "utf8", env: { PATH: process.env.PATH! }, timeout: 60_000 },
      );
      expect(r.status).toBe(1);
      expect(r.stderr).toBe('error: --agents-per-account must be an integer 1..999999999, got "abc"\n');
    });
  },
);
