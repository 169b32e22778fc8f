/**
 * Cross-check of SPEC 6 arithmetic against Python's `fractions` + `decimal`
 * (ROUND_HALF_UP at 4 dp in a 100-digit context): random composite inputs
 * and credit lists, computed here with bigint fractions and there
 * independently, must give the same strings. Python runs once for the batch.
 */
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { accuracy, composite, type CompositeInput } from "../src/index.js";

const hasPython = spawnSync("python3", ["--version"]).status === 0;
if (!hasPython)
  console.warn("\n*** SKIPPED: python3 is not available, the Python cross-check of scores did not run ***\n");

const PY = String.raw`
import sys, json
from fractions import Fraction as F
from decimal import Decimal, ROUND_HALF_UP, getcontext
getcontext().prec = 100
def r4(x):
    d = Decimal(x.numerator) / Decimal(x.denominator)
    return str(d.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))
def clamp(x, lo, hi):
    return max(lo, min(hi, x))
out = []
for line in sys.stdin:
    c = json.loads(line)
    if c["kind"] == "accuracy":
        credits = [F(int(a), int(b)) for a, b in (s.split("/") for s in c["credits"])]
        out.append(r4(sum(credits, F(0)) / len(credits)))
    else:
        acc, wall, usdc = F(c["rank_accuracy"]), F(c["wall_seconds"]), F(c["usdc_spent"])
        sw, cw, T = F(c["speed_weight"]), F(c["cost_weight"]), F(c["time_budget_seconds"])
        C = None if c["cost_budget_usdc"] is None else F(c["cost_budget_usdc"])
        if C is None:
            cw = F(0)
        total = (1 - sw - cw) * acc + sw * clamp(1 - wall / T, F(0), F(1))
        if cw > 0:
            total += cw * clamp(1 - usdc / C, F(0), F(1))
        out.append(r4(clamp(total, F(0), F(1))))
print("\n".join(out))
`;

const dec = (max: number, dp: number): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: max * 10 ** dp }).map((n) => {
    const s = String(n).padStart(dp + 1, "0");
    return `${s.slice(0, s.length - dp)}.${s.slice(s.length - dp)}`;
  });

const weights = fc
  .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }))
  .filter(([a, b]) => a + b <= 100)
  .map(
    ([a, b]) =>
      [
        a === 0 ? "0" : a === 100 ? "1" : `0.${String(a).padStart(2, "0").replace(/0$/, "")}`,
        b === 0 ? "0" : b === 100 ? "1" : `0.${String(b).padStart(2, "0").replace(/0$/, "")}`,
      ] as const,
  );

const compositeInput: fc.Arbitrary<CompositeInput> = fc
  .record({
    rank_accuracy: dec(1, 4),
    wall_seconds: dec(5000, 3),
    usdc_spent: dec(20, 6),
    w: weights,
    time_budget_seconds: fc.integer({ min: 1, max: 7200 }),
    cost_budget_usdc: fc.option(
      dec(20, 6).filter((s) => !/^0\.0+$/.test(s)),
      { nil: null },
    ),
  })
  .map(({ w, ...r }) => ({ ...r, speed_weight: w[0], cost_weight: w[1] }));

const creditList = fc.array(
  fc.integer({ min: 1, max: 7 }).chain((d) => fc.integer({ min: 0, max: d }).map((n) => `${n}/${d}`)),
  { minLength: 1, maxLength: 40 },
);

describe("Python cross-check of scores (SPEC 6)", () => {
  it.skipIf(!hasPython)(
    "2,000 composites and 2,000 accuracies agree with Python fractions + decimal ROUND_HALF_UP",
    { timeout: 120_000 },
    () => {
      const comps = fc.sample(compositeInput, { seed: 6, numRuns: 2000 });
      const accs = fc.sample(creditList, { seed: 7, numRuns: 2000 });
      const lines = [
        ...comps.map((c) => JSON.stringify({ kind: "composite", ...c })),
        ...accs.map((credits) => JSON.stringify({ kind: "accuracy", credits })),
      ];
      const py = spawnSync("python3", ["-c", PY], {
        input: lines.join("\n") + "\n",
        encoding: "utf8",
        maxBuffer: 1 << 26,
      });
      expect(py.status, py.stderr).toBe(0);
      const expected = py.stdout.trim().split("\n");
      const ours = [...comps.map((c) => composite(c)), ...accs.map((c) => accuracy(c))];
      const diffs = ours
        .map((o, i) => (o === expected[i] ? null : { input: lines[i], ours: o, python: expected[i] }))
        .filter((d) => d !== null);
      expect(diffs.slice(0, 5)).toEqual([]);
      expect(ours).toHaveLength(4000);
    },
  );
});
