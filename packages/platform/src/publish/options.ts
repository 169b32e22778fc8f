/**
 * Publish options (SPEC 3, 6): checking and normalising them into the benchmark's config, the slug rule and the default slug, and the public share of the bank.
 */
import {
  composite,
  isEvidenceError,
  isJsonFloat,
  PACK_LIMITS,
  validateGold,
  valueLimitProblems,
  type JsonFloat,
} from "@bench-bounty/evidence";
import { LEADERBOARD_VISIBILITIES, type BenchmarkConfig, type LeaderboardVisibility } from "../context.js";
import { PlatformError } from "../errors.js";
import {
  GRADER_TYPE_NAMES,
  normaliseTolerance,
  sentNumberText,
  shownNumber,
  type GraderType,
} from "../gold.js";
import { parseTemplate, refuseGoldPlaceholders } from "../template.js";
import { textTooLong } from "../text-limits.js";
import { controlCharacterProblem } from "../terminal.js";
import { assertWellFormedText } from "../utf8.js";

/** Options of {@link publishBenchmark} (the body of `POST /datasets/:id/benchmark` in the seed). */
export interface PublishOptions {
  title: string;
  /** Template with plain dotted placeholders, e.g. `"Weather on {payload.date}: ..."`. */
  prompt_template: string;
  grader_type: GraderType;
  /** Dotted path of the gold in each row (default `label`). */
  gold_field?: string;
  /**
   * `numeric`: tolerance (number or decimal string, default 0). A JSON number may come as a
   * {@link JsonFloat} carrying the text sent (the REST body's): it is kept only as sent (`sentNumberText`).
   */
  tolerance?: number | string | JsonFloat;
  /** `exact`: dotted path of a list of alternative answers. */
  alternatives_field?: string;
  /** Share of rows that become public tasks, 0..1 (number, {@link JsonFloat} or decimal string; default 0.5). */
  public_fraction?: number | string | JsonFloat;
  /** Attempts per agent (default 3). */
  max_attempts?: number;
  /** Time budget of the speed term, integer seconds > 0 (default 900). */
  time_budget_seconds?: number;
  /** SPEC 6 speed weight, plain decimal string (default "0.3"). */
  speed_weight?: string;
  /** SPEC 6 cost weight, plain decimal string (default "0"). */
  cost_weight?: string;
  /** SPEC 6 cost budget in USDC with 6 decimals, or null (default null: no cost term). */
  cost_budget_usdc?: string | null;
  /** Public tasks drawn per attempt (default: all public tasks, shuffled). */
  public_tasks_per_run?: number;
  /** Who sees the leaderboard: `public` (default) or `buyer_only` (the author only). */
  leaderboard_visibility?: string;
  /** Explicit slug (`^[a-z0-9][a-z0-9-]{1,127}$`). */
  slug?: string;
  /**
   * Seed for the per-task salts and the run-plan seed. Given: salts are reproducible
   * (`keccak256("bench-bounty.task-salt:" + seed + ":" + content_hash + ":" + ordinal)`; never served
   * before the award) and so is the plan seed (`keccak256("bench-bounty.plan-seed:" + seed + ":" +
   * bank_digest)`, label-free: it orders the public tasks a run serves), which is for tests and demos
   * only: anyone knowing the seed can brute-force private gold from the root. Absent: 32 crypto-random
   * bytes per task and for the plan seed. Empty or whitespace only: refused ({@link assertSeed}).
   */
  seed?: string;
}

/**
 * The disclosure returned with every publication (seed "Privacy: what competitors can see"). It says
 * what the server did; unlike the seed's wording ("sorted your rows by row_hash"), rows are sorted by
 * `prompt_hash` so that neither the split nor the served order depends on a label (SPEC 6.1).
 */
export const DISCLOSURE =
  "The server sorted your rows by prompt_hash (keccak256 of the rendered prompt; identical prompts keep their upload " +
  "order), so neither the public/private split nor the order tasks are served in depends on a label (SPEC 6.1); " +
  "the first round(n * public_fraction) rows are public, the cut moved to the nearest boundary when it would split a " +
  "group of identical prompts, or of prompts equal after SPEC 5's norm: Unicode NFKC, white space, letter case (indistinguishable tasks are all public or all private; duplicate_prompts names them). " +
  "The private split hides only the LABELS. The payloads of private rows are rendered into the task prompts every " +
  "competitor receives. Gold answers never appear in any response, and per-task correctness stays hidden until the " +
  "benchmark closes, but the payload data itself is visible to everyone who enters. When the prize is awarded, the " +
  "whole test set (prompts, gold and salts) is revealed in the award evidence pack.";

