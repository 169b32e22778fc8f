/**
 * `pnpm bench:evidence`: timing figures for the evidence library (a script,
 * not a test). Prints milliseconds and the ratio to bare Keccak-256 over the
 * same bytes.
 *
 *  1. commitment root of 100,000 test-set rows (SPEC 3), against bare keccak
 *     of exactly the commitment's own hash inputs (prompts, gold||salt, leaf
 *     JSON, Merkle pairs); target (issue 19): within 1.3x;
 *  2. minting and hashing a 10,000-task pack with 3 winners (SPEC 8): the pack
 *     hash against bare keccak of the same canonical bytes, target (issue 19):
 *     within 3x; plus parsing + schema of that pack;
 *  3. grading a 100,000-digit numeric answer (SPEC 5) as exact decimals, against
 *     the reduced-fraction arithmetic it replaced, on a tenth of the digits.
 *
 * A ratio is measured in pairs: each run times the measured code and then its
 * baseline, back to back, and the printed ratio is the median of the per-run
 * ratios (a shared machine's load changes between runs far more than within one
 * pair).
 *
 * "Bare keccak" is the library's own active Keccak-256 backend (`keccak256Bytes`:
 * native when the `keccak` binding loads, else @noble/hashes; printed in the
 * header), so a ratio compares like with like. BENCH_BOUNTY_KECCAK=js runs the
 * whole benchmark on the pure-JS backend.
 *
 * It measures the code that ships: `pnpm bench` builds `dist/` with tsc first
 * and imports it (not `src/` through tsx, whose keep-names wrappers cost time
 * in closures that the built code does not have).
 *
 * Env: BENCH_ROWS (default 100000), BENCH_TASKS (default 10000), BENCH_RUNS
 * (default 5; medians are printed, and for the paired ratios every run's ratio). Each figure is printed as wall-clock and as CPU time of this process;
 * ratios use CPU time, which does not depend on what else runs on a shared
 * machine (the load average is printed first).
 */
import os from "node:os";
import {
  canonicalJson,
  canonicalJsonString,
  commitTestSet,
  evidencePackBytes,
  leafFromParts,
  merkleRootBytes,
  mintEvidencePack,
  packHash,
  parseEvidencePack,
  promptHash,
  goldLeaf,
  keccak256Bytes,
  keccakBackend,
  utf8,
  validateEvidencePack,
  parseJson,
  prepareGold,
  gradePrepared,
  decimalToFraction,
  Fraction,
} from "../dist/index.js";
import { makeMintInputs, makeTestSet } from "./fixtures.js";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const TASKS = Number(process.env.BENCH_TASKS ?? 10_000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

interface Timing<T> {
  /** wall-clock milliseconds */
  ms: number;
  /** CPU milliseconds of this process (user + system): what the code costs, whatever else runs on the machine */
  cpu: number;
  /** CPU milliseconds of every run, in run order */
  cpuRuns: number[];
  result: T;
}

function time<T>(fn: () => T, runs = RUNS): Timing<T> {
  let result: T = undefined as T;
  const ms: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    result = fn();
    ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { ms: median(ms), cpu: median(cpu), cpuRuns: cpu, result };
}

function bareKeccak(inputs: readonly Uint8Array[]): void {
  for (const b of inputs) keccak256Bytes(b);
}

interface Paired<T> {
  /** the measured code */
  code: Timing<T>;
  /** its baseline */
  base: Timing<void>;
  /** CPU-time ratio code / baseline of each run */
  ratios: number[];
  /** median of `ratios` */
  ratio: number;
}

/** Time `code` and then `base` in each of `runs` runs; the ratio is the median of the per-run CPU ratios. */
function paired<T>(code: () => T, base: () => void, runs = RUNS): Paired<T> {
  const c: Timing<T>[] = [];
  const b: Timing<void>[] = [];
  for (let i = 0; i < runs; i++) {
    c.push(time(code, 1));
    b.push(time(base, 1));
  }
  const merge = <U>(ts: Timing<U>[]): Timing<U> => ({
    ms: median(ts.map((t) => t.ms)),
    cpu: median(ts.map((t) => t.cpu)),
    cpuRuns: ts.map((t) => t.cpu),
    result: (ts[ts.length - 1] as Timing<U>).result,
  });
  const ratios = c.map((t, i) => t.cpu / (b[i] as Timing<void>).cpu);
  return { code: merge(c), base: merge(b), ratios, ratio: median(ratios) };
}

const ratiosOf = (p: Paired<unknown>): string => p.ratios.map((r) => r.toFixed(2)).join(" / ");
const verdict = (ratio: number, target: number): string =>
  `target <= ${target.toFixed(2)} x: ${ratio <= target ? "met" : "NOT met"}`;

const fmt = (t: { ms: number; cpu: number }): string =>
  `${t.ms.toFixed(1).padStart(9)} ms wall ${t.cpu.toFixed(1).padStart(9)} ms CPU`;
const runsOf = (t: Timing<unknown>): string =>
  t.cpuRuns.length > 1 ? `   (runs: ${t.cpuRuns.map((c) => c.toFixed(0)).join(" / ")} ms CPU)` : "";
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

// ---------------------------------------------------------------------------
console.log(
  `evidence benchmarks (node ${process.version}, ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}, median of ${RUNS} run${RUNS > 1 ? "s" : ""}, Keccak-256 backend ${keccakBackend()})\n`,
);

{
  const rows = makeTestSet(ROWS);
  commitTestSet(rows.slice(0, 2000)); // warm-up

  // the commitment's own hash inputs, precomputed as bytes
  const inputs: Uint8Array[] = [];
  let bytes = 0;
  const leaves: Uint8Array[] = [];
  for (const row of rows) {
    const p = utf8(row.prompt);
    const g = utf8(canonicalJsonString(row.gold) + row.salt);
    const ph = promptHash(row.prompt);
    const gl = goldLeaf(row.gold, row.salt);
    const l = utf8(`{"gold_leaf":"${gl}","ordinal":${row.ordinal},"prompt_hash":"${ph}"}`);
    inputs.push(p, g, l);
    leaves.push(leafFromParts(row.ordinal, ph, gl));
  }
  let level = leaves;
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const pair = new Uint8Array(64);
      pair.set(level[i] as Uint8Array, 0);
      pair.set((level[i + 1] ?? level[i]) as Uint8Array, 32);
      inputs.push(pair);
      next.push(keccak256Bytes(pair));
    }
    level = next;
  }
  for (const b of inputs) bytes += b.length;
  const commit = paired(
    () => commitTestSet(rows),
    () => bareKeccak(inputs),
  );
  const fold = time(() => merkleRootBytes(leaves));
  console.log(
    `1. commitment root of ${ROWS.toLocaleString("en-US")} rows (root ${commit.code.result.root.slice(0, 10)}…)`,
  );
  console.log(`   commitTestSet                 ${fmt(commit.code)}${runsOf(commit.code)}`);
  console.log(`     of which the Merkle fold    ${fmt(fold)}`);
  console.log(
    `   bare keccak of its inputs     ${fmt(commit.base)}${runsOf(commit.base)}   (${inputs.length.toLocaleString("en-US")} hashes, ${mib(bytes)})`,
  );
  console.log(
    `   ratio (CPU time, per run)     ${commit.ratio.toFixed(2).padStart(9)} x   (runs: ${ratiosOf(commit)}; ${verdict(commit.ratio, 1.3)}; wall-clock ratio of medians ${(commit.code.ms / commit.base.ms).toFixed(2)} x)\n`,
  );
}

