/**
 * probe28 A-F7: a network user issues and revokes the account's API keys (REST `POST
 * /api/v1/accounts/me/keys`, `DELETE /api/v1/accounts/me/keys/{key_prefix}`; MCP `issue_key`,
 * `revoke_key`), so a leaked key is replaced and revoked without the operator. Only the caller's own keys
 * (another account's prefix is 404 `unknown_key`), never the account's last active key (409
 * `last_active_key`), the operator key owns no account keys (403), no key is 401.
 */
import { describe, expect, it } from "vitest";
import { call, OPERATOR_KEY, postToolCall, register, useLive } from "./helpers.js";

const live = useLive({
  limits: { accountBurst: 1_000, accountNetworkBurst: 1_000, accountGlobalBurst: 1_000 },
});
const KEYS = "/api/v1/accounts/me/keys";

async function prefixes(key: string): Promise<{ key_prefix: string; revoked_at: string | null }[]> {
  const me = await call(live.url, "GET", "/api/v1/accounts/me", { key });
  expect(me.status).toBe(200);
  return me.json.keys;
}

describe("REST: the account's keys", () => {
  it("issues a fresh key (201, shown once) and revokes the leaked one with it", async () => {
    const alice = await register(live.url, "keys-alice");
    const [leaked] = await prefixes(alice.key);
    const issued = await call(live.url, "POST", KEYS, { key: alice.key });
    expect(issued.status).toBe(201);
    expect(issued.json.api_key).toMatch(/^bbk_/);
    expect(issued.json.key_prefix).not.toBe(leaked!.key_prefix);
    expect(issued.json.account.account_id).toBe(alice.account_id);
    const fresh = issued.json.api_key as string;
    expect((await prefixes(fresh)).map((k) => k.key_prefix).sort()).toEqual(
      [leaked!.key_prefix, issued.json.key_prefix].sort(),
    );

    const revoked = await call(live.url, "DELETE", `${KEYS}/${leaked!.key_prefix}`, { key: fresh });
    expect(revoked.status).toBe(200);
    const listed = revoked.json.keys.find((k: { key_prefix: string }) => k.key_prefix === leaked!.key_prefix);
    expect(listed.revoked_at).toBeTypeOf("string");
    // the leaked key no longer works; the fresh one does
    const thief = await call(live.url, "GET", "/api/v1/accounts/me", { key: alice.key });
    expect([401, 403]).toContain(thief.status);
    expect((await call(live.url, "GET", "/api/v1/accounts/me", { key: fresh })).status).toBe(200);
    // revoking it again is idempotent
    const again = await call(live.url, "DELETE", `${KEYS}/${leaked!.key_prefix}`, { key: fresh });
    expect(again.status).toBe(200);

    // the last active key is kept: the account cannot lock itself out
    const last = await call(live.url, "DELETE", `${KEYS}/${issued.json.key_prefix}`, { key: fresh });
    expect(last.status).toBe(409);
    expect(last.json.error.code).toBe("last_active_key");
    expect((await call(live.url, "GET", "/api/v1/accounts/me", { key: fresh })).status).toBe(200);
  });

  it("the key in use may be revoked while another key is active", async () => {
    const carol = await register(live.url, "keys-carol");
    const [inUse] = await prefixes(carol.key);
    const fresh = (await call(live.url, "POST", KEYS, { key: carol.key })).json.api_key as string;
    const r = await call(live.url, "DELETE", `${KEYS}/${inUse!.key_prefix}`, { key: carol.key });
    expect(r.status).toBe(200);
    expect((await call(live.url, "GET", "/api/v1/accounts/me", { key: carol.key })).status).not.toBe(200);
    expect((await call(live.url, "GET", "/api/v1/accounts/me", { key: fresh })).status).toBe(200);
  });

  it("another account's key is not the caller's: 404 unknown_key naming the prefix, the key untouched", async () => {
    const owner = await register(live.url, "keys-owner");
    await call(live.url, "POST", KEYS, { key: owner.key }); // two active keys: only the owner rule refuses
    const [target] = await prefixes(owner.key);
    const intruder = await register(live.url, "keys-intruder");
    const r = await call(live.url, "DELETE", `${KEYS}/${target!.key_prefix}`, { key: intruder.key });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe("unknown_key");
    expect(r.json.error.details.key_prefix).toBe(target!.key_prefix);
    expect((await prefixes(owner.key)).every((k) => k.revoked_at === null)).toBe(true);
  });

  it("no key is 401; the operator key owns no account keys (403); a body is refused naming its member", async () => {
    const dave = await register(live.url, "keys-dave");
    const [k] = await prefixes(dave.key);
    for (const [method, path] of [
      ["POST", KEYS],
      ["DELETE", `${KEYS}/${k!.key_prefix}`],
    ] as const) {
      const anon = await call(live.url, method, path);
      expect(anon.status, `${method} anonymous`).toBe(401);
      const op = await call(live.url, method, path, { key: OPERATOR_KEY });
      expect(op.status, `${method} operator`).toBe(403);
      expect(op.json.error.details.rule).toBe("operator_key_from_environment");
    }
    const extra = await call(live.url, "POST", KEYS, { key: dave.key, body: { name: "x" } });
    expect(extra.status).toBe(422);
    expect(JSON.stringify(extra.json.error)).toContain("name");
    const bad = await call(live.url, "DELETE", `${KEYS}/not-a-prefix`, { key: dave.key });
    expect(bad.status).toBe(404);
    expect(bad.json.error.details.field).toBe("key_prefix");
  });

  // keys29 item 3: a whole key in the DELETE URL was accepted (its secret then sits in access logs, proxies)
  it("a whole key in the DELETE URL is refused 422 naming key_prefix, never echoed, nothing revoked", async () => {
    const gina = await register(live.url, "keys-gina");
    const second = (await call(live.url, "POST", KEYS, { key: gina.key })).json.api_key as string;
    const r = await call(live.url, "DELETE", `${KEYS}/${gina.key}`, { key: second });
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({ code: "invalid_request", details: { field: "key_prefix" } });
    expect(r.json.error.message).toContain("give the prefix, never the whole key, in a URL");
    expect(r.text).not.toContain(gina.key.slice(17));
    expect((await prefixes(second)).every((k) => k.revoked_at === null)).toBe(true);
    expect((await call(live.url, "GET", "/api/v1/accounts/me", { key: gina.key })).status).toBe(200);
  });

  // probe33 A-F4: the refusal of a text that is no prefix advised the whole key, which this URL refuses
  it("a text that is no key prefix is 404 unknown_key, not echoed, and never advises the whole key", async () => {
    const ivy = await register(live.url, "keys-ivy");
    const r = await call(live.url, "DELETE", `${KEYS}/bbk_zzSECRETISH`, { key: ivy.key });
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({ code: "unknown_key", details: { field: "key_prefix" } });
    expect(r.json.error.message).toMatch(/^not a key prefix: give the key's prefix/);
    expect(r.json.error.message).not.toMatch(/whole key/);
    expect(r.text).not.toContain("SECRETISH");
  });

  // keys29 item 4: one account issued keys without end
  it("at most 20 active keys: the next POST is 409 too_many_keys naming the cap; a revoked key frees a place", async () => {
    const hank = await register(live.url, "keys-hank");
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 1; i < 20; i++) {
      last = await call(live.url, "POST", KEYS, { key: hank.key });
      expect(last.status).toBe(201);
    }
    const refused = await call(live.url, "POST", KEYS, { key: hank.key });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({
      code: "too_many_keys",
      details: { max_active_keys: 20, active_keys: 20 },
    });
    expect(refused.json.error.message).toContain("revoke one first");
    // MCP answers the same code
    const tool = await postToolCall(live.url, "issue_key", {}, hank.key);
    expect(tool.body.result.isError).toBe(true);
    expect(JSON.stringify(tool.body.result.structuredContent)).toContain('"too_many_keys"');
    expect(
      (await call(live.url, "DELETE", `${KEYS}/${last!.json.key_prefix}`, { key: hank.key })).status,
    ).toBe(200);
    expect((await call(live.url, "POST", KEYS, { key: hank.key })).status).toBe(201);
  });

  it("the OpenAPI document describes both routes", async () => {
    const doc = (await call(live.url, "GET", "/api/v1/openapi.json")).json;
    expect(doc.paths["/api/v1/accounts/me/keys"].post.responses["201"]).toBeDefined();
    expect(doc.paths["/api/v1/accounts/me/keys/{key_prefix}"].delete.responses["200"]).toBeDefined();
    expect(doc.paths["/api/v1/accounts/me/keys"].post.responses["409"]).toBeDefined();
    expect(doc.paths["/api/v1/accounts/me/keys/{key_prefix}"].delete.responses["422"]).toBeDefined();
  });
});

