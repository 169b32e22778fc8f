/**
 * probeD3 F6: a prompt template repeats a row's field, so a small dataset can render a huge test set
 * (a 14 KB template over a 0.9 MB dataset rendered 1.2 G characters, blocked `serve` 40 s and took
 * 1.4 GB before the test-set limit refused it). Publish now sizes every prompt from the template and
 * the row before rendering any, so a prompt over the verifier's string limit or a test set over
 * `maxTestSetBytes` is refused at the cost of the sizes; the refusal of the whole test set names no
 * row (it was `row_index: -1`). The stored test set counts against the author's dataset quota (F6b).
 */
import { PACK_LIMITS } from "@bench-bounty/evidence";
import { afterEach, describe, expect, it } from "vitest";
import type { DatasetInput } from "../src/dataset.js";
import { cleanup, openTemp, rejection } from "./helpers.js";

afterEach(cleanup);

/** `n` rows whose `payload.a` is `chars` characters (distinct per row). */
function wide(n: number, chars: number, name = "wide"): DatasetInput {
  return {
    name,
    rows: Array.from({ length: n }, (_, i) => ({
      decision_ts: `2026-01-01T00:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`,
      payload: { a: String(i).padStart(6, "0") + "x".repeat(chars - 6) },
      label: `l${i}`,
    })),
  };
}

const repeat = (times: number): string => "{payload.a}".repeat(times);

describe("publish sizes the prompts before rendering them (probeD3 F6)", () => {
  it("a prompt that would render past the string limit (here past V8's longest string) is refused naming the row", async () => {
    const platform = await openTemp();
    const ds = await platform.createDataset(wide(2, 1_000_000));
    // 600 copies of a 1 M-character field: 600 M characters, more than a JS string can hold
    const e = await rejection(
      platform.publish(ds.dataset_id, { title: "t", prompt_template: repeat(600), grader_type: "exact" }),
    );
    expect(e).toMatchObject({ code: "invalid_dataset", details: { row_index: 0, field: "prompt" } });
    expect((e.details.errors as { code: string }[])[0]!.code).toBe("string_too_long");
    expect(e.message).toMatch(/^test set: row 0, field prompt: a string of 600000000 UTF-16 code units/);
  });

  it("a test set whose prompts alone pass maxTestSetBytes is refused without a row index", async () => {
    const platform = await openTemp();
    // 70 prompts of 4,000,000 characters (each under the 4 Mi string limit): 280 MB of prompts
    const ds = await platform.createDataset(wide(70, 4000));
    const e = await rejection(
      platform.publish(ds.dataset_id, { title: "t", prompt_template: repeat(1000), grader_type: "exact" }),
    );
    expect(e.code).toBe("invalid_dataset");
    expect(e.details).toMatchObject({
      field: "test set",
      code: "test_set_too_large",
      limit: "maxTestSetBytes",
      max: PACK_LIMITS.maxTestSetBytes,
      prompt_bytes: 70 * 4_000_000,
    });
    expect(e.details).not.toHaveProperty("row_index");
    expect(e.message).not.toMatch(/row -1/);
    expect(e.message).toMatch(/^test set: its prompts take 280000000 bytes/);
  });
});

describe("the stored test set counts against the author's dataset quota (probeD3 F6b)", () => {
  it("a publish whose test set would pass the quota is refused; a published one's bytes are listed", async () => {
    const h = await openTemp({ datasetBytesPerAccount: 2_000_000 });
    try {
      const p = h.real;
      const ann = await p.authenticate((await p.createAccount({ name: "ann" })).api_key);
      const opts = { title: "t", prompt_template: repeat(300), grader_type: "exact" } as const;
      // 4 rows of ~1 KB render 4 prompts of 300,000 characters: a test set of ~1.2 MB
      const first = await p.createDataset(ann, wide(4, 1000, "first"));
      const { slug } = await p.publish(ann, first.dataset_id, opts);
      const mine = await p.myDatasets(ann);
      const listed = mine.datasets.find((d) => d.dataset_id === first.dataset_id)!;
      expect(listed.benchmark).toBe(slug);
      expect(listed.stored_bytes).toBeGreaterThan(4 * 300_000);
      expect(mine.used_bytes).toBe(listed.stored_bytes);
      // the second dataset is small enough to store, its test set is not
      const second = await p.createDataset(ann, wide(4, 1000, "second"));
      const e = await rejection(p.publish(ann, second.dataset_id, opts));
      expect(e).toMatchObject({
        code: "dataset_quota_exceeded",
        details: { limit: "dataset_bytes_per_account", limit_bytes: 2_000_000 },
      });
      expect(e.details.test_set_bytes).toBeGreaterThanOrEqual(4 * 300_000); // refused from the prompts alone
      expect(e.message).toMatch(/test set/);
      // nothing was stored: the dataset is still unpublished and the bytes unchanged
      const after = await p.myDatasets(ann);
      expect(after.used_bytes).toBe(
        mine.used_bytes + after.datasets.find((d) => d.dataset_id === second.dataset_id)!.stored_bytes,
      );
      expect(after.datasets.find((d) => d.dataset_id === second.dataset_id)!.benchmark).toBeNull();
    } finally {
      await h.close();
    }
  });

  it("the exact test set is checked with the insert: prompts within the quota, their canonical bytes past it", async () => {
    const h = await openTemp({ datasetBytesPerAccount: 100_000_000 });
    try {
      const p = h.real;
      const ann = await p.authenticate((await p.createAccount({ name: "ann" })).api_key);
      const ds = await p.createDataset(ann, wide(4, 1000, "tight"));
      const rows = (await p.myDatasets(ann)).used_bytes;
      // room for the prompts' 1,200,000 bytes, not for the salts and fields around them in the pack
      h.ctx.datasetBytesPerAccount = rows + 4 * 300_000 + 10;
      const e = await rejection(
        p.publish(ann, ds.dataset_id, { title: "t", prompt_template: repeat(300), grader_type: "exact" }),
      );
      expect(e).toMatchObject({ code: "dataset_quota_exceeded", details: { used_bytes: rows } });
      expect(e.details.test_set_bytes).toBeGreaterThan(4 * 300_000 + 10);
      expect((await p.myDatasets(ann)).datasets[0]).toMatchObject({ benchmark: null, stored_bytes: rows });
    } finally {
      await h.close();
    }
  });

  it("counts against the bound on all accounts together too", async () => {
    const h = await openTemp({ datasetBytesAllAccounts: 2_000_000 });
    try {
      const p = h.real;
      const ann = await p.authenticate((await p.createAccount({ name: "ann" })).api_key);
      const bob = await p.authenticate((await p.createAccount({ name: "bob" })).api_key);
      const opts = { title: "t", prompt_template: repeat(300), grader_type: "exact" } as const;
      await p.publish(ann, (await p.createDataset(ann, wide(4, 1000, "a"))).dataset_id, opts);
      const ds = await p.createDataset(bob, wide(4, 1000, "b"));
      const e = await rejection(p.publish(bob, ds.dataset_id, opts));
      expect(e).toMatchObject({
        code: "dataset_quota_exceeded",
        details: { limit: "dataset_bytes_all_accounts", limit_bytes: 2_000_000 },
      });
    } finally {
      await h.close();
    }
  });
});
