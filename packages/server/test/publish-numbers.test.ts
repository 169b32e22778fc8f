/**
 * probe21 A-F2: a publish option sent as a JSON number the reader does not keep as sent (more than 15
 * significant digits, a non-zero that reads as 0, digits a double drops) was stored rounded without a
 * word. REST hands the platform the number's text as sent (the strict parser's lexeme), so the one rule
 * (platform `gold.ts`) refuses it: 422 `invalid_option` naming the field, "send it as a decimal string".
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, register, useLive } from "./helpers.js";

const live = useLive();
let key = "";

beforeAll(async () => {
  key = (await register(live.url, "numbers")).key;
});

/** Stores a four-row numeric dataset and publishes it with the raw JSON `extra` members appended. */
async function publishRaw(extra: string) {
  const rows = Array.from({ length: 4 }, (_, i) => ({
    decision_ts: `2026-01-0${i + 1}T00:00:00Z`,
    payload: { a: i },
    label: String(i * 1.5),
  }));
  const ds = await call(live.url, "POST", "/api/v1/datasets", {
    key,
    body: { name: `n${Math.random()}`, rows },
  });
  expect(ds.status).toBe(201);
  const raw = `{"title":"tol","prompt_template":"{payload.a}","grader_type":"numeric",${extra}}`;
  return call(live.url, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, { key, raw });
}

describe("a JSON number not kept as sent is refused, naming the option (probe21 A-F2)", () => {
  it.each([
    "123456789.123456789",
    "1.0000000000000001",
    "1e-400",
    "0.1000000000000000055511151231257827",
    "0.30000000000000004",
  ])("tolerance %s: 422 invalid_option, send it as a decimal string", async (n) => {
    const r = await publishRaw(`"tolerance":${n}`);
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({ code: "invalid_option", details: { field: "tolerance" } });
    expect(r.json.error.message).toMatch(/send it as a decimal string/);
  });

  it.each(["5e-324", "2.5e-320"])("tolerance %s: refused naming the value as sent", async (n) => {
    const r = await publishRaw(`"tolerance":${n}`);
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({ code: "invalid_option", details: { field: "tolerance" } });
    expect(r.json.error.message).toContain(`tolerance ${n} is a decimal of`);
  });

  // probe22: an integer beyond 2^53-1 was quoted as the double it reads as (9007199254740993 as ...992)
  it.each([
    ["tolerance", "9007199254740993"],
    ["public_fraction", "9007199254740993"],
  ])("%s %s (an integer beyond 2^53-1): refused quoting its digits as sent", async (field, n) => {
    const extra = field === "tolerance" ? `"tolerance":${n}` : `"tolerance":0.5,"${field}":${n}`;
    const r = await publishRaw(extra);
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({ code: "invalid_option", details: { field } });
    expect(r.json.error.message).toContain(`${field} ${n} is a number above 2^53-1`);
  });

  it.each(["1e-400", "0.1000000000000000055511151231257827"])(
    "public_fraction %s: 422 invalid_option naming public_fraction",
    async (n) => {
      const r = await publishRaw(`"tolerance":0.5,"public_fraction":${n}`);
      expect(r.status).toBe(422);
      expect(r.json.error).toMatchObject({ code: "invalid_option", details: { field: "public_fraction" } });
      expect(r.json.error.message).toMatch(/send it as a decimal string/);
    },
  );

  it.each(["max_attempts", "time_budget_seconds", "public_tasks_per_run"])(
    "%s 3.0000000000000001 (reads as 3): 422 naming it (an integer field of a body, probe24)",
    async (field) => {
      const r = await publishRaw(`"tolerance":0.5,"${field}":3.0000000000000001`);
      expect(r.status).toBe(422);
      expect(r.json.error).toMatchObject({ code: "invalid_request", details: { path: `$.${field}` } });
      expect(r.json.error.message).toContain(`$.${field} 3.0000000000000001 is not a whole number`);
    },
  );

  it.each<[string, number | string]>([
    ["1.50", "1.5"],
    ["1E2", 100],
    ["1e-7", "0.0000001"],
    ["123456789.123456", "123456789.123456"],
  ])("tolerance %s is published as %s", async (n, stored) => {
    const r = await publishRaw(`"tolerance":${n}`);
    expect(r.status).toBe(201);
    expect(r.json.config.tolerance).toBe(stored);
  });
});
