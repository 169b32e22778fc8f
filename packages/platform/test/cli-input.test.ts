import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isLoopbackHost, openStore, parseUsdcAmount } from "../src/cli.js";
import { PlatformError } from "../src/errors.js";
import { ensureWritableDir } from "../src/store.js";
import { cleanup, openedBeforeOutage, runCli, tempDir } from "./helpers.js";

afterEach(() => {
  cleanup();
  process.exitCode = 0;
  vi.restoreAllMocks();
});

describe("store and output directories are checked before any work", () => {
  it("ensureWritableDir creates missing levels and refuses a file, a path under a file and /proc", () => {
    const dir = tempDir();
    const nested = join(dir, "a", "b", "c");
    ensureWritableDir(nested, "--store");
    expect(existsSync(nested)).toBe(true);
    ensureWritableDir(nested, "--store"); // idempotent
    const file = join(dir, "afile");
    writeFileSync(file, "x");
    expect(() => ensureWritableDir(file, "--store")).toThrow(/--store .*not a directory/);
    expect(() => ensureWritableDir(join(file, "x"), "--out")).toThrow(/--out .*not a directory/);
    expect(() => ensureWritableDir(join(file, "x"), "--out")).toThrow(PlatformError);
    if (existsSync("/proc/self")) {
      const started = Date.now();
      expect(() => ensureWritableDir("/proc/nope/deeper", "--store")).toThrow(/--store \/proc\/nope\/deeper/);
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it("show with a store that is a file or under /proc: one line naming --store, exit 1", async () => {
    const dir = tempDir();
    const file = join(dir, "afile");
    writeFileSync(file, "x");
    for (const store of [file, "/proc/x"]) {
      if (store.startsWith("/proc") && !existsSync("/proc/self")) continue;
      const r = await runCli("show", "g3", "--store", store);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(new RegExp(`^error: --store ${store}: `));
      expect(r.err).not.toMatch(/at .*\.[jt]s:\d+|internal error/);
    }
  });
});

describe("lock: money options", () => {
  it("--pool takes USDC decimals exactly (6 decimals), more decimals and signs are refused", () => {
    expect(parseUsdcAmount("100")).toBe(100_000_000n);
    expect(parseUsdcAmount("12.5")).toBe(12_500_000n);
    expect(parseUsdcAmount("0.000001")).toBe(1n);
    expect(parseUsdcAmount("123456789012345678.123456")).toBe(123456789012345678123456n);
    for (const bad of ["0", "0.0", "-5", "1.0000001", "1e6", "abc", "", "1."])
      expect(() => parseUsdcAmount(bad), bad).toThrow(/pool/);
  });

  it("refuses a missing --threshold-bps or --payout-rule, and out-of-range values, before opening the store", async () => {
    const store = join(tempDir(), "s");
    const base = ["lock", "g3", "--store", store, "--pool", "10"];
    let r = await runCli(...base, "--payout-rule", "top_n_split");
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/--threshold-bps/);
    r = await runCli(...base, "--threshold-bps", "5000");
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/--payout-rule/);
    r = await runCli(...base, "--threshold-bps", "99999", "--payout-rule", "top_n_split");
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/threshold-bps.*0\.\.10000/);
    r = await runCli(
      "lock",
      "g3",
      "--store",
      store,
      "--pool",
      "-5",
      "--threshold-bps",
      "0",
      "--payout-rule",
      "top_n_split",
    );
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/--pool/);
    expect(existsSync(store)).toBe(false);
  });
});

describe("user mistakes on run", () => {
  // probe40 V-N2: an exported empty BENCH_BOUNTY_API_KEY stopped the keyless operator's commands with
  // "invalid API key: none given"; an empty value is no key, as an unset variable is
  it("an empty BENCH_BOUNTY_API_KEY or --api-key '' is no key: the keyless operator's commands run", async () => {
    const store = join(tempDir(), "s");
    expect((await runCli("account", "create", "--name", "alice", "--store", store)).code).toBe(0);
    const flag = await runCli("datasets", "--store", store, "--api-key", "");
    expect(flag.code, flag.err).toBe(0);
    expect(JSON.parse(flag.out)).toMatchObject({ datasets: [] });
    vi.stubEnv("BENCH_BOUNTY_API_KEY", "");
    try {
      const env = await runCli("datasets", "--store", store);
      expect(env.code, env.err).toBe(0);
    } finally {
      vi.unstubAllEnvs();
    }
    // a command that acts on a key's account says it needs one, naming the variable (it said "invalid API
    // key: none given")
    for (const args of [["keys"], ["issue-key"], ["revoke", "bbk_0123456789ab"]]) {
      const r = await runCli("account", ...args, "--store", store, "--api-key", "");
      expect(r.code, args[0]).toBe(1);
      expect(r.err, args[0]).toMatch(
        /^error: this needs --api-key \(or BENCH_BOUNTY_API_KEY\): the keys listed, issued or revoked are that key's account's/,
      );
    }
  });

  // probe14 D3-F14: `--agent ""` ran `sh -c ""` (no answer, exit 0) and used up an attempt
  it.each(["", "   "])(
    "run and resume refuse an empty --agent %j naming it, before opening the store",
    async (agent) => {
      const store = join(tempDir(), "s");
      for (const args of [
        ["run", "g3", "--agent", agent, "--agent-id", "a1", "--store", store],
        ["resume", "run-x", "--agent", agent, "--store", store],
      ]) {
        const r = await runCli(...args);
        expect(r.code, args.join(" ")).not.toBe(0);
        expect(r.err).toMatch(/--agent <command>.*the agent command is empty/);
      }
      expect(existsSync(store)).toBe(false);
    },
  );
});

