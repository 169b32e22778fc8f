import { canonicalJsonString, keccak256Hex, parseJson } from "@bench-bounty/evidence";
import { afterEach, describe, expect, it } from "vitest";
import { csvToDataset, loadCsvDataset, seattleWeatherCsvPath } from "../src/csv.js";
import {
  MAX_COLLECTED_ISSUES,
  MAX_FIELD_RULES,
  MAX_REPORT_ERRORS,
  MAX_ROW_DEPTH,
  MAX_ROW_OBJECT_MEMBERS,
  MAX_DATASET_ROWS,
  checkDataset,
  validateDataset,
} from "../src/dataset.js";
import { readDataset } from "../src/cli/dataset-commands.js";
import { readDatasetFile } from "../src/dataset-file.js";
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PlatformError } from "../src/errors.js";
import { parseInstant } from "../src/time.js";
import {
  DEFAULT_DATASET_BYTES_ALL_ACCOUNTS,
  DEFAULT_DATASET_BYTES_PER_ACCOUNT,
  datasetBytes,
  prepareDataset,
} from "../src/publish.js";
import { sql } from "kysely";
import {
  cities,
  CITIES_PUBLISH,
  cleanup,
  freshPostgresTarget,
  openAt,
  openTemp,
  refusal,
  rejection,
  tempDir,
  TEST_ENGINE,
  type Harness,
  undoMigration0011,
} from "./helpers.js";

afterEach(cleanup);

const row = (over: Record<string, unknown> = {}) => ({
  decision_ts: "2026-09-01T00:00:00Z",
  payload: { symbol: "ETH", price: 3000.5, bar_ts: "2026-08-31T23:59:41Z" },
  label: { tip5m_bps: 12 },
  knowable_at: { price: "2026-08-31T23:59:00Z" },
  ...over,
});

