/**
 * Recomputation helpers for the verifier (`spec/SPEC.md` section 9) and the minter: regrade a
 * run, recompute a row's composite, re-rank rows, re-select winners, check a
 * row against its receipt. Each returns {@link Problem}s with JSON paths
 * instead of throwing, so a caller can report one fact per concern.
 * @packageDocumentation
 */
import { promptHash, type TestSetRow } from "./commitment.js";
import { EvidenceError, appendPath } from "./errors.js";
import { FRACTION_STRING } from "./formats.js";
import { Fraction } from "./fraction.js";
import { isJsonObject } from "./json/index.js";
import {
  answerLongNonStarterRun,
  answerUnstableFinalSigma,
  firstLongNonStarterRun,
  firstUnstableFinalSigma,
  goldNormTexts,
  gradePrepared,
  isGraderType,
  nonStarterRunText,
  prepareGold,
  unstableFinalSigmaText,
  type PreparedGold,
} from "./graders.js";
import { PAYOUT_RULES, validateSplits } from "./payouts.js";
import { rankOrder, selectWinners } from "./ranking.js";
import { matchAnswers, receiptHash, type Problem, type Receipt, type RevealedAnswer } from "./receipts.js";
import {
  rankDerivationSchema,
  schemaProblems,
  type RankDerivation,
  type RankRow,
  type Winner,
} from "./schemas.js";
import { accuracy, composite } from "./scores.js";
import { runSteps, type Steps } from "./slices.js";

function toProblem(e: unknown, fallbackPath: string): Problem {
  if (e instanceof EvidenceError)
    return { code: e.code, path: e.path, message: e.message.replace(/^\$[^:]*: /, "") };
  return { code: "error", path: fallbackPath, message: e instanceof Error ? e.message : String(e) };
}

/** A test set's gold prepared once for grading: per row the prepared gold or the problem that makes it ungradable. */
export type PreparedTestSet = (PreparedGold | Problem)[];

/**
 * Validate and prepare every row's gold (SPEC 5) once, for many regrades. A row whose gold holds a string
 * `norm` reads with a run of more than `MAX_NON_STARTER_RUN` non-starters is the problem
 * `combining_run_too_long` naming the string's path, never normalised (probe36 A-F9); one whose gold holds
 * a string with a capital sigma whose Final_Sigma context meets a code point whose case class differs
 * between Unicode 14.0.0 and this runtime (`firstUnstableFinalSigma`: its lower-casing depends on the
 * Unicode version; probe39 B-F2) is the problem `unstable_final_sigma` naming the string's path.
 * @param path JSON path of the test set (default `$.test_set`)
 */
export function prepareTestSetGold(
  testSet: readonly Pick<TestSetRow, "gold" | "grader_type">[],
  path = "$.test_set",
): PreparedTestSet {
  return testSet.map((row, i) => {
    // a gold string NFKC would sort a long run of combining marks in: never normalised (probe36 A-F9)
    const texts = goldNormTexts(row.grader_type, row.gold, appendPath(appendPath(path, i), "gold"));
    const long = longRunProblem(texts);
    if (long !== null) return long;
    // a gold string whose lower-casing depends on the Unicode version (probe39 B-F2): not graded
    const sigma = unstableSigmaProblem(texts);
    if (sigma !== null) return sigma;
    try {
      // the row's path is only part of an error: prepared without it, and prepared again
      // with it (same gold, same error) when the gold is malformed
      return prepareGold(row.grader_type, row.gold, "");
    } catch {
      // Any error: the second call below, with the path, raises it again (or reports the gold's problem).
      const p = appendPath(appendPath(path, i), "gold");
      try {
        return prepareGold(row.grader_type, row.gold, p);
      } catch (e) {
        return toProblem(e, p);
      }
    }
  });
}

/** Result of {@link graderExampleProblems}. */
export interface GraderExampleCheck {
  /** how many examples were read (objects with a `gold` and a string `answer`) */
  examples: number;
  /** what is wrong with them, each naming its JSON path */
  problems: Problem[];
}

