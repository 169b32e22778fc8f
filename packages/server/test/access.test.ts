/**
 * The access matrix: every route x {no key, competitor, other competitor, author, other author,
 * operator}. Each cell is the status the platform's owner rules give; the body of every 401/403 names
 * its rule.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { KEYED_TOOLS } from "../src/mcp/tools.js";
import {
  call,
  citiesDataset,
  CITIES_PUBLISH,
  OPERATOR_KEY,
  publishCities,
  register,
  useLive,
  postMcp,
} from "./helpers.js";

type Who = "anon" | "competitor" | "other_competitor" | "author" | "other_author" | "operator";
const WHO: Who[] = ["anon", "competitor", "other_competitor", "author", "other_author", "operator"];

const live = useLive();
const keys: Record<Who, string | null> = {
  anon: null,
  competitor: "",
  other_competitor: "",
  author: "",
  other_author: "",
  operator: OPERATOR_KEY,
};
let slug = "";
let runId = "";
let spareDataset = "";
let doomedDataset = "";

beforeAll(async () => {
  const pub = await publishCities(live.url, 6, "matrix");
  slug = pub.slug;
  keys.author = pub.author.key;
  keys.other_author = (await register(live.url, "other-author")).key;
  keys.competitor = (await register(live.url, "competitor")).key;
  keys.other_competitor = (await register(live.url, "other-competitor")).key;
  runId = (await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: keys.competitor })).json.run
    .id;
  spareDataset = (
    await call(live.url, "POST", "/api/v1/datasets", { key: keys.author, body: citiesDataset(4, "spare") })
  ).json.dataset_id;
  doomedDataset = (
    await call(live.url, "POST", "/api/v1/datasets", { key: keys.author, body: citiesDataset(3, "doomed") })
  ).json.dataset_id;
});

interface Row {
  method: string;
  path: () => string;
  body?: () => unknown;
  expect: Record<Who, number>;
}
const all = (s: number): Record<Who, number> => ({
  anon: s,
  competitor: s,
  other_competitor: s,
  author: s,
  other_author: s,
  operator: s,
});
const keyed = (s: number, over: Partial<Record<Who, number>> = {}): Record<Who, number> => ({
  ...all(s),
  anon: 401,
  ...over,
});

// Order matters where a call changes state: the run's owner finalizes last.
const MATRIX: Row[] = [
  { method: "GET", path: () => "/api/v1/benchmarks", expect: all(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/corpus`, expect: keyed(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/leaderboard`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/commitment`, expect: all(200) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/award-evidence`, expect: all(404) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/entries`, expect: all(200) },
  // open: per-task credit to the author only (SPEC 6.1); everyone else 404 task_scores_withheld
  {
    method: "GET",
    path: () => `/api/v1/benchmarks/${slug}/task-scores`,
    expect: { ...all(404), author: 200 },
  },
  // no pack yet: 404 verification_unavailable for every reader; a re-verification is refused first
  // to anyone but the author and the operator (their 404 comes after the owner rule)
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/verification`, expect: all(404) },
  { method: "GET", path: () => `/api/v1/benchmarks/${slug}/verification/report`, expect: all(404) },
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/${slug}/verification`,
    expect: keyed(403, { author: 404, operator: 404 }),
  },
  // off-chain: no_chain (503) for any key; the devchain test covers wrong signers and the owner of the credit
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/${slug}/claims/relay`,
    body: () => ({
      account: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      deadline: "4000000000",
      signature: "0x" + "11".repeat(65),
    }),
    expect: keyed(503),
  },
  { method: "GET", path: () => "/api/v1/datasets/formats", expect: all(200) },
  {
    method: "POST",
    path: () => "/api/v1/datasets/validate",
    body: () => citiesDataset(3, "v"),
    expect: keyed(200),
  },
  { method: "GET", path: () => "/api/v1/scripts/run-benchmark.sh", expect: all(200) },
  { method: "GET", path: () => "/api/v1/content/compete-on-benchmarks.md", expect: all(200) },
  { method: "GET", path: () => "/api/v1/accounts/me", expect: keyed(200) },
  // probe28 A-F7: one more key for the caller's own account; the operator's key owns none
  { method: "POST", path: () => "/api/v1/accounts/me/keys", expect: keyed(201, { operator: 403 }) },
  { method: "GET", path: () => "/api/v1/benchmarks/runs/mine", expect: keyed(200) },
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/${slug}/runs`,
    expect: keyed(201, { competitor: 409, operator: 403 }),
  },
  {
    method: "GET",
    path: () => `/api/v1/benchmarks/runs/${runId}`,
    expect: keyed(403, { competitor: 200, author: 200, operator: 200 }),
  },
  {
    method: "GET",
    path: () => `/api/v1/benchmarks/runs/${runId}/tasks`,
    expect: keyed(403, { competitor: 200 }),
  },
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/runs/${runId}/submissions`,
    body: () => ({ answers: [{ ordinal: 0, answer_text: "x" }] }),
    expect: keyed(403, { competitor: 200 }),
  },
  {
    method: "GET",
    path: () => `/api/v1/benchmarks/${slug}/runs/${runId}/receipt`,
    expect: { ...all(404), author: 404 },
  },
  { method: "GET", path: () => "/api/v1/datasets/mine", expect: keyed(200) },
  // the dataset owner rule: everyone else is refused first (403), then the author deletes it
  {
    method: "DELETE",
    path: () => `/api/v1/datasets/${doomedDataset}`,
    expect: keyed(403, { author: 200 }),
  },
  {
    method: "POST",
    path: () => `/api/v1/datasets/${spareDataset}/benchmark`,
    body: () => CITIES_PUBLISH,
    expect: keyed(403, { author: 201 }),
  },
  // The author rule comes before the chain: a non-author gets 403 benchmark_author_only; off-chain the
  // author and the operator get `no_chain` (503).
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/${slug}/bounty`,
    body: () => ({ bounty_id: "1" }),
    expect: keyed(403, { author: 503, operator: 503 }),
  },
  { method: "POST", path: () => `/api/v1/benchmarks/${slug}/award`, expect: keyed(403, { operator: 503 }) },
  {
    method: "PUT",
    path: () => "/api/v1/accounts/me/withdrawal-address",
    body: () => ({ withdrawal_address: "0x1111111111111111111111111111111111111111" }),
    expect: keyed(200, { operator: 403 }),
  },
  {
    method: "POST",
    path: () => `/api/v1/benchmarks/runs/${runId}/finalize`,
    expect: keyed(403, { competitor: 200 }),
  },
];

describe("access matrix", () => {
  it("every route answers each identity as its owner rule says, naming the rule", async () => {
    const seen: string[] = [];
    const wrong: string[] = [];
    for (const row of MATRIX) {
      // The owner's state-changing call goes last in its row (others must be refused first).
      const order = [...WHO].sort((a, b) => Number(row.expect[a] < 300) - Number(row.expect[b] < 300));
      for (const who of order) {
        const r = await call(live.url, row.method, row.path(), {
          key: keys[who],
          ...(row.body ? { body: row.body() } : {}),
        });
        const cell = `${row.method} ${row.path()} as ${who}: ${r.status}`;
        seen.push(cell);
        if (r.status !== row.expect[who])
          wrong.push(`${cell} (expected ${row.expect[who]}: ${r.text.slice(0, 200)})`);
        if (r.status === 401 || r.status === 403) {
          expect(r.json.error.details.rule, cell).toBeTypeOf("string");
          expect(r.json.error.message, cell).not.toBe("");
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(seen.length).toBe(MATRIX.length * WHO.length);
  });
});

/**
 * Authentication comes before the body (probe of issue 15): on every route that needs a key, a request
 * without one is 401 `key_required` and one with a key nobody holds is 403 `known_key`, whatever its
 * body (malformed JSON, a wrong type, a wrong media type, members a body-less route does not take).
 * The routes come from the OpenAPI document, so a new route is covered when it is added.
 */
