// Probe: MCP owner rules and SPEC 6.1 (new variants): the wrong account submits to / finalizes another's run,
// starts a run as another's agent, sets a withdrawal address through the keyless `register` path.
// Usage: node probe/mcp-owner.mjs http://127.0.0.1:PORT SLUG_OF_AN_OPEN_BENCHMARK
const [base, slug] = process.argv.slice(2);
let id = 0;
async function call(key, name, args) {
  const h = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (key) h["x-api-key"] = key;
  const r = await fetch(base + "/mcp", { method: "POST", headers: h, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } }) });
  const t = await r.text();
  return `${r.status} ${t.replace(/\s+/g, " ").slice(0, 230)}`;
}
const acct = async (name) => (await (await fetch(base + "/api/v1/accounts", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) })).json()).api_key;
const tag = Date.now().toString(36);
const V = await acct("mv-" + tag), X = await acct("mx-" + tag);
const start = await (await fetch(`${base}/api/v1/benchmarks/${slug}/runs`, { method: "POST", headers: { "x-api-key": V } })).json();
const run = start.run.id;
console.log("attacker submits to victim's run:  ", await call(X, "benchmark_submit_answers", { run_id: run, answers: [{ ordinal: 0, answer_text: "x" }] }));
console.log("attacker finalizes victim's run:   ", await call(X, "benchmark_finalize_run", { run_id: run }));
console.log("attacker starts as victim's agent: ", await call(X, "benchmark_start_run", { slug, agent_id: "mv-" + tag }));
console.log("anonymous finalizes victim's run:  ", await call(null, "benchmark_finalize_run", { run_id: run }));
console.log("victim finalizes (no answers):     ", await call(V, "benchmark_finalize_run", { run_id: run }));
console.log("register with a taken name:        ", await call(null, "register", { name: "mv-" + tag }));
