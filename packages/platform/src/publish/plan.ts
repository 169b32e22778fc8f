/**
 * The test set of a benchmark (SPEC 3, 6.1): the label-free bank order, the bank digest, the public/private split, per-task salts and the commitment, and the answer allowance that keeps the award's pack within its limit.
 */
import {
  canonicalHash,
  commitTestSet,
  firstLongNonStarterRun,
  keccak256Hex,
  norm,
  PACK_LIMITS,
  promptHash,
  stringLengthProblem,
  testSetLimitProblems,
  type Hex,
  type TestSetRow,
} from "@bench-bounty/evidence";
import type { BenchmarkConfig, PlatformContext } from "../context.js";
import type { DatasetRow } from "../dataset.js";
import { PlatformError, throwRowIssues, type RowIssue } from "../errors.js";
import { alternativesIssues, shapeGold, type GraderType } from "../gold.js";
import { fromStored, toStored, type JsonObject } from "../json.js";
import {
  ANSWER_BYTES_PER_AGENT,
  answerBudget,
  MAX_PLACES,
  MIN_ANSWER_BYTES,
  packByteLimit,
  runTaskCount,
  testSetMinBytes,
  testSetPackBytes,
  titlePackBytes,
} from "../pack-budget.js";
import { parseTemplate, renderTemplate, templateSizer } from "../template.js";
import { publicCount } from "./options.js";

/**
 * Where a publication's per-task salts come from (SPEC 3): derived from the publish `seed` and the
 * dataset's content hash (reproducible), or drawn by the caller (`salts[ordinal]`, 64 hex digits each).
 */
export type SaltSource = { seed: string; content_hash: string } | { salts: readonly string[] };

/** The salt of each ordinal of a {@link SaltSource}. */
export function saltOf(source: SaltSource): (ordinal: number) => string {
  if ("salts" in source) return (i) => source.salts[i]!;
  const { seed, content_hash } = source;
  return (i) => keccak256Hex(`bench-bounty.task-salt:${seed}:${content_hash}:${i}`).slice(2);
}

/**
 * A publication's planning as data (plain strings and objects: it may run in a worker thread, the
 * server's dataset worker, so a large publish does not hold the event loop).
 */
export interface TestSetPlanJob {
  /** The dataset's stored rows (their `body_json`, in upload order). */
  bodies: readonly string[];
  config: BenchmarkConfig;
  salts: SaltSource;
}

/** What {@link planPublication} computes. */
export interface TestSetPlanResult {
  plan: PlannedTestSet;
  /** {@link promptBytesOf}: the rendered prompts' UTF-8 bytes. */
  prompt_bytes: number;
  /** The test set's canonical bytes in the pack (`testSetPackBytes`). */
  test_set_bytes: number;
}

/** Runs a {@link TestSetPlanJob} (inline, or in a worker thread), as {@link planPublication}. */
export type TestSetPlanner = (job: TestSetPlanJob) => Promise<TestSetPlanResult>;

/**
 * The CPU-heavy part of publishing (seconds for 100,000 rows): parse the rows, size the prompts, plan
 * the test set ({@link planTestSet}), measure it in the pack. Pure.
 * @throws PlatformError as {@link planTestSet}
 */
export function planPublication(job: TestSetPlanJob): TestSetPlanResult {
  const rows = job.bodies.map((b) => fromStored<DatasetRow>(b));
  const prompt_bytes = promptBytesOf(rows, job.config);
  const plan = planTestSet(rows, job.config, saltOf(job.salts));
  return { plan, prompt_bytes, test_set_bytes: testSetPackBytes(plan.rows) };
}

/**
 * A {@link TestSetPlanResult} as canonical JSON text (SPEC 2), for a thread boundary: a structured clone
 * keeps no class, so a gold's exact number ({@link JsonFloat} of @bench-bounty/evidence) crossed it as a
 * plain `{lexeme, value}` object, graded 0 against the right answer and hashed to another root at the
 * award (probe32 A-F6, A-F8). The text is what the store keeps of each row, so {@link planResultOfText}
 * gives back the values the store would.
 */
export function planResultText(result: TestSetPlanResult): string {
  return toStored(result);
}

/**
 * The {@link TestSetPlanResult} of {@link planResultText}'s text, parsed losslessly (`fromStored`: numbers
 * with a fraction or exponent as JsonFloat, integers past 2^53 as bigint).
 */
export function planResultOfText(text: string): TestSetPlanResult {
  return fromStored<TestSetPlanResult>(text);
}

