/**
 * Reading a parsed evidence pack into the typed view the verifier walks.
 *
 * Two levels, on purpose:
 * - **readable** (this module): every key the walk needs is present with a
 *   JSON type it can read (an object where an object is due, an array where an
 *   array is due, a string or a number where a scalar is due, an integer in
 *   range where an index or count is due), no string longer than the limit.
 *   A pack that is not readable cannot be verified: {@link VerifierInputError}
 *   naming the JSON path, exit code 2.
 * - **format** (the `schema` fact, `@bench-bounty/evidence`'s pack schema):
 *   the exact formats of SPEC 2-8 (lowercase digests, 4-dp scores, decimal
 *   strings where strings are due). A readable pack that breaks a format rule
 *   is still walked: its `schema` fact fails, the other facts are recomputed
 *   and values are compared by value.
 *
 * The raw parsed blocks are kept alongside the view: every hash is taken over
 * the raw values as served, never over this view.
 *
 * Layout: `pack/view.ts` holds the typed view, `pack/fields.ts` the field
 * readers, `pack/limits.ts` the string limit; this module reads a pack and
 * its receipts with them.
 *
 * @packageDocumentation
 */
import { appendPath, isJsonObject, type JsonObject, type JsonValue } from "@bench-bounty/evidence";
import {
  type BenchmarkView,
  type ReceiptTaskView,
  type ReceiptView,
  type AnswerView,
  type WinnerView,
  type RankRowView,
  type RankDerivationView,
  type TestRowView,
  TestRow,
  type PackView,
  PACK_KEYS,
} from "./pack/view.js";
import { type InputLimits, DEFAULT_MAX_STRING_LENGTH, checkLimits } from "./pack/limits.js";
import {
  READABLE_FRACTION,
  get,
  object,
  objField,
  arrField,
  placesField,
  strField,
  nullableStrField,
  intValue,
  intField,
  amountValue,
  amountField,
  decimalValue,
  decimalField,
  creditField,
  boolField,
  uint256StringField,
  anchorRef,
} from "./pack/fields.js";
export * from "./pack/view.js";
export * from "./pack/limits.js";

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const isIndex = (v: unknown): boolean => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isNullableString = (v: unknown): boolean => v === null || typeof v === "string";

/**
 * True when a parsed receipt task can serve as its own view: every field the walk reads is
 * an own key holding the view's type (what `intField`, `strField`, `nullableStrField` would
 * return unchanged). Such tasks are used as they are, without a copy or a path per task;
 * any other task is read field by field (and a bad one named by its path).
 */
function isTaskView(t: JsonValue): t is JsonObject & ReceiptTaskView {
  return (
    isJsonObject(t) &&
    hasOwn(t, "ordinal") &&
    isIndex(t.ordinal) &&
    hasOwn(t, "bank_ordinal") &&
    isIndex(t.bank_ordinal) &&
    hasOwn(t, "prompt_hash") &&
    typeof t.prompt_hash === "string" &&
    hasOwn(t, "visibility") &&
    typeof t.visibility === "string" &&
    hasOwn(t, "answer_digest") &&
    isNullableString(t.answer_digest) &&
    hasOwn(t, "credit") &&
    (t.credit === null || (typeof t.credit === "string" && READABLE_FRACTION.test(t.credit)))
  );
}

/** As {@link isTaskView}, for a revealed answer. */
function isAnswerView(a: JsonValue): a is JsonObject & AnswerView {
  return (
    isJsonObject(a) &&
    hasOwn(a, "ordinal") &&
    isIndex(a.ordinal) &&
    hasOwn(a, "bank_ordinal") &&
    isIndex(a.bank_ordinal) &&
    hasOwn(a, "answer_text") &&
    typeof a.answer_text === "string"
  );
}

/**
 * Read a receipt payload (SPEC 4) at `path`.
 * @throws VerifierInputError naming the JSON path
 */