describe("timer bounds", () => {
  // probe16 B-F13: --timeout-ms over 2^31-1 was accepted, and Node's timer fired after 1 ms
  it("run and resume refuse a --timeout-ms over a timer's maximum, naming it, before opening the store", async () => {
    const store = join(tempDir(), "s");
    for (const args of [
      ["run", "g3", "--agent", "true", "--agent-id", "a1", "--timeout-ms", "2147483648", "--store", store],
      ["resume", "run-x", "--timeout-ms", "99999999999999", "--store", store],
    ]) {
      const r = await runCli(...args);
      expect(r.code, args.join(" ")).not.toBe(0);
      expect(r.err).toMatch(/--timeout-ms <ms>.*timeout-ms must be an integer in 1\.\.2147483647/);
    }
    expect(existsSync(store)).toBe(false);
  });
});

describe("openStore", () => {
  // probe14 D3-F7: serve's award waited the platform's 180 s for its transaction; its request ended at 60 s
  it("hands awardWaitMs to the chain (serve keeps an award under its request limit)", async () => {
    vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", "0x" + "11".repeat(32));
    // a made-up chain: its genesis read at open answered (store28 R-F1)
    const { platform } = await openedBeforeOutage(`0x${"ab".repeat(32)}`, () =>
      openStore(
        {
          store: join(tempDir(), "s"),
          rpcUrl: "http://127.0.0.1:1",
          chainId: "31337",
          bountyContract: "0x" + "22".repeat(20),
          anchorRegistry: "0x" + "33".repeat(20),
          usdc: "0x" + "44".repeat(20),
          receiptAnchoring: "immediate",
        },
        { awardWaitMs: 1234 },
      ),
    );
    try {
      expect(platform.chain?.config.awardWaitMs).toBe(1234);
    } finally {
      await platform.close();
      vi.unstubAllEnvs();
    }
  });
});

describe("user mistakes on attach", () => {
  it("attach with a bounty id that is not an integer: one line naming <bounty-id>, exit 1", async () => {
    const r = await runCli("attach", "g3", "abc", "--store", tempDir());
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^error: <bounty-id> must be a whole number from 1 to 2\^256-1 in decimal digits, got abc/,
    );
    expect(r.err).not.toMatch(/BigInt/);
    // probe34 B-N3: the message said "non-negative" and 0 was then refused by another rule
    const zero = await runCli("attach", "g3", "0", "--store", tempDir());
    expect(zero.code).toBe(1);
    expect(zero.err).toMatch(
      /^error: <bounty-id> must be a whole number from 1 to 2\^256-1 in decimal digits, got 0/,
    );
  });
});

// probe40 B-N2 / V-F2: the plain-http warning of --server is skipped for this machine's loopback only
describe("isLoopbackHost (a URL's host read by the WHATWG parser)", () => {
  const host = (url: string): string => new URL(url).hostname;
  it.each([
    "http://localhost:1",
    "http://LOCALHOST:1",
    "http://localhost.:1",
    "http://127.0.0.1:1",
    "http://127.9.8.7:1",
    "http://2130706433:1",
    "http://127.1:1",
    "http://0x7f.1:1",
    "http://[::1]:1",
    "http://[0:0:0:0:0:0:0:1]:1",
    "http://[::ffff:127.0.0.1]:1",
  ])("%s is loopback", (url) => expect(isLoopbackHost(host(url))).toBe(true));
  it.each([
    "http://127.0.0.1.nip.io:1",
    "http://127.attacker.example:1",
    "http://localhost.attacker.example:1",
    "http://app.localhost:1",
    "http://128.0.0.1:1",
    "http://0.0.0.0:1",
    "http://192.0.2.1:1",
    "http://[::2]:1",
    "http://[::ffff:192.0.2.1]:1",
  ])("%s is not", (url) => expect(isLoopbackHost(host(url))).toBe(false));
});
