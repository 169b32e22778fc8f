/**
 * probe39 B-N1: the pack's `benchmark.grader_types` examples (SPEC 8: "the grading semantics above, as
 * text and examples") are checked by the `schema` fact: each example's gold is a valid gold of its
 * grader (the test set's rule) and its stated credit is the grade of its answer. A forger who rewrites an
 * example and re-hashes the pack fails `schema` naming the example's JSON path (exit 1); the
 * `semantics` text cannot be checked, and the fact says so.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packHash, type JsonObject } from "@bench-bounty/evidence";
import { describe, expect, it } from "vitest";
import { FACT_NAMES, verifyPack } from "../src/index.js";
import { VECTORS, at, expected, packTree, runCliSync, toBytes } from "./helpers.js";

const GT = "$.benchmark.grader_types";

/** The small vector pack with `edit` applied to its grader_types, re-hashed like a forger. */
function forged(edit: (gt: any) => void, name: "small" | "zero-winner" = "small"): JsonObject {
  const tree = packTree(name);
  edit(at(tree, "benchmark", "grader_types"));
  tree.pack_hash = packHash(tree as never);
  return tree;
}

/** Verify offline; every fact but `schema` keeps the vector's expected state. */
async function verifyForged(tree: JsonObject, name: "small" | "zero-winner" = "small") {
  const report = await verifyPack({ source: toBytes(tree) });
  const exp = expected(name);
  for (const f of FACT_NAMES)
    if (f !== "schema") expect({ f, state: report.facts[f].state }).toEqual({ f, state: exp.facts[f] });
  return report;
}

describe("grader_types examples are checked by the schema fact (probe39 B-N1)", () => {
  it.each(["small", "zero-winner"] as const)(
    "the honest %s pack: schema verified, the texts said unchecked",
    async (name) => {
      const report = await verifyPack({ source: toBytes(packTree(name)) });
      expect(report.facts.schema.state).toBe("verified");
      expect(report.facts.schema.reasons).toEqual([
        "SPEC 2-8 formats hold; 7 grader_types examples regrade; semantics not checked",
        "every block follows the format rules of SPEC 2-8 (evidence pack schema)",
        "the 7 grader_types examples regrade to their stated credits from valid golds (SPEC 5)",
        "the grader_types gold_shape and semantics texts are descriptive, bound by the pack hash and anchors, not checked",
      ]);
      expect(report.policy_met).toBe(expected(name).policy_met);
    },
  );

  it("an exact example whose credit contradicts its grader (gold London, answer Paris, credit 1/1) fails schema", async () => {
    const tree = forged((gt) => {
      gt.exact.examples[0] = { answer: "Paris", gold: { value: "London" }, credit: "1/1" };
    });
    const report = await verifyForged(tree);
    expect(report.facts.schema).toEqual({
      state: "failed",
      reasons: [
        `${GT}.exact.examples[0].credit: the example states credit "1/1", grading its answer "Paris" against its gold with the exact grader (SPEC 5) gives 0/1`,
      ],
    });
    expect(report.policy_met).toBe(false);
    expect(report.policy_unmet).toEqual(["schema"]);
  });

  it("a numeric example gold with a negative tolerance fails schema at the tolerance", async () => {
    const tree = forged((gt) => {
      gt.numeric.examples[1] = { gold: { value: -1, tolerance: "-5" }, answer: "-1", credit: "0/1" };
    }, "zero-winner");
    const report = await verifyForged(tree, "zero-winner");
    expect(report.facts.schema).toEqual({
      state: "failed",
      reasons: [`${GT}.numeric.examples[1].gold.tolerance: tolerance must be >= 0`],
    });
    expect(report.policy_unmet).toEqual(["schema"]);
  });

  it("an example gold of the wrong shape fails schema naming its path", async () => {
    const tree = forged((gt) => {
      gt.contains_all.examples[0].gold = { terms: [] };
      gt.json_fields.examples[0].gold.extra = 1;
    });
    const report = await verifyForged(tree);
    expect(report.facts.schema.state).toBe("failed");
    expect(report.facts.schema.reasons).toEqual([
      `${GT}.contains_all.examples[0].gold.terms: terms is empty (no usable terms)`,
      `${GT}.json_fields.examples[0].gold.extra: unknown key "extra" in json_fields gold (allowed: fields)`,
    ]);
  });

  it("a rewritten semantics text is not checked (the fact says so)", async () => {
    const tree = forged((gt) => {
      gt.exact.semantics = "1 if the answer is longer than the gold.";
    });
    const report = await verifyForged(tree);
    expect(report.facts.schema.state).toBe("verified");
    expect(report.facts.schema.reasons.join("\n")).toContain("semantics texts are descriptive");
  });

  it("the CLI exits 1 on the forged exact example and names its path", () => {
    const tree = forged((gt) => {
      gt.exact.examples[0] = { answer: "Paris", gold: { value: "London" }, credit: "1/1" };
    });
    const dir = mkdtempSync(join(tmpdir(), "verify-examples-"));
    const file = join(dir, "pack.json");
    writeFileSync(file, toBytes(tree));
    const r = runCliSync(["verify", file]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/policy offline: NOT MET/);
    expect(r.stdout).toContain(`${GT}.exact.examples[0].credit`);
    // the honest pack's table line says the texts are not checked
    const honest = runCliSync(["verify", join(VECTORS, "small.json")]);
    expect(honest.code).toBe(0);
    expect(honest.stdout).toMatch(
      /^schema +ok verified +SPEC 2-8 formats hold; 7 grader_types examples regrade; semantics not checked$/m,
    );
  });
});
