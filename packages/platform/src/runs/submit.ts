/**
 * Submitting answers (seed "Compete on Benchmarks", step 5): `[{ordinal, answer_text}]`, idempotent
 * upserts per ordinal; the whole batch is refused (`invalid_answers`, one entry per bad item in
 * `details.errors`) when an ordinal is unknown (stale ordinals of an earlier attempt included), an
 * answer is empty or not a string, or holds a code point not assigned in Unicode 14.0.0 (probe34 B-F1) or a
 * run of more than 30 combining characters (probe36 A-F9; in a json_fields answer also in a member's
 * decoded string, probe36 V-F2) or a capital sigma whose lower-casing depends on the Unicode version
 * (probe39 B-F2);
 * the stored-answer quotas bound what accounts keep.
 */
import {
  beyondBaselineText,
  firstBeyondBaseline,
  answerLongNonStarterRun,
  answerUnstableFinalSigma,
  MAX_NON_STARTER_RUN,
  nonStarterRunText,
  NORM_UNICODE_BASELINE,
  trimWhiteSpace,
  unstableFinalSigmaText,
} from "@bench-bounty/evidence";
import type { BenchmarkRecord, PlatformContext, WriteHow } from "../context.js";
import { textProblem, TEXT_PROBLEM_TEXT } from "../utf8.js";
import { PlatformError } from "../errors.js";
import type { Tables } from "../store.js";
import {
  accountScope,
  ALL_ACCOUNTS_SCOPE,
  networkScope,
  receiptReserveBytes,
} from "../store/answer-totals.js";
import { NETWORK_SHARE_DIVISOR, networkShareOf } from "../network-share.js";
import { closingChainTime, closureOf, getBenchmark, getTasks } from "../publish.js";
import { assertRunOwner } from "../identity/access.js";
import { assertKeyActive } from "../identity/key-check.js";
import { isOperatorAccount, type Principal } from "../identity/principal.js";
import { answerPackBytes, MAX_ANSWER_LENGTH } from "../pack-budget.js";
import { answerAllowanceOf } from "../publish.js";
import { isoMillis } from "../time.js";
import { getRun } from "./record.js";

/** One submitted answer. */
export interface SubmittedAnswer {
  ordinal: number;
  answer_text: string;
}

/** One refused item of a submitted batch (`details.errors` of `invalid_answers`). */
export interface AnswerIssue {
  index: number;
  ordinal: unknown;
  code: string;
  message: string;
  [k: string]: unknown;
}

/**
 * What is wrong with answer `index` of a batch over `n` tasks, or null when it is good (then its
 * ordinal is added to `seen`: a later item with the same ordinal is `duplicate_ordinal`, in O(1)).
 * Every issue names its JSON `path` (`$.answers[i]`, or `$.answers[i].<field>` with `field` for a bad
 * member) and a bound's issue its limit (probe27 A-F4: `answer_too_long` named neither).
 */
