/**
 * probe36 A-F5: the public/private cut (`round(n * public_fraction)` in the bank order) fell inside a
 * group of identical prompts, so one copy was public and its twin private: a run's `score_public` on the
 * public copy was the private copy's credit, read off while open (SPEC 6.1). The cut now falls on the
 * nearest group boundary (`splitCut`, the lower on a tie) and the publish answer names the groups.
 */
import { promptHash } from "@bench-bounty/evidence";
import { afterEach, describe, expect, it } from "vitest";
import type { DatasetRow } from "../src/dataset.js";
import {
  benchmarkConfig,
  bankOrder,
  planTestSet,
  promptSamenessKeys,
  publicCount,
  splitCut,
  type PublishOptions,
} from "../src/publish.js";
import { cleanup, openTemp, rejection } from "./helpers.js";

afterEach(cleanup);

const DUP: PublishOptions = {
  title: "Dup",
  prompt_template: "Q {payload.q}",
  grader_type: "exact",
  public_fraction: 0.25,
  seed: "s",
};

/** The prober's rows: "same question" twice (blue), "other" twice (red). */
const proberRows = (): DatasetRow[] => [
  { decision_ts: "2026-07-01", payload: { q: "same question" }, label: "blue" },
  { decision_ts: "2026-07-02", payload: { q: "same question" }, label: "blue" },
  { decision_ts: "2026-07-03", payload: { q: "other" }, label: "red" },
  { decision_ts: "2026-07-04", payload: { q: "other" }, label: "red" },
];

