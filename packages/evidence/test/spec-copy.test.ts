/**
 * `spec/` holds byte-identical copies of the project's `shared/SPEC.md` and
 * `shared/vectors/` (see `spec/README.md`). When `../shared` sits beside the
 * repository root, every copied file must equal its source; the comparison itself
 * is checked on a temporary copy with one file edited, one removed, one added.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sharedBesideRepo, specDir, specDrift } from "./vectors.js";

describe("spec/ is the protocol carried in the repository", () => {
  it("holds SPEC.md and the vectors the tests read", () => {
    expect(existsSync(path.join(specDir, "SPEC.md"))).toBe(true);
    for (const f of ["canonical-json.json", "commitment.json", "packs/small.json", "packs/zero-winner.json"])
      expect(existsSync(path.join(specDir, "vectors", f)), f).toBe(true);
  });

  const haveShared = existsSync(path.join(sharedBesideRepo, "SPEC.md"));
  if (!haveShared)
    console.log(`*** SKIPPED *** spec/ against ${sharedBesideRepo}: no shared folder beside the repository`);
  it.runIf(haveShared)("is byte-identical to ../shared (SPEC.md and every vector file)", () => {
    expect(specDrift(specDir, sharedBesideRepo)).toEqual([]);
  });

  describe("the drift check names each file that drifted", () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "evidence-spec-drift-"));
    afterAll(() => rmSync(tmp, { recursive: true, force: true }));
    const source = path.join(tmp, "shared");
    const copy = path.join(tmp, "spec");
    cpSync(specDir, source, { recursive: true });
    cpSync(specDir, copy, { recursive: true });
    rmSync(path.join(source, "README.md")); // spec/README.md is the repository's own, not a copy

    it("finds nothing in an exact copy", () => {
      expect(specDrift(copy, source)).toEqual([]);
    });

    it("names an edited, a missing and an extra file", () => {
      writeFileSync(path.join(copy, "vectors", "packs", "small.json"), "{}");
      unlinkSync(path.join(copy, "SPEC.md"));
      writeFileSync(path.join(copy, "vectors", "extra.json"), "[]");
      const drift = specDrift(copy, source);
      expect(drift).toHaveLength(3);
      expect(drift[0]).toMatch(/^spec\/SPEC\.md is missing/);
      expect(drift[1]).toMatch(
        /^spec\/vectors\/packs\/small\.json differs from .*shared\/vectors\/packs\/small\.json$/,
      );
      expect(drift[2]).toMatch(/^spec\/vectors\/extra\.json is not in /);
    });
  });
});
