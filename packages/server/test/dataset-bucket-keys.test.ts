/**
 * probe30 A-F4: a `bucket_fields` key is a payload field's name like any other, but the edge's zod
 * `z.record` rebuilt the object: a key `__proto__` was dropped without a word (the dataset's content hash
 * was the one without bucketing) and a key `constructor` was refused "expected record, received object".
 * The edge now passes the object on as sent and the platform applies every entry (as the CLI's
 * `--bucket __proto__=day` does) or refuses it naming `bucket_fields.<field>`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, register, useLive } from "./helpers.js";

const live = useLive();
let key = "";

beforeAll(async () => {
  key = (await register(live.url, "bucketkeys")).key;
});

/** Two rows whose payload has the field `name` (and `t`), both ISO instants: `times` (or 23:59:17Z). */
function rows(name: string, times = ["2026-08-31T23:59:17Z", "2026-09-01T23:59:17Z"]): string {
  return times
    .map(
      (t, i) =>
        `{"decision_ts":"2026-09-0${i + 1}T00:00:00Z","label":"${"ab"[i]}","payload":{${JSON.stringify(name)}:"${t}","t":"${t}"}}`,
    )
    .join(",");
}

/** {@link rows} with the field `name` floored to the hour by hand (the `t` field left as sent). */
const byHand = (name: string) =>
  rows(name).replace(
    new RegExp(`"${name}":"2026-0(8-31|9-01)T23:59:17Z"`, "g"),
    `"${name}":"2026-0$1T23:00:00Z"`,
  );

/** POST /datasets/validate of a raw body (its keys as sent: `__proto__` an own member). */
const validate = (raw: string) => call(live.url, "POST", "/api/v1/datasets/validate", { key, raw });

describe("a bucket_fields key named __proto__ or constructor is a payload field like any other (probe30 A-F4)", () => {
  it.each(["__proto__", "constructor"])(
    "bucket_fields {%s: hour} buckets that field: the content hash is that of the rows bucketed by hand",
    async (name) => {
      const bucketed = await validate(
        `{"name":"pb","bucket_fields":{${JSON.stringify(name)}:"hour"},"rows":[${rows(name)}]}`,
      );
      expect(bucketed.status).toBe(200);
      expect(bucketed.json).toMatchObject({ ok: true });
      const hand = await validate(`{"name":"pb","rows":[${byHand(name)}]}`);
      expect(hand.json).toMatchObject({ ok: true });
      const unbucketed = await validate(`{"name":"pb","rows":[${rows(name)}]}`);
      expect(bucketed.json.content_hash).toBe(hand.json.content_hash);
      expect(bucketed.json.content_hash).not.toBe(unbucketed.json.content_hash);
      // beside another field: both applied (the __proto__ entry was ignored)
      const both = await validate(
        `{"name":"pb","bucket_fields":{${JSON.stringify(name)}:"hour","t":"hour"},"rows":[${rows(name)}]}`,
      );
      const tOnly = await validate(`{"name":"pb","bucket_fields":{"t":"hour"},"rows":[${rows(name)}]}`);
      expect(both.json).toMatchObject({ ok: true });
      expect(both.json.content_hash).not.toBe(tOnly.json.content_hash);
    },
  );

  it("the upload (sanitize on) buckets a __proto__ field: its content hash is that of the rows bucketed by hand", async () => {
    const body = `{"name":"pb","sanitize":true,"bucket_fields":{"__proto__":"hour"},"rows":[${rows("__proto__")}]}`;
    const hand = await validate(`{"name":"pb","rows":[${byHand("__proto__")}]}`);
    const up = await call(live.url, "POST", "/api/v1/datasets", { key, raw: body });
    expect(up.status).toBe(201);
    expect(up.json.content_hash).toBe(hand.json.content_hash);
  });

  it.each([
    ['{"__proto__":"fortnight"}', "bucket_fields.__proto__", /unit must be one of minute, hour, day, month/],
    ['{"constructor":"hour"}', "payload.constructor", /bucket field constructor is missing from the payload/],
    ['{"__proto__":"hour"}', "payload.__proto__", /bucket field __proto__ is missing from the payload/],
  ])("bucket_fields %s is refused naming %s", async (bf, field, message) => {
    const r = await validate(`{"name":"pb","bucket_fields":${bf},"rows":[${rows("x")}]}`);
    expect(r.status).toBe(200);
    expect(r.json.ok).toBe(false);
    expect(r.json.errors[0]).toMatchObject({ field });
    expect(r.json.errors[0].message).toMatch(message);
  });

  it.each(['"hour"', "[]", "1.5", "null"])(
    "bucket_fields %s (not an object) is 422 naming $.bucket_fields",
    async (bf) => {
      const r = await validate(`{"name":"pb","bucket_fields":${bf},"rows":[${rows("x")}]}`);
      expect(r.status).toBe(422);
      expect(r.json.error).toMatchObject({ code: "invalid_request", details: { path: "$.bucket_fields" } });
    },
  );
});

describe("the OpenAPI document (probe30 A-F4: bucket_fields is no longer a zod record)", () => {
  it("still describes bucket_fields as an object of units", async () => {
    const doc = (await call(live.url, "GET", "/api/v1/openapi.json")).json;
    expect(doc.components.schemas.DatasetBody.properties.bucket_fields).toMatchObject({
      type: "object",
      additionalProperties: { type: "string", enum: ["minute", "hour", "day", "month"] },
    });
  });
});