describe("dataset validation", () => {
  it("accepts the seed's example row and hashes content canonically", () => {
    const v = validateDataset({ name: "eth-tip5m-2026-09", rows: [row()] });
    expect(v.rows).toHaveLength(1);
    // content hash = keccak256(canonical_json(rows)); the float 3000.5 keeps its rendering
    expect(canonicalJsonString(v.rows)).toContain('"price":3000.5');
    expect(v.row_hashes[0]).toBe(keccak256Hex(canonicalJsonString(v.rows[0])));
    expect(v.content_hash).toBe(keccak256Hex(`["${v.row_hashes[0]}"]`));
  });

  it("the content hash does not depend on row order", () => {
    const rows = [row(), row({ label: 2 }), row({ label: 3 })];
    const a = validateDataset({ name: "d", rows });
    const b = validateDataset({ name: "d", rows: [rows[2], rows[0], rows[1]] });
    expect(b.content_hash).toBe(a.content_hash);
    expect(validateDataset({ name: "d", rows: rows.slice(0, 2) }).content_hash).not.toBe(a.content_hash);
  });

  it("names the LOWEST offending row index and its field, listing every issue", () => {
    const e = refusal(() =>
      validateDataset({
        name: "d",
        rows: [
          row(),
          row({ label: 2 }),
          row({ payload: "nope" }),
          row({ decision_ts: "yesterday" }),
          row({ label: null }),
        ],
      }),
    );
    expect(e.code).toBe("invalid_dataset");
    expect(e.details.row_index).toBe(2);
    expect(e.details.field).toBe("payload");
    expect(e.message).toMatch(/row 2, field payload/);
    const errors = e.details.errors as { row_index: number; field: string; code: string }[];
    expect(errors.map((x) => [x.row_index, x.field, x.code])).toEqual([
      [2, "payload", "not_object"],
      [3, "decision_ts", "not_iso_timestamp"],
      [4, "label", "missing"],
    ]);
  });

  it("refuses a payload field that is not knowable at decision_ts", () => {
    const e = refusal(() =>
      validateDataset({
        name: "d",
        rows: [row(), row({ knowable_at: { price: "2026-09-01T00:05:00Z" } })],
        time_bound_fields: ["price"],
      }),
    );
    expect(e.details).toMatchObject({ row_index: 1, field: "payload.price" });
    expect((e.details.errors as { code: string }[])[0]!.code).toBe("not_knowable");
  });

  it("requires a knowable_at entry for every time-bound field", () => {
    const e = refusal(() =>
      validateDataset({ name: "d", rows: [row({ knowable_at: undefined })], time_bound_fields: ["price"] }),
    );
    expect(e.details).toMatchObject({ row_index: 0, field: "knowable_at.price" });
  });

  it("refuses knowable_at entries naming fields the payload lacks, and unknown row fields", () => {
    const e = refusal(() =>
      validateDataset({
        name: "d",
        rows: [row({ knowable_at: { volume: "2026-08-31T00:00:00Z" }, extra: 1 })],
      }),
    );
    const codes = (e.details.errors as { field: string; code: string }[]).map((x) => `${x.field}:${x.code}`);
    expect(codes).toEqual(["extra:unknown_field", "knowable_at.volume:unknown_payload_field"]);
  });

  it("buckets timestamp payload fields and sanitizes strings", () => {
    const v = validateDataset({
      name: "d",
      sanitize: true,
      bucket_fields: { bar_ts: "hour" },
      rows: [
        row({
          payload: { symbol: "  E\u0007TH\u000b ", bar_ts: "2026-08-31T23:59:41+02:00" },
          knowable_at: undefined,
        }),
      ],
    });
    expect(v.rows[0]!.payload).toEqual({ symbol: "ETH", bar_ts: "2026-08-31T21:00:00Z" });
  });

  it("sanitize refuses a string with a run of more than 30 combining characters before NFC sorts it (probe36 A-F9's class)", () => {
    const marks = "a" + "\u0301\u0316".repeat(20_000); // NFC of it is quadratic: seconds, then minutes
    const e = refusal(() =>
      validateDataset({
        name: "d",
        sanitize: true,
        rows: [row(), row({ payload: { ...row().payload, notes: ["ok", marks] } })],
      }),
    );
    expect(e.details).toMatchObject({ row_index: 1, field: "payload.notes[1]" });
    expect((e.details.errors as { code: string }[])[0]!.code).toBe("combining_run_too_long");
    expect(e.message).toContain("starting at UTF-16 offset 1");
    // marks parted by control characters, which sanitize removes, are one run (probe36 V-F11)
    const parted = "a" + "\u0301\u0007".repeat(40);
    const e2 = refusal(() =>
      validateDataset({
        name: "d",
        sanitize: true,
        rows: [row({ payload: { ...row().payload, symbol: parted } })],
      }),
    );
    expect(e2.details).toMatchObject({ row_index: 0, field: "payload.symbol" });
    // 30 in a row is the Stream-Safe limit: taken and normalised
    const v = validateDataset({
      name: "d",
      sanitize: true,
      rows: [row({ payload: { ...row().payload, symbol: "E" + "\u0301".repeat(30) } })],
    });
    expect(v.rows[0]!.payload.symbol).toBe(("E" + "\u0301".repeat(30)).normalize("NFC"));
  });

  it("refuses a bad bucket unit and a non-timestamp bucket field", () => {
    expect(
      refusal(() =>
        validateDataset({ name: "d", rows: [row()], bucket_fields: { bar_ts: "fortnight" as never } }),
      ).details.field,
    ).toBe("bucket_fields.bar_ts");
    const e = refusal(() => validateDataset({ name: "d", rows: [row()], bucket_fields: { symbol: "day" } }));
    expect(e.details).toMatchObject({ row_index: 0, field: "payload.symbol" });
  });

  it("refuses duplicate rows, naming the later one", () => {
    const e = refusal(() => validateDataset({ name: "d", rows: [row(), row({ label: 1 }), row()] }));
    expect(e.details).toMatchObject({ row_index: 2, field: "$" });
  });

  it("a bucketed payload time whose offset moves it out of years 100..9999 is refused, never rewritten (probe25 B-F1)", () => {
    for (const t of ["0100-01-01T00:30:00+01:00", "9999-12-31T23:59:59-23:59"]) {
      const r = checkDataset({
        name: "d",
        bucket_fields: { t: "day" },
        rows: [row({ payload: { t }, knowable_at: undefined })],
      });
      expect(r.ok, t).toBe(false);
      expect(JSON.stringify(r.errors), t).not.toMatch(/1999|\+010000/);
    }
    // the first instant of year 100 is still taken
    expect(parseInstant("0100-01-01T01:00:00+01:00")).toBe(new Date("0100-01-01T00:00:00Z").getTime());
  });

  it("accepts date-only decision_ts but refuses zone-less times and impossible dates", () => {
    expect(
      validateDataset({ name: "d", rows: [row({ decision_ts: "2012-01-01", knowable_at: undefined })] }).rows,
    ).toHaveLength(1);
    for (const [ts, ms] of [
      ["2028-02-29T00:00:00Z", 1_835_395_200_000],
      ["2026-01-01T01:30:00+01:30", 1_767_225_600_000],
      ["2025-12-31T22:30:00-01:30", 1_767_225_600_000],
    ] as const)
      expect(parseInstant(ts)).toBe(ms);
    // the calendar rule is @bench-bounty/evidence's isExistingDateTime (probe24 B-F2): no 24:00, :60,
    // offset of 24 hours, February 29 of a common year; a year before 100 (Date.UTC reads it as 19xx)
    for (const ts of [
      "2026-09-01T00:00:00",
      "2026-02-30",
      "2026-13-01T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "2026-01-01T23:60:00Z",
      "2026-01-01T23:59:60Z",
      "2026-01-01T00:00:00+24:00",
      "2100-02-29",
      "0050-01-01",
      // probe25 B-F1: the year rule holds for the instant after its offset (year 99, year 10000)
      "0100-01-01T00:30:00+01:00",
      "9999-12-31T23:59:59-23:59",
    ]) {
      expect(
        refusal(() =>
          validateDataset({ name: "d", rows: [row({ decision_ts: ts, knowable_at: undefined })] }),
        ).details.field,
      ).toBe("decision_ts");
    }
  });

  // probe30 B-F7: 7 fraction digits were taken though the rule is [.fff], and a knowable_at 0.9 ms after
  // decision_ts passed --time-bound as at it: a 4th fraction digit was dropped without a word
  it("an instant with more than 3 fraction digits is refused, never rounded to the millisecond", () => {
    expect(parseInstant("2020-01-01T00:00:00.123Z")).toBe(Date.UTC(2020, 0, 1, 0, 0, 0, 123));
    expect(parseInstant("2020-01-01T00:00:00.5Z")).toBe(Date.UTC(2020, 0, 1, 0, 0, 0, 500));
    for (const ts of [
      "2020-01-01T00:00:00.0000001Z",
      "2020-01-01T00:00:00.0009Z",
      "2020-01-01T00:00:00.1230Z",
    ])
      expect(parseInstant(ts), ts).toBeNull();
    const e = refusal(() =>
      validateDataset({
        name: "d",
        rows: [row({ decision_ts: "2020-01-01T00:00:00.0000001Z", knowable_at: undefined })],
      }),
    );
    expect(e.details.field).toBe("decision_ts");
    expect(e.message).toContain("at most 3 fraction digits (milliseconds)");
    const late = checkDataset({
      name: "d",
      time_bound_fields: ["price"],
      rows: [
        row({ decision_ts: "2020-01-01T00:00:00Z", knowable_at: { price: "2020-01-01T00:00:00.0009Z" } }),
      ],
    });
    expect(late.ok).toBe(false);
    expect(late.errors[0]).toMatchObject({ field: "knowable_at.price", code: "not_iso_timestamp" });
  });

  it("the dry run reports and persists nothing", async () => {
    const platform = await openTemp();
    const bad = await platform.validateDataset({
      name: "d",
      rows: [row(), row({ payload: {}, knowable_at: undefined })],
    });
    expect(bad).toMatchObject({ ok: false, row_count: 2, content_hash: null });
    expect(bad.errors[0]).toMatchObject({ row_index: 1, field: "payload", code: "empty" });
    const good = await platform.validateDataset({ name: "d", rows: [row()] });
    expect(good.ok).toBe(true);
    const db = platform.ctx.store.db;
    expect(await db.selectFrom("datasets").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("dataset_rows").selectAll().execute()).toEqual([]);
    await platform.close();
  });

  it("checkDataset reports option-level problems with row_index -1", () => {
    const r = checkDataset({ name: "", rows: [] });
    expect(r.errors.map((e) => [e.row_index, e.field])).toEqual([
      [-1, "name"],
      [-1, "rows"],
    ]);
  });

  it("checkDataset's report is bounded whatever the rows x missing fields (probe18 F8)", () => {
    // 300 rows x 100 time-bound fields no row has: 30,000 problems before the bound
    const names = Array.from({ length: MAX_FIELD_RULES }, (_, i) => `f${i}`);
    const r = checkDataset({
      name: "many",
      time_bound_fields: names,
      rows: Array.from({ length: 300 }, (_, i) => row({ label: `l${i}` })),
    });
    expect(r.ok).toBe(false);
    expect(r.errors).toHaveLength(MAX_REPORT_ERRORS);
    expect(r.truncated).toBe(true);
    expect(r.errors_total).toBeGreaterThanOrEqual(MAX_COLLECTED_ISSUES);
    expect(r.errors_total).toBeLessThan(MAX_COLLECTED_ISSUES + 2 * MAX_FIELD_RULES + 10);
    expect(r.errors[0]).toMatchObject({ row_index: 0 });
    // more field rules than the bound: one option-level problem naming it
    const over = checkDataset({ name: "over", time_bound_fields: [...names, "extra"], rows: [row()] });
    expect(over.errors.map((e) => [e.row_index, e.field])).toContainEqual([-1, "time_bound_fields"]);
    expect(over.errors_total).toBe(over.errors.length);
    expect(over.truncated).toBeUndefined();
  });

  it("checkDataset names where and why a text is refused (U+0000 in a row, a key, the name)", () => {
    const inRow = checkDataset({ name: "d", rows: [row(), row({ label: "a\u0000b" })] });
    expect(inRow.ok).toBe(false);
    expect(inRow.errors).toEqual([
      { row_index: 1, field: "label", code: "nul_character", message: expect.stringMatching(/U\+0000/) },
    ]);
    const inKey = checkDataset({ name: "d", rows: [row({ payload: { "k\u0000": 1 } })] });
    expect(inKey.errors.map((e) => [e.row_index, e.field, e.code])).toEqual([
      [0, 'payload["k\\u0000"]', "nul_character"],
    ]);
    const inName = checkDataset({ name: "n\u0000", rows: [row()] });
    expect(inName.errors.map((e) => [e.row_index, e.field, e.code])).toEqual([[-1, "name", "nul_character"]]);
  });
});

