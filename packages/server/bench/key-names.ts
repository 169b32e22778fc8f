/**
 * Probe 7 N1, measured (not a test): what a body of many objects of distinct member names costs to
 * parse, on the strict parser alone and through the live routes, against a same-size string.
 *
 *   cd packages/server && node --import tsx bench/key-names.ts [REPEATS]
 *
 * Shapes (each under the body's `maxValues` budget, every object under `maxMembers`):
 * - `pile`: the probe's objects of 255 DISTINCT names each (`"<o>k<i>":0`), 1,175 of them;
 * - `same names`: objects of the SAME 240 names (`"k<i>":0`, under `maxKeyNames` with the envelope),
 *   as many as the value budget allows (1,248);
 * - `string`: one string of the same byte length;
 * - `100k answers`: the largest valid submission (100,000 `{ordinal, answer_text}` items).
 * Timings are medians of REPEATS (default 5), in ms, on this machine (shared, so only rough).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isEvidenceError, parseJson } from "@bench-bounty/evidence";
import { Platform } from "@bench-bounty/platform";
import { ANSWERS_BODY } from "../src/body-limits.js";
import { platformDomain, serveApp } from "../src/index.js";

const repeats = Number(process.argv[2] ?? "5");
// as many objects of `per` members as stay under ANSWERS_BODY.maxValues with their items and envelope
const countOf = (per: number) => Math.floor((ANSWERS_BODY.maxValues - 16) / (per + 1));
const obj = (o: number, per: number, distinct: boolean) =>
  `{${Array.from({ length: per }, (_, i) => `"${distinct ? o : ""}k${i}":0`).join(",")}}`;
const pileOf = (per: number, distinct: boolean) =>
  `[${Array.from({ length: countOf(per) }, (_, o) => obj(o, per, distinct)).join(",")}]`;
const shapes = (wrap: (inner: string) => string) => {
  const pile = wrap(pileOf(255, true));
  // 240 names: with the envelope's names, under maxKeyNames (256)
  const same = wrap(pileOf(240, false));
  const str = wrap(JSON.stringify("x".repeat(pile.length - wrap('""').length)));
  // the largest legitimate submission: 100,000 answers of two members (~3.5 MB)
  const valid = wrap(
    `[${Array.from({ length: 100_000 }, (_, i) => `{"ordinal":${i},"answer_text":"a${i}"}`).join(",")}]`,
  );
  return { pile, "same names": same, string: str, "100k answers": valid };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const fmt = (ms: number) => `${ms.toFixed(0).padStart(5)} ms`;

const rpc = (args: string) =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"benchmark_list","arguments":{"pile":${args}}}}`;
const answers = (inner: string) => `{"answers":${inner}}`;

console.log(
  `pile: ${countOf(255)} objects x 255 distinct names; same names: ${countOf(240)} objects x the same 240; maxValues ${ANSWERS_BODY.maxValues}`,
);
console.log("== strict parser alone (parseJson(bytes, ANSWERS_BODY))");
for (const [name, body] of Object.entries(shapes(rpc))) {
  const bytes = Buffer.from(body);
  const ts: number[] = [];
  let outcome = "ok";
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    try {
      parseJson(bytes, ANSWERS_BODY);
    } catch (e) {
      if (!isEvidenceError(e)) throw e; // a refusal is the parser's EvidenceError: anything else is a bug
      outcome = e.code;
    }
    ts.push(performance.now() - t);
  }
  const free: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    try {
      parseJson(bytes, { ...ANSWERS_BODY, maxKeyNames: Infinity });
    } catch (e) {
      if (!isEvidenceError(e)) throw e; // the same refusals but for the names; anything else is a bug
    }
    free.push(performance.now() - t);
  }
  console.log(
    `  ${name.padEnd(12)} ${String(bytes.length).padStart(8)} B  ${fmt(median(ts))}  ${outcome}  (without maxKeyNames: ${fmt(median(free))})`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "bb-keynames-"));
const platform = await Platform.open({ dir, operatorKey: "bb_operator_bench_key_0123456789abcdef0123456789" });
const server = await serveApp({
  domain: platformDomain(platform),
  port: 0,
  host: "127.0.0.1",
  limits: { rateBurst: 100_000, ratePerSecond: 10_000, accountBurst: 1_000 },
});
try {
  const reg = await fetch(`${server.url}/api/v1/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "keynames-bench" }),
  });
  const key = ((await reg.json()) as { api_key: string }).api_key;
  const post = async (path: string, body: string, withKey: boolean) => {
    const t = performance.now();
    const r = await fetch(server.url + path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(withKey ? { authorization: `Bearer ${key}` } : {}),
      },
      body,
    });
    const text = await r.text();
    const ms = performance.now() - t;
    const reason = /"(?:reason)":"([a-z_]+)"/.exec(text)?.[1] ?? /"limit_bytes":\d+/.exec(text)?.[0] ?? "";
    return { ms, status: r.status, reason };
  };
  const routes: [string, string, (inner: string) => string, boolean][] = [
    ["/mcp anonymous", "/mcp", rpc, false],
    ["/mcp keyed", "/mcp", rpc, true],
    ["submissions keyed", "/api/v1/benchmarks/runs/run_x/submissions", answers, true],
  ];
  for (const [label, path, wrap, withKey] of routes) {
    console.log(`== ${label} (${path}): request latency`);
    for (const [name, body] of Object.entries(shapes(wrap))) {
      const ts: number[] = [];
      let last = { status: 0, reason: "" };
      for (let i = 0; i < repeats; i++) {
        const r = await post(path, body, withKey);
        ts.push(r.ms);
        last = r;
      }
      console.log(
        `  ${name.padEnd(12)} ${String(body.length).padStart(8)} B  ${fmt(median(ts))}  ${last.status} ${last.reason}`,
      );
    }
  }
} finally {
  await server.close();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
}
