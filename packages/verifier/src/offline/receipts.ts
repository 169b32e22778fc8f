/**
 * `digest_chain` and `receipt_hashes` (Steps 2-3): every receipt in the pack
 * (winners' and rows').
 *
 * - `digest_chain`: every winner answer's digest == its receipt task's
 *   `answer_digest`, every answered task revealed; every receipt bound to this test
 *   set (`commit_root`, `benchmark_slug`, task ordinals, `bank_ordinal` -> the row with
 *   the same `prompt_hash` and visibility) and to its winner/row (`run_id`, `agent_id`);
 * - `receipt_hashes`: keccak256 of every carried receipt == its `receipt_hash`, and
 *   a winner's `receipt_hash` == its row's.
 *
 * The winners' answers are matched and graded by one `regradeRun` each: its
 * digest and binding problems are this module's, the rest is kept for `regrade.ts`;
 * where a row disagrees with its receipt's scores and usage, or with the scores its receipt's stated credits
 * give (probe37 V-N5), is kept for `composite`.
 * @packageDocumentation
 */
import {
  checkReceiptBinding,
  checkRowReceipt,
  prepareTestSetGold,
  receiptCreditProblems,
  receiptHash,
  regradeRun,
  type PreparedTestSet,
  type Problem,
  type RankRow,
  type Receipt,
  type RevealedAnswer,
} from "@bench-bounty/evidence";
import { errorText, rethrowUnexpected, sameHex } from "../compare.js";
import { fact, factFrom } from "../facts.js";
import type { RankRowView, ReceiptView, WinnerView } from "../pack.js";
import { problemText, type OfflineFacts, type OfflineWalk } from "./context.js";

/** Codes of the answer matching in `regradeRun` (the digest chain and the receipt-to-test-set binding). */
const ANSWER_CHECK_CODES: ReadonlySet<string> = new Set([
  "bad_answer_salt",
  "bad_receipt",
  "commit_root_mismatch",
  "task_ordinal",
  "bank_ordinal_out_of_range",
  "prompt_hash_mismatch",
  "visibility_mismatch",
  "answer_without_task",
  "duplicate_answer",
  "bank_ordinal_mismatch",
  "answer_for_unanswered_task",
  "bad_answer",
  "answer_digest_mismatch",
  "missing_answer",
]);

/** Problems found while walking the receipts, by fact. */
interface ReceiptProblems {
  chain: string[];
  hashes: string[];
}

/**
 * The `digest_chain` and `receipt_hashes` facts; records `receiptHashByRun`, `receiptAgreement`,
 * `rowsWithoutReceipt`, `regrades`.
 */
export function receiptFacts(walk: OfflineWalk): Pick<OfflineFacts, "digest_chain" | "receipt_hashes"> {
  const { view } = walk;
  const rows = view.rank_derivation.rows;
  const found: ReceiptProblems = { chain: [], hashes: [] };
  const total =
    view.winners.reduce((s, w) => s + w.receipt.tasks.length, 0) +
    rows.reduce((s, r) => s + (r.receipt?.tasks.length ?? 0), 0);
  let tasksDone = 0;
  const progress = (k: number): void => {
    tasksDone += k;
    walk.onProgress?.({ phase: "receipts", done: tasksDone, total });
  };
  const n = view.test_set.length;
  if (!walk.testSet.bindable && (view.winners.length > 0 || rows.some((r) => r.receipt !== null)))
    found.chain.push(
      `$.test_set ordinals are not 0..${n - 1}: the receipts' bank_ordinals cannot be bound to rows`,
    );

  // the gold is prepared once for all the winners
  const prepared =
    walk.testSet.bindable && view.winners.length > 0 ? prepareTestSetGold(walk.testSet.byOrdinal) : [];
  let answersRevealed = 0;
  for (const w of view.winners) {
    winnerReceipt(walk, w, prepared, found);
    answersRevealed += walk.testSet.bindable ? w.answers.length : 0;
    progress(w.receipt.tasks.length);
  }
  // a winner's row is checked against the winner's receipt (winnerReceipt); any other row without its own
  // receipt is checked against none: its values are the awarder's word (probe37 C-F1)
  const winnersRows = new Set(view.winners.map((w) => walk.rowByRun.get(w.run_id)));
  let rowsWithoutReceipt = 0;
  for (const r of rows) {
    if (r.receipt === null) {
      rowsWithoutReceipt++;
      if (!winnersRows.has(r)) walk.rowsWithoutReceipt.push(r);
    } else {
      rowReceipt(walk, r, r.receipt, found);
      progress(r.receipt.tasks.length);
    }
  }

  const receiptsChecked = view.winners.length + rows.length - rowsWithoutReceipt;
  if (receiptsChecked === 0)
    return {
      digest_chain: fact("not-required", "the pack carries no receipt (no winner, no row receipt)"),
      receipt_hashes: fact(
        "not-required",
        `the pack carries no receipt; the ${rowsWithoutReceipt} rows' hashes are checked on chain only`,
      ),
    };
  return {
    digest_chain: factFrom(
      found.chain,
      `${answersRevealed} revealed answers match their digests; ${receiptsChecked} receipts bound to commit_root and the test set`,
    ),
    receipt_hashes: factFrom(
      found.hashes,
      `${receiptsChecked} receipts hash to their receipt_hash` +
        (rowsWithoutReceipt > 0
          ? `; ${rowsWithoutReceipt} rows carry no receipt (checked on chain only)`
          : ""),
    ),
  };
}

