/**
 * probe13 C7 and C8. C7: answers and keyed MCP calls (up to `bodyBytes` each) were held whole with no
 * bound for the process: 50 held 4 MB submissions took 200 MB. A body over 64 KiB now reserves its
 * declared length from `bodyBytesInFlight`, a quarter of it per client network: past it 503
 * `server_busy` before it is read. C8: a bodyless request on a dataset path (a 405, or a POST without a
 * body) reserved and was charged a whole dataset body (64 MiB), so the caller's next upload was 429.
 */
import { describe, expect, it } from "vitest";
import { call, citiesDataset, holdBody, register, useLive } from "./helpers.js";

const BODY = 256 * 1024;
const live = useLive({ limits: { bodyBytes: BODY, bodyBytesInFlight: BODY } });

describe("request bodies the process holds", () => {
  it("a large body past the network's share is 503 server_busy before it is read; small ones pass (C7)", async () => {
    const a = await register(live.url, "bodies-a");
    const b = await register(live.url, "bodies-b");
    const held = holdBody(
      live.url,
      "/api/v1/benchmarks/runs/run-0123456789abcdef/submissions",
      a.key,
      BODY,
      '{"answers":[',
    );
    await new Promise((r) => setTimeout(r, 200));
    const big = JSON.stringify({ answers: [{ ordinal: 0, answer_text: "x".repeat(100 * 1024) }] });
    const busy = await call(live.url, "POST", "/api/v1/benchmarks/runs/run-0123456789abcdef/submissions", {
      key: b.key,
      raw: big,
    });
    expect(busy.status, busy.text).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(busy.json.error.details).toMatchObject({
      limit: "body_bytes_in_flight_per_network",
      held_bytes: BODY,
    });
    // a small body is not counted: answered by its route (no such run here)
    const small = await call(live.url, "POST", "/api/v1/benchmarks/runs/run-0123456789abcdef/submissions", {
      key: b.key,
      body: { answers: [{ ordinal: 0, answer_text: "x" }] },
    });
    expect(small.status).toBe(404);
    held.abort();
    await new Promise((r) => setTimeout(r, 200));
    const after = await call(live.url, "POST", "/api/v1/benchmarks/runs/run-0123456789abcdef/submissions", {
      key: b.key,
      raw: big,
    });
    expect(after.status).toBe(404); // read and answered by the route
  });

  it("a bodyless request on a dataset path costs nothing: 405 stays 405, an upload right after is served (C8)", async () => {
    const a = await register(live.url, "bodies-c8");
    for (let i = 0; i < 4; i++) {
      expect((await call(live.url, "DELETE", "/api/v1/datasets", { key: a.key })).status).toBe(405);
      expect((await call(live.url, "PUT", "/api/v1/datasets/validate", { key: a.key })).status).toBe(405);
      expect((await call(live.url, "POST", "/api/v1/datasets/validate", { key: a.key })).status).toBe(415);
    }
    const ok = await call(live.url, "POST", "/api/v1/datasets/validate", {
      key: a.key,
      body: citiesDataset(3, "c8"),
    });
    expect(ok.status, ok.text).toBe(200);
  });
});
