/**
 * `spec/SPEC.md` section 4: run receipts, answer digests, receipt hashes, and the check of
 * revealed answers against a receipt (bound to the test set by
 * `bank_ordinal` and `prompt_hash`).
 *
 * ```
 * answer_digest = 0x + hex(keccak256(utf8(answer_text) || bytes.fromhex(answer_salt)))   // salt IS hex-decoded
 * receipt_hash  = 0x + hex(keccak256(canonical_json(receipt)))
 * ```
 * @packageDocumentation
 */
import { hexToBytes } from "@noble/hashes/utils";
import { promptHash, type TestSetRow, type Visibility } from "./commitment.js";
import { keccak256Utf8 } from "./keccak.js";
import { EvidenceError, appendPath } from "./errors.js";
import { BARE_HEX64, DIGEST, SCORE4, SECONDS3, USDC6, isIsoMsZ } from "./formats.js";
import { Fraction } from "./fraction.js";
import { canonicalHash, keccak256Hex, type Hex, toBareHex as bytesToHex } from "./hash.js";
import { withCanonicalJson } from "./json/serializer.js";

/** The receipt schema tag (SPEC 4). */
export const RECEIPT_SCHEMA = "bench-bounty.receipt.v1" as const;

/** One task of a receipt (SPEC 4). */
export interface ReceiptTask {
  /** 0-based position of the task in the run */
  ordinal: number;
  /** the test-set row this task is (`test_set[bank_ordinal]`) */
  bank_ordinal: number;
  /** bare hex prompt hash of that row */
  prompt_hash: string;
  visibility: Visibility;
  /** `0x` digest, or null when the task was not answered */
  answer_digest: string | null;
  /** reduced fraction (`"2/3"`) once graded; null while the benchmark is open */
  credit: string | null;
}

/** A run receipt payload (SPEC 4), as anchored and as embedded in the pack. */
export interface Receipt {
  schema: typeof RECEIPT_SCHEMA;
  run_id: string;
  benchmark_slug: string;
  /** `0x` commitment root of the test set */
  commit_root: string;
  agent_id: string;
  /** 1-based attempt number */
  attempt: number;
  /** ISO-8601 UTC `...mmmZ` */
  started_at: string;
  /** ISO-8601 UTC `...mmmZ` */
  finalized_at: string;
  /** seconds, exactly 3 dp */
  wall_seconds: string;
  queries_used: number;
  /** USDC, exactly 6 dp */
  usdc_spent: string;
  /** 4 dp */
  score_public: string;
  /** 4 dp */
  score_composite: string;
  tasks: ReceiptTask[];
}

/** A revealed answer (pack `winners[].answers[]`). */
export interface RevealedAnswer {
  ordinal: number;
  bank_ordinal: number;
  answer_text: string;
}

/** The last valid answer salt and its bytes (a run's answers share one salt). */
let lastSaltHex: string | symbol = Symbol("no salt yet");
let lastSalt: Uint8Array = new Uint8Array(0);

/**
 * `answer_digest = 0x + hex(keccak256(utf8(answer_text) || bytes.fromhex(answer_salt)))` (SPEC 4).
 * @param saltHex the run's answer salt: 64 lowercase hex characters (32 bytes), no prefix
 * @throws EvidenceError `schema` for a malformed salt
 */
export function answerDigest(text: string, saltHex: string): Hex {
  if (saltHex !== lastSaltHex && (typeof saltHex !== "string" || !BARE_HEX64.test(saltHex)))
    throw new EvidenceError(
      "schema",
      "$.answer_salt",
      "answer_salt must be 64 lowercase hex characters (32 bytes, no 0x)",
    );
  if (typeof text !== "string")
    throw new EvidenceError("schema", "$.answer_text", "answer_text must be a string");
  if (saltHex !== lastSaltHex) {
    lastSalt = hexToBytes(saltHex);
    lastSaltHex = saltHex;
  }
  return `0x${bytesToHex(keccak256Utf8(text, lastSalt))}`;
}

/**
 * `receipt_hash = 0x + hex(keccak256(canonical_json(receipt)))` (SPEC 4).
 * Hashes the payload as given (any extra key is hashed too).
 * @throws EvidenceError for values that have no canonical JSON
 */