/** Slug rule of explicit slugs. */
export const SLUG_RE = /^[a-z0-9][a-z0-9-]{1,127}$/;

/**
 * Slugs that match {@link SLUG_RE} but name a route of their own under `/benchmarks/`: the network
 * service's run routes are `/benchmarks/runs/...`, so a benchmark `runs` would have its leaderboard,
 * commitment, corpus and evidence door answered as runs (probe19 A-F5). A default slug never is one
 * (it ends in 8 hex digits).
 */
export const RESERVED_SLUGS: readonly string[] = ["runs"];

/**
 * Default slug: slugified name (ASCII letters and digits, runs of others as `-`) + `-` + 8 hex of the
 * {@link bankDigest} (label-free, SPEC 6.1: never of the content hash, which covers the labels).
 */
export function defaultSlug(name: string, bankDigest: string): string {
  const base =
    name
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 118)
      .replace(/-+$/g, "") || "benchmark";
  return `${base}-${bankDigest.slice(2, 10)}`;
}

/**
 * The public tasks `public_fraction` asks for: `round(n * public_fraction)` computed exactly, ties to
 * even (Python's `round`, as the seed's server does). The test set's cut is this moved to the nearest
 * boundary of a group of identical prompts (`splitCut` in `publish/plan.ts`, the one rule).
 */
export function publicCount(n: number, publicFraction: string): number {
  const [ip = "0", fp = ""] = publicFraction.split(".");
  const den = 10n ** BigInt(fp.length);
  const num = BigInt(ip + fp) * BigInt(n);
  const q = num / den;
  const r = num % den;
  const twice = 2n * r;
  const up = twice > den || (twice === den && q % 2n === 1n);
  return Number(up ? q + 1n : q);
}

/** The longest `public_fraction` string read: the service's number bound (1,000 digits) and its `0.`. */
const MAX_FRACTION_TEXT = 1_002;

function normaliseFraction(v: unknown): string {
  let s: string;
  if (typeof v === "number" || typeof v === "bigint" || isJsonFloat(v)) {
    const text = sentNumberText("public_fraction", v);
    if (typeof text === "object")
      throw new PlatformError("invalid_option", text.error, { field: "public_fraction" });
    s = text;
  } else if (typeof v === "string") {
    // the number form's bound (1,000 digits, `sentNumberText`) for the string form too, refused without
    // echoing it (probe36 V-N1: a 60 KB string was taken whole and echoed)
    if (v.length > MAX_FRACTION_TEXT)
      throw new PlatformError(
        "invalid_option",
        `public_fraction must be between 0 and 1 in plain notation of at most ${MAX_FRACTION_TEXT} characters, got one of ${v.length}`,
        { field: "public_fraction" },
      );
    s = v.trim();
  } else
    throw new PlatformError("invalid_option", "public_fraction must be a number between 0 and 1", {
      field: "public_fraction",
    });
  if (!/^(0|1)(\.[0-9]+)?$/.test(s) || (s.startsWith("1") && /[1-9]/.test(s.slice(1)))) {
    throw new PlatformError(
      "invalid_option",
      `public_fraction must be between 0 and 1 in plain notation, got ${s}`,
      { field: "public_fraction" },
    );
  }
  return s;
}

function intOption(
  v: unknown,
  field: string,
  dflt: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (v === undefined) return dflt;
  if (isJsonFloat(v) || typeof v === "bigint") {
    // `3.0` is 3; `3.0000000000000001` reads as 3 but is not what was sent (probe21 A-F2); a bigint is
    // an integer beyond 2^53-1, refused quoting its digits (probe22)
    const text = sentNumberText(field, v);
    if (typeof text === "object") throw new PlatformError("invalid_option", text.error, { field });
    v = Number(text);
  }
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min || v > max) {
    throw new PlatformError("invalid_option", `${field} must be an integer between ${min} and ${max}`, {
      field,
    });
  }
  return v;
}

