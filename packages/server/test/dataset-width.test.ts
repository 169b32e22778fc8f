/**
 * probe30 B-F5: a 10.7 MB dataset body of 25 rows of 40,000 payload members held the server's one
 * dataset worker for 33 s (every walk over a row costs more per member the wider its objects are), so
 * every other account's dataset request waited and got 503. An object of a row has at most the
 * platform's `MAX_ROW_OBJECT_MEMBERS` members; the dataset body's parser stops at the first object over
 * it (413 naming its JSON path and the limit), before building the rest.
 */
import { MAX_ROW_OBJECT_MEMBERS } from "@bench-bounty/platform";
import { beforeAll, describe, expect, it } from "vitest";
import { call, register, useLive } from "./helpers.js";

const live = useLive();
let key = "";

beforeAll(async () => {
  key = (await register(live.url, "rowwidth")).key;
});

/** A dataset body of `rows` rows whose payload has `members` members. */
const body = (members: number, rows = 1): string => {
  const payload = Array.from({ length: members }, (_, i) => `"c${i}":1`).join(",");
  const row = (r: number) =>
    `{"decision_ts":"2026-05-01T00:${String(r).padStart(2, "0")}:00Z","payload":{${payload}},"label":"a"}`;
  return `{"name":"w${Math.random()}","rows":[${Array.from({ length: rows }, (_, r) => row(r)).join(",")}]}`;
};

describe("a row's object is bounded in members (probe30 B-F5)", () => {
  it.each([
    ["/api/v1/datasets/validate", MAX_ROW_OBJECT_MEMBERS + 1, 1],
    ["/api/v1/datasets", MAX_ROW_OBJECT_MEMBERS + 1, 1],
    // the probe's body: 25 rows of 40,000 members, refused at the first row's payload
    ["/api/v1/datasets/validate", 40_000, 25],
  ])(
    "%s: a payload of %i members (%i rows) is 413 naming $.rows[0].payload and the limit",
    async (path, members, rows) => {
      const r = await call(live.url, "POST", path, { key, raw: body(members, rows) });
      expect(r.status).toBe(413);
      expect(r.json.error).toMatchObject({
        code: "body_too_large",
        details: {
          path: "$.rows[0].payload",
          reason: "too_many_members",
          limit: "maxMembers",
          max: MAX_ROW_OBJECT_MEMBERS,
        },
      });
      expect(r.json.error.message).toContain(`more than ${MAX_ROW_OBJECT_MEMBERS} members`);
    },
  );

  it("a payload of exactly the limit is taken", async () => {
    const r = await call(live.url, "POST", "/api/v1/datasets/validate", {
      key,
      raw: body(MAX_ROW_OBJECT_MEMBERS, 2),
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ok: true, row_count: 2 });
  });
});
