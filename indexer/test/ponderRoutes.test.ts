/**
 * Issue 13, probe9 Q3 against a live indexer (PGlite): Ponder answers `/metrics`, `/health`,
 * `/ready` and `/status` itself, before our app, so our query guard never sees them. The pnpm
 * patch of ponder (`patches/ponder@0.16.10.patch`) refuses any query parameter on those four paths
 * with our 400 `invalid_parameter` body naming the parameter; without one (a bare `?` is no query,
 * as on our routes) they answer as before. Requests go through `node:http` with the raw path: `fetch` drops a bare `?`.
 */
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIndexer, type RunningIndexer } from "../testing/startIndexer.js";

/** GET `path` exactly as written (no URL normalization). */
function rawGet(port: number, path: string): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: "GET" }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), text }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("Ponder's own routes refuse query parameters", () => {
  let dc: DevChain;
  let ix: RunningIndexer;

  beforeAll(async () => {
    dc = await startDevChain();
    ix = await startIndexer({ chain: dc });
  });
  afterAll(async () => {
    await ix?.stop();
    await dc?.stop();
  });

  it("answers 400 invalid_parameter naming the parameter on /status, /health, /ready, /metrics", async () => {
    const cases: [string, string][] = [
      ["/status?x=1", "x"],
      ["/health?x=1", "x"],
      ["/ready?x=1", "x"],
      ["/metrics?x=1", "x"],
      ["/status?=", ""],
      ["/health?&x=1", ""],
      ["/ready?a=1&a=2", "a"],
      ["/metrics?%78y=1", "xy"],
      ["/status?verbose", "verbose"],
    ];
    for (const [path, parameter] of cases) {
      const res = await rawGet(ix.port, path);
      expect(res.status, path).toBe(400);
      expect(res.type, path).toMatch(/^application\/json/);
      const body = JSON.parse(res.text) as { error: { code: string; parameter: string; message: string } };
      expect(body.error, path).toMatchObject({ code: "invalid_parameter", parameter });
      const route = path.split("?")[0]!;
      expect(body.error.message, path).toContain(`${route} takes no query parameters`);
      if (parameter !== "") expect(body.error.message, path).toContain(`"${parameter}"`);
      expect(Object.keys(body.error).sort(), path).toEqual(["code", "message", "parameter"]);
    }
    // The same shape and code as our own routes.
    const ours = JSON.parse((await rawGet(ix.port, "/awards?x=1")).text) as { error: object };
    expect(ours.error).toMatchObject({ code: "invalid_parameter", parameter: "x" });
  });

  it("answers as before without a query string", async () => {
    const status = await rawGet(ix.port, "/status");
    expect(status.status).toBe(200);
    const bare = await rawGet(ix.port, "/status?"); // no query, as on our own routes (`/awards?`)
    expect([bare.status, bare.text]).toEqual([200, status.text]);
    expect((await rawGet(ix.port, "/awards?")).status).toBe(200);
    expect(status.type).toMatch(/^application\/json/);
    const chains = Object.values(JSON.parse(status.text) as Record<string, { id: number }>);
    expect(chains.map((c) => c.id)).toEqual([dc.chainId]);
    expect((await rawGet(ix.port, "/health")).status).toBe(200);
    expect([200, 503]).toContain((await rawGet(ix.port, "/ready")).status);
    const metrics = await rawGet(ix.port, "/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain("ponder_");
    // Other paths are not touched by the patch: our app still answers them.
    expect((await rawGet(ix.port, "/anomalies")).status).toBe(200);
  });
});