// probe30 A-F3: a float whose text is not the double it reads as was stored, shown and graded as the
// double (a numeric gold `1e-400` committed as 0, `0.1000000000000000055511151231257827` as 0.1), while
// the publish options refuse exactly these numbers (gold.ts, the one rule)
describe("a number in a row not kept as written is refused, naming its path (probe30 A-F3)", () => {
  /** A dataset body's text (as the REST body and a JSON file are read: the lossless parser) with `rows`. */
  const body = (rows: string) => parseJson(`{"name":"nums","rows":[${rows}]}`);

  it("a label 1e-400 or 0.1000000000000000055511151231257827 and such payload numbers: refused, send a decimal string", () => {
    const r = checkDataset(
      body(
        '{"decision_ts":"2026-05-01","label":1e-400,"payload":{"q":"g1"}},' +
          '{"decision_ts":"2026-05-02","label":0.1000000000000000055511151231257827,"payload":{"q":"g2"}},' +
          '{"decision_ts":"2026-05-03","label":"x","payload":{"b":1e-400,"d":[1,{"e":9007199254740993.0}],"a b":1.0000000000000001}}',
      ),
    );
    expect(r.ok).toBe(false);
    expect(r.errors.map((e) => [e.row_index, e.field, e.code])).toEqual([
      [0, "label", "inexact_number"],
      [1, "label", "inexact_number"],
      [2, "payload.b", "inexact_number"],
      [2, "payload.d[1].e", "inexact_number"],
      [2, 'payload["a b"]', "inexact_number"],
    ]);
    expect(r.errors[0]!.message).toBe(
      '$.rows[0].label 1e-400 is not the number a JSON reader keeps (it reads as 0): send it as a decimal string, e.g. "0.00000000000000000000000000000000000000..."',
    );
    expect(r.errors[1]!.message).toMatch(
      /^\$\.rows\[1\]\.label 0\.1000000000000000055511151231257827 is not the number a JSON reader keeps \(it reads as 0\.1\): send it as a decimal string/,
    );
    expect(r.errors[3]!.message).toMatch(
      /^\$\.rows\[2\]\.payload\.d\[1\]\.e 9007199254740993\.0 .*reads as 9007199254740992/,
    );
    const e = refusal(() =>
      validateDataset(body('{"decision_ts":"2026-05-01","label":1e-400,"payload":{"q":"g1"}}')),
    );
    expect(e.code).toBe("invalid_dataset");
    expect(e.details).toMatchObject({ row_index: 0, field: "label" });
    expect(e.message).toMatch(/^dataset: row 0, field label: \$\.rows\[0\]\.label 1e-400 /);
  });

  it("a number kept as written in another notation, and an integer of any size, are taken as before", () => {
    const v = validateDataset(
      body(
        '{"decision_ts":"2026-05-01","label":2.50,"payload":{"a":123456789012345678901234567890,"b":1E+2,"c":-0,"d":5e-324,"e":1.5e300,"f":0.30000000000000004,"g":-0.0}}',
      ),
    );
    expect(canonicalJsonString(v.rows[0])).toBe(
      '{"decision_ts":"2026-05-01","label":2.5,"payload":{"a":123456789012345678901234567890,"b":100.0,"c":0,"d":5e-324,"e":1.5e+300,"f":0.30000000000000004,"g":-0.0}}',
    );
  });

  it("a JSON dataset file is held to the same rule (the CLI's validate and publish)", async () => {
    const path = join(tempDir(), "nums.json");
    writeFileSync(
      path,
      '{"name":"f","rows":[{"decision_ts":"2026-05-01","label":"a","payload":{"x":1e-400}}]}',
    );
    const r = checkDataset(await readDataset(path, {}));
    expect(r.errors.map((e) => [e.row_index, e.field, e.code])).toEqual([[0, "payload.x", "inexact_number"]]);
  });
});

