/**
 * probe27 B-F6 (the client's part): `timeoutMs` bounds a request to the last byte of its answer even
 * when garbage collection runs while the body is read. It was `AbortSignal.timeout`, which fetch holds
 * only weakly once the headers have arrived: a collection lost it and the read waited for the server
 * (a dripping server: for ever). The child process forces a collection every 20 ms (`--expose-gc`).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CHILD = fileURLToPath(new URL("./fixtures/drip-under-gc.ts", import.meta.url));

describe("the client's timeout covers a dripped body under garbage collection", () => {
  it("each read ends with network_error naming the timeout, never reads on", () => {
    const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", CHILD], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.stderr).toBe("");
    const { base, outcomes } = JSON.parse(r.stdout) as { base: string; outcomes: string[] };
    expect(outcomes).toEqual(
      Array(3).fill(
        `network_error: GET ${base}/api/v1/accounts/me: reading the answer failed: the answer did not arrive in full within 1500 ms (headers and body)`,
      ),
    );
  }, 60_000);
});