describe("MCP: issue_key and revoke_key", () => {
  it("issues a key and revokes another of the caller's keys; another account's prefix is refused", async () => {
    const erin = await register(live.url, "keys-erin");
    const [old] = await prefixes(erin.key);
    const issued = await postToolCall(live.url, "issue_key", {}, erin.key);
    const sc = issued.body.result.structuredContent;
    expect(issued.body.result.isError).toBeFalsy();
    expect(sc.api_key).toMatch(/^bbk_/);
    const fresh = sc.api_key as string;

    const other = await register(live.url, "keys-frank");
    const refused = await postToolCall(live.url, "revoke_key", { key_prefix: old!.key_prefix }, other.key);
    expect(refused.body.result.isError).toBe(true);
    expect(JSON.stringify(refused.body.result.structuredContent)).toContain("unknown_key");

    const revoked = await postToolCall(live.url, "revoke_key", { key_prefix: old!.key_prefix }, fresh);
    expect(revoked.body.result.isError).toBeFalsy();
    expect(
      revoked.body.result.structuredContent.keys.find(
        (k: { key_prefix: string }) => k.key_prefix === old!.key_prefix,
      ).revoked_at,
    ).toBeTypeOf("string");

    // MCP's argument is not a URL: the whole key is taken as its prefix (keys29 item 3)
    const third = (await postToolCall(live.url, "issue_key", {}, fresh)).body.result.structuredContent;
    const whole = await postToolCall(live.url, "revoke_key", { key_prefix: third.api_key }, fresh);
    expect(whole.body.result.isError).toBeFalsy();
    expect(
      whole.body.result.structuredContent.keys.find(
        (k: { key_prefix: string }) => k.key_prefix === third.key_prefix,
      ).revoked_at,
    ).toBeTypeOf("string");

    const anon = await postToolCall(live.url, "issue_key", {});
    expect(anon.body.result?.isError ?? anon.body.error).toBeTruthy();
  });
});

