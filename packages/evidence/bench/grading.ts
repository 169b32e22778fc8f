/**
 * `pnpm bench:grading` (evidence `bench:grading`): what grading a run's answers costs the event loop
 * (probe27 A-F6, A-F1). A script, not a test: it prints figures, each with its baseline measured in
 * the same run.
 *
 *  1. A run of `BENCH_ANSWERS` (default 40) `exact` answers of 100,000 x U+FDFA (NFKC expands each
 *     18x, ~130 ms): graded at once (`runSteps`, the baseline: what finalize did on the event loop) and
 *     in slices (`runStepsSliced`, `DEFAULT_SLICE_MS`: what `serve` does now). Printed: total time and
 *     the event loop's worst gap (the longest wait of a 1 ms timer meanwhile), which for slices is about
 *     one answer's grading.
 *  2. A `numeric` answer of 56,816 digits against gold 12.5 +- 0.75: `gradePrepared` (the integer-digit
 *     pre-check, no parse) against the exact comparison it replaces (`parseExactDecimal` and
 *     `withinTolerance`), the same credit.
 *
 * It measures the code that ships (`dist/`, built first). Env: BENCH_ANSWERS, BENCH_CHARS (default
 * 100000), BENCH_RUNS (default 3, medians).
 */
import {
  DEFAULT_SLICE_MS,
  gradePrepared,
  parseExactDecimal,
  prepareGold,
  runSteps,
  runStepsSliced,
  withinTolerance,
  type Steps,
} from "../dist/index.js";

const ANSWERS = Number(process.env.BENCH_ANSWERS ?? 40);
const CHARS = Number(process.env.BENCH_CHARS ?? 100_000);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** A run's grading in steps, one per answer (as platform `gradePlan` and evidence `regradeRun`). */
function* gradeRun(answers: readonly string[]): Steps<number> {
  const gold = prepareGold("exact", { value: "x" });
  let right = 0;
  for (const a of answers) {
    if (gradePrepared(gold, a).toString() === "1/1") right++;
    yield;
  }
  return right;
}

/** Runs `f` while a 1 ms timer measures the event loop's worst gap; total ms and that gap. */
async function withGapProbe(f: () => Promise<unknown>): Promise<{ ms: number; gap: number }> {
  let gap = 0;
  let last = performance.now();
  let on = true;
  const probe = () => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
    if (on) setTimeout(probe, 1);
  };
  setTimeout(probe, 1);
  const t0 = performance.now();
  await f();
  const ms = performance.now() - t0;
  on = false;
  await new Promise((r) => setTimeout(r, 5));
  return { ms, gap: Math.max(gap, performance.now() - last) };
}

async function main(): Promise<void> {
  const answers = Array.from({ length: ANSWERS }, (_v, i) => "\uFDFA".repeat(CHARS - (i % 2)));
  console.log(`grading ${ANSWERS} exact answers of ${CHARS} x U+FDFA, ${RUNS} runs (medians)`);
  const once = { ms: [] as number[], gap: [] as number[] };
  const sliced = { ms: [] as number[], gap: [] as number[] };
  for (let r = 0; r < RUNS; r++) {
    const a = await withGapProbe(async () => runSteps(gradeRun(answers)));
    const b = await withGapProbe(() => runStepsSliced(gradeRun(answers)));
    once.ms.push(a.ms);
    once.gap.push(a.gap);
    sliced.ms.push(b.ms);
    sliced.gap.push(b.gap);
  }
  console.log(
    `  at once (baseline): ${median(once.ms).toFixed(0)} ms, event loop's worst gap ${median(once.gap).toFixed(0)} ms`,
  );
  console.log(
    `  in slices of ${DEFAULT_SLICE_MS} ms:  ${median(sliced.ms).toFixed(0)} ms, event loop's worst gap ${median(sliced.gap).toFixed(0)} ms` +
      ` (${(median(once.gap) / median(sliced.gap)).toFixed(1)}x shorter)`,
  );

  const digits = "1" + "3".repeat(56_815);
  const gold = prepareGold("numeric", { value: "12.5", tolerance: "0.75" });
  const [value, tol] = [parseExactDecimal("12.5"), parseExactDecimal("0.75")];
  const pre: number[] = [];
  const full: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let t0 = performance.now();
    const c = gradePrepared(gold, digits).toString();
    pre.push(performance.now() - t0);
    t0 = performance.now();
    const exact = withinTolerance(parseExactDecimal(digits), value, tol);
    full.push(performance.now() - t0);
    if (c !== (exact ? "1/1" : "0/1")) throw new Error("the pre-check disagrees with the exact comparison");
  }
  console.log(`numeric answer of ${digits.length} digits vs 12.5 +- 0.75 (credit 0/1 both ways):`);
  console.log(
    `  gradePrepared (digit-count pre-check): ${median(pre).toFixed(3)} ms; exact parse and compare (baseline): ${median(full).toFixed(3)} ms`,
  );
}

await main();
