import { describe, expect, it } from "vitest";
import {
  EvidenceError,
  canonicalJson,
  canonicalJsonString,
  checkComposites,
  checkOrdering,
  checkRowReceipt,
  checkSelection,
  commitTestSet,
  evidencePackBytes,
  mintEvidencePack,
  mintEvidencePackSteps,
  packHash,
  packHashes,
  parseEvidencePack,
  parseJson,
  prepareTestSetGold,
  rankDerivationProblems,
  rankingDigest,
  receiptCreditProblems,
  receiptHash,
  regradeRun,
  runStepsSliced,
  validateEvidencePack,
  withPackAnchor,
  type EvidencePack,
  type MintInputs,
} from "../src/index.js";
import { vector, vectorBytes } from "./vectors.js";

const PACKS = ["small", "zero-winner"] as const;

/** Split a pack into the minting inputs it was made from (derived fields dropped). */
function partsOf(pack: EvidencePack): MintInputs {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the derived fields are destructured only to drop them from the rest
  const { commit_root, leaf_count, ranking_digest, grader_types, ...benchmark } = pack.benchmark;
  const rd = pack.rank_derivation;
  return {
    benchmark,
    test_set: pack.test_set,
    scoring: {
      speed_weight: rd.speed_weight,
      cost_weight: rd.cost_weight,
      time_budget_seconds: rd.time_budget_seconds,
      cost_budget_usdc: rd.cost_budget_usdc,
      threshold_bps: rd.threshold_bps,
      payout_rule: rd.payout_rule,
    },
    runs: rd.rows.map((r) => {
      const w = pack.winners.find((x) => x.run_id === r.run_id);
      return {
        agent_id: r.agent_id,
        is_author_agent: r.is_author_agent,
        receipt: r.receipt!,
        receipt_url: r.receipt_url,
        rank_accuracy: r.rank_accuracy,
        achieved_at: r.achieved_at,
        attempts_used: r.attempts_used,
        ...(w
          ? { withdrawal_address: w.withdrawal_address, answer_salt: w.answer_salt, answers: w.answers }
          : {}),
      };
    }),
    pack_anchor: pack.pack_anchor,
  };
}

