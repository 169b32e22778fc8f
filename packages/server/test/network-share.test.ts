/**
 * probe30 A-F7 over HTTP: free accounts of one client network (127.0.0.x, one /24) filled the
 * all-accounts dataset budget, and an author of another network (127.0.1.1) was then refused every
 * upload. An account records the network it was registered from (REST `POST /accounts` and MCP
 * `register`), and the accounts of one network share a quarter of each all-accounts budget.
 */
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startLive, type Live } from "./helpers.js";

const lives: Live[] = [];
afterEach(async () => {
  await Promise.all(lives.splice(0).map((l) => l.stop()));
});

/** A request from the loopback address `from` (another client address for the server); JSON answer. */
function from(
  address: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        localAddress: address,
        headers: { "content-type": "application/json", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/** A dataset of 20 rows of about 150 bytes each (3,000 and some bytes stored). */
const dataset = (name: string) => ({
  name,
  rows: Array.from({ length: 20 }, (_, i) => ({
    decision_ts: "2026-01-01",
    payload: { q: `${name}-${i}-${"x".repeat(100)}` },
    label: "x",
  })),
});

describe("one client network's accounts share a quarter of the all-accounts dataset budget (probe30 A-F7)", () => {
  it("a second account of the /24 (REST or MCP register) is 413 dataset_bytes_per_network; an author of another network uploads", async () => {
    // 4,000 bytes per account, 16,000 for all: one network's share is 4,000 (one account's upload)
    const live = await startLive({
      platform: { datasetBytesPerAccount: 4000, datasetBytesAllAccounts: 16000 },
    });
    lives.push(live);
    const api = `${live.url}/api/v1`;
    const account = async (address: string, name: string) => {
      const r = await from(address, `${api}/accounts`, { name });
      expect(r.status).toBe(201);
      return r.json.api_key as string;
    };
    const upload = (address: string, key: string, name: string) =>
      from(address, `${api}/datasets`, dataset(name), { "x-api-key": key });

    expect((await upload("127.0.0.1", await account("127.0.0.1", "fill-1"), "fill1")).status).toBe(201);
    const second = await upload("127.0.0.2", await account("127.0.0.2", "fill-2"), "fill2");
    expect(second.status).toBe(413);
    expect(second.json.error).toMatchObject({
      code: "dataset_quota_exceeded",
      details: { limit: "dataset_bytes_per_network", limit_bytes: 4000, network: "net:127.0.0.0/24" },
    });
    // an account the MCP register tool created from that /24 is in the same share, wherever it uploads from
    const mcp = await from(
      "127.0.0.3",
      `${live.url}/mcp`,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "register", arguments: { name: "fill-3" } },
      },
      { accept: "application/json, text/event-stream" },
    );
    const mcpKey = mcp.json.result.structuredContent.api_key as string;
    expect((await upload("127.0.1.9", mcpKey, "fill3")).json.error.details.limit).toBe(
      "dataset_bytes_per_network",
    );
    // the author of another network is not refused
    expect((await upload("127.0.1.1", await account("127.0.1.1", "victim"), "mine")).status).toBe(201);
  });
});