/** A winner's receipt: owner, hash, its row, then its answers regraded (evidence's `regradeRun`). */
function winnerReceipt(
  walk: OfflineWalk,
  w: WinnerView,
  prepared: PreparedTestSet,
  found: ReceiptProblems,
): void {
  ownerChecks(walk, w.receipt, w, found);
  const h = hashOf(walk, w.receipt, found);
  if (h !== null) {
    walk.receiptHashByRun.set(w.run_id, h);
    if (!sameHex(h, w.receipt_hash))
      found.hashes.push(`${w.path}.receipt_hash is ${w.receipt_hash}, the receipt hashes to ${h}`);
  }
  const row = walk.rowByRun.get(w.run_id);
  if (row !== undefined) {
    if (!sameHex(row.receipt_hash, w.receipt_hash))
      found.hashes.push(
        `${w.path}.receipt_hash is ${w.receipt_hash}, its row ${row.path}.receipt_hash is ${row.receipt_hash}`,
      );
    if (row.receipt === null) rowAgainstReceipt(walk, row, w.receipt, found);
  }
  if (!walk.testSet.bindable) {
    walk.regrades.push({ winner: w, row, result: null, problems: [] });
    return;
  }
  const { byOrdinal, promptHashByOrdinal } = walk.testSet;
  const result = regradeRun(
    byOrdinal,
    w.receipt.raw as unknown as Receipt,
    w.answers as RevealedAnswer[],
    w.answer_salt,
    {
      commitRoot: walk.view.benchmark.commit_root,
      prepared,
      promptHashes: promptHashByOrdinal,
      path: w.path,
    },
  );
  const rest: Problem[] = [];
  for (const p of result.problems)
    if (ANSWER_CHECK_CODES.has(p.code)) found.chain.push(problemText(p));
    else rest.push(p);
  walk.regrades.push({ winner: w, row, result, problems: rest });
}

/** A row's embedded receipt: owner, hash, the row against it, and its binding (no answers, no salt). */
function rowReceipt(walk: OfflineWalk, r: RankRowView, rc: ReceiptView, found: ReceiptProblems): void {
  ownerChecks(walk, rc, r, found);
  const h = hashOf(walk, rc, found);
  if (h !== null) {
    if (!walk.receiptHashByRun.has(r.run_id)) walk.receiptHashByRun.set(r.run_id, h);
    if (!sameHex(h, r.receipt_hash))
      found.hashes.push(`${r.path}.receipt_hash is ${r.receipt_hash}, its receipt hashes to ${h}`);
  }
  rowAgainstReceipt(walk, r, rc, found);
  if (!walk.testSet.bindable) return;
  // the credits the receipt states give its score_public and the row's rank_accuracy (probe37 V-N5)
  const bankHasPrivate = walk.testSet.byOrdinal.some((t) => t.visibility === "private");
  for (const p of receiptCreditProblems(rc.raw as unknown as Receipt, r, bankHasPrivate, r.path))
    walk.receiptAgreement.push(problemText(p));
  const check = checkReceiptBinding(rc.raw as unknown as Receipt, {
    testSet: walk.testSet.byOrdinal,
    promptHashes: walk.testSet.promptHashByOrdinal,
    commitRoot: walk.view.benchmark.commit_root,
    receiptPath: rc.path,
  });
  for (const p of check.problems) found.chain.push(problemText(p));
}

/** The receipt's hash (from the pack's one serialization when it has it), or null with the problem recorded. */
function hashOf(walk: OfflineWalk, rc: ReceiptView, found: ReceiptProblems): string | null {
  try {
    return walk.hashes?.receipt_hashes.get(rc.raw) ?? receiptHash(rc.raw);
  } catch (e) {
    rethrowUnexpected(e);
    found.hashes.push(`${rc.path} has no canonical JSON: ${errorText(e)}`);
    return null;
  }
}

/** The receipt names the pack's slug and its owner's run and agent. */
function ownerChecks(
  walk: OfflineWalk,
  rc: ReceiptView,
  owner: { run_id: string; agent_id: string; path: string },
  found: ReceiptProblems,
): void {
  const slug = walk.view.benchmark.slug;
  if (rc.benchmark_slug !== slug)
    found.chain.push(
      `${rc.path}.benchmark_slug is ${JSON.stringify(rc.benchmark_slug)}, the pack's slug is ${JSON.stringify(slug)}`,
    );
  if (rc.run_id !== owner.run_id)
    found.chain.push(
      `${rc.path}.run_id is ${JSON.stringify(rc.run_id)}, ${owner.path}.run_id is ${JSON.stringify(owner.run_id)}`,
    );
  if (rc.agent_id !== owner.agent_id)
    found.chain.push(
      `${rc.path}.agent_id is ${JSON.stringify(rc.agent_id)}, ${owner.path}.agent_id is ${JSON.stringify(owner.agent_id)}`,
    );
}

/**
 * A row checked against its receipt's fields (evidence's `checkRowReceipt`): a different run or
 * agent is the digest chain's, different scores or usage the `composite` fact's. The receipt's
 * hash is checked once by the caller: the tasks are left out here so the (large) receipt is not
 * hashed a second time.
 */
function rowAgainstReceipt(
  walk: OfflineWalk,
  row: RankRowView,
  rc: ReceiptView,
  found: ReceiptProblems,
): void {
  let problems: Problem[];
  try {
    const header = { ...(rc.raw as unknown as Receipt), tasks: [] };
    problems = checkRowReceipt({ ...(row.raw as unknown as RankRow), receipt: header }, row.path);
  } catch (e) {
    rethrowUnexpected(e);
    walk.receiptAgreement.push(`${row.path}: ${errorText(e)}`);
    return;
  }
  for (const p of problems) {
    if (p.code === "receipt_hash_mismatch") continue;
    if (p.code === "row_receipt_mismatch" && (p.path.endsWith(".run_id") || p.path.endsWith(".agent_id")))
      found.chain.push(problemText(p));
    else walk.receiptAgreement.push(`${p.path}: ${p.message} (anchored)`);
  }
}