export function receiptHash(receipt: Receipt | Record<string, unknown>): Hex {
  return canonicalHash(receipt);
}

const utf8Decoder = new TextDecoder();

/**
 * A receipt's canonical JSON text (SPEC 2) and its {@link receiptHash}, from one serialisation (a
 * store keeps the text beside the hash: serialising a 200-task receipt costs as much as hashing it).
 * @throws EvidenceError as {@link receiptHash}
 */
export function receiptTextAndHash(receipt: Receipt | Record<string, unknown>): { text: string; hash: Hex } {
  return withCanonicalJson(receipt, (bytes) => ({
    text: utf8Decoder.decode(bytes),
    hash: keccak256Hex(bytes),
  }));
}

/** One task of a run, as the platform knows it when building the receipt. */
export interface RunTaskInput {
  /** the test-set row (`test_set[bank_ordinal]`) */
  bank_ordinal: number;
  /** bare hex prompt hash of that row */
  prompt_hash: string;
  visibility: Visibility;
  /** the answer text, or null when the task was not answered */
  answer_text: string | null;
  /** the credit once graded (reduced fraction or Fraction), else null/absent */
  credit?: string | Fraction | null;
}

/**
 * Input of {@link buildReceipt}: a finalized run. The receipt's own fields
 * (same formats as {@link Receipt}), plus the answer salt and the run's tasks.
 */
export interface BuildReceiptInput extends Omit<Receipt, "schema" | "tasks"> {
  /** 64 lowercase hex: the run's secret answer salt (revealed in the pack only for winners) */
  answer_salt: string;
  /** the run's tasks in run order (their position becomes `ordinal`) */
  tasks: readonly RunTaskInput[];
}

function need(ok: boolean, path: string, message: string): void {
  if (!ok) throw new EvidenceError("schema", path, message);
}

const nonEmpty = (v: unknown) => typeof v === "string" && v.length > 0;
const matches = (re: RegExp) => (v: unknown) => typeof v === "string" && re.test(v);
const integerFrom = (min: number) => (v: unknown) => Number.isSafeInteger(v) && (v as number) >= min;

/** The receipt's top-level fields, checked in this order: the field, its test, the rule the refusal states. */
const RECEIPT_FIELD_RULES: readonly (readonly [keyof BuildReceiptInput, (v: unknown) => boolean, string])[] =
  [
    ["run_id", nonEmpty, "must be a non-empty string"],
    ["benchmark_slug", nonEmpty, "must be a non-empty string"],
    ["commit_root", matches(DIGEST), "must be 0x + 64 lowercase hex"],
    ["agent_id", nonEmpty, "must be a non-empty string"],
    ["attempt", integerFrom(1), "must be an integer >= 1"],
    ["started_at", isIsoMsZ, "must be ISO-8601 UTC with milliseconds and Z"],
    ["finalized_at", isIsoMsZ, "must be ISO-8601 UTC with milliseconds and Z"],
    ["wall_seconds", matches(SECONDS3), "must have exactly 3 decimal places"],
    ["queries_used", integerFrom(0), "must be a non-negative integer"],
    ["usdc_spent", matches(USDC6), "must have exactly 6 decimal places"],
    ["score_public", matches(SCORE4), "must have exactly 4 decimal places"],
    ["score_composite", matches(SCORE4), "must have exactly 4 decimal places"],
    ["answer_salt", matches(BARE_HEX64), "must be 64 lowercase hex characters"],
  ];

/**
 * Build a receipt payload from a run (SPEC 4): tasks numbered in run order,
 * answers digested with the run's salt, every format rule checked.
 *
 * @returns the receipt payload (hash it with {@link receiptHash})
 * @throws EvidenceError `schema` naming the offending field (e.g. `$.tasks[3].prompt_hash`)
 */
