/**
 * A guard on the test suite itself: every custom error declared in IBenchmarkBounty / IAnchorRegistry is
 * asserted by name somewhere in test/ (`revertedWithCustomError(..., "Name")`), and every event is checked
 * with its arguments (`.to.emit(..., "Name").withArgs(...)`). Adding an error or event without a test
 * fails here.
 */
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { artifacts } from "hardhat";

function testSources(): string {
  return readdirSync(__dirname)
    .filter((f) => f.endsWith(".test.ts") && f !== "Interfaces.asserted.test.ts")
    .map((f) => readFileSync(join(__dirname, f), "utf8"))
    .join("\n");
}

describe("Interfaces: every error and event is asserted by a test", () => {
  for (const name of ["IBenchmarkBounty", "PayoutMath", "IAnchorRegistry"]) {
    it(`${name}: every custom error is reached and every event checked with its arguments`, async () => {
      const abi = (await artifacts.readArtifact(name)).abi as { type: string; name: string }[];
      const src = testSources();
      const errors = abi.filter((x) => x.type === "error").map((x) => x.name);
      const events = abi.filter((x) => x.type === "event").map((x) => x.name);
      expect(errors.length).to.be.greaterThan(0);
      const reverted = new Set(
        [...src.matchAll(/revertedWithCustomError\(\s*[\w.]+,\s*"(\w+)"/g)].map((m) => m[1]),
      );
      const emitted = new Set(
        [...src.matchAll(/\.to\.emit\(\s*[\w.]+,\s*"(\w+)"\s*\)\s*\.withArgs\(/g)].map((m) => m[1]),
      );
      expect(
        errors.filter((e) => !reverted.has(e)),
        "errors never asserted",
      ).to.deep.equal([]);
      expect(
        events.filter((e) => !emitted.has(e)),
        "events never checked with arguments",
      ).to.deep.equal([]);
    });
  }
});