/** Prompts on both sides of the split (none may be). */
function splitPrompts(rows: { prompt: string; visibility: string }[]): string[] {
  const pub = new Set(rows.filter((r) => r.visibility === "public").map((r) => r.prompt));
  return [
    ...new Set(rows.filter((r) => r.visibility === "private" && pub.has(r.prompt)).map((r) => r.prompt)),
  ];
}

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("identical prompts land on one side of the split (probe36 A-F5)", () => {
  it("the prober's 4 rows at 0.25: no group split, served nor committed; the answer names the groups", async () => {
    const h = await openTemp();
    const ds = await h.createDataset({ name: "dup36", rows: proberRows() });
    const pub = await h.publish(ds.dataset_id, DUP);
    // the bank holds two groups of two: round(4 * 0.25) = 1 falls inside the first; boundaries 0 and 2
    // are as near, the lower wins
    expect(pub).toMatchObject({ leaf_count: 4, public_count: 0, private_count: 4 });
    expect(pub.duplicate_prompts).toMatchObject({
      groups: 2,
      rows: 4,
      examples: [
        [0, 1],
        [2, 3],
      ],
      rounded_public_count: 1,
    });
    expect(pub.duplicate_prompts.message).toMatch(/2 groups of rows render an identical prompt/);
    expect(pub.duplicate_prompts.message).toMatch(/the cut is 0, the nearest group boundary/);
    expect(pub.disclosure).toMatch(/group of identical prompts/);
    const committed = await h.testSet(pub.slug);
    expect(splitPrompts(committed)).toEqual([]);
    const run = await h.startRun(pub.slug, "bob");
    expect(splitPrompts(run.tasks)).toEqual([]);
    expect((await h.getBenchmark(pub.slug)).public_count).toBe(0);
  });

  it("the cut is the nearest group boundary to round(n * public_fraction), the lower on a tie", () => {
    const A = "a";
    const B = "b";
    const C = "c";
    expect(splitCut([A, A, B, B], 1)).toBe(0); // tie: 0 and 2
    expect(splitCut([A, A, B, B], 3)).toBe(2); // tie: 2 and 4
    expect(splitCut([A, A, A, B], 1)).toBe(0);
    expect(splitCut([A, A, A, B], 2)).toBe(3);
    expect(splitCut([A, B, B, B, C], 2)).toBe(1);
    expect(splitCut([A, B, B, B, C], 3)).toBe(4);
    expect(splitCut([A, A, A], 1)).toBe(0); // one prompt: all private or all public
    expect(splitCut([A, A, A], 2)).toBe(3);
    // no group spans the target: the target itself (0 and n included)
    expect(splitCut([A, B, C], 1)).toBe(1);
    expect(splitCut([A, A, B], 2)).toBe(2);
    expect(splitCut([A, A], 0)).toBe(0);
    expect(splitCut([A, A], 2)).toBe(2);
    expect(splitCut([], 0)).toBe(0);
  });

  it("random small datasets with duplicates: no prompt on both sides, the cut as the rule says", () => {
    const next = rng(36);
    const fractions = ["0", "0.1", "0.25", "0.3", "0.5", "0.6", "0.75", "0.9", "1"];
    const cases = Array.from({ length: 300 }, (_, trial) => {
      const n = 1 + Math.floor(next() * 12);
      const distinct = 1 + Math.floor(next() * n);
      const qs = Array.from({ length: n }, () => `q${Math.floor(next() * distinct)}`);
      const rows: DatasetRow[] = qs.map((q, i) => ({
        decision_ts: `2026-01-${String(i + 1).padStart(2, "0")}`,
        payload: { q },
        label: next() < 0.5 ? "blue" : "red",
      }));
      const fraction = fractions[Math.floor(next() * fractions.length)]!;
      const config = benchmarkConfig({ ...DUP, public_fraction: fraction });
      const plan = planTestSet(rows, config, () => "00".repeat(32));
      return { what: `trial ${trial}: ${JSON.stringify(qs)} at ${fraction}`, qs, fraction, plan };
    });
    // before the fix, dozens of these had a prompt both public and private
    expect(cases.filter((c) => splitPrompts(c.plan.rows).length > 0).map((c) => c.what)).toEqual([]);
    let moved = 0;
    for (const { what, qs, fraction, plan } of cases) {
      const n = qs.length;
      // the rule, by brute force: of every boundary the nearest to the target, the lower on a tie
      const hashes = bankOrder(qs.map((q) => promptHash(`Q ${q}`))).map((i) => promptHash(`Q ${qs[i]!}`));
      const target = publicCount(n, fraction);
      const boundaries = Array.from({ length: n + 1 }, (_, i) => i).filter(
        (i) => i === 0 || i === n || hashes[i - 1] !== hashes[i],
      );
      const best = boundaries.reduce((b, c) => (Math.abs(c - target) < Math.abs(b - target) ? c : b));
      expect(plan.public_count, what).toBe(best);
      expect(
        plan.rows.filter((r) => r.visibility === "public"),
        what,
      ).toHaveLength(best);
      expect(plan.duplicate_prompts.rounded_public_count, what).toBe(target);
      const sizes = [...new Set(hashes)].map((x) => hashes.filter((y) => y === x).length);
      expect(plan.duplicate_prompts.groups, what).toBe(sizes.filter((k) => k > 1).length);
      expect(plan.duplicate_prompts.rows, what).toBe(sizes.filter((k) => k > 1).reduce((a, k) => a + k, 0));
      if (best !== target) moved++;
    }
    expect(moved).toBeGreaterThan(10); // the cases did exercise the moved cut
  });

  it("public_tasks_per_run above the public tasks the moved cut leaves is refused, naming the move", async () => {
    const h = await openTemp();
    const ds = await h.createDataset({ name: "dup36", rows: proberRows() });
    // round(4 * 0.25) = 1 allows 1 per run; the cut at 0 does not
    const e = await rejection(h.publish(ds.dataset_id, { ...DUP, public_tasks_per_run: 1 }));
    expect(e.code).toBe("invalid_option");
    expect(e.details).toMatchObject({ field: "public_tasks_per_run", public_tasks: 0 });
    expect(e.message).toMatch(/1 moved to 0 so that no group of identical prompts is split/);
    expect(await h.listBenchmarks()).toHaveLength(0);
  });

  it("rows with distinct prompts: the cut is round(n * public_fraction), no group named", () => {
    const rows = proberRows().map((r, i) => ({ ...r, payload: { q: `q${i}` } }));
    const plan = planTestSet(rows, benchmarkConfig({ ...DUP, public_fraction: "0.5" }), () =>
      "00".repeat(32),
    );
    expect(plan.public_count).toBe(2);
    expect(plan.duplicate_prompts).toEqual({
      groups: 0,
      rows: 0,
      examples: [],
      rounded_public_count: 2,
      message: "no two rows render the same prompt",
    });
  });
});

