import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCsvDataset } from "../src/csv.js";
import { firstInvalidUtf8 } from "../src/utf8.js";
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
    expect(r.err).toMatch(/^error: .*bad\.json: invalid UTF-8 at byte offset 37 \(line 1\)/m);
  });
});
