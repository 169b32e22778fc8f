/**
 * Account creation cannot be rotated around the per-address limit (issue 13 re-probe: 10 loopback
 * addresses x 21 registrations made 200 accounts). Addresses group by IPv6 /64 (an IPv4-mapped IPv6
 * address as its IPv4 address), and all addresses share one budget: REST `POST /accounts` and MCP
 * `register` both take from it, and the refusal is 429 with `Retry-After` naming the limit.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { addressGroupOf, networkGroupOf, type Limits } from "../src/index.js";
import { startLive, type Live } from "./helpers.js";

const lives: Live[] = [];
afterEach(async () => {
  await Promise.all(lives.splice(0).map((l) => l.stop()));
});
async function live(limits: Partial<Limits>): Promise<Live> {
  const l = await startLive({
    limits: { ratePerSecond: 0.001, accountPerSecond: 0.001, accountGlobalPerSecond: 0.001, ...limits },
  });
  lives.push(l);
  return l;
}

/** A POST from the loopback address `from` (127.0.0.x): another client address for the server. */
function postFrom(
  from: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; retryAfter: string | undefined; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        localAddress: from,
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            retryAfter: res.headers["retry-after"] as string | undefined,
            json: JSON.parse(text),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const MCP_HEADERS = { accept: "application/json, text/event-stream" };
const register = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "register", arguments: { name } },
});
const ADDRESSES = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 1}`);

describe("address groups", () => {
  it("IPv6 counts by its /64, IPv4-mapped IPv6 as IPv4, IPv4 as it is", () => {
    expect(addressGroupOf("127.0.0.5")).toBe("ip:127.0.0.5");
    expect(addressGroupOf("::ffff:127.0.0.5")).toBe("ip:127.0.0.5");
    expect(addressGroupOf("::ffff:7f00:5")).toBe("ip:127.0.0.5");
    const g = addressGroupOf("2001:db8:1:2::1");
    expect(g).toBe("ip6:2001:db8:1:2::/64");
    for (const a of [
      "2001:db8:1:2:ffff:ffff:ffff:ffff",
      "2001:0db8:0001:0002:0:0:0:7",
      "2001:DB8:1:2::abcd%eth0",
      "2001:db8:1:2::1.2.3.4",
    ])
      expect(addressGroupOf(a), a).toBe(g);
    expect(addressGroupOf("2001:db8:1:3::1")).not.toBe(g);
    expect(addressGroupOf("::1")).toBe("ip6:0:0:0:0::/64");
    expect(addressGroupOf("local")).toBe("ip:local");
  });
});

describe("network groups", () => {
  it("IPv4 counts by its /24 (IPv4-mapped IPv6 too), IPv6 by its /48", () => {
    expect(networkGroupOf("127.0.0.5")).toBe("net:127.0.0.0/24");
    expect(networkGroupOf("127.0.0.250")).toBe("net:127.0.0.0/24");
    expect(networkGroupOf("::ffff:127.0.0.5")).toBe("net:127.0.0.0/24");
    expect(networkGroupOf("127.0.1.5")).toBe("net:127.0.1.0/24");
    const g = networkGroupOf("2001:db8:1:2::1");
    expect(g).toBe("net6:2001:db8:1::/48");
    for (const a of ["2001:db8:1:ffff::7", "2001:0db8:0001:0000:0:0:0:1", "2001:DB8:1:2::abcd%eth0"])
      expect(networkGroupOf(a), a).toBe(g);
    expect(networkGroupOf("2001:db8:2::1")).not.toBe(g);
    expect(networkGroupOf("local")).toBe("net:local");
  });
});

describe("account creation across the addresses of one network (probe10 R10)", () => {
  it("10 addresses of one /24 create only the network's budget (429 accounts_per_network); another network still registers", async () => {
    const l = await live({ rateBurst: 1000, accountBurst: 3, accountNetworkBurst: 5, accountGlobalBurst: 8 });
    const statuses: number[] = [];
    let refusal: Awaited<ReturnType<typeof postFrom>> | undefined;
    for (const from of ADDRESSES)
      for (let i = 0; i < 3; i++) {
        const r = await postFrom(from, `${l.url}/api/v1/accounts`, { name: `net-${from}-${i}` });
        statuses.push(r.status);
        if (r.status === 429) refusal ??= r;
      }
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(Number(refusal!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refusal!.json.error).toMatchObject({
      code: "rate_limited",
      details: { limit: "accounts_per_network" },
    });
    expect(refusal!.json.error.message).toMatch(/this network/);
    // the global budget (8) was not drained by the one network: a newcomer from another /24 registers
    const newcomer = await postFrom("127.0.1.7", `${l.url}/api/v1/accounts`, { name: "net-newcomer" });
    expect(newcomer.status, JSON.stringify(newcomer.json)).toBe(201);
    // MCP register takes from the same network budget
    const mcp = await postFrom("127.0.0.77", `${l.url}/mcp`, register(1, "net-mcp"), MCP_HEADERS);
    expect(mcp.status).toBe(429);
    expect(mcp.json.error.details.limit).toBe("accounts_per_network");
    const names = await l.platform.ctx.store.db.selectFrom("accounts").select("name").execute();
    expect(names.filter((a) => a.name.startsWith("net-"))).toHaveLength(6);
  });
});

describe("account creation across rotating addresses", () => {
  it("REST: 10 loopback addresses x 4 registrations create only the global budget; 429 names the limit", async () => {
    const l = await live({ rateBurst: 1000, accountBurst: 3, accountGlobalBurst: 12 });
    const statuses: number[] = [];
    let refusal: Awaited<ReturnType<typeof postFrom>> | undefined;
    for (const from of ADDRESSES)
      for (let i = 0; i < 4; i++) {
        const r = await postFrom(from, `${l.url}/api/v1/accounts`, { name: `rot-${from}-${i}` });
        statuses.push(r.status);
        if (r.status === 429) refusal ??= r;
      }
    expect(statuses.filter((s) => s === 201)).toHaveLength(12);
    // the first address met its own limit (3) before the global one
    expect(statuses.slice(0, 4)).toEqual([201, 201, 201, 429]);
    expect(refusal!.json.error).toMatchObject({
      code: "rate_limited",
      details: { limit: "accounts_per_address" },
    });
    const last = await postFrom("127.0.0.42", `${l.url}/api/v1/accounts`, { name: "rot-last" });
    expect(last.status).toBe(429);
    expect(Number(last.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(last.json.error).toMatchObject({
      code: "rate_limited",
      details: { limit: "accounts_all_addresses" },
    });
    expect(last.json.error.message).toMatch(/all addresses/);
    const names = await l.platform.ctx.store.db.selectFrom("accounts").select("name").execute();
    expect(names.filter((a) => a.name.startsWith("rot-"))).toHaveLength(12);
  });

  it("MCP register takes from the same budgets, and a refused batch creates nothing", async () => {
    const l = await live({ rateBurst: 1000, accountBurst: 3, accountGlobalBurst: 8 });
    const created: number[] = [];
    for (const from of ADDRESSES.slice(0, 4)) {
      const r = await postFrom(
        from,
        `${l.url}/mcp`,
        [register(1, `mcp-rot-${from}-a`), register(2, `mcp-rot-${from}-b`)],
        MCP_HEADERS,
      );
      created.push(
        r.status === 200 ? r.json.filter((m: any) => m.result?.structuredContent?.api_key).length : 0,
      );
      if (r.status !== 200) {
        expect(r.status).toBe(429);
        expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(r.json.error.details.limit).toBe("accounts_all_addresses");
      }
    }
    expect(created).toEqual([2, 2, 2, 2]);
    const over = await postFrom("127.0.0.9", `${l.url}/mcp`, register(1, "mcp-rot-over"), MCP_HEADERS);
    expect(over.status).toBe(429);
    expect(over.json.error.details.limit).toBe("accounts_all_addresses");
    // REST shares it: nothing left
    const rest = await postFrom("127.0.0.10", `${l.url}/api/v1/accounts`, { name: "mcp-rot-rest" });
    expect(rest.status).toBe(429);
    const names = await l.platform.ctx.store.db.selectFrom("accounts").select("name").execute();
    expect(names.filter((a) => a.name.startsWith("mcp-rot-"))).toHaveLength(8);
  });
});
