import { keccak_256 } from "@noble/hashes/sha3";
import { bytesToHex } from "@noble/hashes/utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EvidenceError,
  canonicalJsonString,
  commitTestSet,
  goldLeaf,
  leafFromParts,
  leafHash,
  merkleProof,
  merkleRootBytes,
  merkleRoot,
  promptHash,
  verifyProof,
  type TestSetRow,
} from "../src/index.js";
import { vector } from "./vectors.js";

const v = vector("commitment.json");

describe("commitment.json vectors (SPEC 3)", () => {
  for (const ts of v.test_sets) {
    it(`${ts.name}: prompt hashes, gold leaves, leaves, root and leaf count`, () => {
      const c = commitTestSet(ts.rows);
      expect(c.root).toBe(ts.root);
      expect(c.leafCount).toBe(ts.leaf_count);
      ts.derived.forEach(
        (
          d: {
            ordinal: number;
            prompt_hash: string;
            gold_canonical: string;
            gold_leaf: string;
            leaf: string;
          },
          i: number,
        ) => {
          const row = ts.rows[i] as TestSetRow;
          expect(canonicalJsonString(row.gold)).toBe(d.gold_canonical);
          expect(promptHash(row.prompt)).toBe(d.prompt_hash);
          expect(goldLeaf(row.gold, row.salt)).toBe(d.gold_leaf);
          expect(leafHash(row)).toBe(d.leaf);
          expect(c.leaves[i]).toBe(d.leaf);
          expect(c.derived[i]).toEqual({
            ordinal: d.ordinal,
            prompt_hash: d.prompt_hash,
            gold_leaf: d.gold_leaf,
            leaf: d.leaf,
          });
        },
      );
      expect(merkleRoot(c.leaves)).toBe(ts.root);
    });
  }

  for (const p of v.proofs) {
    it(`proof ${p.test_set}[${p.index}]: siblings match and verify`, () => {
      const ts = v.test_sets.find((t: { name: string }) => t.name === p.test_set);
      const leaves = ts.derived.map((d: { leaf: string }) => d.leaf);
      expect(merkleProof(leaves, p.index)).toEqual({ index: p.index, siblings: p.siblings });
      expect(verifyProof(p.leaf, { index: p.index, siblings: p.siblings }, p.root, p.leaf_count)).toBe(true);
    });
  }

  it("duplication: [a,b,c] and [a,b,c,c] share a root (why leaf_count is pinned)", () => {
    const d = v.duplication;
    expect(merkleRoot(d.leaves)).toBe(d.root);
    expect(merkleRoot(d.leaves_last_duplicated)).toBe(d.root_last_duplicated);
    expect(d.leaves.length).toBe(d.leaf_count);
    expect(d.leaves_last_duplicated.length).toBe(d.leaf_count_last_duplicated);
  });
});

describe("proofs", () => {
  const seven = v.test_sets.find((t: { name: string }) => t.name === "seven-rows");
  const leaves: string[] = seven.derived.map((d: { leaf: string }) => d.leaf);

  it("every index of every vector test set verifies", () => {
    for (const ts of v.test_sets) {
      const ls: string[] = ts.derived.map((d: { leaf: string }) => d.leaf);
      ls.forEach((leaf, i) => expect(verifyProof(leaf, merkleProof(ls, i), ts.root, ls.length)).toBe(true));
    }
  });

  it("fails for a wrong leaf, sibling, index, root or leaf count", () => {
    const p = merkleProof(leaves, 2);
    const other = leaves[3] as string;
    expect(verifyProof(other, p, seven.root, 7)).toBe(false);
    expect(verifyProof(leaves[2] as string, { index: 3, siblings: p.siblings }, seven.root, 7)).toBe(false);
    expect(p.siblings[0]).toBe(leaves[3]);
    expect(
      verifyProof(
        leaves[2] as string,
        { index: 2, siblings: [leaves[4] as string, ...p.siblings.slice(1)] },
        seven.root,
        7,
      ),
    ).toBe(false);
    expect(verifyProof(leaves[2] as string, p, leaves[0] as string, 7)).toBe(false);
    // a leaf count that changes the tree height does not verify (same-height counts are told apart by the pinned leaf_count)
    expect(verifyProof(leaves[2] as string, p, seven.root, 4)).toBe(false);
    expect(verifyProof(leaves[2] as string, p, seven.root, 9)).toBe(false);
    expect(
      verifyProof(leaves[2] as string, { index: 2, siblings: [...p.siblings, other] }, seven.root, 7),
    ).toBe(false);
    expect(verifyProof("0x1234", p, seven.root, 7)).toBe(false);
  });

  it("refuses an out-of-range index", () => {
    expect(() => merkleProof(leaves, 7)).toThrow(EvidenceError);
  });
});