/** The test set a publication would commit to (pure: nothing stored). */
export interface PlannedTestSet {
  rows: (TestSetRow & { row_index: number })[];
  public_count: number;
  root: Hex;
  leaf_count: number;
  /** {@link bankDigest} of the rows: label-free, what the default slug and the seeded plan seed use. */
  bank_digest: Hex;
  /** The rows rendering an identical prompt, and whether the cut moved for them ({@link duplicatePrompts}). */
  duplicate_prompts: DuplicatePrompts;
}

/**
 * The sameness key of each prompt (probe36 A-F5, V-F9; probe37 V-F1): two rows are the same task to a
 * model when their prompts are equal after SPEC 5's `norm` (Unicode NFKC, every White_Space run one space,
 * trimmed, lower-cased), the rule by which the graders call two answers equal: identical prompts, the same
 * text in another Unicode form (NFC `café` and NFD `cafe\u0301`), a trailing or doubled space, a no-break
 * space, fullwidth letters, a ligature, another letter case. Invisible format characters that are not
 * White_Space (U+200B ZERO WIDTH SPACE) are not folded: such prompts are not grouped. The key is the
 * `prompt_hash` of the prompt's `norm`, the prompt's own `prompt_hash` when `norm` leaves it as it is. A
 * prompt with a run of more than `MAX_NON_STARTER_RUN` combining characters is keyed by itself (NFKC sorts
 * such a run in time quadratic in its length; probe36 A-F9).
 * @param prompts the rendered prompts, in upload order
 * @param promptHashes `prompt_hash` per row, in upload order
 * @returns the key per row, in upload order: equal keys mean equivalent prompts
 */
export function promptSamenessKeys(prompts: readonly string[], promptHashes: readonly string[]): string[] {
  return prompts.map((prompt, i) => {
    if (firstLongNonStarterRun(prompt) !== null) return promptHashes[i]!;
    const n = norm(prompt);
    return n === prompt ? promptHashes[i]! : promptHash(n);
  });
}

/**
 * The bank order (SPEC 3 ordinals, SPEC 6.1): row indexes sorted by `prompt_hash` ascending, identical
 * prompts by their position in the uploaded dataset; a group of equivalent prompts (equal
 * {@link promptSamenessKeys}) sorts as its lowest `prompt_hash`, so it is adjacent and {@link splitCut}
 * keeps it on one side of the split (with no equivalent prompts this is the `prompt_hash` order itself).
 * Computed from prompts only: no label moves a row.
 * @param promptHashes `prompt_hash` per row, in upload order (bare lowercase hex, SPEC 3)
 * @param keys {@link promptSamenessKeys} per row, in upload order (the hashes themselves when omitted)
 */
export function bankOrder(promptHashes: readonly string[], keys: readonly string[] = promptHashes): number[] {
  const lowest = new Map<string, string>();
  keys.forEach((key, i) => {
    const h = promptHashes[i]!;
    const seen = lowest.get(key);
    if (seen === undefined || h < seen) lowest.set(key, h);
  });
  const groupHash = keys.map((key) => lowest.get(key)!);
  const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
  return promptHashes
    .map((_, i) => i)
    .sort((a, b) => cmp(groupHash[a]!, groupHash[b]!) || cmp(promptHashes[a]!, promptHashes[b]!) || a - b);
}

/**
 * The public/private cut of a bank (SPEC 6.1; probe36 A-F5): how many tasks, from ordinal 0, are public.
 * The one rule: the group boundary nearest `target` (`round(n * public_fraction)`, {@link publicCount}),
 * the lower on a tie. Identical (or `norm`-equal, {@link promptSamenessKeys}) prompts are
 * adjacent in the bank order ({@link bankOrder}) and are indistinguishable tasks: a group cut in two had a public copy whose credit (a run's `score_public`,
 * `per_task`) was its private twin's, read off while open. So every group lies whole on one side. A
 * boundary is 0, n, or an ordinal whose key differs from the one before; 0 and n count as any other
 * (no minimum or maximum applies: `round` already makes 3 rows at 0.1 all private), so a bank of one
 * prompt is all private or all public. Computed from prompts only: no label moves the cut.
 * @param keysInBankOrder {@link promptSamenessKeys} per ordinal ({@link bankOrder}'s order): equal
 *   adjacent keys are one group
 * @param target the public tasks `public_fraction` asks for, 0..n ({@link publicCount})
 * @returns the public tasks, 0..n: `target` itself when no group spans it
 */
