import { commitTestSet, keccak256Hex, canonicalJsonString, promptHash } from "@bench-bounty/evidence";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NUMERIC_GOLD_MAX_INT_DIGITS, PACK_LIMITS } from "@bench-bounty/evidence";
import type { DatasetInput, DatasetRow } from "../src/dataset.js";
import type { PlatformError } from "../src/errors.js";
import { testSetMinBytes } from "../src/pack-budget.js";
import { TasksTable } from "../src/store/tasks.js";
import { DatasetsTable, INSERT_CHUNK } from "../src/store/datasets.js";
import { Kysely, sql } from "kysely";
import {
  benchmarkConfig,
  planPublication,
  prepareDataset,
  promptBytesOf,
  PUBLISH_BUDGET_LOCK,
  publicCount,
  testSetRowOf,
  type PublishOptions,
} from "../src/publish.js";
import { TEXT_LIMITS } from "../src/text-limits.js";
import { cities, cleanup, openTemp, rejection, type Harness } from "./helpers.js";

afterEach(cleanup);

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";
const base = (over: Partial<PublishOptions> = {}): PublishOptions => ({
  title: "Cities",
  prompt_template: TEMPLATE,
  grader_type: "exact",
  seed: "s",
  ...over,
});

async function publishRows(
  platform: Harness,
  rows: unknown[],
  over: Partial<PublishOptions> = {},
  name = "d",
) {
  const ds = await platform.createDataset({ name, rows } as DatasetInput);
  return await platform.publish(ds.dataset_id, base(over));
}

const r = (label: unknown, payload: Record<string, unknown> = { city: "X", index: 1 }, i = 0) => ({
  decision_ts: `2026-01-0${(i % 9) + 1}T00:00:00Z`,
  payload: { ...payload, n: i },
  label,
});

