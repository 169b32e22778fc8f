/**
 * Adversarial packs: from the good vector packs, a forger changes one thing and
 * re-hashes whatever can be re-hashed (ranking digest, pack hash). Each
 * tampering must be caught by the fact(s) it breaks, and every other fact must
 * keep the state of the expected file.
 */
import { commitTestSet, grade, packHash, receiptHash, type JsonObject } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import { FACT_NAMES, verifyPack, type FactName } from "../src/index.js";
import { at, expected, packTree, rehash, toBytes } from "./helpers.js";

interface Tampering {
  name: string;
  pack: "small" | "zero-winner";
  /** the facts this tampering breaks (each must be `failed`); every other fact keeps its expected state */
  breaks: FactName[];
  edit(tree: JsonObject): void;
  /** leave pack_hash unchanged (default: re-hash like a forger) */
  keepPackHash?: boolean;
  /** an edit made after re-hashing the ranking digest (pack_hash is re-hashed after it) */
  afterDigest?(tree: JsonObject): void;
}

/** A winner answer whose regraded credit is 0, so changing its text changes no score. */
function zeroCreditAnswer(tree: JsonObject): [number, number] {
  const winners = at(tree, "winners") as any[];
  for (let w = 0; w < winners.length; w++) {
    const answers = winners[w].answers as any[];
    for (let j = 0; j < answers.length; j++) {
      const row = at(tree, "test_set", answers[j].bank_ordinal);
      if (grade(row.grader_type, row.gold, answers[j].answer_text).toString() === "0/1") return [w, j];
    }
  }
  throw new Error("no zero-credit answer in the pack");
}