export function splitCut(keysInBankOrder: readonly string[], target: number): number {
  const h = keysInBankOrder;
  const n = h.length;
  const boundary = (i: number): boolean => i <= 0 || i >= n || h[i - 1] !== h[i];
  if (boundary(target)) return target;
  let lo = target;
  while (!boundary(lo)) lo--;
  let hi = target;
  while (!boundary(hi)) hi++;
  return target - lo <= hi - target ? lo : hi;
}

/**
 * The rows of a test set that render an identical prompt, or one equal to it after `norm`
 * ({@link promptSamenessKeys}), in the publish answer, for its author only.
 */
export interface DuplicatePrompts {
  /** Groups of two or more rows rendering the identical (or an equivalent) prompt. */
  groups: number;
  /** The rows in those groups. */
  rows: number;
  /**
   * Row indexes (upload order, 0-based) of the first {@link DUPLICATE_EXAMPLES} groups (by their lowest row
   * index), at most {@link DUPLICATE_EXAMPLES} of each.
   */
  examples: number[][];
  /** `round(n * public_fraction)` ({@link publicCount}); the test set's `public_count` is {@link splitCut}'s. */
  rounded_public_count: number;
  /** What it means, in a sentence (and, when the cut moved, from what to what). */
  message: string;
}

/** How many groups, and rows of each, {@link DuplicatePrompts.examples} names. */
export const DUPLICATE_EXAMPLES = 5;

/**
 * The groups of identical (or equivalent, {@link promptSamenessKeys}) prompts of a bank, for the publish
 * answer (probe36 A-F5, V-F9): such prompts are indistinguishable tasks, which {@link splitCut} keeps on one side of the split; the author learns how
 * many there are and where, so a template that drops a distinguishing field is seen at publish.
 * @param order {@link bankOrder} of the rows
 * @param keys {@link promptSamenessKeys} per row, in upload order
 * @param target `round(n * public_fraction)`
 * @param cut {@link splitCut}'s public tasks
 */
export function duplicatePrompts(
  order: readonly number[],
  keys: readonly string[],
  target: number,
  cut: number,
): DuplicatePrompts {
  const groups: number[][] = [];
  for (let i = 0; i < order.length; ) {
    let j = i + 1;
    while (j < order.length && keys[order[j]!] === keys[order[i]!]) j++;
    // a group's equivalent prompts are in prompt_hash order (bankOrder): its row indexes, ascending
    if (j - i > 1) groups.push(order.slice(i, j).sort((a, b) => a - b));
    i = j;
  }
  const rows = groups.reduce((sum, g) => sum + g.length, 0);
  const examples = groups
    .sort((a, b) => a[0]! - b[0]!)
    .slice(0, DUPLICATE_EXAMPLES)
    .map((g) => g.slice(0, DUPLICATE_EXAMPLES));
  const moved =
    cut === target
      ? ""
      : `; round(n * public_fraction) is ${target} public tasks, which would have split a group, so the cut is ${cut}, the nearest group boundary`;
  const named =
    examples.map((g) => `[${g.join(", ")}]`).join(", ") + (groups.length > examples.length ? ", ..." : "");
  const message =
    groups.length === 0
      ? "no two rows render the same prompt"
      : `${groups.length} group${groups.length === 1 ? "" : "s"} of rows render an identical prompt, or one equal to it after SPEC 5's norm (Unicode NFKC, white space, letter case) (${rows} rows; row indexes ${named}): ` +
        `such prompts are indistinguishable tasks, so each group is kept whole on one side of the public/private split${moved}. ` +
        "A template rendering every field that tells the rows apart avoids them.";
  return { groups: groups.length, rows, examples, rounded_public_count: target, message };
}

/**
 * The label-free digest of a bank: `keccak256(canonical_json([prompt_hash, ...]))` over the prompt
 * hashes in bank order (0x hex). Identical prompts give the identical digest; it reveals nothing a run
 * does not serve (SPEC 6.1).
 */
export function bankDigest(promptHashesInBankOrder: readonly string[]): Hex {
  return canonicalHash([...promptHashesInBankOrder]);
}