describe("authentication before validation", () => {
  const BAD_BODIES: { what: string; raw: string; type: string }[] = [
    { what: "malformed JSON", raw: '{"answers": [', type: "application/json" },
    { what: "a wrong type", raw: '[1, "two"]', type: "application/json" },
    { what: "a duplicate key", raw: '{"a": 1, "a": 2}', type: "application/json" },
    { what: "a wrong media type", raw: "answers=1", type: "application/x-www-form-urlencoded" },
  ];
  const UNKNOWN_KEY = "bb_" + "0".repeat(40);

  it("every keyed REST route answers 401 without a key and 403 for an unknown key, before reading the body", async () => {
    const doc = (await call(live.url, "GET", "/api/v1/openapi.json")).json as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const keyed = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        // a key is required where the security names no `{}` (none) alternative (optional: probe29 A-F5)
        .filter(
          ([, op]) =>
            (op.security ?? []).length > 0 &&
            !(op.security ?? []).some((s) => Object.keys(s as object).length === 0),
        )
        .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, "x") })),
    );
    expect(keyed.length).toBeGreaterThanOrEqual(15);
    const wrong: string[] = [];
    for (const { method, path } of keyed) {
      const bodies = method === "GET" ? [undefined] : BAD_BODIES;
      for (const b of bodies) {
        for (const [key, status, rule] of [
          [null, 401, "key_required"],
          [UNKNOWN_KEY, 403, "known_key"],
        ] as const) {
          const r = await call(live.url, method, path, {
            key,
            ...(b ? { raw: b.raw, headers: { "content-type": b.type } } : {}),
          });
          const cell = `${method} ${path} ${key ? "unknown key" : "no key"} ${b?.what ?? ""}`;
          if (r.status !== status || r.json?.error?.details?.rule !== rule)
            wrong.push(`${cell}: ${r.status} ${r.text.slice(0, 160)}`);
          // every 401 carries the challenge (RFC 9110 15.5.2; probe33 A-F3: key_required had none)
          else if (status === 401 && r.headers.get("www-authenticate") !== 'Bearer realm="bench-bounty"')
            wrong.push(`${cell}: 401 without WWW-Authenticate`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("MCP: an anonymous call of a keyed tool is refused unauthenticated before its arguments are validated", async () => {
    const rpc = (body: unknown, key?: string) => postMcp(live.url, JSON.stringify(body), key);
    const tools = [
      "set_withdrawal_address",
      "benchmark_corpus",
      "benchmark_start_run",
      "benchmark_submit_answers",
      "benchmark_finalize_run",
      "runs_mine",
    ];
    for (const [i, name] of tools.entries()) {
      const msg = {
        jsonrpc: "2.0",
        id: i,
        method: "tools/call",
        params: { name, arguments: { run_id: 42, answers: "not a list", withdrawal_address: [] } },
      };
      const r = await rpc(msg);
      expect(r.status, name).toBe(200);
      expect(r.body.id).toBe(i);
      expect(r.body.result.isError, name).toBe(true);
      expect(r.body.result.structuredContent.error, name).toMatchObject({
        code: "unauthenticated",
        details: { rule: "key_required" },
      });
      // an unknown key is refused at the door, as on REST
      const u = await rpc(msg, UNKNOWN_KEY);
      expect(u.status, name).toBe(403);
    }
    // with a key the same bad arguments are the SDK's validation error, naming the argument
    const withKey = await rpc(
      {
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "benchmark_finalize_run", arguments: { run_id: 42 } },
      },
      keys.competitor!,
    );
    expect(JSON.stringify(withKey.body)).toMatch(/run_id/);
    expect(JSON.stringify(withKey.body)).not.toMatch(/unauthenticated/);
  });
});

/**
 * One strict parser for every body (probe of issue 15): a route that takes no body (re-verification,
 * award, finalize) still reads one through it, so a malformed body is 400 `invalid_json` and a member
 * it does not take is 422 naming it, never silently ignored. Absent, white space and `{}` are accepted.
 */
describe("body-less routes read their body with the strict parser", () => {
  it("POST .../verification, .../award and .../finalize refuse malformed or unexpected bodies, naming the JSON path", async () => {
    const targets = [
      { path: `/api/v1/benchmarks/${slug}/verification`, key: () => keys.author, accepted: 404 },
      { path: `/api/v1/benchmarks/${slug}/award`, key: () => keys.operator, accepted: 503 },
    ];
    for (const t of targets) {
      const dup = await call(live.url, "POST", t.path, { key: t.key(), raw: '{"a":1,"a":2}' });
      expect(dup.status, t.path).toBe(400);
      expect(dup.json.error.details).toMatchObject({ reason: "duplicate_key", path: "$.a" });
      const bad = await call(live.url, "POST", t.path, { key: t.key(), raw: "{oops" });
      expect(bad.status, t.path).toBe(400);
      expect(bad.json.error.code).toBe("invalid_json");
      const extra = await call(live.url, "POST", t.path, { key: t.key(), body: { force: true } });
      expect(extra.status, t.path).toBe(422);
      expect(extra.json.error.details.path).toBe("$.force"); // the unknown member's own path
      expect(extra.json.error.message).toMatch(/force/);
      const form = await call(live.url, "POST", t.path, {
        key: t.key(),
        raw: "force=1",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expect(form.status, t.path).toBe(415);
      // a truncated literal is named where it breaks, not at its first letter (probe39 C-N1)
      for (const [raw, path, message] of [
        ["nul", "$", "unexpected end of input at offset 3, inside the literal at offset 0 (expected null)"],
        ["nulx", "$", 'unexpected character "x" at offset 3, inside the literal at offset 0 (expected null)'],
        [
          '{"a":tru}',
          "$.a",
          '$.a: unexpected character "}" at offset 8, inside the literal at offset 5 (expected true)',
        ],
      ]) {
        const lit = await call(live.url, "POST", t.path, { key: t.key(), raw: raw! });
        expect(lit.status, `${t.path} ${raw}`).toBe(400);
        expect(lit.json.error).toMatchObject({
          code: "invalid_json",
          message: `the body is not valid JSON: ${message}`,
          details: { path, reason: "invalid_json" },
        });
      }
      // no body, white space, or {}: the route's own answer
      for (const opts of [{}, { raw: "" }, { raw: " \n" }, { raw: "   " }, { raw: "\n\t " }, { body: {} }]) {
        const ok = await call(live.url, "POST", t.path, { key: t.key(), ...opts });
        expect(ok.status, `${t.path} ${JSON.stringify(opts)}`).toBe(t.accepted);
      }
    }
  });
});

describe("an absent or white-space-only body is one thing on every route (probe39 C-N1)", () => {
  it("a route that takes a body refuses an absent and a white-space-only one alike, 400 invalid_json at $ (a body-less route accepts both: above)", async () => {
    const relay = `/api/v1/benchmarks/${slug}/claims/relay`;
    for (const raw of ["", "   ", "\n\t "]) {
      const r = await call(live.url, "POST", relay, { key: keys.competitor, raw });
      expect(r.status, JSON.stringify(raw)).toBe(400);
      expect(r.json.error).toMatchObject({
        code: "invalid_json",
        message: "the body is not valid JSON: unexpected end of input, expected a value",
        details: { path: "$", reason: "invalid_json" },
      });
    }
  });
});

describe("the docs name who may do what, checked against the code (probe15 A-F7, A-F10)", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  /** The backticked tool names of a README cell, its parenthesised remarks left out. */
  const names = (text: string) =>
    new Set([...text.replace(/\([^)]*\)/g, "").matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));

  it("README: the POST /mcp row lists the tools anyone may call and the keyed ones (KEYED_TOOLS)", async () => {
    const row = readme.split("\n").find((l) => l.startsWith("| `POST /mcp`"))!;
    const who = row.split(" | ")[1]!;
    const [anyone, keyed] = who.split("a key:");
    const listed = await postMcp(live.url, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const all = (listed.body.result.tools as { name: string }[]).map((t) => t.name).sort();
    expect([...names(keyed ?? "")].sort()).toEqual([...KEYED_TOOLS].sort());
    expect([...names(anyone!)].sort()).toEqual(all.filter((n) => !KEYED_TOOLS.has(n)));
  });

  it("finalize's docs (README, OpenAPI, the MCP tool) name SPEC 6.1's author exception", async () => {
    const row = readme.split("\n").find((l) => l.startsWith("| `POST /benchmarks/runs/:run_id/finalize`"))!;
    const openapi = await call(live.url, "GET", "/api/v1/openapi.json");
    const op = openapi.json.paths["/api/v1/benchmarks/runs/{run_id}/finalize"].post;
    const listed = await postMcp(live.url, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const tool = (listed.body.result.tools as { name: string; description: string }[]).find(
      (t) => t.name === "benchmark_finalize_run",
    )!;
    for (const text of [row, `${op.summary} ${op.responses["200"].description}`, tool.description])
      expect(text).toMatch(/benchmark's author/);
  });
});