/**
 * The seed rule (probe28 B-F2): a publish `seed`, when given, is a string holding something besides
 * whitespace. An empty or whitespace-only seed (`--seed "$UNSET"`, a body's `seed: ""`) is the one
 * seed everybody knows: the salts and the plan seed would be public, and the private labels could be
 * brute-forced from the anchored root. It is never trimmed: the seed given is the one the salts use.
 * @param seed the option as given (undefined: no seed, random salts)
 * @param name how the caller names the option in the message (`seed`; the CLI's `--seed`)
 * @throws PlatformError `invalid_option`, `details.field: "seed"`, the message naming `name`
 */
export function assertSeed(seed: unknown, name = "seed"): void {
  if (seed === undefined) return;
  if (typeof seed !== "string")
    throw new PlatformError("invalid_option", `${name} must be a string`, { field: "seed" });
  if (seed.trim() !== "") return;
  throw new PlatformError(
    "invalid_option",
    `${name} is empty or only whitespace: that seed is known to everybody, so the salts and the plan would be public and the private labels could be brute-forced from the root; give a secret seed, or none for random salts`,
    { field: "seed" },
  );
}

/**
 * Checks publish options and returns the stored configuration (the seed is checked, {@link assertSeed},
 * not stored).
 * @throws PlatformError `invalid_option` naming the field (`details.field`), `invalid_template`,
 *   `missing_placeholder`
 */
export function benchmarkConfig(o: PublishOptions): BenchmarkConfig {
  if (typeof o !== "object" || o === null)
    throw new PlatformError("invalid_option", "publish options must be an object", { field: "$" });
  assertWellFormedText(o, "$", "invalid_option"); // title, description, template, fields: no lone surrogate
  if (typeof o.title !== "string" || o.title.trim() === "")
    throw new PlatformError("invalid_option", "title is required", { field: "title" });
  const titleControl = controlCharacterProblem("title", o.title); // shown to everyone: one line of plain text
  if (titleControl !== null)
    throw new PlatformError("invalid_option", titleControl, { field: "title", path: "$.title" });
  const titleTooLong = textTooLong("title", o.title.trim());
  if (titleTooLong)
    throw new PlatformError("invalid_option", titleTooLong.message, {
      field: "title",
      max: titleTooLong.max,
    });
  assertSeed(o.seed);
  if (!(GRADER_TYPE_NAMES as readonly string[]).includes(o.grader_type)) {
    throw new PlatformError("invalid_option", `grader_type must be one of ${GRADER_TYPE_NAMES.join(", ")}`, {
      field: "grader_type",
    });
  }
  const templateParts = parseTemplate(o.prompt_template);
  if (o.tolerance !== undefined && o.grader_type !== "numeric") {
    throw new PlatformError("invalid_option", "tolerance applies to the numeric grader only", {
      field: "tolerance",
    });
  }
  const tol = normaliseTolerance(o.tolerance);
  if (typeof tol === "object") throw new PlatformError("invalid_option", tol.error, { field: "tolerance" });
  if (o.alternatives_field !== undefined && o.grader_type !== "exact") {
    throw new PlatformError("invalid_option", "alternatives_field applies to the exact grader only", {
      field: "alternatives_field",
    });
  }
  for (const f of ["gold_field", "alternatives_field"] as const) {
    const v = o[f];
    if (v !== undefined && (typeof v !== "string" || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(v))) {
      throw new PlatformError("invalid_option", `${f} must be a plain dotted path such as label.tip5m_bps`, {
        field: f,
      });
    }
  }
  refuseGoldPlaceholders(templateParts, [
    { option: "gold_field", path: o.gold_field ?? "label" },
    ...(o.alternatives_field !== undefined
      ? [{ option: "alternatives_field", path: o.alternatives_field }]
      : []),
  ]);
  const config: BenchmarkConfig = {
    grader_type: o.grader_type,
    prompt_template: o.prompt_template,
    gold_field: o.gold_field ?? "label",
    tolerance: o.grader_type === "numeric" ? tol : null,
    alternatives_field: o.alternatives_field ?? null,
    public_fraction: normaliseFraction(o.public_fraction ?? "0.5"),
    max_attempts: intOption(o.max_attempts, "max_attempts", 3, 1, 1000),
    time_budget_seconds: intOption(o.time_budget_seconds, "time_budget_seconds", 900, 1),
    speed_weight: o.speed_weight ?? "0.3",
    cost_weight: o.cost_weight ?? "0",
    cost_budget_usdc: o.cost_budget_usdc ?? null,
    public_tasks_per_run:
      o.public_tasks_per_run === undefined
        ? null
        : intOption(o.public_tasks_per_run, "public_tasks_per_run", 0, 1),
    leaderboard_visibility: visibilityOption(o.leaderboard_visibility),
  };
  assertPackLimits(o, config);
  if (o.tolerance !== undefined) {
    // a published gold's bounds (evidence validateGold: NUMERIC_GOLD_MAX_INT_DIGITS, _FRAC_DIGITS) hold for
    // the tolerance alone: refused here, naming it, rather than on every row (probe28 A-F6); after the pack's
    // own limits, which name the value as sent (`5e-324`, probe21 A-F2)
    try {
      validateGold("numeric", { value: 0, tolerance: tol });
    } catch (e) {
      if (isEvidenceError(e))
        throw new PlatformError("invalid_option", `tolerance refused by the grader rules: ${e.message}`, {
          field: "tolerance",
        });
      throw e;
    }
  }
  // The scoring settings are checked by the evidence library's composite (SPEC 6), on a sample run.
  try {
    composite({
      rank_accuracy: "1.0000",
      wall_seconds: "0.000",
      usdc_spent: "0.000000",
      speed_weight: config.speed_weight,
      cost_weight: config.cost_weight,
      time_budget_seconds: config.time_budget_seconds,
      cost_budget_usdc: config.cost_budget_usdc,
    });
  } catch (e) {
    if (isEvidenceError(e)) {
      const field = e.path.replace(/^\$\.?/, "") || "speed_weight";
      throw new PlatformError("invalid_option", `scoring settings: ${e.message}`, { field });
    }
    throw e;
  }
  return config;
}