/**
 * The UTF-8 bytes of every prompt `config.prompt_template` renders from `rows`, measured without
 * rendering any (`templateSizer`): a lower bound of the test set's bytes in the pack and in the store.
 * Refuses, before anything is rendered, what rendering would only refuse after building it (probeD3
 * F6): a missing placeholder, a prompt over the verifier's `maxStringLength`, prompts that with each
 * row's least other bytes (`testSetMinBytes`) pass `maxTestSetBytes`. So a publish renders at most `maxTestSetBytes` of prompts, whatever the template
 * repeats.
 * @throws PlatformError `invalid_template`; `missing_placeholder` (the lowest row); `invalid_dataset`
 *   naming the lowest row and `field: "prompt"` (`details.errors[].code` `string_too_long`), or the whole
 *   test set (`details: {field: "test set", code: "test_set_too_large", limit: "maxTestSetBytes", max,
 *   prompt_bytes, least_row_bytes}`, no row)
 */
export function promptBytesOf(rows: DatasetRow[], config: BenchmarkConfig): number {
  const sizeOf = templateSizer(parseTemplate(config.prompt_template));
  const missing: RowIssue[] = [];
  const tooLong: RowIssue[] = [];
  let bytes = 0;
  rows.forEach((row, i) => {
    const s = sizeOf(row);
    if ("missing" in s) {
      missing.push({
        row_index: i,
        field: s.missing,
        code: "missing_placeholder",
        message: `placeholder {${s.missing}} is not in this row`,
      });
      return;
    }
    const p = stringLengthProblem(s.chars, "prompt");
    if (p !== null) tooLong.push({ row_index: i, field: p.path, code: p.code, message: p.message });
    bytes += s.bytes;
  });
  throwRowIssues("missing_placeholder", missing, "prompt_template");
  throwRowIssues("invalid_dataset", tooLong, "test set");
  // each row's least bytes besides its prompt count too (probe17 A-F3: a test set refused only once
  // rendered, 27 s later)
  const least = testSetMinBytes(rows.length, config.grader_type);
  if (bytes + least > PACK_LIMITS.maxTestSetBytes)
    throw testSetTooLarge(
      `its prompts take ${bytes} bytes and its ${rows.length} rows at least ${least} more, over the limit of ${PACK_LIMITS.maxTestSetBytes} bytes of test set ` +
        `(half the ${PACK_LIMITS.maxPackBytes}-byte pack a verifier reads): use fewer rows or a template that repeats less`,
      { prompt_bytes: bytes, least_row_bytes: least },
    );
  return bytes;
}

/** The refusal of a whole test set over `maxTestSetBytes` (it names no row). */
function testSetTooLarge(message: string, figures: Record<string, number>): PlatformError {
  return new PlatformError("invalid_dataset", `test set: ${message}`, {
    field: "test set",
    code: "test_set_too_large",
    limit: "maxTestSetBytes",
    max: PACK_LIMITS.maxTestSetBytes,
    ...figures,
  });
}

/**
 * Renders prompts, shapes gold, sorts by prompt hash ({@link bankOrder}), splits ({@link splitCut}: no
 * group of identical prompts on both sides) and salts: the pure
 * part of publishing. The prompts are sized first ({@link promptBytesOf}) and rendered only within the
 * limits.
 * @param salts salt per ordinal
 * @throws PlatformError as {@link promptBytesOf}; `invalid_label` / `invalid_gold` naming the lowest
 *   row (an `alternatives_field` no row has: every row, {@link alternativesIssues}); `invalid_dataset` for a test set beyond evidence's `PACK_LIMITS` (a row and field, or the
 *   whole test set as {@link promptBytesOf}); `invalid_option` naming `public_tasks_per_run` above the
 *   public tasks (`round(n * public_fraction)`, or the {@link splitCut} it moved to)
 */
