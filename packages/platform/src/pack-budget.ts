/**
 * The pack budget: the one rule that keeps every benchmark that publishes awardable (issue 13, re-probe
 * of item 8; SPEC 8).
 *
 * An award evidence pack must stay within `PACK_LIMITS.maxPackBytes` (512 MiB) or the default verifier
 * cannot read it, and `award` refuses to send it (`pack_too_large`): nobody is paid. The author decides
 * the test set (bounded at publish by `maxTestSetBytes`); competitors decide the rest: every winner's
 * answers are revealed verbatim (SPEC 8 `winners[].answers`), and one answer of 100,000 characters of
 * U+3000 or U+2028 (White_Space, which the exact grader trims, so it is still credited) takes 300,002 bytes
 * in canonical JSON, of U+000B (escaped `\u000b`) 600,002.
 * So the bytes of a pack are shared out here, worst case first:
 *
 * - the test set: its most bytes, {@link testSetReserveBytes} (half the pack, evidence's
 *   `maxTestSetBytes`), never its exact bytes: those count the private gold, and the allowance is
 *   served to anyone while the benchmark is open (SPEC 6.1: nothing served but to the author is
 *   computed from private tasks; a re-probe read the private gold's size off `max_answer_bytes`, which
 *   moved by 1 for every 8 x tasks bytes of gold). Publish refuses a test set over the reserve;
 * - a fixed allowance: the benchmark block (its title's canonical bytes on top), the grader texts,
 *   verify hints, the rank derivation's fixed fields, `pack_hash` and `pack_anchor`;
 * - the ranked rows: one eighth of the pack ({@link rowsBudgetBytes}); the rows carry their receipts
 *   only while every row fits in it ({@link rowReceiptsFit}), otherwise none does (SPEC 8 makes a
 *   row's receipt optional; the verifier then checks those rows' hashes on chain only);
 * - the winners, at most {@link MAX_PLACES} (SPEC 1.1): each a receipt and one revealed answer per task
 *   of its run, all at their widest;
 * - what is left, shared out evenly, is each answer's allowance: `max_answer_bytes`, counted as the
 *   answer's bytes in canonical JSON ({@link answerPackBytes}: UTF-8, an escaped character such as
 *   U+000B, escaped `\u000b`, counts its 6 bytes; U+2028 its 3), never in characters.
 *
 * Publish refuses a benchmark whose allowance would be under {@link MIN_ANSWER_BYTES} (naming the limit
 * and the numbers), submit refuses an answer over it, the detail serves it, and `award` measures the
 * real pack against the same {@link packByteLimit}.
 * @packageDocumentation
 */
import { PACK_LIMITS, canonicalJson } from "@bench-bounty/evidence";
import type { PlatformContext } from "./context.js";

/** Most places a bounty pays (SPEC 1.1: `splitsBps` has 1..8 entries). */
export const MAX_PLACES = 8;

/** Longest accepted answer, in UTF-16 code units (a bound on what a submit reads, whatever its bytes). */
export const MAX_ANSWER_LENGTH = 100_000;

/**
 * Most bytes of answers one agent may keep stored on one benchmark (probeD1 F20: 1,000 attempts of 40
 * answers of 300 KB each were all kept): publish lowers `max_answer_bytes` until `max_attempts x run
 * tasks x max_answer_bytes` fits (a stored answer's UTF-8 bytes never exceed its canonical-JSON bytes),
 * and refuses a benchmark whose allowance would then fall under {@link MIN_ANSWER_BYTES}. One account
 * stores at most `--agents-per-benchmark` (3) times this on a benchmark.
 */
export const ANSWER_BYTES_PER_AGENT = 128 * 1024 * 1024;

/** Smallest per-answer allowance a benchmark may publish with, in canonical-JSON bytes. */
export const MIN_ANSWER_BYTES = 1024;

/**
 * Bytes set aside for the pack's fixed parts, its title excluded: the benchmark block (slug, root,
 * addresses, anchors, grader texts), `verify_hints`, the rank derivation's fixed fields, `pack_hash`,
 * `pack_anchor` and the object's punctuation. The evidence library's texts take under 8 KiB; the rest
 * is slack for a `receipt_url` base longer than any sane one.
 */
export const FIXED_PACK_BYTES = 64 * 1024;

