/**
 * SPEC 6.1 (issue 13, "private-score leak"): nothing served to anyone but the author while open is
 * computed from a label. The attacks of probe4 (`bank-order-gold.mjs`, `slug-gold.mjs`) as tests: a
 * stranger rebuilds each row from its served prompt and tests candidate labels against (1) the order
 * private tasks are served in and (2) the default slug's 8 hex digits. Both used to pin the gold
 * (146 of 150 private labels from one run; the whole label vector from the slug).
 */
import { canonicalHash } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import { checkDataset, validateDataset, type DatasetRow } from "../src/dataset.js";
import { benchmarkConfig, defaultSlug, planTestSet, type PublishOptions } from "../src/publish.js";
import { openTemp } from "./helpers.js";

const CLASSES = ["drizzle", "fog", "rain", "snow", "sun"] as const;
const WEATHER: PublishOptions = {
  title: "Weather",
  grader_type: "exact",
  public_fraction: 0.25,
  prompt_template:
    "At {decision_ts}, station {payload.station}: max {payload.temp_max} C, wind {payload.wind} m/s. Weather? One of drizzle, fog, rain, snow, sun.",
};
const PROMPT_RE = /^At (\S+), station (\S+): max (\d+) C, wind (\d+) m\/s\./;

/** The author's secret data (the probe's): every field is in the prompt, only the label is not. */
function weatherRows(n: number, label: (i: number) => string): DatasetRow[] {
  return Array.from({ length: n }, (_, i) => ({
    decision_ts: `2026-02-${String((i % 28) + 1).padStart(2, "0")}T${String(i % 24).padStart(2, "0")}:00:00Z`,
    payload: { station: "S" + i, temp_max: (i * 7) % 31, wind: (i * 3) % 11 },
    label: label(i),
  }));
}
const truth = (i: number): string => CLASSES[((i * 2654435761) >>> 0) % 5]!;

/** A row rebuilt from a served prompt, with a candidate label. */
function rebuilt(prompt: string, label: string): DatasetRow {
  const m = PROMPT_RE.exec(prompt);
  if (!m) throw new Error(`unexpected prompt ${prompt}`);
  return {
    decision_ts: m[1]!,
    payload: { station: m[2]!, temp_max: Number(m[3]), wind: Number(m[4]) },
    label,
  };
}

/**
 * probe4's attack on the served order: a candidate survives when some choice of candidates keeps the
 * served tasks' row hashes ascending (forward minimum / backward maximum over the chain).
 * @returns per task the surviving labels
 */
function sortednessAttack(prompts: string[]): string[][] {
  const opts = prompts.map((p) =>
    CLASSES.map((label) => ({
      label,
      h: validateDataset({ name: "x", rows: [rebuilt(p, label)] }).row_hashes[0]!,
    })),
  );
  const lo: string[] = [];
  const hi: string[] = [];
  let prev = "";
  for (const o of opts) {
    const ok = o.filter((x) => x.h > prev).sort((a, b) => (a.h < b.h ? -1 : 1));
    prev = ok[0]?.h ?? "~";
    lo.push(prev);
  }
  let next = "~";
  for (let i = opts.length - 1; i >= 0; i--) {
    const ok = opts[i]!.filter((x) => x.h < next).sort((a, b) => (a.h < b.h ? 1 : -1));
    next = ok[0]?.h ?? "";
    hi[i] = next;
  }
  return opts.map((o, i) =>
    o
      .filter((x) => (i === 0 || x.h > lo[i - 1]!) && (i === opts.length - 1 || x.h < hi[i + 1]!))
      .map((x) => x.label),
  );
}

