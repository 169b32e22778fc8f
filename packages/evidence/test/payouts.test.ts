import { describe, expect, it } from "vitest";
import {
  EvidenceError,
  PAYOUT_RULES,
  canonicalJsonString,
  payoutAmounts,
  payoutRuleProblem,
  paysAuthor,
  rankRows,
  selectWinners,
  validateSplits,
  type RunRow,
} from "../src/index.js";
import { vector } from "./vectors.js";

const p = vector("payouts.json");

describe("payouts.json amounts (SPEC 7.3), the table shared with the contract tests", () => {
  for (const c of p.amounts) {
    it(`pool ${c.pool_base_units}, splits [${c.splits_bps.join(",")}], k=${c.k} -> [${c.amounts_base_units.join(",")}]`, () => {
      const got = payoutAmounts(BigInt(c.pool_base_units), c.splits_bps, c.k);
      expect(got.map(String)).toEqual(c.amounts_base_units);
      // k >= 1: the whole pool is paid out (dust to place 1); k = 0: nothing (the pool returns to the author)
      expect(got.reduce((a, b) => a + b, 0n)).toBe(c.k === 0 ? 0n : BigInt(c.pool_base_units));
    });
  }

  for (const c of p.bad_splits) {
    it(`bad splits ${canonicalJsonString(c.splits_bps)} -> ${c.error}`, () => {
      expect(() => validateSplits(c.splits_bps)).toThrow(expect.objectContaining({ code: c.error }));
      expect(() => payoutAmounts(100n, c.splits_bps, 1)).toThrow(expect.objectContaining({ code: c.error }));
    });
  }
});

describe("payouts.json selection (SPEC 7.1-7.2)", () => {
  for (const c of p.selection) {
    it(c.name, () => {
      const ranked = rankRows(c.runs as RunRow[]);
      expect(
        ranked.map((r) => ({
          rank: r.rank,
          agent_id: r.agent_id,
          run_id: r.run_id,
          attempts_used: r.attempts_used,
        })),
      ).toEqual(c.ranked);
      const sel = selectWinners({
        rows: ranked,
        threshold_bps: c.threshold_bps,
        splits_bps: c.splits_bps,
        pool_base_units: c.pool_base_units,
      });
      expect(sel.winners.map((w) => w.agent_id)).toEqual(c.winners);
      expect(sel.place_amounts_base_units).toEqual(c.place_amounts_base_units);
      expect(sel.zero_winner_reason).toBe(c.zero_winner_reason);
    });
  }

  it("ranking does not depend on the input order", () => {
    for (const c of p.selection) {
      const reversed = [...(c.runs as RunRow[])].reverse();
      expect(rankRows(reversed).map((r) => r.run_id)).toEqual(
        c.ranked.map((r: { run_id: string }) => r.run_id),
      );
    }
  });
});

describe("payout and ranking input rules", () => {
  it("exposes the named rules of SPEC 1.1", () => {
    expect(PAYOUT_RULES).toEqual({ winner_take_all: [10000], top_n_split: [5000, 3000, 2000] });
    expect(Object.isFrozen(PAYOUT_RULES.top_n_split)).toBe(true);
  });

  it("k = 0 pays nobody; k beyond the places, a negative pool or a non-bigint pool are refused", () => {
    expect(payoutAmounts(100n, [5000, 3000, 2000], 0)).toEqual([]);
    expect(() => payoutAmounts(100n, [10000], 2)).toThrow(EvidenceError);
    expect(() => payoutAmounts(-1n, [10000], 1)).toThrow(EvidenceError);
    expect(() => payoutAmounts(100 as unknown as bigint, [10000], 1)).toThrow(EvidenceError);
  });

  it("equal places are allowed", () => {
    expect(validateSplits([2500, 2500, 2500, 2500])).toEqual([2500, 2500, 2500, 2500]);
    expect(payoutAmounts(10n, [2500, 2500, 2500, 2500], 4).map(String)).toEqual(["4", "2", "2", "2"]);
  });

  it("uint256-scale pools stay exact", () => {
    const pool = (1n << 255n) + 7n;
    const a = payoutAmounts(pool, [5000, 3000, 2000], 3);
    expect(a.reduce((x, y) => x + y, 0n)).toBe(pool);
    expect(a[1]).toBe((pool * 3000n) / 10000n);
  });

  it("a malformed row field is a schema error naming the row", () => {
    const runs = p.selection[0].runs as RunRow[];
    const bad = runs.map((r, i) => (i === 3 ? { ...r, score_composite: "0.725" } : r));
    expect(() => rankRows(bad, "$.runs")).toThrow(
      expect.objectContaining({ code: "schema", path: "$.runs[3].score_composite" }),
    );
    const dup = [...runs, { ...runs[0]! }];
    expect(() => rankRows(dup)).toThrow(expect.objectContaining({ code: "bad_rows" }));
  });
});

// probe32 C-F2: a bounty locked with --splits could be awarded only with payout_rule "custom", which no
// message named
describe("payoutRuleProblem", () => {
  it("a named rule with other splits names the rule's splits and payout_rule custom; custom takes any", () => {
    const splits = [2000, 2000, 6000];
    expect(payoutRuleProblem({ payout_rule: "top_n_split", splits_bps: splits })).toEqual({
      code: "payout_rule_mismatch",
      path: "$.rank_derivation.splits_bps",
      message:
        'payout_rule top_n_split means [5000, 3000, 2000], splits_bps is [2000, 2000, 6000] (any other splits, such as a bounty\'s locked with --splits, are payout_rule "custom")',
    });
    expect(payoutRuleProblem({ payout_rule: "custom", splits_bps: splits })).toBeNull();
    expect(
      payoutRuleProblem({ payout_rule: "top_n_split", splits_bps: [...PAYOUT_RULES.top_n_split] }),
    ).toBeNull();
    // a name no rule has is the schema's problem
    expect(payoutRuleProblem({ payout_rule: "nosuch", splits_bps: splits })).toBeNull();
  });
});

describe("paysAuthor (SPEC 7.2 by the money's destination)", () => {
  const author = "0x71bE63f3384f5fb98995898A86B02Fb2426c5788";
  it("is the author's address in any case, and nothing else", () => {
    expect(paysAuthor(author, author.toLowerCase())).toBe(true);
    expect(paysAuthor(author.toUpperCase().replace("0X", "0x"), author)).toBe(true);
    expect(paysAuthor("0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec", author)).toBe(false);
    expect(paysAuthor(null, author)).toBe(false);
    expect(paysAuthor(author, undefined)).toBe(false);
  });
});
