/**
 * probe39 A-F2: a key was checked once, when its request's headers arrived. A leaked key kept acting
 * after its owner revoked it: the rest of its MCP batch issued the leaker a new key and revoked the
 * owner's (or a batch `[revoke_key(own), issue_key, revoke_key(other)]` ran all three on a key its first
 * call revoked), and a REST body completed after the revocation set the account's withdrawal address or
 * stored a dataset. A revoked key now stops at once: each `tools/call` of a batch, and a REST request
 * once its body is read, check the key again, and every keyed write checks it inside its transaction;
 * the refusal is `forbidden` (`known_key`), "invalid API key: key <prefix> was revoked at <time>".
 */
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { call, citiesDataset, postMcp, register, useLive } from "./helpers.js";

const live = useLive();

const OWNER_ADDRESS = "0x71be63f3384f5fb98995898a86b02fb2426c5788";
const LEAKER_ADDRESS = "0xbcd4042de499d14e55001ccbb24a551f3b954096";

/** An account with two keys: `leaked` (its first) and `owner`'s (issued with it). */
async function twoKeys(name: string) {
  const a = await register(live.url, name);
  const issued = await call(live.url, "POST", "/api/v1/accounts/me/keys", { key: a.key });
  expect(issued.status, issued.text).toBe(201);
  return {
    leaked: a.key,
    leakedPrefix: a.key.slice(0, 16),
    owner: issued.json.api_key as string,
    ownerPrefix: issued.json.key_prefix as string,
  };
}

/** The account's keys as `GET /accounts/me` lists them: prefix -> revoked_at. */
async function keysOf(key: string): Promise<Record<string, string | null>> {
  const me = await call(live.url, "GET", "/api/v1/accounts/me", { key });
  expect(me.status, me.text).toBe(200);
  return Object.fromEntries(
    (me.json.keys as { key_prefix: string; revoked_at: string | null }[]).map((k) => [
      k.key_prefix,
      k.revoked_at,
    ]),
  );
}

function toolCall(id: number, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/**
 * A request with key `key` declaring `body`'s length that sends its first `first` bytes now; `finish()`
 * sends the rest and resolves with the answer (status and parsed JSON).
 */
function slowBody(method: string, path: string, key: string, body: string, first = 5) {
  const bytes = Buffer.from(body, "utf8");
  let answered!: (r: { status: number; json: any }) => void;
  const answer = new Promise<{ status: number; json: any }>((r) => (answered = r));
  const req = httpRequest(
    `${live.url}${path}`,
    {
      method,
      headers: {
        "content-type": "application/json",
        "content-length": String(bytes.length),
        "x-api-key": key,
      },
    },
    (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => answered({ status: res.statusCode!, json: JSON.parse(text) }));
    },
  );
  req.write(bytes.subarray(0, first));
  return {
    finish: () => {
      req.end(bytes.subarray(first));
      return answer;
    },
  };
}

/** What the refusal of a revoked key looks like (REST body or a tool error's structured content). */
function revokedRefusal(prefix: string) {
  return {
    error: {
      code: "forbidden",
      details: { rule: "known_key" },
      message: expect.stringMatching(
        new RegExp(`^invalid API key: key ${prefix} was revoked at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`),
      ),
    },
  };
}

describe("a revoked key stops at once (probe39 A-F2)", () => {
  it("MCP: a batch [revoke_key(own), issue_key, revoke_key(other), runs_mine] runs only its first call", async () => {
    const k = await twoKeys("revoked-batch");
    const batch = [
      toolCall(1, "revoke_key", { key_prefix: k.leakedPrefix }),
      toolCall(2, "issue_key"),
      toolCall(3, "revoke_key", { key_prefix: k.ownerPrefix }),
      toolCall(4, "runs_mine"), // a read too: the key no longer reads as the account
    ];
    const r = await postMcp(live.url, JSON.stringify(batch), k.leaked);
    expect(r.status).toBe(200);
    const byId = new Map((r.body as any[]).map((m) => [m.id as number, m.result]));
    expect(byId.get(1).isError, JSON.stringify(byId.get(1))).toBeUndefined();
    for (const id of [2, 3, 4]) {
      expect(byId.get(id).isError, JSON.stringify(byId.get(id))).toBe(true);
      expect(byId.get(id).structuredContent).toEqual(revokedRefusal(k.leakedPrefix));
    }
    // no key was issued, the owner's key works and is not revoked
    expect(await keysOf(k.owner)).toEqual({
      [k.leakedPrefix]: expect.any(String),
      [k.ownerPrefix]: null,
    });
  });

  it("MCP: a valid key's batch still runs every call", async () => {
    const k = await twoKeys("valid-batch");
    const batch = [
      toolCall(1, "issue_key"),
      toolCall(2, "set_withdrawal_address", { withdrawal_address: OWNER_ADDRESS }),
      toolCall(3, "revoke_key", { key_prefix: k.leakedPrefix }),
      toolCall(4, "benchmark_list"),
    ];
    const r = await postMcp(live.url, JSON.stringify(batch), k.owner);
    expect(r.status).toBe(200);
    for (const m of r.body as any[]) expect(m.result.isError, JSON.stringify(m)).toBeUndefined();
    const keys = await keysOf(k.owner);
    expect(Object.keys(keys)).toHaveLength(3);
    expect(keys[k.leakedPrefix]).toEqual(expect.any(String));
    expect(keys[k.ownerPrefix]).toBeNull();
  });

  it("REST: a withdrawal address whose body completes after the key's revocation is refused, nothing set", async () => {
    const k = await twoKeys("revoked-slow-put");
    const slow = slowBody(
      "PUT",
      "/api/v1/accounts/me/withdrawal-address",
      k.leaked,
      JSON.stringify({ withdrawal_address: LEAKER_ADDRESS }),
    );
    await new Promise((r) => setTimeout(r, 200)); // the leaker's headers are in, authenticated
    const revoke = await call(live.url, "DELETE", `/api/v1/accounts/me/keys/${k.leakedPrefix}`, {
      key: k.owner,
    });
    expect(revoke.status, revoke.text).toBe(200);
    const own = await call(live.url, "PUT", "/api/v1/accounts/me/withdrawal-address", {
      key: k.owner,
      body: { withdrawal_address: OWNER_ADDRESS },
    });
    expect(own.status, own.text).toBe(200);
    const late = await slow.finish();
    expect(late.status, JSON.stringify(late.json)).toBe(403);
    expect(late.json).toEqual(revokedRefusal(k.leakedPrefix));
    const me = await call(live.url, "GET", "/api/v1/accounts/me", { key: k.owner });
    expect(me.json.agents.map((a: { withdrawal_address: string }) => a.withdrawal_address)).toEqual([
      OWNER_ADDRESS,
    ]);
  });

  it("REST: a dataset upload whose body completes after the key's revocation stores nothing", async () => {
    const k = await twoKeys("revoked-slow-upload");
    const slow = slowBody("POST", "/api/v1/datasets", k.leaked, JSON.stringify(citiesDataset(4, "late")));
    await new Promise((r) => setTimeout(r, 200));
    const revoke = await call(live.url, "DELETE", `/api/v1/accounts/me/keys/${k.leakedPrefix}`, {
      key: k.owner,
    });
    expect(revoke.status, revoke.text).toBe(200);
    const late = await slow.finish();
    expect(late.status, JSON.stringify(late.json)).toBe(403);
    expect(late.json).toEqual(revokedRefusal(k.leakedPrefix));
    const mine = await call(live.url, "GET", "/api/v1/datasets/mine", { key: k.owner });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.json.datasets).toEqual([]);
  });
});
