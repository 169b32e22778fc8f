// Probe: SPEC 6.1 while open, over REST and MCP. Two throwaway accounts answer the public tasks the same way
// and differ in ONE private answer (right vs wrong). Everything served to them (and to anyone) is fetched,
// ids/times masked, and compared: any other difference is a leak of the private label.
// Usage: node probe/secrecy.mjs http://127.0.0.1:PORT
const base = process.argv[2];
const j = async (method, path, key, body, extra = {}) => {
  const h = { "content-type": "application/json", ...extra }; if (key) h["x-api-key"] = key;
  const r = await fetch(base + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const t = await r.text(); let v; try { v = JSON.parse(t); } catch { v = t; }
  return { status: r.status, etag: r.headers.get("etag"), body: v };
};
const acct = async (name) => (await j("POST", "/api/v1/accounts", null, { name })).body.api_key;
const tag = Date.now().toString(36);
const author = await acct("author-" + tag);
const rows = Array.from({ length: 6 }, (_, i) => ({ decision_ts: `2026-01-0${i + 1}`, payload: { city: "C" + i, index: i }, label: "answer-" + i }));
const ds = (await j("POST", "/api/v1/datasets", author, { name: "sec-" + tag, rows })).body;
const pub = await j("POST", `/api/v1/datasets/${ds.dataset_id}/benchmark`, author, { title: "Sec " + tag, prompt_template: "City {payload.city} #{payload.index}", grader_type: "exact", public_fraction: 0.5 });
const slug = pub.body.slug;
console.log("published", pub.status, slug, "private_count", pub.body.private_count);
async function compete(name, privateRight) {
  const key = await acct(name);
  const start = await j("POST", `/api/v1/benchmarks/${slug}/runs`, key);
  const run = start.body.run ?? start.body;
  const runId = run.id ?? run.run_id ?? start.body.run_id;
  const tasks = start.body.tasks ?? run.tasks;
  let firstPrivate = true;
  const answers = tasks.map((t) => {
    const idx = /#(\d+)/.exec(t.prompt)[1];
    if (t.visibility === "private" && firstPrivate) { firstPrivate = false; return { ordinal: t.ordinal, answer_text: privateRight ? "answer-" + idx : "wrong" }; }
    return { ordinal: t.ordinal, answer_text: t.visibility === "public" ? "answer-" + idx : "wrong" };
  });
  const sub = await j("POST", `/api/v1/benchmarks/runs/${runId}/submissions`, key, { answers });
  const fin = await j("POST", `/api/v1/benchmarks/runs/${runId}/finalize`, key);
  const seen = {
    submit: sub, finalize: fin,
    run: await j("GET", `/api/v1/benchmarks/runs/${runId}`, key),
    tasks: await j("GET", `/api/v1/benchmarks/runs/${runId}/tasks`, key),
    mine: await j("GET", `/api/v1/benchmarks/runs/mine`, key),
    receipt: await j("GET", `/api/v1/benchmarks/${slug}/runs/${runId}/receipt`, key),
  };
  return { name, key, runId, seen };
}
const A = await compete("thrA-" + tag, true);
const B = await compete("thrB-" + tag, false);
const shared = {
  leaderboard: await j("GET", `/api/v1/benchmarks/${slug}/leaderboard`),
  leaderboardFinal: await j("GET", `/api/v1/benchmarks/${slug}/leaderboard?board=final`, A.key),
  detail: await j("GET", `/api/v1/benchmarks/${slug}`, A.key),
  list: await j("GET", `/api/v1/benchmarks`),
  entries: await j("GET", `/api/v1/benchmarks/${slug}/entries`),
  door: await j("GET", `/api/v1/benchmarks/${slug}/award-evidence`),
  verification: await j("GET", `/api/v1/benchmarks/${slug}/verification`),
};
const mask = (x) => JSON.parse(JSON.stringify(x)
  .replaceAll(A.runId, "RUN").replaceAll(B.runId, "RUN").replace(/thr[AB]-[a-z0-9]+/g, "AGENT")
  .replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"TIME"').replace(/"0x[0-9a-f]{64}"/g, '"HASH"'));
const flat = (x, p = "", out = {}) => { if (x && typeof x === "object") for (const k of Object.keys(x)) flat(x[k], p + "." + k, out); else out[p] = x; return out; };
for (const k of Object.keys(A.seen)) {
  const a = flat(mask(A.seen[k])), b = flat(mask(B.seen[k]));
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const diffs = [...keys].filter((x) => a[x] !== b[x]);
  console.log(`${k}: status ${A.seen[k].status}/${B.seen[k].status}; differing fields: ${diffs.map((d) => `${d}=${JSON.stringify(a[d])}|${JSON.stringify(b[d])}`).join("; ") || "none"}`);
}
console.log("finalize A:", JSON.stringify(A.seen.finalize.body).slice(0, 700));
console.log("leaderboard:", shared.leaderboard.status, shared.leaderboard.etag, JSON.stringify(shared.leaderboard.body).slice(0, 900));
console.log("leaderboard?board=final as a competitor:", shared.leaderboardFinal.status, JSON.stringify(shared.leaderboardFinal.body).slice(0, 300));
const sl = JSON.stringify(shared);
for (const w of ["score_composite\"", "rank_accuracy", "private_accuracy", "answer-", "credit\":\"1", "score_private"]) console.log(`shared answers mention ${w}: ${sl.includes(w)}`);
console.log("entries:", JSON.stringify(shared.entries.body).slice(0, 600));
console.log(JSON.stringify({ slug, A: A.key, B: B.key, author }));
for (const [k, v] of Object.entries(shared)) { const s = JSON.stringify(v); const i = s.indexOf('credit":"1'); if (i >= 0) console.log(`credit in ${k}: ...${s.slice(Math.max(0, i - 300), i + 60)}`); }