describe("the bank order and the split depend on no label (SPEC 6.1)", () => {
  it("probe4's attack on one started run: the served order pins no private label, and every candidate stays possible", async () => {
    const rows = weatherRows(40, truth);
    const h = await openTemp();
    const ds = await h.createDataset({ name: "wx", rows });
    const pub = await h.publish(ds.dataset_id, WEATHER);
    const run = await h.startRun(pub.slug, "stranger");
    const priv = run.tasks.filter((t) => t.visibility === "private");
    expect(priv).toHaveLength(30);
    const stationOf = (p: string) => PROMPT_RE.exec(p)![2]!;
    const gold = new Map(rows.map((r) => [r.payload.station as string, r.label]));

    // (a) the probe's own measure: the labels it pins to one candidate, and how many equal the gold
    const survivors = sortednessAttack(priv.map((t) => t.prompt));
    const pinnedRight = survivors.filter(
      (s, i) => s.length === 1 && s[0] === gold.get(stationOf(priv[i]!.prompt)),
    ).length;
    // before the fix: 29 or 30 of 30 (the probe saw 146 of 150); by chance at most ~1 in 5
    expect(pinnedRight).toBeLessThan(priv.length / 2);

    // (b) not narrowed at all: whatever label any one private row had, the tasks served (prompt,
    // visibility, order) and the slug would be the same, so no candidate can be excluded
    const config = benchmarkConfig(WEATHER);
    const served = (rs: DatasetRow[]) => {
      const plan = planTestSet(rs, config, () => "00".repeat(32));
      return {
        tasks: plan.rows.map((r) => [r.ordinal, r.prompt, r.visibility]),
        slug: defaultSlug("wx", plan.bank_digest),
      };
    };
    const baseline = served(rows);
    expect(baseline.slug).toBe(pub.slug);
    expect(baseline.tasks.filter((t) => t[2] === "private").map((t) => t[1])).toEqual(
      priv.map((t) => t.prompt),
    );
    let candidatesLeft = 0;
    for (const t of priv) {
      const i = rows.findIndex((r) => r.payload.station === stationOf(t.prompt));
      for (const c of CLASSES) {
        const altered = rows.map((r, j) => (j === i ? { ...r, label: c } : r));
        if (JSON.stringify(served(altered)) === JSON.stringify(baseline)) candidatesLeft++;
      }
    }
    expect(candidatesLeft).toBe(priv.length * CLASSES.length); // 150 of 150: 5.00 per task, as before the run
  });

  it("two label vectors over the same prompts serve identical runs (plan seed included) and the same slug", async () => {
    const seeded = { ...WEATHER, public_fraction: 0.5, seed: "demo-seed" };
    const servedOf = async (label: (i: number) => string) => {
      const h = await openTemp();
      const ds = await h.createDataset({ name: "wx", rows: weatherRows(12, label) });
      const pub = await h.publish(ds.dataset_id, seeded);
      const run = await h.startRun(pub.slug, "same-agent");
      return {
        slug: pub.slug,
        content_hash: ds.content_hash,
        tasks: run.tasks.map((t) => ({ ordinal: t.ordinal, prompt: t.prompt, visibility: t.visibility })),
      };
    };
    const a = await servedOf(truth);
    const b = await servedOf((i) => CLASSES[(CLASSES.indexOf(truth(i) as never) + 1) % 5]!);
    expect(a.content_hash).not.toBe(b.content_hash); // the datasets differ (labels only)
    expect(b.slug).toBe(a.slug);
    expect(b.tasks).toEqual(a.tasks);
  });

  it("identical prompts keep their upload order, whatever their labels", () => {
    const config = benchmarkConfig({ ...WEATHER, prompt_template: "Weather at station {payload.station}?" });
    const same = (labels: string[]) =>
      labels.map((label, i) => ({ decision_ts: `2026-01-0${i + 1}`, payload: { station: "S" }, label }));
    for (const labels of [
      ["rain", "sun", "fog"],
      ["sun", "fog", "rain"],
    ]) {
      const plan = planTestSet(same(labels), config, () => "00".repeat(32));
      expect(plan.rows.map((r) => r.row_index)).toEqual([0, 1, 2]);
    }
  });
});

describe("the default slug depends on no label (SPEC 6.1)", () => {
  it("probe4's offline brute force of the labels against the slug's 8 hex finds nothing; every vector gives the slug", async () => {
    const secret = ["rain", "sun", "sun", "rain", "rain", "rain", "sun", "rain"];
    const rowsOf = (labels: string[]) =>
      labels.map((label, i) => ({
        decision_ts: `2026-01-0${i + 1}`,
        payload: { city: "Oslo", temp: 10 + i },
        label,
      }));
    const options: PublishOptions = {
      title: "Weather",
      grader_type: "exact",
      public_fraction: 0.5,
      prompt_template: "{decision_ts} in {payload.city}, {payload.temp} C: rain or sun?",
    };
    const h = await openTemp();
    const ds = await h.createDataset({ name: "weather", rows: rowsOf(secret) });
    const { slug } = await h.publish(ds.dataset_id, options);
    const suffix = slug.slice(-8);
    const config = benchmarkConfig(options);
    let contentHits = 0;
    const slugs = new Set<string>();
    for (let m = 0; m < 1 << secret.length; m++) {
      const labels = secret.map((_, i) => ((m >> i) & 1 ? "sun" : "rain"));
      const rep = checkDataset({ name: "weather", rows: rowsOf(labels) });
      if (rep.content_hash?.slice(2, 10) === suffix) contentHits++;
      slugs.add(
        defaultSlug("weather", planTestSet(rowsOf(labels), config, () => "00".repeat(32)).bank_digest),
      );
    }
    expect(contentHits).toBe(0); // before the fix: exactly the author's vector matched
    expect([...slugs]).toEqual([slug]); // all 256 candidates give the served slug: it says nothing of them
    // and it is what the README says: 8 hex of the prompt hashes in bank order
    const tasks = await h.real.testSet(h.op, slug);
    expect(suffix).toBe(canonicalHash(tasks.map((t) => t.prompt_hash)).slice(2, 10));
  });
});
