/**
 * probe30 A-F3: a dataset row's JSON number whose text is not the double it reads as was taken without
 * a word: a numeric gold written `1e-400` was committed and graded as 0 (the answer "0" scored 1), one
 * written `0.1000000000000000055511151231257827` as 0.1, and a payload `1e-400` was shown as `0.0`. The
 * rows are now held to the rule of the publish options (platform `gold.ts`): the upload and the dry run
 * refuse such a number naming its JSON path, "send it as a decimal string"; a number kept as written in
 * another notation (`1E+2`, `2.50`) and a big integer (exact) are taken as before.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, register, useLive } from "./helpers.js";

const live = useLive();
let key = "";

beforeAll(async () => {
  key = (await register(live.url, "rownumbers")).key;
});

/** A dataset body's raw JSON text with the given raw rows (so each number's text is what is sent). */
const body = (rows: string) => `{"name":"n${Math.random()}","rows":[${rows}]}`;

describe("a row's number not kept as written is refused, naming its path (probe30 A-F3)", () => {
  it.each([
    ["label", '"label":1e-400,"payload":{"q":"g1"}', "$.rows[0].label 1e-400", "0"],
    [
      "label",
      '"label":0.1000000000000000055511151231257827,"payload":{"q":"g1"}',
      "$.rows[0].label 0.1000000000000000055511151231257827",
      "0.1",
    ],
    ["payload.b", '"label":"a","payload":{"b":1e-400}', "$.rows[0].payload.b 1e-400", "0"],
  ])(
    "%s (%s): the upload is 422 invalid_dataset, the dry run not ok",
    async (field, members, named, read) => {
      const rows = `{"decision_ts":"2026-05-01",${members}}`;
      const up = await call(live.url, "POST", "/api/v1/datasets", { key, raw: body(rows) });
      expect(up.status).toBe(422);
      expect(up.json.error).toMatchObject({ code: "invalid_dataset", details: { row_index: 0, field } });
      expect(up.json.error.message).toContain(
        `${named} is not the number a JSON reader keeps (it reads as ${read}): send it as a decimal string`,
      );
      const dry = await call(live.url, "POST", "/api/v1/datasets/validate", { key, raw: body(rows) });
      expect(dry.status).toBe(200);
      expect(dry.json).toMatchObject({ ok: false, content_hash: null });
      expect(dry.json.errors).toEqual([
        { row_index: 0, field, code: "inexact_number", message: expect.stringContaining(named) },
      ]);
    },
  );

  it("numbers kept as written (another notation, a big integer) are stored and shown as before", async () => {
    const rows =
      '{"decision_ts":"2026-05-01","label":"a","payload":{"a":123456789012345678901234567890,"c":-0,"d":2.50,"e":1E+2}},' +
      '{"decision_ts":"2026-05-02","label":"b","payload":{"a":9007199254740993,"c":5e-324,"d":1.5e300,"e":100}}';
    const up = await call(live.url, "POST", "/api/v1/datasets", { key, raw: body(rows) });
    expect(up.status).toBe(201);
    const pub = await call(live.url, "POST", `/api/v1/datasets/${up.json.dataset_id}/benchmark`, {
      key,
      body: {
        title: "N",
        prompt_template: "a={payload.a} c={payload.c} d={payload.d} e={payload.e}",
        grader_type: "exact",
        public_fraction: 1,
      },
    });
    expect(pub.status).toBe(201);
    const run = await call(live.url, "POST", `/api/v1/benchmarks/${pub.json.slug}/runs`, { key, body: {} });
    expect(run.status).toBe(201);
    expect((run.json.tasks as { prompt: string }[]).map((t) => t.prompt).sort()).toEqual([
      "a=123456789012345678901234567890 c=0 d=2.5 e=100.0",
      "a=9007199254740993 c=5e-324 d=1.5e+300 e=100",
    ]);
  });
});