for (const name of PACKS) {
  describe(`packs/${name}.json (SPEC 8)`, () => {
    const expected = vector(`packs/${name}.expected.json`);
    const bytes = vectorBytes(`packs/${name}.json`);
    const pack = parseEvidencePack(bytes);

    it("passes the schema", () => {
      expect(validateEvidencePack(parseJson(bytes)).problems).toEqual([]);
    });

    it("pack_hash and ranking_digest reproduce the expected values", () => {
      expect(packHash(pack)).toBe(expected.values.pack_hash);
      expect(pack.pack_hash).toBe(expected.values.pack_hash);
      expect(rankingDigest(pack.rank_derivation)).toBe(expected.values.ranking_digest);
      expect(pack.benchmark.ranking_digest).toBe(expected.values.ranking_digest);
    });

    it("packHashes: pack hash, ranking digest and every receipt hash from one serialization", () => {
      const h = packHashes(pack);
      expect(h.pack_hash).toBe(expected.values.pack_hash);
      expect(h.ranking_digest).toBe(expected.values.ranking_digest);
      const carried = [...pack.winners, ...pack.rank_derivation.rows].filter((x) => x.receipt !== undefined);
      expect(h.receipt_hashes.size).toBe(new Set(carried.map((x) => x.receipt)).size);
      for (const x of carried) {
        expect(h.receipt_hashes.get(x.receipt!)).toBe(receiptHash(x.receipt!));
        expect(h.receipt_hashes.get(x.receipt!)).toBe(x.receipt_hash);
      }
      // an edited receipt: every hash follows the edit, as the one-at-a-time functions do
      const edited = parseJson(bytes) as unknown as EvidencePack;
      const target = [...edited.winners, ...edited.rank_derivation.rows].find((x) => x.receipt)?.receipt;
      if (target) {
        target.tasks[0]!.prompt_hash = "0".repeat(64);
        const e = packHashes(edited);
        expect(e.receipt_hashes.get(target)).toBe(receiptHash(target));
        const original = [...pack.winners, ...pack.rank_derivation.rows].find((x) => x.receipt)!.receipt!;
        expect(e.receipt_hashes.get(target)).not.toBe(h.receipt_hashes.get(original));
        expect(e.pack_hash).toBe(packHash(edited));
        expect(e.ranking_digest).toBe(rankingDigest(edited.rank_derivation));
      }
    });

    it("the commitment root and leaf count reproduce", () => {
      const c = commitTestSet(pack.test_set);
      expect(c.root).toBe(expected.values.commit_root);
      expect(c.leafCount).toBe(expected.values.leaf_count);
    });

    it("receipt hashes, composites, ordering, selection and payouts re-derive", () => {
      const rows = pack.rank_derivation.rows;
      expect(rows.map((r) => r.agent_id)).toEqual(expected.values.ranked_agents);
      expect(rows.map((r) => r.score_composite)).toEqual(expected.values.score_composites);
      expect(rows.map((r) => r.receipt_hash)).toEqual(expected.values.receipt_hashes);
      expect(rows.flatMap((r, i) => checkRowReceipt(r, `$.rank_derivation.rows[${i}]`))).toEqual([]);
      expect(checkComposites(rows, pack.rank_derivation)).toEqual([]);
      expect(checkOrdering(rows)).toEqual([]);
      expect(checkSelection(pack.rank_derivation, pack.winners, pack.benchmark.pool_base_units)).toEqual([]);
      expect(pack.winners.map((w) => w.agent_id)).toEqual(expected.values.winners);
      expect(pack.rank_derivation.place_amounts_base_units).toEqual(expected.values.place_amounts_base_units);
      expect(pack.rank_derivation.zero_winner_reason).toBe(expected.values.zero_winner_reason);
    });

    it("every winner regrades to its row's rank_accuracy and score_public", () => {
      const prepared = prepareTestSetGold(pack.test_set);
      pack.winners.forEach((w, i) => {
        const r = regradeRun(pack.test_set, w.receipt, w.answers, w.answer_salt, {
          commitRoot: pack.benchmark.commit_root,
          prepared,
          path: `$.winners[${i}]`,
        });
        const row = pack.rank_derivation.rows.find((x) => x.run_id === w.run_id)!;
        expect(r.problems).toEqual([]);
        expect(r.rank_accuracy).toBe(row.rank_accuracy);
        expect(r.score_public).toBe(row.score_public);
      });
    });

    it("minting from the pack's parts reproduces the pack byte for byte", () => {
      const minted = mintEvidencePack(partsOf(pack));
      expect(minted.pack_hash).toBe(expected.values.pack_hash);
      expect(minted.benchmark.ranking_digest).toBe(expected.values.ranking_digest);
      expect(
        Buffer.from(evidencePackBytes(minted)).equals(Buffer.from(canonicalJson(parseJson(bytes)))),
      ).toBe(true);
    });

    it("minting in slices (serve, probe27 A-F6) gives the same bytes and lets the event loop run between winner tasks", async () => {
      const parts = partsOf(pack);
      const graded = pack.winners.reduce((n, w) => n + w.receipt.tasks.length, 0);
      let turns = 0;
      let ticking = true;
      const tick = () => {
        if (!ticking) return;
        turns++;
        setImmediate(tick);
      };
      setImmediate(tick);
      const minted = await runStepsSliced(mintEvidencePackSteps(parts), { sliceMs: 0 });
      ticking = false;
      expect(
        Buffer.from(evidencePackBytes(minted)).equals(
          Buffer.from(evidencePackBytes(mintEvidencePack(parts))),
        ),
      ).toBe(true);
      // one turn of the event loop per graded winner task (at least), none when there is none to grade
      expect(turns).toBeGreaterThanOrEqual(graded);
    });

    it("minting is reproducible and independent of run order", () => {
      const parts = partsOf(pack);
      const a = evidencePackBytes(mintEvidencePack(parts));
      const b = evidencePackBytes(mintEvidencePack({ ...parts, runs: [...parts.runs].reverse() }));
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    });
  });
}