/**
 * The publish options a pack carries verbatim (SPEC 8: `benchmark.title`, the `scoring` block's
 * decimals, a numeric gold's `tolerance`) must be readable by the default verifier: each within
 * evidence's `PACK_LIMITS` (strings within `maxStringLength`, decimals within `maxDecimalLength`
 * characters), refused here, at publish, rather than found by a verifier after the award.
 * @throws PlatformError `invalid_option` naming the field and the limit
 */
function assertPackLimits(o: PublishOptions, config: BenchmarkConfig): void {
  const [tooLong] = valueLimitProblems(o.title, { path: "title", maxProblems: 1 });
  if (tooLong) throw new PlatformError("invalid_option", `title: ${tooLong.message}`, { field: "title" });
  const decimals: [string, string | number | null, unknown][] = [
    ["speed_weight", config.speed_weight, o.speed_weight],
    ["cost_weight", config.cost_weight, o.cost_weight],
    ["cost_budget_usdc", config.cost_budget_usdc, o.cost_budget_usdc],
    ["tolerance", config.tolerance, o.tolerance],
  ];
  for (const [field, v, sent] of decimals) {
    const text = v === null ? "" : String(v);
    if (text.length > PACK_LIMITS.maxDecimalLength) {
      // named as sent: `5e-324` is a decimal of 326 characters once written out (probe21 A-F2)
      const sentText = isJsonFloat(sent) ? sent.lexeme : String(sent);
      const shown = sentText === text ? "" : ` ${shownNumber(sentText)}`;
      throw new PlatformError(
        "invalid_option",
        `${field}${shown} is a decimal of ${text.length} characters${shown ? " written out plainly" : ""}; the pack a verifier reads carries at most ${PACK_LIMITS.maxDecimalLength} (PACK_LIMITS.maxDecimalLength)`,
        { field, limit: "maxDecimalLength", max: PACK_LIMITS.maxDecimalLength },
      );
    }
  }
}

/**
 * The `leaderboard_visibility` option (default `public`).
 * @throws PlatformError `invalid_option` naming the field for anything but `public` or `buyer_only`
 */
function visibilityOption(v: string | undefined): LeaderboardVisibility {
  if (v === undefined) return "public";
  if ((LEADERBOARD_VISIBILITIES as readonly string[]).includes(v)) return v as LeaderboardVisibility;
  throw new PlatformError(
    "invalid_option",
    `leaderboard_visibility must be one of ${LEADERBOARD_VISIBILITIES.join(", ")}, got ${JSON.stringify(v)}`,
    { field: "leaderboard_visibility" },
  );
}
