/**
 * The CLI as a stranger runs it (a child process): exit codes by policy, and
 * malformed inputs that give a clear error naming the JSON path, exit code 2,
 * and never a stack trace.
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  linkSync,
  mkdtempSync,
  openSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, PKG, VECTORS, at, packTree, runCliSync, toBytes } from "./helpers.js";

const run = runCliSync;

/** A stack trace line as Node prints it. */
const STACK = /^\s+at .+\(.+:\d+:\d+\)$|^\s+at .+:\d+:\d+$/m;

const small = (): string => join(VECTORS, "small.json");

describe("bench-bounty-verify CLI", () => {
  it("verifies a vector pack: table, exit 0", () => {
    const r = run(["verify", small()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/commitment_root\s+ok verified/);
    expect(r.stdout).toMatch(/policy offline: MET/);
  });

  it("prints the JSON report with --json and writes --out atomically", () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-"));
    const out = join(dir, "report.json");
    const r = run([small(), "--json", "--out", out]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.schema).toBe("bench-bounty.verification.v1");
    expect(report.facts.regrade.state).toBe("verified");
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(report);
  });

  it("exit 2 when --out is the pack itself (the same path, or a hard link to it); the pack is untouched", () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-"));
    const pack = join(dir, "same.json");
    copyFileSync(small(), pack);
    const before = readFileSync(pack);
    const same = run(["verify", pack, "--out", join(dir, ".", "sub", "..", "same.json")]);
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(
      /verify: bad input: --out: ".*same\.json" is the pack being verified \(".*same\.json"\)/,
    );
    expect(same.stdout).toBe("");
    linkSync(pack, join(dir, "link.json"));
    const linked = run(["verify", pack, "--out", join(dir, "link.json")]);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toMatch(/--out: ".*link\.json" is the pack being verified \(".*same\.json"\)/);
    expect(readFileSync(pack)).toEqual(before);
    // probe14 D2-F21: `verify - --out pack.json < pack.json` replaced the pack with the report
    const fd = openSync(pack, "r");
    try {
      const piped = spawnSync(process.execPath, ["--import", "tsx", BIN, "verify", "-", "--out", pack], {
        cwd: PKG,
        stdio: [fd, "pipe", "pipe"],
        encoding: "utf8",
      });
      expect(piped.status, piped.stderr).toBe(2);
      expect(piped.stderr).toMatch(/--out: ".*same\.json" is the pack being verified \("-"\)/);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(pack)).toEqual(before);
  });

  // probe14 D2-F22: an empty variable blocked the offline check; a bad one was reported as --rpc
  it("the environment forms of --rpc and --indexer: empty is unset, a bad value names the variable", () => {
    const withEnv = (env: Record<string, string>) =>
      spawnSync(process.execPath, ["--import", "tsx", BIN, "verify", small()], {
        cwd: PKG,
        env: { ...process.env, NO_COLOR: "1", ...env },
        encoding: "utf8",
      });
    const alone = run(["verify", small()]);
    const empty = withEnv({ BENCH_BOUNTY_VERIFY_RPC_URL: "", BENCH_BOUNTY_VERIFY_INDEXER_URL: "" });
    expect(empty.status, empty.stderr).toBe(alone.code);
    const bad = withEnv({ BENCH_BOUNTY_VERIFY_RPC_URL: "ftp://k:SECRET@x" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /BENCH_BOUNTY_VERIFY_RPC_URL \(the environment form of --rpc\): expected an http\(s\) URL/,
    );
    expect(bad.stderr).not.toContain("SECRET");
    const flag = run(["verify", small(), "--rpc", "ftp://x"]);
    expect(flag.stderr).toMatch(/: --rpc: expected an http\(s\) URL/);
  });

  it("reads the pack from standard input", () => {
    const r = run(["verify", "-", "--json"], readFileSync(small()));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).observed.pack).toBe("stdin");
  });

  it("exit 1 when the policy is not met (onchain without --rpc), naming the unmet facts", () => {
    const r = run(["verify", small(), "--policy", "onchain"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/policy onchain: NOT MET \(onchain_root is not-observed/);
  });

  it("exit 1 for a tampered pack", () => {
    const tree = packTree("small");
    at(tree, "benchmark").leaf_count = 13;
    const r = run(["verify", "-"], toBytes(tree));
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /leaf_count\s+FAIL failed\s+\$\.benchmark\.leaf_count is 13, \$\.test_set has 12 rows/,
    );
  });

  it("exit 2 (bad input, a usage mistake) naming the path when the pack file does not exist or is a directory", () => {
    const r = run(["verify", "/nonexistent/pack.json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("verify: bad input: file /nonexistent/pack.json: no such file (the pack)\n");
    const d = run(["verify", "/tmp"]);
    expect(d.code).toBe(2);
    expect(d.stderr).toBe("verify: bad input: file /tmp: is a directory, not a file (the pack)\n");
  });

  it("exit 3 when the RPC cannot be reached", () => {
    const r = run(["verify", small(), "--rpc", "http://127.0.0.1:9", "--timeout", "2000"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cannot read rpc http:\/\/127\.0\.0\.1:9/);
    expect(r.stderr).not.toMatch(STACK);
  });

  /** The options bounded by a Node timer's maximum, by command. */
  const TIMER_OPTIONS = [
    ["verify", "--timeout"],
    ["verify", "--deadline"],
    ["verify-receipt", "--timeout"],
    ["verify-receipt", "--deadline"],
  ] as const;

  // probe16 B-F13, nearby: a --timeout or --deadline over 2^31-1 ms was accepted, and Node's timer
  // fires after 1 ms for a longer delay
  it("exit 2 for a --timeout or --deadline over a timer's maximum (2147483647 ms), naming it", () => {
    for (const [command, flag] of TIMER_OPTIONS) {
      const jwks = command === "verify-receipt" ? ["--jwks", small()] : [];
      const r = run([command, small(), ...jwks, flag, "2147483648"]);
      expect(r.code, `${command} ${flag}`).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`${flag}.*at most 2147483647`));
    }
    const max = run(["verify", small(), "--timeout", "2147483647", "--deadline", "2147483647"]);
    expect(max.code, max.stderr).toBe(0);
  });

  // probe39 B-N1: a positive integer of 14+ digits was refused as "expected a positive integer" (a digit
  // count checked before the maximum) instead of naming the maximum
  it("a positive integer past an option's maximum names the maximum, whatever its digit count", () => {
    for (const [command, flag] of TIMER_OPTIONS) {
      const jwks = command === "verify-receipt" ? ["--jwks", small()] : [];
      for (const value of ["99999999999999", "9".repeat(40)]) {
        const r = run([command, small(), ...jwks, flag, value]);
        expect(r.code, `${command} ${flag} ${value}`).toBe(2);
        expect(r.stderr).toBe(
          `${command}: bad input: ${flag}: expected at most 2147483647 ms (a timer's maximum), got "${value}"\n`,
        );
      }
    }
    const big = run(["verify", small(), "--max-string", "99999999999999999"]);
    expect(big.code).toBe(2);
    expect(big.stderr).toBe(
      `verify: bad input: --max-string: expected at most 9007199254740991, got "99999999999999999"\n`,
    );
    // not an integer: refused as before
    for (const value of ["0", "012", "1.5", "1e3", "-5", "12ms"]) {
      const r = run(["verify", small(), "--deadline", value]);
      expect(r.code, value).toBe(2);
      expect(r.stderr).toBe(`verify: bad input: --deadline: expected a positive integer, got "${value}"\n`);
    }
  });

  it("--help says what --timeout bounds: one request, and an RPC request is retried once", () => {
    for (const command of ["verify", "verify-receipt"]) {
      const r = run([command, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout.replace(/\s+/g, " ")).toMatch(
        /--timeout <ms> network timeout of one request, headers and body together, milliseconds \(default 20000[^)]*\); a JSON-RPC request that times out is retried once, so an RPC that never answers fails after about twice this/,
      );
    }
  });

  it("exit 2 for an unknown policy", () => {
    const r = run(["verify", small(), "--policy", "lenient"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--policy/);
  });
});

describe("malformed packs: a clear error with the JSON path, exit code 2, no stack trace", () => {
  const text = readFileSync(join(VECTORS, "small.json"), "utf8");
  const edit = (f: (t: any) => void): Uint8Array => {
    const tree = packTree("small");
    f(tree);
    return toBytes(tree);
  };
  const cases: [string, () => Uint8Array | string, RegExp][] = [
    ["not JSON", () => "this is not json", /bad input: \$: unexpected character "t" at offset 0/],
    [
      "truncated",
      () => text.slice(0, 30_000),
      /bad input: \$\.\S+: (unterminated string|unexpected end of input)/,
    ],
    [
      "a duplicate key",
      () => text.replace('"slug"', '"title": "x", "slug"'),
      /bad input: \$\.benchmark\.title: duplicate key "title"/,
    ],
    [
      "a wrong type (a number where a string is due)",
      () => edit((t) => (t.test_set[2].prompt = 5)),
      /bad input: \$\.test_set\[2\]\.prompt: expected a string, found the number 5/,
    ],
    [
      "a wrong type (an object where an array is due)",
      () => edit((t) => (t.winners = {})),
      /bad input: \$\.winners: expected an array, found an object/,
    ],
    [
      "a missing key",
      () => edit((t) => delete t.winners[0].answer_salt),
      /bad input: \$\.winners\[0\]\.answer_salt: missing key "answer_salt"/,
    ],
    [
      "a missing top-level block",
      () => edit((t) => delete t.rank_derivation),
      /bad input: \$\.rank_derivation: missing key "rank_derivation"/,
    ],
    ["not an object", () => "[1, 2, 3]", /bad input: \$: expected an object, found an array/],
    [
      "a 10^30 count",
      () => edit((t) => (t.benchmark.leaf_count = 10n ** 30n)),
      /bad input: \$\.benchmark\.leaf_count: integer 100000000000\.\.\.\(31 digits\) is out of range/,
    ],
    [
      "an amount of 2^256",
      () => edit((t) => (t.winners[0].amount_base_units = String(2n ** 256n))),
      /bad input: \$\.winners\[0\]\.amount_base_units: amount 115792089237\.\.\.\(78 digits\) is outside uint256/,
    ],
    [
      "an amount of 100 digits",
      () => edit((t) => (t.rank_derivation.pool_base_units = "9".repeat(100))),
      /bad input: \$\.rank_derivation\.pool_base_units: amount of 100 digits is outside uint256/,
    ],
    [
      "an integer of 79 digits",
      () => text.replace('"closes_at": 1772874000', `"closes_at": 1${"0".repeat(78)}`),
      /bad input: \$\.benchmark\.closes_at: integer with 79 digits/,
    ],
    [
      "a 50 MB string",
      () => edit((t) => (t.winners[0].answers[0].answer_text = "x".repeat(50 * 1024 * 1024))),
      /bad input: \$\.winners\[0\]\.answers\[0\]\.answer_text: string of 52428800 UTF-16 code units exceeds the limit of 4194304/,
    ],
    [
      "deep nesting",
      () => `{"benchmark": ${"[".repeat(20_000)}${"]".repeat(20_000)}}`,
      /bad input: \$\.benchmark\[0\]\[0\].*\.\.\.\(10000 levels\)\.\.\..*nesting deeper than 10000 levels/,
    ],
    [
      "NaN",
      () => text.replace('"leaf_count": 12', '"leaf_count": NaN'),
      /bad input: \$\.benchmark\.leaf_count: NaN is not allowed/,
    ],
    ["invalid UTF-8", () => new Uint8Array([0x7b, 0xff, 0x7d]), /bad input: \$: input is not valid UTF-8/],
  ];
  it.each(cases)("%s", (_name, make, message) => {
    const r = run(["verify", "-"], make());
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stdout).toBe("");
    expect(r.stderr.length).toBeLessThan(2000);
  });

  it("a pack file with a bad value gives the same error when read from a path", () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-"));
    const p = join(dir, "bad.json");
    writeFileSync(
      p,
      edit((t) => (t.rank_derivation.rows[1].queries_used = "many")),
    );
    const r = run(["verify", p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /bad input: \$\.rank_derivation\.rows\[1\]\.queries_used: expected an integer, found a string/,
    );
  });
});

