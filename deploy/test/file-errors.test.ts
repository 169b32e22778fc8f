/**
 * A bad input file (a rank derivation, a test set) is refused before any chain
 * is read, so these run without a devchain. The refusal names the flag, the
 * file and the JSON path of the problem, the path printed once (an
 * EvidenceError's message already starts with its path): deploy/lib/files.ts
 * `describeError`.
 */
import fs from "node:fs";
import { expect } from "chai";
import { expectRefusal, hardhat, tempDir, vector, writeFile } from "./helpers";

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
});