describe("schema failures name the JSON path (SPEC 2 format rules)", () => {
  const text = new TextDecoder().decode(vectorBytes("packs/small.json"));
  const fresh = (): EvidencePack => parseJson(text) as unknown as EvidencePack;
  const problemsOf = (mutate: (p: EvidencePack) => void): { path: string; message: string }[] => {
    const p = fresh();
    mutate(p);
    return validateEvidencePack(p).problems;
  };

  it.each<[string, (p: EvidencePack) => void, string]>([
    [
      "an upper-case digest",
      (p) => (p.benchmark.commit_root = p.benchmark.commit_root.toUpperCase().replace("0X", "0x")),
      "$.benchmark.commit_root",
    ],
    [
      "a score without 4 decimals",
      (p) => (p.rank_derivation.rows[2]!.score_composite = "0.602"),
      "$.rank_derivation.rows[2].score_composite",
    ],
    [
      "a number where a string is due",
      (p) => ((p.benchmark as Record<string, unknown>).bounty_id = 3),
      "$.benchmark.bounty_id",
    ],
    [
      "a float task ordinal",
      (p) => ((p.winners[2]!.receipt.tasks[0] as Record<string, unknown>).ordinal = parseJson("0.0")),
      "$.winners[2].receipt.tasks[0].ordinal",
    ],
    [
      "a checksummed address",
      (p) => (p.winners[0]!.withdrawal_address = "0xDef22ce81d9e5a788e2ae48a2aaa78556f6c8470"),
      "$.winners[0].withdrawal_address",
    ],
    [
      "an unreduced credit",
      (p) => (p.winners[1]!.receipt.tasks[3]!.credit = "2/4"),
      "$.winners[1].receipt.tasks[3].credit",
    ],
    // zod runs the reduced-fraction check even after the "n/d" regex failed: these threw a
    // TypeError (BigInt(undefined)) instead of reporting an issue at the credit's path
    ...["", "!", "1", "1/", "/2", "1/0", "a/b", "1/2/3", " 1/2"].map(
      (credit): [string, (p: EvidencePack) => void, string] => [
        `a credit of ${JSON.stringify(credit)}`,
        (p) => (p.winners[1]!.receipt.tasks[3]!.credit = credit),
        "$.winners[1].receipt.tasks[3].credit",
      ],
    ),
    [
      "a grader example credit that is not a fraction",
      (p) => (Object.values(p.benchmark.grader_types)[0]!.examples[0]!.credit = "x"),
      "$.benchmark.grader_types.",
    ],
    [
      "wall_seconds with 2 decimals",
      (p) => (p.rank_derivation.rows[0]!.wall_seconds = "60.00"),
      "$.rank_derivation.rows[0].wall_seconds",
    ],
    [
      "usdc without 6 decimals",
      (p) => (p.rank_derivation.rows[0]!.usdc_spent = "0"),
      "$.rank_derivation.rows[0].usdc_spent",
    ],
    [
      "a timestamp without milliseconds",
      (p) => (p.rank_derivation.rows[1]!.achieved_at = "2026-03-01T09:20:00Z"),
      "$.rank_derivation.rows[1].achieved_at",
    ],
    ["an unknown key", (p) => ((p.benchmark as Record<string, unknown>).extra = 1), "$.benchmark"],
    [
      "a missing key",
      (p) => delete (p.rank_derivation as Partial<EvidencePack["rank_derivation"]>).zero_winner_reason,
      "$.rank_derivation.zero_winner_reason",
    ],
    [
      "an unknown grader type",
      (p) => ((p.test_set[4] as Record<string, unknown>).grader_type = "regex"),
      "$.test_set[4].grader_type",
    ],
  ])("%s", (_what, mutate, path) => {
    const problems = problemsOf(mutate);
    expect(problems.length).toBeGreaterThan(0);
    if (path.endsWith(".")) expect(problems[0]!.path.startsWith(path)).toBe(true);
    else expect(problems[0]!.path).toBe(path);
    expect(problems[0]!.message).not.toMatch(/BigInt|undefined/);
  });

  it("parseEvidencePack throws one EvidenceError with the first path", () => {
    const bad = text.replace('"bounty_id": "3"', '"bounty_id": 3');
    expect(bad).not.toBe(text);
    try {
      parseEvidencePack(bad);
      throw new Error("not refused");
    } catch (e) {
      expect(e).toBeInstanceOf(EvidenceError);
      expect((e as EvidenceError).code).toBe("schema");
      expect((e as EvidenceError).path).toBe("$.benchmark.bounty_id");
    }
  });

  it("parseEvidencePack refuses a duplicate key anywhere with its path", () => {
    const bad = text.replace('"place": 1,', '"place": 1, "place": 1,');
    expect(() => parseEvidencePack(bad)).toThrow(
      expect.objectContaining({ code: "duplicate_key", path: "$.winners[0].place" }),
    );
  });
});