/**
 * Check the worked examples of a pack's `benchmark.grader_types` block (SPEC 8: "the grading semantics
 * above, as text and examples"; probe39 B-N1): each example's `gold` must be a valid gold of its grader
 * (the test set's rule: {@link prepareTestSetGold}'s, i.e. `prepareGold` and no string `norm` reads with a
 * run of more than `MAX_NON_STARTER_RUN` non-starters), and its stated `credit` must be the credit of its
 * `answer` graded against that gold (SPEC 5, `gradePrepared`). The `gold_shape` and `semantics` texts are
 * descriptive: they are bound by the pack's hash and anchors, never checked here.
 *
 * What is not of the pack schema's shape (the block or a grader not an object, a grader name not of SPEC 5,
 * `examples` not an array, an example's `answer` not a string, its `credit` not an `n/d` string) is skipped:
 * `evidencePackProblems` names it (an unreduced `2/2` is compared too, and differs from `1/1`).
 * Never throws.
 *
 * @param graderTypes the parsed `benchmark.grader_types` value (any JSON value)
 * @param path JSON path of the block (default `$.benchmark.grader_types`)
 * @returns the examples read and their problems: `malformed_gold` / `unknown_grader` /
 *   `combining_run_too_long` at `<path>.<grader>.examples[i].gold...` (or `.answer` for an answer with such a
 *   run: not graded), `example_credit_mismatch` at `<path>.<grader>.examples[i].credit` (the stated credit
 *   and the regraded one)
 */
export function graderExampleProblems(
  graderTypes: unknown,
  path = "$.benchmark.grader_types",
): GraderExampleCheck {
  const problems: Problem[] = [];
  let examples = 0;
  if (!isJsonObject(graderTypes)) return { examples, problems };
  for (const [grader, description] of Object.entries(graderTypes)) {
    if (!isGraderType(grader) || !isJsonObject(description)) continue;
    const list = description["examples"];
    if (!Array.isArray(list)) continue;
    const ep = appendPath(appendPath(path, grader), "examples");
    // the test set's rule, each example a row: its problems name `<ep>[i].gold...`
    const golds = prepareTestSetGold(
      list.map((ex: unknown) => ({
        grader_type: grader,
        gold: (isJsonObject(ex) ? ex["gold"] : undefined) as TestSetRow["gold"],
      })),
      ep,
    );
    list.forEach((ex: unknown, i) => {
      if (!isJsonObject(ex) || !hasOwnKey(ex, "gold") || typeof ex["answer"] !== "string") return;
      examples++;
      const xp = appendPath(ep, i);
      const gold = golds[i];
      if (gold === undefined) return;
      if (isProblem(gold)) {
        problems.push(gold);
        return;
      }
      const answer = ex["answer"];
      const long = answerLongNonStarterRun(grader, answer);
      if (long !== null) {
        problems.push({
          code: "combining_run_too_long",
          path: appendPath(xp, "answer"),
          message: `${nonStarterRunText(long, long.member)}; not graded`,
        });
        return;
      }
      const credit = gradePrepared(gold, answer).toString();
      const stated = ex["credit"];
      // a credit that is no "n/d" string is the schema's problem (named at its path there)
      if (typeof stated === "string" && FRACTION_STRING.test(stated) && stated !== credit)
        problems.push({
          code: "example_credit_mismatch",
          path: appendPath(xp, "credit"),
          message: `the example states credit ${JSON.stringify(stated.length > 80 ? `${stated.slice(0, 80)}...` : stated)}, grading its answer ${JSON.stringify(answer.length > 80 ? `${answer.slice(0, 80)}...` : answer)} against its gold with the ${grader} grader (SPEC 5) gives ${credit}`,
        });
    });
  }
  return { examples, problems };
}