describe("the CLI's dataset file (readDataset)", () => {
  // probe32 B-F3: the parser's nesting error named a path of 30 KB (`[0]` 10,000 times) on one line
  it("a JSON file nested beyond the parser's limit is refused on one short line naming the path abbreviated", async () => {
    const path = join(tempDir(), "deep.json");
    const d = 200_000;
    writeFileSync(
      path,
      `{"name":"deep","rows":[{"ts":"x","label":"x","p":${"[".repeat(d)}${"]".repeat(d)}}]}`,
    );
    const e = await readDataset(path, {}).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).code).toBe("invalid_dataset");
    const message = (e as PlatformError).message;
    expect(message.length).toBeLessThan(path.length + 250);
    expect(message).toMatch(
      /^\S+deep\.json: \$\.rows\[0\]\.p[[\]0]+\.\.\.\(\d+ levels\)\.\.\.[[\]0]+: nesting deeper than 10000 levels$/,
    );
  });

  // probe33 B-F13: a mistyped top-level member (`descripton`) was dropped in silence by validate and publish
  it("a member a dataset does not have is refused by its JSON path, in the file and in a document", async () => {
    const path = join(tempDir(), "typo.json");
    const rows = [{ decision_ts: "2024-01-01T00:00:00Z", payload: { a: 1 }, label: "x" }];
    writeFileSync(path, JSON.stringify({ name: "typo", descripton: "lost?", "a b": 1, rows }));
    const doc = await readDataset(path, {});
    const report = checkDataset(doc);
    expect(report.ok).toBe(false);
    expect(report.errors.map((e) => [e.field, e.code])).toEqual([
      ["a b", "unknown_member"],
      ["descripton", "unknown_member"],
    ]);
    expect(report.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^\$\["a b"\] is not a member of a dataset \(its members: name, description, /),
      expect.stringMatching(/^\$\.descripton is not a member of a dataset/),
    ]);
    expect(() => validateDataset({ name: "ok", description: "kept", rows })).not.toThrow();
  });

  // probe19 B-F12: `validate /dev/zero` read the device whole (2.3 GB in 15 s, no word)
  it("a dataset file is a file or a pipe: a device or a directory is refused unread, naming it", async () => {
    for (const [path, kind] of [
      ["/dev/zero", "a character device"],
      [tmpdir(), "a directory"],
    ] as const) {
      await expect(readDataset(path, {})).rejects.toMatchObject({
        code: "invalid_dataset",
        details: { field: "file" },
        message: `cannot read ${path}: ${kind}, not a file (give a JSON or CSV file, or a pipe)`,
      });
      await expect(readDataset(path, { csv: true, label: "y", decisionTs: "d" })).rejects.toMatchObject({
        code: "invalid_csv",
        details: { field: "path" },
      });
    }
    await expect(readDataset("/no/such/file.json", {})).rejects.toMatchObject({
      code: "invalid_dataset",
      message: "cannot read /no/such/file.json: no such file (ENOENT)",
    });
  });

  it("a dataset file over the bound is refused: a file by its size, a pipe while it is read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bb-dsfile-"));
    const file = join(dir, "big.json");
    writeFileSync(file, "x".repeat(100));
    const over = "larger than 64 bytes, the most a dataset file may be (MAX_DATASET_FILE_BYTES)";
    await expect(readDatasetFile(file, "invalid_dataset", "file", 64)).rejects.toMatchObject({
      details: { field: "file" },
      message: `cannot read ${file}: ${over}`,
    });
    expect((await readDatasetFile(file, "invalid_dataset", "file", 100)).byteLength).toBe(100);
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const writer = execFile("sh", ["-c", `head -c 100000 /dev/zero > ${fifo}`]);
    await expect(readDatasetFile(fifo, "invalid_dataset", "file", 64)).rejects.toMatchObject({
      message: `cannot read ${fifo}: ${over}`,
    });
    writer.kill();
  });

  it("--name and --description override a JSON file's own; without them the file's stay (probe18 F3)", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "bb-ds-")), "ds.json");
    writeFileSync(file, JSON.stringify({ name: "own", description: "own text", rows: [row()] }));
    expect(await readDataset(file, {})).toMatchObject({ name: "own", description: "own text" });
    const flagged = await readDataset(file, { name: "flag", description: "flag text" });
    expect(flagged).toMatchObject({ name: "flag", description: "flag text" });
    // the bound then applies to the flag's text
    const long = checkDataset(await readDataset(file, { description: "d".repeat(2_001) }));
    expect(long.errors.map((e) => [e.field, e.code])).toEqual([["description", "text_too_long"]]);
    // an empty flag overrides too, both alike (probe19 B-F5: an empty --name was dropped, the file's used)
    const empty = await readDataset(file, { name: "", description: "" });
    expect(empty).toMatchObject({ name: "", description: "" });
    expect(checkDataset(empty).errors.map((e) => e.field)).toContain("name");
  });
});

