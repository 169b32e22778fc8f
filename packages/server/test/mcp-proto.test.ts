/**
 * probe D1-F8: `params.__proto__` smuggled a tools/call's `name` and `arguments` past every edge check:
 * the strict parser and `JSON.parse` keep `__proto__` as an own member, so the edge saw no
 * `params.name` (no account-creation charge, no write id, no anonymous refusal, no C10 check), and
 * the SDK's zod parse then rebuilt `params` with it as the prototype and ran the call (75 accounts
 * from one address past its budget of 20; `set_withdrawal_address` wrote with an unknown member).
 * A member named `__proto__` anywhere in a JSON-RPC message is now refused before the SDK sees it:
 * -32602 naming its path under `$.params`, -32600 elsewhere.
 */
import { describe, expect, it } from "vitest";
import { call, register, useLive, postMcp } from "./helpers.js";

const live = useLive();

const rpc = (raw: string, key?: string) => postMcp(live.url, raw, key);
const accounts = async () =>
  (await live.platform.ctx.store.db.selectFrom("accounts").select("account_id").execute()).length;

describe("a __proto__ member in a JSON-RPC message (probe D1-F8)", () => {
  it("a batch of register calls named through params.__proto__ is refused whole; no account is created", async () => {
    const before = await accounts();
    const hidden = Array.from({ length: 25 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { PROTO: { name: "register", arguments: {} } },
    }));
    const r = await rpc(JSON.stringify(hidden).replaceAll('"PROTO"', '"__proto__"'));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      id: null,
      error: { code: -32602, data: { path: "$[0].params.__proto__" } },
    });
    expect(await accounts()).toBe(before);
  });

  it("set_withdrawal_address with its arguments under params.__proto__: refused, nothing written", async () => {
    const me = await register(live.url, "proto-writer");
    const r = await rpc(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"set_withdrawal_address","__proto__":{"arguments":{"withdrawal_address":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","__proto__":{"zz":1}}}}}',
      me.key,
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ id: 1, error: { code: -32602, data: { path: "$.params.__proto__" } } });
    const account = await call(live.url, "GET", "/api/v1/accounts/me", { key: me.key });
    expect(account.json.withdrawal_address).toBeNull();
  });

  it("anywhere in the message: the tool name, an argument, the envelope", async () => {
    const cases: [string, number, string][] = [
      [
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"__proto__":{"name":"benchmark_list"},"arguments":{}}}',
        -32602,
        "$.params.__proto__",
      ],
      [
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"benchmark_list","arguments":{"__proto__":{"x":1}}}}',
        -32602,
        "$.params.arguments.__proto__",
      ],
      ['{"jsonrpc":"2.0","id":2,"method":"ping","__proto__":{"x":1}}', -32600, "$.__proto__"],
    ];
    for (const [raw, code, path] of cases) {
      const r = await rpc(raw);
      expect(r.status, raw).toBe(400);
      expect(r.body, raw).toMatchObject({ id: 2, error: { code, data: { path } } });
    }
  });
});