describe("publishing: the seed's table of refusals", () => {
  it.each([
    ["attribute access", "Hi {payload.__class__}", "attribute_access"],
    ["index access", "Hi {payload[0]}", "index_access"],
    ["format spec", "Price {payload.price:.2f}", "format_spec"],
    ["conversion", "Hi {payload.city!r}", "conversion"],
    ["positional field", "Hi {}", "positional_field"],
    ["unbalanced brace", "Hi {payload.city", "unbalanced_brace"],
    ["unknown root", "Hi {row.city}", "unknown_root"],
  ])("prompt_template: %s is refused with 422", async (_what, template, reason) => {
    const platform = await openTemp();
    const e = await rejection(publishRows(platform, cities(3).rows, { prompt_template: template }));
    expect(e).toMatchObject({
      code: "invalid_template",
      details: { field: "prompt_template", reason },
    });
  });

  it("a placeholder missing from a row is a 422 naming the lowest row index and the field", async () => {
    const platform = await openTemp();
    const rows = [r("a", { city: "A", index: 0 }, 0), r("b", { index: 1 }, 1), r("c", { index: 2 }, 2)];
    const e = await rejection(publishRows(platform, rows));
    expect(e).toMatchObject({
      code: "missing_placeholder",
      details: { row_index: 1, field: "payload.city" },
    });
    expect((e.details.errors as unknown[]).length).toBe(2);
  });

  it("exact: a label with no letters or digits names the lowest row index", async () => {
    const platform = await openTemp();
    const e = await rejection(
      publishRows(platform, [
        r("ok", undefined, 0),
        r("ok2", undefined, 1),
        r("?!", undefined, 2),
        r("--", undefined, 3),
      ]),
    );
    expect(e).toMatchObject({ code: "invalid_label", details: { row_index: 2, field: "label" } });
  });

  it("exact: an empty value is refused at creation", async () => {
    const platform = await openTemp();
    const e = await rejection(publishRows(platform, [r("ok", undefined, 0), r("", undefined, 1)]));
    expect(e.details).toMatchObject({ row_index: 1, field: "label" });
  });

  it("numeric: an unparseable label names the row index", async () => {
    const platform = await openTemp();
    const rows = [
      r(12, undefined, 0),
      r("3.5", undefined, 1),
      r("12 USD", undefined, 2),
      r("1e3", undefined, 3),
    ];
    const e = await rejection(publishRows(platform, rows, { grader_type: "numeric" }));
    expect(e).toMatchObject({ code: "invalid_label", details: { row_index: 2, field: "label" } });
    expect((e.details.errors as { row_index: number }[]).map((x) => x.row_index)).toEqual([2, 3]);
  });

  it("numeric: a gold past the published bound on integer digits names the row and the field (probe28 A-F6)", async () => {
    const platform = await openTemp();
    const rows = [
      r("9".repeat(NUMERIC_GOLD_MAX_INT_DIGITS), undefined, 0),
      r("-" + "9".repeat(NUMERIC_GOLD_MAX_INT_DIGITS - 1) + ".5", undefined, 1),
      r("1" + "0".repeat(NUMERIC_GOLD_MAX_INT_DIGITS), undefined, 2),
    ];
    let e = await rejection(publishRows(platform, rows, { grader_type: "numeric" }, "n1"));
    expect(e).toMatchObject({ code: "invalid_gold", details: { row_index: 2, field: "label" } });
    expect(e.message).toContain("$.value");
    expect(e.message).toContain(`more than the ${NUMERIC_GOLD_MAX_INT_DIGITS}`);
    // value + tolerance is what the bound counts: 99...9 + 1 has one digit more
    e = await rejection(
      publishRows(platform, rows.slice(0, 1), { grader_type: "numeric", tolerance: 1 }, "n2"),
    );
    expect(e).toMatchObject({ code: "invalid_gold", details: { row_index: 0, field: "label" } });
    // a tolerance alone over the bound is the option's fault (the pack's decimal limit, 100 characters,
    // names it first)
    e = await rejection(
      publishRows(platform, [r(1)], { grader_type: "numeric", tolerance: "1" + "0".repeat(100) }, "n3"),
    );
    expect(e).toMatchObject({ code: "invalid_option", details: { field: "tolerance" } });
    expect(e.message).toMatch(/^tolerance is a decimal of 101 characters/);
    // fractional digits as written: a label or a tolerance past the bound (probe28 A-F6's rest)
    e = await rejection(
      publishRows(platform, [r(1), r("0." + "0".repeat(100) + "1")], { grader_type: "numeric" }, "n5"),
    );
    expect(e).toMatchObject({ code: "invalid_gold", details: { row_index: 1, field: "label" } });
    expect(e.message).toContain("101 fractional digits");
    e = await rejection(
      publishRows(platform, [r(1)], { grader_type: "numeric", tolerance: "0." + "0".repeat(101) }, "n6"),
    );
    expect(e).toMatchObject({ code: "invalid_option", details: { field: "tolerance" } });
    // at the bound: published
    await publishRows(platform, rows.slice(0, 2), { grader_type: "numeric", tolerance: "0.5" }, "n4");
    await publishRows(platform, [r("0." + "0".repeat(99) + "1")], { grader_type: "numeric" }, "n7");
  });

  it("contains_all: any other type, or no usable terms, names the row index", async () => {
    const platform = await openTemp();
    let e = await rejection(
      publishRows(
        platform,
        [r(["a", "b"], undefined, 0), r(7, undefined, 1)],
        { grader_type: "contains_all" },
        "d1",
      ),
    );
    expect(e.details).toMatchObject({ row_index: 1, field: "label" });
    e = await rejection(
      publishRows(
        platform,
        [r("a, b", undefined, 0), r(" , ,", undefined, 1)],
        { grader_type: "contains_all" },
        "d2",
      ),
    );
    expect(e.details).toMatchObject({ row_index: 1, field: "label" });
    e = await rejection(publishRows(platform, [r([], undefined, 0)], { grader_type: "contains_all" }, "d3"));
    expect(e.details).toMatchObject({ row_index: 0 });
  });

  it("shapes gold per grader from gold_field", async () => {
    const platform = await openTemp();
    await publishRows(
      platform,
      [r({ bps: 12 }, undefined, 0), r({ bps: "-3.50" }, undefined, 1)],
      { grader_type: "numeric", gold_field: "label.bps", tolerance: 0.5, slug: "num" },
      "n",
    );
    expect(
      (await platform.testSet("num"))
        .map((t) => t.gold)
        .sort((a, b) => canonicalJsonString(a).localeCompare(canonicalJsonString(b))),
    ).toEqual([
      { tolerance: "0.5", value: "-3.50" },
      { tolerance: "0.5", value: 12 },
    ]);
    await publishRows(
      platform,
      [r("alpha, beta ,gamma", undefined, 0)],
      { grader_type: "contains_all", slug: "terms" },
      "c",
    );
    expect((await platform.testSet("terms"))[0]!.gold).toEqual({ terms: ["alpha", "beta", "gamma"] });
  });

  it("slug rules: explicit slugs must match the pattern; a taken slug is 409 slug_conflict with a hint", async () => {
    const platform = await openTemp();
    for (const slug of ["A-bad", "-x", "x", "has space", "x".repeat(129)]) {
      const e = await rejection(
        publishRows(platform, cities(2).rows, { slug }, `n-${slug.length}-${slug[0]}`),
      );
      expect(e.code).toBe("invalid_slug");
    }
    // probe19 A-F5: `runs` names the service's run routes (/benchmarks/runs/...): its board was unreachable
    const reserved = await rejection(publishRows(platform, cities(2).rows, { slug: "runs" }, "reserved"));
    expect(reserved).toMatchObject({ code: "invalid_slug", details: { field: "slug", reserved: ["runs"] } });
    expect(reserved.message).toMatch(/slug "runs" is reserved/);
    await publishRows(platform, cities(2).rows, { slug: "my-bench" }, "one");
    const e = await rejection(publishRows(platform, cities(3).rows, { slug: "my-bench" }, "two"));
    expect(e).toMatchObject({ code: "slug_conflict", details: { slug: "my-bench" } });
    expect(e.details.hint).toBeTypeOf("string");
  });

  it("default slug: slugified dataset name + '-' + 8 hex of the label-free bank digest (never the content hash)", async () => {
    const platform = await openTemp();
    const ds = await platform.createDataset(cities(4, "Électricité & Gaz 2026!"));
    const res = await platform.publish(ds.dataset_id, base());
    const tasks = await platform.testSet(res.slug);
    // the prompt hashes in bank order, hashed as a canonical JSON list (computed here by hand)
    const digest = keccak256Hex(`[${tasks.map((t) => `"${promptHash(t.prompt)}"`).join(",")}]`);
    expect(res.slug).toBe(`electricite-gaz-2026-${digest.slice(2, 10)}`);
    expect(res.slug).not.toContain(ds.content_hash.slice(2, 10));
  });

  it("one benchmark per dataset: a second publish is 409 with details.existing_slug", async () => {
    const platform = await openTemp();
    const ds = await platform.createDataset(cities(4));
    const first = await platform.publish(ds.dataset_id, base());
    const e = await rejection(platform.publish(ds.dataset_id, base({ slug: "another" })));
    expect(e).toMatchObject({
      code: "benchmark_exists",
      details: { existing_slug: first.slug },
    });
  });

  it("refuses bad scoring settings through the evidence composite", async () => {
    const platform = await openTemp();
    const e = await rejection(
      publishRows(platform, cities(2).rows, {
        speed_weight: "0.8",
        cost_weight: "0.3",
        cost_budget_usdc: "1.000000",
      }),
    );
    expect(e.code).toBe("invalid_option");
    const f = await rejection(publishRows(platform, cities(2).rows, { public_fraction: 1.5 }));
    expect(f.details.field).toBe("public_fraction");
    // probe36 V-N1: a 60 KB string form was read whole and echoed in the refusal
    const long = "0." + "5".repeat(60_000);
    const g = await rejection(publishRows(platform, cities(2).rows, { public_fraction: long }));
    expect(g).toMatchObject({ code: "invalid_option", details: { field: "public_fraction" } });
    expect(g.message).toMatch(/at most 1002 characters, got one of 60002$/);
    expect(g.message.length).toBeLessThan(200);
  });

  it("a refused publication stores no benchmark and no task", async () => {
    const platform = await openTemp();
    await rejection(publishRows(platform, [r("ok", undefined, 0), r("!!", undefined, 1)]));
    const db = platform.ctx.store.db;
    expect(await db.selectFrom("benchmarks").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("tasks").selectAll().execute()).toEqual([]);
  });
});

