import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCsvDataset } from "../src/csv.js";
import { firstInvalidUtf8, jsonPathAtByte } from "../src/utf8.js";
import { cleanup, rejection, runCli, tempDir } from "./helpers.js";

afterEach(cleanup);

describe("invalid UTF-8 in a dataset is refused naming the row and byte offset (issue 13 item 9)", () => {
  it("finds the first invalid sequence (stray continuation, overlong, surrogate, truncated, > U+10FFFF)", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(firstInvalidUtf8(enc("héllo € 𝄞"))).toBe(-1);
    for (const [bytes, at] of [
      [[0x61, 0x80], 1],
      [[0x61, 0xc0, 0xaf], 1],
      [[0xed, 0xa0, 0x80], 0],
      [[0x61, 0x62, 0xe2, 0x82], 2],
      [[0xf4, 0x90, 0x80, 0x80], 0],
    ] as const)
      expect(firstInvalidUtf8(new Uint8Array(bytes))).toBe(at);
  });

  it("a CSV with a Latin-1 byte on data row 1 is refused (it was silently replaced by U+FFFD)", async () => {
    const file = join(tempDir(), "bad.csv");
    const head = Buffer.from("date,weather\n2026-01-01,sun\n2026-01-02,");
    writeFileSync(file, Buffer.concat([head, Buffer.from([0xe9]), Buffer.from("t\n")]));
    const e = await rejection(
      loadCsvDataset(file, { label: "weather", decision_ts: "date" }, { name: "bad" }),
    );
    expect(e).toMatchObject({
      code: "invalid_csv",
      details: { reason: "invalid_utf8", byte_offset: head.length, line: 3, row_index: 1 },
    });
    expect(e.message).toContain(`byte offset ${head.length} (line 3, row 1)`);
  });

  // probe33 B-F4: the row was the physical LF line's: a quoted multi-line field before the byte named a
  // row that does not exist, and CR line endings named line 1 and no row
  it.each([
    [
      "a quoted multi-line field before it",
      'date,lab,x\n2024-01-01,a,"line1\nline2\nline3"\n2024-01-02,b,',
      "\n",
      5,
    ],
    ["CR line endings", "date,lab,x\r2024-01-01,a,1\r2024-01-02,b,", "\r", 3],
    ["CR LF line endings", "date,lab,x\r\n2024-01-01,a,1\r\n2024-01-02,b,", "\r\n", 3],
    ["a quoted field holding it", 'date,lab,x\n2024-01-01,a,1\n2024-01-02,b,"a\nb', '"\n', 4],
  ])("a CSV's invalid byte names the record holding it, with %s", async (_label, head, tail, line) => {
    const file = join(tempDir(), "bad.csv");
    writeFileSync(file, Buffer.concat([Buffer.from(head), Buffer.from([0xff]), Buffer.from(tail)]));
    const e = await rejection(loadCsvDataset(file, { label: "lab", decision_ts: "date" }, { name: "bad" }));
    const at = Buffer.byteLength(head);
    expect(e).toMatchObject({
      code: "invalid_csv",
      details: { reason: "invalid_utf8", byte_offset: at, line, row_index: 1 },
    });
    expect(e.message).toContain(`byte offset ${at} (line ${line}, row 1)`);
  });

  it("a CSV's invalid byte in the header names no row", async () => {
    const file = join(tempDir(), "bad.csv");
    writeFileSync(file, Buffer.concat([Buffer.from("date,l"), Buffer.from([0xff]), Buffer.from("b\r1,2\r")]));
    const e = await rejection(loadCsvDataset(file, { label: "lab", decision_ts: "date" }, { name: "bad" }));
    expect(e).toMatchObject({ details: { byte_offset: 6, line: 1, row_index: null } });
  });

  it("a JSON dataset file with invalid UTF-8 is refused by validate in one line", async () => {
    const file = join(tempDir(), "bad.json");
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('{"name":"x","rows":[{"payload":{"a":"'),
        Buffer.from([0xff]),
        Buffer.from('"}}]}'),
      ]),
    );
    const r = await runCli("validate", file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^error: .*bad\.json: invalid UTF-8 at byte offset 37 \(line 1, row 0, \$\.rows\[0\]\.payload\.a\)/m,
    );
  });

  it("a one-line JSON dataset names the row and the JSON path of the invalid byte, on validate and publish (probeD3 F5)", async () => {
    const rows = [0, 1, 2, 3, 4].map((i) => ({
      decision_ts: `2020-01-0${i + 1}T00:00:00Z`,
      payload: { x: `r${i}` },
      label: `a${i}`,
    }));
    const [head, tail] = JSON.stringify({ name: "u", rows }).split('"r3"') as [string, string];
    const at = Buffer.byteLength(`${head}"r`);
    const file = join(tempDir(), "rows.json");
    writeFileSync(
      file,
      Buffer.concat([Buffer.from(`${head}"r`), Buffer.from([0xff]), Buffer.from(`3"${tail}`)]),
    );
    for (const args of [
      ["validate", file],
      [
        "publish",
        file,
        "--title",
        "t",
        "--template",
        "x {payload.x}",
        "--grader",
        "exact",
        "--store",
        tempDir(),
      ],
    ]) {
      const r = await runCli(...args);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`invalid UTF-8 at byte offset ${at} (line 1, row 3, $.rows[3].payload.x)`);
      expect(r.err).toMatch(/"row_index": 3/);
      expect(r.err).toMatch(/"path": "\$\.rows\[3\]\.payload\.x"/);
    }
  });

  it("jsonPathAtByte names the value a byte sits in: a key, a nested item, trailing data", () => {
    const at = (doc: string, marker = "@") => {
      const i = Buffer.byteLength(doc.slice(0, doc.indexOf(marker)));
      return jsonPathAtByte(Buffer.from(doc), i);
    };
    expect(at('{"rows": [{"payload": {"k@": 1}}]}')).toBe("$.rows[0].payload");
    expect(at('{"rows": [1, [2, "x@"]]}')).toBe("$.rows[1][1]");
    expect(at('{"rows": []} @')).toBe("$");
  });
});