/**
 * Bytes of one winner entry and its receipt apart from their per-task arrays: place, agent id (64
 * ASCII characters at most), withdrawal address, amount (78 digits), run id, receipt hash, salt, and
 * the receipt's own fields (slug of 128 characters, times, decimals of up to 100 characters each).
 */
export const WINNER_FIXED_BYTES = 4 * 1024;

/**
 * Bytes of one rank-derivation row without its receipt (the SPEC 8 row fields at their widest, a
 * `receipt_url` of up to 1 KiB included).
 */
export const ROW_FIXED_BYTES = 2 * 1024;

const MAX_ORDINAL = PACK_LIMITS.maxLeafCount;
const WIDEST_HASH = `0x${"f".repeat(64)}`;
const WIDEST_COUNT = "9".repeat(16); // a json_fields credit "k/n": n fields, each side a safe integer

/** Bytes of one receipt task entry at its widest, its separating comma included. */
export const RECEIPT_TASK_BYTES =
  canonicalJson({
    answer_digest: WIDEST_HASH,
    bank_ordinal: MAX_ORDINAL,
    credit: `${WIDEST_COUNT}/${WIDEST_COUNT}`,
    ordinal: MAX_ORDINAL,
    prompt_hash: WIDEST_HASH,
    visibility: "private",
  }).byteLength + 1;

/** Bytes of one revealed answer entry with an empty answer text, its separating comma included. */
export const ANSWER_ENTRY_BYTES =
  canonicalJson({ answer_text: "", bank_ordinal: MAX_ORDINAL, ordinal: MAX_ORDINAL }).byteLength + 1;

/**
 * Bytes an answer takes inside a pack's canonical JSON, its quotes excluded: UTF-8, with the escapes
 * canonical JSON writes (`\"`, `\\`, `\n`, `\u000b`, `\u0000`, ...) counted as written.
 */
export function answerPackBytes(answerText: string): number {
  return canonicalJson(answerText).byteLength - 2;
}

/** The pack size limit in force: `PACK_LIMITS.maxPackBytes`, or a test's lower one (`faults.maxPackBytes`). */
export function packByteLimit(ctx: Pick<PlatformContext, "faults">): number {
  return ctx.faults.maxPackBytes ?? PACK_LIMITS.maxPackBytes;
}

/** The rows' share of a pack: one eighth of its limit. */
export function rowsBudgetBytes(maxPackBytes: number): number {
  return Math.floor(maxPackBytes / 8);
}

/** Widest receipt of a run of `runTasks` tasks, in canonical-JSON bytes. */
export function receiptBytesBound(runTasks: number): number {
  return WINNER_FIXED_BYTES + runTasks * RECEIPT_TASK_BYTES;
}

/**
 * Whether the ranked rows carry their receipts in the pack: yes when every row with its receipt at its
 * widest fits in {@link rowsBudgetBytes}, else no row does. A pure function of the runs, so minting stays
 * reproducible (SPEC 8).
 * @param runTaskCounts the task count of each finalized run's receipt (an upper bound of the rows)
 */
export function rowReceiptsFit(maxPackBytes: number, runTaskCounts: readonly number[]): boolean {
  let bytes = 0;
  for (const n of runTaskCounts) bytes += ROW_FIXED_BYTES + receiptBytesBound(n);
  return bytes <= rowsBudgetBytes(maxPackBytes);
}

/** Most ranked rows (agents) whose receipt-less rows fit in {@link rowsBudgetBytes}. */
export function maxRankedRows(maxPackBytes: number): number {
  return Math.floor(rowsBudgetBytes(maxPackBytes) / ROW_FIXED_BYTES);
}

/**
 * Bytes the pack budget sets aside for the `test_set` block: `PACK_LIMITS.maxTestSetBytes` scaled to
 * the pack limit in force (half of it; 256 MiB under the real 512 MiB). A function of the limit only,
 * never of the test set, so the allowance derived from it is the same for any two benchmarks of the
 * same title length and run size whatever their private gold (SPEC 6.1).
 */
export function testSetReserveBytes(maxPackBytes: number): number {
  return Math.floor((maxPackBytes * PACK_LIMITS.maxTestSetBytes) / PACK_LIMITS.maxPackBytes);
}

