/**
 * `spec/SPEC.md` sections 7.1-7.2: ordering of runs, best row per agent, eligibility
 * (threshold, author agents), winner selection and `zero_winner_reason`.
 * Amounts (7.3) come from {@link payoutAmounts}.
 * @packageDocumentation
 */
import { EvidenceError, appendPath, describeValue } from "./errors.js";
import { SCORE4, SECONDS3, instantMs } from "./formats.js";
import { compareCodePoints } from "./json/index.js";
import { payoutAmounts, validateSplits } from "./payouts.js";

/** The fields of a run that ranking reads (SPEC 7.1). Extra fields are carried along. */
export interface RunRow {
  agent_id: string;
  /** author agents rank but take no money (SPEC 7.2) */
  is_author_agent: boolean;
  run_id: string;
  /** 4 dp */
  score_composite: string;
  /** 4 dp */
  score_public: string;
  queries_used: number;
  /** exactly 3 dp */
  wall_seconds: string;
  /** ISO-8601 UTC `...mmmZ`: when the score was achieved (run finalized) */
  achieved_at: string;
}

/** A row after ranking: 1-based `rank` and the agent's `attempts_used`. */
export type RankedRow<T extends RunRow = RunRow> = T & { rank: number; attempts_used: number };

/** Why nobody is paid (SPEC 7.3), or null when there are winners. */
export type ZeroWinnerReason = "no_runs" | "none_at_or_above_threshold" | "only_author_agents";

interface Key {
  composite: bigint; // score * 10^4
  pub: bigint;
  queries: number;
  wall: bigint; // seconds * 10^3
  at: number; // ms
  runId: string;
}

/**
 * The decimal string `v` (matching `re`, e.g. `"0.9000"` like `example`) scaled to an integer.
 * @throws EvidenceError `schema` at `path`: a value that is not a string is named as written
 *   (`describeValue`: a JSON number by its lexeme, probe37 C-N3: it was printed as the parser's
 *   `{"lexeme":"0.9","value":0.9}`), a string of the wrong format quoted
 */
function scaled(v: unknown, re: RegExp, path: string, what: string, example: string): bigint {
  if (typeof v !== "string")
    throw new EvidenceError(
      "schema",
      path,
      `${what} must be a decimal string like ${JSON.stringify(example)}, not ${describeValue(v)}`,
    );
  if (!re.test(v))
    throw new EvidenceError("schema", path, `${what} has the wrong format: ${JSON.stringify(v)}`);
  return BigInt(v.replace(".", ""));
}

/**
 * The sort key of a run (SPEC 7.1), validating the fields it reads.
 * @throws EvidenceError `schema` naming `path.field`
 */
function keyOf(r: RunRow, path: string): Key {
  if (typeof r !== "object" || r === null) throw new EvidenceError("schema", path, "a row must be an object");
  if (typeof r.agent_id !== "string" || r.agent_id === "")
    throw new EvidenceError("schema", `${path}.agent_id`, "agent_id must be a non-empty string");
  if (typeof r.run_id !== "string" || r.run_id === "")
    throw new EvidenceError("schema", `${path}.run_id`, "run_id must be a non-empty string");
  if (typeof r.is_author_agent !== "boolean")
    throw new EvidenceError("schema", `${path}.is_author_agent`, "is_author_agent must be a boolean");
  if (!Number.isSafeInteger(r.queries_used) || r.queries_used < 0)
    throw new EvidenceError("schema", `${path}.queries_used`, "queries_used must be a non-negative integer");
  return {
    composite: scaled(
      r.score_composite,
      SCORE4,
      `${path}.score_composite`,
      "score_composite (4 dp)",
      "0.9000",
    ),
    pub: scaled(r.score_public, SCORE4, `${path}.score_public`, "score_public (4 dp)", "0.9000"),
    queries: r.queries_used,
    wall: scaled(r.wall_seconds, SECONDS3, `${path}.wall_seconds`, "wall_seconds (3 dp)", "12.500"),
    at: instantMs(r.achieved_at, `${path}.achieved_at`),
    runId: r.run_id,
  };
}

