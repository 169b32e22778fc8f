/**
 * probe34 C-F2: the row set of `rank_derivation.rows` is the awarder's word (receipts are anchored by
 * digest alone), so a pack that leaves out a finalized run still meets every policy. A competitor holding
 * its receipt checks it with `verify PACK --receipt FILE`: the fact `receipt_inclusion`.
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  linkSync,
  mkdtempSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalJson, receiptHash, type JsonObject } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import { verifyPack } from "../src/index.js";
import { BIN, PKG, at, packTree, rehash, runCliSync, toBytes, type CliRun } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "receipt-inclusion-"));

/** Writes `doc` as JSON to a file of the test's folder. */
function file(name: string, doc: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(canonicalJson(doc as JsonObject)));
  return path;
}

/** The small vector pack without its last row (vec-e, no winner), re-hashed like an awarder would. */
function packWithoutLastRow(): { pack: string; left: JsonObject } {
  const tree = packTree("small");
  const rows = at(tree, "rank_derivation", "rows") as JsonObject[];
  const left = rows.pop()!;
  expect(left.agent_id).toBe("vec-e");
  rehash(tree);
  return { pack: file("without-vec-e.json", tree), left: left.receipt as JsonObject };
}

describe("verify --receipt: a competitor's receipt against the award's rows (probe34 C-F2)", () => {
  it("a receipt that is a row: receipt_inclusion verified, the policy met (exit 0); bare or as receipt_url serves it", async () => {
    const tree = packTree("small");
    const receipt = at(tree, "rank_derivation", "rows", 2, "receipt") as JsonObject;
    const bare = file("row-receipt.json", receipt);
    const served = file("row-served.json", { receipt, receipt_hash: receiptHash(receipt) });
    const report = await verifyPack({ source: toBytes(tree), receipts: [bare, served] });
    expect(report.facts.receipt_inclusion).toMatchObject({ state: "verified" });
    expect(report.facts.receipt_inclusion!.reasons[0]).toMatch(
      /run "run-003-vec-c-1" of "vec-c" \(receipt 0x[0-9a-f]{64}\) is \$\.rank_derivation\.rows\[2\] \(rank 3\)/,
    );
    expect(report.policy_met).toBe(true);
    const r = runCliSync(["verify", file("small.json", tree), "--receipt", bare, "--receipt", served]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/receipt_inclusion\s+ok verified/);
  });

  it("a pack that left a finalized run out meets every offline fact, and the left-out receipt fails receipt_inclusion (exit 1)", async () => {
    const { pack, left } = packWithoutLastRow();
    // without --receipt nothing can tell (the limitation the README states)
    const blind = await verifyPack({ source: pack });
    expect(blind.policy_met).toBe(true);
    expect(blind.facts.receipt_inclusion).toBeUndefined();
    const report = await verifyPack({ source: pack, receipts: [file("vec-e.json", left)] });
    expect(report.facts.receipt_inclusion!.state).toBe("failed");
    expect(report.facts.receipt_inclusion!.reasons[0]).toContain(
      `run "run-003-vec-e-1" of "vec-e" (receipt ${receiptHash(left)}) is not in $.rank_derivation.rows: the award left this finalized run out`,
    );
    expect(report.policy_met).toBe(false);
    expect(report.policy_unmet).toEqual(["receipt_inclusion"]);
    const r = runCliSync(["verify", pack, "--receipt", file("vec-e.json", left)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/receipt_inclusion\s+FAIL failed/);
    expect(r.stdout).toMatch(/policy offline: NOT MET \(receipt_inclusion is failed\)/);
  });

  it("a worse attempt of an agent whose best run is its row is rightly absent (SPEC 7.1): verified, saying so", async () => {
    const tree = packTree("small");
    const worse = { ...(at(tree, "rank_derivation", "rows", 1, "receipt") as JsonObject) };
    worse.run_id = "run-003-vec-a-1";
    worse.attempt = 1n as never;
    worse.score_composite = "0.1000";
    const report = await verifyPack({ source: toBytes(tree), receipts: [file("vec-a-1.json", worse)] });
    expect(report.facts.receipt_inclusion).toMatchObject({ state: "verified" });
    expect(report.facts.receipt_inclusion!.reasons[0]).toContain(
      `is not a row, rightly: SPEC 7.1 keeps the best row per agent, and the agent's row $.rank_derivation.rows[1] (run "run-003-vec-a-2") ranks before it`,
    );
    // a better one left out instead is failed
    worse.score_composite = "0.9000";
    const better = await verifyPack({ source: toBytes(tree), receipts: [file("vec-a-1b.json", worse)] });
    expect(better.facts.receipt_inclusion!.state).toBe("failed");
    expect(better.facts.receipt_inclusion!.reasons[0]).toContain("ranks after it by SPEC 7.1");
  });

  it("a receipt of another benchmark, a wrong receipt_hash, or no receipt at all is bad input naming --receipt (exit 2)", () => {
    const tree = packTree("small");
    const pack = file("small2.json", tree);
    const receipt = at(tree, "rank_derivation", "rows", 2, "receipt") as JsonObject;
    const other = file("other.json", { ...receipt, benchmark_slug: "another-benchmark" });
    const r = runCliSync(["verify", pack, "--receipt", other]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `verify: bad input: --receipt: file ${other}: the receipt is of benchmark "another-benchmark"`,
    );
    expect(r.stdout).toBe("");
    // the same slug, another test set (two stores publishing one seed): said so, not "of X, this pack is of X"
    const root = `0x${"ab".repeat(32)}`;
    const sameSlug = file("same-slug.json", { ...receipt, commit_root: root });
    const s = runCliSync(["verify", pack, "--receipt", sameSlug]);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain(
      `the receipt names this pack's slug ${JSON.stringify(receipt.benchmark_slug)} but another test set: its commit_root is ${root}`,
    );
    const wrongHash = file("wrong-hash.json", { receipt, receipt_hash: `0x${"12".repeat(32)}` });
    const w = runCliSync(["verify", pack, "--receipt", wrongHash]);
    expect(w.code).toBe(2);
    expect(w.stderr).toContain(`$.receipt_hash is 0x${"12".repeat(32)}, the receipt at $.receipt hashes to`);
    const none = file("none.json", { run_id: "x" });
    const n = runCliSync(["verify", pack, "--receipt", none]);
    expect(n.code).toBe(2);
    expect(n.stderr).toContain("neither a receipt");
  });

  // probe35 B-F2: `--out` was checked against the pack only, so `--receipt mine.json --out mine.json`
  // replaced the competitor's own receipt (its evidence of a run the award may have left out) with the report
  it("--out that is a --receipt file (its path, a symbolic or hard link, or stdin redirected from it) is refused, exit 2; the receipt is untouched", () => {
    const tree = packTree("small");
    const pack = file("small3.json", tree);
    const receipt = at(tree, "rank_derivation", "rows", 2, "receipt") as JsonObject;
    const mine = file("my-receipt.json", { receipt, receipt_hash: receiptHash(receipt) });
    const before = readFileSync(mine);
    const refused = (out: string, r: CliRun, shown: string) => {
      expect(r.code, `${out}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(
        `verify: bad input: --out: ${JSON.stringify(out)} is a --receipt being read (${JSON.stringify(shown)}); writing the report there would overwrite that receipt`,
      );
      expect(r.stdout).toBe("");
      expect(readFileSync(mine)).toEqual(before);
    };
    refused(mine, runCliSync(["verify", pack, "--receipt", mine, "--out", mine]), mine);
    // the second --receipt of two, by another spelling of its path
    const other = file("row-1.json", at(tree, "rank_derivation", "rows", 1, "receipt") as JsonObject);
    const spelled = join(dir, ".", "sub", "..", "my-receipt.json");
    refused(
      spelled,
      runCliSync(["verify", pack, "--receipt", other, "--receipt", mine, "--out", spelled]),
      mine,
    );
    const hard = join(dir, "hard-link.json");
    linkSync(mine, hard);
    refused(hard, runCliSync(["verify", pack, "--receipt", mine, "--out", hard]), mine);
    const soft = join(dir, "soft-link.json");
    symlinkSync(mine, soft);
    refused(soft, runCliSync(["verify", pack, "--receipt", mine, "--out", soft]), mine);
    const fd = openSync(mine, "r");
    try {
      const piped = spawnSync(
        process.execPath,
        ["--import", "tsx", BIN, "verify", pack, "--receipt", "-", "--out", mine],
        {
          cwd: PKG,
          stdio: [fd, "pipe", "pipe"],
          encoding: "utf8",
        },
      );
      refused(mine, { code: piped.status, stdout: piped.stdout, stderr: piped.stderr }, "-");
    } finally {
      closeSync(fd);
    }
    // another file is written as before
    const report = join(dir, "report.json");
    const ok = runCliSync(["verify", pack, "--receipt", mine, "--out", report]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(readFileSync(report, "utf8")).schema).toBe("bench-bounty.verification.v1");
  });
});
