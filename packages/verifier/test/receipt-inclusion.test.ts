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
import {
  canonicalJson,
  rankOrder,
  receiptHash,
  recomputeRowComposite,
  selectWinners,
  type JsonObject,
  type RunRow,
} from "@bench-bounty/evidence";
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

/**
 * An awarder's re-derivation after editing rows (probe37 C-F1): the rows re-ranked by SPEC 7.1 and
 * renumbered, the winners re-selected (SPEC 7.2; each new winner is one of the old ones, whose answers and
 * salt the pack holds), the pool re-split (SPEC 7.3), then re-hashed. Every recomputation agrees with it.
 */
function reaward(tree: JsonObject): JsonObject {
  const rd = at(tree, "rank_derivation") as any;
  const rows = rd.rows as any[];
  rd.rows = rankOrder(rows as RunRow[], "$.rank_derivation.rows").map((i) => rows[i]);
  rd.rows.forEach((r: any, i: number) => (r.rank = i + 1));
  const sel = selectWinners({
    rows: rd.rows as RunRow[],
    threshold_bps: rd.threshold_bps,
    splits_bps: rd.splits_bps,
    pool_base_units: rd.pool_base_units,
  });
  const before = new Map((at(tree, "winners") as any[]).map((w) => [w.run_id, w]));
  tree.winners = sel.winners.map((row, i) => ({
    ...before.get(row.run_id),
    place: i + 1,
    amount_base_units: sel.place_amounts_base_units[i],
  }));
  rd.place_amounts_base_units = sel.place_amounts_base_units;
  rd.zero_winner_reason = sel.zero_winner_reason;
  return rehash(tree);
}

/**
 * The prober's tamper on the small vector pack: vec-c's row (rank 3, place 2) drops its embedded receipt
 * (SPEC 8: optional) and states rank_accuracy 0.1000 with the composite recomputed from it, keeping its
 * genuine receipt_hash; re-ranked, vec-c is out of the money and vec-a / vec-d share the pool.
 */
function robbedOfVecC(): { tree: JsonObject; receipt: JsonObject } {
  const tree = packTree("small");
  const rd = at(tree, "rank_derivation") as any;
  const row = (rd.rows as any[]).find((r) => r.agent_id === "vec-c");
  const receipt = row.receipt as JsonObject;
  delete row.receipt;
  row.rank_accuracy = "0.1000";
  row.score_composite = recomputeRowComposite(row, rd).score_composite;
  expect(row.score_composite).toBe("0.2348");
  reaward(tree);
  expect((at(tree, "winners") as any[]).map((w) => w.agent_id)).toEqual(["vec-a", "vec-d"]);
  return { tree, receipt };
}