function hasOwnKey(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/**
 * The problem `combining_run_too_long` of the first of `texts` holding a run of more than
 * `MAX_NON_STARTER_RUN` non-starters (`firstLongNonStarterRun`, probe36 A-F9), or null.
 */
function longRunProblem(texts: readonly { path: string; text: string }[]): Problem | null {
  for (const t of texts) {
    const r = firstLongNonStarterRun(t.text);
    if (r !== null)
      return {
        code: "combining_run_too_long",
        path: t.path,
        message: `${nonStarterRunText(r)}; not graded`,
      };
  }
  return null;
}

/**
 * The problem `unstable_final_sigma` of the first of `texts` holding a capital sigma whose Final_Sigma
 * context meets a code point whose case class differs between Unicode 14.0.0 and this runtime
 * (`firstUnstableFinalSigma`, probe39 B-F2), or null. Call it on texts {@link longRunProblem} passes.
 */
function unstableSigmaProblem(texts: readonly { path: string; text: string }[]): Problem | null {
  for (const t of texts) {
    const u = firstUnstableFinalSigma(t.text);
    if (u !== null)
      return {
        code: "unstable_final_sigma",
        path: t.path,
        message: `${unstableFinalSigmaText(u)}; not graded`,
      };
  }
  return null;
}

function isProblem(v: PreparedGold | Problem | undefined): v is Problem {
  return v !== undefined && "code" in v;
}

/** One regraded task. */
export interface RegradedTask {
  ordinal: number;
  bank_ordinal: number;
  visibility: "public" | "private";
  /** the revealed answer matched to the task (null when unanswered) */
  answer_text: string | null;
  /** the credit, or null when the task could not be graded (see problems) */
  credit: Fraction | null;
}

/** Result of {@link regradeRun}. */
export interface RegradeResult {
  /** true when every answer matched its digest and every task was graded */
  ok: boolean;
  problems: Problem[];
  tasks: RegradedTask[];
  /** 4 dp accuracy over private tasks (public if the bank has none); null if not computable */
  rank_accuracy: string | null;
  /** 4 dp accuracy over public tasks (`"0.0000"` with none); null if not computable */
  score_public: string | null;
}

/** Options of {@link regradeRun}. */
export interface RegradeOptions {
  /** the benchmark's commit root: the receipt must name it */
  commitRoot?: string;
  /** gold prepared by {@link prepareTestSetGold} (reuse across winners) */
  prepared?: PreparedTestSet;
  /** bare prompt hashes of the test set (reuse across winners) */
  promptHashes?: readonly string[];
  /** path of the winner entry, e.g. `$.winners[0]` (default `$`) */
  path?: string;
}

/**
 * Regrade one run from the revealed gold (SPEC 4-6): match the revealed
 * answers to the receipt (digests, `bank_ordinal`, `prompt_hash`,
 * `visibility`, `commit_root`), grade every task (an unanswered task scores
 * 0), and compute `rank_accuracy` and `score_public`. A revealed answer (or a gold string `norm` reads)
 * holding a run of more than `MAX_NON_STARTER_RUN` non-starters is not graded: a problem
 * `combining_run_too_long` at its path, the task's credit null, so no `rank_accuracy` (probe36 A-F9:
 * NFKC of such a run takes time quadratic in it). Nor is one holding, in what `norm` reads of it, a capital
 * sigma whose Final_Sigma context meets a code point whose case class differs between Unicode 14.0.0 and
 * this runtime (evidence `answerUnstableFinalSigma`, the submit's rule; probe39 B-F2): a problem
 * `unstable_final_sigma` at its path, its credit null (another implementation's tables may grade it otherwise).
 */
export function regradeRun(
  testSet: readonly TestSetRow[],
  receipt: Receipt,
  answers: readonly RevealedAnswer[],
  answerSalt: string,
  options: RegradeOptions = {},
): RegradeResult {
  return runSteps(regradeRunSteps(testSet, receipt, answers, answerSalt, options));
}

/**
 * {@link regradeRun} in steps (one per graded task, `slices.ts`): `runStepsSliced` runs it without
 * holding the event loop for the whole run (probe27 A-F6); the same result.
 */
export function* regradeRunSteps(
  testSet: readonly TestSetRow[],
  receipt: Receipt,
  answers: readonly RevealedAnswer[],
  answerSalt: string,
  options: RegradeOptions = {},
): Steps<RegradeResult> {
  const base = options.path ?? "$";
  const prepared = options.prepared ?? prepareTestSetGold(testSet);
  const promptHashes = options.promptHashes ?? testSet.map((r) => promptHash(r.prompt));
  const check = matchAnswers(receipt, answers, answerSalt, {
    testSet,
    promptHashes,
    commitRoot: options.commitRoot,
    receiptPath: `${base}.receipt`,
    answersPath: `${base}.answers`,
  });
  const problems = [
    ...check.problems.map((p) =>
      p.path.startsWith("$.answer_salt") ? { ...p, path: `${base}.answer_salt` } : p,
    ),
  ];
  // revealed answers NFKC would sort a long run of combining marks in are not graded (probe36 A-F9): the
  // task is a problem, so no regrade holds the process for a time quadratic in the run
  // (probe36 V-F2: for a json_fields task, also the decoded strings of its members, which norm reads)
  const receiptTasks = Array.isArray(receipt?.tasks) ? receipt.tasks : [];
  const unsafe = new Set<number>();
  if (Array.isArray(answers))
    answers.forEach((a, j) => {
      if (typeof a?.answer_text !== "string") return;
      // the grader the task is graded by: its receipt row's bank ordinal, as below
      const bank: unknown = Number.isSafeInteger(a.ordinal)
        ? receiptTasks[a.ordinal]?.bank_ordinal
        : undefined;
      const row = typeof bank === "number" && Number.isSafeInteger(bank) ? testSet[bank] : undefined;
      const graderType = typeof row?.grader_type === "string" ? row.grader_type : "";
      const long = answerLongNonStarterRun(graderType, a.answer_text);
      if (long !== null) {
        problems.push({
          code: "combining_run_too_long",
          path: `${base}.answers[${j}].answer_text`,
          message: `${nonStarterRunText(long, long.member)}; not graded`,
        });
        unsafe.add(a.ordinal);
        return;
      }
      // an answer whose lower-casing depends on the Unicode version (probe39 B-F2): its credit would be
      // this runtime's, not every implementation's; not graded
      const sigma = answerUnstableFinalSigma(graderType, a.answer_text);
      if (sigma === null) return;
      problems.push({
        code: "unstable_final_sigma",
        path: `${base}.answers[${j}].answer_text`,
        message: `${unstableFinalSigmaText(sigma, sigma.member)}; not graded`,
      });
      unsafe.add(a.ordinal);
    });
  // the receipt's tasks with their matched answers (as checkAnswersAgainstReceipt lists them)
  const tasks: RegradedTask[] = [];
  for (const [i, rt] of receiptTasks.entries()) {
    const bank = rt.bank_ordinal;
    const answerText = check.texts[i] ?? null;
    const gold = Number.isSafeInteger(bank) ? prepared[bank] : undefined;
    let credit: Fraction | null = null;
    if (gold === undefined) {
      // out-of-range bank ordinal: already reported by the answer check
    } else if (isProblem(gold)) {
      problems.push(gold);
    } else if (unsafe.has(i)) {
      // named above
    } else {
      try {
        credit = gradePrepared(gold, answerText);
      } catch (e) {
        problems.push(toProblem(e, `${base}.answers`));
      }
    }
    tasks.push({
      ordinal: i,
      bank_ordinal: bank,
      visibility: rt.visibility,
      answer_text: answerText,
      credit,
    });
    yield;
  }
  const bankHasPrivate = testSet.some((r) => r.visibility === "private");
  const graded = tasks.every((t) => t.credit !== null);
  let rank_accuracy: string | null = null;
  let score_public: string | null = null;
  if (graded) {
    const vis = bankHasPrivate ? "private" : "public";
    const counted = tasks.filter((t) => t.visibility === vis).map((t) => t.credit as Fraction);
    if (counted.length === 0)
      problems.push({
        code: "no_scored_tasks",
        path: `${base}.receipt.tasks`,
        message: `the run has no ${vis} task to score`,
      });
    else rank_accuracy = accuracy(counted);
    const pub = tasks.filter((t) => t.visibility === "public").map((t) => t.credit as Fraction);
    score_public = pub.length === 0 ? "0.0000" : accuracy(pub);
  }
  return { ok: problems.length === 0, problems, tasks, rank_accuracy, score_public };
}

/** The scoring configuration of a rank derivation (SPEC 6-7). */
export type ScoringConfig = Pick<
  RankDerivation,
  "speed_weight" | "cost_weight" | "time_budget_seconds" | "cost_budget_usdc"
>;

/**
 * Recompute a row's composite (SPEC 6) from its `rank_accuracy`,
 * `wall_seconds`, `usdc_spent` and the derivation's weights and budgets.
 * @returns the 4-dp composite, or a problem when the inputs are malformed
 */
export function recomputeRowComposite(
  row: Pick<RankRow, "rank_accuracy" | "wall_seconds" | "usdc_spent">,
  scoring: ScoringConfig,
  path = "$",
): { score_composite: string | null; problem: Problem | null } {
  try {
    const score = composite({
      rank_accuracy: row.rank_accuracy,
      wall_seconds: row.wall_seconds,
      usdc_spent: row.usdc_spent,
      speed_weight: scoring.speed_weight,
      cost_weight: scoring.cost_weight,
      time_budget_seconds: scoring.time_budget_seconds,
      cost_budget_usdc: scoring.cost_budget_usdc,
    });
    return { score_composite: score, problem: null };
  } catch (e) {
    const p = toProblem(e, path);
    return {
      score_composite: null,
      problem: { ...p, path: p.path === "$" ? path : p.path.replace(/^\$/, path) },
    };
  }
}

/**
 * The scores a receipt's graded credits give (SPEC 4, 6), against what its receipt and row state (probe37
 * V-N5: a row's embedded receipt could state credits that contradict its own scores). Only credits the
 * receipt states count: while the benchmark was open they are null (SPEC 4), and private ones stay null
 * until the award (`privateCreditsVisible`), so `score_public` is checked when every public task's credit
 * is stated and `rank_accuracy` when every counted task's credit is (the private tasks when the bank has
 * any, else the public ones). A winner's credits are checked against the regrade instead
 * ({@link regradeRun}). Never throws.
 * @param receipt the row's embedded receipt (its tasks' `credit`: reduced fraction strings or null)
 * @param row the row's `rank_accuracy` (4-dp string)
 * @param bankHasPrivate whether the test set has a private task (SPEC 6's counted visibility)
 * @param path the row's JSON path; problems name `<path>.receipt.score_public` or `<path>.rank_accuracy`
 * @returns problems with code `receipt_credit_mismatch` (or `schema` for a credit that is no fraction)
 */
export function receiptCreditProblems(
  receipt: Pick<Receipt, "score_public" | "tasks">,
  row: Pick<RankRow, "rank_accuracy">,
  bankHasPrivate: boolean,
  path = "$",
): Problem[] {
  const stated = (vis: "public" | "private"): string[] | null => {
    const of = receipt.tasks.filter((t) => t.visibility === vis);
    return of.every((t) => t.credit !== null) ? of.map((t) => t.credit as string) : null;
  };
  const problems: Problem[] = [];
  try {
    const pub = stated("public");
    if (pub !== null) {
      const want = pub.length === 0 ? "0.0000" : accuracy(pub);
      if (want !== receipt.score_public)
        problems.push({
          code: "receipt_credit_mismatch",
          path: `${path}.receipt.score_public`,
          message: `the receipt states score_public ${JSON.stringify(receipt.score_public)}, its ${pub.length} public credits give ${want} (SPEC 6)`,
        });
    }
    const counted = stated(bankHasPrivate ? "private" : "public");
    if (counted !== null && counted.length > 0) {
      const want = accuracy(counted);
      if (want !== row.rank_accuracy)
        problems.push({
          code: "receipt_credit_mismatch",
          path: `${path}.rank_accuracy`,
          message: `the row states rank_accuracy ${JSON.stringify(row.rank_accuracy)}, its receipt's ${counted.length} ${bankHasPrivate ? "private" : "public"} credits give ${want} (SPEC 6)`,
        });
    }
  } catch (e) {
    problems.push(toProblem(e, `${path}.receipt.tasks`));
  }
  return problems;
}

/**
 * Check every row's composite against its recomputation.
 * @param path path of the rows array (default `$.rank_derivation.rows`)
 */
export function checkComposites(
  rows: readonly RankRow[],
  scoring: ScoringConfig,
  path = "$.rank_derivation.rows",
): Problem[] {
  const problems: Problem[] = [];
  rows.forEach((row, i) => {
    const p = appendPath(path, i);
    const { score_composite, problem } = recomputeRowComposite(row, scoring, p);
    if (problem) problems.push(problem);
    else if (score_composite !== row.score_composite)
      problems.push({
        code: "composite_mismatch",
        path: `${p}.score_composite`,
        message: `row says ${row.score_composite}, recomputed ${score_composite}`,
      });
  });
  return problems;
}

/**
 * The rows' uniqueness (SPEC 7.1, SPEC 4): one row per agent, per run and per receipt. A run is one
 * agent's attempt (SPEC 4: a receipt's `run_id` and `agent_id`) and SPEC 7.1's last tie-break is
 * `run_id`, which orders only if run ids are unique; a receipt hash names one run. So two rows sharing an
 * `agent_id`, a `run_id` or a `receipt_hash` are a problem at the second row's field (probe37 V-F2: a
 * loser's row naming a winner's run and receipt hash was read as "no winner's"). The one place of the
 * rule: {@link checkOrdering} (the verifier's `ordering` fact) and {@link rankDerivationProblems}
 * (`bounty:award`) use it.
 * @param rows the rank rows (SPEC 8), in pack order
 * @param path path of the rows array (default `$.rank_derivation.rows`)
 * @returns `agent_ranked_twice` at `<path>[i].agent_id`, `run_ranked_twice` at `<path>[i].run_id`,
 *   `receipt_ranked_twice` at `<path>[i].receipt_hash` (each for the second and later rows); empty when unique
 */
export function rowUniquenessProblems(
  rows: readonly Pick<RankRow, "agent_id" | "run_id" | "receipt_hash">[],
  path = "$.rank_derivation.rows",
): Problem[] {
  const problems: Problem[] = [];
  const fields = [
    ["agent_id", "agent_ranked_twice", "agent"],
    ["run_id", "run_ranked_twice", "run"],
    ["receipt_hash", "receipt_ranked_twice", "receipt hash"],
  ] as const;
  const seen = fields.map(() => new Map<string, number>());
  rows.forEach((r, i) => {
    fields.forEach(([field, code, what], f) => {
      const v = r[field];
      const firstAt = seen[f]!;
      // receipt hashes are compared case-insensitively (hex); agent and run ids exactly
      const k = field === "receipt_hash" ? v.toLowerCase() : v;
      const prev = firstAt.get(k);
      if (prev !== undefined)
        problems.push({
          code,
          path: `${appendPath(path, i)}.${field}`,
          message: `${what} ${JSON.stringify(v)} already has row ${prev} (${appendPath(path, prev)}): one row per ${what}`,
        });
      else firstAt.set(k, i);
    });
  });
  return problems;
}

/**
 * Re-rank the rows (SPEC 7.1) and check their order and `rank` numbers:
 * one row per agent, per run and per receipt ({@link rowUniquenessProblems}), sorted by the SPEC tuple,
 * ranks 1..n.
 * @param path path of the rows array (default `$.rank_derivation.rows`)
 */
export function checkOrdering(rows: readonly RankRow[], path = "$.rank_derivation.rows"): Problem[] {
  const problems: Problem[] = rowUniquenessProblems(rows, path);
  rows.forEach((r, i) => {
    if (r.rank !== i + 1)
      problems.push({
        code: "rank_number",
        path: `${appendPath(path, i)}.rank`,
        message: `row at position ${i} has rank ${r.rank}, expected ${i + 1}`,
      });
  });
  let order: number[];
  try {
    order = rankOrder(rows, path);
  } catch (e) {
    problems.push(toProblem(e, path));
    return problems;
  }
  order.forEach((from, to) => {
    if (from !== to) {
      const row = rows[from] as RankRow;
      problems.push({
        code: "order",
        path: appendPath(path, from),
        message: `agent ${JSON.stringify(row.agent_id)} (run ${row.run_id}) belongs at rank ${to + 1}, not ${from + 1}`,
      });
    }
  });
  return problems;
}

/**
 * A named `payout_rule` whose splits are not `splits_bps` (`custom` names any splits), or null; the one
 * rule of the pack (`rankDerivationProblems`), the verifier's `payouts` fact and `bounty:award`. The
 * message names `custom` for other splits (probe32 C-F2: a bounty locked with `--splits` could be awarded
 * only with `custom`, which no message named). A name that is none of {@link PAYOUT_RULES}' is the
 * schema's problem, not this one's (null).
 * @param rdp the path of the rank derivation (`$.rank_derivation`); the problem names its `.splits_bps`
 */
export function payoutRuleProblem(
  rd: { payout_rule: string; splits_bps: readonly number[] },
  rdp = "$.rank_derivation",
): Problem | null {
  if (rd.payout_rule === "custom") return null;
  const named = (PAYOUT_RULES as Record<string, readonly number[] | undefined>)[rd.payout_rule];
  if (named === undefined) return null;
  if (named.length === rd.splits_bps.length && named.every((v, i) => v === rd.splits_bps[i])) return null;
  return {
    code: "payout_rule_mismatch",
    path: `${rdp}.splits_bps`,
    message: `payout_rule ${rd.payout_rule} means [${named.join(", ")}], splits_bps is [${rd.splits_bps.join(", ")}] (any other splits, such as a bounty's locked with --splits, are payout_rule "custom")`,
  };
}

/**
 * Every problem of a `rank_derivation` block (SPEC 8) that the block shows by itself: its schema
 * ({@link rankDerivationSchema}: decimals of their format, integers in range, receipt hashes bytes32,
 * strict keys), then, when the schema holds, the payout rule against `splits_bps`
 * ({@link payoutRuleProblem}), each row's composite recomputed from the weights and budgets
 * ({@link checkComposites}) and each embedded receipt against its row ({@link checkRowReceipt}) and its stated
 * credits ({@link receiptCreditProblems}), and one row
 * per agent, run and receipt hash ({@link rowUniquenessProblems}, probe37 V-F2). The
 * awarder's tool runs it before `award()` commits the block's digest for good (probe26 B-F3): a block
 * that fails it can never be part of a pack that verifies. Never throws.
 * @param value the parsed block ({@link parseJson} output)
 * @param root the path of the block (default `$.rank_derivation`), prefixed to every problem's path
 * @returns the problems with their JSON paths (codes `schema`, `payout_rule_mismatch`,
 *   `agent_ranked_twice`, `run_ranked_twice`, `receipt_ranked_twice`, `composite_mismatch`, `receipt_hash_mismatch`, `row_receipt_mismatch`, `receipt_credit_mismatch`, ...); empty when none
 */
export function rankDerivationProblems(value: unknown, root = "$.rank_derivation"): Problem[] {
  const schema = schemaProblems(rankDerivationSchema, value, root);
  if (schema.length > 0) return schema;
  const rd = value as RankDerivation;
  const problems: Problem[] = [];
  const rule = payoutRuleProblem(rd, root);
  if (rule !== null) problems.push(rule);
  const rows = `${root}.rows`;
  problems.push(...rowUniquenessProblems(rd.rows, rows));
  problems.push(...checkComposites(rd.rows, rd, rows));
  rd.rows.forEach((row, i) => {
    problems.push(...checkRowReceipt(row, appendPath(rows, i)));
    // the bank's private tasks are in every run's receipt (a run is the whole bank, SPEC 4)
    const r = row.receipt;
    if (r !== undefined)
      problems.push(
        ...receiptCreditProblems(
          r,
          row,
          r.tasks.some((t) => t.visibility === "private"),
          appendPath(rows, i),
        ),
      );
  });
  return problems;
}

/**
 * Re-select winners and amounts (SPEC 7.2-7.3) from the rows in their
 * given order and compare with the pack: winners (place, agent, run,
 * amount), `place_amounts_base_units`, `zero_winner_reason`, and the payout
 * rule against `splits_bps`.
 * @param poolBaseUnits the benchmark's pool (compared with the derivation's)
 */
export function checkSelection(
  rd: RankDerivation,
  winners: readonly Winner[],
  poolBaseUnits?: string,
): Problem[] {
  const problems: Problem[] = [];
  const rdp = "$.rank_derivation";
  try {
    validateSplits(rd.splits_bps, `${rdp}.splits_bps`);
  } catch (e) {
    return [toProblem(e, `${rdp}.splits_bps`)];
  }
  const rule = payoutRuleProblem(rd, rdp);
  if (rule !== null) problems.push(rule);
  if (poolBaseUnits !== undefined && poolBaseUnits !== rd.pool_base_units)
    problems.push({
      code: "pool_mismatch",
      path: `${rdp}.pool_base_units`,
      message: `rank_derivation pool ${rd.pool_base_units} differs from benchmark pool ${poolBaseUnits}`,
    });
  let sel;
  try {
    sel = selectWinners({
      rows: rd.rows,
      threshold_bps: rd.threshold_bps,
      splits_bps: rd.splits_bps,
      pool_base_units: rd.pool_base_units,
    });
  } catch (e) {
    problems.push(toProblem(e, rdp));
    return problems;
  }
  const amounts = sel.place_amounts_base_units;
  if (
    amounts.length !== rd.place_amounts_base_units.length ||
    amounts.some((a, i) => a !== rd.place_amounts_base_units[i])
  )
    problems.push({
      code: "place_amounts_mismatch",
      path: `${rdp}.place_amounts_base_units`,
      message: `pack says [${rd.place_amounts_base_units.join(", ")}], recomputed [${amounts.join(", ")}]`,
    });
  if (sel.zero_winner_reason !== rd.zero_winner_reason)
    problems.push({
      code: "zero_winner_reason_mismatch",
      path: `${rdp}.zero_winner_reason`,
      message: `pack says ${String(rd.zero_winner_reason)}, recomputed ${String(sel.zero_winner_reason)}`,
    });
  if (winners.length !== sel.winners.length)
    problems.push({
      code: "winner_count",
      path: "$.winners",
      message: `pack lists ${winners.length} winner(s), the rows select ${sel.winners.length}`,
    });
  const n = Math.min(winners.length, sel.winners.length);
  for (let i = 0; i < n; i++) {
    const w = winners[i] as Winner;
    const s = sel.winners[i] as RankRow;
    const p = appendPath("$.winners", i);
    if (w.place !== i + 1)
      problems.push({
        code: "place",
        path: `${p}.place`,
        message: `place ${w.place} at position ${i}, expected ${i + 1}`,
      });
    if (w.agent_id !== s.agent_id)
      problems.push({
        code: "winner_mismatch",
        path: `${p}.agent_id`,
        message: `pack names ${JSON.stringify(w.agent_id)}, the rows select ${JSON.stringify(s.agent_id)}`,
      });
    if (w.run_id !== s.run_id)
      problems.push({
        code: "winner_run_mismatch",
        path: `${p}.run_id`,
        message: `pack names run ${w.run_id}, the selected row is run ${s.run_id}`,
      });
    if (w.receipt_hash !== s.receipt_hash)
      problems.push({
        code: "winner_receipt_mismatch",
        path: `${p}.receipt_hash`,
        message: "the winner's receipt_hash differs from its row's",
      });
    const amt = amounts[i];
    if (w.amount_base_units !== amt)
      problems.push({
        code: "amount_mismatch",
        path: `${p}.amount_base_units`,
        message: `pack says ${w.amount_base_units}, recomputed ${String(amt)}`,
      });
  }
  return problems;
}

/**
 * Check a row against its receipt (when the row embeds one): the receipt
 * hash, the fields the row copies from it (run, agent, public score,
 * composite, wall time, queries, spend), and its `achieved_at`, the SPEC 7.1
 * tie-break, which is the receipt's `finalized_at` (the run was achieved when
 * it was finalized: `mintEvidencePack` mints it so; probe37 B-F4).
 * @param row the rank row (SPEC 8), its `receipt` embedded or set by the caller
 * @param path the row's JSON path, prefixed to every problem's path
 * @returns `receipt_hash_mismatch` at `<path>.receipt_hash`, `row_receipt_mismatch`
 *   at `<path>.<field>` for each differing field (`<path>.achieved_at` against
 *   the receipt's `finalized_at`); empty when the row carries no receipt or agrees
 */
export function checkRowReceipt(row: RankRow, path = "$"): Problem[] {
  const problems: Problem[] = [];
  const r = row.receipt;
  if (r === undefined) return problems;
  let h: string | null = null;
  try {
    h = receiptHash(r);
  } catch (e) {
    problems.push(toProblem(e, `${path}.receipt`));
  }
  if (h !== null && h !== row.receipt_hash)
    problems.push({
      code: "receipt_hash_mismatch",
      path: `${path}.receipt_hash`,
      message: `row says ${row.receipt_hash}, keccak of its receipt is ${h}`,
    });
  const same: [keyof RankRow & keyof Receipt][] = [
    ["run_id"],
    ["agent_id"],
    ["score_public"],
    ["score_composite"],
    ["wall_seconds"],
    ["queries_used"],
    ["usdc_spent"],
  ];
  for (const [k] of same) {
    if (row[k] !== r[k])
      problems.push({
        code: "row_receipt_mismatch",
        path: `${path}.${k}`,
        message: `row says ${JSON.stringify(row[k])}, its receipt says ${JSON.stringify(r[k])}`,
      });
  }
  if (row.achieved_at !== r.finalized_at)
    problems.push({
      code: "row_receipt_mismatch",
      path: `${path}.achieved_at`,
      message: `row says ${JSON.stringify(row.achieved_at)}, its receipt's finalized_at is ${JSON.stringify(r.finalized_at)} (SPEC 7.1 breaks ties on when the run was finalized)`,
    });
  return problems;
}
