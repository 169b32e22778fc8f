import { describe, expect, it } from "vitest";
import {
  checkBountyTerms,
  EvidenceError,
  type BountyTermsRule,
  type UncheckedBountyTerms,
} from "../src/index.js";

const NOW = 1_700_000_000n;
const good: UncheckedBountyTerms = {
  pool: 50_000_000n,
  thresholdBps: 5000,
  closesAt: NOW + 3600n,
  awardDeadline: NOW + 7200n,
  splitsBps: [5000, 3000, 2000],
};

describe("checkBountyTerms: the one rule of SPEC 1.1 createBounty terms", () => {
  it("accepts good terms and returns the splits as checked numbers", () => {
    expect(checkBountyTerms(good, { now: NOW })).toEqual({ ok: true, terms: good });
    expect(checkBountyTerms({ ...good, thresholdBps: 0, splitsBps: [10000] }, { now: NOW }).ok).toBe(true);
    expect(checkBountyTerms({ ...good, thresholdBps: 10000 }, { now: NOW }).ok).toBe(true);
    expect(checkBountyTerms({ ...good, pool: 2n ** 256n - 1n }, { now: NOW }).ok).toBe(true);
  });

  const table: [string, Partial<UncheckedBountyTerms>, keyof UncheckedBountyTerms, BountyTermsRule][] = [
    ["pool 0", { pool: 0n }, "pool", "pool_not_positive"],
    ["pool negative", { pool: -1n }, "pool", "pool_not_positive"],
    // probe30 C-F5: past createBounty's uint256 the lock failed encoding it, answered as a chain failure
    ["pool 2^256 base units", { pool: 2n ** 256n }, "pool", "pool_out_of_range"],
    ["threshold above 10000", { thresholdBps: 10001 }, "thresholdBps", "threshold_out_of_range"],
    ["threshold negative", { thresholdBps: -1 }, "thresholdBps", "threshold_out_of_range"],
    ["threshold fractional", { thresholdBps: 50.5 }, "thresholdBps", "threshold_out_of_range"],
    ["closesAt 0", { closesAt: 0n, awardDeadline: 10n }, "closesAt", "closes_at_not_positive"],
    [
      "deadline equal to close",
      { awardDeadline: NOW + 3600n },
      "awardDeadline",
      "deadline_not_after_closes_at",
    ],
    ["deadline before close", { awardDeadline: NOW + 1n }, "awardDeadline", "deadline_not_after_closes_at"],
    ["close at chain time", { closesAt: NOW, awardDeadline: NOW + 1n }, "closesAt", "closes_at_not_future"],
    ["increasing splits", { splitsBps: [3000, 5000, 2000] }, "splitsBps", "bad_splits"],
    ["splits not summing to 10000", { splitsBps: [5000, 3000] }, "splitsBps", "bad_splits"],
    ["nine places", { splitsBps: [1200, ...Array<number>(8).fill(1100)] }, "splitsBps", "bad_splits"],
    ["splits not an array", { splitsBps: "10000" }, "splitsBps", "bad_splits"],
  ];
  for (const [name, patch, field, rule] of table) {
    it(`refuses ${name}: ${field} / ${rule}`, () => {
      const check = checkBountyTerms({ ...good, ...patch }, { now: NOW });
      expect(check.ok).toBe(false);
      if (check.ok) return;
      expect(check.violation).toMatchObject({ field, rule });
      if (rule === "bad_splits") expect(check.violation.splitsError).toBeInstanceOf(EvidenceError);
    });
  }

  it("reports the first broken rule, in the documented order", () => {
    const all = { pool: 0n, thresholdBps: -1, closesAt: 0n, awardDeadline: 0n, splitsBps: [] };
    const order: BountyTermsRule[] = [];
    let terms: UncheckedBountyTerms = all;
    const fixes: Partial<UncheckedBountyTerms>[] = [
      { pool: 1n },
      { thresholdBps: 1 },
      { closesAt: NOW - 10n },
      { awardDeadline: NOW + 10n },
      { closesAt: NOW + 1n },
      { splitsBps: [10000] },
    ];
    for (const fix of fixes) {
      const check = checkBountyTerms(terms, { now: NOW });
      if (!check.ok) order.push(check.violation.rule);
      terms = { ...terms, ...fix };
    }
    expect(order).toEqual([
      "pool_not_positive",
      "threshold_out_of_range",
      "closes_at_not_positive",
      "deadline_not_after_closes_at",
      "closes_at_not_future",
      "bad_splits",
    ]);
    expect(checkBountyTerms(terms, { now: NOW }).ok).toBe(true);
  });

  it("without chain time skips only the future check; the splits error names the caller's path", () => {
    expect(checkBountyTerms({ ...good, closesAt: 5n, awardDeadline: 6n }).ok).toBe(true);
    const check = checkBountyTerms({ ...good, splitsBps: [5000, 6000] }, { splitsPath: "--splits" });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.violation.splitsError?.message).toMatch(/^--splits\[1\]: /);
  });
});
