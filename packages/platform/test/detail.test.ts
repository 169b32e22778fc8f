import { afterEach, describe, expect, it } from "vitest";
import { competeAtMainOf, howToCompete, usdcText } from "../src/detail.js";
import { cities, cleanup, openTemp, CITIES_PUBLISH } from "./helpers.js";

afterEach(cleanup);

describe("list, detail and formats (seed: compete steps 1-2 and 8; publish formats)", () => {
  it("the detail names this slug's own curls at the base URL, carries grader_types and no gold; the list is read-only once closed", async () => {
    const h = await openTemp();
    const ds = await h.createDataset(cities(4));
    const { slug } = await h.publish(ds.dataset_id, {
      ...CITIES_PUBLISH,
    });
    const d = await h.real.benchmarkDetail(slug, { baseUrl: "https://bench.example/" });
    expect(d.how_to_compete).toContain(`https://bench.example/api/v1/benchmarks/${slug}/runs`);
    expect(d.how_to_compete).toMatch(/^[\x20-\x7e\n]*$/);
    expect(Object.keys(d.grader_types).sort()).toEqual(["contains_all", "exact", "json_fields", "numeric"]);
    expect(d).toMatchObject({
      prize: "--",
      prize_verified: false,
      time_budget_seconds: 900,
      speed_weight: "0.3",
    });
    expect(JSON.stringify(d, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain(
      "answer-",
    );
    expect((await h.real.benchmarkList()).rows[0]!.item).toMatchObject({
      slug,
      open: true,
      read_only: false,
      prize: "--",
    });
    await h.closeBenchmark(slug);
    expect((await h.real.benchmarkList()).rows[0]!.item).toMatchObject({
      slug,
      open: false,
      read_only: true,
    });
    expect(howToCompete("abc", "http://x")).not.toContain("predict-the-news");
  });

  // probe36 V-F5: a chainless process of a chain store printed a walk refused at steps 2 and 4
  it("a chainless walk of a prize benchmark sends the address and the run (steps 2, 4-6) to $MAIN", () => {
    const how = howToCompete("abc", "http://x", { prize: true });
    expect(how.split("\n")[0]).toMatch(
      /^0\. This server runs without the service's chain, so it cannot set a withdrawal address and takes no run, answer or finalize of this prize benchmark \(503 no_chain\): .*set the shell variable MAIN to that address first \(its operator gives it; your key works there too\)$/,
    );
    expect(how).toMatch(/^2\. .*curl -s -X PUT \$MAIN\/api\/v1\/accounts\/me\/withdrawal-address /m);
    expect(how).toMatch(/^4\. .*curl -s -X POST \$MAIN\/api\/v1\/benchmarks\/abc\/runs /m);
    expect(how).toMatch(/^5\. .*curl -s -X POST \$MAIN\/api\/v1\/benchmarks\/runs\/\$RUN_ID\/submissions /m);
    expect(how).toMatch(/^6\. .*curl -s -X POST \$MAIN\/api\/v1\/benchmarks\/runs\/\$RUN_ID\/finalize /m);
    // reads stay here
    expect(how).toContain("curl -s http://x/api/v1/benchmarks/abc/corpus");
    expect(howToCompete("abc", "http://x")).not.toContain("$MAIN");
  });

  // probe37 A-F1: the web page's walk reads the same rule (the detail's compete_at_main)
  it("competeAtMainOf is the walk's rule: its note is step 0, its flags the steps at $MAIN", () => {
    expect(competeAtMainOf(null)).toBeNull();
    for (const prize of [false, true]) {
      const at = competeAtMainOf({ prize })!;
      expect(at).toMatchObject({ withdrawal_address: true, runs: prize });
      const how = howToCompete("abc", "http://x", { prize });
      expect(how.split("\n")[0]).toBe(`0. ${at.note}`);
      expect(how.includes("POST $MAIN/api/v1/benchmarks/abc/runs ")).toBe(at.runs);
    }
  });

  it("prize amounts render in USDC without binary floats", () => {
    expect(usdcText("50000000")).toBe("50");
    expect(usdcText("12500000")).toBe("12.5");
    expect(usdcText("1")).toBe("0.000001");
  });

  it("the worked examples of the formats validate as they are", async () => {
    const h = await openTemp();
    const f = await h.real.datasetFormats();
    expect(f.examples.length).toBeGreaterThan(1);
    for (const ex of f.examples) expect((await h.real.validateDataset(ex.dataset)).errors).toEqual([]);
  });
});
