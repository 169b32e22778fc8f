/**
 * Issue 13 item 8: whatever the platform publishes, the verifier reads. A dataset whose pack would
 * break a verifier limit (evidence's `PACK_LIMITS`: strings of 4 Mi UTF-16 units, nesting of
 * 10,000 levels, integers) is refused at upload, and a test set whose rendered prompts would break
 * one is refused at publish, each with a PlatformError naming the row and the field, so no prize
 * is locked behind a pack no verifier can read.
 */
import { JsonFloat, MAX_JSON_DEPTH, PACK_LIMITS } from "@bench-bounty/evidence";
import { afterEach, describe, expect, it } from "vitest";
import type { DatasetInput } from "../src/dataset.js";
import { validateDataset } from "../src/dataset.js";
import { PlatformError } from "../src/errors.js";
import { cleanup, openTemp, refusal, rejection } from "./helpers.js";

afterEach(cleanup);

const row = (over: Record<string, unknown> = {}, i = 0) => ({
  decision_ts: `2026-01-0${(i % 9) + 1}T00:00:00Z`,
  payload: { city: "X", n: i },
  label: `label ${i}`,
  ...over,
});

/** `{a: {a: ... "x"}}` with `n` objects. */
function nested(n: number): unknown {
  let v: unknown = "x";
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
}

describe("a dataset beyond the pack limits is refused at upload, naming the row and the field", () => {
  const long = "y".repeat(PACK_LIMITS.maxStringLength + 1);

  it.each<[string, Record<string, unknown>, string, string]>([
    ["an over-long payload string", { payload: { city: long } }, "payload.city", "string_too_long"],
    ["an over-long label", { label: long }, "label", "string_too_long"],
    ["an over-long key", { payload: { [long]: 1 } }, "payload", "key_too_long"],
    ["too-deep nesting", { label: nested(MAX_JSON_DEPTH) }, "label", "nesting_too_deep"],
    ["an unsafe integer", { label: { n: 2 ** 60 } }, "label.n", "unsafe_integer"],
    [
      "an integer of 79 digits",
      { payload: { city: "X", big: 10n ** 78n } },
      "payload.big",
      "integer_too_large",
    ],
  ])("%s", (_what, over, field, code) => {
    const e = refusal(() => validateDataset({ name: "d", rows: [row({}, 0), row(over, 1)] }));
    expect(e).toBeInstanceOf(PlatformError);
    expect(e.code).toBe("invalid_dataset");
    expect(e.details).toMatchObject({ row_index: 1 });
    expect(String(e.details.field).startsWith(field)).toBe(true);
    expect(e.message).toMatch(/^dataset: row 1, field /);
    expect((e.details.errors as { code: string }[])[0]!.code).toBe(code);
    // one issue per problem: the unsafe integer is not reported a second time at "$"
    expect((e.details.errors as unknown[]).length).toBe(1);
  });

  it("a 2^53-1 integer, a 78-digit integer and a string of exactly the limit are accepted", () => {
    const ok = "z".repeat(PACK_LIMITS.maxStringLength);
    const v = validateDataset({
      name: "d",
      rows: [row({ label: { n: 2 ** 53 - 1, b: 10n ** 77n } }, 0), row({ payload: { city: ok } }, 1)],
    });
    expect(v.rows).toHaveLength(2);
  });
});

describe("a test set beyond the pack limits is refused at publish", () => {
  it("a prompt rendered over the string limit names the dataset row and the field", async () => {
    const platform = await openTemp();
    // within the limit in the row, over it once the template wraps it
    const city = "c".repeat(PACK_LIMITS.maxStringLength - 5);
    const rows = [row({}, 0), row({ payload: { city, n: 1 } }, 1), row({}, 2)];
    const ds = await platform.createDataset({ name: "d", rows } as DatasetInput);
    const e = await rejection(
      platform.publish(ds.dataset_id, {
        title: "t",
        prompt_template: "Where is {payload.city} #{payload.n}?",
        grader_type: "exact",
        seed: "s",
      }),
    );
    expect(e).toMatchObject({ code: "invalid_dataset", details: { row_index: 1, field: "prompt" } });
    expect((e as Error).message).toMatch(/^test set: row 1, field prompt: a string of \d+ UTF-16 code units/);
  });
});