describe("CSV loader", () => {
  const csvPath = seattleWeatherCsvPath();

  it("maps seattle-weather.csv into rows with the documented mapping", async () => {
    const d = await loadCsvDataset(
      csvPath,
      { decision_ts: "date", label: "weather", payload: ["date", "precipitation", "temp_max"], limit: 2 },
      { name: "seattle" },
    );
    expect(d.rows).toEqual([
      {
        decision_ts: "2012-01-01",
        payload: { date: "2012-01-01", precipitation: "0.0", temp_max: "12.8" },
        label: "drizzle",
      },
      {
        decision_ts: "2012-01-02",
        payload: { date: "2012-01-02", precipitation: "10.9", temp_max: "10.6" },
        label: "rain",
      },
    ]);
    const all = await loadCsvDataset(csvPath, { decision_ts: "date", label: "weather" }, { name: "seattle" });
    expect(all.rows).toHaveLength(1461);
    expect(validateDataset(all).rows).toHaveLength(1461);
  });

  it("applies offset and every, and names an unknown column", () => {
    const text = "d,x,y\n2020-01-01,1,a\n2020-01-02,2,b\n2020-01-03,3,c\n2020-01-04,4,d\n";
    const d = csvToDataset(text, { decision_ts: "d", label: "y", offset: 1, every: 2 }, { name: "t" });
    expect(d.rows.map((r) => (r as { label: string }).label)).toEqual(["b", "d"]);
    try {
      csvToDataset(text, { decision_ts: "d", label: "weather" }, { name: "t" });
      throw new Error("expected a refusal");
    } catch (e) {
      expect(e).toMatchObject({ code: "invalid_csv", details: { field: "label", column: "weather" } });
    }
  });

  // probe27 B-F3: a column named __proto__ was assigned through the prototype setter and dropped from
  // every payload (the content hash was that of the file without it; `--payload __proto__` was "empty")
  it("keeps a column named __proto__, constructor or prototype as a payload field, in the row hash", () => {
    const text = "date,__proto__,constructor,prototype,label\n2020-01-01,a,b,c,yes\n";
    const d = csvToDataset(text, { decision_ts: "date", label: "label" }, { name: "t" });
    const payload = (d.rows[0] as { payload: object }).payload;
    expect(Object.keys(payload)).toEqual(["date", "__proto__", "constructor", "prototype"]);
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
    expect(canonicalJsonString(d.rows[0])).toContain('"__proto__":"a"');
    const without = csvToDataset(
      "date,label\n2020-01-01,yes\n",
      { decision_ts: "date", label: "label" },
      { name: "t" },
    );
    expect(validateDataset(d).content_hash).not.toBe(validateDataset(without).content_hash);
    const only = csvToDataset(
      text,
      { decision_ts: "date", label: "label", payload: ["__proto__"] },
      { name: "t" },
    );
    expect(checkDataset(only)).toMatchObject({ ok: true, row_count: 1 });
    expect(canonicalJsonString((only.rows[0] as { payload: object }).payload)).toBe('{"__proto__":"a"}');
  });

  it("keeps a bucket field named __proto__, from --bucket to the rows (probe27 B-F3, the same class)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csv-proto-"));
    const file = join(dir, "p.csv");
    writeFileSync(file, "date,__proto__,label\n2020-01-01,2020-01-01T10:11:12Z,yes\n");
    const input = await readDataset(file, { label: "label", decisionTs: "date", bucket: ["__proto__=day"] });
    expect(Object.keys(input.bucket_fields ?? {})).toEqual(["__proto__"]);
    const v = validateDataset(input);
    expect(canonicalJsonString(v.rows[0]!.payload)).toBe(
      '{"__proto__":"2020-01-01T00:00:00Z","date":"2020-01-01"}',
    );
    expect(Object.keys(v.bucket_fields)).toEqual(["__proto__"]);
  });

  it("a time-bound field named constructor needs its knowable_at entry like any other (probe27 B-F3, the same class)", () => {
    const tb = checkDataset({
      name: "tb",
      time_bound_fields: ["constructor"],
      rows: [{ decision_ts: "2020-01-02", payload: { constructor: "x" }, label: "y" }],
    });
    expect(tb.errors).toEqual([
      expect.objectContaining({ field: "knowable_at.constructor", code: "missing" }),
    ]);
  });

  // probe27 B-F4: `date, x, label` was refused 'no column " x"' while listing that very column
  it("reads a header with spaces after the commas by the trimmed names, the default payload too", () => {
    const d = csvToDataset(
      "date, x, label\n2020-01-01,a,yes\n",
      { decision_ts: "date", label: "label" },
      { name: "t" },
    );
    expect(d.rows).toEqual([
      { decision_ts: "2020-01-01", payload: { date: "2020-01-01", x: "a" }, label: "yes" },
    ]);
    const named = csvToDataset(
      "date, x, label\n2020-01-01,a,yes\n",
      { decision_ts: " date ", label: "label ", payload: [" x"] },
      { name: "t" },
    );
    expect(named.rows).toEqual([{ decision_ts: "2020-01-01", payload: { x: "a" }, label: "yes" }]);
    expect(() =>
      csvToDataset(
        "date, x, label\n2020-01-01,a,yes\n",
        { decision_ts: "date", label: "label", payload: [" label"] },
        { name: "t" },
      ),
    ).toThrow(/is the label column/);
    try {
      csvToDataset("date, x, label\n2020-01-01,a,yes\n", { decision_ts: "date", label: "y" }, { name: "t" });
      throw new Error("expected a refusal");
    } catch (e) {
      expect(e).toMatchObject({
        code: "invalid_csv",
        details: { field: "label", column: "y", columns: ["date", "x", "label"] },
      });
    }
  });

  it("refuses ragged CSV", () => {
    expect(() => csvToDataset("a,b\n1\n", { decision_ts: "a", label: "b" }, { name: "t" })).toThrow(
      PlatformError,
    );
  });

  // probe28 B-F8: the row limit was checked only after every record was parsed and mapped (a 209 MB CSV:
  // 391 s, 4.5 GB). Now the 100,001st kept row is refused as it is read: the ragged line after it (which a
  // whole parse refuses as bad CSV) is never reached, so the refusal's count is the parse's progress.
  it("refuses a CSV over MAX_DATASET_ROWS at the first row over it, the rest unread", async () => {
    const lines = ["d,x,y"];
    for (let i = 0; i <= MAX_DATASET_ROWS; i++) lines.push(`2020-01-01,${i},a`);
    const text = lines.join("\n") + "\nragged\n";
    const mapping = { decision_ts: "d", label: "y" };
    let err: unknown;
    try {
      csvToDataset(text, mapping, { name: "t" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({
      code: "invalid_dataset",
      details: { field: "rows", limit: MAX_DATASET_ROWS, rows_read: MAX_DATASET_ROWS + 1 },
    });
    expect((err as Error).message).toContain(`at most ${MAX_DATASET_ROWS} rows per dataset`);
    expect((err as Error).message).toContain(`reading stopped at row ${MAX_DATASET_ROWS + 1}`);
    // the same file through the CLI's loader
    const file = join(mkdtempSync(join(tmpdir(), "bb-csv-rows-")), "big.csv");
    writeFileSync(file, text);
    await expect(loadCsvDataset(file, mapping, { name: "t" })).rejects.toMatchObject({
      code: "invalid_dataset",
      details: { field: "rows", rows_read: MAX_DATASET_ROWS + 1 },
    });
    // the limit counts kept rows: every other record of the same records is within it, and `limit`
    // stops reading too (the ragged line is not reached)
    const half = csvToDataset(lines.join("\n") + "\n", { ...mapping, every: 2 }, { name: "t" });
    expect(half.rows).toHaveLength(MAX_DATASET_ROWS / 2 + 1);
    expect(csvToDataset(text, { ...mapping, limit: 3 }, { name: "t" }).rows).toHaveLength(3);
  });
});

// re-probe 6 O8: a label nested 1,015 deep was 422 `not_json` at `$` "Maximum call stack size
// exceeded" (the row checks recurse); the depth is now bounded by a named limit, measured without
// recursion, before any recursive walk
describe("a row's nesting is bounded (MAX_ROW_DEPTH)", () => {
  const nested = (levels: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < levels; i++) v = [v];
    return v;
  };
  it("a label nested 5,000 deep is refused naming the limit and the path, not a stack overflow", () => {
    const r = checkDataset({ name: "deep", rows: [row(), row({ label: nested(5_000) })] });
    expect(r.ok).toBe(false);
    expect(r.errors).toHaveLength(1);
    const e = r.errors[0]!;
    expect(e).toMatchObject({ row_index: 1, code: "nesting_too_deep" });
    expect(e.message).toContain(`${MAX_ROW_DEPTH} levels`);
    // the row is level 1, the label array level 2: level L is label plus L - 2 times [0], so the first over the limit is label plus 63
    expect(e.field).toBe(`label${"[0]".repeat(MAX_ROW_DEPTH - 1)}`);
  });
  it("a row at the limit is accepted; one level more is refused", () => {
    // row (1) > label array (2) ... : a label of MAX_ROW_DEPTH - 1 arrays reaches level MAX_ROW_DEPTH
    expect(checkDataset({ name: "at", rows: [row({ label: nested(MAX_ROW_DEPTH - 1) })] }).ok).toBe(true);
    const over = checkDataset({ name: "over", rows: [row({ label: nested(MAX_ROW_DEPTH) })] });
    expect(over.errors.map((e) => e.code)).toEqual(["nesting_too_deep"]);
  });
});