describe("commitTestSet input rules", () => {
  const base = v.test_sets.find((t: { name: string }) => t.name === "three-rows").rows as TestSetRow[];

  it("refuses zero rows", () => {
    expect(() => commitTestSet([])).toThrow(/at least one row/);
    expect(() => merkleRoot([])).toThrow(EvidenceError);
  });

  it("refuses ordinals that are not exactly 0..n-1, naming the row", () => {
    const swapped = [base[1], base[0], base[2]] as TestSetRow[];
    try {
      commitTestSet(swapped);
      throw new Error("not refused");
    } catch (e) {
      expect((e as EvidenceError).code).toBe("bad_test_set");
      expect((e as EvidenceError).path).toBe("$[0].ordinal");
    }
  });

  it("refuses a salt that is not 64 lowercase hex", () => {
    const rows = base.map((r, i) => (i === 2 ? { ...r, salt: r.salt.toUpperCase() } : r));
    expect(() => commitTestSet(rows)).toThrow(/\$\[2\]\.salt/);
  });

  it("names the nested JSON path of a bad gold under the caller's base path", () => {
    const rows = base.map((r, i) => (i === 1 ? { ...r, gold: { value: { x: Infinity } } } : r));
    try {
      commitTestSet(rows as TestSetRow[], "$.test_set");
      throw new Error("not refused");
    } catch (e) {
      expect(e).toBeInstanceOf(EvidenceError);
      expect((e as EvidenceError).path).toBe("$.test_set[1].gold.value.x");
      expect((e as EvidenceError).message).toBe("$.test_set[1].gold.value.x: Infinity is not JSON");
    }
  });

  it("hashes the salt's characters, not its decoded bytes", () => {
    const row = base[0] as TestSetRow;
    expect(goldLeaf(row.gold, row.salt)).not.toBe(goldLeaf(row.gold, "0".repeat(64)));
  });
});

/** SPEC 3 written out naively (text template, recursion, @noble/hashes): the reference for the byte-level fast paths. */
const referenceLeaf = (ordinal: number, ph: string, gl: string): string =>
  bytesToHex(keccak_256(`{"gold_leaf":"${gl}","ordinal":${ordinal},"prompt_hash":"${ph}"}`));
function referenceRoot(level: Uint8Array[]): string {
  if (level.length === 1) return bytesToHex(level[0] as Uint8Array);
  const next: Uint8Array[] = [];
  for (let i = 0; i < level.length; i += 2) {
    const l = level[i] as Uint8Array;
    const r = level[i + 1] ?? l;
    next.push(keccak_256(new Uint8Array([...l, ...r])));
  }
  return referenceRoot(next);
}
const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => bytesToHex(b));

