/**
 * probe27 B-F6: the per-request timeout (`--timeout`) runs to the last byte of a dripped body even
 * when garbage collection runs while the body is read. It used `AbortSignal.timeout`, which fetch
 * holds only weakly once the headers have arrived: a collection lost it, and the read lasted until
 * the total deadline (`--deadline`, 30 min by default). The child process forces a collection every
 * 20 ms (`--expose-gc`), which made the old code lose the timeout every time.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CHILD = fileURLToPath(new URL("./fixtures/drip-under-gc.ts", import.meta.url));

describe("the per-request timeout covers a dripped body under garbage collection", () => {
  it("a pack URL, an indexer and an RPC each end with the timeout's error, never the total deadline's", () => {
    const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", CHILD], {
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.stderr).toBe("");
    const messages = JSON.parse(r.stdout) as string[];
    expect(messages).toHaveLength(6);
    for (const m of messages) {
      expect(m).not.toContain("total deadline");
      expect(m).toMatch(/did not arrive in full within 300 ms \(headers and body\)/);
    }
  });
});