describe("publishing: split and commitment", () => {
  it("round(n * public_fraction) is exact with ties to even", () => {
    expect(publicCount(5, "0.5")).toBe(2);
    expect(publicCount(7, "0.5")).toBe(4);
    expect(publicCount(10, "0.6")).toBe(6);
    expect(publicCount(3, "0.1")).toBe(0);
    expect(publicCount(4, "1")).toBe(4);
    expect(publicCount(4, "0")).toBe(0);
  });

  it("sorts rows by prompt_hash, makes the first round(n*f) public, and commits with the evidence library", async () => {
    const platform = await openTemp();
    const input = cities(9);
    const ds = await platform.createDataset(input);
    const res = await platform.publish(ds.dataset_id, base({ public_fraction: "0.6" }));
    expect(res).toMatchObject({ leaf_count: 9, public_count: 5, private_count: 4 });
    const tasks = await platform.testSet(res.slug);
    // prompt hashes computed here from the prompts the rows render to (SPEC 3: keccak of the UTF-8)
    const hashes = input.rows.map((_, i) => promptHash(`What is the answer for City${i} #${i}?`));
    const expectedOrder = hashes
      .map((h, i) => ({ h, i }))
      .sort((a, b) => (a.h < b.h ? -1 : 1))
      .map((x) => x.i);
    expect(tasks.map((t) => t.row_index)).toEqual(expectedOrder);
    expect(tasks.map((t) => t.visibility)).toEqual([
      "public",
      "public",
      "public",
      "public",
      "public",
      "private",
      "private",
      "private",
      "private",
    ]);
    for (const t of tasks) {
      expect(t.prompt).toBe(`What is the answer for City${t.row_index} #${t.row_index}?`);
      expect(t.gold).toEqual({ value: `answer-${t.row_index}` });
      expect(t.salt).toMatch(/^[0-9a-f]{64}$/);
      expect(t.prompt_hash).toBe(promptHash(t.prompt));
    }
    const c = commitTestSet(tasks.map(testSetRowOf));
    expect(c.root).toBe(res.commit_root);
    expect(c.leafCount).toBe(9);
  });

  it("identical content always yields an identical split and root (row order does not matter)", async () => {
    const a = await openTemp();
    const b = await openTemp();
    const input = cities(12);
    const shuffled = { ...input, rows: [...input.rows].reverse() };
    const ra = await a.publish((await a.createDataset(input)).dataset_id, base());
    const rb = await b.publish((await b.createDataset(shuffled)).dataset_id, base());
    expect(rb.commit_root).toBe(ra.commit_root);
    expect((await b.testSet(rb.slug)).map((t) => [t.prompt, t.visibility])).toEqual(
      (await a.testSet(ra.slug)).map((t) => [t.prompt, t.visibility]),
    );
  });

  it("salts are crypto-random without a seed", async () => {
    const a = await openTemp();
    const b = await openTemp();
    const ra = await a.publish((await a.createDataset(cities(3))).dataset_id, base({ seed: undefined }));
    const rb = await b.publish((await b.createDataset(cities(3))).dataset_id, base({ seed: undefined }));
    expect(ra.commit_root).not.toBe(rb.commit_root);
    expect(new Set((await a.testSet(ra.slug)).map((t) => t.salt)).size).toBe(3);
  });
});

