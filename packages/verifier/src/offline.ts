/**
 * The off-chain walk (award-evidence-pack Steps 1-5): every fact that the
 * pack alone decides. Every hash, grade, score, order, selection and amount is
 * computed by `@bench-bounty/evidence`; this module only walks the pack,
 * compares and explains.
 *
 * Fact boundaries (each tampering is caught by the fact it breaks):
 * - `commitment_root`: rows in ordinal order (`test_set[i].ordinal == i`), every row
 *   hashable, rebuilt root == `benchmark.commit_root`;
 * - `leaf_count`: number of rows == `benchmark.leaf_count` (> 0);
 * - `digest_chain`: every winner answer's digest == its receipt task's
 *   `answer_digest`, every answered task revealed; every receipt in the pack (winners' and
 *   rows') bound to this test set (`commit_root`, `benchmark_slug`, task ordinals,
 *   `bank_ordinal` -> row with the same `prompt_hash` and visibility) and to its
 *   winner/row (`run_id`, `agent_id`);
 * - `receipt_hashes`: keccak256 of every carried receipt == its `receipt_hash`,
 *   and a winner's `receipt_hash` == its row's;
 * - `regrade`: winners' answers regraded from the revealed gold give the row's
 *   `rank_accuracy` and `score_public` (and any non-null receipt credit);
 * - `composite`: every row's composite recomputed from its inputs == its
 *   `score_composite`; a row carrying (or a winner holding) its receipt agrees with it
 *   on `wall_seconds`, `queries_used`, `usdc_spent`, `score_public`, `score_composite`;
 * - `ordering`: rows in the order of SPEC 7.1 (on the recomputed composites), ranks
 *   1..n, one row per agent, `attempts_used` at least the receipt's attempt;
 * - `selection`: the winners block == the first `len(splits_bps)` eligible rows;
 * - `payouts`: splits valid and matching `payout_rule`, pools equal, place amounts ==
 *   SPEC 7.3 for the pack's winner count, each winner's amount == its place's,
 *   `zero_winner_reason` as derived.
 *
 * @packageDocumentation
 */
import {
  EvidenceError,
  PAYOUT_RULES,
  checkReceiptBinding,
  checkOrdering,
  checkRowReceipt,
  decimalToFraction,
  goldLeaf,
  leafFromParts,
  merkleRootBytes,
  packHashes,
  payoutAmounts,
  prepareTestSetGold,
  promptHash,
  rankOrder,
  rankingDigest,
  receiptHash,
  recomputeRowComposite,
  regradeRun,
  selectWinners,
  toHex,
  validateEvidencePack,
  validateSplits,
  type PackHashes,
  type Problem,
  type RankRow,
  type Receipt,
  type RevealedAnswer,
  type TestSetRow,
} from "@bench-bounty/evidence";
import { describeError } from "./errors.js";
import { capReasons, fact, factFrom, type Fact, type FactName, type VerificationValues } from "./facts.js";
import type { PackView, RankRowView, ReceiptView } from "./pack.js";

/** Progress of a long verification, reported every few thousand items. */
export interface VerifyProgress {
  /** `parse` (KiB), `schema`, `pack hash`, `commitment` (rows), `receipts` (receipt tasks), `chain`, `indexer` (anchors). */
  phase: string;
  /** Items done in this phase. */
  done: number;
  /** Items in this phase. */
  total: number;
}

/** A progress callback. */
export type ProgressCallback = (p: VerifyProgress) => void;

/** What the off-chain walk derived, for the on-chain and indexer checks. */
export interface OfflineDerived {
  /** Recomputed commitment root, or null. */
  commitRoot: string | null;
  /** Recomputed pack hash, or null. */
  packHash: string | null;
  /** Recomputed ranking digest, or null. */
  rankingDigest: string | null;
  /** Every receipt hash the pack names (winners' and rows'), unique, lowercase. */
  receiptHashes: string[];
}

/** Result of {@link verifyOffline}. */
export interface OfflineResult {
  facts: Pick<
    Record<FactName, Fact>,
    | "schema"
    | "pack_hash"
    | "commitment_root"
    | "leaf_count"
    | "ranking_digest"
    | "digest_chain"
    | "receipt_hashes"
    | "regrade"
    | "composite"
    | "ordering"
    | "selection"
    | "payouts"
  >;
  values: VerificationValues;
  derived: OfflineDerived;
}

