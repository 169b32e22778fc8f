/**
 * A bad input file (a rank derivation, a test set) is refused before any chain
 * is read, so these run without a devchain. The refusal names the flag, the
 * file and the JSON path of the problem, the path printed once (an
 * EvidenceError's message already starts with its path): deploy/lib/files.ts
 * `describeError`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { expectRefusal, hardhat, localRunner, startChain, tempDir, vector, writeFile } from "./helpers";

interface Pack {
  rank_derivation: { rows: Record<string, unknown>[] };
  test_set: Record<string, unknown>[];
}

/** `bounty:lock` with valid flags but `--test-set file`: the test set is read first. */
const lockWithTestSet = (file: string) => [
  "bounty:lock",
  "--test-set",
  file,
  "--pool",
  "1",
  "--closes-at",
  "1",
  "--award-deadline",
  "2",
  "--threshold-bps",
  "0",
  "--payout-rule",
  "winner_take_all",
];

/** The text after `Error: ` on stderr. */
const errorLine = (stderr: string): string => /^Error: (.*)$/m.exec(stderr)?.[1] ?? "";

describe("bad input files: the JSON path is printed once, after the file name", function () {
  let dir: string;
  const pack = () => vector<Pack>("packs/small.json");

  before(function () {
    dir = tempDir();
  });
  after(function () {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("bounty:award --rank-derivation with a bad rows[0].agent_id (bare and wrapped)", async function () {
    const rd = pack().rank_derivation;
    rd.rows[0]!.agent_id = 5;
    const bare = writeFile(dir, "ds.json", rd);
    const run = await hardhat(["bounty:award", "--id", "1", "--rank-derivation", bare]);
    expectRefusal(run, /^Error: --rank-derivation /m);
    expect(errorLine(run.stderr)).to.equal(
      `--rank-derivation ${bare}: $.rows[0].agent_id: agent_id must be a non-empty string`,
    );
    const wrapped = writeFile(dir, "wrapped.json", { rank_derivation: rd });
    const run2 = await hardhat(["bounty:award", "--id", "1", "--rank-derivation", wrapped]);
    expectRefusal(run2, /^Error: --rank-derivation /m);
    expect(errorLine(run2.stderr)).to.equal(
      `--rank-derivation ${wrapped}: $.rank_derivation.rows[0].agent_id: agent_id must be a non-empty string`,
    );
  });

  it("bounty:award refuses a rank derivation that breaks the pack's rules, naming the JSON path, before any chain is read (probe26 B-F3)", async function () {
    // each of these simulated fine and was sent: award() committed the digest of a block no pack can carry
    const cases: [
      string,
      (rd: Record<string, unknown> & { rows: Record<string, unknown>[] }) => void,
      string,
    ][] = [
      ["speed_weight", (rd) => (rd.speed_weight = true), "$.speed_weight: expected string"],
      ["payout_rule", (rd) => (rd.payout_rule = null), "$.payout_rule: "],
      ["time_budget", (rd) => (rd.time_budget_seconds = -1), "$.time_budget_seconds: must be > 0"],
      [
        "receipt_hash",
        (rd) => (rd.rows[0]!.receipt_hash = null),
        "$.rows[0].receipt_hash: expected string, got null",
      ],
      ["attempts", (rd) => (rd.rows[0]!.attempts_used = "1e3"), "$.rows[0].attempts_used: expected number"],
      [
        "accuracy",
        (rd) => (rd.rows[0]!.rank_accuracy = null),
        "$.rows[0].rank_accuracy: expected string, got null",
      ],
      [
        "spend",
        (rd) => (rd.rows[0]!.usdc_spent = "0.1"),
        "$.rows[0].usdc_spent: must be a USDC decimal string",
      ],
      [
        "rule",
        (rd) => (rd.payout_rule = rd.payout_rule === "winner_take_all" ? "top_n_split" : "winner_take_all"),
        "$.splits_bps: payout_rule ",
      ],
      [
        "composite",
        (rd) => (rd.rows[0]!.wall_seconds = `${Number(rd.rows[0]!.wall_seconds) + 1}.000`),
        "$.rows[0].score_composite: row says ",
      ],
      [
        // probe37 V-F2: the last row (no winner) names winner 3's run and receipt hash: one row per run
        "run twice",
        (rd) => {
          delete rd.rows[4]!.receipt;
          rd.rows[4]!.run_id = rd.rows[3]!.run_id;
          rd.rows[4]!.receipt_hash = rd.rows[3]!.receipt_hash;
        },
        "$.rows[4].run_id: run ",
      ],
      [
        // the one-row-per-agent rule is the evidence library's (rowUniquenessProblems), named as the others
        "agent twice",
        (rd) => {
          delete rd.rows[4]!.receipt;
          rd.rows[4]!.agent_id = rd.rows[3]!.agent_id;
        },
        "$.rows[4].agent_id: agent ",
      ],
    ];
    for (const [name, mutate, expected] of cases) {
      const rd = pack().rank_derivation as unknown as Record<string, unknown> & {
        rows: Record<string, unknown>[];
      };
      delete rd.rows[0]!.receipt; // the composite case: the embedded receipt would be named first
      mutate(rd);
      const file = writeFile(dir, `rd-${name}.json`, { rank_derivation: rd });
      const run = await hardhat(["bounty:award", "--id", "1", "--rank-derivation", file]);
      expectRefusal(run, /^Error: --rank-derivation /m);
      const line = errorLine(run.stderr);
      const at = expected.replace(/^\$/, "$.rank_derivation");
      expect(line, name).to.contain(`--rank-derivation ${file}: ${at}`);
      expect(line, name).to.contain("refusing to award; nothing was sent");
    }
  });

  it("bounty:award names a JSON number where a decimal string belongs as written, never the parser's object (probe37 C-N3)", async function () {
    const rd = pack().rank_derivation;
    rd.rows[0]!.score_composite = 0.9;
    const file = writeFile(dir, "rd-compnum.json", { rank_derivation: rd });
    const run = await hardhat(["bounty:award", "--id", "1", "--rank-derivation", file]);
    expectRefusal(run, /^Error: --rank-derivation /m);
    const line = errorLine(run.stderr);
    expect(line).to.contain(
      `--rank-derivation ${file}: $.rank_derivation.rows[0].score_composite: score_composite (4 dp) must be a decimal string like "0.9000", not the float 0.9`,
    );
    expect(line).not.to.contain("lexeme");
  });

  it("bounty:lock --test-set with a truncated file, and with a bad salt", async function () {
    const text = JSON.stringify(pack().test_set);
    const trunc = writeFile(dir, "trunc.json", text.slice(0, text.indexOf('"gold"') + 20));
    const run = await hardhat(lockWithTestSet(trunc));
    expectRefusal(run, /^Error: --test-set: /m);
    expect(errorLine(run.stderr)).to.match(
      /^--test-set: \S+trunc\.json is not valid JSON: \$\[0\]\.gold\S*: (unterminated string|unexpected end of input)/,
    );
    expect(errorLine(run.stderr).match(/\$\[0\]/g), "the JSON path once").to.have.length(1);
    const rows = pack().test_set;
    rows[1]!.salt = "zz";
    const badSalt = writeFile(dir, "salt.json", { test_set: rows });
    const run2 = await hardhat(lockWithTestSet(badSalt));
    expectRefusal(run2, /^Error: --test-set /m);
    expect(errorLine(run2.stderr)).to.equal(
      `--test-set ${badSalt}: $.test_set[1].salt: salt must be 64 lowercase hex characters`,
    );
  });

  /** The file options of the tasks, each run with `file` (valid flags otherwise). */
  const fileOptions = (file: string): [string, string[]][] => [
    ["--rank-derivation", ["bounty:award", "--id", "1", "--rank-derivation", file]],
    [
      "--withdrawals-file",
      ["bounty:award", "--id", "1", "--rank-derivation", "x.json", "--withdrawals-file", file],
    ],
    ["--commitment", ["bounty:lock", "--commitment", ...lockWithTestSet(file).slice(2)]],
    ["--test-set", lockWithTestSet(file)],
    ["--file", ["anchor:check", "--file", file]],
  ];

  it("refuses a device, a FIFO and a directory by every file option, one line naming it (probe19 B-F11)", async function () {
    const fifo = path.join(dir, "fifo.json");
    execFileSync("mkfifo", [fifo]);
    for (const [file, kind] of [
      ["/dev/zero", "a character device"],
      [fifo, "a FIFO"],
      [dir, "a directory"],
    ] as const) {
      for (const [flag, args] of fileOptions(file)) {
        if (flag === "--withdrawals-file") continue; // read after --rank-derivation: below
        const run = await hardhat(args);
        expectRefusal(run, new RegExp(`^Error: ${flag}: `, "m"));
        expect(errorLine(run.stderr)).to.equal(`${flag}: ${file} is ${kind}, not a regular file.`);
      }
    }
    const pack = vector<Pack>("packs/small.json");
    const rd = writeFile(dir, "rd.json", pack.rank_derivation);
    const run = await hardhat([
      "bounty:award",
      "--id",
      "1",
      "--rank-derivation",
      rd,
      "--withdrawals-file",
      "/dev/zero",
    ]);
    expectRefusal(run, /^Error: --withdrawals-file: /m);
    expect(errorLine(run.stderr)).to.equal(
      `--withdrawals-file: /dev/zero is a character device, not a regular file.`,
    );
  });

  it("refuses a file of unknown size (/proc/self/environ) by every file option, saying so, not that it grew (probe24)", async function () {
    for (const [flag, args] of fileOptions("/proc/self/environ")) {
      if (flag === "--withdrawals-file") continue; // read after --rank-derivation
      const run = await hardhat(args);
      expectRefusal(run, new RegExp(`^Error: ${flag}: `, "m"));
      expect(errorLine(run.stderr)).to.equal(
        `${flag}: /proc/self/environ is not a regular file of known size (its size reads 0 but it holds data, as a /proc or /sys file): copy it to a file first.`,
      );
    }
  });

  it("refuses a file over the bound before reading it, naming the option and the bound (probe19 B-F11)", async function () {
    const { PACK_LIMITS } = await import("@bench-bounty/evidence");
    const big = path.join(dir, "big.json");
    fs.writeFileSync(big, "");
    fs.truncateSync(big, PACK_LIMITS.maxPackBytes + 1); // sparse: no disk used
    for (const [flag, args] of fileOptions(big)) {
      if (flag === "--withdrawals-file") continue;
      const run = await hardhat(args);
      expectRefusal(run, new RegExp(`^Error: ${flag}: `, "m"));
      expect(errorLine(run.stderr)).to.equal(
        `${flag}: ${big} holds ${PACK_LIMITS.maxPackBytes + 1} bytes, over the limit of ${PACK_LIMITS.maxPackBytes} (512 MiB).`,
      );
    }
  });
});

describe("the address book file, by the same reader (probe19 B-F11, same class)", function () {
  it("refuses a directory or a device as BENCH_BOUNTY_LOCAL_DEPLOYMENT in one line", async function () {
    const chain = await startChain();
    const dir = tempDir();
    try {
      for (const [file, kind] of [
        [dir, "a directory"],
        ["/dev/null", "a character device"],
      ] as const) {
        const run = await localRunner(chain, file)(["bounty:status", "--id", "1"]);
        expectRefusal(run, /^Error: BENCH_BOUNTY_LOCAL_DEPLOYMENT: /m);
        expect(errorLine(run.stderr)).to.equal(
          `BENCH_BOUNTY_LOCAL_DEPLOYMENT: ${file} is ${kind}, not a regular file.`,
        );
      }
    } finally {
      await chain.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