describe("publishing: a write deadline (probe16 A-F5)", () => {
  it("a publish whose planning ends past `writeBy` is refused server_busy and writes nothing; before it, it publishes", async () => {
    const platform = await openTemp();
    const p = await platform.principal("late-author");
    const ds = await platform.real.createDataset(p, cities(4, "late"));
    // the planner waits (as in a busy dataset worker's queue) past the deadline, then plans
    const writeBy = Date.now();
    const late = await rejection(
      platform.real.publish(p, ds.dataset_id, base(), {
        answerBy: writeBy,
        planner: async (job) => {
          while (Date.now() <= writeBy) await new Promise((res) => setTimeout(res, 5));
          return planPublication(job);
        },
      }),
    );
    expect(late).toMatchObject({ code: "server_busy", details: { retry_after_seconds: 5 } });
    expect(late.message).toMatch(/nothing was published/);
    expect(await platform.listBenchmarks()).toHaveLength(0);
    expect(await platform.ctx.store.benchmarks.slugOfDataset(ds.dataset_id)).toBeNull();
    // in time: published
    const ok = await platform.real.publish(p, ds.dataset_id, base(), { answerBy: Date.now() + 600_000 });
    expect(ok.status).toBe("published");
    await platform.close();
  });
});

describe("publishing: the write deadline covers the lock waits (probe17 A-F2)", () => {
  /** `publish`'s refusal while `take` holds a lock (until `publish` settles, at most 3 s). */
  async function whileHeld(
    take: (held: Promise<unknown>) => Promise<unknown>,
    publish: () => Promise<unknown>,
  ): Promise<Error> {
    let free!: () => void;
    const gate = new Promise<void>((r) => (free = r));
    const holder = take(gate);
    await new Promise((r) => setTimeout(r, 50)); // the holder has its lock
    const release = setTimeout(free, 3000);
    const e = await rejection(publish()).finally(() => {
      clearTimeout(release);
      free();
    });
    await holder;
    return e;
  }

  it("the budget lock (`PUBLISH_BUDGET_LOCK`) held past `answerBy`: refused server_busy, nothing written", async () => {
    const platform = await openTemp({
      publishQuota: { count: 20, periodMs: 86_400_000, allAccountsCount: 100 },
    });
    const p = await platform.principal("lock-author");
    const ds = await platform.real.createDataset(p, cities(4, "lockwait"));
    const e = await whileHeld(
      (held) => platform.ctx.store.withLock(PUBLISH_BUDGET_LOCK, () => held),
      () => platform.real.publish(p, ds.dataset_id, base(), { answerBy: Date.now() + 300 }),
    );
    expect(e).toMatchObject({ code: "server_busy", details: { retry_after_seconds: 5 } });
    expect(await platform.ctx.store.benchmarks.slugOfDataset(ds.dataset_id)).toBeNull();
    await platform.close();
  });

  it("the account's publish lock held by another transaction past `answerBy`: refused server_busy, nothing written", async () => {
    const platform = await openTemp();
    const p = await platform.principal("lock-author2");
    const ds = await platform.real.createDataset(p, cities(4, "lockwait2"));
    const e = await whileHeld(
      (held) =>
        platform.ctx.store.tx(async (t) => {
          await t.benchmarks.lockAccountPublishes(p.account_id);
          await held;
        }),
      () => platform.real.publish(p, ds.dataset_id, base(), { answerBy: Date.now() + 300 }),
    );
    expect(e).toMatchObject({ code: "server_busy", details: { retry_after_seconds: 5 } });
    expect(await platform.ctx.store.benchmarks.slugOfDataset(ds.dataset_id)).toBeNull();
    // in time: published
    const ok = await platform.real.publish(p, ds.dataset_id, base(), { answerBy: Date.now() + 600_000 });
    expect(ok.status).toBe("published");
    await platform.close();
  });
});