export function readReceipt(v: JsonValue, path: string): ReceiptView {
  const o = object(v, path);
  const tasksPath = appendPath(path, "tasks");
  const tasks = arrField(o, "tasks", path).map((t, i): ReceiptTaskView => {
    // the common case: the parsed task already has the view's fields and types
    if (isTaskView(t)) return t;
    const tp = appendPath(tasksPath, i);
    const to = object(t, tp);
    return {
      ordinal: intField(to, "ordinal", tp),
      bank_ordinal: intField(to, "bank_ordinal", tp),
      prompt_hash: strField(to, "prompt_hash", tp),
      visibility: strField(to, "visibility", tp),
      answer_digest: nullableStrField(to, "answer_digest", tp),
      credit: creditField(to, "credit", tp),
    };
  });
  return {
    raw: o,
    path,
    run_id: strField(o, "run_id", path),
    benchmark_slug: strField(o, "benchmark_slug", path),
    commit_root: strField(o, "commit_root", path),
    agent_id: strField(o, "agent_id", path),
    attempt: intField(o, "attempt", path),
    wall_seconds: decimalField(o, "wall_seconds", path),
    queries_used: intField(o, "queries_used", path),
    usdc_spent: decimalField(o, "usdc_spent", path),
    score_public: decimalField(o, "score_public", path),
    score_composite: decimalField(o, "score_composite", path),
    finalized_at: strField(o, "finalized_at", path),
    tasks,
  };
}

/** Options of {@link readPack}. */
export interface ReadPackOptions {
  limits?: Partial<InputLimits>;
}

/**
 * Read a parsed document as an evidence pack (the readable level, see the module doc).
 * @throws VerifierInputError `wrong_type`, `missing_key`, `out_of_range`, `too_large`, naming the JSON path
 */