describe("publish options a pack carries are refused beyond PACK_LIMITS (issue 13 re-probe F6)", () => {
  const over = `0.${"1".repeat(PACK_LIMITS.maxDecimalLength - 1)}`; // maxDecimalLength + 1 characters
  const at = `0.${"1".repeat(PACK_LIMITS.maxDecimalLength - 2)}`; // exactly the limit

  /** The refusal of publishing a two-row numeric-labelled dataset with the publish options `opts`. */
  async function publishRefusal(opts: Record<string, unknown>) {
    const platform = await openTemp();
    const rows = [row({ label: "1.5" }, 0), row({ label: "2.5" }, 1)];
    const ds = await platform.createDataset({ name: "d", rows } as DatasetInput);
    return rejection(
      platform.publish(ds.dataset_id, {
        title: "t",
        prompt_template: "Q {payload.city} #{payload.n}",
        grader_type: "exact",
        ...opts,
      } as never),
    );
  }

  it.each<[string, Record<string, unknown>]>([
    ["speed_weight", { speed_weight: over }],
    ["cost_weight", { cost_weight: over }],
    ["cost_budget_usdc", { cost_weight: "0.1", cost_budget_usdc: `1${over}` }],
    ["tolerance", { grader_type: "numeric", tolerance: over }],
  ])("%s of more than maxDecimalLength characters names the field", async (field, opts) => {
    const e = await publishRefusal(opts);
    expect(e).toMatchObject({
      code: "invalid_option",
      details: { field, limit: "maxDecimalLength", max: PACK_LIMITS.maxDecimalLength },
    });
    expect(e.message).toMatch(new RegExp(`^${field} is a decimal of \\d+ characters;`));
  });

  // probe19 A-F6: refused once per row as a dataset error at gold.tolerance, "the integer 1e+308"
  it.each([1e308, 1e16, 2 ** 53])(
    "a tolerance given as a JSON number above 2^53-1 (%s) is one invalid_option naming tolerance",
    async (tolerance) => {
      const e = await publishRefusal({ grader_type: "numeric", tolerance });
      expect(e).toMatchObject({ code: "invalid_option", details: { field: "tolerance" } });
      expect(e.message).toMatch(/above 2\^53-1 .*send it as a plain decimal string/);
    },
  );

  // probe21 A-F2: a JSON number the reader does not keep as sent was stored rounded, without a word
  it.each<[string, number | JsonFloat]>([
    ["123456789.123456789 (as a double: more than 15 significant digits)", Number("123456789.123456789")],
    ["0.30000000000000004 (as a double)", 0.30000000000000004],
    ["123456789.123456789", new JsonFloat("123456789.123456789")],
    ["1.0000000000000001 (reads as 1)", new JsonFloat("1.0000000000000001")],
    ["1e-400 (reads as 0)", new JsonFloat("1e-400")],
    [
      "0.1000000000000000055511151231257827 (reads as 0.1)",
      new JsonFloat("0.1000000000000000055511151231257827"),
    ],
  ])(
    "a tolerance sent as the JSON number %s is one invalid_option naming tolerance",
    async (_what, tolerance) => {
      const e = await publishRefusal({ grader_type: "numeric", tolerance });
      expect(e).toMatchObject({ code: "invalid_option", details: { field: "tolerance" } });
      expect(e.message).toMatch(/^tolerance .*send it as a decimal string/);
    },
  );

  it.each<[string, number | JsonFloat]>([
    ["0.1000000000000000055511151231257827", new JsonFloat("0.1000000000000000055511151231257827")],
    ["1e-400", new JsonFloat("1e-400")],
    ["0.30000000000000004", 0.30000000000000004],
  ])(
    "a public_fraction sent as the JSON number %s is refused the same way",
    async (_what, public_fraction) => {
      const e = await publishRefusal({ public_fraction });
      expect(e).toMatchObject({ code: "invalid_option", details: { field: "public_fraction" } });
      expect(e.message).toMatch(/^public_fraction .*send it as a decimal string/);
    },
  );

  it.each(["max_attempts", "time_budget_seconds", "public_tasks_per_run"])(
    "an integer option %s sent as 3.0000000000000001 (reads as 3) is refused; 3.0 is 3",
    async (field) => {
      const e = await publishRefusal({ [field]: new JsonFloat("3.0000000000000001") });
      expect(e).toMatchObject({ code: "invalid_option", details: { field } });
      expect(e.message).toMatch(new RegExp(`^${field} .*send it as a decimal string`));
      const platform = await openTemp();
      const rows = [row({ label: "1.5" }, 0), row({ label: "2.5" }, 1), row({ label: "3.5" }, 2), row({}, 3)];
      const ds = await platform.createDataset({ name: "d", rows } as DatasetInput);
      const base = {
        title: "t",
        prompt_template: "Q {payload.city} #{payload.n}",
        grader_type: "exact",
        public_fraction: "0.75", // 3 public tasks: public_tasks_per_run 3 is within them
      } as const;
      const r = await platform.publish(ds.dataset_id, { ...base, [field]: new JsonFloat("3.0") } as never);
      expect((r.config as unknown as Record<string, unknown>)[field]).toBe(3);
    },
  );

  it.each(["5e-324", "2.5e-320"])(
    "a tolerance %s kept by a double but too long written out is refused naming the value as sent",
    async (lexeme) => {
      const e = await publishRefusal({ grader_type: "numeric", tolerance: new JsonFloat(lexeme) });
      expect(e).toMatchObject({
        code: "invalid_option",
        details: { field: "tolerance", limit: "maxDecimalLength" },
      });
      expect(e.message).toContain(`tolerance ${lexeme} is a decimal of`);
    },
  );

  it("JSON numbers kept as sent are published as their plain decimal", async () => {
    const platform = await openTemp();
    const rows = [row({ label: "1.5" }, 0), row({ label: "2.5" }, 1)];
    const base = {
      title: "t",
      prompt_template: "Q {payload.city} #{payload.n}",
      grader_type: "numeric",
    } as const;
    const sent: [number | JsonFloat, number | string][] = [
      [new JsonFloat("1.50"), "1.5"],
      [new JsonFloat("1E2"), 100],
      [1e-7, "0.0000001"],
      [new JsonFloat("123456789.123456"), "123456789.123456"],
    ];
    for (const [i, [tolerance, stored]] of sent.entries()) {
      const ds = await platform.createDataset({ name: `d${i}`, rows } as DatasetInput);
      const r = await platform.publish(ds.dataset_id, { ...base, tolerance } as never);
      expect(r.config.tolerance).toBe(stored);
    }
  });

  it("a title over maxStringLength is refused; a speed_weight of exactly maxDecimalLength is published", async () => {
    const platform = await openTemp();
    const ds = await platform.createDataset({ name: "d", rows: [row({}, 0), row({}, 1)] } as DatasetInput);
    const base = { prompt_template: "Q {payload.city} #{payload.n}", grader_type: "exact" } as const;
    const e = await rejection(
      platform.publish(ds.dataset_id, { ...base, title: "t".repeat(PACK_LIMITS.maxStringLength + 1) }),
    );
    expect(e).toMatchObject({ code: "invalid_option", details: { field: "title" } });
    expect(at.length).toBe(PACK_LIMITS.maxDecimalLength);
    const ok = await platform.publish(ds.dataset_id, { ...base, title: "t", speed_weight: at });
    expect(ok.slug).toBeTruthy();
  });
});