describe("the test set's least bytes refused before rendering (probe17 A-F3)", () => {
  it("prompts within maxTestSetBytes whose rows' least overhead passes it are refused by the sizing, nothing rendered", () => {
    const n = 100_000;
    const config = benchmarkConfig(base({ prompt_template: "{payload.t}".repeat(26) }));
    const least = testSetMinBytes(n, "exact");
    // each prompt 26 copies of t: all of them together just under the limit, with the rows' least over it
    const perRow = Math.floor((PACK_LIMITS.maxTestSetBytes - least / 2) / n);
    const t = "t".repeat(Math.floor(perRow / 26));
    const rows = Array.from({ length: n }, (_, i) => ({
      decision_ts: "2026-01-01T00:00:00Z",
      payload: { t, i },
      label: "x",
    })) as unknown as DatasetRow[];
    const promptBytes = n * 26 * t.length;
    expect(promptBytes).toBeLessThanOrEqual(PACK_LIMITS.maxTestSetBytes);
    expect(promptBytes + least).toBeGreaterThan(PACK_LIMITS.maxTestSetBytes);
    const e = (() => {
      try {
        promptBytesOf(rows, config);
      } catch (x) {
        return x as PlatformError;
      }
      throw new Error("expected a refusal");
    })();
    expect(e).toMatchObject({
      code: "invalid_dataset",
      details: { code: "test_set_too_large", limit: "maxTestSetBytes", prompt_bytes: promptBytes },
    });
  });
});

describe("storing a dataset: a write deadline (probe16 A-F5 rest)", () => {
  it("an upload whose checking ends past `answerBy` is refused server_busy and stores nothing; before it, it stores", async () => {
    const platform = await openTemp();
    const p = await platform.principal("late-uploader");
    // the prepared dataset came back from the (stubbed) worker after the request's deadline
    const prepared = prepareDataset(cities(4, "late-upload"));
    const late = await rejection(platform.real.storeDataset(p, prepared, { answerBy: Date.now() - 1 }));
    expect(late).toMatchObject({ code: "server_busy", details: { retry_after_seconds: 5 } });
    expect(late.message).toMatch(/nothing was stored/);
    expect(await platform.real.myDatasets(p)).toMatchObject({ datasets: [] });
    // in time: stored
    const ok = await platform.real.storeDataset(p, prepared, { answerBy: Date.now() + 600_000 });
    expect((await platform.real.myDatasets(p)).datasets.map((d) => d.dataset_id)).toEqual([ok.dataset_id]);
    await platform.close();
  });
});

