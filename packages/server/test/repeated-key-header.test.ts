/**
 * probe31 A-F1: an `X-API-Key` header sent twice reached the key reader joined (`k1, k2`) and was judged
 * one key: 403 "not a bench-bounty key", even for the same valid key twice (a proxy or library that
 * repeats the header). The copies are now read apart: the same key repeated is that key, two different
 * keys are the documented 422 `one_key` naming the header; `Authorization` likewise.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { callRaw, register, useLive } from "./helpers.js";

const live = useLive();
let a = { key: "", account_id: "" };
let b = { key: "", account_id: "" };
beforeAll(async () => {
  a = await register(live.url, "repeat-a");
  b = await register(live.url, "repeat-b");
});

describe("a key header sent twice (probe31 A-F1)", () => {
  it("X-API-Key twice with the same key: that key's account", async () => {
    const r = await callRaw(live.url, "GET", "/api/v1/accounts/me", { "x-api-key": [a.key, a.key] });
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.json)).toContain(a.account_id);
  });

  it("X-API-Key twice with two accounts' keys: 422 one_key naming the header, no key echoed", async () => {
    const r = await callRaw(live.url, "GET", "/api/v1/accounts/me", { "x-api-key": [a.key, b.key] });
    expect(r.status).toBe(422);
    expect(r.json.error).toMatchObject({
      code: "invalid_request",
      details: { rule: "one_key", header: "X-API-Key" },
    });
    expect(r.json.error.message).toContain("X-API-Key is sent 2 times");
    expect(r.text).not.toContain(a.key);
    expect(r.text).not.toContain(b.key);
  });

  it("Authorization twice: the same Bearer key is that key, two different ones 422 one_key", async () => {
    const same = await callRaw(live.url, "GET", "/api/v1/accounts/me", {
      authorization: [`Bearer ${a.key}`, `Bearer ${a.key}`],
    });
    expect(same.status).toBe(200);
    expect(JSON.stringify(same.json)).toContain(a.account_id);
    const two = await callRaw(live.url, "GET", "/api/v1/accounts/me", {
      authorization: [`Bearer ${a.key}`, `Bearer ${b.key}`],
    });
    expect(two.status).toBe(422);
    expect(two.json.error.details).toMatchObject({ rule: "one_key", header: "Authorization" });
  });

  it("unchanged: X-API-Key and Bearer differing is 422 one_key; a malformed Bearer or a key under another scheme 401 bearer_scheme", async () => {
    const both = await callRaw(live.url, "GET", "/api/v1/accounts/me", {
      "x-api-key": a.key,
      authorization: `Bearer ${b.key}`,
    });
    expect(both.status).toBe(422);
    expect(both.json.error.details.rule).toBe("one_key");
    for (const authorization of ["Bearer", `Bearer ${a.key} extra`, `Token ${a.key}`, a.key]) {
      const bad = await callRaw(live.url, "GET", "/api/v1/accounts/me", { authorization });
      expect(bad.status, authorization).toBe(401);
      expect(bad.json.error.details.rule).toBe("bearer_scheme");
    }
  });

  it("an Authorization of another scheme carrying no key (a proxy's Basic login) is left alone: anonymous reads answer, keyed ones ask for a key, a Bearer copy beside it counts (probe35 A-N1)", async () => {
    const basic = "Basic dXNlcjpwYXNz";
    const list = await callRaw(live.url, "GET", "/api/v1/benchmarks", { authorization: basic });
    expect(list.status).toBe(200);
    const me = await callRaw(live.url, "GET", "/api/v1/accounts/me", { authorization: basic });
    expect(me.status).toBe(401);
    expect(me.json.error.code).toBe("unauthenticated");
    expect(me.json.error.details.rule).not.toBe("bearer_scheme");
    const keyed = await callRaw(live.url, "GET", "/api/v1/accounts/me", {
      authorization: [`Bearer ${a.key}`, basic],
    });
    expect(keyed.status).toBe(200);
    const viaHeader = await callRaw(live.url, "GET", "/api/v1/accounts/me", {
      authorization: basic,
      "x-api-key": a.key,
    });
    expect(viaHeader.status).toBe(200);
  });
});