function answerIssue(
  a: unknown,
  index: number,
  n: number,
  maxBytes: number,
  seen: Set<number>,
  graderTypeOf: (ordinal: number) => string,
): AnswerIssue | null {
  const at = `$.answers[${index}]`;
  if (typeof a !== "object" || a === null || Array.isArray(a))
    return {
      index,
      ordinal: null,
      code: "not_an_object",
      path: at,
      message: "each answer must be {ordinal, answer_text}",
    };
  const { ordinal, answer_text } = a as { ordinal?: unknown; answer_text?: unknown };
  const issue = (
    field: "ordinal" | "answer_text",
    code: string,
    message: string,
    more: Record<string, unknown> = {},
  ): AnswerIssue => ({
    index,
    ordinal: ordinal ?? null,
    code,
    field,
    path: `${at}.${field}`,
    ...more,
    message,
  });
  if (typeof ordinal !== "number" || !Number.isSafeInteger(ordinal))
    return issue("ordinal", "bad_ordinal", "ordinal must be an integer");
  if (ordinal < 0 || ordinal >= n)
    return issue(
      "ordinal",
      "unknown_ordinal",
      `ordinal ${ordinal} is not a task of this run (0..${n - 1}); ordinals of earlier attempts do not carry over`,
    );
  if (seen.has(ordinal))
    return issue("ordinal", "duplicate_ordinal", `ordinal ${ordinal} appears twice in this batch`);
  if (typeof answer_text !== "string")
    return issue("answer_text", "not_a_string", "answer_text must be a string");
  // the bounds first (probe36 A-F8): an over-long answer is refused before any scan of its text
  if (answer_text.length > MAX_ANSWER_LENGTH)
    return issue(
      "answer_text",
      "answer_too_long",
      `answer_text is ${answer_text.length} characters (UTF-16 code units), over the limit of ${MAX_ANSWER_LENGTH} (max_answer_length)`,
      {
        limit: "max_answer_length",
        max_answer_length: MAX_ANSWER_LENGTH,
        answer_length: answer_text.length,
      },
    );
  const bad = textProblem(answer_text);
  if (bad !== null) return issue("answer_text", bad, `answer_text ${TEXT_PROBLEM_TEXT[bad]}`);
  const bytes = answerPackBytes(answer_text);
  if (bytes > maxBytes)
    return issue(
      "answer_text",
      "answer_too_large",
      `answer_text takes ${bytes} bytes in canonical JSON (UTF-8; an escaped control character such as \\u000b counts 6), over this benchmark's max_answer_bytes of ${maxBytes}`,
      { limit: "max_answer_bytes", max_answer_bytes: maxBytes, answer_bytes: bytes },
    );
  if (trimWhiteSpace(answer_text) === "") return issue("answer_text", "empty_answer", "answer_text is empty");
  // the one answer rule of the Unicode baseline (probe34 B-F1): norm() of a code point newer than it
  // depends on each verifier's Unicode tables, so the award could not be regraded alike by everyone
  const beyond = firstBeyondBaseline(answer_text);
  if (beyond !== null)
    return issue("answer_text", "unassigned_code_point", `answer_text ${beyondBaselineText(beyond)}`, {
      code_point: beyond.label,
      offset: beyond.offset,
      unicode_version: NORM_UNICODE_BASELINE,
    });
  // UAX #15 Stream-Safe Text Format (probe36 A-F9): NFKC (norm, at finalize and in every regrade) sorts a
  // run of combining marks in time quadratic in its length; for a json_fields task also in the decoded
  // strings of the answer's members, which norm reads (probe36 V-F2: "\u0301" escapes)
  const long = answerLongNonStarterRun(graderTypeOf(ordinal), answer_text);
  if (long !== null)
    return issue(
      "answer_text",
      "combining_run_too_long",
      `answer_text ${nonStarterRunText(long, long.member)}`,
      {
        offset: long.offset,
        ...(long.member === null ? {} : { member: long.member }),
        limit: "max_non_starter_run",
        max_non_starter_run: MAX_NON_STARTER_RUN,
      },
    );
  // Final_Sigma (probe39 B-F2): a capital sigma whose lower-casing reads a code point whose Cased /
  // Case_Ignorable class differs between Unicode 14.0.0 and this runtime would be graded otherwise by
  // another implementation's tables (after the run check: the rule normalises the text)
  const sigma = answerUnstableFinalSigma(graderTypeOf(ordinal), answer_text);
  if (sigma !== null)
    return issue(
      "answer_text",
      "unstable_final_sigma",
      `answer_text ${unstableFinalSigmaText(sigma, sigma.member)}`,
      {
        offset: sigma.offset,
        code_point: sigma.code_point,
        sigma_offset: sigma.sigma_offset,
        ...(sigma.member === null ? {} : { member: sigma.member }),
        unicode_version: NORM_UNICODE_BASELINE,
      },
    );
  seen.add(ordinal);
  return null;
}

/**
 * Refuses answers to a benchmark that no longer takes them (closed, awarded, reclaimed, or past its
 * bounty's `closes_at` by the wall clock or `chainTime`, the chain's clock read for the write: probe33
 * A-F2): a run left in progress past the close must not change what the award was computed from.
 * @throws PlatformError `benchmark_closed` (`details.rule: "benchmark_closed"`, `closed_by`, `closes_at`, `chain_time`)
 */
