// Probe: the rate limiter (packages/server/src/middleware/limits.ts) never sees a request whose key nobody
// holds: authenticate() answers 403 before rateLimit() runs. Compares N anonymous requests with N requests
// carrying an unknown key, same concurrency. Usage: node probe/rate-limit.mjs http://127.0.0.1:PORT SLUG [N]
const [base, slug, nArg] = process.argv.slice(2);
const N = Number(nArg ?? 4000);
async function burst(label, headers) {
  const codes = {}; let retryAfter = null; let i = 0; const t0 = Date.now();
  await Promise.all(Array.from({ length: 100 }, async () => {
    while (i++ < N) {
      const r = await fetch(`${base}/api/v1/benchmarks/${slug}/leaderboard`, { headers });
      codes[r.status] = (codes[r.status] ?? 0) + 1;
      if (r.status === 429) retryAfter = r.headers.get("retry-after");
      await r.arrayBuffer();
    }
  }));
  console.log(`${label}: ${N} requests in ${Date.now() - t0} ms: ${JSON.stringify(codes)} Retry-After: ${retryAfter}`);
}
await burst("anonymous", {});
await new Promise((r) => setTimeout(r, 7000)); // let the bucket refill
await burst("unknown key", { "x-api-key": "bbk_000000000000_nobodyholdsthiskey" });
