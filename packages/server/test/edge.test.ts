/**
 * The edge's own refusals: malformed JSON, wrong types (JSON path), media type, body limit, rate limit
 * (429 + Retry-After), unknown methods (405 + Allow), unknown paths, identity headers, the error table,
 * no stack trace, OpenAPI, the request's Host never reflected into `how_to_compete`.
 */
import { PlatformError } from "@bench-bounty/platform";
import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  createApp,
  DEFAULT_BASE_URL,
  platformDomain,
  STATUS_OF,
  webMiddleware,
  type Domain,
} from "../src/index.js";
import { call, publishCities, register, startLive, useLive } from "./helpers.js";

/** What the server logged as unexpected errors (a client's mistake must log nothing). */
const logged: unknown[] = [];
const live = useLive({ limits: { bodyBytes: 64 * 1024 }, log: (e) => logged.push(e) });
let slug: string;
let key: string;
let runId: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 6, "edge")).slug;
  key = (await register(live.url, "edge-competitor")).key;
  runId = (await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key })).json.run.id;
});

const submit = (opts: Parameters<typeof call>[3]) =>
  call(live.url, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, { key, ...opts });

describe("malformed requests", () => {
  it("bad JSON is 400 invalid_json naming the position", async () => {
    const r = await submit({ raw: '{"answers": [' });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe("invalid_json");
    expect(r.json.error.message).toMatch(/JSON/);
  });
  // issue 13 leftover: bodies were read with JSON.parse, which keeps the last of two equal keys,
  // accepts lone surrogates and (through c.req.text()) replaced invalid UTF-8 with U+FFFD
  it.each([
    [
      "a duplicate key",
      '{"answers": [], "answers": [{"ordinal": 0, "answer_text": "x"}]}',
      "duplicate_key",
      "$.answers",
    ],
    [
      "a duplicate key inside an answer",
      '{"answers": [{"ordinal": 0, "ordinal": 1, "answer_text": "x"}]}',
      "duplicate_key",
      "$.answers[0].ordinal",
    ],
    [
      "an escaped lone surrogate",
      '{"answers": [{"ordinal": 0, "answer_text": "\\ud800"}]}',
      "lone_surrogate",
      "$.answers[0].answer_text",
    ],
    ["NaN", '{"answers": [{"ordinal": NaN, "answer_text": "x"}]}', "nan", "$.answers[0].ordinal"],
    ["trailing data", '{"answers": []} {}', "invalid_json", "$"],
  ])(
    "%s is 400 invalid_json with the parser's reason and the JSON path",
    async (_what, raw, reason, path) => {
      const r = await submit({ raw });
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe("invalid_json");
      expect(r.json.error.details).toEqual({ path, reason });
      if (path !== "$") expect(r.json.error.message).toContain(path);
    },
  );
  it("invalid UTF-8 bytes are 400 invalid_json (never replaced with U+FFFD)", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"answers": [{"ordinal": 0, "answer_text": "'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}]}'),
    ]);
    const res = await fetch(`${live.url}/api/v1/benchmarks/runs/${runId}/submissions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: bytes,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; details: Record<string, unknown> } };
    expect(body.error.code).toBe("invalid_json");
    // the path of the value holding the byte (probeD3 F5: it was "$")
    expect(body.error.details).toEqual({
      path: "$.answers[0].answer_text",
      reason: "invalid_utf8",
      byte_offset: 44,
    });
  });
  it.each(["/api/v1/datasets", "/api/v1/datasets/validate"])(
    "a dataset body with invalid UTF-8 (%s) names the byte offset and the row's JSON path (it was silently replaced with U+FFFD, then named only $)",
    async (route) => {
      // one line, the bad byte in row 3's payload (probeD3 F5)
      const row = (i: number, x: string) =>
        `{"decision_ts": "2026-01-0${i + 1}T00:00:00Z", "payload": {"x": "${x}"}, "label": "a${i}"}`;
      const rows = [0, 1, 2, 3, 4].map((i) => row(i, `r${i}`)).join(", ");
      const [head, tail] = `{"name": "u", "rows": [${rows}]}`.split('"r3"') as [string, string];
      const bytes = Buffer.concat([Buffer.from(`${head}"r`), Buffer.from([0xff]), Buffer.from(`3"${tail}`)]);
      const at = Buffer.byteLength(`${head}"r`);
      const res = await fetch(`${live.url}${route}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: bytes,
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { message: string; details: Record<string, unknown> } };
      expect(body.error.details).toEqual({
        path: "$.rows[3].payload.x",
        reason: "invalid_utf8",
        byte_offset: at,
      });
      expect(body.error.message).toContain(`offset ${at} ($.rows[3].payload.x)`);
    },
  );
  it("a dataset upload (lossless body) with a duplicate key is refused the same way", async () => {
    const r = await call(live.url, "POST", "/api/v1/datasets", {
      key,
      raw: '{"name": "d", "name": "e", "rows": []}',
    });
    expect(r.status).toBe(400);
    expect(r.json.error.details).toEqual({ path: "$.name", reason: "duplicate_key" });
  });
  it("a wrong type is 422 invalid_request naming the JSON path", async () => {
    const r = await submit({ body: { answers: [{ ordinal: "zero", answer_text: "x" }] } });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe("invalid_request");
    expect(r.json.error.details.path).toBe("$.answers[0].ordinal");
    const missing = await submit({ body: {} });
    expect(missing.json.error.details.path).toBe("$.answers");
  });
  it("a non-JSON media type is 415", async () => {
    const r = await submit({
      raw: "answers=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(415);
    expect(r.json.error.code).toBe("unsupported_media_type");
    // probe34 A-N2: another JSON-like media type, or two of them, was read as JSON
    const body = JSON.stringify({ answers: [{ ordinal: 0, answer_text: "x" }] });
    for (const type of [
      "application/json-seq",
      "application/json, text/plain",
      "application/jsonx",
      "application/+json",
    ]) {
      const odd = await submit({ raw: body, headers: { "content-type": type } });
      expect(odd.status, type).toBe(415);
      expect(odd.json.error).toMatchObject({
        code: "unsupported_media_type",
        details: { content_type: type },
      });
    }
    for (const type of [
      "application/json",
      "Application/JSON ; charset=utf-8",
      "application/merge-patch+json",
    ]) {
      const ok = await submit({ raw: body, headers: { "content-type": type } });
      expect(ok.status, type).not.toBe(415);
    }
  });
  it("a charset other than UTF-8 or a compressed body is 415, not parsed raw (probe13)", async () => {
    const body = JSON.stringify({ answers: [{ ordinal: 0, answer_text: "x" }] });
    for (const [headers, detail] of [
      [{ "content-type": "application/json; charset=utf-16" }, { charset: "utf-16" }],
      [{ "content-type": "application/json; charset=utf-8; charset=latin1" }, { charset: "utf-8,latin1" }],
      [{ "content-type": "application/json", "content-encoding": "gzip" }, { content_encoding: "gzip" }],
    ] as const) {
      const r = await submit({ raw: body, headers });
      expect(r.status, JSON.stringify(headers)).toBe(415);
      expect(r.json.error).toMatchObject({ code: "unsupported_media_type", details: detail });
    }
    // UTF-8 named in any spelling is read
    for (const charset of ["utf-8", "UTF-8", '"utf-8"', "utf8"]) {
      const r = await submit({
        raw: body,
        headers: { "content-type": `application/json; charset=${charset}` },
      });
      expect(r.status, charset).not.toBe(415);
    }
  });
  it("a body over the limit is 413, whether or not Content-Length says so", async () => {
    const big = JSON.stringify({ answers: [{ ordinal: 0, answer_text: "x".repeat(70 * 1024) }] });
    const r = await submit({ raw: big });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe("body_too_large");
    expect(r.json.error.details.limit_bytes).toBe(64 * 1024);
  });
  // The body is read from the node request unless it comes without Content-Length (node-body.ts):
  // a chunked body still goes through the streamed limit, over it and under it.
  it("a chunked body (no Content-Length) over the limit is 413; under it, it is read as JSON", async () => {
    logged.length = 0;
    const chunked = (text: string) =>
      fetch(`${live.url}/api/v1/benchmarks/runs/${runId}/submissions`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: new ReadableStream({
          start(c) {
            const bytes = new TextEncoder().encode(text);
            for (let i = 0; i < bytes.length; i += 1000) c.enqueue(bytes.subarray(i, i + 1000));
            c.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    const over = await chunked(
      JSON.stringify({ answers: [{ ordinal: 0, answer_text: "x".repeat(70 * 1024) }] }),
    );
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe("body_too_large");
    const under = await chunked(JSON.stringify({ answers: [{ ordinal: 0, answer_text: "y".repeat(5000) }] }));
    expect(under.status).toBe(200);
    expect(((await under.json()) as { accepted: number }).accepted).toBe(1);
    // the read Hono's limit stopped is no server fault: nothing logged as unexpected
    expect(logged).toEqual([]);
  });
  it("an answer over the domain's answer length is 422 answer_too_long", async () => {
    const live2 = await startLive();
    try {
      const s = (await publishCities(live2.url, 4, "long")).slug;
      const k = (await register(live2.url, "long")).key;
      const id = (await call(live2.url, "POST", `/api/v1/benchmarks/${s}/runs`, { key: k })).json.run.id;
      const r = await call(live2.url, "POST", `/api/v1/benchmarks/runs/${id}/submissions`, {
        key: k,
        body: { answers: [{ ordinal: 0, answer_text: "y".repeat(100_001) }] },
      });
      expect(r.status).toBe(422);
      expect(r.json.error.details.errors[0].code).toBe("answer_too_long");
    } finally {
      await live2.stop();
    }
  });
  // probe33 B-F9: Allow never listed OPTIONS, which every served path under /api answers (204)
  it("an unknown method on a known path is 405 with Allow (OPTIONS included); an unknown path 404", async () => {
    const r = await call(live.url, "DELETE", `/api/v1/benchmarks/${slug}`);
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(r.json.error.code).toBe("method_not_allowed");
    const p = await call(live.url, "PATCH", `/api/v1/benchmarks/runs/${runId}/finalize`, { key });
    expect(p.status).toBe(405);
    expect(p.headers.get("allow")).toBe("OPTIONS, POST");
    const lb = await call(live.url, "PATCH", `/api/v1/benchmarks/${slug}/leaderboard`);
    expect([lb.status, lb.headers.get("allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
    const n = await call(live.url, "GET", "/api/v1/nothing-here");
    expect(n.status).toBe(404);
    expect(n.json.error.code).toBe("not_found");
  });
  // probe26 A-F4: DELETE /datasets/:dataset_id took the literal segments of the other dataset routes as
  // ids (404 "no dataset mine"), and their Allow listed DELETE
  it("a literal dataset path is served by its own routes only: 405 with its Allow, never a dataset id", async () => {
    for (const [path, allow] of [
      ["/api/v1/datasets/mine", "GET, HEAD, OPTIONS"],
      ["/api/v1/datasets/formats", "GET, HEAD, OPTIONS"],
      ["/api/v1/datasets/validate", "OPTIONS, POST"],
    ] as const)
      for (const method of ["DELETE", "PUT", allow === "OPTIONS, POST" ? "GET" : "POST"]) {
        const r = await call(live.url, method, path, { key });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.get("allow"), `${method} ${path}`).toBe(allow);
        expect(r.json.error).toMatchObject({
          code: "method_not_allowed",
          details: { allow: allow.split(", ") },
        });
      }
    // an id is still an id: DELETE of one that does not exist is 404 naming it
    const gone = await call(live.url, "DELETE", "/api/v1/datasets/ds-0000000000000000", { key });
    expect(gone.status).toBe(404);
    expect(gone.json.error.details).toMatchObject({ dataset_id: "ds-0000000000000000" });
    // OPTIONS names the same methods
    const o = await call(live.url, "OPTIONS", "/api/v1/datasets/mine");
    expect(o.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("identity headers", () => {
  it("no key 401, wrong key 403 naming the rule, Bearer accepted, two different keys refused", async () => {
    const none = await call(live.url, "GET", "/api/v1/accounts/me");
    expect(none.status).toBe(401);
    expect(none.json.error.details.rule).toBe("key_required");
    const wrong = await call(live.url, "GET", "/api/v1/accounts/me", { key: "bb_not_a_key" });
    expect(wrong.status).toBe(403);
    expect(wrong.json.error.details.rule).toBe("known_key");
    expect(wrong.json.error.message).toMatch(/invalid API key/);
    const bearer = await call(live.url, "GET", "/api/v1/accounts/me", {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(bearer.status).toBe(200);
    expect(bearer.json.keys.map((k: any) => k.key_prefix)).toEqual([
      key.slice(0, bearer.json.keys[0].key_prefix.length),
    ]);
    expect(bearer.text).not.toContain(key);
    const basic = await call(live.url, "GET", "/api/v1/accounts/me", {
      headers: { authorization: "Basic abc" },
    });
    expect(basic.status).toBe(401);
    const two = await call(live.url, "GET", "/api/v1/accounts/me", {
      key,
      headers: { authorization: "Bearer bb_other" },
    });
    expect(two.status).toBe(422);
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After once an account's bucket is empty, and recovers", async () => {
    let t = 0;
    const app = createApp({
      domain: {
        // k1 and k1b are two keys of account a; k2 is account b's
        authenticate: async (key: string) => ({
          account_id: key === "k2" ? "acct_b" : "acct_a",
          roles: ["competitor"],
          via: "key",
          key_prefix: `bbk_${key}`,
        }),
        listBenchmarks: async () => ({ benchmarks: [] }),
      } as unknown as Domain,
      limits: { rateBurst: 3, ratePerSecond: 0.5 },
      now: () => t,
    });
    const get = () => app.request("/api/v1/benchmarks", { headers: { "x-api-key": "k1" } });
    for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
    const r = await get();
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("2");
    expect(((await r.json()) as any).error.code).toBe("rate_limited");
    const sameAccount = await app.request("/api/v1/benchmarks", { headers: { "x-api-key": "k1b" } });
    expect(sameAccount.status).toBe(429);
    const other = await app.request("/api/v1/benchmarks", { headers: { "x-api-key": "k2" } });
    expect(other.status).toBe(200);
    t += 2000;
    expect((await get()).status).toBe(200);
  });
});

describe("rate limit of refused keys (issue 13 re-probe F7)", () => {
  it("unknown keys are limited by the caller's address: 403 until the bucket is empty, then 429", async () => {
    const app = createApp({
      domain: {
        authenticate: async () => {
          throw new PlatformError("unauthenticated", "invalid API key", {});
        },
        listBenchmarks: async () => ({ benchmarks: [] }),
      } as unknown as Domain,
      limits: { rateBurst: 3, ratePerSecond: 0.5 },
      now: () => 0,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await app.request("/api/v1/benchmarks", { headers: { "x-api-key": `guess${i}` } })).status,
      );
    expect(statuses).toEqual([403, 403, 403, 429, 429]);
    // the same address's anonymous calls share the bucket
    expect((await app.request("/api/v1/benchmarks")).status).toBe(429);
  });
});

describe("one error handler", () => {
  it("an unexpected error is 500 internal_error with no message, path or stack", async () => {
    const logged: unknown[] = [];
    const app = createApp({
      domain: {
        authenticate: async () => {
          throw new Error("unused");
        },
        listBenchmarks: async () => {
          throw new Error("SECRET /var/store/platform.sqlite at line 42");
        },
      } as unknown as Domain,
      log: (e) => logged.push(e),
    });
    const r = await app.request("/api/v1/benchmarks");
    expect(r.status).toBe(500);
    const text = await r.text();
    expect(text).not.toMatch(/SECRET|sqlite|at line|\.ts:/);
    expect(JSON.parse(text).error.code).toBe("internal_error");
    expect(logged).toHaveLength(1);
  });
  it("every code the platform throws has a status in the one table", async () => {
    const src = await import("node:fs").then((fs) =>
      fs.readFileSync(new URL("../../platform/src/errors.ts", import.meta.url), "utf8"),
    );
    const block = /export type PlatformErrorCode =([\s\S]*?);/.exec(src)![1]!;
    const codes = [...block.matchAll(/"([a-z_]+)"/g)].map((m) => m[1]!);
    expect(codes.length).toBeGreaterThan(20);
    for (const c of codes) expect(STATUS_OF[c], c).toBeTypeOf("number");
    expect(new PlatformError("unknown_run", "x").code).toBe("unknown_run");
  });
});

describe("small edges", () => {
  it("CORS on public reads only: GET and its preflight yes (no key headers), writes no", async () => {
    const origin = { origin: "https://board.example" };
    const list = await call(live.url, "GET", "/api/v1/benchmarks", { headers: origin });
    expect(list.headers.get("access-control-allow-origin")).toBe("*");
    const pre = await fetch(`${live.url}/api/v1/benchmarks/${slug}`, {
      method: "OPTIONS",
      headers: {
        ...origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-api-key",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET,HEAD");
    expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).not.toContain("x-api-key");
    const write = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key, headers: origin });
    expect(write.headers.get("access-control-allow-origin")).toBeNull();
  });
  it("a preflight on a path no route serves is the same 404 as GET and HEAD (probe9 Q4)", async () => {
    const preflight = { origin: "https://board.example", "access-control-request-method": "GET" };
    for (const path of [`/api/v1/benchmarks/${slug}/mcp`, "/api/v1/nope", "/api/v2/benchmarks"]) {
      const pre = await call(live.url, "OPTIONS", path, { headers: preflight });
      const get = await call(live.url, "GET", path, { headers: preflight });
      const head = await fetch(`${live.url}${path}`, { method: "HEAD" });
      expect([pre.status, get.status, head.status], path).toEqual([404, 404, 404]);
      expect(pre.json, path).toEqual(get.json);
      expect(pre.headers.get("access-control-allow-methods"), path).toBeNull();
    }
    const served = await call(live.url, "OPTIONS", "/api/v1/accounts", { headers: preflight });
    expect(served.status).toBe(204);
  });
  it("a preflight names the methods its path serves (Allow), grants CORS to reads only, and reads the query as the GET does (probe10 R6)", async () => {
    const preflight = { origin: "https://board.example", "access-control-request-method": "POST" };
    for (const path of ["/api/v1/accounts", "/api/v1/benchmarks/runs/run-x/submissions"]) {
      const pre = await call(live.url, "OPTIONS", path, { headers: preflight });
      expect(pre.status, path).toBe(204);
      expect(pre.headers.get("allow"), path).toBe("OPTIONS, POST");
      expect(pre.headers.get("access-control-allow-methods"), path).toBeNull(); // was GET,HEAD
      expect(pre.headers.get("access-control-allow-origin"), path).toBeNull();
    }
    const read = await call(live.url, "OPTIONS", `/api/v1/benchmarks/${slug}/leaderboard?offset=0&limit=5`, {
      headers: { ...preflight, "access-control-request-method": "GET" },
    });
    expect(read.status).toBe(204);
    expect(read.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(read.headers.get("access-control-allow-methods")).toBe("GET,HEAD");
    for (const path of [
      "/api/v1/benchmarks?x=1",
      `/api/v1/benchmarks/${slug}/leaderboard?x=1`,
      "/api/v1/accounts?=",
    ]) {
      const pre = await call(live.url, "OPTIONS", path, { headers: preflight });
      const method = path.startsWith("/api/v1/accounts") ? "POST" : "GET";
      const direct = await call(live.url, method, path, method === "POST" ? { body: {} } : {});
      expect([pre.status, direct.status], path).toEqual([400, 400]);
      expect(pre.json.error, path).toEqual(direct.json.error);
      expect(pre.headers.get("access-control-allow-methods"), path).toBeNull();
    }
  });
  it("list items carry grader_type and version; the detail names its chain (none off-chain)", async () => {
    const list = await call(live.url, "GET", "/api/v1/benchmarks");
    const item = list.json.benchmarks.find((b: { slug: string }) => b.slug === slug);
    const detail = await call(live.url, "GET", `/api/v1/benchmarks/${slug}`);
    expect(item.grader_type).toBe(detail.json.grader_type);
    expect(item.version).toBe(detail.json.commitment.commit_root.slice(0, 10));
    expect(detail.json.version).toBe(item.version);
    expect(detail.json.chain).toBeNull();
  });
  it("an empty JSON-RPC batch on MCP is one Invalid Request error, not a bare 202", async () => {
    for (const path of ["/mcp", `/mcp/benchmarks/${slug}/http`]) {
      const r = await call(live.url, "POST", path, {
        raw: " [ ] ",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      });
      expect(r.status, path).toBe(400);
      expect(r.json).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: $: the batch is empty", data: { path: "$" } },
      });
    }
  });
  it("every method but POST on MCP is 405 with the same Allow (probe8 P6): the stateless endpoints serve no GET stream and end no session with DELETE (probe35 A-N2: 200 with an empty body)", async () => {
    for (const path of ["/mcp", `/mcp/benchmarks/${slug}/http`]) {
      for (const method of ["OPTIONS", "PUT", "GET", "DELETE", "HEAD"]) {
        const r = await fetch(`${live.url}${path}`, {
          method,
          headers: { accept: "application/json, text/event-stream" },
          signal: AbortSignal.timeout(5000),
        });
        const text = await r.text();
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.get("allow"), `${method} ${path}`).toBe("POST");
        if (method !== "HEAD") expect(JSON.parse(text).error.details.allow).toEqual(["POST"]);
      }
    }
  });
  it("a query parameter with an empty name, and any on the OpenAPI document, MCP, config.json and the assets, is 400 (probe8 P5)", async () => {
    for (const q of ["?=", "?&", "?=1", "?status=open&", "?&status=open"]) {
      const r = await call(live.url, "GET", `/api/v1/benchmarks${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error.code, q).toBe("invalid_query");
      expect(r.json.error.details.parameter, q).toBe("");
    }
    expect((await call(live.url, "GET", "/api/v1/benchmarks?")).status).toBe(200);
    expect((await call(live.url, "GET", `/api/v1/benchmarks/${slug}/leaderboard?&limit=5`)).status).toBe(400);
    const doc = await call(live.url, "GET", "/api/v1/openapi.json?x=1");
    expect(doc.status).toBe(400);
    expect(doc.json.error).toMatchObject({ code: "invalid_query", details: { parameter: "x" } });
    expect((await call(live.url, "GET", "/api/v1/openapi.json")).status).toBe(200);
    for (const path of ["/mcp", `/mcp/benchmarks/${slug}/http`]) {
      const r = await call(live.url, "POST", `${path}?x=1`, {
        body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
        headers: { accept: "application/json, text/event-stream" },
      });
      expect(r.status, path).toBe(400);
      expect(r.json.error, path).toMatchObject({ code: "invalid_query", details: { parameter: "x" } });
    }
    const app = createApp({ domain: platformDomain(live.platform), web: webMiddleware({}) });
    const page = await (await app.request("/")).text();
    const asset = /\/assets\/[^"']+/.exec(page)?.[0];
    expect(asset).toBeDefined();
    for (const path of ["/config.json", asset!]) {
      expect((await app.request(path)).status, path).toBe(200);
      const r = await app.request(`${path}?x=1`);
      expect(r.status, path).toBe(400);
      expect(((await r.json()) as { error: { details: unknown } }).error.details).toEqual({ parameter: "x" });
      expect((await app.request(`${path}?=`)).status, path).toBe(400);
    }
  });
  it("the page itself (/ and /index.html) is served whatever the query: a shared link's ?utm_source=, ?fbclid=", async () => {
    const app = createApp({ domain: platformDomain(live.platform), web: webMiddleware({}) });
    for (const path of ["/", "/index.html"]) {
      const plain = await app.request(path);
      expect(plain.status, path).toBe(200);
      const body = await plain.text();
      expect(body, path).toContain("<html");
      for (const q of ["?utm_source=x&fbclid=y", "?gclid=z", "?="]) {
        const r = await app.request(`${path}${q}`);
        expect(r.status, `${path}${q}`).toBe(200);
        expect(await r.text(), `${path}${q}`).toBe(body);
      }
      expect((await app.request(`${path}?utm_source=x`, { method: "HEAD" })).status, path).toBe(200);
    }
  });
  it("POST / on the web app is 405 with Allow: GET, HEAD (not 404); the API's 404 stays", async () => {
    const app = createApp({ domain: platformDomain(live.platform), web: webMiddleware({}) });
    expect((await app.request("/")).status).toBe(200);
    for (const path of ["/", "/index.html", "/config.json"]) {
      const r = await app.request(path, { method: "POST" });
      expect(r.status, path).toBe(405);
      expect(r.headers.get("allow")).toBe("GET, HEAD");
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
    }
    expect((await app.request("/nothing-here", { method: "POST" })).status).toBe(404);
  });
  it("an asset that does not exist is 404 for every method, as GET there (probe30 A-F9: POST was 405 Allow: GET, HEAD); an existing one's POST stays 405", async () => {
    const app = createApp({ domain: platformDomain(live.platform), web: webMiddleware({}) });
    const asset = /\/assets\/[^"']+/.exec(await (await app.request("/")).text())?.[0];
    expect(asset).toBeDefined();
    for (const method of ["GET", "HEAD", "POST", "PUT", "DELETE"]) {
      const r = await app.request("/assets/nope.js", { method });
      expect(r.status, method).toBe(404);
      expect(r.headers.get("allow"), method).toBeNull();
    }
    const post = await app.request(asset!, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("OpenAPI", () => {
  it("serves a 3.1 document listing the routes with their schemas", async () => {
    const r = await call(live.url, "GET", "/api/v1/openapi.json");
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe("3.1.0");
    const paths = Object.keys(r.json.paths);
    for (const p of [
      "/api/v1/benchmarks",
      "/api/v1/benchmarks/{slug}",
      "/api/v1/benchmarks/{slug}/runs",
      "/api/v1/benchmarks/runs/{run_id}/submissions",
      "/api/v1/benchmarks/runs/{run_id}/finalize",
      "/api/v1/benchmarks/runs/mine",
      "/api/v1/datasets",
      "/api/v1/datasets/{dataset_id}/benchmark",
      "/api/v1/benchmarks/{slug}/award-evidence",
    ])
      expect(paths, p).toContain(p);
    const submitOp = r.json.paths["/api/v1/benchmarks/runs/{run_id}/submissions"].post;
    expect(JSON.stringify(submitOp.requestBody)).toContain("SubmitBody");
    expect(r.json.components.schemas.SubmitBody.properties.answers.type).toBe("array");
  });
  it("declares an optional key on the reads whose answer depends on it (probe29 A-F5)", async () => {
    const r = await call(live.url, "GET", "/api/v1/openapi.json");
    const optional = [{}, { ApiKey: [] }, { Bearer: [] }];
    for (const p of [
      "/api/v1/benchmarks/{slug}",
      "/api/v1/benchmarks/{slug}/leaderboard",
      "/api/v1/benchmarks/{slug}/entries",
      "/api/v1/benchmarks/{slug}/task-scores",
      "/api/v1/benchmarks/{slug}/runs/{run_id}/receipt",
    ])
      expect(r.json.paths[p].get.security, p).toEqual(optional);
    // a keyed route keeps its required key; a keyless one declares none
    expect(r.json.paths["/api/v1/benchmarks/runs/mine"].get.security).toEqual([
      { ApiKey: [] },
      { Bearer: [] },
    ]);
    expect(r.json.paths["/api/v1/benchmarks/{slug}/runs/{run_id}/receipt"].get.summary).toContain(
      "to its author at any time",
    );
  });
  it("builds and serialises the document once: the same bytes and ETag every time, 304 on If-None-Match (probe11 O8)", async () => {
    const app = createApp({ domain: platformDomain(live.platform) });
    const build = vi.spyOn(app, "getOpenAPI31Document");
    const a = await app.request("/api/v1/openapi.json");
    const b = await app.request("/api/v1/openapi.json");
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toContain("application/json");
    const bytesA = Buffer.from(await a.arrayBuffer());
    expect(Buffer.from(await b.arrayBuffer()).equals(bytesA)).toBe(true);
    expect((JSON.parse(bytesA.toString("utf8")) as { openapi: string }).openapi).toBe("3.1.0");
    const etag = a.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(b.headers.get("etag")).toBe(etag);
    const again = await app.request("/api/v1/openapi.json", { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect(build).toHaveBeenCalledTimes(1);
  });
});

/** A GET sent with its own `Host` header (fetch cannot set one). */
function getWithHost(url: string, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the request's Host is never reflected (issue 13 gap)", () => {
  it("without --public-url, how_to_compete names the address serve listens on, whatever Host says", async () => {
    const r = await getWithHost(`${live.url}/api/v1/benchmarks/${slug}`, "evil.example");
    expect(r.status, r.text).toBe(200);
    const how = (JSON.parse(r.text) as { how_to_compete: string }).how_to_compete;
    expect(how).not.toContain("evil.example");
    expect(how).toContain(`${live.url}/api/v1/benchmarks/${slug}/runs`);
  });

  it("with --public-url it names that URL; an app not listening names serve's default address", async () => {
    const domain = platformDomain(live.platform);
    const pub = createApp({ domain, publicBaseUrl: "https://bench.example/" });
    const a = await pub.request(`http://evil.example/api/v1/benchmarks/${slug}`);
    const how = ((await a.json()) as { how_to_compete: string }).how_to_compete;
    expect(how).toContain(`https://bench.example/api/v1/benchmarks/${slug}/runs`);
    expect(how).not.toContain("evil.example");
    const bare = createApp({ domain });
    const b = await bare.request(`http://evil.example/api/v1/benchmarks/${slug}`, {
      headers: { host: "evil.example" },
    });
    const bareHow = ((await b.json()) as { how_to_compete: string }).how_to_compete;
    expect(bareHow).toContain(`${DEFAULT_BASE_URL}/api/v1/benchmarks/${slug}/runs`);
    expect(bareHow).not.toContain("evil.example");
  });

  it("a --public-url with a path prefix: how_to_compete's curl reaches the route behind a proxy on that prefix (probe11 O10)", async () => {
    const domain = platformDomain(live.platform);
    const pub = createApp({ domain, publicBaseUrl: "https://bench.example/bb/" });
    const how = (await pub.request(`/api/v1/benchmarks/${slug}`)).json() as Promise<{
      how_to_compete: string;
    }>;
    const read = /Read the detail: curl -s (\S+)/.exec((await how).how_to_compete)![1]!;
    expect(read).toBe(`https://bench.example/bb/api/v1/benchmarks/${slug}`);
    // the proxy serving https://bench.example/bb/ strips the prefix: the route answers
    const r = await pub.request(read.slice("https://bench.example/bb".length));
    expect(r.status).toBe(200);
    expect(((await r.json()) as { slug: string }).slug).toBe(slug);
  });
});