function assertTakesAnswers(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  runId: string,
  chainTime: bigint | null,
): void {
  const closure = closureOf(ctx, b, chainTime);
  if (closure !== null)
    throw new PlatformError(
      "benchmark_closed",
      `benchmark ${b.slug} is closed (${closure.reason}): run ${runId} takes no more answers`,
      {
        rule: "benchmark_closed",
        slug: b.slug,
        ...closure.details,
        closed_by: closure.closed_by,
        run_id: runId,
      },
    );
}

/**
 * Stores answers (idempotent upserts per ordinal; the whole batch or nothing).
 * A batch holds at most as many answers as the run has tasks (checked before any item is looked at).
 * @returns how many answers the run now holds
 * @throws PlatformError `unknown_run`, `run_not_in_progress`, `benchmark_closed` (the benchmark closed
 *   or was awarded while the run was in progress, or its bounty's `closes_at` passed by the wall clock
 *   or the chain's), `chain_error` (the chain's clock could not be read: nothing stored), `answer_quota_exceeded` (the account's or all
 *   accounts' stored answer bytes, {@link countStoredBytes}; nothing stored), `invalid_answers` with `details.field: "answers"`
 *   and `details.limit: "run_tasks"`, `max_answers` when the batch is longer than the run, else with
 *   `details.errors: [{index, ordinal, code}]` (`code`: `not_an_object`, `bad_ordinal`, `unknown_ordinal`,
 *   `duplicate_ordinal`, `not_a_string`, `empty_answer`, `lone_surrogate`, `nul_character`, `answer_too_long` (over `MAX_ANSWER_LENGTH` characters),
 *   `answer_too_large` (over the benchmark's `max_answer_bytes`, pack-budget.ts), `unassigned_code_point` (a code point not
 *   assigned in Unicode 14.0.0, evidence `NORM_UNICODE_BASELINE`: with `code_point` `"U+XXXX"`, `offset` in
 *   UTF-16 code units and `unicode_version`), `combining_run_too_long` (a run of more than
 *   `MAX_NON_STARTER_RUN` (30) non-starters, UAX #15 Stream-Safe Text Format, evidence
 *   `answerLongNonStarterRun`: with `offset` of the run in UTF-16 code units, `limit: "max_non_starter_run"`
 *   and `max_non_starter_run`; for a json_fields task the decoded strings of the answer's members count too,
 *   probe36 V-F2: then `member` names the member's JSON path in the answer and `offset` is in its decoded
 *   string), `unstable_final_sigma` (the answer's NFKC form, or a json_fields answer's decoded member's, as
 *   `member`, holds a capital sigma U+03A3 whose Final_Sigma context meets a code point whose case class
 *   differs between Unicode 14.0.0 and this runtime's tables, evidence `answerUnstableFinalSigma`, probe39
 *   B-F2: with `code_point` `"U+XXXX"` of that code point, `offset` of it and `sigma_offset` of the sigma,
 *   both in UTF-16 code units of the NFKC form, and `unicode_version`)) and `details.valid_ordinals`
 * @throws PlatformError `forbidden` (`details.rule: "known_key"`) when the calling key was revoked before
 *   the write (`assertKeyActive`, checked in its transaction: probe39 A-F2); nothing written
 */
