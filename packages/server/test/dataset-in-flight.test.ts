/**
 * probe13 A3: dataset bodies waiting for the one check worker were all held in memory, bounded only per
 * account (12 bodies of 60 MB from 6 free accounts took the server to 1.4 GB). The whole process holds
 * at most `datasetBytesInFlight` bytes of dataset bodies: past it a body is 503 `server_busy` with
 * `Retry-After`, refused from its declared length before it is read, and nothing is taken from the
 * caller's bucket; the bytes come back when the holding request ends (a client closing mid-body is
 * `request_aborted`, not an unexpected error in the server's log).
 */
import { describe, expect, it } from "vitest";
import { BytesInFlight } from "../src/middleware/limits.js";
import { call, citiesDataset, holdBody, register, useLive } from "./helpers.js";

const CAP = 64 * 1024;
const MIB = 1024 * 1024;
const logged: unknown[] = [];
const live = useLive({
  limits: { datasetBodyBytes: CAP, datasetBytesInFlight: CAP },
  log: (e) => logged.push(e),
});

describe("dataset bytes the process holds", () => {
  it("a body past the process's share is 503 server_busy before it is read; its bytes come back after", async () => {
    const a = await register(live.url, "inflight-a");
    const b = await register(live.url, "inflight-b");
    const held = holdBody(live.url, "/api/v1/datasets/validate", a.key, CAP, '{"name":"x');
    await new Promise((r) => setTimeout(r, 200)); // the held request is being read
    const body = JSON.stringify(citiesDataset(3, "inflight"));
    const busy = await call(live.url, "POST", "/api/v1/datasets/validate", { key: b.key, raw: body });
    expect(busy.status, busy.text).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(busy.json.error).toMatchObject({
      code: "server_busy",
      details: { limit: "dataset_bytes_in_flight_per_network", limit_bytes: CAP, held_bytes: CAP },
    });
    held.abort();
    await new Promise((r) => setTimeout(r, 200)); // the held request ends
    const ok = await call(live.url, "POST", "/api/v1/datasets/validate", { key: b.key, raw: body });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.ok).toBe(true);
    // the client that closed mid-body is no server fault: nothing logged as unexpected
    expect(logged).toEqual([]);
  });
});

// probe14 D1-F19: a chunked dataset body reserved its whole limit (64 MiB) at its first byte, so four
// one-byte trickles from four networks held the whole dataset budget for a minute each.
describe("a chunked dataset body", () => {
  const wide = useLive({ limits: { datasetBodyBytes: 4 * MIB, datasetBytesInFlight: 4 * MIB } });
  it("holds about what it has sent (1 MiB steps), not its limit: another upload still fits", async () => {
    const a = await register(wide.url, "chunked-a");
    const b = await register(wide.url, "chunked-b");
    const trickles = [0, 1, 2].map(() =>
      holdBody(wide.url, "/api/v1/datasets/validate", a.key, null, '{"name":"x'),
    );
    await new Promise((r) => setTimeout(r, 300)); // the trickles are being read
    const body = JSON.stringify(citiesDataset(3, "chunked"));
    const ok = await call(wide.url, "POST", "/api/v1/datasets/validate", { key: b.key, raw: body });
    expect(ok.status, ok.text).toBe(200);
    // a declared body of the whole budget does not fit beside the three 1 MiB steps held
    const big = await call(wide.url, "POST", "/api/v1/datasets/validate", {
      key: b.key,
      raw: " ".repeat(4 * MIB - 16) + body.slice(0, 10),
    });
    expect(big.status, big.text).toBe(503);
    expect(big.json.error.details.held_bytes).toBe(3 * MIB);
    for (const t of trickles) t.abort();
  });
});

describe("BytesInFlight: a network's share and the process's capacity", () => {
  it("one network holds at most its share; other networks are served until the capacity (probe13 C2)", () => {
    const g = new BytesInFlight(100, 40);
    const a1 = g.reserve(40, "net:10.0.0.0/24");
    expect(() => g.reserve(1, "net:10.0.0.0/24")).toThrow(/your network holds 40 bytes/);
    const b = g.reserve(40, "net:10.0.1.0/24");
    const c = g.reserve(20, "net:10.0.2.0/24");
    // the process is full: a fourth network is refused naming the process's limit
    try {
      g.reserve(1, "net:10.0.3.0/24");
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({
        code: "server_busy",
        details: { limit: "dataset_bytes_in_flight", held_bytes: 100 },
      });
    }
    a1();
    a1(); // a second release changes nothing
    expect(() => g.reserve(40, "net:10.0.0.0/24")).not.toThrow();
    b();
    c();
  });
});