const TAMPERINGS: Tampering[] = [
  {
    name: "a gold (an extra alternative no answer matches)",
    pack: "small",
    breaks: ["commitment_root"],
    edit: (t) => at(t, "test_set", 0, "gold", "alternatives").push("not the committed gold"),
  },
  {
    name: "a salt",
    pack: "small",
    breaks: ["commitment_root"],
    edit: (t) => {
      const row = at(t, "test_set", 3);
      row.salt = (row.salt[0] === "0" ? "1" : "0") + row.salt.slice(1);
    },
  },
  {
    name: "leaf order (two rows swapped, each keeping its ordinal)",
    pack: "small",
    breaks: ["commitment_root"],
    edit: (t) => {
      const ts = at(t, "test_set");
      [ts[0], ts[1]] = [ts[1], ts[0]];
    },
  },
  {
    // the dropped row is a task the receipts name: their binding and the regrade break with it
    name: "a dropped task with leaf_count kept",
    pack: "small",
    breaks: ["commitment_root", "leaf_count", "digest_chain", "regrade"],
    edit: (t) => at(t, "test_set").pop(),
  },
  {
    name: "a dropped task with leaf_count kept and commit_root re-folded over the rest",
    pack: "small",
    breaks: ["leaf_count", "digest_chain", "regrade"],
    edit: (t) => {
      at(t, "test_set").pop();
      // the receipts (anchored before the award) still name the committed root: their binding breaks
      at(t, "benchmark").commit_root = commitTestSet(at(t, "test_set")).root;
    },
  },
  {
    name: "leaf_count",
    pack: "small",
    breaks: ["leaf_count"],
    edit: (t) => {
      at(t, "benchmark").leaf_count = 13;
    },
  },
  {
    name: "an answer",
    pack: "small",
    breaks: ["digest_chain"],
    edit: (t) => {
      const [w, j] = zeroCreditAnswer(t);
      at(t, "winners", w, "answers", j).answer_text += " (edited)";
    },
  },
  {
    name: "a receipt field (started_at of a winner's receipt)",
    pack: "small",
    breaks: ["receipt_hashes"],
    edit: (t) => {
      at(t, "winners", 1, "receipt").started_at = "2026-03-01T09:00:00.000Z";
    },
  },
  {
    name: "a non-winner row's receipt field",
    pack: "zero-winner",
    breaks: ["receipt_hashes"],
    edit: (t) => {
      at(t, "rank_derivation", "rows", 2, "receipt").started_at = "2026-03-01T09:00:00.000Z";
    },
  },
  {
    // 0.6251 still rounds to the same composite (0.7 * 0.6251 + 0.16475 = 0.60232): only the regrade can tell
    name: "rank_accuracy of a winner",
    pack: "small",
    breaks: ["regrade"],
    edit: (t) => {
      const row = at(t, "rank_derivation", "rows", 2);
      expect(row.agent_id).toBe("vec-c");
      row.rank_accuracy = "0.6251";
    },
  },
  {
    name: "a composite",
    pack: "small",
    breaks: ["composite"],
    edit: (t) => {
      const row = at(t, "rank_derivation", "rows", 4);
      expect(row.score_composite).toBe("0.4999");
      row.score_composite = "0.4998";
    },
  },
  {
    // probe37 B-F4: the SPEC 7.1 tie-break is the run's finalize time, which its receipt states
    name: "a winner row's achieved_at moved off its receipt's finalized_at",
    pack: "small",
    breaks: ["composite"],
    edit: (t) => {
      const row = at(t, "rank_derivation", "rows", 1);
      expect(row.run_id).toBe(at(t, "winners", 0).run_id);
      row.achieved_at = "2020-01-01T00:00:00.000Z";
    },
  },
  {
    // probe37 B-F4: the same on a winner's row without its embedded receipt (the winners block carries it)
    name: "a winner row's achieved_at moved, the row's receipt dropped",
    pack: "small",
    breaks: ["composite"],
    edit: (t) => {
      const row = at(t, "rank_derivation", "rows", 1);
      delete row.receipt;
      row.achieved_at = "2020-01-01T00:00:00.000Z";
    },
  },
  {
    name: "the order (two rows swapped, ranks renumbered)",
    pack: "small",
    breaks: ["ordering"],
    edit: (t) => {
      const rows = at(t, "rank_derivation", "rows");
      [rows[3], rows[4]] = [rows[4], rows[3]];
      rows[3].rank = 4;
      rows[4].rank = 5;
    },
  },
  {
    name: "an author agent paid",
    pack: "small",
    breaks: ["selection"],
    edit: (t) => {
      const row = at(t, "rank_derivation", "rows", 1);
      expect(row.agent_id).toBe(at(t, "winners", 0).agent_id);
      row.is_author_agent = true;
    },
  },
  {
    // probe34 C-F1: a second account's agent paying the bounty author's own wallet, its row not flagged
    name: "a winner paid at the bounty author's address (benchmark.author)",
    pack: "small",
    breaks: ["selection"],
    edit: (t) => {
      at(t, "winners", 0).withdrawal_address = at(t, "benchmark").author;
    },
  },
  {
    name: "an amount",
    pack: "small",
    breaks: ["payouts"],
    edit: (t) => {
      const w = at(t, "winners");
      w[0].amount_base_units = String(BigInt(w[0].amount_base_units) - 1n);
      w[1].amount_base_units = String(BigInt(w[1].amount_base_units) + 1n);
    },
  },
  {
    name: "zero_winner_reason",
    pack: "zero-winner",
    breaks: ["payouts"],
    edit: (t) => {
      at(t, "rank_derivation").zero_winner_reason = "only_author_agents";
    },
  },
  {
    name: "pack_hash",
    pack: "small",
    breaks: ["pack_hash"],
    keepPackHash: true,
    edit: (t) => {
      t.pack_hash = `0x${"ab".repeat(32)}`;
    },
  },
  {
    name: "the ranking digest (rank_derivation edited after the award)",
    pack: "zero-winner",
    breaks: ["ranking_digest"],
    edit: () => undefined,
    // the digest is bound on-chain by award(): the forger cannot re-hash it
    afterDigest: (t) => {
      at(t, "rank_derivation", "rows", 0).receipt_url = "https://elsewhere.example/receipt";
    },
  },
];