export async function submitAnswers(
  ctx: PlatformContext,
  p: Principal,
  runId: string,
  answers: unknown,
  how: WriteHow = {},
): Promise<{ run_id: string; accepted: number; answered: number; total: number }> {
  const run = await getRun(ctx, runId);
  assertRunOwner(p, run);
  if (run.status !== "in_progress") {
    throw new PlatformError("run_not_in_progress", `run ${runId} is ${run.status}; start a new attempt`, {
      run_id: runId,
      status: run.status,
    });
  }
  const b = await getBenchmark(ctx, run.slug);
  // the chain's clock read now, before the transaction (no lock held over an RPC; probe33 A-F2)
  const chainTime = await closingChainTime(ctx, b, "write");
  assertTakesAnswers(ctx, b, runId, chainTime);
  if (!Array.isArray(answers))
    throw new PlatformError("invalid_answers", "answers must be a list of {ordinal, answer_text}", {
      field: "answers",
    });
  const n = run.plan.length;
  if (answers.length > n)
    throw new PlatformError(
      "invalid_answers",
      `answers holds ${answers.length} items; this run has ${n} tasks, so at most ${n} answers per submit`,
      { field: "answers", path: "$.answers", limit: "run_tasks", max_answers: n, answers: answers.length },
    );
  const maxBytes = await answerAllowanceOf(ctx, b);
  const tasks = await getTasks(ctx, run.slug);
  const graderTypeOf = (ordinal: number): string => tasks[run.plan[ordinal]!]?.grader_type ?? "";
  const errors: AnswerIssue[] = [];
  const seen = new Set<number>();
  const good: SubmittedAnswer[] = [];
  answers.forEach((a: unknown, index) => {
    const issue = answerIssue(a, index, n, maxBytes, seen, graderTypeOf);
    if (issue) errors.push(issue);
    else good.push(a as SubmittedAnswer);
  });
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new PlatformError("invalid_answers", `answers[${first.index}]: ${first.message}`, {
      errors,
      valid_ordinals: { min: 0, max: n - 1 },
    });
  }
  const now = isoMillis(ctx.clock());
  return ctx.store.tx(
    async (t) => {
      await assertKeyActive(t, p); // the calling key still works (probe39 A-F2)
      // The run's row is locked (PostgreSQL): a finalize in another process waits, or has finished.
      const cur = await getRun(ctx, runId, t, { lock: true });
      if (cur.status !== "in_progress")
        throw new PlatformError("run_not_in_progress", `run ${runId} is ${cur.status}`, {
          run_id: runId,
          status: cur.status,
        });
      assertTakesAnswers(ctx, await getBenchmark(ctx, run.slug, t), runId, chainTime);
      // the stored-answer quotas (probe14 D1-F20): what the batch adds, over the answers it replaces
      const added =
        good.reduce((n, a) => n + Buffer.byteLength(a.answer_text, "utf8"), 0) -
        (await t.answers.bytesAt(
          runId,
          good.map((a) => a.ordinal),
        ));
      await t.answers.upsert(
        runId,
        good.map(({ ordinal, answer_text }) => ({ ordinal, answer_text })),
        now,
      );
      const answered = await t.answers.count(runId);
      // last: the counters' rows stay locked until the commit (a refusal rolls the whole batch back)
      await countStoredBytes(ctx, t, cur, added, "answers");
      return { run_id: runId, accepted: good.length, answered, total: n };
    },
    { locksBy: how.answerBy, account: p.account_id },
  );
}

/**
 * The default bytes of answers the runs of one account (its agents together) may keep stored: 1 GiB
 * (probe14 D1-F20: publish bounds one agent on one benchmark at 128 MiB, but not an account with many
 * agents and benchmarks). `Platform.open({answerBytesPerAccount})` sets another
 * (`serve --answer-bytes-per-account`); null: no bound.
 */
export const DEFAULT_ANSWER_BYTES_PER_ACCOUNT = 1024 * 1024 * 1024;

/**
 * The default bytes of answers the runs of all accounts but the operator's may keep stored together:
 * 32 GiB (probe14 D1-F20). `Platform.open({answerBytesAllAccounts})` sets another
 * (`serve --answer-bytes-all`); null: no bound.
 */
export const DEFAULT_ANSWER_BYTES_ALL_ACCOUNTS = 32 * 1024 * 1024 * 1024;

/**
 * What a run start charges the stored-answer quotas (bytes): its plan as stored (`runs.plan_json`, the
 * JSON of the bank ordinals) and its receipt's reserve ({@link receiptReserveBytes}). Charged at start,
 * where it is known, so that the finalize never fails on a quota (probe28 A-F4).
 * @param plan the run's plan (bank ordinals, one per task)
 */