export function planTestSet(
  rows: DatasetRow[],
  config: BenchmarkConfig,
  salts: (ordinal: number) => string,
): PlannedTestSet {
  const rounded = publicCount(rows.length, config.public_fraction);
  refuseMorePublicPerRun(config, rounded, rows.length, rounded); // before anything is rendered
  promptBytesOf(rows, config);
  const parts = parseTemplate(config.prompt_template);
  // every placeholder was found by promptBytesOf
  const prompts = rows.map((row) => renderTemplate(parts, row) as string);
  const golds: JsonObject[] = [];
  const goldIssues: RowIssue[] = [];
  rows.forEach((row, i) => {
    const g = shapeGold(config.grader_type as GraderType, row, i, {
      gold_field: config.gold_field,
      ...(config.tolerance !== null ? { tolerance: config.tolerance } : {}),
      ...(config.alternatives_field !== null ? { alternatives_field: config.alternatives_field } : {}),
    });
    if ("issue" in g) goldIssues.push(g.issue);
    else golds.push(g.gold);
  });
  for (const issue of alternativesIssues(rows, config.alternatives_field ?? undefined))
    goldIssues.push(issue);
  if (goldIssues.length > 0) {
    const code =
      goldIssues.sort((a, b) => a.row_index - b.row_index)[0]!.code === "invalid_gold"
        ? "invalid_gold"
        : "invalid_label";
    throwRowIssues(code, goldIssues, "gold");
  }
  // the template and the rows were checked well-formed: every prompt has a UTF-8 encoding
  const promptHashes = prompts.map((prompt) => promptHash(prompt));
  const keys = promptSamenessKeys(prompts, promptHashes);
  const order = bankOrder(promptHashes, keys);
  const nPublic = splitCut(
    order.map((i) => keys[i]!),
    rounded,
  );
  refuseMorePublicPerRun(config, nPublic, rows.length, rounded);
  const testSet = order.map((rowIndex, ordinal) => ({
    ordinal,
    prompt: prompts[rowIndex]!,
    gold: golds[rowIndex]!,
    salt: salts(ordinal),
    visibility: (ordinal < nPublic ? "public" : "private") as "public" | "private",
    grader_type: config.grader_type,
    row_index: rowIndex,
  }));
  const beyond = testSetLimitProblems(testSet); // the pack a verifier reads (evidence's PACK_LIMITS)
  const whole = beyond.find((p) => p.ordinal === null);
  if (whole !== undefined)
    throw new PlatformError("invalid_dataset", `test set: ${whole.message}`, {
      field: "test set",
      code: whole.code,
      limit: whole.limit,
      max: PACK_LIMITS[whole.limit],
    });
  throwRowIssues(
    "invalid_dataset",
    beyond.map((p) => ({
      row_index: testSet[p.ordinal!]!.row_index,
      field: p.path,
      code: p.code,
      message: p.message,
    })),
    "test set",
  );
  const c = commitTestSet(testSet.map(({ row_index: _r, ...row }) => row));
  return {
    rows: testSet,
    public_count: nPublic,
    root: c.root,
    leaf_count: c.leafCount,
    bank_digest: bankDigest(order.map((i) => promptHashes[i]!)),
    duplicate_prompts: duplicatePrompts(order, keys, rounded, nPublic),
  };
}

/**
 * `public_tasks_per_run` may not exceed the public tasks there are (probe32 A-F5: 3 of 2 was published,
 * and the detail told competitors of 3 public tasks per run that no run could have).
 * @param nPublic the benchmark's public tasks ({@link splitCut}; before the rows are rendered, {@link publicCount} of the rows)
 * @param rounded {@link publicCount} of the rows (differs from `nPublic` when the cut moved off a group of identical prompts)
 * @throws PlatformError `invalid_option` naming `public_tasks_per_run`
 */
function refuseMorePublicPerRun(
  config: BenchmarkConfig,
  nPublic: number,
  rowCount: number,
  rounded: number,
): void {
  const perRun = config.public_tasks_per_run;
  if (perRun === null || perRun <= nPublic) return;
  const moved =
    nPublic === rounded
      ? ""
      : `, ${rounded} moved to ${nPublic} so that no group of identical prompts is split`;
  throw new PlatformError(
    "invalid_option",
    `public_tasks_per_run is ${perRun} but the benchmark has ${nPublic} public task${nPublic === 1 ? "" : "s"} (public_fraction ${config.public_fraction} of ${rowCount} rows${moved}): give at most ${nPublic}, or leave it out to serve every public task`,
    { field: "public_tasks_per_run", public_tasks: nPublic },
  );
}

/**
 * The benchmark's per-answer allowance (the pack budget, `pack-budget.ts`), from public figures only
 * (the pack limit, the title, the run's task count: SPEC 6.1). A benchmark whose award pack could not
 * fit the verifier's limit with every winner answering at {@link MIN_ANSWER_BYTES} is refused, as is a
 * test set over the budget's reserve for it (only under a test's lowered pack limit: at the real one the
 * reserve is evidence's `maxTestSetBytes`, checked before). Both refusals go to the author only.
 * @param testSetBytes the test set's bytes in the pack (`testSetPackBytes(plan.rows)`, given when known)
 * @throws PlatformError `invalid_dataset` (`details.limit: "maxPackBytes"` and the budget's figures)
 */