describe("tampered packs are caught by the fact they break", () => {
  it.each(TAMPERINGS.map((t) => [t.name, t] as const))("%s", async (_name, t) => {
    const exp = expected(t.pack);
    const tree = packTree(t.pack);
    t.edit(tree);
    rehash(tree, true);
    t.afterDigest?.(tree);
    if (t.keepPackHash !== true) tree.pack_hash = packHash(tree as never);
    const report = await verifyPack({ source: toBytes(tree) });
    for (const name of FACT_NAMES) {
      const want = t.breaks.includes(name) ? "failed" : exp.facts[name];
      expect({
        fact: name,
        state: report.facts[name].state,
        reasons: report.facts[name].reasons,
      }).toMatchObject({ fact: name, state: want });
    }
    expect(report.policy_met).toBe(false);
    expect(report.policy_unmet.sort()).toEqual([...t.breaks].sort());
    for (const name of t.breaks) expect(report.facts[name].reasons.length).toBeGreaterThan(0);
    if (t.name.includes("achieved_at"))
      expect(report.facts.composite.reasons.join("\n")).toContain(
        `$.rank_derivation.rows[1].achieved_at: row says "2020-01-01T00:00:00.000Z", its receipt's finalized_at is "${at(tree, "winners", 0, "receipt", "finalized_at")}"`,
      );
  });
});

describe("a non-winner row receipt's stated credits against its scores (probe37 V-N5)", () => {
  /** Row 4 of the small pack (not a winner) with graded credits on its receipt, re-hashed like a forger. */
  async function withCredits(credits: string[]) {
    const tree = packTree("small");
    const row = at(tree, "rank_derivation", "rows", 4);
    expect(at(tree, "winners").some((w: { run_id: string }) => w.run_id === row.run_id)).toBe(false);
    expect([row.rank_accuracy, row.receipt.score_public]).toEqual(["0.5000", "1.0000"]);
    row.receipt.tasks.forEach((task: { credit: string | null }, i: number) => (task.credit = credits[i]!));
    row.receipt_hash = receiptHash(row.receipt);
    rehash(tree, true);
    tree.pack_hash = packHash(tree as never);
    return verifyPack({ source: toBytes(tree) });
  }
  const PRIVATE_HALF = ["1/1", "1/1", "1/1", "1/1", "0/1", "0/1", "0/1", "0/1"];

  it("credits that give the row's scores keep composite verified", async () => {
    const report = await withCredits([...PRIVATE_HALF, "1/1", "1/1", "1/1"]);
    expect(report.facts.composite.state).toBe(expected("small").facts.composite);
  });

  it("public credits contradicting score_public fail composite naming the path", async () => {
    const report = await withCredits([...PRIVATE_HALF, "1/1", "0/1", "1/1"]);
    expect(report.facts.composite.state).toBe("failed");
    expect(report.facts.composite.reasons).toContain(
      '$.rank_derivation.rows[4].receipt.score_public: the receipt states score_public "1.0000", its 3 public credits give 0.6667 (SPEC 6)',
    );
  });

  it("private credits contradicting rank_accuracy fail composite naming the path", async () => {
    const report = await withCredits(["1/1", ...PRIVATE_HALF.slice(1).map(() => "1/1"), "1/1", "1/1", "1/1"]);
    expect(report.facts.composite.state).toBe("failed");
    expect(report.facts.composite.reasons).toContain(
      '$.rank_derivation.rows[4].rank_accuracy: the row states rank_accuracy "0.5000", its receipt\'s 8 private credits give 1.0000 (SPEC 6)',
    );
  });
});

describe("a winner paid at the bounty author's address (probe34 C-F1)", () => {
  it("fails selection naming the winner and benchmark.author", async () => {
    const tree = packTree("small");
    const author = at(tree, "benchmark").author as string;
    const winner = at(tree, "winners", 0).agent_id as string;
    at(tree, "winners", 0).withdrawal_address = author;
    rehash(tree, true);
    tree.pack_hash = packHash(tree as never);
    const report = await verifyPack({ source: toBytes(tree) });
    expect(report.facts.selection.state).toBe("failed");
    expect(report.facts.selection.reasons).toContain(
      `$.winners[0].withdrawal_address pays ${JSON.stringify(winner)} at $.benchmark.author ${author}: the bounty's author takes no prize (SPEC 7.2, author agents rank but take no money)`,
    );
  });
});