export function runStartBytes(plan: readonly number[]): number {
  return Buffer.byteLength(JSON.stringify(plan), "utf8") + receiptReserveBytes(plan.length);
}

/**
 * What a charge of {@link countStoredBytes} is for: a submit's `answers` (refused past a bound), a
 * `run_start`'s plan and receipt reserve (refused past a bound: the run is not started), or a
 * `finalize`'s receipt in place of its reserve (never refused: the run is not lost; the reserve is
 * sized so that this is rarely more than was reserved).
 */
export type StoredBytesCharge = "answers" | "run_start" | "finalize";

/**
 * Counts bytes a run stores in the stored-answer totals (`answer_bytes_totals`: the account's, its
 * client network's when it has one (`accounts.network`, probe30 A-F7), then all accounts' but the operator's; probe15 A-F5: O(1), where the sums read every run) and in the run's own
 * `runs.answer_bytes` (their ground truth): a submit's answers (UTF-8 bytes of `answer_text`; a replaced
 * answer's bytes are given back), a run start's plan and receipt reserve ({@link runStartBytes}) and a
 * finalize's receipt (its bytes less the reserve; probe28 A-F4: receipts and plans were in no bound).
 * Refuses an `answers` or `run_start` charge that takes either total past its bound. Call it last in the
 * transaction: each counter's row stays locked until it ends, so two writes do not both pass a bound,
 * and a refusal rolls back the whole write (nothing of it stored). The operator's runs are not counted
 * in the totals. The counters are kept with or without a bound.
 * @param added the bytes added (negative when what is stored shrinks: never refused)
 * @throws PlatformError `answer_quota_exceeded`, `details: {limit: "answer_bytes_per_account" |
 *   "answer_bytes_per_network" | "answer_bytes_all_accounts", limit_bytes, used_bytes}` and `answer_bytes` (a submit) or
 *   `run_start_bytes` (a run start) the bytes refused
 */
export async function countStoredBytes(
  ctx: PlatformContext,
  t: Tables,
  run: { run_id: string; account_id: string },
  added: number,
  charge: StoredBytesCharge,
): Promise<void> {
  await t.runs.addAnswerBytes(run.run_id, added);
  if (added === 0 || isOperatorAccount(run.account_id)) return;
  const refusable = charge !== "finalize";
  const what =
    charge === "answers"
      ? `these answers add ${added} bytes`
      : `this run's plan and receipt reserve take ${added} bytes`;
  const count = async (
    scope: string,
    limitBytes: number | null,
    limit: string,
    whose: string,
    ask: string,
  ) => {
    const total = await t.answerTotals.add(scope, added);
    if (refusable && added > 0 && limitBytes !== null && total > limitBytes) {
      const used = total - added;
      throw new PlatformError(
        "answer_quota_exceeded",
        `answer quota reached: ${whose} may keep ${limitBytes} bytes of answers and run records stored (${limit}); ` +
          `${used} bytes are stored and ${what}. ${ask}`,
        {
          limit,
          limit_bytes: limitBytes,
          used_bytes: used,
          ...(charge === "answers" ? { answer_bytes: added } : { run_start_bytes: added }),
        },
      );
    }
  };
  await count(
    accountScope(run.account_id),
    ctx.answerBytesPerAccount,
    "answer_bytes_per_account",
    "the runs of one account",
    charge === "answers" ? "Send shorter answers, or ask the operator" : "Ask the operator",
  );
  // the share of the account's client network (probe30 A-F7), its row before the one of all
  const network = await t.accounts.networkOf(run.account_id);
  if (network !== null)
    await count(
      networkScope(network),
      ctx.answerBytesAllAccounts === null ? null : networkShareOf(ctx.answerBytesAllAccounts),
      "answer_bytes_per_network",
      `the runs of the accounts created from one client network (this account's: ${network}; 1/${NETWORK_SHARE_DIVISOR} of what all accounts may)`,
      "Ask the operator",
    );
  await count(
    ALL_ACCOUNTS_SCOPE,
    ctx.answerBytesAllAccounts,
    "answer_bytes_all_accounts",
    "all accounts together",
    "Ask the operator",
  );
}