function compareKeys(a: Key, b: Key): number {
  if (a.composite !== b.composite) return a.composite > b.composite ? -1 : 1;
  if (a.pub !== b.pub) return a.pub > b.pub ? -1 : 1;
  if (a.queries !== b.queries) return a.queries - b.queries;
  if (a.wall !== b.wall) return a.wall < b.wall ? -1 : 1;
  if (a.at !== b.at) return a.at - b.at;
  return compareCodePoints(a.runId, b.runId);
}

/**
 * Compare two runs by the SPEC 7.1 tuple `(-score_composite, -score_public,
 * queries_used, wall_seconds, achieved_at, run_id)`: negative when `a` ranks first.
 * @throws EvidenceError `schema` when a field breaks its format
 */
export function compareRuns(a: RunRow, b: RunRow): number {
  return compareKeys(keyOf(a, "$.a"), keyOf(b, "$.b"));
}

/**
 * Rank runs (SPEC 7.1): order all runs by the SPEC tuple, keep each agent's
 * best run, number them from 1, and count each agent's attempts (its runs).
 *
 * @param runs every finalized run of the benchmark (any order); extra fields are kept
 * @param path JSON path of `runs` for error messages
 * @returns one row per agent, best first, with `rank` and `attempts_used`
 * @throws EvidenceError `schema` for a field that breaks its format, `bad_rows` for a repeated run_id
 */
export function rankRows<T extends RunRow>(runs: readonly T[], path = "$"): RankedRow<T>[] {
  if (!Array.isArray(runs)) throw new EvidenceError("bad_rows", path, "runs must be an array");
  const keys = runs.map((r, i) => keyOf(r, appendPath(path, i)));
  const seenRun = new Map<string, number>();
  const attempts = new Map<string, number>();
  runs.forEach((r, i) => {
    const prev = seenRun.get(r.run_id);
    if (prev !== undefined)
      throw new EvidenceError(
        "bad_rows",
        appendPath(appendPath(path, i), "run_id"),
        `run_id ${JSON.stringify(r.run_id)} repeats ${appendPath(path, prev)}`,
      );
    seenRun.set(r.run_id, i);
    attempts.set(r.agent_id, (attempts.get(r.agent_id) ?? 0) + 1);
  });
  const order = runs.map((_, i) => i);
  order.sort((x, y) => compareKeys(keys[x] as Key, keys[y] as Key) || x - y);
  const out: RankedRow<T>[] = [];
  const done = new Set<string>();
  for (const i of order) {
    const r = runs[i] as T;
    if (done.has(r.agent_id)) continue;
    done.add(r.agent_id);
    out.push({ ...r, rank: out.length + 1, attempts_used: attempts.get(r.agent_id) ?? 1 });
  }
  return out;
}

/**
 * Order already-deduplicated rows (one per agent) by the SPEC 7.1 tuple,
 * without renumbering: the verifier uses it to re-rank the pack's rows.
 * @returns the indexes of `rows` in rank order
 * @throws EvidenceError `schema` for a field that breaks its format
 */
export function rankOrder(rows: readonly RunRow[], path = "$"): number[] {
  const keys = rows.map((r, i) => keyOf(r, appendPath(path, i)));
  return rows.map((_, i) => i).sort((x, y) => compareKeys(keys[x] as Key, keys[y] as Key) || x - y);
}

/**
 * True when the row clears the threshold: `score_composite * 10000 >= threshold_bps` (exact).
 * @throws EvidenceError `schema` for a malformed score
 */
export function clearsThreshold(
  scoreComposite: string,
  thresholdBps: number,
  path = "$.score_composite",
): boolean {
  return scaled(scoreComposite, SCORE4, path, "score_composite (4 dp)", "0.9000") >= BigInt(thresholdBps);
}

