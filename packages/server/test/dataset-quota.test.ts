/**
 * probe10 R5: stored datasets had no bound per account. `POST /api/v1/datasets` past the account's
 * stored bytes (the platform's `datasetBytesPerAccount`) is 413 `dataset_quota_exceeded` naming the
 * limit, the bytes used and the limit; nothing of it is stored; another account is not affected.
 */
import { datasetBytes, prepareDataset } from "@bench-bounty/platform";
import { describe, expect, it } from "vitest";
import { call, register, useLive } from "./helpers.js";

const body = (name: string) => ({
  name,
  rows: Array.from({ length: 10 }, (_, i) => ({
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
