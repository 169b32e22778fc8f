/**
 * The report table's winners line (formatReportTable): each place's amount in base units, "1 base unit"
 * singular (probe30 C-F1's nit: "(1 base units)" for a pool of one base unit).
 */
import { describe, expect, it } from "vitest";
import { verifyPack } from "../src/index.js";
import { formatReportTable } from "../src/format.js";
import { packBytes } from "./helpers.js";

describe("the report table's winners line", () => {
  it("names each place's base units, singular for 1", async () => {
    const r = await verifyPack({ source: packBytes("small") });
    const amounts = r.values.place_amounts_base_units;
    expect(amounts.length).toBeGreaterThan(1);
    const line = (t: string) => t.split("\n").find((l) => l.startsWith("winners: "))!;
    expect(line(formatReportTable(r))).toContain(`1. `);
    expect(line(formatReportTable(r))).toContain(`(${amounts[0]} base units)`);
    const one = { ...r, values: { ...r.values, place_amounts_base_units: ["1", ...amounts.slice(1)] } };
    expect(line(formatReportTable(one))).toContain("(1 base unit),");
    expect(line(formatReportTable(one))).toContain(`(${amounts[1]} base units)`);
  });
});