const STEP = 4096;

/** Compare two digests by value (case-insensitive hex). */
export function sameHex(a: string | null | undefined, b: string | null | undefined): boolean {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

/** Compare two decimals by value (`"0.50"` == `"0.5"`); false when either is not a decimal. */
export function sameDecimal(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return decimalToFraction(a, "$", true).eq(decimalToFraction(b, "$", true));
  } catch {
    return false;
  }
}

function msg(e: unknown): string {
  return e instanceof EvidenceError ? e.message : describeError(e);
}

/** Codes of `checkAnswersAgainstReceipt` (the digest chain and the receipt-to-test-set binding). */
const ANSWER_CHECK_CODES = new Set([
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

function problemText(p: Problem): string {
  return `${p.path}: ${p.message}`;
}

/**
 * Walk the pack off-chain and decide the pack facts.
 * Never throws for a wrong award (that is a failed fact).
 */
export function verifyOffline(view: PackView, onProgress?: ProgressCallback): OfflineResult {
  const b = view.benchmark;
  const rd = view.rank_derivation;
  const raw = view.raw;

  // ---- schema (SPEC 2-8 format rules, evidence's pack schema)
  const units = view.test_set.length;
  onProgress?.({ phase: "schema", done: 0, total: units });
  const validation = validateEvidencePack(raw);
  onProgress?.({ phase: "schema", done: units, total: units });
  const schemaFact: Fact = validation.ok
    ? fact("verified", "every block follows the format rules of SPEC 2-8 (evidence pack schema)")
    : { state: "failed", reasons: capReasons(validation.problems.map(problemText)) };

  // ---- pack hash (Step 5)
  let recomputedPackHash: string | null = null;
  let hashes: PackHashes | null = null;
  let packHashFact: Fact;
  try {
    onProgress?.({ phase: "pack hash", done: 0, total: units });
    // one serialization gives the pack hash, the ranking digest and the carried receipts' hashes
    hashes = packHashes(raw as never, view.canonical);
    recomputedPackHash = hashes.pack_hash;
    onProgress?.({ phase: "pack hash", done: units, total: units });
    packHashFact = sameHex(recomputedPackHash, view.pack_hash)
      ? fact("verified", `the four hashed blocks hash to ${recomputedPackHash}`)
      : fact("failed", `$.pack_hash is ${view.pack_hash}, the hashed blocks hash to ${recomputedPackHash}`);
  } catch (e) {
    packHashFact = fact("failed", `the hashed blocks have no canonical JSON: ${msg(e)}`);
  }

  // ---- ranking digest (Step 5; the award() argument)
  let recomputedRankingDigest: string | null = null;
  let rankingDigestFact: Fact;
  try {
    recomputedRankingDigest = hashes?.ranking_digest ?? rankingDigest(raw.rank_derivation as never);
    rankingDigestFact = sameHex(recomputedRankingDigest, b.ranking_digest)
      ? fact("verified", `keccak256(canonical_json(rank_derivation)) is ${recomputedRankingDigest}`)
      : fact(
          "failed",
          `$.benchmark.ranking_digest is ${b.ranking_digest}, rank_derivation hashes to ${recomputedRankingDigest}`,
        );
  } catch (e) {
    rankingDigestFact = fact("failed", `rank_derivation has no canonical JSON: ${msg(e)}`);
  }

  // ---- Step 1: commitment root and leaf count
  const rows = view.test_set;
  const n = rows.length;
  const promptHashes: (string | null)[] = new Array<string | null>(n).fill(null);
  const rowIndexByOrdinal = new Map<number, number>();
  const rootProblems: string[] = [];
  const leaves: Uint8Array[] = new Array<Uint8Array>(n);
  let hashable = true;
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    if (row.ordinal !== i)
      rootProblems.push(
        `${row.path}.ordinal is ${row.ordinal}, expected ${i} (array order is ordinal order)`,
      );
    if (!rowIndexByOrdinal.has(row.ordinal)) rowIndexByOrdinal.set(row.ordinal, i);
    try {
      const ph = promptHash(row.prompt);
      promptHashes[i] = ph;
      leaves[i] = leafFromParts(row.ordinal, ph, goldLeaf(row.gold, row.salt, row.path));
    } catch (e) {
      hashable = false;
      rootProblems.push(`${row.path}: the leaf cannot be built: ${msg(e)}`);
    }
    if (onProgress !== undefined && (i + 1) % STEP === 0)
      onProgress({ phase: "commitment", done: i + 1, total: n });
  }
  onProgress?.({ phase: "commitment", done: n, total: n });
  let recomputedRoot: string | null = null;
  if (n === 0) rootProblems.push("$.test_set is empty: zero leaves have no root");
  else if (hashable) {
    recomputedRoot = toHex(merkleRootBytes(leaves));
    if (!sameHex(recomputedRoot, b.commit_root))
      rootProblems.push(
        `$.benchmark.commit_root is ${b.commit_root}, the ${n} rows rebuild ${recomputedRoot}`,
      );
  }
  const commitmentRootFact = factFrom(
    rootProblems,
    `${n} leaves rebuild ${recomputedRoot} == benchmark.commit_root`,
  );
  const leafCountFact =
    n === b.leaf_count && n > 0
      ? fact("verified", `${n} rows == benchmark.leaf_count`)
      : fact("failed", `$.benchmark.leaf_count is ${b.leaf_count}, $.test_set has ${n} rows`);

  // Rows and prompt hashes indexed by their ordinal field (SPEC 3: bank_ordinal means the row's
  // ordinal). When the ordinals are 0..n-1 in some order, a receipt binds to the row it named even
  // if the array was reordered: that tampering is commitment_root's alone.
  const byOrdinal: TestSetRow[] = [];
  const promptHashByOrdinal: string[] = [];
  for (const [ord, idx] of rowIndexByOrdinal) {
    if (ord >= n) continue;
    const r = rows[idx]!;
    // a row view carries every field of a TestSetRow (and its path), and its ordinal field is
    // `ord` (the key it is indexed by): it serves as the TestSetRow without a copy
    byOrdinal[ord] = r as unknown as TestSetRow;
    promptHashByOrdinal[ord] = promptHashes[idx] ?? "";
  }
  let bindable = byOrdinal.length === n;
  for (let i = 0; bindable && i < n; i++) if (byOrdinal[i] === undefined) bindable = false;

  const rowByRun = new Map<string, RankRowView>();
  for (const r of rd.rows) if (!rowByRun.has(r.run_id)) rowByRun.set(r.run_id, r);

  // ---- Steps 2-3: digest chain, receipt hashes, regrade
  const chainProblems: string[] = [];
  const hashProblems: string[] = [];
  const regradeProblems: string[] = [];
  const compositeProblems: string[] = [];
  let receiptsChecked = 0;
  let answersRevealed = 0;
  const totalReceiptTasks =
    view.winners.reduce((s, w) => s + w.receipt.tasks.length, 0) +
    rd.rows.reduce((s, r) => s + (r.receipt?.tasks.length ?? 0), 0);
  let tasksDone = 0;
  const progressReceipts = (k: number): void => {
    tasksDone += k;
    onProgress?.({ phase: "receipts", done: tasksDone, total: totalReceiptTasks });
  };
  if (!bindable && (view.winners.length > 0 || rd.rows.some((r) => r.receipt !== null)))
    chainProblems.push(
      `$.test_set ordinals are not 0..${n - 1}: the receipts' bank_ordinals cannot be bound to rows`,
    );

  const ownerChecks = (rc: ReceiptView, owner: { run_id: string; agent_id: string; path: string }): void => {
    if (rc.benchmark_slug !== b.slug)
      chainProblems.push(
        `${rc.path}.benchmark_slug is ${JSON.stringify(rc.benchmark_slug)}, the pack's slug is ${JSON.stringify(b.slug)}`,
      );
    if (rc.run_id !== owner.run_id)
      chainProblems.push(
        `${rc.path}.run_id is ${JSON.stringify(rc.run_id)}, ${owner.path}.run_id is ${JSON.stringify(owner.run_id)}`,
      );
    if (rc.agent_id !== owner.agent_id)
      chainProblems.push(
        `${rc.path}.agent_id is ${JSON.stringify(rc.agent_id)}, ${owner.path}.agent_id is ${JSON.stringify(owner.agent_id)}`,
      );
  };
  /**
   * A row checked against its receipt's fields (evidence's checkRowReceipt), problems split by
   * fact. The receipt's hash is checked once by the caller: the tasks are left out here so the
   * (large) receipt is not hashed a second time.
   */
  const rowAgainstReceipt = (row: RankRowView, rc: ReceiptView): void => {
    let problems: Problem[];
    try {
      const header = { ...(rc.raw as unknown as Receipt), tasks: [] };
      problems = checkRowReceipt({ ...(row.raw as unknown as RankRow), receipt: header }, row.path);
    } catch (e) {
      compositeProblems.push(`${row.path}: ${msg(e)}`);
      return;
    }
    for (const p of problems) {
      if (p.code === "receipt_hash_mismatch") continue;
      if (p.code === "row_receipt_mismatch" && (p.path.endsWith(".run_id") || p.path.endsWith(".agent_id")))
        chainProblems.push(problemText(p));
      else compositeProblems.push(`${p.path}: ${p.message} (anchored)`);
    }
  };

  const prepared = bindable && view.winners.length > 0 ? prepareTestSetGold(byOrdinal) : [];
  const recomputedByRun = new Map<string, string>();
  let gradedAnswers = 0;
  for (const w of view.winners) {
    receiptsChecked++;
    ownerChecks(w.receipt, w);
    // receipt hash
    try {
      const h = hashes?.receipt_hashes.get(w.receipt.raw) ?? receiptHash(w.receipt.raw);
      recomputedByRun.set(w.run_id, h);
      if (!sameHex(h, w.receipt_hash))
        hashProblems.push(`${w.path}.receipt_hash is ${w.receipt_hash}, the receipt hashes to ${h}`);
    } catch (e) {
      hashProblems.push(`${w.receipt.path} has no canonical JSON: ${msg(e)}`);
    }
    const row = rowByRun.get(w.run_id);
    if (row !== undefined) {
      if (!sameHex(row.receipt_hash, w.receipt_hash))
        hashProblems.push(
          `${w.path}.receipt_hash is ${w.receipt_hash}, its row ${row.path}.receipt_hash is ${row.receipt_hash}`,
        );
      if (row.receipt === null) rowAgainstReceipt(row, w.receipt);
    }
    if (!bindable) {
      regradeProblems.push(
        `${w.path}: the test set ordinals are not 0..${n - 1}, the answers cannot be regraded`,
      );
      progressReceipts(w.receipt.tasks.length);
      continue;
    }
    // Steps 2-3 (evidence's regradeRun): digests and binding -> digest_chain, grading -> regrade
    const r = regradeRun(
      byOrdinal,
      w.receipt.raw as unknown as Receipt,
      w.answers as RevealedAnswer[],
      w.answer_salt,
      {
        commitRoot: b.commit_root,
        prepared,
        promptHashes: promptHashByOrdinal,
        path: w.path,
      },
    );
    answersRevealed += w.answers.length;
    for (const p of r.problems)
      (ANSWER_CHECK_CODES.has(p.code) ? chainProblems : regradeProblems).push(problemText(p));
    r.tasks.forEach((t, i) => {
      if (t.answer_text !== null) gradedAnswers++;
      const claimed = w.receipt.tasks[i]?.credit ?? null;
      if (claimed !== null && t.credit !== null && claimed !== t.credit.toString())
        regradeProblems.push(
          `${w.receipt.path}.tasks[${i}].credit is ${claimed}, regrading gives ${t.credit.toString()}`,
        );
    });
    progressReceipts(w.receipt.tasks.length);
    if (row === undefined) {
      regradeProblems.push(
        `${w.path}: run ${JSON.stringify(w.run_id)} has no row in $.rank_derivation.rows to compare rank_accuracy with`,
      );
      continue;
    }
    if (r.rank_accuracy === null)
      regradeProblems.push(`${w.path}: rank_accuracy cannot be recomputed (see the problems above)`);
    else if (!sameDecimal(r.rank_accuracy, row.rank_accuracy))
      regradeProblems.push(
        `${row.path}.rank_accuracy is ${row.rank_accuracy}, regrading ${JSON.stringify(w.agent_id)}'s answers gives ${r.rank_accuracy}`,
      );
    if (r.score_public !== null && !sameDecimal(r.score_public, row.score_public))
      regradeProblems.push(
        `${row.path}.score_public is ${row.score_public}, regrading gives ${r.score_public}`,
      );
  }

  // rows' receipts (non-winners' answers stay private: only the binding and the hash are checkable)
  let rowsWithoutReceipt = 0;
  for (const r of rd.rows) {
    if (r.receipt === null) {
      rowsWithoutReceipt++;
      continue;
    }
    receiptsChecked++;
    ownerChecks(r.receipt, r);
    try {
      const h = hashes?.receipt_hashes.get(r.receipt.raw) ?? receiptHash(r.receipt.raw);
      if (!recomputedByRun.has(r.run_id)) recomputedByRun.set(r.run_id, h);
      if (!sameHex(h, r.receipt_hash))
        hashProblems.push(`${r.path}.receipt_hash is ${r.receipt_hash}, its receipt hashes to ${h}`);
    } catch (e) {
      hashProblems.push(`${r.receipt.path} has no canonical JSON: ${msg(e)}`);
    }
    rowAgainstReceipt(r, r.receipt);
    if (bindable) {
      // the binding alone: no answers, no salt
      const check = checkReceiptBinding(r.receipt.raw as unknown as Receipt, {
        testSet: byOrdinal,
        promptHashes: promptHashByOrdinal,
        commitRoot: b.commit_root,
        receiptPath: r.receipt.path,
      });
      for (const p of check.problems) chainProblems.push(problemText(p));
    }
    progressReceipts(r.receipt.tasks.length);
  }

  const digestChainFact: Fact =
    receiptsChecked === 0
      ? fact("not-required", "the pack carries no receipt (no winner, no row receipt)")
      : factFrom(
          chainProblems,
          `${answersRevealed} revealed answers match their digests; ${receiptsChecked} receipts bound to commit_root and the test set`,
        );
  const receiptHashesFact: Fact =
    receiptsChecked === 0
      ? fact(
          "not-required",
          `the pack carries no receipt; the ${rowsWithoutReceipt} rows' hashes are checked on chain only`,
        )
      : factFrom(
          hashProblems,
          `${receiptsChecked} receipts hash to their receipt_hash` +
            (rowsWithoutReceipt > 0
              ? `; ${rowsWithoutReceipt} rows carry no receipt (checked on chain only)`
              : ""),
        );
  const regradeFact: Fact =
    view.winners.length === 0
      ? fact("not-required", "no winner: no answer is revealed")
      : factFrom(
          regradeProblems,
          `${gradedAnswers} answers of ${view.winners.length} winners regraded; rank_accuracy and score_public match`,
        );

  // ---- Step 4a: composites
  const scoring = {
    speed_weight: rd.speed_weight,
    cost_weight: rd.cost_weight,
    time_budget_seconds: rd.time_budget_seconds,
    cost_budget_usdc: rd.cost_budget_usdc,
  };
  const recomputedComposite = new Map<RankRowView, string>();
  for (const r of rd.rows) {
    const c = recomputeRowComposite(r, scoring, r.path);
    if (c.problem !== null) compositeProblems.push(problemText(c.problem));
    else if (c.score_composite !== null) {
      recomputedComposite.set(r, c.score_composite);
      if (!sameDecimal(c.score_composite, r.score_composite))
        compositeProblems.push(
          `${r.path}.score_composite is ${r.score_composite}, its inputs give ${c.score_composite}`,
        );
    }
  }
  const compositeFact: Fact =
    rd.rows.length === 0
      ? fact("not-required", "no row to score")
      : factFrom(compositeProblems, `${rd.rows.length} composites recomputed and equal`);

  // ---- Step 4b: ordering, on the recomputed composites (a wrong composite is composite's fact)
  const rowsForRanking = rd.rows.map((r) => ({
    ...(r.raw as unknown as RankRow),
    score_composite: recomputedComposite.get(r) ?? r.score_composite,
  }));
  const orderingProblems: string[] = checkOrdering(rowsForRanking, "$.rank_derivation.rows").map(problemText);
  let ranked: RankRowView[] | null = null;
  try {
    ranked = rankOrder(rowsForRanking, "$.rank_derivation.rows").map((i) => rd.rows[i]!);
  } catch {
    // reported by checkOrdering
  }
  rd.rows.forEach((r) => {
    const rc = r.receipt ?? view.winners.find((w) => w.run_id === r.run_id)?.receipt ?? null;
    if (rc !== null && r.attempts_used < rc.attempt)
      orderingProblems.push(
        `${r.path}.attempts_used is ${r.attempts_used}, but its receipt is attempt ${rc.attempt}`,
      );
  });
  const orderingFact: Fact =
    rd.rows.length === 0
      ? fact("not-required", "no row to order")
      : factFrom(orderingProblems, `${rd.rows.length} rows in SPEC 7.1 order`);

  // ---- Step 4c: selection (SPEC 7.2 on the re-ranked rows)
  const selectionProblems: string[] = [];
  let splits: number[] | null = null;
  try {
    splits = validateSplits(rd.splits_bps, "$.rank_derivation.splits_bps");
  } catch (e) {
    selectionProblems.push(msg(e));
  }
  let expectedWinners: RankRowView[] | null = null;
  let derivedZeroReason: string | null = null;
  if (ranked === null) selectionProblems.push("the rows cannot be ranked, so the winners cannot be selected");
  else if (splits !== null) {
    try {
      const sel = selectWinners({
        rows: ranked.map((r) => ({
          ...(r.raw as unknown as RankRow),
          score_composite: recomputedComposite.get(r) ?? r.score_composite,
          view: r,
        })),
        threshold_bps: rd.threshold_bps,
        splits_bps: splits,
        pool_base_units: rd.pool_base_units,
      });
      expectedWinners = sel.winners.map((x) => x.view);
      derivedZeroReason = sel.zero_winner_reason;
    } catch (e) {
      selectionProblems.push(`the winners cannot be selected: ${msg(e)}`);
    }
  }
  if (expectedWinners !== null) {
    const max = Math.max(expectedWinners.length, view.winners.length);
    for (let i = 0; i < max; i++) {
      const want = expectedWinners[i];
      const got = view.winners[i];
      if (got !== undefined && got.place !== i + 1)
        selectionProblems.push(`${got.path}.place is ${got.place}, expected ${i + 1}`);
      if (want === undefined && got !== undefined)
        selectionProblems.push(
          `${got.path} pays ${JSON.stringify(got.agent_id)}, who is not a winner by SPEC 7.2`,
        );
      else if (want !== undefined && got === undefined)
        selectionProblems.push(
          `place ${i + 1} belongs to ${JSON.stringify(want.agent_id)} (${want.path}), $.winners has no place ${i + 1}`,
        );
      else if (
        want !== undefined &&
        got !== undefined &&
        (want.run_id !== got.run_id || want.agent_id !== got.agent_id)
      )
        selectionProblems.push(
          `${got.path} is ${JSON.stringify(got.agent_id)} (run ${got.run_id}), SPEC 7.2 selects ${JSON.stringify(want.agent_id)} (run ${want.run_id})`,
        );
    }
    for (const w of view.winners) {
      const row = rowByRun.get(w.run_id);
      if (row === undefined)
        selectionProblems.push(
          `${w.path}: run ${JSON.stringify(w.run_id)} has no row in $.rank_derivation.rows`,
        );
      else if (row.is_author_agent)
        selectionProblems.push(
          `${w.path} pays ${JSON.stringify(w.agent_id)}, an author agent (${row.path}.is_author_agent)`,
        );
    }
  }
  const selectionFact = factFrom(
    selectionProblems,
    expectedWinners === null
      ? ""
      : expectedWinners.length === 0
        ? `no winner: ${derivedZeroReason}`
        : `${expectedWinners.map((w) => w.agent_id).join(", ")} are the first eligible rows (threshold ${rd.threshold_bps} bps, author agents excluded)`,
  );

  // ---- Step 4d: payouts (SPEC 7.3 for the pack's winner count) and zero_winner_reason
  const payoutProblems: string[] = [];
  let placeAmounts: bigint[] | null = null;
  let derivedPlaceAmounts: bigint[] = [];
  if (rd.pool_base_units !== b.pool_base_units)
    payoutProblems.push(
      `$.rank_derivation.pool_base_units is ${rd.pool_base_units}, $.benchmark.pool_base_units is ${b.pool_base_units}`,
    );
  if (splits === null) payoutProblems.push("$.rank_derivation.splits_bps are not valid splits");
  else {
    const named = (PAYOUT_RULES as Record<string, readonly number[]>)[rd.payout_rule];
    if (named !== undefined && (named.length !== splits.length || named.some((v, i) => v !== splits![i])))
      payoutProblems.push(
        `$.rank_derivation.payout_rule ${rd.payout_rule} means [${named.join(", ")}], splits_bps is [${splits.join(", ")}]`,
      );
    const k = view.winners.length;
    if (k > splits.length) payoutProblems.push(`$.winners has ${k} places, the splits have ${splits.length}`);
    else {
      const pa = payoutAmounts(rd.pool_base_units, splits, k);
      placeAmounts = pa;
      const claimed = rd.place_amounts_base_units;
      if (claimed.length !== pa.length || claimed.some((a, i) => a !== pa[i]))
        payoutProblems.push(
          `$.rank_derivation.place_amounts_base_units is [${claimed.join(", ")}], SPEC 7.3 gives [${pa.join(", ")}] for ${k} winners`,
        );
      view.winners.forEach((w, i) => {
        if (pa[i] !== undefined && w.amount_base_units !== pa[i])
          payoutProblems.push(
            `${w.path}.amount_base_units is ${w.amount_base_units}, place ${i + 1} is ${pa[i]}`,
          );
      });
    }
    if (expectedWinners !== null)
      derivedPlaceAmounts = payoutAmounts(rd.pool_base_units, splits, expectedWinners.length);
  }
  if (expectedWinners !== null && rd.zero_winner_reason !== derivedZeroReason)
    payoutProblems.push(
      `$.rank_derivation.zero_winner_reason is ${JSON.stringify(rd.zero_winner_reason)}, the rows give ${JSON.stringify(derivedZeroReason)}`,
    );
  if (expectedWinners === null)
    payoutProblems.push("zero_winner_reason cannot be derived: the selection failed");
  const payoutsFact = factFrom(
    payoutProblems,
    placeAmounts === null || placeAmounts.length === 0
      ? `no winner: the pool ${rd.pool_base_units} returns to the author (${derivedZeroReason})`
      : `place amounts [${placeAmounts.join(", ")}] split pool ${rd.pool_base_units} by [${rd.splits_bps.join(", ")}]`,
  );

  // ---- values (recomputed)
  const order = ranked ?? rd.rows;
  const values: VerificationValues = {
    pack_hash: recomputedPackHash,
    commit_root: recomputedRoot,
    leaf_count: n,
    ranking_digest: recomputedRankingDigest,
    ranked_agents: order.map((r) => r.agent_id),
    score_composites: order.map((r) => recomputedComposite.get(r) ?? r.score_composite),
    winners: (expectedWinners ?? []).map((r) => r.agent_id),
    place_amounts_base_units: derivedPlaceAmounts.map(String),
    zero_winner_reason: derivedZeroReason,
    receipt_hashes: order.map((r) => recomputedByRun.get(r.run_id) ?? r.receipt_hash.toLowerCase()),
  };

  const allReceiptHashes = new Set<string>();
  for (const w of view.winners) allReceiptHashes.add(w.receipt_hash.toLowerCase());
  for (const r of rd.rows) allReceiptHashes.add(r.receipt_hash.toLowerCase());

  return {
    facts: {
      schema: schemaFact,
      pack_hash: packHashFact,
      commitment_root: commitmentRootFact,
      leaf_count: leafCountFact,
      ranking_digest: rankingDigestFact,
      digest_chain: digestChainFact,
      receipt_hashes: receiptHashesFact,
      regrade: regradeFact,
      composite: compositeFact,
      ordering: orderingFact,
      selection: selectionFact,
      payouts: payoutsFact,
    },
    values,
    derived: {
      commitRoot: recomputedRoot,
      packHash: recomputedPackHash,
      rankingDigest: recomputedRankingDigest,
      receiptHashes: [...allReceiptHashes],
    },
  };
}
