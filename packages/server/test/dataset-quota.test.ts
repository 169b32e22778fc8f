/**
 * probe10 R5: stored datasets had no bound per account. `POST /api/v1/datasets` past the account's
 * stored bytes (the platform's `datasetBytesPerAccount`) is 413 `dataset_quota_exceeded` naming the
 * limit, the bytes used and the limit; nothing of it is stored; another account is not affected.
 * The owner lists its datasets (`GET /datasets/mine`) and frees space by deleting one never published
 * (`DELETE /datasets/{id}`); nobody else can, and a published one stays (409 `dataset_published`).
 */
import { datasetBytes, prepareDataset } from "@bench-bounty/platform";
import { describe, expect, it } from "vitest";
import { call, CITIES_PUBLISH, register, useLive } from "./helpers.js";

const body = (name: string, rows = 10) => ({
  name,
  rows: Array.from({ length: rows }, (_, i) => ({
    decision_ts: "2026-01-01T00:00:00Z",
    payload: { city: `c${i}` },
    label: `l${i}`,
  })),
});
const ONE = datasetBytes(prepareDataset(body("d-1")));
const live = useLive({ platform: { datasetBytesPerAccount: 2 * ONE } });

describe("stored dataset bytes per account", () => {
  it("413 dataset_quota_exceeded past the quota, naming it; nothing stored; another account unaffected", async () => {
    const a = await register(live.url, "quota-a");
    const b = await register(live.url, "quota-b");
    const up = (key: string, name: string) =>
      call(live.url, "POST", "/api/v1/datasets", { key, raw: JSON.stringify(body(name)) });
    expect((await up(a.key, "d-1")).status).toBe(201);
    expect((await up(a.key, "d-2")).status).toBe(201);
    const refused = await up(a.key, "d-3");
    expect(refused.status).toBe(413);
    expect(refused.json.error).toMatchObject({
      code: "dataset_quota_exceeded",
      details: {
        limit: "dataset_bytes_per_account",
        limit_bytes: 2 * ONE,
        used_bytes: 2 * ONE,
        dataset_bytes: ONE,
      },
    });
    expect(refused.json.error.message).toContain(`${2 * ONE} bytes`);
    const stored = await live.platform.ctx.store.db
      .selectFrom("datasets")
      .select("name")
      .where("name", "=", "d-3")
      .execute();
    expect(stored).toEqual([]);
    expect((await up(b.key, "d-3")).status).toBe(201);
  });
});

describe("the owner lists and deletes its datasets never published", () => {
  const up = (key: string, name: string) =>
    call(live.url, "POST", "/api/v1/datasets", { key, raw: JSON.stringify(body(name)) });

  it("a deletion frees the bytes: the upload refused before is stored after", async () => {
    const a = await register(live.url, "lib-a");
    const d1 = (await up(a.key, "d-1")).json.dataset_id as string;
    const d2 = (await up(a.key, "d-2")).json.dataset_id as string;
    expect((await up(a.key, "d-3")).status).toBe(413);
    const mine = await call(live.url, "GET", "/api/v1/datasets/mine", { key: a.key });
    expect(mine.status).toBe(200);
    expect(mine.json).toMatchObject({ used_bytes: 2 * ONE, limit_bytes: 2 * ONE });
    expect(mine.json.datasets.map((d: { dataset_id: string }) => d.dataset_id).sort()).toEqual(
      [d1, d2].sort(),
    );
    expect(mine.json.datasets[0]).toMatchObject({ stored_bytes: ONE, benchmark: null, row_count: 10 });
    const del = await call(live.url, "DELETE", `/api/v1/datasets/${d1}`, { key: a.key });
    expect(del.status, del.text).toBe(200);
    expect(del.json).toEqual({ dataset_id: d1, freed_bytes: ONE });
    expect((await up(a.key, "d-3")).status).toBe(201);
    // gone: a second deletion and a publish of it are 404
    expect((await call(live.url, "DELETE", `/api/v1/datasets/${d1}`, { key: a.key })).json.error.code).toBe(
      "unknown_dataset",
    );
    const pub = await call(live.url, "POST", `/api/v1/datasets/${d1}/benchmark`, {
      key: a.key,
      body: CITIES_PUBLISH,
    });
    expect(pub.status).toBe(404);
  });

  it("another account gets 403 dataset_owner_only and sees none of it; anonymous 401; nothing deleted", async () => {
    const a = await register(live.url, "lib-owner");
    const m = await register(live.url, "lib-mallory");
    const d = (await up(a.key, "d-1")).json.dataset_id as string;
    const theirs = await call(live.url, "DELETE", `/api/v1/datasets/${d}`, { key: m.key });
    expect(theirs.status).toBe(403);
    expect(theirs.json.error).toMatchObject({ code: "forbidden", details: { rule: "dataset_owner_only" } });
    const anon = await call(live.url, "DELETE", `/api/v1/datasets/${d}`);
    expect(anon.status).toBe(401);
    expect((await call(live.url, "GET", "/api/v1/datasets/mine")).status).toBe(401);
    expect((await call(live.url, "GET", "/api/v1/datasets/mine", { key: m.key })).json).toMatchObject({
      datasets: [],
      used_bytes: 0,
    });
    const mine = await call(live.url, "GET", "/api/v1/datasets/mine", { key: a.key });
    expect(mine.json.datasets.map((x: { dataset_id: string }) => x.dataset_id)).toEqual([d]);
  });

  it("a published dataset stays: 409 dataset_published naming its benchmark", async () => {
    const a = await register(live.url, "lib-author");
    // 2 rows: their test set (salts and gold around each prompt) fits the quota with them (probeD3 F6b)
    const small = await call(live.url, "POST", "/api/v1/datasets", {
      key: a.key,
      raw: JSON.stringify(body("d-1", 2)),
    });
    const d = small.json.dataset_id as string;
    const pub = await call(live.url, "POST", `/api/v1/datasets/${d}/benchmark`, {
      key: a.key,
      body: { ...CITIES_PUBLISH, prompt_template: "City {payload.city}" },
    });
    expect(pub.status, pub.text).toBe(201);
    const del = await call(live.url, "DELETE", `/api/v1/datasets/${d}`, { key: a.key });
    expect(del.status).toBe(409);
    expect(del.json.error).toMatchObject({
      code: "dataset_published",
      details: { dataset_id: d, slug: pub.json.slug },
    });
    const mine = await call(live.url, "GET", "/api/v1/datasets/mine", { key: a.key });
    expect(mine.json.datasets).toMatchObject([{ dataset_id: d, benchmark: pub.json.slug }]);
    // its stored bytes count the published test set with the rows
    expect(mine.json.datasets[0].stored_bytes).toBeGreaterThan(datasetBytes(prepareDataset(body("d-1", 2))));
  });

  it("a publish whose test set would pass the quota is 413 dataset_quota_exceeded naming test_set_bytes (probeD3 F6b)", async () => {
    const a = await register(live.url, "lib-big-test-set");
    const d = (await up(a.key, "d-1")).json.dataset_id as string;
    const pub = await call(live.url, "POST", `/api/v1/datasets/${d}/benchmark`, {
      key: a.key,
      body: { ...CITIES_PUBLISH, prompt_template: "City {payload.city} {payload.city} {payload.city}" },
    });
    expect(pub.status).toBe(413);
    expect(pub.json.error).toMatchObject({
      code: "dataset_quota_exceeded",
      details: { limit: "dataset_bytes_per_account", limit_bytes: 2 * ONE, used_bytes: ONE },
    });
    expect(pub.json.error.details.test_set_bytes).toBeGreaterThan(ONE);
  });
});