describe("byte-level leaf preimage and in-place fold against the SPEC 3 definitions", () => {
  it("leafFromParts equals keccak256 of the canonical leaf JSON text for any safe ordinal", () => {
    const edge = [0, 1, 9, 10, 99, 100, 65_535, 99_999, 100_000, 2 ** 31, Number.MAX_SAFE_INTEGER, -1, -10];
    const ordinal = fc.oneof(fc.constantFrom(...edge), fc.maxSafeInteger());
    fc.assert(
      fc.property(ordinal, hex64, hex64, (i, ph, gl) => {
        expect(bytesToHex(leafFromParts(i, ph, gl))).toBe(referenceLeaf(i, ph, gl));
      }),
      { numRuns: 500, seed: 20261130 },
    );
  });

  it("leafFromParts refuses an ordinal that is not a safe integer and parts that are not 64 lowercase hex", () => {
    const ok = "ab".repeat(32);
    for (const bad of [1.5, Number.NaN, Infinity, 2 ** 53, -(2 ** 53)])
      expect(() => leafFromParts(bad, ok, ok)).toThrow(
        /\$\.ordinal: the ordinal must be a safe integer, got the (float|number) /,
      );
    for (const bad of [ok.toUpperCase(), ok.slice(1), `0x${ok.slice(2)}`, `${ok}0`, "g".repeat(64), ""]) {
      expect(() => leafFromParts(0, bad, ok)).toThrow(/prompt_hash must be 64 lowercase hex/);
      expect(() => leafFromParts(0, ok, bad)).toThrow(/gold_leaf must be 64 lowercase hex/);
    }
  });

  it("merkleRootBytes equals the recursive fold for 1 to 70 leaves and leaves its input untouched", () => {
    for (let n = 1; n <= 70; n++) {
      const leaves = Array.from({ length: n }, (_, i) => keccak_256(`leaf ${n}/${i}`));
      const before = leaves.map((l) => bytesToHex(l));
      expect(bytesToHex(merkleRootBytes(leaves)), `n = ${n}`).toBe(referenceRoot(leaves));
      expect(leaves.map((l) => bytesToHex(l))).toEqual(before);
    }
  });

  it("commitTestSet's in-place fold gives merkleRoot of its own leaves for every size up to 40", () => {
    const row = (i: number): TestSetRow => ({
      ordinal: i,
      prompt: `prompt ${i} \u00e9\u{1F600}`,
      gold: { value: `gold ${i}` },
      salt: bytesToHex(keccak_256(`salt ${i}`)),
      visibility: "private",
      grader_type: "exact",
    });
    for (let n = 1; n <= 40; n++) {
      const c = commitTestSet(Array.from({ length: n }, (_, i) => row(i)));
      expect(c.root, `n = ${n}`).toBe(`0x${referenceRoot(c.leaves.map((l) => digestBytes(l)))}`);
      c.derived.forEach((d, i) => expect(d.leaf).toBe(`0x${referenceLeaf(i, d.prompt_hash, d.gold_leaf)}`));
    }
  });

  it("merkleRootBytes refuses a leaf that is not 32 bytes, naming its index", () => {
    const good = new Uint8Array(32);
    expect(() => merkleRootBytes([good, new Uint8Array(31)])).toThrow(/\$\[1\]: a leaf must be 32 bytes/);
    expect(() => merkleRootBytes([new Uint8Array(33)])).toThrow(/\$\[0\]: a leaf must be 32 bytes/);
  });
});

/** Bytes of a `0x` hex digest (test helper, no library code involved). */
function digestBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), "hex"));
}

describe("goldLeaf salt check (while the salt is copied)", () => {
  const good = "ab".repeat(32);
  it("refuses a salt with a character whose low byte is a hex digit (U+0130 is not '0')", () => {
    const bad = "\u0130" + good.slice(1);
    expect(() => goldLeaf({ value: "x" }, bad)).toThrow(/salt must be 64 lowercase hex/);
    expect(() => goldLeaf({ value: "x" }, good.toUpperCase())).toThrow(/salt must be 64 lowercase hex/);
    expect(() => goldLeaf({ value: "x" }, good + "0")).toThrow(/salt must be 64 lowercase hex/);
  });
  it("names a bad salt before bad gold, and bad gold with a good salt", () => {
    expect(() => goldLeaf({ value: Number.NaN }, "Z".repeat(64), "$[3]")).toThrow(
      expect.objectContaining({ code: "bad_test_set", path: "$[3].salt" }),
    );
    expect(() => goldLeaf({ value: Number.NaN }, good, "$[3]")).toThrow(
      expect.objectContaining({ path: expect.stringMatching(/^\$\[3\]\.gold/) }),
    );
  });
  it("hashes canonical_json(gold) || salt", () => {
    const expected = bytesToHex(
      keccak_256(new TextEncoder().encode(canonicalJsonString({ value: "x" }) + good)),
    );
    expect(goldLeaf({ value: "x" }, good)).toBe(expected);
  });
});