describe("an upload whose own rows outlast the request (probe29 A-F4)", () => {
  // a request's upload inserts its rows in slices of their own (probe29 A-F3), which wait on no other
  // writer: running out of time there is the upload's size, not a busy store
  it("its rows' insert past `answerBy` is 413 write_too_long naming the rows, not server_busy; nothing stored", async () => {
    const platform = await openTemp();
    const p = await platform.principal("long-uploader");
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      row_hash: `0x${i.toString(16).padStart(64, "0")}` as const,
      body_json: JSON.stringify({ q: `q${i}`, p: "x".repeat(400) }),
    }));
    const big = {
      name: "long-upload",
      description: null,
      label_policy: null,
      options_json: "{}",
      content_hash: `0x${"ab".repeat(32)}` as const,
      rows,
    };
    const answerBy = Date.now() + 2000;
    // the second slice of rows takes until past the deadline (a slow disk, a loaded server)
    const original = DatasetsTable.prototype.insertRowSlice;
    const slices = vi.spyOn(DatasetsTable.prototype, "insertRowSlice");
    let n = 0;
    slices.mockImplementation(async function (this: DatasetsTable, part) {
      if (++n === 2) await new Promise((r) => setTimeout(r, answerBy - Date.now() + 20));
      return original.call(this, part);
    });
    const e = await rejection(platform.real.storeDataset(p, big, { answerBy }));
    slices.mockRestore();
    expect(e).toMatchObject({ code: "write_too_long", details: { limit: "request_deadline", rows: 3000 } });
    expect(e.message).toMatch(
      /the dataset's rows \(3000 rows\) took longer to insert than one request allows/,
    );
    expect(e.message).toMatch(/nothing was written/);
    expect(await platform.real.myDatasets(p)).toMatchObject({ datasets: [] });
    expect(await platform.ctx.store.datasets.bytesOf(p.account_id)).toBe(0);
    const left = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM dataset_rows`.execute(
      platform.ctx.store.db,
    );
    expect(Number(left.rows[0]!.n)).toBe(0);
    await platform.close();
  });
});

describe("free text a list serves has a length bound (probe16 A-F11)", () => {
  it("a title over TEXT_LIMITS.title characters is a 422 naming `title`; one at the bound publishes", async () => {
    const platform = await openTemp();
    const over = await rejection(
      publishRows(platform, cities(3).rows, { title: "t".repeat(TEXT_LIMITS.title + 1) }),
    );
    expect(over).toMatchObject({
      code: "invalid_option",
      details: { field: "title", max: TEXT_LIMITS.title },
    });
    expect(await platform.listBenchmarks()).toHaveLength(0);
    // counted in characters (code points), not UTF-16 units: 200 emoji fit
    const ok = await publishRows(platform, cities(3).rows, { title: "🙂".repeat(TEXT_LIMITS.title) }, "e");
    expect(ok.status).toBe("published");
  });

  it.each(["name", "description", "label_policy"] as const)(
    "a dataset %s over its bound is a 422 naming the field, nothing stored",
    async (field) => {
      const platform = await openTemp();
      const input = { ...cities(3), [field]: "x".repeat(TEXT_LIMITS[field] + 1) };
      const e = await rejection(platform.createDataset(input as DatasetInput));
      expect(e.code).toBe("invalid_dataset");
      expect(e.message).toContain(field);
      expect(e.details.errors).toEqual([expect.objectContaining({ field, code: "text_too_long" })]);
      expect(await platform.real.myDatasets(platform.op)).toMatchObject({
        datasets: [],
      });
      // at the bound: stored
      await platform.createDataset({ ...cities(3), [field]: "x".repeat(TEXT_LIMITS[field]) } as DatasetInput);
    },
  );
});

describe("the test set's insert yields to the event loop (probe17 A-F6)", () => {
  it("a test set of several chunks is inserted with the event loop served between them, in one transaction", async () => {
    const platform = await openTemp();
    // 6 rows of ~400 KB prompts (a template repeating a field): over INSERT_CHUNK_CHARS, so several chunks
    const t = "t".repeat(10_000);
    const rows = Array.from({ length: 6 }, (_, i) => r("x", { t, index: i }, i));
    const ds = await platform.createDataset({ name: "big-prompts", rows } as DatasetInput);
    let ticks = 0;
    let running = true;
    const tick = (): void => {
      ticks++;
      if (running) setImmediate(tick);
    };
    const seen: number[] = [];
    const original = TasksTable.prototype.insertAll;
    const spy = vi.spyOn(TasksTable.prototype, "insertAll").mockImplementation(async function (
      this: TasksTable,
      ...args: Parameters<TasksTable["insertAll"]>
    ) {
      const before = ticks;
      setImmediate(tick);
      await original.apply(this, args);
      seen.push(ticks - before);
    });
    try {
      const res = await platform.publish(ds.dataset_id, base({ prompt_template: "{payload.t}".repeat(40) }));
      expect(res.status).toBe("published");
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBeGreaterThan(0); // other work ran during the insert
      expect(await platform.testSet(res.slug)).toHaveLength(6);
    } finally {
      running = false;
      spy.mockRestore();
      await platform.close();
    }
  });
});

// probe25 B-F3: a benchmark's title (served to everyone) and a dataset's description held ESC and U+202E
describe("text shown to others holds no character a terminal acts on", () => {
  it.each([
    ["ESC", "Cities\u001b[2J", "U+001B at position 6"],
    ["a right-to-left override", "Ci\u202eties", "U+202E at position 2"],
    ["a word joiner", "Cit\u2060ies", "U+2060 at position 3"],
  ])("a title with %s is refused naming title, nothing published", async (_, title, where) => {
    const platform = await openTemp();
    const e = await rejection(publishRows(platform, [r("a"), r("b", undefined, 1)], { title }));
    expect(e).toMatchObject({ code: "invalid_option", details: { field: "title", path: "$.title" } });
    expect(e.message).toBe(`title holds the control character ${where} (a title is one line of plain text)`);
    expect(await platform.listBenchmarks()).toEqual([]);
  });

  it("a dataset description keeps its lines and tabs, and is refused with ESC or U+202E, naming description", async () => {
    const platform = await openTemp();
    const rows = [r("a"), r("b", undefined, 1)];
    await platform.createDataset({ name: "ok", description: "two lines\n\tindented", rows } as DatasetInput);
    for (const [description, where] of [
      ["a\u001b[31mred", "U+001B at position 1"],
      ["line\n\u202eevil", "U+202E at position 5"],
    ]) {
      const e = await rejection(platform.createDataset({ name: "bad", description, rows } as DatasetInput));
      expect(e.details.errors).toEqual([
        expect.objectContaining({
          field: "description",
          code: "invalid_option",
          message: `description holds the control character ${where} (text shown to others takes no character a terminal acts on or that hides or reorders text)`,
        }),
      ]);
    }
  });
});

// probe28 B-F2: an empty seed is the one seed everybody knows: salts and plan public, private labels
// brute-forcible from the anchored root
describe("an empty or whitespace-only seed is refused naming seed (probe28 B-F2)", () => {
  it.each([
    ["empty", ""],
    ["spaces", "   "],
    ["a tab and a newline", "\t\n"],
  ])("%s: invalid_option naming seed, nothing published", async (_, seed) => {
    expect(() => benchmarkConfig(base({ seed }))).toThrow(/^seed is empty or only whitespace/);
    const platform = await openTemp();
    const e = await rejection(publishRows(platform, cities(3).rows, { seed }));
    expect(e).toMatchObject({ code: "invalid_option", details: { field: "seed" } });
    expect(e.message).toMatch(/^seed is empty or only whitespace/);
    expect(await platform.listBenchmarks()).toEqual([]);
  });

  it("a seed with text around spaces is kept as given", async () => {
    const platform = await openTemp();
    expect((await publishRows(platform, cities(3).rows, { seed: " s " })).status).toBe("published");
  });
});

// probe28 B-F3: a field of the dataset itself was reported as `row -1`
describe("a dataset-level field error names the field, no row (probe28 B-F3)", () => {
  it.each([
    ["name", { name: "" }, "dataset: field name: name is required (a non-empty string)"],
    ["description", { description: "a".repeat(TEXT_LIMITS.description + 1) }, "dataset: field description: "],
  ])("%s", async (field, over, start) => {
    const platform = await openTemp();
    const e = await rejection(platform.createDataset({ ...cities(3), ...over } as DatasetInput));
    expect(e.code).toBe("invalid_dataset");
    expect(e.message.startsWith(start), e.message).toBe(true);
    expect(e.message).not.toMatch(/row -1/);
    expect(e.details.field).toBe(field);
    expect(e.details).not.toHaveProperty("row_index");
  });

  it("a row's error still names its row", async () => {
    const platform = await openTemp();
    const rows = cities(3).rows as object[];
    const e = await rejection(
      platform.createDataset({
        name: "d",
        rows: [rows[0], { ...rows[1], decision_ts: "nope" }],
      } as DatasetInput),
    );
    expect(e.message).toMatch(/^dataset: row 1, field decision_ts: /);
    expect(e.details.row_index).toBe(1);
  });
});

// probe28 B-F4: `--alternatives-field nope` published a benchmark whose exact grader has no alternatives
describe("an alternatives_field no row has is refused, as a gold_field is (probe28 B-F4)", () => {
  it("refused naming row 0 and the field, every row listed, nothing published", async () => {
    const platform = await openTemp();
    const e = await rejection(publishRows(platform, cities(3).rows, { alternatives_field: "nope" }));
    expect(e.code).toBe("invalid_label");
    expect(e.message).toMatch(
      /^gold: row 0, field nope: alternatives field nope is missing from the row \(as from every row\b.*\(2 more issue\(s\) in details\.errors\)$/,
    );
    expect(e.details).toMatchObject({ row_index: 0, field: "nope" });
    expect(e.details.errors).toEqual(
      [0, 1, 2].map((i) => expect.objectContaining({ row_index: i, field: "nope", code: "missing" })),
    );
    expect(await platform.listBenchmarks()).toEqual([]);
  });

  it("a field some rows have (null or missing in the others) publishes", async () => {
    const platform = await openTemp();
    const alts = [["a", "b"], null, undefined];
    const rows = (cities(3).rows as { label: string }[]).map((row, i) => ({
      ...row,
      label: { v: row.label, ...(alts[i] !== undefined ? { alts: alts[i] } : {}) },
    }));
    const res = await publishRows(platform, rows, {
      gold_field: "label.v",
      alternatives_field: "label.alts",
    });
    expect(res.status).toBe("published");
    const golds = (await platform.testSet(res.slug)).map((t) => t.gold);
    expect(golds.filter((g) => "alternatives" in (g as object))).toEqual([
      expect.objectContaining({ alternatives: ["a", "b"] }),
    ]);
  });
});

// probe34 B-F1: a gold of U+1E030 (assigned in Unicode 15.0, NFKC "а" in Node 20, itself in Python 3.11's
// Unicode 14.0) was published and paid; the independent check regraded the award 0
describe("a gold string norm reads holding a code point beyond Unicode 14.0.0 is refused (probe34 B-F1)", () => {
  it("names the row, the field and the code point, for every grader with such strings; nothing published", async () => {
    const platform = await openTemp();
    const beyond = "\u{1e030}";
    const cases: [Partial<PublishOptions>, unknown[], number, string, string][] = [
      [{}, [r("a", undefined, 0), r(beyond, undefined, 1)], 1, "label", "$.value"],
      [
        { gold_field: "label.v", alternatives_field: "label.alts" },
        [r({ v: "a", alts: ["b", `c${beyond}`] }, undefined, 0)],
        0,
        "label.alts",
        "$.alternatives[1]",
      ],
      [{ grader_type: "contains_all" }, [r(["x", `y${beyond}`], undefined, 0)], 0, "label", "$.terms[1]"],
      [
        { grader_type: "json_fields" },
        [r({ k: 1 }), r({ k: beyond }, undefined, 1)],
        1,
        "label",
        "$.fields.k",
      ],
    ];
    for (const [i, [over, rows, row, field, path]] of cases.entries()) {
      const e = await rejection(publishRows(platform, rows, over, `u${i}`));
      expect(e).toMatchObject({ code: "invalid_gold", details: { row_index: row, field } });
      expect(e.message).toContain(
        `gold: row ${row}, field ${field}: gold refused by the grader rules: ${path}: `,
      );
      expect(e.message).toMatch(
        /holds U\+1E030 \(at UTF-16 offset \d+\), a code point not assigned in Unicode 14\.0\.0/,
      );
    }
    expect(await platform.listBenchmarks()).toEqual([]);
    // a code point of Unicode 14.0 (U+1FAF6, HEART HANDS) publishes
    const ok = await publishRows(platform, [r("a\u{1faf6}")], {}, "ok");
    expect(ok.status).toBe("published");
  });
});

// probe36 A-F9: NFKC sorts a run of combining marks in time quadratic in its length (UAX #15 Stream-Safe
// Text Format: at most 30 non-starters in a row)
describe("a gold string norm reads holding a run of more than 30 combining marks is refused (probe36 A-F9)", () => {
  it("names the row, the field, the path and the limit; nothing published; 30 in a row publishes", async () => {
    const platform = await openTemp();
    const run = (n: number) => `a${"\u0301\u0316".repeat(n / 2)}`;
    const e = await rejection(
      publishRows(
        platform,
        [r(["x", `y${run(40000)}`], undefined, 0)],
        { grader_type: "contains_all" },
        "m0",
      ),
    );
    expect(e).toMatchObject({ code: "invalid_gold", details: { row_index: 0, field: "label" } });
    expect(e.message).toContain("gold: row 0, field label: gold refused by the grader rules: $.terms[1]: ");
    expect(e.message).toMatch(
      /holds a run of more than 30 combining characters .* starting at UTF-16 offset 2/,
    );
    expect(await platform.listBenchmarks()).toEqual([]);
    const ok = await publishRows(platform, [r(run(30))], {}, "ok");
    expect(ok.status).toBe("published");
  });
});

// probe39 B-F2: norm's lower-casing makes "ΑʕΣ" αʕς in Python 3.11 (Unicode 14.0: U+0295 is cased) and
// αʕσ in Node 20 (Unicode 17.0: neither), so a gold holding such a sigma graded by the runtime's tables
describe("a gold string norm reads holding a capital sigma of unstable Final_Sigma context is refused (probe39 B-F2)", () => {
  it("names the row, the field, the path and the code point; nothing published; plain Greek publishes", async () => {
    const platform = await openTemp();
    const cases: [Partial<PublishOptions>, unknown[], string, string][] = [
      [{}, [r("\u0391\u0295\u03a3")], "$.value", "U+0295"],
      [{ grader_type: "contains_all" }, [r(["x", "\u0391\u{1171e}\u03a3"])], "$.terms[1]", "U+1171E"],
      [{ grader_type: "json_fields" }, [r({ k: "\u0391\u02e4\u03a3" })], "$.fields.k", "U+0295"],
    ];
    for (const [i, [over, rows, path, cp]] of cases.entries()) {
      const e = await rejection(publishRows(platform, rows, over, `s${i}`));
      expect(e).toMatchObject({ code: "invalid_gold", details: { row_index: 0, field: "label" } });
      expect(e.message).toContain(`gold: row 0, field label: gold refused by the grader rules: ${path}: `);
      expect(e.message).toMatch(
        new RegExp(
          `holds a capital sigma U\\+03A3 \\(at UTF-16 offset \\d+ of its NFKC form\\) whose Final_Sigma context meets ${cp.replace("+", "\\+")}`,
        ),
      );
    }
    expect(await platform.listBenchmarks()).toEqual([]);
    // plain Greek with sigmas, and the prober's golds as written (no capital sigma), publish
    const ok = await publishRows(
      platform,
      [r("ΟΔΥΣΣΕΥΣ", undefined, 0), r("σοφός", undefined, 1), r("\u03b1\u0295\u03c2", undefined, 2)],
      {},
      "ok",
    );
    expect(ok.status).toBe("published");
  });
});

// probe28 A-F2: a 100,000-row upload's insert held SQLite `serve`'s event loop 2.1-2.6 s: the chunks'
// awaits on better-sqlite3 resolve without a macrotask turn. Asserted by order, never by time.
describe("a dataset upload's row insert yields to the event loop between chunks (probe28 A-F2)", () => {
  it("a turn of a setImmediate ticker lies between any two row inserts; every row is stored", async () => {
    const platform = await openTemp();
    const log: string[] = [];
    const original = Kysely.prototype.insertInto;
    const spy = vi.spyOn(Kysely.prototype, "insertInto").mockImplementation(function (
      this: Kysely<unknown>,
      table: string,
    ) {
      if (table === "dataset_rows") log.push("insert");
      return original.call(this, table as never);
    });
    let on = true;
    const tick = (): void => {
      if (!on) return;
      if (log.at(-1) !== "turn") log.push("turn"); // consecutive turns logged once
      setImmediate(tick);
    };
    try {
      const input = cities(3 * INSERT_CHUNK + 1, "many");
      setImmediate(tick);
      const ds = await platform.createDataset(input);
      on = false;
      const inserts = log.filter((e) => e === "insert").length;
      expect(inserts).toBe(4);
      const seq = log.join(",");
      expect(seq.slice(seq.indexOf("insert"))).not.toContain("insert,insert");
      expect(await platform.real.ctx.store.datasets.rows(ds.dataset_id)).toHaveLength(3 * INSERT_CHUNK + 1);
    } finally {
      on = false;
      spy.mockRestore();
    }
  });
});