describe("tampering is caught by the recomputation helpers", () => {
  const text = new TextDecoder().decode(vectorBytes("packs/small.json"));
  const fresh = (): EvidencePack => parseEvidencePack(text);

  it("a changed winner answer fails the regrade at its path; the pack hash changes", () => {
    const p = fresh();
    p.winners[0]!.answers[0]!.answer_text = "Tokyo Tower";
    const r = regradeRun(
      p.test_set,
      p.winners[0]!.receipt,
      p.winners[0]!.answers,
      p.winners[0]!.answer_salt,
      { path: "$.winners[0]" },
    );
    expect(r.problems.map((x) => [x.code, x.path])).toEqual([
      ["answer_digest_mismatch", "$.winners[0].answers[0].answer_text"],
    ]);
    expect(packHash(p)).not.toBe(p.pack_hash);
  });

  it("a swapped row order fails ordering; an inflated composite fails the composite check", () => {
    const p = fresh();
    const rows = p.rank_derivation.rows;
    [rows[1], rows[2]] = [rows[2]!, rows[1]!];
    expect(checkOrdering(rows).map((x) => x.code)).toContain("order");
    const q = fresh();
    q.rank_derivation.rows[4]!.score_composite = "0.5000";
    expect(checkComposites(q.rank_derivation.rows, q.rank_derivation)).toEqual([
      expect.objectContaining({
        code: "composite_mismatch",
        path: "$.rank_derivation.rows[4].score_composite",
      }),
    ]);
  });

  it("paying the author agent or a wrong amount fails selection", () => {
    const p = fresh();
    p.winners[2]!.amount_base_units = "2469136";
    expect(checkSelection(p.rank_derivation, p.winners).map((x) => x.path)).toEqual([
      "$.winners[2].amount_base_units",
    ]);
    const q = fresh();
    q.rank_derivation.rows[0]!.is_author_agent = false;
    expect(checkSelection(q.rank_derivation, q.winners).map((x) => x.code)).toContain("winner_mismatch");
  });

  it("a row's achieved_at moved off its receipt's finalized_at fails the row check at its path (probe37 B-F4)", () => {
    const p = fresh();
    const row = p.rank_derivation.rows[1]!;
    expect(row.receipt!.finalized_at).toBe("2026-03-01T09:20:00.000Z");
    row.achieved_at = "2020-01-01T00:00:00.000Z";
    const expected = [
      expect.objectContaining({
        code: "row_receipt_mismatch",
        path: "$.rank_derivation.rows[1].achieved_at",
        message:
          'row says "2020-01-01T00:00:00.000Z", its receipt\'s finalized_at is "2026-03-01T09:20:00.000Z" (SPEC 7.1 breaks ties on when the run was finalized)',
      }),
    ];
    expect(checkRowReceipt(row, "$.rank_derivation.rows[1]")).toEqual(expected);
    expect(rankDerivationProblems(p.rank_derivation)).toEqual(expected);
  });

  it("a row receipt's stated credits must give its score_public and the row's rank_accuracy (probe37 V-N5)", () => {
    const p = fresh();
    const row = p.rank_derivation.rows[1]!;
    const r = row.receipt!;
    expect([row.rank_accuracy, r.score_public]).toEqual(["0.8333", "0.6667"]);
    const credits = ["1/1", "1/1", "1/1", "1/1", "1/1", "1/1", "2/3", "0/1", "1/1", "0/1", "1/1"];
    r.tasks.forEach((t, i) => (t.credit = credits[i]!));
    expect(r.tasks.map((t) => t.visibility[1]).join("")).toBe("rrrrrrrruuu");
    const path = "$.rank_derivation.rows[1]";
    expect(receiptCreditProblems(r, row, true, path)).toEqual([]);
    // public credits that give 1.0000, private ones that give 0.7083
    r.tasks[9]!.credit = "1/1";
    r.tasks[7]!.credit = "1/3";
    const both = [
      expect.objectContaining({ code: "receipt_credit_mismatch", path: `${path}.receipt.score_public` }),
      expect.objectContaining({ code: "receipt_credit_mismatch", path: `${path}.rank_accuracy` }),
    ];
    expect(receiptCreditProblems(r, row, true, path)).toEqual(both);
    // the awarder's block check refuses it before award() commits its digest
    expect(
      rankDerivationProblems(p.rank_derivation).filter((x) => x.code !== "receipt_hash_mismatch"),
    ).toEqual(both);
    // a bank without private tasks counts the public ones for rank_accuracy
    expect(receiptCreditProblems(r, { rank_accuracy: "1.0000" }, false, path)).toEqual([
      expect.objectContaining({ path: `${path}.receipt.score_public` }),
    ]);
    // credits still null (open benchmark, private credits before the award) are not checked
    r.tasks[0]!.credit = null;
    r.tasks[8]!.credit = null;
    expect(receiptCreditProblems(r, row, true, path)).toEqual([]);
  });

  it("two rows of one run (or one receipt hash) fail ordering and the awarder's block check at the second row (probe37 V-F2)", () => {
    const p = fresh();
    const rows = p.rank_derivation.rows;
    delete rows[4]!.receipt;
    rows[4]!.run_id = rows[3]!.run_id;
    rows[4]!.receipt_hash = rows[3]!.receipt_hash;
    const expected = [
      expect.objectContaining({ code: "run_ranked_twice", path: "$.rank_derivation.rows[4].run_id" }),
      expect.objectContaining({
        code: "receipt_ranked_twice",
        path: "$.rank_derivation.rows[4].receipt_hash",
      }),
    ];
    expect(checkOrdering(rows).slice(0, 2)).toEqual(expected);
    expect(rankDerivationProblems(p.rank_derivation).slice(0, 2)).toEqual(expected);
    const honest = fresh();
    expect(checkOrdering(honest.rank_derivation.rows)).toEqual([]);
    expect(rankDerivationProblems(honest.rank_derivation)).toEqual([]);
  });
});