export function buildReceipt(input: BuildReceiptInput): Receipt {
  for (const [field, ok, rule] of RECEIPT_FIELD_RULES)
    need(ok(input[field]), `$.${field}`, `${field} ${rule}`);
  need(Array.isArray(input.tasks), "$.tasks", "tasks must be an array");
  const tasks: ReceiptTask[] = input.tasks.map((t, i) => {
    const p = appendPath("$.tasks", i);
    need(
      Number.isSafeInteger(t.bank_ordinal) && t.bank_ordinal >= 0,
      `${p}.bank_ordinal`,
      "bank_ordinal must be a non-negative integer",
    );
    need(
      typeof t.prompt_hash === "string" && BARE_HEX64.test(t.prompt_hash),
      `${p}.prompt_hash`,
      "prompt_hash must be 64 lowercase hex (no 0x)",
    );
    need(
      t.visibility === "public" || t.visibility === "private",
      `${p}.visibility`,
      'visibility must be "public" or "private"',
    );
    need(
      t.answer_text === null || typeof t.answer_text === "string",
      `${p}.answer_text`,
      "answer_text must be a string or null",
    );
    let credit: string | null = null;
    if (t.credit !== undefined && t.credit !== null) {
      const c = t.credit instanceof Fraction ? t.credit : null;
      if (c) credit = c.toString();
      else {
        need(
          typeof t.credit === "string" && /^(0|[1-9][0-9]*)\/[1-9][0-9]*$/.test(t.credit),
          `${p}.credit`,
          'credit must be a reduced fraction such as "2/3"',
        );
        const m = (t.credit as string).split("/");
        credit = new Fraction(BigInt(m[0] as string), BigInt(m[1] as string)).toString();
        need(credit === t.credit, `${p}.credit`, `credit must be reduced (${credit})`);
      }
    }
    return {
      ordinal: i,
      bank_ordinal: t.bank_ordinal,
      prompt_hash: t.prompt_hash,
      visibility: t.visibility,
      answer_digest: t.answer_text === null ? null : answerDigest(t.answer_text, input.answer_salt),
      credit,
    };
  });
  return {
    schema: RECEIPT_SCHEMA,
    run_id: input.run_id,
    benchmark_slug: input.benchmark_slug,
    commit_root: input.commit_root,
    agent_id: input.agent_id,
    attempt: input.attempt,
    started_at: input.started_at,
    finalized_at: input.finalized_at,
    wall_seconds: input.wall_seconds,
    queries_used: input.queries_used,
    usdc_spent: input.usdc_spent,
    score_public: input.score_public,
    score_composite: input.score_composite,
    tasks,
  };
}

/** The answers to reveal for a receipt (pack `winners[].answers`): answered tasks only, in ordinal order. */
export function revealedAnswers(input: BuildReceiptInput): RevealedAnswer[] {
  const out: RevealedAnswer[] = [];
  input.tasks.forEach((t, i) => {
    if (t.answer_text !== null)
      out.push({ ordinal: i, bank_ordinal: t.bank_ordinal, answer_text: t.answer_text });
  });
  return out;
}

/** One problem found by a check (reported, not thrown: the verifier turns these into facts). */
export interface Problem {
  /** machine-readable reason, e.g. `answer_digest_mismatch` */
  code: string;
  /** JSON path of the offending value, e.g. `$.winners[0].answers[2].answer_text` */
  path: string;
  /** one-line human explanation */
  message: string;
}

/** Result of {@link checkAnswersAgainstReceipt}. */
export interface AnswerCheck {
  /** true when no problem was found */
  ok: boolean;
  problems: Problem[];
  /**
   * Every receipt task in ordinal order with the answer text matched to it
   * (`null` when unanswered or when the answer did not match its digest).
   */
  tasks: { ordinal: number; bank_ordinal: number; visibility: Visibility; answer_text: string | null }[];
}

/** Options of {@link checkReceiptBinding}: what the receipt's tasks are bound to. */
export interface ReceiptBindingOptions {
  /** the revealed test set: binds each task's `bank_ordinal`, `prompt_hash` and `visibility` to it */
  testSet?: readonly Pick<TestSetRow, "prompt" | "visibility">[];
  /** precomputed bare prompt hashes of the test set (faster than `testSet` prompts for big sets) */
  promptHashes?: readonly string[];
  /** the commitment root the receipt must name */
  commitRoot?: string;
  /** path of the receipt in the document (default `$.receipt`) */
  receiptPath?: string;
}

/** Options of {@link checkAnswersAgainstReceipt}. */
export interface AnswerCheckOptions extends ReceiptBindingOptions {
  /** path of the answers array (default `$.answers`) */
  answersPath?: string;
}