/**
 * probe37 A-N5: a whole key pasted where a slug or an id goes came back whole in the refusal (`details.slug`
 * and the message), while the key route never echoes one. Every refusal now cuts a key to its listed prefix.
 */
describe("a whole key in a path is never echoed in the refusal (probe37 A-N5)", () => {
  it("REST and MCP: the 404s name the key by its prefix only", async () => {
    const alice = await register(live.url, "keys-echo");
    const key = alice.key;
    const prefix = /^(bbk_[0-9a-f]{12})_/.exec(key)![1]!;
    const secret = key.slice(prefix.length + 1);
    const answers = [
      await call(live.url, "GET", `/api/v1/benchmarks/${key}`),
      await call(live.url, "GET", `/api/v1/benchmarks/runs/${key}`, { key }),
      await call(live.url, "POST", `/api/v1/benchmarks/runs/${key}/finalize`, { key }),
      await call(live.url, "DELETE", `/api/v1/datasets/${key}`, { key }),
    ];
    for (const a of answers) {
      expect(a.status, a.text).toBe(404);
      expect(a.text).not.toContain(secret);
      expect(a.text).toContain(`${prefix}_...`);
    }
    // probe37 V-F4: a key run on into characters of its secret's alphabet, pasted twice, or cut short by an
    // echo of 64 characters (a query name or value) came back whole or all but 4 of its secret characters
    const variants = [
      await call(live.url, "GET", `/api/v1/benchmarks/${key}x`),
      await call(live.url, "GET", `/api/v1/benchmarks/${key}-x`),
      await call(live.url, "GET", `/api/v1/benchmarks/${key}${key}`),
      await call(live.url, "GET", `/api/v1/benchmarks?aaaaaaaaaa${key}=1`),
      await call(live.url, "GET", `/api/v1/benchmarks?offset=aaaaaaaaaa${key}`),
    ];
    for (const a of variants) {
      expect(a.status, a.text).toBeGreaterThanOrEqual(400);
      expect(a.text).not.toContain(secret.slice(0, 20));
      expect(a.text).toContain(`${prefix}_...`);
    }
    const mcp = await postToolCall(live.url, "benchmark_detail", { slug: key }, key);
    expect(JSON.stringify(mcp.body)).not.toContain(secret);
    const perBenchmark = await postToolCall(
      live.url,
      "get_benchmark",
      {},
      key,
      `/mcp/benchmarks/${key}/http`,
    );
    expect(JSON.stringify(perBenchmark.body)).not.toContain(secret);
    expect(perBenchmark.status).toBeGreaterThanOrEqual(400);
  });
});