describe("minting refuses inconsistent inputs without partial output", () => {
  const pack = parseEvidencePack(vectorBytes("packs/small.json"));
  const parts = partsOf(pack);
  const winnerIdx = parts.runs.findIndex((r) => r.agent_id === "vec-a");

  it("a winner without a withdrawal address blocks the award", () => {
    const runs = parts.runs.map((r, i) => (i === winnerIdx ? { ...r, withdrawal_address: null } : r));
    expect(() => mintEvidencePack({ ...parts, runs })).toThrow(
      expect.objectContaining({ code: "bad_pack_inputs", path: `$.runs[${winnerIdx}].withdrawal_address` }),
    );
  });

  it("a rank_accuracy that the revealed answers do not give is refused", () => {
    const runs = parts.runs.map((r, i) => (i === winnerIdx ? { ...r, rank_accuracy: "0.8334" } : r));
    expect(() => mintEvidencePack({ ...parts, runs })).toThrow(EvidenceError);
  });

  it("a receipt composite that does not follow from its inputs is refused", () => {
    const runs = parts.runs.map((r, i) =>
      i === 0 ? { ...r, receipt: { ...r.receipt, score_composite: "0.9800" } } : r,
    );
    expect(() => mintEvidencePack({ ...parts, runs })).toThrow(
      expect.objectContaining({ path: "$.runs[0].receipt.score_composite" }),
    );
  });

  it("a tampered answer is refused", () => {
    const runs = parts.runs.map((r, i) =>
      i === winnerIdx
        ? { ...r, answers: r.answers!.map((a, j) => (j === 0 ? { ...a, answer_text: "x" } : a)) }
        : r,
    );
    expect(() => mintEvidencePack({ ...parts, runs })).toThrow(/answer_digest_mismatch/);
  });

  it("malformed gold is refused at its test_set path", () => {
    const test_set = parts.test_set.map((r, i) => (i === 3 ? { ...r, gold: { value: "1e3" } } : r));
    expect(() => mintEvidencePack({ ...parts, test_set })).toThrow(
      expect.objectContaining({ code: "malformed_gold", path: "$.test_set[3].gold.value" }),
    );
  });

  it("an achieved_at other than the receipt's finalized_at is refused (probe37 B-F4)", () => {
    const runs = parts.runs.map((r, i) => (i === 1 ? { ...r, achieved_at: "2020-01-01T00:00:00.000Z" } : r));
    expect(() => mintEvidencePack({ ...parts, runs })).toThrow(
      expect.objectContaining({ code: "bad_pack_inputs", path: "$.runs[1].achieved_at" }),
    );
  });

  it("custom splits must match a named rule's splits when a rule is named", () => {
    expect(() =>
      mintEvidencePack({ ...parts, scoring: { ...parts.scoring, splits_bps: [6000, 4000] } }),
    ).toThrow(/splits_bps differ/);
  });

  it("withPackAnchor leaves pack_hash and the hashed bytes unchanged", () => {
    const minted = mintEvidencePack({ ...parts, pack_anchor: null });
    const anchored = withPackAnchor(minted, pack.pack_anchor);
    expect(anchored.pack_anchor).toEqual(pack.pack_anchor);
    expect(packHash(anchored)).toBe(minted.pack_hash);
    expect(canonicalJsonString(anchored)).toBe(canonicalJsonString(pack));
  });
});
