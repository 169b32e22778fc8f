/**
 * Phase runner: prints progress for each phase of the demo, times it, and
 * records the outcome for the report. A failed phase stops the run; the phases
 * that did not run are recorded as skipped.
 */
import { performance } from "node:perf_hooks";

/** Outcome of one phase. */
export interface PhaseResult {
  /** Short phase name, e.g. "publish benchmark". */
  readonly name: string;
  readonly status: "ok" | "failed" | "skipped";
  /** Wall time in milliseconds (0 when skipped). */
  readonly ms: number;
  /** One-line summary (ok) or the error message (failed). */
  readonly detail?: string;
}

/** What a phase body receives to report progress. */
export interface PhaseContext {
  /** Prints an indented progress line under the phase heading. */
  note(line: string): void;
  /** Sets the one-line summary shown after the tick and in the report. */
  summary(line: string): void;
}

/** Error marking a phase that could not run because a dependency is missing. */
export class MissingDependencyError extends Error {
  override readonly name = "MissingDependencyError";
}

/** Runs named phases in order, printing and timing each. */
export class PhaseRunner {
  readonly results: PhaseResult[] = [];
  private readonly startedAt = performance.now();
  private index = 0;

  constructor(
    private readonly names: readonly string[],
    private readonly out: (line: string) => void,
  ) {}

  /** Milliseconds since the runner was created. */
  elapsedMs(): number {
    return performance.now() - this.startedAt;
  }

  /**
   * Runs one phase; rethrows its error after recording it (the caller stops
   * the run and calls {@link skipRest}).
   */
  async run<T>(name: string, body: (ctx: PhaseContext) => Promise<T>): Promise<T> {
    this.index += 1;
    const total = Math.max(this.names.length, this.index);
    this.out(`\n▶ [${this.index}/${total}] ${name}`);
    const t0 = performance.now();
    let summary: string | undefined;
    const ctx: PhaseContext = {
      note: (line) => this.out(`    ${line}`),
      summary: (line) => {
        summary = line;
      },
    };
    try {
      const value = await body(ctx);
      const ms = performance.now() - t0;
      this.results.push({ name, status: "ok", ms, ...(summary !== undefined ? { detail: summary } : {}) });
      this.out(`  ✓ ${name} (${formatSeconds(ms)})${summary ? `: ${summary}` : ""}`);
      return value;
    } catch (err) {
      const ms = performance.now() - t0;
      const detail = err instanceof Error ? err.message : String(err);
      this.results.push({ name, status: "failed", ms, detail });
      this.out(`  ✗ ${name} FAILED after ${formatSeconds(ms)}: ${detail}`);
      throw err;
    }
  }

  /** Records every announced phase that has not run as skipped. */
  skipRest(): void {
    const seen = new Set(this.results.map((r) => r.name));
    for (const name of this.names) {
      if (!seen.has(name)) this.results.push({ name, status: "skipped", ms: 0 });
    }
  }

  /** True when every recorded phase succeeded. */
  allOk(): boolean {
    return this.results.every((r) => r.status === "ok");
  }
}

/** `1234.5` ms -> `"1.2 s"`; minutes above 90 s (`"2 min 05 s"`). */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  if (s < 90) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(Math.round(s - m * 60)).padStart(2, "0")} s`;
}