/**
 * What {@link answerBudget} shares out, in bytes: public figures only (the limit, the title, the
 * counts), so the allowance it derives may be served to anyone (SPEC 6.1).
 */
export interface AnswerBudgetInput {
  /** The pack limit in force ({@link packByteLimit}). */
  maxPackBytes: number;
  /** Canonical bytes of the benchmark's title (as a JSON string). */
  titleBytes: number;
  /** Most tasks of one run: every private task plus `public_tasks_per_run` (or every public task). */
  runTasks: number;
}

/** The outcome of {@link answerBudget}: the allowance and the figures it came from (all bytes). */
export interface AnswerBudget extends AnswerBudgetInput {
  /** Bytes set aside for the test set ({@link testSetReserveBytes}); the real test set must not exceed it. */
  testSetBytes: number;
  /** Bytes of the fixed parts, the title included. */
  fixedBytes: number;
  /** The rows' share. */
  rowsBytes: number;
  /** The winners' receipts and answer entries without their texts, {@link MAX_PLACES} winners. */
  winnersBytes: number;
  /** Each revealed answer's allowance (canonical-JSON bytes, quotes excluded); may be under {@link MIN_ANSWER_BYTES}. */
  maxAnswerBytes: number;
}

/**
 * Each answer's allowance: what is left of the pack once the test set's reserve, the fixed parts, the rows' share
 * and {@link MAX_PLACES} winners' receipts and answer entries are counted, shared out over
 * `MAX_PLACES x runTasks` answers, and never more than {@link MAX_ANSWER_LENGTH} characters can take
 * (6 bytes each). A pack of winners all answering at the allowance stays within `maxPackBytes` when its
 * test set is within {@link testSetReserveBytes} (publish checks it).
 */
export function answerBudget(input: AnswerBudgetInput): AnswerBudget {
  const testSetBytes = testSetReserveBytes(input.maxPackBytes);
  const fixedBytes = FIXED_PACK_BYTES + input.titleBytes;
  const rowsBytes = rowsBudgetBytes(input.maxPackBytes);
  const perWinner = receiptBytesBound(input.runTasks) + input.runTasks * ANSWER_ENTRY_BYTES;
  const winnersBytes = MAX_PLACES * perWinner;
  const left = input.maxPackBytes - testSetBytes - fixedBytes - rowsBytes - winnersBytes;
  const answers = MAX_PLACES * Math.max(1, input.runTasks);
  const share = left > 0 ? Math.floor(left / answers) : 0;
  return {
    ...input,
    testSetBytes,
    fixedBytes,
    rowsBytes,
    winnersBytes,
    maxAnswerBytes: Math.min(6 * MAX_ANSWER_LENGTH, share),
  };
}

/**
 * Most tasks of one run (SPEC 3): every private task plus `public_tasks_per_run` of the public ones
 * (all of them when it is null). Public figures only.
 */
export function runTaskCount(
  publicTasksPerRun: number | null,
  publicCount: number,
  privateCount: number,
): number {
  return privateCount + (publicTasksPerRun === null ? publicCount : Math.min(publicTasksPerRun, publicCount));
}

/** Canonical bytes of a `test_set` block (SPEC 3 rows, as a pack holds them). */
export function testSetPackBytes(
  rows: readonly {
    ordinal: number;
    prompt: string;
    gold: unknown;
    salt: string;
    visibility: string;
    grader_type: string;
  }[],
): number {
  let bytes = 2;
  for (const { ordinal, prompt, gold, salt, visibility, grader_type } of rows)
    bytes += canonicalJson({ ordinal, prompt, gold, salt, visibility, grader_type }).byteLength + 1;
  return bytes;
}

/**
 * A lower bound of {@link testSetPackBytes} for `rowCount` rows of `graderType`, known before any
 * prompt is rendered: each row at least as long as one with an empty prompt, an empty gold object and
 * an empty salt at ordinal 0.
 */
export function testSetMinBytes(rowCount: number, graderType: string): number {
  const least = { ordinal: 0, prompt: "", gold: {}, salt: "", visibility: "public", grader_type: graderType };
  return 2 + rowCount * (canonicalJson(least).byteLength + 1);
}

/** Canonical bytes of a title as a JSON string. */
export function titlePackBytes(title: string): number {
  return canonicalJson(title).byteLength;
}