// probe30 B-F5: a 10.7 MB dataset of 25 rows of 40,000 payload keys held the server's dataset worker
// for 33 s (every walk over a row costs more per member the wider its objects are; the CLI took 92 s
// for an 8 MB CSV of 20,000 columns); an object of a row is now bounded by a named limit, checked
// before any other walk of the row, and a CSV header by the same rule before any row is read
describe("a row's objects are bounded in members (MAX_ROW_OBJECT_MEMBERS)", () => {
  const wide = (n: number): Record<string, number> =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`c${i}`, 1]));
  it("a payload of one member over the limit is refused naming the limit, the row and the path", () => {
    const r = checkDataset({
      name: "wide",
      rows: [row(), row({ payload: wide(MAX_ROW_OBJECT_MEMBERS + 1) })],
    });
    expect(r.ok).toBe(false);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ row_index: 1, field: "payload", code: "too_many_members" });
    expect(r.errors[0]!.message).toContain("$.rows[1].payload");
    expect(r.errors[0]!.message).toContain(`${MAX_ROW_OBJECT_MEMBERS} (MAX_ROW_OBJECT_MEMBERS)`);
  });
  it("an object nested in the label is bounded alike; at the limit is accepted", () => {
    const over = checkDataset({
      name: "w",
      rows: [row({ label: { xs: [wide(MAX_ROW_OBJECT_MEMBERS + 1)] } })],
    });
    expect(over.errors.map((e) => [e.field, e.code])).toEqual([["label.xs[0]", "too_many_members"]]);
    const atLimit = { ...row({ payload: wide(MAX_ROW_OBJECT_MEMBERS) }), knowable_at: undefined };
    expect(checkDataset({ name: "w", rows: [atLimit] }).ok).toBe(true);
  });
  it("the CLI's JSON file reader stops at the first object over the limit, naming its path", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "wide-")), "wide.json");
    writeFileSync(
      path,
      JSON.stringify({ name: "wide", rows: [row(), row({ payload: wide(MAX_ROW_OBJECT_MEMBERS + 1) })] }),
    );
    await expect(readDataset(path, {})).rejects.toMatchObject({
      code: "invalid_dataset",
      details: { field: "file" },
    });
    await expect(readDataset(path, {})).rejects.toThrow(/\$\.rows\[1\]\.payload.*more than 1000 members/);
  });
  it("a CSV of more payload columns than the limit is refused at its header, no row read", () => {
    // the payload is every column but the label's: date and the cs
    const cols = Array.from({ length: MAX_ROW_OBJECT_MEMBERS }, (_, i) => `c${i}`);
    const line = (ts: string): string => [ts, "a", ...cols.map(() => "1")].join(",");
    const text = ["date,label," + cols.join(","), line("2020-01-01"), "not,a,row"].join("\n") + "\n";
    let err: unknown;
    try {
      csvToDataset(text, { label: "label", decision_ts: "date" }, { name: "t" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlatformError);
    expect((err as PlatformError).code).toBe("invalid_csv");
    expect((err as PlatformError).message).toContain(`${MAX_ROW_OBJECT_MEMBERS} (MAX_ROW_OBJECT_MEMBERS)`);
    expect((err as PlatformError).details).toMatchObject({
      field: "payload",
      columns: MAX_ROW_OBJECT_MEMBERS + 1,
    });
    // at the limit, the rows are read (one column fewer)
    const ok = csvToDataset(
      ["date,label," + cols.slice(1).join(","), line("2020-01-01").split(",").slice(0, -1).join(",")].join(
        "\n",
      ),
      { label: "label", decision_ts: "date" },
      { name: "t" },
    );
    expect(validateDataset(ok).rows).toHaveLength(1);
  });
});

