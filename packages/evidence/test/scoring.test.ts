import { describe, expect, it } from "vitest";
import {
  EvidenceError,
  Fraction,
  accuracy,
  accuracyExact,
  composite,
  compositeExact,
  rankAccuracy,
  roundHalfUp4,
  scorePublic,
} from "../src/index.js";
import { vector } from "./vectors.js";

const s = vector("scoring.json");

describe("scoring.json vectors (SPEC 6)", () => {
  for (const c of s.round_half_up) {
    it(`round_half_up ${c.exact} -> ${c.rounded}`, () => {
      expect(roundHalfUp4(c.exact)).toBe(c.rounded);
    });
  }

  s.accuracy.forEach((c: { credits: string[]; sum: string; n: number; accuracy: string }, i: number) => {
    it(`accuracy ${i}: ${c.sum} over ${c.n} -> ${c.accuracy}`, () => {
      expect(accuracy(c.credits)).toBe(c.accuracy);
      expect(
        accuracyExact(c.credits)
          .mul(new Fraction(BigInt(c.n)))
          .toString(),
      ).toBe(c.sum);
    });
  });

  s.composite.forEach((c: Record<string, unknown>, i: number) => {
    it(`composite ${i}: ${String(c.exact)} -> ${String(c.score_composite)}`, () => {
      const input = c as unknown as Parameters<typeof composite>[0];
      expect(compositeExact(input).toString()).toBe(c.exact);
      expect(composite(input)).toBe(c.score_composite);
    });
  });

  s.composite_errors.forEach((c: Record<string, unknown>, i: number) => {
    it(`composite error ${i} is ${String(c.error)}`, () => {
      expect(() => composite(c as unknown as Parameters<typeof composite>[0])).toThrow(
        expect.objectContaining({ code: c.error }),
      );
    });
  });
});

describe("composite configuration rules", () => {
  const base = {
    rank_accuracy: "0.5000",
    wall_seconds: "300.000",
    usdc_spent: "1.000000",
    speed_weight: "0.2",
    cost_weight: "0.1",
    time_budget_seconds: 600,
    cost_budget_usdc: "5.000000" as string | null,
  };

  it.each([
    [{ speed_weight: "0.8", cost_weight: "0.3" }, "$"],
    [{ speed_weight: "-0.1" }, "$.speed_weight"],
    [{ speed_weight: "0.3e0" }, "$.speed_weight"],
    [{ time_budget_seconds: -5 }, "$.time_budget_seconds"],
    [{ wall_seconds: "300.0" }, "$.wall_seconds"],
    [{ usdc_spent: "1.00" }, "$.usdc_spent"],
    [{ rank_accuracy: "0.5" }, "$.rank_accuracy"],
    [{ rank_accuracy: "1.0001" }, "$.rank_accuracy"],
    [{ cost_budget_usdc: "5" }, "$.cost_budget_usdc"],
  ])("refuses %j as malformed at %s", (patch, path) => {
    try {
      composite({ ...base, ...patch } as typeof base);
      throw new Error("not refused");
    } catch (e) {
      expect(e).toBeInstanceOf(EvidenceError);
      expect((e as EvidenceError).code).toBe("malformed");
      expect((e as EvidenceError).path).toBe(path);
    }
  });

  it("sw + cw == 1 is allowed; null budget drops the cost term even with cw > 0", () => {
    // 0*acc + 0.5*(1 - 300/600) + 0.5*(1 - 1/5) = 0.25 + 0.4
    expect(composite({ ...base, speed_weight: "0.5", cost_weight: "0.5" })).toBe("0.6500");
    expect(compositeExact({ ...base, cost_budget_usdc: null }).toString()).toBe(
      // (1-0.2)*0.5 + 0.2*0.5 with cw taken as 0
      "1/2",
    );
  });
});

describe("rank accuracy and public score", () => {
  const tasks = [
    { visibility: "private" as const, credit: "1/1" },
    { visibility: "private" as const, credit: null },
    { visibility: "private" as const, credit: "2/3" },
    { visibility: "public" as const, credit: "1/2" },
  ];

  it("counts private tasks when the bank has any, unanswered as 0", () => {
    expect(rankAccuracy(tasks, true)).toBe("0.5556");
    expect(rankAccuracy(tasks, false)).toBe("0.5000");
    expect(scorePublic(tasks)).toBe("0.5000");
  });

  it("a run with no public task has score_public 0.0000; accuracy over nothing is an error", () => {
    expect(scorePublic(tasks.slice(0, 3))).toBe("0.0000");
    expect(() => accuracy([])).toThrow(EvidenceError);
    expect(() => rankAccuracy(tasks.slice(3), true)).toThrow(/no private task/);
  });

  it("rounds ties away from zero, once", () => {
    expect(roundHalfUp4(new Fraction(1n, 20000n))).toBe("0.0001");
    expect(roundHalfUp4(new Fraction(-1n, 20000n))).toBe("-0.0001");
    expect(roundHalfUp4("3/80000")).toBe("0.0000");
  });
});
