/**
 * Re-probe 6, request bodies:
 * - O3: a body's parse cost is bounded while parsing (`src/body-limits.ts`): 64 KiB for the small
 *   routes, and on every route but the datasets' (and on `/mcp`) at most 256 members per object,
 *   a bounded count of items per array and 32 levels; the parse stops at the first member, item or
 *   level over the limit (the refusal names the offset where it stopped: early in the body);
 * - O5: an unknown member of any REST body or MCP tool's arguments is refused naming it, and nothing
 *   is written (no account, no address, no agent, no run started, no attempt used);
 * - O9: account names are unique without regard to case, over HTTP.
 */
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { call, citiesDataset, publishCities, register, useLive } from "./helpers.js";

const live = useLive({
  limits: { rateBurst: 100_000, ratePerSecond: 10_000, accountBurst: 1_000, accountNetworkBurst: 1_000 },
});
let slug: string;
let key: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 4, "strict")).slug;
  key = (await register(live.url, "strict-competitor")).key;
});

const ADDR = `0x${"ab".repeat(20)}`;

/** `{"k0":0,"k1":0,...}` of `n` distinct keys. */
const manyKeys = (n: number): string => {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`"k${i}":0`);
  return `{${parts.join(",")}}`;
};

async function rpc(raw: string, withKey: string | null = null) {
  const res = await fetch(`${live.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(withKey ? { authorization: `Bearer ${withKey}` } : {}),
    },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as any };
}
const toolCall = (name: string, args: string) =>
  `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

/** A REST 413 over a shape limit of `src/body-limits.ts`, with its details. */
function expect413(
  r: { status: number; json: any },
  path: string,
  reason: string,
  limit: string,
  max: number,
) {
  expect(r.status).toBe(413);
  expect(r.json.error.code).toBe("body_too_large");
  expect(r.json.error.details).toEqual({ path, reason, limit, max });
}

/** An MCP 413 (JSON-RPC -32600) over the distinct-names limit of a keyed `/mcp` body, at `path`. */
function expectMcpKeyNames413(r: { status: number; body: any }, path: string) {
  expect(r.status).toBe(413);
  expect(r.body.error.code).toBe(-32600);
  expect(r.body.error.data).toEqual({ path, reason: "too_many_key_names", limit: "maxKeyNames", max: 256 });
}

/** The byte offset at which the refusal says the parser stopped. */
const stoppedAt = (message: string): number => Number(/refused at offset (\d+)/.exec(message)?.[1] ?? NaN);

describe("O3: the cost of parsing a body is bounded while parsing", () => {
  it("MCP: benchmark_list with 300,000 argument keys is 413 within its first 257 names", async () => {
    const raw = toolCall("benchmark_list", manyKeys(300_000));
    expect(raw.length).toBeGreaterThan(3_000_000); // the probe's shape, under the 4 MiB body limit
    // anonymous: over the 64 KiB of an anonymous /mcp body (probe 7 N1)
    const anonymous = await rpc(raw);
    expect(anonymous.status).toBe(413);
    expect(anonymous.body.error.data).toEqual({ limit_bytes: 65_536 });
    // keyed: the envelope's 6 names and k0..k249 are 256 distinct names, k250 the 257th (before
    // member 257 of the arguments would be refused by maxMembers)
    const r = await rpc(raw, key);
    expectMcpKeyNames413(r, "$.params.arguments.k250");
    // it stopped at name 257 (~10 bytes each): within the first 3 KB of 3.5 MB
    expect(stoppedAt(r.body.error.message)).toBeLessThan(3_200);
  });

  it("REST POST /accounts with the same keys: 413 on its 64 KiB limit, before parsing", async () => {
    const r = await call(live.url, "POST", "/api/v1/accounts", { raw: manyKeys(300_000) });
    expect(r.status).toBe(413);
    expect(r.json.error).toMatchObject({ code: "body_too_large", details: { limit_bytes: 65_536 } });
  });

  it("REST POST /accounts with 300 keys (under 64 KiB): 413 naming maxMembers; no account", async () => {
    const raw = manyKeys(300).replace("{", '{"name":"strict-many",');
    const r = await call(live.url, "POST", "/api/v1/accounts", { raw });
    expect413(r, "$", "too_many_members", "maxMembers", 256);
    expect((await register(live.url, "strict-many")).key).toMatch(/^bb/);
  });

  it("submissions: an answers array of 100,001 items is 413 naming maxItems at $.answers", async () => {
    const r = await call(live.url, "POST", "/api/v1/benchmarks/runs/run_x/submissions", {
      key,
      raw: `{"answers":[${"0,".repeat(100_000)}0]}`,
    });
    expect413(r, "$.answers", "too_many_items", "maxItems", 100_000);
    expect(stoppedAt(r.json.error.message)).toBeGreaterThan(200_000); // 100,000 items were counted
  });

  it("nesting over 32 levels is 413 naming maxDepth (REST and MCP)", async () => {
    const deep = `${"[".repeat(40)}${"]".repeat(40)}`;
    const rest = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, {
      key,
      raw: `{"agent_id":${deep}}`,
    });
    expect(rest.status).toBe(413);
    expect(rest.json.error.details).toMatchObject({ reason: "nesting_too_deep", limit: "maxDepth", max: 32 });
    const mcp = await rpc(toolCall("register", `{"name":${deep}}`));
    expect(mcp.status).toBe(413);
    expect(mcp.body.error.data).toMatchObject({ reason: "nesting_too_deep", limit: "maxDepth", max: 32 });
  });

  it("a submission over 64 KiB is not held to the small routes' limit", async () => {
    const runId = (await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key })).json.run.id;
    const r = await call(live.url, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key,
      body: { answers: [{ ordinal: 0, answer_text: "x".repeat(80_000) }] },
    });
    expect(r.status).not.toBe(413);
    expect(r.json.error?.code).not.toBe("body_too_large");
  });
});

