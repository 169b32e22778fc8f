/**
 * Filters of the benchmarks page: status, prize, grader type, version. Pure, so the page and the
 * tests use the same rule.
 *
 * @packageDocumentation
 */
import type { BenchmarkSummary } from "../api/types.js";
import { prizeRenderOf } from "./prize.js";

/** The selected filters; `""` means any. */
export interface BenchmarkFilters {
  /** `open`, `closed`, `awarded`, or `""`. */
  status: string;
  /** `with` (any pool, declared or locked), `without`, or `""`. */
  prize: string;
  graderType: string;
  version: string;
}

/** No filter. */
export const NO_FILTERS: BenchmarkFilters = { status: "", prize: "", graderType: "", version: "" };

/** Status shown for a benchmark: `open` while it accepts runs, else the API's status. */
export function statusOf(b: BenchmarkSummary): string {
  if (b.status === "awarded") return "awarded";
  return b.open ? "open" : "closed";
}

/**
 * The prize render of a list item (the list never verifies, so at most "declared"), from the API's
 * structured prize facts ({@link prizeRenderOf}); the Prize filter reads it too.
 */
export function prizeOf(b: BenchmarkSummary) {
  return prizeRenderOf(b, b.prize_pool_base_units ?? null);
}

/** Version label of a benchmark (`unversioned` when the API gives none). */
export function versionOf(b: BenchmarkSummary): string {
  return b.version ?? "unversioned";
}

/** The benchmarks that pass every selected filter, in the API's order. */
export function applyFilters(list: BenchmarkSummary[], f: BenchmarkFilters): BenchmarkSummary[] {
  return list.filter(
    (b) =>
      (f.status === "" || statusOf(b) === f.status) &&
      (f.prize === "" || (prizeOf(b).kind === "none") === (f.prize === "without")) &&
      (f.graderType === "" || (b.grader_type ?? "") === f.graderType) &&
      (f.version === "" || versionOf(b) === f.version),
  );
}

/** The distinct values a filter can take in this list (for its select). */
export function filterOptions(list: BenchmarkSummary[]) {
  const uniq = (xs: string[]) => [...new Set(xs)].sort();
  return {
    status: uniq(list.map(statusOf)),
    graderType: uniq(list.flatMap((b) => (b.grader_type ? [b.grader_type] : []))),
    version: uniq(list.map(versionOf)),
  };
}
