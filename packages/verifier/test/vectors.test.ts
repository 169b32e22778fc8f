/**
 * The shared vector packs verify offline with exactly the facts, policy and
 * values of their `*.expected.json` (written by an independent implementation).
 */
import { describe, expect, it } from "vitest";
import { FACT_NAMES, verifyPack } from "../src/index.js";
import { expected, packBytes, packTree, toBytes } from "./helpers.js";

describe.each(["small", "zero-winner"])("vector pack %s", (name) => {
  const exp = expected(name);

  it("verifies offline with the expected facts, policy and values", async () => {
    const report = await verifyPack({ source: packBytes(name), policy: "offline" });
    const states = Object.fromEntries(FACT_NAMES.map((n) => [n, report.facts[n].state]));
    expect(states).toEqual(exp.facts);
    expect(Object.keys(exp.facts).sort()).toEqual([...FACT_NAMES].sort());
    expect(report.schema).toBe("bench-bounty.verification.v1");
    expect(report.policy).toBe(exp.policy);
    expect(report.policy_met).toBe(exp.policy_met);
    expect(report.values).toEqual(exp.values);
  });

  it("reads the pack from a file path as well as from bytes", async () => {
    const report = await verifyPack({
      source: `${new URL(`../../../spec/vectors/packs/${name}.json`, import.meta.url).pathname}`,
    });
    expect(report.policy_met).toBe(true);
    expect(report.observed.pack).toMatch(/^file /);
  });

  it("still verifies after editing verify_hints (not hashed)", async () => {
    const tree = packTree(name);
    tree.verify_hints = { summary: "edited by someone else", steps: [] };
    const report = await verifyPack({ source: toBytes(tree) });
    expect(Object.fromEntries(FACT_NAMES.map((n) => [n, report.facts[n].state]))).toEqual(exp.facts);
    expect(report.values.pack_hash).toBe(exp.values.pack_hash);
  });

  it("still verifies after re-formatting the JSON (indentation, key order)", async () => {
    // JSON.parse/stringify would lose the vectors' big integers and floats, so re-indent the original text instead
    const text = new TextDecoder().decode(packBytes(name));
    const reindented = text.replace(/\n( *)/g, (_m, sp: string) => `\r\n${"\t".repeat(sp.length)}`);
    expect(reindented).not.toBe(text);
    const r1 = await verifyPack({ source: new TextEncoder().encode(reindented) });
    expect(r1.policy_met).toBe(true);
    expect(r1.values.pack_hash).toBe(exp.values.pack_hash);
    // key order: reverse keys on the lossless tree and serialize with spaces
    const tree = packTree(name);
    const reorder = (v: any): any =>
      Array.isArray(v)
        ? v.map(reorder)
        : v !== null && typeof v === "object" && !("lexeme" in v)
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reorder(x)]),
            )
          : v;
    const reordered = reorder(tree);
    expect(Object.keys(reordered)[0]).toBe("verify_hints");
    const r2 = await verifyPack({ source: spacedJson(reordered) });
    expect(Object.fromEntries(FACT_NAMES.map((n) => [n, r2.facts[n].state]))).toEqual(exp.facts);
    expect(r2.values.pack_hash).toBe(exp.values.pack_hash);
  });
});

/** JSON with spaces and newlines, keeping the tree's key order and lossless numbers. */
function spacedJson(v: any): Uint8Array {
  const render = (x: any, ind: string): string => {
    if (Array.isArray(x))
      return x.length === 0
        ? "[ ]"
        : `[\n${x.map((e) => `${ind}  ${render(e, ind + "  ")}`).join(",\n")}\n${ind}]`;
    if (x !== null && typeof x === "object" && "lexeme" in x) return x.lexeme;
    if (x !== null && typeof x === "object")
      return `{\n${Object.entries(x)
        .map(([k, e]) => `${ind}  ${JSON.stringify(k)} : ${render(e, ind + "  ")}`)
        .join(",\n")}\n${ind}}`;
    if (typeof x === "bigint") return x.toString();
    return JSON.stringify(x);
  };
  return new TextEncoder().encode(render(v, ""));
}