/** Result of {@link checkReceiptBinding}. */
export interface ReceiptBindingCheck {
  /** true when no problem was found */
  ok: boolean;
  /** codes: `bad_receipt`, `commit_root_mismatch`, `task_ordinal`, `bank_ordinal_out_of_range`, `prompt_hash_mismatch`, `visibility_mismatch` */
  problems: Problem[];
}

/**
 * Check that a receipt is bound to the committed test set (SPEC 4, SPEC 9
 * step 2) without its answers, as for a non-winner receipt whose answers stay
 * private: tasks in ordinal order `0..n-1`; with a test set (or its prompt
 * hashes), every task names an existing row (`bank_ordinal`) with the same
 * `prompt_hash` and, with `testSet`, the same `visibility`; with a root,
 * `receipt.commit_root` equals it. Answer digests are not checked (that needs
 * the answers and the salt: {@link checkAnswersAgainstReceipt} does both).
 *
 * Never throws on bad data: every mismatch is a {@link Problem} with a path.
 */
export function checkReceiptBinding(
  receipt: Receipt,
  options: ReceiptBindingOptions = {},
): ReceiptBindingCheck {
  const problems: Problem[] = [];
  bindReceipt(receipt, options, problems);
  return { ok: problems.length === 0, problems };
}

/** The binding checks shared by {@link checkReceiptBinding} and {@link checkAnswersAgainstReceipt}. */
function bindReceipt(receipt: Receipt, options: ReceiptBindingOptions, problems: Problem[]): void {
  const rp = options.receiptPath ?? "$.receipt";
  const add = (code: string, path: string, message: string): void => {
    problems.push({ code, path, message });
  };
  const tasks = Array.isArray(receipt?.tasks) ? receipt.tasks : [];
  if (!Array.isArray(receipt?.tasks)) add("bad_receipt", `${rp}.tasks`, "receipt has no tasks array");
  if (options.commitRoot !== undefined && receipt?.commit_root !== options.commitRoot)
    add(
      "commit_root_mismatch",
      `${rp}.commit_root`,
      `receipt names root ${String(receipt?.commit_root)}, expected ${options.commitRoot}`,
    );

  const rowCount = options.promptHashes?.length ?? options.testSet?.length;
  const hashOf = (i: number): string | undefined => {
    if (options.promptHashes) return options.promptHashes[i];
    const row = options.testSet?.[i];
    return row === undefined ? undefined : promptHash(row.prompt);
  };
  const tasksPath = `${rp}.tasks`;
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i] as ReceiptTask;
    // paths are built only for a problem (a pack has 100,000s of tasks)
    if (t.ordinal !== i)
      add(
        "task_ordinal",
        `${appendPath(tasksPath, i)}.ordinal`,
        `task at position ${i} has ordinal ${String(t.ordinal)} (ordinals must be 0..n-1 in order)`,
      );
    if (rowCount === undefined) continue;
    if (!Number.isSafeInteger(t.bank_ordinal) || t.bank_ordinal < 0 || t.bank_ordinal >= rowCount) {
      add(
        "bank_ordinal_out_of_range",
        `${appendPath(tasksPath, i)}.bank_ordinal`,
        `bank_ordinal ${String(t.bank_ordinal)} is not a row of the test set (0..${rowCount - 1})`,
      );
      continue;
    }
    if (hashOf(t.bank_ordinal) !== t.prompt_hash)
      add(
        "prompt_hash_mismatch",
        `${appendPath(tasksPath, i)}.prompt_hash`,
        `prompt_hash does not match test_set[${t.bank_ordinal}]`,
      );
    const vis = options.testSet?.[t.bank_ordinal]?.visibility;
    if (vis !== undefined && vis !== t.visibility)
      add(
        "visibility_mismatch",
        `${appendPath(tasksPath, i)}.visibility`,
        `visibility ${String(t.visibility)} but test_set[${t.bank_ordinal}] is ${vis}`,
      );
  }
}

/**
 * Check revealed answers against a receipt (SPEC 4), matching by `ordinal`:
 * every answer's digest (text + hex-decoded salt) must equal its task's
 * `answer_digest`, its `bank_ordinal` must equal the task's, every answered
 * task must have exactly one answer and an unanswered one none; with a test
 * set, every task must name an existing row with the same `prompt_hash` and
 * `visibility`; with a root, `receipt.commit_root` must equal it (the checks
 * of {@link checkReceiptBinding}).
 *
 * Never throws on bad data: every mismatch is a {@link Problem} with a path.
 */
