// Probe: owner rules over REST (issue 13 item 5): the wrong account tries every change to another's agent
// and run, including through name collisions (an account named like another's agent).
// Usage: node probe/identity.mjs http://127.0.0.1:PORT   (publishes its own open benchmark)
const base = process.argv[2];
const j = async (method, path, key, body) => {
  const h = { "content-type": "application/json" }; if (key) h["x-api-key"] = key;
  const r = await fetch(base + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const t = await r.text(); let v; try { v = JSON.parse(t); } catch { v = t; } return { status: r.status, body: v };
};
const tag = Date.now().toString(36);
const acct = async (name) => (await j("POST", "/api/v1/accounts", null, { name })).body;
const author = (await acct("auth-" + tag)).api_key;
const rows = Array.from({ length: 4 }, (_, i) => ({ decision_ts: `2026-01-0${i + 1}`, payload: { city: "C" + i, index: i }, label: "answer-" + i }));
const ds = (await j("POST", "/api/v1/datasets", author, { name: "id-" + tag, rows })).body;
const slug = (await j("POST", `/api/v1/datasets/${ds.dataset_id}/benchmark`, author, { title: "Id " + tag, prompt_template: "City {payload.city} #{payload.index}", grader_type: "exact", public_fraction: 0.5 })).body.slug;
const victim = await acct("victim-" + tag);
const V = victim.api_key;
const show = (label, r, expect) => console.log(`${r.status === expect ? "ok  " : "LEAK"} ${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 180)}`);
show("victim registers agent 'shiny-" + tag + "'", await j("POST", "/api/v1/accounts/me/agents", V, { agent_id: "shiny-" + tag }), 201);
await j("PUT", "/api/v1/accounts/me/withdrawal-address", V, { withdrawal_address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });
const vrun = (await j("POST", `/api/v1/benchmarks/${slug}/runs`, V, { agent_id: "shiny-" + tag })).body;
const vrunId = vrun.run?.id ?? vrun.run?.run_id ?? vrun.run_id;
const attacker = await acct("att-" + tag);
const X = attacker.api_key;
show("attacker registers the victim's agent id", await j("POST", "/api/v1/accounts/me/agents", X, { agent_id: "shiny-" + tag }), 403);
show("attacker marks it author agent", await j("POST", "/api/v1/accounts/me/agents", X, { agent_id: "shiny-" + tag, is_author_agent: true }), 403);
show("attacker starts a run for the victim's agent", await j("POST", `/api/v1/benchmarks/${slug}/runs`, X, { agent_id: "shiny-" + tag }), 403);
show("attacker starts a run for the victim's default agent (account name)", await j("POST", `/api/v1/benchmarks/${slug}/runs`, X, { agent_id: "victim-" + tag }), 403);
show("attacker reads the victim's run", await j("GET", `/api/v1/benchmarks/runs/${vrunId}`, X), 403);
show("attacker reads the victim's tasks", await j("GET", `/api/v1/benchmarks/runs/${vrunId}/tasks`, X), 403);
show("attacker submits to the victim's run", await j("POST", `/api/v1/benchmarks/runs/${vrunId}/submissions`, X, { answers: [{ ordinal: 0, answer_text: "x" }] }), 403);
show("attacker finalizes the victim's run", await j("POST", `/api/v1/benchmarks/runs/${vrunId}/finalize`, X), 403);
show("anonymous finalizes the victim's run", await j("POST", `/api/v1/benchmarks/runs/${vrunId}/finalize`, null), 401);
// name collision: an account whose NAME is the victim's agent id
const squat = await acct("shiny-" + tag);
console.log(`account named like the victim's agent: ${squat.api_key ? "created" : JSON.stringify(squat).slice(0, 160)}`);
if (squat.api_key) {
  const r = await j("POST", `/api/v1/benchmarks/${slug}/runs`, squat.api_key, {});
  show("squatter starts a run with its default agent (= the victim's agent id)", r, 403);
  const me = await j("GET", "/api/v1/accounts/me", squat.api_key);
  console.log("  squatter's /accounts/me:", JSON.stringify(me.body).slice(0, 300));
}
// victim account name collision in reverse: attacker registers agent id equal to a future account's name
show("attacker registers agent id 'future-" + tag + "'", await j("POST", "/api/v1/accounts/me/agents", X, { agent_id: "future-" + tag }), 201);
const fut = await acct("future-" + tag);
console.log(`account creation named like another account's agent: ${JSON.stringify(fut).slice(0, 200)}`);
if (fut.api_key) {
  const r = await j("POST", `/api/v1/benchmarks/${slug}/runs`, fut.api_key, {});
  console.log(`  new account 'future-${tag}' starts a run with its default agent: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
}
// the operator-only award and author-only verification with a competitor key
show("competitor awards", await j("POST", `/api/v1/benchmarks/${slug}/award`, X), 403);
show("competitor attaches a bounty", await j("POST", `/api/v1/benchmarks/${slug}/bounty`, X, { bounty_id: "1" }), 403);
show("competitor publishes from the author's dataset", await j("POST", `/api/v1/datasets/${ds.dataset_id}/benchmark`, X, { title: "Steal", prompt_template: "x {payload.city}", grader_type: "exact" }), 403);
