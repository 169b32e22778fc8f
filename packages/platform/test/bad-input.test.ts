import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { csvToDataset } from "../src/csv.js";
import { benchmarkConfig } from "../src/publish.js";
import { cleanup, refusal, runCli, tempDir } from "./helpers.js";

afterEach(() => {
  cleanup();
  process.exitCode = 0;
  vi.restoreAllMocks();
});

/** A small CSV (`date,temp,weather`) in a fresh directory. */
function goodCsv(): string {
  const file = join(tempDir(), "good.csv");
  writeFileSync(
    file,
    "date,temp,weather\n2026-01-01,3,rain\n2026-01-02,5,sun\n2026-01-03,4,fog\n2026-01-04,6,snow\n",
  );
  return file;
}

describe("a template or payload cannot show the gold", () => {
  it("publish refuses {label} (default gold), naming the placeholder, and stores nothing", async () => {
    const store = join(tempDir(), "st");
    const r = await runCli(
      "publish",
      goodCsv(),
      "--label",
      "weather",
      "--decision-ts",
      "date",
      "--store",
      store,
      "--title",
      "t",
      "--template",
      "{label}",
      "--grader",
      "exact",
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: prompt_template: \{label\} would show the gold \(gold_field label\)/);
    expect(r.err).toContain('"reason": "reveals_gold"');
    expect(existsSync(store)).toBe(false);
  });

  it("publish refuses --payload listing the label column, naming the column", async () => {
    const r = await runCli(
      "publish",
      goodCsv(),
      "--label",
      "weather",
      "--decision-ts",
      "date",
      "--payload",
      "date,weather",
      "--store",
      join(tempDir(), "st"),
      "--title",
      "t",
      "--template",
      "{payload.weather}",
      "--grader",
      "exact",
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: CSV mapping payload: column "weather" is the label column/);
    expect(() =>
      csvToDataset(
        "d,w\n2026-01-01,x\n",
        { decision_ts: "d", label: "w", payload: ["d", "w"] },
        { name: "t" },
      ),
    ).toThrow(/column "w" is the label column/);
  });

  it("a placeholder equal to, inside or containing a gold path is refused; other label fields are not", () => {
    const base = { title: "t", grader_type: "exact" as const };
    for (const [template, extra, placeholder] of [
      ["Q {payload.a} {label}", {}, "label"],
      ["Q {label.x}", {}, "label.x"],
      ["Q {label}", { gold_field: "label.x" }, "label"],
      ["Q {label.x.y}", { gold_field: "label.x" }, "label.x.y"],
      ["Q {payload.ans}", { gold_field: "payload.ans" }, "payload.ans"],
      ["Q {label.alts}", { gold_field: "label.v", alternatives_field: "label.alts" }, "label.alts"],
    ] as const) {
      const e = refusal(() => benchmarkConfig({ ...base, prompt_template: template, ...extra }));
      expect(e.code, template).toBe("invalid_template");
      expect(e.details).toMatchObject({ placeholder, reason: "reveals_gold" });
    }
    expect(
      benchmarkConfig({ ...base, prompt_template: "Q {label.hint}", gold_field: "label.v" }).gold_field,
    ).toBe("label.v");
    expect(
      benchmarkConfig({ ...base, prompt_template: "Q {label.xy}", gold_field: "label.x" }).gold_field,
    ).toBe("label.x");
  });
});