export function awardableAllowance(
  ctx: PlatformContext,
  plan: { rows: TestSetRow[]; public_count: number; leaf_count: number },
  title: string,
  config: BenchmarkConfig,
  testSetBytes = testSetPackBytes(plan.rows),
): number {
  const budget = answerBudget({
    maxPackBytes: packByteLimit(ctx),
    titleBytes: titlePackBytes(title),
    runTasks: runTaskCount(
      config.public_tasks_per_run,
      plan.public_count,
      plan.leaf_count - plan.public_count,
    ),
  });
  if (budget.maxAnswerBytes < MIN_ANSWER_BYTES || testSetBytes > budget.testSetBytes)
    throw new PlatformError(
      "invalid_dataset",
      `the award's evidence pack could not fit the ${budget.maxPackBytes} bytes (PACK_LIMITS.maxPackBytes) a verifier reads: ` +
        `with ${budget.testSetBytes} bytes set aside for the test set (it takes ${testSetBytes}) and ${MAX_PLACES} winners' receipts of ${budget.runTasks} tasks ${budget.winnersBytes}, ` +
        `${budget.maxAnswerBytes} bytes are left per answer (at least ${MIN_ANSWER_BYTES} needed): use fewer or shorter rows, or set public_tasks_per_run`,
      {
        field: "test set",
        limit: "maxPackBytes",
        max_pack_bytes: budget.maxPackBytes,
        test_set_bytes: testSetBytes,
        test_set_reserve_bytes: budget.testSetBytes,
        fixed_bytes: budget.fixedBytes,
        rows_bytes: budget.rowsBytes,
        winners_bytes: budget.winnersBytes,
        run_tasks: budget.runTasks,
        places: MAX_PLACES,
        max_answer_bytes: budget.maxAnswerBytes,
        min_answer_bytes: MIN_ANSWER_BYTES,
      },
    );
  return storedAnswersAllowance(budget.maxAnswerBytes, budget.runTasks, config.max_attempts);
}

/**
 * Refuses, before anything is planned, a benchmark of `rowCount` rows whose award pack could not fit
 * whatever its prompts and gold ({@link awardableAllowance} with the least test set those rows make,
 * `testSetMinBytes`): the rows' count alone decides it (probe17 A-F3: a publish planned 27 s of rows,
 * then was refused `maxPackBytes`). It counts `round(n * public_fraction)` public tasks, before the
 * prompts exist to move the cut ({@link splitCut}); the plan's own count is checked again after.
 * @throws PlatformError as {@link awardableAllowance}
 */
export function assertPackCanFit(
  ctx: PlatformContext,
  rowCount: number,
  title: string,
  config: BenchmarkConfig,
): void {
  const counts = {
    rows: [],
    leaf_count: rowCount,
    public_count: publicCount(rowCount, config.public_fraction),
  };
  awardableAllowance(ctx, counts, title, config, testSetMinBytes(rowCount, config.grader_type));
}

/**
 * The pack's per-answer allowance lowered so one agent's stored answers on the benchmark, `max_attempts`
 * runs of `runTasks` answers, fit {@link ANSWER_BYTES_PER_AGENT} (probeD1 F20). Public figures only.
 * @param packAllowance the pack budget's allowance (canonical-JSON bytes)
 * @returns the allowance in canonical-JSON bytes, at least {@link MIN_ANSWER_BYTES}
 * @throws PlatformError `invalid_option` naming `max_attempts` (`details.limit: "answer_bytes_per_agent"`)
 *   when the allowance would fall under {@link MIN_ANSWER_BYTES}
 */
export function storedAnswersAllowance(packAllowance: number, runTasks: number, maxAttempts: number): number {
  const answers = maxAttempts * Math.max(1, runTasks);
  const share = Math.floor(ANSWER_BYTES_PER_AGENT / answers);
  if (share < MIN_ANSWER_BYTES)
    throw new PlatformError(
      "invalid_option",
      `max_attempts: ${maxAttempts} runs of ${runTasks} tasks leave ${share} bytes per answer of the ${ANSWER_BYTES_PER_AGENT} bytes of answers one agent may keep stored on a benchmark ` +
        `(at least ${MIN_ANSWER_BYTES} needed): lower max_attempts to ${Math.floor(ANSWER_BYTES_PER_AGENT / (MIN_ANSWER_BYTES * Math.max(1, runTasks)))} or fewer, or set public_tasks_per_run`,
      {
        field: "max_attempts",
        limit: "answer_bytes_per_agent",
        answer_bytes_per_agent: ANSWER_BYTES_PER_AGENT,
        max_attempts: maxAttempts,
        run_tasks: runTasks,
        max_answer_bytes: share,
        min_answer_bytes: MIN_ANSWER_BYTES,
      },
    );
  return Math.min(packAllowance, share);
}

export const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
