/**
 * probe28 B-F2: a publish body's `seed: ""` (or whitespace only) was taken as a seed: the one seed
 * everybody knows, so the salts and the plan were public and the private labels brute-forcible from the
 * anchored root. The platform's one rule (`publish/options.ts`) refuses it: 422 `invalid_option` naming
 * `seed`, nothing published.
 *
 * probe29 A-F8: a seed makes the salts derivable, so anyone holding it could check a guess of a seeded
 * benchmark's rows (private labels included) against its public root, and the one-benchmark-per-root
 * refusal confirmed a right guess by name. Over REST the seed is the operator's only: 403 `forbidden`
 * (`operator_only`) naming `seed`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, OPERATOR_KEY, register, useLive } from "./helpers.js";

const live = useLive();
let key = "";

beforeAll(async () => {
  key = (await register(live.url, "seeds")).key;
});

describe("an empty or whitespace-only seed is refused naming seed (probe28 B-F2)", () => {
  it.each([
    ["empty", ""],
    ["whitespace only", " \t\n"],
  ])("%s: 422 invalid_option, field seed, nothing published", async (_, seed) => {
    const rows = Array.from({ length: 4 }, (_, i) => ({
      decision_ts: `2026-01-0${i + 1}T00:00:00Z`,
      payload: { a: i },
      label: `l${i}`,
    }));
    const ds = await call(live.url, "POST", "/api/v1/datasets", {
      key,
      body: { name: `s${Math.random()}`, rows },
    });
    expect(ds.status).toBe(201);
    const r = await call(live.url, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key,
      body: { title: "t", prompt_template: "{payload.a}", grader_type: "exact", seed },
    });
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({ code: "invalid_option", details: { field: "seed" } });
    expect(r.json.error.message).toMatch(/^seed is empty or only whitespace/);
    const mine = await call(live.url, "GET", "/api/v1/datasets/mine", { key });
    expect(mine.status).toBe(200);
    expect(mine.json.datasets).toContainEqual(
      expect.objectContaining({ dataset_id: ds.json.dataset_id, benchmark: null }),
    );
  });
});

describe("a seed is the operator's only (probe29 A-F8)", () => {
  const rows = Array.from({ length: 4 }, (_, i) => ({
    decision_ts: `2026-01-0${i + 1}T00:00:00Z`,
    payload: { a: i },
    label: `l${i}`,
  }));
  const publish = { title: "t", prompt_template: "{payload.a}", grader_type: "exact", seed: "s1" };

  it("another account's seed: 403 operator_only naming seed, nothing published", async () => {
    const ds = await call(live.url, "POST", "/api/v1/datasets", { key, body: { name: "guess", rows } });
    expect(ds.status).toBe(201);
    const r = await call(live.url, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key,
      body: publish,
    });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({
      code: "forbidden",
      details: { rule: "operator_only", field: "seed" },
    });
    const mine = await call(live.url, "GET", "/api/v1/datasets/mine", { key });
    expect(mine.json.datasets).toContainEqual(
      expect.objectContaining({ dataset_id: ds.json.dataset_id, benchmark: null }),
    );
  });

  it("the operator's seed publishes", async () => {
    const ds = await call(live.url, "POST", "/api/v1/datasets", {
      key: OPERATOR_KEY,
      body: { name: "operator-seeded", rows: rows.map((r) => ({ ...r, label: `op-${r.label}` })) },
    });
    expect(ds.status).toBe(201);
    const r = await call(live.url, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: OPERATOR_KEY,
      body: publish,
    });
    expect(r.status).toBe(201);
  });
});