export function checkAnswersAgainstReceipt(
  receipt: Receipt,
  answers: readonly RevealedAnswer[],
  answerSalt: string,
  options: AnswerCheckOptions = {},
): AnswerCheck {
  const { problems, texts } = matchAnswers(receipt, answers, answerSalt, options);
  const tasks = Array.isArray(receipt?.tasks) ? receipt.tasks : [];
  const out: AnswerCheck["tasks"] = new Array(tasks.length);
  for (let i = 0; i < tasks.length; i++) {
    const t = tasks[i] as ReceiptTask;
    out[i] = {
      ordinal: i,
      bank_ordinal: t.bank_ordinal,
      visibility: t.visibility,
      answer_text: texts[i] ?? null,
    };
  }
  return { ok: problems.length === 0, problems, tasks: out };
}

/**
 * The checks of {@link checkAnswersAgainstReceipt}, returning each task's matched answer text
 * by position (`null` when unanswered or unmatched) instead of a task object per task.
 * @internal shared with `regradeRun`
 */
export function matchAnswers(
  receipt: Receipt,
  answers: readonly RevealedAnswer[],
  answerSalt: string,
  options: AnswerCheckOptions = {},
): { problems: Problem[]; texts: (string | null)[] } {
  const rp = options.receiptPath ?? "$.receipt";
  const ap = options.answersPath ?? "$.answers";
  const problems: Problem[] = [];
  const add = (code: string, path: string, message: string): void => {
    problems.push({ code, path, message });
  };
  const saltOk = typeof answerSalt === "string" && BARE_HEX64.test(answerSalt);
  if (!saltOk) add("bad_answer_salt", "$.answer_salt", "answer_salt must be 64 lowercase hex characters");
  bindReceipt(receipt, options, problems);
  const tasks = Array.isArray(receipt?.tasks) ? receipt.tasks : [];
  const texts = new Array<string | null>(tasks.length).fill(null);

  // answered task ordinals (one byte per task: no Set of 100,000s of numbers)
  const seen = new Uint8Array(tasks.length);
  // the answer's path is built only for a problem (a pack has 100,000s of answers)
  const path = (j: number, suffix = ""): string => `${appendPath(ap, j)}${suffix}`;
  (Array.isArray(answers) ? answers : []).forEach((a, j) => {
    const task = Number.isSafeInteger(a?.ordinal) ? tasks[a.ordinal] : undefined;
    if (task === undefined) {
      add("answer_without_task", path(j, ".ordinal"), `no receipt task has ordinal ${String(a?.ordinal)}`);
      return;
    }
    if (seen[a.ordinal] === 1) {
      add("duplicate_answer", path(j, ".ordinal"), `a second answer for ordinal ${a.ordinal}`);
      return;
    }
    seen[a.ordinal] = 1;
    if (a.bank_ordinal !== task.bank_ordinal)
      add(
        "bank_ordinal_mismatch",
        path(j, ".bank_ordinal"),
        `answer says bank_ordinal ${String(a.bank_ordinal)}, receipt task ${a.ordinal} says ${task.bank_ordinal}`,
      );
    if (task.answer_digest === null) {
      add(
        "answer_for_unanswered_task",
        path(j),
        `receipt task ${a.ordinal} has no answer_digest (unanswered) but an answer is revealed`,
      );
      return;
    }
    if (typeof a.answer_text !== "string") {
      add("bad_answer", path(j, ".answer_text"), "answer_text must be a string");
      return;
    }
    if (!saltOk) return;
    const d = answerDigest(a.answer_text, answerSalt);
    if (d !== task.answer_digest) {
      add(
        "answer_digest_mismatch",
        path(j, ".answer_text"),
        `digest of the revealed answer ${d} differs from the receipt's ${task.answer_digest}`,
      );
      return;
    }
    texts[a.ordinal] = a.answer_text;
  });
  tasks.forEach((t, i) => {
    if (t.answer_digest !== null && seen[i] !== 1)
      add(
        "missing_answer",
        `${rp}.tasks[${i}].answer_digest`,
        `task ${i} was answered but its answer is not revealed`,
      );
  });
  return { problems, texts };
}
