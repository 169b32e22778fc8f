import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "index.js");
const smallPack = join(here, "..", "..", "..", "spec", "vectors", "packs", "small.json");

function cli(args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
}

describe("bench-bounty CLI (composed)", () => {
  it("lists the platform and the verifier commands", () => {
    expect(existsSync(bin), "build the package first").toBe(true);
    const res = cli(["--help"]);
    expect(res.status).toBe(0);
    for (const command of ["publish", "run", "award", "serve", "verify", "verify-receipt"]) {
      expect(res.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, "m"));
    }
  });

  it("verifies the shared vector pack offline and names the policy", () => {
    const res = cli(["verify", smallPack, "--policy", "offline", "--json"]);
    expect(res.status).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.schema).toBe("bench-bounty.verification.v1");
    expect(report.policy).toBe("offline");
    expect(report.policy_met).toBe(true);
    expect(report.facts.pack_hash.state).toBe("verified");
  });

  it("refuses a file that is not JSON with the bad-input exit code and no stack trace", () => {
    const res = cli(["verify", join(here, "cli.test.ts"), "--policy", "offline"]);
    expect(res.status).toBe(2);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
