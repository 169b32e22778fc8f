// Probe: REST edge of `bench-bounty serve`: malformed bodies (never 500, no stack), 405 + Allow, 304 with
// If-None-Match variants, rate limit 429 + Retry-After (also for requests carrying a key nobody holds).
// Usage: node probe/rest-edge.mjs http://127.0.0.1:PORT SLUG
const [base, slug] = process.argv.slice(2);
const out = [];
async function req(method, path, { body, headers = {} } = {}) {
  const r = await fetch(base + path, { method, headers, body });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text };
}
const bad = (r) => r.status >= 500 || /\bat [\w.<>]+ \(|node:internal|\.ts:\d+|\.js:\d+/.test(r.text);
// 1. malformed bodies on every POST/PUT route, with and without a key, with several content types
const acct = JSON.parse((await req("POST", "/api/v1/accounts", { body: JSON.stringify({ name: "probe" + Date.now() }), headers: { "content-type": "application/json" } })).text);
const key = acct.api_key ?? acct.account?.api_key;
const routes = [
  ["POST", `/api/v1/benchmarks/runs/run-x/submissions`], ["POST", `/api/v1/benchmarks/runs/run-x/finalize`],
  ["POST", `/api/v1/benchmarks/${slug}/runs`], ["POST", `/api/v1/benchmarks/${slug}/bounty`], ["POST", `/api/v1/benchmarks/${slug}/award`],
  ["POST", `/api/v1/benchmarks/${slug}/verification`], ["POST", `/api/v1/benchmarks/${slug}/claims/relay`],
  ["POST", `/api/v1/datasets/validate`], ["POST", `/api/v1/datasets`], ["POST", `/api/v1/datasets/ds-x/benchmark`],
  ["POST", `/api/v1/accounts`], ["PUT", `/api/v1/accounts/me/withdrawal-address`], ["POST", `/api/v1/accounts/me/agents`],
  ["POST", `/mcp`],
];
const bodies = [
  ["empty", ""], ["null", "null"], ["array", "[]"], ["number", "1e999999"], ["deep", "[".repeat(100000) + "]".repeat(100000)],
  ["bom", "\ufeff{}"], ["utf16", Buffer.from('{"a":1}', "utf16le")], ["bad-utf8", Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d])],
  ["dup", '{"a":1,"a":2}'], ["proto", '{"__proto__":{"x":1},"constructor":{"prototype":{"y":1}}}'],
  ["huge-int", '{"answers":[{"ordinal":1e400,"answer_text":"x"}],"address":"0x' + "1".repeat(40) + '","name":"a","agent_id":"a"}'],
  ["wrong-types", '{"answers":"x","withdrawal_address":[],"agent_id":{},"name":1,"rows":1,"bounty_id":true}'],
  ["form", "a=1&b=2"],
];
const cts = ["application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=utf-16"];
let n = 0;
for (const [m, p] of routes)
  for (const [bn, b] of bodies)
    for (const ct of cts)
      for (const k of [null, key]) {
        const h = { "content-type": ct }; if (k) h["x-api-key"] = k;
        if (p === "/mcp") h.accept = "application/json, text/event-stream";
        let r; n++;
        try { r = await req(m, p, { body: b, headers: h }); } catch (e) { out.push(`${m} ${p} body=${bn} ct=${ct} key=${!!k}: connection error ${e.cause?.code ?? e.message}`); continue; }
        if (bad(r)) out.push(`${m} ${p} body=${bn} ct=${ct} key=${!!k}: ${r.status} ${r.text.slice(0, 160)}`);
      }
console.log(`malformed bodies: ${n} requests, ${out.length} answered 5xx or with a stack`);
for (const o of out.slice(0, 30)) console.log("  " + o);
// 2. 405 + Allow on every known path with odd methods
const methods = ["DELETE", "PATCH", "PUT", "POST", "TRACE", "PROPFIND", "get"];
const paths = [`/api/v1/benchmarks/${slug}`, `/api/v1/benchmarks/${slug}/award-evidence`, `/api/v1/benchmarks/${slug}/leaderboard`, `/api/v1/accounts/me`, `/api/v1/openapi.json`, `/mcp`, `/api/v1/benchmarks/runs/mine`, `/api/v1/content`, `/`];
for (const p of paths) for (const m of methods) {
  let r; try { r = await req(m, p); } catch (e) { console.log(`  ${m} ${p}: fetch error ${e.cause?.code ?? e.message}`); continue; }
  if (r.status === 405 && !r.headers.get("allow")) console.log(`  405 without Allow: ${m} ${p}`);
  else if (r.status === 404 || r.status >= 500) console.log(`  ${m} ${p}: ${r.status} ${r.text.slice(0, 100)}`);
}
// 3. 304 with If-None-Match variants
const door = await req("GET", `/api/v1/benchmarks/${slug}/award-evidence`);
const etag = door.headers.get("etag");
for (const inm of [etag, `W/${etag}`, `"x", ${etag}`, "*", etag?.replace(/"/g, ""), `${etag},"y"`]) {
  const r = await req("GET", `/api/v1/benchmarks/${slug}/award-evidence`, { headers: { "if-none-match": inm } });
  const h = await fetch(base + `/api/v1/benchmarks/${slug}/award-evidence`, { method: "HEAD", headers: { "if-none-match": inm } });
  console.log(`If-None-Match ${JSON.stringify(inm)}: GET ${r.status} (${r.text.length} B), HEAD ${h.status}`);
}
// 4. rate limit: 700 requests with a key nobody holds (burst is 600)
let codes = {};
await Promise.all(Array.from({ length: 700 }, async (_, i) => {
  const r = await fetch(base + `/api/v1/benchmarks/${slug}`, { headers: { "x-api-key": `bbk_000000000000_fake${i}` } });
  codes[r.status] = (codes[r.status] ?? 0) + 1; await r.text();
}));
console.log(`700 requests with unknown keys: ${JSON.stringify(codes)}`);
codes = {};
await Promise.all(Array.from({ length: 700 }, async () => {
  const r = await fetch(base + `/api/v1/benchmarks/${slug}`, { headers: { "x-api-key": "bbk_000000000000_samefake" } });
  codes[r.status] = (codes[r.status] ?? 0) + 1; await r.text();
}));
console.log(`700 requests with the same unknown key: ${JSON.stringify(codes)}`);
codes = {}; let ra = null;
await Promise.all(Array.from({ length: 700 }, async () => {
  const r = await fetch(base + `/api/v1/benchmarks/${slug}`);
  codes[r.status] = (codes[r.status] ?? 0) + 1; if (r.status === 429) ra = r.headers.get("retry-after"); await r.text();
}));
console.log(`700 anonymous requests: ${JSON.stringify(codes)} Retry-After: ${ra}`);
