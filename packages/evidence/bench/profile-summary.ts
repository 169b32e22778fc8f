/**
 * Summarize a `node --cpu-prof` profile: self time per function (name, file:line),
 * largest first, with garbage collection and native code as their own lines. Samples
 * are wall-clock intervals of the main thread, so on a loaded machine read the shares,
 * not the milliseconds.
 * Usage: `npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25]`.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
if (file === undefined) throw new Error("usage: profile-summary <file.cpuprofile> [top]");
const prof = JSON.parse(readFileSync(file, "utf8")) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
// samples taken inside node:inspector's `post` (stopping the profiler, by bench/profile.ts) are not the workload
const skipped = new Set<number>();
const skip = (id: number): void => {
  skipped.add(id);
  for (const c of byId.get(id)?.children ?? []) skip(c);
};
for (const n of prof.nodes)
  if (n.callFrame.url === "node:inspector" && n.callFrame.functionName === "post") skip(n.id);
const self = new Map<string, number>();
let total = 0;
prof.samples.forEach((id, i) => {
  const dt = prof.timeDeltas[i] ?? 0;
  if (skipped.has(id)) return;
  const f = byId.get(id)!.callFrame;
  const where =
    f.url === "" ? "" : ` ${f.url.replace(/^.*\/(src|dist|node_modules)\//, "$1/")}:${f.lineNumber + 1}`;
  const key = `${f.functionName || "(anonymous)"}${where}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  total += dt;
});
const ranked = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25));
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
for (const [k, us] of ranked)
  console.log(
    `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`,
  );