describe("probe 7: a body's values in all, and a declared length, are bounded before the cost", () => {
  /** The probe's pile: `n` objects of 255 distinct keys each (every object under maxMembers 256). */
  const pile = (n: number) =>
    `[${Array.from({ length: n }, (_, o) => `{${Array.from({ length: 255 }, (_, i) => `"${o}k${i}":0`).join(",")}}`).join(",")}]`;
  /** Members (one ":" each) and items (one "{" each) in the body before the offset where the refusal stopped. */
  const visitedBefore = (raw: string, message: string) => {
    const head = raw.slice(0, stoppedAt(message));
    return (head.match(/:/g)?.length ?? 0) + (head.match(/\{/g)?.length ?? 0);
  };

  /** `n` objects all of the SAME 240 names (`"k<i>":0`, under maxKeyNames with the envelope's): the value budget's shape. */
  const samePile = (n: number) =>
    `[${Array.from({ length: n }, () => `{${Array.from({ length: 240 }, (_, i) => `"k${i}":0`).join(",")}}`).join(",")}]`;

  it("N1: anonymous /mcp is held to 64 KiB: the probe's 1,236 objects x 255 keys are 413 on their bytes", async () => {
    const raw = toolCall("benchmark_list", `{"pile":${pile(1_236)}}`);
    expect(raw.length).toBeGreaterThan(3_500_000);
    const r = await rpc(raw);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe(-32600);
    expect(r.body.error.data).toEqual({ limit_bytes: 65_536 });
    // a public tool call without a key still works
    const list = await rpc(toolCall("benchmark_list", "{}"));
    expect(list.status).toBe(200);
    expect(list.body.result.isError).toBeFalsy();
  });

  it("N1: keyed /mcp with the probe's pile is 413 naming maxKeyNames at the 257th distinct name", async () => {
    // the envelope's 6 names, "pile", then object 0's names: its 250th ("0k249") is the 257th
    for (const n of [2, 1_175]) {
      const raw = toolCall("benchmark_list", `{"pile":${pile(n)}}`);
      const r = await rpc(raw, key);
      expectMcpKeyNames413(r, '$.params.arguments.pile[0]["0k249"]');
      // it stopped there: within the first 3.5 KB of the body (3.5 MB for 1,175 objects)
      expect(stoppedAt(r.body.error.message)).toBe(raw.indexOf('"0k249"') + 7);
    }
  });

  it("N1: a keyed REST submission of the probe's pile is 413 naming maxKeyNames", async () => {
    const raw = `{"answers":${pile(1_175)}}`;
    const r = await call(live.url, "POST", "/api/v1/benchmarks/runs/run_x/submissions", { key, raw });
    // "answers" and object 0's first 255 names are 256: object 1's first name is the 257th
    expect413(r, '$.answers[1]["1k0"]', "too_many_key_names", "maxKeyNames", 256);
    expect(stoppedAt(r.json.error.message)).toBe(raw.indexOf('"1k0"') + 5);
  });

  it("N1: 1,300 objects of the same 240 names (keyed /mcp and submissions) are 413 naming maxValues", async () => {
    const raw = toolCall("benchmark_list", `{"pile":${samePile(1_300)}}`);
    const r = await rpc(raw, key);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe(-32600);
    expect(r.body.error.data).toMatchObject({ reason: "too_many_values", limit: "maxValues", max: 301_024 });
    expect(r.body.error.data.path).toMatch(/^\$\.params\.arguments\.pile\[\d+\]/);
    // it stopped once 301,024 values were read, not at the end of the body
    const visited = visitedBefore(raw, r.body.error.message);
    expect(visited).toBeGreaterThan(300_000);
    expect(visited).toBeLessThanOrEqual(301_024 + 8);
    expect(stoppedAt(r.body.error.message)).toBeLessThan(raw.length);

    const rest = `{"answers":${samePile(1_300)}}`;
    const s = await call(live.url, "POST", "/api/v1/benchmarks/runs/run_x/submissions", { key, raw: rest });
    expect(s.status).toBe(413);
    expect(s.json.error.details).toMatchObject({
      reason: "too_many_values",
      limit: "maxValues",
      max: 301_024,
    });
    expect(visitedBefore(rest, s.json.error.message)).toBeLessThanOrEqual(301_024 + 8);
  });

  it("N1: a dataset of realistic names is accepted; one past 1,000,000 distinct names is 413 maxKeyNames", async () => {
    // 2,000 rows, each payload of 40 fields (the same names on every row), plus the row's own names
    const rows = Array.from({ length: 2_000 }, (_, r) => ({
      decision_ts: `2026-01-${String((r % 28) + 1).padStart(2, "0")}T00:00:00Z`,
      label: `answer-${r % 7}`,
      payload: Object.fromEntries(Array.from({ length: 40 }, (_, f) => [`field_${f}`, `${r}-${f}`])),
    }));
    const ok = await call(live.url, "POST", "/api/v1/datasets", { key, body: { name: "strict-wide", rows } });
    expect(ok.status, ok.text).toBe(201);
    // 1,001 rows whose payloads have 1,000 distinct names each (an object of a row has at most
    // MAX_ROW_OBJECT_MEMBERS, probe30 B-F5): 1,001,000 distinct names (~15 MB), on the dry run
    const row = (r: number) => {
      const names = Array.from({ length: 1_000 }, (_, i) => `"f${r * 1_000 + i}":0`).join(",");
      return `{"decision_ts":"2026-01-01T00:00:00Z","label":"a","payload":{${names}}}`;
    };
    const raw = `{"name":"strict-names","rows":[${Array.from({ length: 1_001 }, (_, r) => row(r)).join(",")}]}`;
    const r = await call(live.url, "POST", "/api/v1/datasets/validate", { key, raw });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe("body_too_large");
    expect(r.json.error.details).toMatchObject({
      reason: "too_many_key_names",
      limit: "maxKeyNames",
      max: 1_000_000,
    });
    // name, rows, decision_ts, label, payload and f0..f999994 are 1,000,000: "f999995" is the next
    expect(r.json.error.details.path).toBe("$.rows[999].payload.f999995");
  });

  it("N1: a submission of the most answers a run may have (100,000) is not refused by the body limits", async () => {
    const answers = Array.from({ length: 100_000 }, (_, i) => `{"ordinal":${i},"answer_text":"a${i}"}`);
    const raw = `{"answers":[${answers.join(",")}]}`;
    expect(raw.length).toBeLessThan(4 * 1024 * 1024);
    const r = await call(live.url, "POST", "/api/v1/benchmarks/runs/run_x/submissions", { key, raw });
    // parsed, validated and handed to the platform: its 404 for a run that does not exist
    expect(r.status).toBe(404);
    expect(r.json.error?.code).not.toBe("body_too_large");
    expect(r.json.error?.code).not.toBe("invalid_json");
  });

  /** A POST declaring `Content-Length: 70000` whose body is never sent: the raw answer (5 s at most). */
  const declareOnly = (path: string, auth: string) => {
    const { port } = new URL(live.url);
    return new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\n` +
            "Accept: application/json, text/event-stream\r\nContent-Length: 70000\r\n\r\n",
        );
      });
      let got = "";
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer in 5 s: ${JSON.stringify(got)}`));
      }, 5_000);
      socket.on("data", (d) => {
        got += d.toString("latin1");
        if (/\r\n\r\n[\s\S]*\}/.test(got)) {
          clearTimeout(timer);
          socket.destroy();
          resolve(got);
        }
      });
      socket.on("error", reject);
    });
  };

  it("N8: a declared Content-Length of 70,000 on a 64 KiB route is 413 before the body is sent", async () => {
    const answer = await declareOnly("/api/v1/accounts/me/agents", `Authorization: Bearer ${key}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain('"body_too_large"');
    expect(answer).toContain('"limit_bytes":65536');
  });

  it("probe 9 Q2: an anonymous /mcp body declared over its 64 KiB is 413 (JSON-RPC) before it is sent", async () => {
    for (const path of ["/mcp", `/mcp/benchmarks/${slug}/http`]) {
      const answer = await declareOnly(path, "");
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toContain('"code":-32600');
      expect(answer).toContain('"limit_bytes":65536');
    }
  });
});

describe("O5: unknown members are refused naming them; nothing is written", () => {
  const expect422 = (r: { status: number; json: any }, path: string) => {
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe("invalid_request");
    expect(r.json.error.details.path).toBe(path);
  };

  it("POST /accounts {name, withdrawl_address}: 422, no account (the name registers afterwards)", async () => {
    const r = await call(live.url, "POST", "/api/v1/accounts", {
      body: { name: "strict-typo", withdrawl_address: ADDR },
    });
    expect422(r, "$.withdrawl_address");
    expect((await register(live.url, "strict-typo")).key).toMatch(/^bb/);
  });

  it("PUT withdrawal-address {withdrawal_address, agent_id} and POST agents {agent_id, is_author}", async () => {
    const me = await register(live.url, "strict-owner");
    expect422(
      await call(live.url, "PUT", "/api/v1/accounts/me/withdrawal-address", {
        key: me.key,
        body: { withdrawal_address: ADDR, agent_id: "strict-owner" },
      }),
      "$.agent_id",
    );
    expect422(
      await call(live.url, "POST", "/api/v1/accounts/me/agents", {
        key: me.key,
        body: { agent_id: "strict-owner-2", is_author: true },
      }),
      "$.is_author",
    );
    const after = (await call(live.url, "GET", "/api/v1/accounts/me", { key: me.key })).json;
    expect(after.withdrawal_address).toBeNull();
    expect(after.agents.map((a: { agent_id: string }) => a.agent_id)).toEqual(["strict-owner"]);
  });

  it("POST runs {agent_idd}: 422, no run started, no attempt used", async () => {
    const me = await register(live.url, "strict-runner");
    expect422(
      await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, {
        key: me.key,
        body: { agent_idd: "strict-runner" },
      }),
      "$.agent_idd",
    );
    const started = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key });
    expect(started.status).toBe(201);
    expect(started.json.run.attempt).toBe(1);
  });

  it("submissions, datasets, bounty and relayed claims: 422 naming the member", async () => {
    expect422(
      await call(live.url, "POST", "/api/v1/benchmarks/runs/run_x/submissions", {
        key,
        body: { answers: [{ ordinal: 0, answer_text: "x", answr: 1 }] },
      }),
      "$.answers[0].answr",
    );
    const dataset = { ...citiesDataset(2, "strict"), sanitise: true };
    expect422(await call(live.url, "POST", "/api/v1/datasets", { key, body: dataset }), "$.sanitise");
    expect422(
      await call(live.url, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
        key,
        body: { bounty_id: "1", bountyid: "1" },
      }),
      "$.bountyid",
    );
    expect422(
      await call(live.url, "POST", `/api/v1/benchmarks/${slug}/claims/relay`, {
        key,
        body: { account: ADDR, to: ADDR, deadline: 1, signature: `0x${"11".repeat(65)}`, nonce: 0 },
      }),
      "$.nonce",
    );
  });

  it("MCP register, benchmark_start_run and benchmark_list with an unknown argument: a tool error naming it", async () => {
    const reg = await rpc(toolCall("register", `{"name":"strict-mcp","withdrawl_address":"${ADDR}"}`));
    expect(reg.status).toBe(200);
    expect(reg.body.result.isError).toBe(true);
    expect(JSON.stringify(reg.body.result.content)).toContain("withdrawl_address");
    expect((await register(live.url, "strict-mcp")).key).toMatch(/^bb/); // no account was made

    const me = await register(live.url, "strict-mcp-runner");
    const start = await rpc(toolCall("benchmark_start_run", `{"slug":"${slug}","agnet_id":"x"}`), me.key);
    expect(start.body.result.isError).toBe(true);
    expect(JSON.stringify(start.body.result.content)).toContain("agnet_id");
    const ok = await rpc(toolCall("benchmark_start_run", `{"slug":"${slug}"}`), me.key);
    expect(ok.body.result.isError).toBeFalsy();
    expect(
      ok.body.result.structuredContent?.run?.attempt ??
        JSON.parse(ok.body.result.content[0].text).run.attempt,
    ).toBe(1);

    const list = await rpc(toolCall("benchmark_list", `{"k0":0}`));
    expect(list.body.result.isError).toBe(true);
    expect(JSON.stringify(list.body.result.content)).toContain("k0");
  });

  it("MCP tool arguments are refused as REST bodies are: one line, the REST body, at most 20 issues (probe13 C1)", async () => {
    const me = await register(live.url, "strict-mcp-many");
    for (const n of [3, 30_000]) {
      const answers = JSON.stringify(Array.from({ length: n }, () => ({ ordinal: "a", answer_text: null })));
      const r = await rpc(
        toolCall("benchmark_submit_answers", `{"run_id":"run-0123456789abcdef","answers":${answers}}`),
        me.key,
      );
      expect(r.status).toBe(200);
      expect(r.body.result.isError).toBe(true);
      expect(r.body.result.structuredContent.error).toMatchObject({
        code: "invalid_request",
        details: { path: "$.answers[0].ordinal" },
      });
      const details = r.body.result.structuredContent.error.details;
      expect(details.errors.length).toBeLessThanOrEqual(20);
      // 30,000 answers: checked one by one, stopped past the 20 served (probe D1-F3)
      if (n > 10) expect(details).toMatchObject({ errors_total_at_least: 22, truncated: true });
      expect(r.body.result.content[0].text).not.toContain("\n");
      expect(JSON.stringify(r.body).length).toBeLessThan(20_000); // was 9.1 MB for 60,000 answers
    }
  });

  it("tools/list and the OpenAPI document say additionalProperties: false", async () => {
    const tools = await rpc(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`);
    const register = tools.body.result.tools.find((t: { name: string }) => t.name === "register");
    expect(register.inputSchema.additionalProperties).toBe(false);
    const doc = (await call(live.url, "GET", "/api/v1/openapi.json")).json;
    for (const name of [
      "RegisterBody",
      "WithdrawalBody",
      "AgentBody",
      "StartRunBody",
      "SubmitBody",
      "DatasetBody",
    ])
      expect(doc.components.schemas[name].additionalProperties, name).toBe(false);
  });
});

describe("O9: account names are unique without regard to case", () => {
  it("P6V-x after p6v-x is 409 account_exists naming the existing name", async () => {
    await register(live.url, "p6v-strict");
    const r = await call(live.url, "POST", "/api/v1/accounts", { body: { name: "P6V-strict" } });
    expect(r.status).toBe(409);
    expect(r.json.error).toMatchObject({ code: "account_exists", details: { existing: "p6v-strict" } });
  });
});