// probe29 B-F2: a single-valued option given twice was read as its last value: `--policy full --policy
// offline` printed "policy offline: MET" and exited 0 (the pack does not meet `full`)
describe("a single-valued option given twice is refused, naming it and both values (probe29 B-F2)", () => {
  it("verify --policy full --policy offline exits 2, never MET", () => {
    const r = run(["verify", small(), "--policy", "full", "--policy", "offline"]);
    expect(r.code).toBe(2);
    expect(r.stdout).not.toMatch(/MET/);
    expect(r.stderr).toContain(
      `option '--policy <name>' is given twice ("full" and "offline"): give it once`,
    );
  });

  it("--rpc twice (either spelling) and verify-receipt's --jwks twice are refused likewise", () => {
    const rpc = run([small(), "--rpc", "http://127.0.0.1:1", "--rpc=http://127.0.0.1:2"]);
    expect(rpc.code).toBe(2);
    expect(rpc.stderr).toContain(
      `option '--rpc <url>' is given twice ("http://127.0.0.1:1" and "http://127.0.0.1:2")`,
    );
    const jwks = run(["verify-receipt", "x.json", "--jwks", "a.json", "--jwks", "b.json"]);
    expect(jwks.code).toBe(2);
    expect(jwks.stderr).toContain(`option '--jwks <file|url>' is given twice ("a.json" and "b.json")`);
  });

  it("a flag given twice and an option given once still work", () => {
    const r = run(["verify", small(), "--policy", "offline", "--json", "--json"]);
    expect(r.code, r.stderr).toBe(0);
  });
});
