/**
 * probe24: a dataset `--name` holding ESC (or another character a terminal acts on, or that hides or
 * reorders text) was stored, to be escaped wherever it was printed. A name is one line of plain text:
 * such a character is refused at input, naming the field (`invalid_option` issue on `name`, the
 * dataset's `invalid_dataset`), by evidence's one definition (`terminalControlPattern`).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkDataset } from "../src/dataset.js";
import { runCli, tempDir } from "./helpers.js";

const ROWS = [
  { decision_ts: "2026-01-01", payload: { a: 1 }, label: "x" },
  { decision_ts: "2026-01-02", payload: { a: 2 }, label: "y" },
];

describe("a dataset name with a terminal control character is refused naming the field", () => {
  it.each([
    ["ESC", "a\u001b[2Jb", "U+001B at position 1"],
    ["a newline inside", "a\nb", "U+000A at position 1"],
    ["a C1 CSI", "a\u009bb", "U+009B at position 1"],
    ["a right-to-left override", "ab\u202ec", "U+202E at position 2"],
  ])("%s", (_, name, where) => {
    const r = checkDataset({ name, rows: ROWS });
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      {
        row_index: -1,
        field: "name",
        code: "invalid_option",
        message: `name holds the control character ${where} (a name is one line of plain text)`,
      },
    ]);
  });

  it("plain names, accents and inner spaces pass", () => {
    expect(checkDataset({ name: "Météo de Seattle 2026", rows: ROWS }).ok).toBe(true);
  });

  it("the CLI: validate reports it and publish refuses it, storing nothing", async () => {
    const dir = tempDir();
    const file = join(dir, "d.json");
    writeFileSync(file, JSON.stringify({ name: "fine", rows: ROWS }));
    const checked = await runCli("validate", file, "--name", "evil\u001b]0;title\u0007");
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.out).errors).toMatchObject([{ field: "name", code: "invalid_option" }]);
    const store = join(dir, "st");
    const pub = await runCli(
      "publish",
      file,
      "--store",
      store,
      "--name",
      "evil\u001b[2J",
      "--title",
      "T",
      "--template",
      "{payload.a}",
      "--grader",
      "exact",
    );
    expect(pub.code).toBe(1);
    expect(pub.err).toContain("name holds the control character U+001B at position 4");
    expect(pub.err).not.toContain("\u001b");
    const list = await runCli("datasets", "--store", store);
    expect(list.code, list.err).toBe(0);
    expect(JSON.parse(list.out).datasets).toEqual([]);
  });
});