{
  const inputs = makeMintInputs(TASKS, 5);
  mintEvidencePack(makeMintInputs(200, 5)); // warm-up
  const mint = time(() => mintEvidencePack(inputs));
  const pack = mint.result;
  const packBytes = time(() => evidencePackBytes(pack));
  const bytes = packBytes.result;
  const hashed = canonicalJson({
    benchmark: pack.benchmark,
    test_set: pack.test_set,
    winners: pack.winners,
    rank_derivation: pack.rank_derivation,
  });
  const hash = paired(
    () => packHash(pack),
    () => bareKeccak([hashed]),
    Math.max(RUNS, 9),
  );
  const parse = time(() => parseEvidencePack(bytes));
  const json = time(() => parseJson(bytes));
  const parsed = parseJson(bytes);
  const schema = time(() => validateEvidencePack(parsed));
  console.log(
    `2. ${TASKS.toLocaleString("en-US")}-task pack, ${pack.rank_derivation.rows.length} ranked agents, ${pack.winners.length} winners (${mib(bytes.length)} canonical)`,
  );
  console.log(
    `   mintEvidencePack              ${fmt(mint)}   (commit, regrade winners, receipt hashes, rank, select, pack hash, schema)`,
  );
  console.log(`   packHash                      ${fmt(hash.code)}`);
  console.log(`   canonical bytes of the pack   ${fmt(packBytes)}`);
  console.log(`   bare keccak of hashed bytes   ${fmt(hash.base)}   (${mib(hashed.length)})`);
  console.log(
    `   ratio packHash / bare keccak  ${hash.ratio.toFixed(2).padStart(9)} x   (CPU time, median of ${hash.ratios.length} paired runs: ${ratiosOf(hash)}; ${verdict(hash.ratio, 3)})`,
  );
  console.log(
    `   ratio (mint + packHash) / bare keccak    ${((mint.cpu + hash.code.cpu) / hash.base.cpu).toFixed(2).padStart(6)} x (CPU time)`,
  );
  console.log(
    `   parseEvidencePack             ${fmt(parse)}   (lossless parse ${json.cpu.toFixed(1)} ms CPU + schema ${schema.cpu.toFixed(1)} ms CPU)`,
  );
}

{
  // probe26 B-F1: a long numeric answer was graded by reducing fractions (Euclid's gcd, quadratic in
  // the digits: 143 s for 100,000 digits); exact decimals are compared at one scale. The baseline is the
  // old way on a tenth of the digits (the full length would take minutes).
  const DIGITS = 100_000;
  let seed = 12345; // a fixed pseudo-random sequence of digits (a periodic one reduces fast)
  const digits = (n: number) =>
    Array.from({ length: n }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return String(Math.floor(seed / 65536) % 10);
    }).join("");
  const answer = `0.${digits(DIGITS)}1`;
  const gold = prepareGold("numeric", { value: "9007199254740993", tolerance: "0.5" });
  const graded = time(() => gradePrepared(gold, answer));
  const shortAnswer = `0.${digits(DIGITS / 10)}1`;
  const reduced = time(() => decimalToFraction(shortAnswer).sub(new Fraction(9007199254740993n)), 1);
  console.log(
    `\n3. grading a numeric answer of ${answer.length.toLocaleString("en-US")} characters (credit ${graded.result.toString()})`,
  );
  console.log(`   gradePrepared (exact decimals) ${fmt(graded)}${runsOf(graded)}`);
  console.log(
    `   baseline: reduced fractions of ${shortAnswer.length.toLocaleString("en-US")} characters ${fmt(reduced)}   (the way before probe26 B-F1; quadratic)`,
  );
}
