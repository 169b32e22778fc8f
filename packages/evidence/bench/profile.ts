/**
 * One workload of the benchmark, repeated, under V8's CPU profiler (a script, not a
 * test). The profile covers the workload only, not building its inputs (the same
 * profiler and `.cpuprofile` format as `node --cpu-prof`, started through `node:inspector`
 * after the set-up):
 *
 *   npx tsx bench/profile.ts pack-hash /tmp/pack-hash.cpuprofile
 *   npx tsx bench/profile-summary.ts /tmp/pack-hash.cpuprofile
 *
 * Workloads: `pack-hash` (packHash of the BENCH_TASKS-task pack), `commit`
 * (commitTestSet of BENCH_ROWS rows), `parse` (parseJson of the pack's canonical
 * bytes with the canonical spans the verifier asks for). Runs `dist/` (build first:
 * `npx tsc -p tsconfig.build.json`). Env: BENCH_ROWS (100000), BENCH_TASKS (10000),
 * BENCH_REPEAT (5).
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { commitTestSet, evidencePackBytes, mintEvidencePack, packHash, parseJson } from "../dist/index.js";
import { makeMintInputs, makeTestSet } from "./fixtures.js";

const workload = process.argv[2] ?? "pack-hash";
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
let run: () => unknown;
if (workload === "commit") {
  const rows = makeTestSet(Number(process.env.BENCH_ROWS ?? 100_000));
  run = () => commitTestSet(rows);
} else {
  const pack = mintEvidencePack(makeMintInputs(Number(process.env.BENCH_TASKS ?? 10_000), 5));
  if (workload === "pack-hash") run = () => packHash(pack);
  else if (workload === "parse") {
    const bytes = evidencePackBytes(pack);
    run = () =>
      parseJson(bytes, { canonicalSpans: { maxDepth: 1, keys: new Set(["receipt"]), out: new Map() } });
  } else throw new Error(`unknown workload ${workload} (pack-hash, commit, parse)`);
}
const out = process.argv[3] ?? `${workload}.cpuprofile`;
run(); // warm-up
const session = new Session();
session.connect();
const post = (method: string, params?: object): Promise<unknown> =>
  new Promise((resolve, reject) =>
    session.post(method, params, (err, res) => (err === null ? resolve(res) : reject(err))),
  );
await post("Profiler.enable");
await post("Profiler.setSamplingInterval", { interval: 200 });
await post("Profiler.start");
const c0 = process.cpuUsage();
for (let i = 0; i < REPEAT; i++) run();
const c = process.cpuUsage(c0);
const { profile } = (await post("Profiler.stop")) as { profile: object };
writeFileSync(out, JSON.stringify(profile));
session.disconnect();
console.log(
  `${workload}: ${REPEAT} runs, ${((c.user + c.system) / 1000 / REPEAT).toFixed(1)} ms CPU per run; profile in ${out}`,
);