export function readPack(doc: JsonValue, options: ReadPackOptions = {}): PackView {
  const limits: InputLimits = {
    maxStringLength: options.limits?.maxStringLength ?? DEFAULT_MAX_STRING_LENGTH,
  };
  const root = object(doc, "$");
  checkLimits(root, limits);
  for (const k of PACK_KEYS) get(root, k, "$");

  const bp = "$.benchmark";
  const b = objField(root, "benchmark", "$");
  const benchmark: BenchmarkView = {
    slug: strField(b, "slug", bp),
    title: strField(b, "title", bp),
    commit_root: strField(b, "commit_root", bp),
    leaf_count: intField(b, "leaf_count", bp),
    chain_id: intField(b, "chain_id", bp),
    bounty_contract: strField(b, "bounty_contract", bp),
    bounty_id: uint256StringField(b, "bounty_id", bp),
    token: strField(b, "token", bp),
    author: strField(b, "author", bp),
    awarder: strField(b, "awarder", bp),
    pool_base_units: amountField(b, "pool_base_units", bp),
    closes_at: intField(b, "closes_at", bp),
    award_tx: strField(b, "award_tx", bp),
    award_block: intField(b, "award_block", bp),
    ranking_digest: strField(b, "ranking_digest", bp),
    commitment_anchor: anchorRef(get(b, "commitment_anchor", bp), appendPath(bp, "commitment_anchor")),
  };
  get(b, "grader_types", bp);

  const tp = "$.test_set";
  const test_set = arrField(root, "test_set", "$").map((r, i): TestRowView => {
    if (isJsonObject(r)) {
      const { ordinal, prompt, gold, salt, visibility, grader_type } = r;
      if (
        typeof ordinal === "number" &&
        Number.isSafeInteger(ordinal) &&
        ordinal >= 0 &&
        typeof prompt === "string" &&
        hasOwn(r, "gold") &&
        typeof salt === "string" &&
        typeof visibility === "string" &&
        typeof grader_type === "string"
      )
        // the common case: what the readers below return, without the row's path string
        return new TestRow(i, ordinal, prompt, gold as JsonValue, salt, visibility, grader_type);
    }
    const p = appendPath(tp, i);
    const o = object(r, p);
    return {
      path: p,
      ordinal: intField(o, "ordinal", p),
      prompt: strField(o, "prompt", p),
      gold: get(o, "gold", p),
      salt: strField(o, "salt", p),
      visibility: strField(o, "visibility", p),
      grader_type: strField(o, "grader_type", p),
    };
  });

  const wp = "$.winners";
  const winners = arrField(root, "winners", "$").map((w, i): WinnerView => {
    const p = appendPath(wp, i);
    const o = object(w, p);
    const ap = appendPath(p, "answers");
    return {
      path: p,
      place: intField(o, "place", p, 1),
      agent_id: strField(o, "agent_id", p),
      withdrawal_address: strField(o, "withdrawal_address", p),
      amount_base_units: amountField(o, "amount_base_units", p),
      run_id: strField(o, "run_id", p),
      receipt: readReceipt(get(o, "receipt", p), appendPath(p, "receipt")),
      receipt_hash: strField(o, "receipt_hash", p),
      answer_salt: strField(o, "answer_salt", p),
      answers: arrField(o, "answers", p).map((a, j): AnswerView => {
        // the common case: the parsed answer already has the view's fields and types
        if (isAnswerView(a)) return a;
        const aap = appendPath(ap, j);
        const ao = object(a, aap);
        return {
          ordinal: intField(ao, "ordinal", aap),
          bank_ordinal: intField(ao, "bank_ordinal", aap),
          answer_text: strField(ao, "answer_text", aap),
        };
      }),
    };
  });

  const rp = "$.rank_derivation";
  const rd = objField(root, "rank_derivation", "$");
  const rowsPath = appendPath(rp, "rows");
  const costBudget = get(rd, "cost_budget_usdc", rp);
  const rank_derivation: RankDerivationView = {
    speed_weight: decimalField(rd, "speed_weight", rp),
    cost_weight: decimalField(rd, "cost_weight", rp),
    time_budget_seconds: intField(rd, "time_budget_seconds", rp, 1),
    cost_budget_usdc:
      costBudget === null ? null : decimalValue(costBudget, appendPath(rp, "cost_budget_usdc")),
    threshold_bps: intField(rd, "threshold_bps", rp),
    payout_rule: strField(rd, "payout_rule", rp),
    splits_bps: placesField(rd, "splits_bps", rp).map((s, i) =>
      intValue(s, appendPath(appendPath(rp, "splits_bps"), i)),
    ),
    pool_base_units: amountField(rd, "pool_base_units", rp),
    place_amounts_base_units: placesField(rd, "place_amounts_base_units", rp).map((a, i) =>
      amountValue(a, appendPath(appendPath(rp, "place_amounts_base_units"), i)),
    ),
    zero_winner_reason: nullableStrField(rd, "zero_winner_reason", rp),
    rows: arrField(rd, "rows", rp).map((r, i): RankRowView => {
      const p = appendPath(rowsPath, i);
      const o = object(r, p);
      const hasReceipt = Object.prototype.hasOwnProperty.call(o, "receipt") && o.receipt !== null;
      const url = Object.prototype.hasOwnProperty.call(o, "receipt_url")
        ? nullableStrField(o, "receipt_url", p)
        : null;
      return {
        path: p,
        rank: intField(o, "rank", p, 1),
        agent_id: strField(o, "agent_id", p),
        is_author_agent: boolField(o, "is_author_agent", p),
        run_id: strField(o, "run_id", p),
        receipt_hash: strField(o, "receipt_hash", p),
        receipt_url: url,
        receipt: hasReceipt ? readReceipt(o.receipt as JsonValue, appendPath(p, "receipt")) : null,
        achieved_at: strField(o, "achieved_at", p),
        attempts_used: intField(o, "attempts_used", p),
        rank_accuracy: decimalField(o, "rank_accuracy", p),
        score_public: decimalField(o, "score_public", p),
        score_composite: decimalField(o, "score_composite", p),
        wall_seconds: decimalField(o, "wall_seconds", p),
        queries_used: intField(o, "queries_used", p),
        usdc_spent: decimalField(o, "usdc_spent", p),
        raw: o,
      };
    }),
  };

  return {
    raw: root,
    benchmark,
    test_set,
    winners,
    rank_derivation,
    pack_hash: strField(root, "pack_hash", "$"),
    pack_anchor: anchorRef(get(root, "pack_anchor", "$"), "$.pack_anchor"),
  };
}