describe("stored dataset bytes per account (probe10 R5)", () => {
  const opened: Harness[] = [];
  afterEach(async () => {
    for (const h of opened.splice(0)) await h.close();
  });
  const open = async (opts: Parameters<typeof openTemp>[0] = {}): Promise<Harness> => {
    const h = await openTemp(opts);
    opened.push(h);
    return h;
  };
  const bytesOf = (name: string, n: number) => datasetBytes(prepareDataset(cities(n, name)));

  it("refuses the dataset past the account's quota, naming the limit and the used bytes; nothing is written", async () => {
    const one = bytesOf("a-1", 20);
    const h = await open({ datasetBytesPerAccount: one * 2 + 10 });
    const a = await h.principal("quota-a");
    const b = await h.principal("quota-b");
    const first = await h.real.createDataset(a, cities(20, "a-1"));
    await h.real.createDataset(a, cities(20, "a-2"));
    // the same dataset again is the same dataset (idempotent), not counted twice
    expect((await h.real.createDataset(a, cities(20, "a-1"))).dataset_id).toBe(first.dataset_id);
    expect(await h.ctx.store.datasets.bytesOf(a.account_id)).toBe(2 * bytesOf("a-2", 20));
    const e = await rejection(h.real.createDataset(a, cities(20, "a-3")));
    expect(e.code).toBe("dataset_quota_exceeded");
    expect(e.details).toMatchObject({
      limit: "dataset_bytes_per_account",
      limit_bytes: one * 2 + 10,
      used_bytes: 2 * one,
      dataset_bytes: bytesOf("a-3", 20),
    });
    expect(e.message).toContain(`${one * 2 + 10} bytes`);
    expect(e.message).toContain(`stores ${2 * one} bytes`);
    // nothing of the refused dataset is stored
    const id = (
      await h.ctx.store.db.selectFrom("datasets").select("dataset_id").where("name", "=", "a-3").execute()
    ).length;
    expect(id).toBe(0);
    const rows = await h.ctx.store.db
      .selectFrom("dataset_rows")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(40);
    // another account is not affected; the operator is not counted
    await h.real.createDataset(b, cities(20, "b-1"));
    await h.real.createDataset(b, cities(20, "b-2"));
    await h.createDataset(cities(20, "op-1"));
    await h.createDataset(cities(20, "op-2"));
    await h.createDataset(cities(20, "op-3"));
    expect(await h.ctx.store.datasets.bytesOf(b.account_id)).toBe(2 * one);
  });

  it("concurrent uploads of one account do not both pass the quota", async () => {
    const one = bytesOf("c-0", 10);
    const h = await open({ datasetBytesPerAccount: one * 3 });
    const a = await h.principal("quota-c");
    const results = await Promise.allSettled(
      [0, 1, 2, 3, 4, 5].map((i) => h.real.createDataset(a, cities(10, `c-${i}`))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect(await h.ctx.store.datasets.bytesOf(a.account_id)).toBe(3 * one);
  });

  it("migration 0002 fills in the bytes of the datasets stored before it", async () => {
    const where =
      TEST_ENGINE === "postgres"
        ? { database: await freshPostgresTarget(), runsDir: tempDir() }
        : { dir: tempDir() };
    const before = await openAt(where);
    const a = await before.principal("quota-m");
    await before.real.createDataset(a, cities(7, "m-1"));
    await before.real.createDataset(a, cities(5, "m-2"));
    // back to the schema of 0001: no column, no index, 0002 (and the later 0003 to 0009) not recorded
    const db = before.ctx.store.db;
    await undoMigration0011(db);
    await sql`DROP INDEX datasets_by_owner`.execute(db);
    await sql`ALTER TABLE datasets DROP COLUMN stored_bytes`.execute(db);
    await sql`DROP INDEX runs_by_finalize`.execute(db);
    await sql`ALTER TABLE datasets DROP COLUMN deleted_at`.execute(db);
    await sql`ALTER TABLE runs DROP COLUMN answer_bytes`.execute(db);
    await sql`ALTER TABLE anchors DROP COLUMN squat_json`.execute(db);
    await sql`DROP INDEX runs_by_account_started`.execute(db);
    await sql`DROP TABLE answer_bytes_totals`.execute(db);
    await sql`DROP INDEX runs_by_benchmark_started`.execute(db);
    await sql`ALTER TABLE verification_jobs DROP COLUMN observed_indexer`.execute(db);
    await sql`DELETE FROM kysely_migration WHERE name IN ('0002_dataset_bytes', '0003_runs_by_finalize', '0004_dataset_deleting', '0005_answer_bytes', '0006_anchor_squats', '0007_runs_by_account_started', '0008_answer_bytes_totals', '0009_runs_by_benchmark_started', '0010_verification_observers')`.execute(
      db,
    );
    await before.close();
    const after = await openAt(where);
    opened.push(after);
    expect(await after.ctx.store.datasets.bytesOf(a.account_id)).toBe(bytesOf("m-1", 7) + bytesOf("m-2", 5));
  });

  it("defaults to 256 MiB per account and refuses a bad option", async () => {
    expect(DEFAULT_DATASET_BYTES_PER_ACCOUNT).toBe(256 * 1024 * 1024);
    const h = await open();
    expect(h.ctx.datasetBytesPerAccount).toBe(DEFAULT_DATASET_BYTES_PER_ACCOUNT);
    expect((await rejection(open({ datasetBytesPerAccount: 0 }))).details).toMatchObject({
      field: "datasetBytesPerAccount",
    });
  });

  it("bounds the bytes all accounts but the operator store together (probe11 O5)", async () => {
    const one = bytesOf("g-0", 10);
    // each account is well under its own quota; together they may store 3 datasets
    const h = await open({ datasetBytesPerAccount: one * 100, datasetBytesAllAccounts: one * 3 });
    const accounts = [];
    for (const n of ["all-a", "all-b", "all-c", "all-d"]) accounts.push(await h.principal(n));
    await h.real.createDataset(accounts[0]!, cities(10, "g-0"));
    await h.real.createDataset(accounts[1]!, cities(10, "g-1"));
    await h.createDataset(cities(10, "op-g")); // the operator's rows are not counted
    await h.real.createDataset(accounts[2]!, cities(10, "g-2"));
    const e = await rejection(h.real.createDataset(accounts[3]!, cities(10, "g-3")));
    expect(e.code).toBe("dataset_quota_exceeded");
    expect(e.details).toMatchObject({
      limit: "dataset_bytes_all_accounts",
      limit_bytes: one * 3,
      used_bytes: bytesOf("g-0", 10) + bytesOf("g-1", 10) + bytesOf("g-2", 10),
      dataset_bytes: bytesOf("g-3", 10),
    });
    expect(e.message).toContain("dataset_bytes_all_accounts");
    expect(await h.ctx.store.datasets.bytesOf(accounts[3]!.account_id)).toBe(0);
    // the operator still may store
    await h.createDataset(cities(10, "op-g2"));
  });

  it("concurrent uploads of several accounts do not all pass the all-accounts bound", async () => {
    const one = bytesOf("k-0", 10);
    const h = await open({ datasetBytesAllAccounts: one * 2 });
    const ps = [];
    for (let i = 0; i < 5; i++) ps.push(await h.principal(`all-k${i}`));
    const results = await Promise.allSettled(ps.map((p, i) => h.real.createDataset(p, cities(10, `k-${i}`))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
  });

  // probe26 A-F1: a publish took the all-accounts lock before inserting its whole test set, so every
  // other account's upload (and publish) waited for that insert; the lock is taken last, for the check
  it.runIf(TEST_ENGINE === "postgres")(
    "another account's upload is not held by a publish inserting its test set, and the bound still holds",
    async () => {
      let release!: () => void;
      let paused!: () => void;
      const inInsert = new Promise<void>((r) => (paused = r));
      const held = new Promise<void>((r) => (release = r));
      const one = bytesOf("p-0", 10);
      const h = await open({
        datasetBytesAllAccounts: one * 100,
        faults: {
          publishBeforeInsert: async () => {
            paused();
            await held;
          },
        },
      });
      const author = await h.principal("pub-a");
      const other = await h.principal("pub-b");
      const ds = await h.real.createDataset(author, cities(10, "p-0"));
      const publishing = h.real.publish(author, ds.dataset_id, CITIES_PUBLISH);
      await inInsert; // the publish's transaction is open, its test set being inserted
      const upload = h.real.createDataset(other, cities(10, "p-1"));
      const first = await Promise.race([
        upload.then(() => "upload"),
        new Promise((r) => setTimeout(() => r("still waiting"), 3000)),
      ]);
      release();
      expect(first).toBe("upload");
      await publishing;
      expect(await h.ctx.store.datasets.bytesOf(other.account_id)).toBe(bytesOf("p-1", 10));
    },
  );

  it("a publish's test set and uploads of other accounts, at once, do not pass the all-accounts bound together", async () => {
    const one = bytesOf("q-0", 10);
    const h0 = await open();
    // the test set the publish charges (on top of the dataset's own bytes)
    const author0 = await h0.principal("q-a");
    const d0 = await h0.real.createDataset(author0, cities(10, "q-0"));
    await h0.real.publish(author0, d0.dataset_id, CITIES_PUBLISH);
    const testSet = (await h0.ctx.store.datasets.bytesOf(author0.account_id)) - one;
    // room for the author's dataset and either its test set or one more upload, not both
    const h = await open({ datasetBytesAllAccounts: 2 * one + testSet - 1 });
    const author = await h.principal("q-a");
    const ds = await h.real.createDataset(author, cities(10, "q-0"));
    const uploader = await h.principal("q-b");
    const [pub, up] = await Promise.allSettled([
      h.real.publish(author, ds.dataset_id, CITIES_PUBLISH),
      h.real.createDataset(uploader, cities(10, "q-1")),
    ]);
    expect([pub.status, up.status].filter((s) => s === "fulfilled")).toHaveLength(1);
    const refused = (
      pub.status === "rejected" ? pub.reason : (up as PromiseRejectedResult).reason
    ) as PlatformError;
    expect(refused.details).toMatchObject({ limit: "dataset_bytes_all_accounts" });
    const total = await h.ctx.store.datasets.bytesOfAll("acct_operator");
    expect(total).toBeLessThanOrEqual(2 * one + testSet - 1);
  });

  it("defaults to 8 GiB for all accounts and refuses a bad option", async () => {
    expect(DEFAULT_DATASET_BYTES_ALL_ACCOUNTS).toBe(8 * 1024 * 1024 * 1024);
    const h = await open();
    expect(h.ctx.datasetBytesAllAccounts).toBe(DEFAULT_DATASET_BYTES_ALL_ACCOUNTS);
    expect((await rejection(open({ datasetBytesAllAccounts: 1.5 }))).details).toMatchObject({
      field: "datasetBytesAllAccounts",
    });
  });
});
