/**
 * Issue 13 re-probe over REST and MCP (`probe/register-partial.sh`, `probe/name-race-http.mjs`), on the
 * engine under test: a refused registration (bad agent id, zero withdrawal address, another account's
 * name as agent id) leaves no account behind, so the same name registers afterwards; a name registered
 * as an account and as another account's agent at once is never both; the detail serves the answer
 * limits and submit refuses an answer over `max_answer_bytes` naming `answer_text` and the limit.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { call, publishCities, register, useLive } from "./helpers.js";

// more than the default 20 accounts per address: these tests register from one address on purpose
const live = useLive({
  limits: { accountBurst: 1_000, accountNetworkBurst: 1_000, accountGlobalBurst: 1_000 },
});
beforeAll(async () => {
  await register(live.url, "owner");
});

const REFUSED: [string, Record<string, unknown>, number, string][] = [
  ["an agent id that is another account's name", { agent_id: "owner" }, 403, "forbidden"],
  ["a malformed agent id", { agent_id: "bad id!" }, 422, "invalid_option"],
  [
    "the zero withdrawal address",
    { withdrawal_address: `0x${"0".repeat(40)}` },
    422,
    "invalid_withdrawal_address",
  ],
];

describe("POST /api/v1/accounts is all or nothing", () => {
  it.each(REFUSED)(
    "%s: refused, and the same name registers afterwards",
    async (_what, extra, status, code) => {
      const name = `half-${code}-${status}`;
      const r = await call(live.url, "POST", "/api/v1/accounts", { body: { name, ...extra } });
      expect(r.status).toBe(status);
      expect(r.json.error.code).toBe(code);
      expect(await live.platform.ctx.store.accounts.idByName(name)).toBeNull();
      const again = await call(live.url, "POST", "/api/v1/accounts", { body: { name } });
      expect(again.status).toBe(201);
      expect(again.json.account.agents.map((a: { agent_id: string }) => a.agent_id)).toEqual([name]);
    },
  );
});

describe("the MCP register tool is all or nothing", () => {
  it.each(REFUSED)(
    "%s: a tool error, and the same name registers afterwards",
    async (_what, extra, _s, code) => {
      const name = `mcp-half-${code}`;
      const client = new Client({ name: "bench-bounty-test", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${live.url}/mcp`)));
      try {
        const r = await client.callTool({ name: "register", arguments: { name, ...extra } });
        expect(r.isError).toBe(true);
        expect(JSON.stringify(r.content)).toContain(code);
        expect(await live.platform.ctx.store.accounts.idByName(name)).toBeNull();
        const again = await client.callTool({ name: "register", arguments: { name } });
        expect(again.isError).toBeFalsy();
      } finally {
        await client.close();
      }
    },
  );
});

describe("a name is an account or another account's agent, never both (REST race)", () => {
  it("20 races of POST /accounts {name} against POST /accounts/me/agents {agent_id: name}", async () => {
    const mallory = await register(live.url, "mallory");
    for (let i = 0; i < 20; i++) {
      const name = `carol-race-${i}`;
      const [acct, agent] = await Promise.all([
        call(live.url, "POST", "/api/v1/accounts", { body: { name } }),
        call(live.url, "POST", "/api/v1/accounts/me/agents", { key: mallory.key, body: { agent_id: name } }),
      ]);
      expect(acct.status === 201 && agent.status === 201).toBe(false);
      const owner = (await live.platform.getAgent(name))?.owner_account_id;
      if (acct.status === 201) expect(owner).toBe(acct.json.account.account_id);
      else {
        expect(acct.json.error.code).toBe("account_exists");
        expect(owner).toBe(mallory.account_id);
      }
    }
  });
});

describe("the answer limits are served and enforced", () => {
  it("the detail's max_answer_bytes; one byte over is 422 answer_too_large naming answer_text and the limit", async () => {
    // 200 tasks: the byte limit binds before the 100,000-character one (8 winners x 200 answers)
    const { slug } = await publishCities(live.url, 200, "limits");
    const d = await call(live.url, "GET", `/api/v1/benchmarks/${slug}`);
    expect(d.json.max_answer_length).toBe(100_000);
    const limit = d.json.max_answer_bytes as number;
    expect(limit).toBeGreaterThan(100_000);
    expect(limit).toBeLessThan(600_000);
    const k = (await register(live.url, "limits-agent")).key;
    const id = (await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: k })).json.run.id;
    // U+000B (White_Space, escaped as 6 bytes) up to exactly the limit, in under 100,000 characters
    const at = "\u000b".repeat(Math.floor(limit / 6)) + "a".repeat(limit % 6);
    const ok = await call(live.url, "POST", `/api/v1/benchmarks/runs/${id}/submissions`, {
      key: k,
      body: { answers: [{ ordinal: 0, answer_text: at }] },
    });
    expect(ok.status, ok.text).toBe(200);
    const r = await call(live.url, "POST", `/api/v1/benchmarks/runs/${id}/submissions`, {
      key: k,
      body: { answers: [{ ordinal: 1, answer_text: at + "a" }] },
    });
    expect(r.status).toBe(422);
    expect(r.json.error.details.errors[0]).toMatchObject({
      code: "answer_too_large",
      field: "answer_text",
      limit: "max_answer_bytes",
      max_answer_bytes: limit,
      answer_bytes: limit + 1,
    });
  });
});