describe("a row without its embedded receipt states the awarder's word (probe37 C-F1)", () => {
  it("the honest vector pack (every row carries its receipt) verifies exactly as before", async () => {
    const report = await verifyPack({ source: toBytes(packTree("small")) });
    expect(report.facts.composite).toEqual({
      state: "verified",
      reasons: ["5 composites recomputed and equal"],
    });
    expect(report.facts.ordering).toEqual({ state: "verified", reasons: ["5 rows in SPEC 7.1 order"] });
    expect(report.facts.selection.state).toBe("verified");
    expect(report.policy_met).toBe(true);
  });

  it("a row that dropped its receipt and states lower values (re-ranked, re-selected, re-hashed): composite, ordering and selection unverified naming the row; not met (exit 1)", async () => {
    const { tree } = robbedOfVecC();
    const report = await verifyPack({ source: toBytes(tree) });
    const path = "$.rank_derivation.rows[4]";
    expect(at(tree, "rank_derivation", "rows", 4, "agent_id")).toBe("vec-c");
    for (const name of ["composite", "ordering", "selection"] as const) {
      expect(report.facts[name].state, name).toBe("unverified");
      expect(report.facts[name].reasons[0]).toBe(
        `1 row of $.rank_derivation.rows carries no receipt and is no winner's (${path}): its rank_accuracy, score_public, score_composite, wall_seconds, queries_used, usdc_spent, achieved_at and attempts_used are the awarder's word, checked against no receipt (SPEC 8 makes a row's receipt optional; the run's receipt_url serves it)`,
      );
    }
    expect(report.facts.composite.reasons[1]).toBe(
      "over the rows as stated: 5 composites recomputed and equal",
    );
    // nothing else is wrong with it: the hashes, the payouts over the pack's two winners
    const failed = Object.entries(report.facts).filter(([, f]) => f.state === "failed");
    expect(failed).toEqual([]);
    expect(report.facts.payouts.state).toBe("verified");
    expect(report.policy_met).toBe(false);
    expect(report.policy_unmet).toEqual(["composite", "ordering", "selection"]);
    const r = runCliSync(["verify", file("robbed-vec-c.json", tree), "--policy", "offline"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/composite\s+\S+ unverified/);
    expect(r.stdout).toMatch(/policy offline: NOT MET/);
  });

  it("--receipt with the robbed run's own receipt: receipt_inclusion failed, naming the row's differing fields", async () => {
    const { tree, receipt } = robbedOfVecC();
    const mine = file("vec-c-receipt.json", { receipt, receipt_hash: receiptHash(receipt) });
    const report = await verifyPack({ source: toBytes(tree), receipts: [mine] });
    const inclusion = report.facts.receipt_inclusion!;
    expect(inclusion.state).toBe("failed");
    expect(inclusion.reasons).toHaveLength(1);
    expect(inclusion.reasons[0]).toBe(
      `file ${mine}: run "run-003-vec-c-1" of "vec-c" (receipt ${receiptHash(receipt)}) is $.rank_derivation.rows[4] (rank 5), but the row does not state the run as this receipt does: $.rank_derivation.rows[4].score_composite: row says "0.2348", its receipt says "0.6023"`,
    );
    expect(report.policy_unmet).toContain("receipt_inclusion");
  });

  it("--receipt whose row dropped its receipt and moved achieved_at off the receipt's finalized_at: receipt_inclusion failed naming it (probe37 B-F4)", async () => {
    const tree = packTree("small");
    const row = at(tree, "rank_derivation", "rows", 4) as any;
    expect(row.agent_id).toBe("vec-e");
    const receipt = row.receipt as JsonObject;
    delete row.receipt;
    row.achieved_at = "2020-01-01T00:00:00.000Z";
    rehash(tree);
    const mine = file("vec-e-achieved.json", receipt);
    const report = await verifyPack({ source: toBytes(tree), receipts: [mine] });
    expect(report.facts.receipt_inclusion).toEqual({
      state: "failed",
      reasons: [
        `file ${mine}: run "run-003-vec-e-1" of "vec-e" (receipt ${receiptHash(receipt)}) is $.rank_derivation.rows[4] (rank 5), but the row does not state the run as this receipt does: $.rank_derivation.rows[4].achieved_at: row says "2020-01-01T00:00:00.000Z", its receipt's finalized_at is "${String(receipt.finalized_at)}" (SPEC 7.1 breaks ties on when the run was finalized)`,
      ],
    });
  });

  it("--receipt whose row states it truly but is marked the author's agent (out of the money): receipt_inclusion unverified, saying so", async () => {
    const tree = packTree("small");
    const row = (at(tree, "rank_derivation", "rows") as any[]).find((r) => r.agent_id === "vec-c");
    const receipt = row.receipt as JsonObject;
    row.is_author_agent = true;
    reaward(tree);
    expect((at(tree, "winners") as any[]).map((w) => w.agent_id)).toEqual(["vec-a", "vec-d"]);
    // every row carries its receipt: the pack alone meets the policy (the mark is in no receipt)
    expect((await verifyPack({ source: toBytes(tree) })).policy_met).toBe(true);
    const mine = file("vec-c-author.json", receipt);
    const report = await verifyPack({ source: toBytes(tree), receipts: [mine] });
    expect(report.facts.receipt_inclusion).toEqual({
      state: "unverified",
      reasons: [
        `file ${mine}: run "run-003-vec-c-1" of "vec-c" (receipt ${receiptHash(receipt)}) is $.rank_derivation.rows[2] (rank 3); but $.rank_derivation.rows[2].is_author_agent is true: the row is marked the bounty author's agent, which ranks but takes no money (SPEC 7.2); no receipt states the mark, so the verifier cannot check it: you know whether your agent is the author's`,
      ],
    });
    expect(report.policy_met).toBe(false);
    expect(report.policy_unmet).toEqual(["receipt_inclusion"]);
  });
});

/**
 * probe37 V-F2: run ids (and receipt hashes) are unique among the rows: a run is one agent's attempt (SPEC 4)
 * and SPEC 7.1's last tie-break is run_id. The prober's two variants on the small vector pack: the last row
 * (vec-e, no winner) names winner 3's run (vec-d's), re-hashed.
 */
describe("two rows of one run fail ordering, naming the second row's run_id (probe37 V-F2)", () => {
  it("dup_run_forged_receipt: vec-e's row with winner 3's run_id and its own receipt re-issued for that run: ordering failed, not met (exit 1)", async () => {
    const tree = packTree("small");
    const rows = at(tree, "rank_derivation", "rows") as any[];
    const w3 = (at(tree, "winners") as any[])[2];
    expect([rows[3].run_id, rows[4].agent_id]).toEqual([w3.run_id, "vec-e"]);
    const receipt = { ...rows[4].receipt, run_id: w3.run_id };
    rows[4] = { ...rows[4], run_id: w3.run_id, receipt, receipt_hash: receiptHash(receipt) };
    rehash(tree);
    const report = await verifyPack({ source: toBytes(tree) });
    expect(report.facts.ordering.state).toBe("failed");
    expect(report.facts.ordering.reasons[0]).toBe(
      `$.rank_derivation.rows[4].run_id: run "${w3.run_id}" already has row 3 ($.rank_derivation.rows[3]): one row per run`,
    );
    expect(report.policy_met).toBe(false);
    expect(report.policy_unmet).toContain("ordering");
    const r = runCliSync(["verify", file("dup-run-forged.json", tree), "--policy", "offline"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ordering\s+\S+ failed/);
  });

  it("loser_borrows_winner_run: vec-e's row drops its receipt and takes winner 3's run_id and receipt_hash: ordering failed naming both fields", async () => {
    const tree = packTree("small");
    const rows = at(tree, "rank_derivation", "rows") as any[];
    const w3 = (at(tree, "winners") as any[])[2];
    delete rows[4].receipt;
    rows[4].run_id = w3.run_id;
    rows[4].receipt_hash = w3.receipt_hash;
    rehash(tree);
    const report = await verifyPack({ source: toBytes(tree) });
    expect(report.facts.ordering.state).toBe("failed");
    expect(report.facts.ordering.reasons.slice(0, 2)).toEqual([
      `$.rank_derivation.rows[4].run_id: run "${w3.run_id}" already has row 3 ($.rank_derivation.rows[3]): one row per run`,
      `$.rank_derivation.rows[4].receipt_hash: receipt hash "${w3.receipt_hash}" already has row 3 ($.rank_derivation.rows[3]): one row per receipt hash`,
    ]);
    expect(report.policy_met).toBe(false);
  });
});