describe("prompts that are the same text in another Unicode form land on one side too (probe36 V-F9)", () => {
  /** The same words, precomposed (NFC) and decomposed (NFD): each pair renders alike. */
  const FORMS = ["caf\u00e9", "cafe\u0301", "\u00c5ngstr\u00f6m", "A\u030angstro\u0308m", "plain", "other"];

  /** Prompts on both sides of the split once NFC-normalised (none may be). */
  const splitForms = (rows: { prompt: string; visibility: string }[]): string[] =>
    splitPrompts(rows.map((r) => ({ ...r, prompt: r.prompt.normalize("NFC") })));

  it("the prober's NFC/NFD pair is one group, named in the answer, in every bank order", () => {
    const before: string[] = [];
    for (let tag = 0; tag < 40; tag++) {
      // ten distinct prompts, of which row 0 and row 9 are the same word in two forms
      const qs = Array.from({ length: 10 }, (_, i) => `w${i}-${tag}`);
      qs[0] = `caf\u00e9-${tag}`;
      qs[9] = `cafe\u0301-${tag}`;
      const rows: DatasetRow[] = qs.map((q, i) => ({
        decision_ts: `2026-01-${String(i + 1).padStart(2, "0")}`,
        payload: { q },
        label: "yes",
      }));
      const plan = planTestSet(rows, benchmarkConfig({ ...DUP, public_fraction: "0.5" }), () =>
        "00".repeat(32),
      );
      // before the fix, the byte-for-byte grouping left the pair split in about half of these banks
      if (splitForms(plan.rows).length > 0) before.push(`tag ${tag}`);
      expect(plan.duplicate_prompts.groups, `tag ${tag}`).toBe(1);
      expect(plan.duplicate_prompts.examples, `tag ${tag}`).toEqual([[0, 9]]);
      expect(plan.duplicate_prompts.message).toMatch(/or one equal to it after SPEC 5's norm/);
    }
    expect(before).toEqual([]);
  });

  it("random datasets of mixed forms: no equivalent prompt on both sides, the cut as the rule says", () => {
    const next = rng(369);
    const fractions = ["0.1", "0.25", "0.5", "0.75", "0.9"];
    let moved = 0;
    for (let trial = 0; trial < 200; trial++) {
      const n = 2 + Math.floor(next() * 10);
      const qs = Array.from({ length: n }, () => FORMS[Math.floor(next() * FORMS.length)]!);
      const rows: DatasetRow[] = qs.map((q, i) => ({
        decision_ts: `2026-01-${String(i + 1).padStart(2, "0")}`,
        payload: { q },
        label: next() < 0.5 ? "blue" : "red",
      }));
      const fraction = fractions[Math.floor(next() * fractions.length)]!;
      const plan = planTestSet(rows, benchmarkConfig({ ...DUP, public_fraction: fraction }), () =>
        "00".repeat(32),
      );
      const what = `trial ${trial}: ${JSON.stringify(qs)} at ${fraction}`;
      expect(splitForms(plan.rows), what).toEqual([]);
      // each NFC word's rows are adjacent in the committed order
      const words = plan.rows.map((r) => r.prompt.normalize("NFC"));
      const runs = words.filter((w, i) => i === 0 || words[i - 1] !== w);
      expect(new Set(runs).size, what).toBe(runs.length);
      const nfcGroups = [...new Set(words)].map((w) => words.filter((x) => x === w).length);
      expect(plan.duplicate_prompts.groups, what).toBe(nfcGroups.filter((k) => k > 1).length);
      if (plan.public_count !== publicCount(n, fraction)) moved++;
    }
    expect(moved).toBeGreaterThan(10);
  });

  it("a bank without equivalent prompts keeps the prompt_hash order; a long combining run is keyed by itself", () => {
    // prompts norm leaves as they are are keyed by their own prompt_hash
    const plain = ["q a", "q b", "q c"];
    expect(
      promptSamenessKeys(
        plain,
        plain.map((q) => promptHash(q)),
      ),
    ).toEqual(plain.map((q) => promptHash(q)));
    const prompts = ["Q a", "Q b", "Q c", "Q d", "Q e"];
    const hashes = prompts.map((q) => promptHash(q));
    const keys = promptSamenessKeys(prompts, hashes);
    expect(bankOrder(hashes, keys)).toEqual(bankOrder(hashes));
    const sorted = [...hashes].sort();
    expect(bankOrder(hashes).map((i) => hashes[i])).toEqual(sorted);
    // NFD text is keyed by its norm's (NFKC) hash
    expect(promptSamenessKeys(["cafe\u0301"], [promptHash("cafe\u0301")])).toEqual([promptHash("caf\u00e9")]);
    // 40 combining marks in a row: never normalised (quadratic), keyed by its own hash
    const marks = "a" + "\u0301\u0300".repeat(20);
    expect(promptSamenessKeys([marks], [promptHash(marks)])).toEqual([promptHash(marks)]);
  });
});

describe("prompts equal after SPEC 5's norm land on one side (probe37 V-F1)", () => {
  /** The prober's pairs: a prompt and a twin a reader cannot tell from it (norm-equal). */
  const PAIRS: [string, string, string][] = [
    ["trailing space", "Q1: weather?", "Q1: weather? "],
    ["double space", "Q1: the weather?", "Q1: the  weather?"],
    ["no-break space", "Q1: the weather?", "Q1: the\u00a0weather?"],
    ["fullwidth", "Q1: weather?", "\uff31\uff11: weather?"],
    ["ligature", "\ufb01le the weather", "file the weather"],
    ["letter case", "Q1: WEATHER?", "q1: weather?"],
  ];

  it.each(PAIRS)("%s: one group in every bank order, named in the answer", (_what, a, b) => {
    const before: string[] = [];
    for (let tag = 0; tag < 30; tag++) {
      const qs = Array.from({ length: 10 }, (_, i) => `other ${i} ${tag}`);
      // the tag, put before both the same way, keeps the pair's norm equal
      qs[0] = `${tag}|${a}`;
      qs[9] = `${tag}|${b}`;
      const rows: DatasetRow[] = qs.map((q, i) => ({
        decision_ts: `2026-01-${String(i + 1).padStart(2, "0")}`,
        payload: { q },
        label: "yes",
      }));
      const config = benchmarkConfig({ ...DUP, prompt_template: "{payload.q}", public_fraction: "0.5" });
      const plan = planTestSet(rows, config, () => "00".repeat(32));
      const side = (q: string) => plan.rows.find((r) => r.prompt === q)!.visibility;
      if (side(qs[0]!) !== side(qs[9]!)) before.push(`tag ${tag}`);
      expect(plan.duplicate_prompts.examples, `tag ${tag}`).toEqual([[0, 9]]);
    }
    expect(before).toEqual([]);
  });

  it("an invisible format character (U+200B) is not folded: such prompts are two groups, as documented", () => {
    const prompts = ["Q1: weather?", "Q1: weather?\u200b"];
    const keys = promptSamenessKeys(
      prompts,
      prompts.map((p) => promptHash(p)),
    );
    expect(keys[0]).not.toBe(keys[1]);
  });
});