/** Input of {@link selectWinners}. */
export interface SelectionInput<T extends RunRow = RunRow> {
  /** ranked rows, in rank order (as {@link rankRows} returns them) */
  rows: readonly T[];
  /** 0..10000 */
  threshold_bps: number;
  /** valid splits (1..8 places) */
  splits_bps: readonly number[];
  /** prize pool, base units */
  pool_base_units: bigint | string;
}

/** Result of {@link selectWinners}. */
export interface Selection<T extends RunRow = RunRow> {
  /** winning rows in place order (place 1 first) */
  winners: T[];
  /** amounts per place, base units */
  amounts: bigint[];
  /** the same as decimal strings (pack form) */
  place_amounts_base_units: string[];
  /** null when there are winners */
  zero_winner_reason: ZeroWinnerReason | null;
}

/**
 * Select winners (SPEC 7.2-7.3): the first `len(splits_bps)` rows, in the
 * given rank order, with `score_composite * 10000 >= threshold_bps` that are
 * not author agents; amounts by {@link payoutAmounts}; with no winner, the
 * reason (`no_runs`, `none_at_or_above_threshold`, `only_author_agents`).
 *
 * @throws EvidenceError `bad_splits`, `schema` (a malformed score, threshold or pool)
 */
export function selectWinners<T extends RunRow>(input: SelectionInput<T>): Selection<T> {
  const splits = validateSplits(input.splits_bps, "$.splits_bps");
  const th = input.threshold_bps;
  if (!Number.isSafeInteger(th) || th < 0 || th > 10000)
    throw new EvidenceError("schema", "$.threshold_bps", "threshold_bps must be an integer in 0..10000");
  let pool: bigint;
  if (typeof input.pool_base_units === "bigint") pool = input.pool_base_units;
  else if (typeof input.pool_base_units === "string" && /^(0|[1-9][0-9]*)$/.test(input.pool_base_units))
    pool = BigInt(input.pool_base_units);
  else
    throw new EvidenceError(
      "schema",
      "$.pool_base_units",
      "pool_base_units must be an integer string (base units)",
    );
  if (!Array.isArray(input.rows)) throw new EvidenceError("schema", "$.rows", "rows must be an array");
  const winners: T[] = [];
  let anyClears = false;
  input.rows.forEach((r, i) => {
    if (!clearsThreshold(r.score_composite, th, `$.rows[${i}].score_composite`)) return;
    anyClears = true;
    if (r.is_author_agent === true) return;
    if (winners.length < splits.length) winners.push(r);
  });
  let reason: ZeroWinnerReason | null = null;
  if (winners.length === 0)
    reason =
      input.rows.length === 0 ? "no_runs" : anyClears ? "only_author_agents" : "none_at_or_above_threshold";
  const amounts = payoutAmounts(pool, splits, winners.length);
  return { winners, amounts, place_amounts_base_units: amounts.map(String), zero_winner_reason: reason };
}

/**
 * Why a winner paid at the bounty's author is refused, as every checker says it (SPEC 7.2).
 */
export const AUTHOR_TAKES_NO_PRIZE =
  "the bounty's author takes no prize (SPEC 7.2, author agents rank but take no money)";

/**
 * SPEC 7.2 "author agents rank but take no money", by the money's destination (probe34 C-F1): a
 * withdrawal address equal to the bounty's author (`getBounty(id).author`, the address that locked the
 * prize; the pack's `benchmark.author`) pays the author, whatever account or row flag goes with it. The
 * one place of this rule: the platform's run start, address change and award ranking, the verifier's
 * `selection` fact and `hardhat bounty:award` all ask it. Addresses are compared without regard to case.
 * @param withdrawalAddress a `0x` address, any case; null or undefined (none) pays nobody: false
 * @param author the bounty's author, any case; null or undefined (no bounty): false
 */
export function paysAuthor(
  withdrawalAddress: string | null | undefined,
  author: string | null | undefined,
): boolean {
  if (!withdrawalAddress || !author) return false;
  return withdrawalAddress.toLowerCase() === author.toLowerCase();
}
