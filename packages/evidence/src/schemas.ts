/**
 * `spec/SPEC.md` section 8 (and the format rules of sections 2, 4, 6): zod schemas for every block
 * of the award evidence pack. Objects are strict (an unknown key fails), so a
 * value that breaks a format rule (an upper-case digest, a score without 4
 * decimals, a number where a string is due) fails the `schema` fact.
 *
 * The schemas validate parsed JSON ({@link parseJson} output: big integers
 * as `bigint`, floats as {@link JsonFloat}); they never transform values.
 * @packageDocumentation
 */
import { z } from "zod";
import { EvidenceError, describeValue, formatPath, type PathSegment } from "./errors.js";
import {
  ADDRESS,
  BARE_HEX64,
  DIGEST,
  FRACTION_STRING,
  PLAIN_DECIMAL,
  SCORE4,
  SECONDS3,
  UINT_STRING,
  USDC6,
  isIsoMsZ,
} from "./formats.js";
import { Fraction } from "./fraction.js";
import { GRADER_TYPE_NAMES } from "./graders.js";
import type { JsonValue } from "./json/index.js";
import { RECEIPT_SCHEMA } from "./receipts.js";

const digest = z.string().regex(DIGEST, 'must be "0x" + 64 lowercase hex characters');
const bareHex64 = z.string().regex(BARE_HEX64, "must be 64 lowercase hex characters without 0x");
const address = z.string().regex(ADDRESS, 'must be a lowercase "0x" address (40 hex characters)');
const score4 = z
  .string()
  .regex(SCORE4, 'must be a decimal string with exactly 4 decimal places (e.g. "0.5000")');
const seconds3 = z
  .string()
  .regex(SECONDS3, 'must be a decimal string with exactly 3 decimal places (e.g. "12.345")');
const usdc6 = z
  .string()
  .regex(USDC6, 'must be a USDC decimal string with exactly 6 decimal places (e.g. "0.012075")');
const plainDecimal = z.string().regex(PLAIN_DECIMAL, 'must be a plain decimal string (e.g. "0.3")');
const uintString = z
  .string()
  .regex(UINT_STRING, 'must be a non-negative integer as a decimal string (e.g. "50000000")');
const isoMsZ = z
  .string()
  .refine(
    isIsoMsZ,
    'must be an ISO-8601 UTC instant with milliseconds and "Z" (e.g. "2026-03-01T09:05:00.000Z")',
  );
const uint = z.number().int("must be an integer").nonnegative("must be >= 0");
const posInt = z.number().int("must be an integer").positive("must be > 0");
const nonEmpty = z.string().min(1, "must be a non-empty string");
const visibility = z.enum(["public", "private"]);
const reducedFraction = z
  .string()
  .regex(FRACTION_STRING, 'must be a fraction string such as "2/3"')
  // zod runs every check of a string even when an earlier one failed: a value that is not
  // "n/d" at all is the regex's issue alone (this check must never parse it)
  .refine((s) => {
    const m = FRACTION_STRING.exec(s);
    return m === null || new Fraction(BigInt(m[1] as string), BigInt(m[2] as string)).toString() === s;
  }, 'must be a reduced fraction (e.g. "2/3", "1/1", "0/1")');
const jsonValue = z.custom<JsonValue>((v) => v !== undefined, "is required");

/** `{registry_address, tx_hash, anchor_block}`: where a digest was anchored (SPEC 8). */
export const anchorSchema = z.strictObject({
  registry_address: address,
  tx_hash: digest,
  anchor_block: uint,
});

/** One test-set row (SPEC 3), revealed whole in the pack. */
export const testSetRowSchema = z.strictObject({
  ordinal: uint,
  prompt: z.string(),
  gold: jsonValue,
  salt: bareHex64,
  visibility,
  grader_type: z.enum(GRADER_TYPE_NAMES),
});

/** One task of a receipt (SPEC 4). */
export const receiptTaskSchema = z.strictObject({
  ordinal: uint,
  bank_ordinal: uint,
  prompt_hash: bareHex64,
  visibility,
  answer_digest: digest.nullable(),
  credit: reducedFraction.nullable(),
});

/** The receipt's fields but `tasks`. */
const receiptHeaderShape = {
  schema: z.literal(RECEIPT_SCHEMA),
  run_id: nonEmpty,
  benchmark_slug: nonEmpty,
  commit_root: digest,
  agent_id: nonEmpty,
  attempt: posInt,
  started_at: isoMsZ,
  finalized_at: isoMsZ,
  wall_seconds: seconds3,
  queries_used: uint,
  usdc_spent: usdc6,
  score_public: score4,
  score_composite: score4,
};

/** A receipt payload (SPEC 4). */
export const receiptSchema = z.strictObject({
  ...receiptHeaderShape,
  tasks: z.array(receiptTaskSchema),
});

/** One grader description of `benchmark.grader_types`. */
export const graderTypeSchema = z.strictObject({
  gold_shape: z.string(),
  semantics: z.string(),
  examples: z.array(z.strictObject({ gold: jsonValue, answer: z.string(), credit: reducedFraction })),
});

// ---------------------------------------------------------------------------
// Fast acceptance of the large arrays
// ---------------------------------------------------------------------------
//
// A pack's bulk is three arrays (test-set rows, receipt tasks, revealed answers) of up to
// 100,000s of small objects each. The predicates below accept an element only when the zod
// schema above accepts it too (same formats, strict key sets); they never reject for a
// different reason, because a rejection only sends the whole pack to the zod schemas, which
// then decide and word every problem. So they change speed, never a verdict or a message.

const hasOwn = Object.prototype.hasOwnProperty;

/** A plain JSON object with exactly `n` enumerable keys (own or inherited: any extra one fails). */
function isObjectWithKeys(v: unknown, n: number): v is Record<string, unknown> {
  if (
    typeof v !== "object" ||
    v === null ||
    Array.isArray(v) ||
    Object.getPrototypeOf(v) !== Object.prototype
  )
    return false;
  let count = 0;
  for (const _ in v) count++;
  return count === n;
}

const isUint = (v: unknown): boolean => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isVisibility = (v: unknown): boolean => v === "public" || v === "private";
const isBareHex64 = (v: unknown): boolean => typeof v === "string" && BARE_HEX64.test(v);
const isReducedFraction = (v: unknown): boolean => {
  if (v === "0/1" || v === "1/1") return true;
  if (typeof v !== "string" || !FRACTION_STRING.test(v)) return false;
  const [n, d] = v.split("/") as [string, string];
  return new Fraction(BigInt(n), BigInt(d)).toString() === v;
};

/** Accepts what {@link receiptTaskSchema} accepts (a subset of it). */
function fastReceiptTask(t: unknown): boolean {
  return (
    isObjectWithKeys(t, 6) &&
    hasOwn.call(t, "ordinal") &&
    isUint(t.ordinal) &&
    hasOwn.call(t, "bank_ordinal") &&
    isUint(t.bank_ordinal) &&
    hasOwn.call(t, "prompt_hash") &&
    isBareHex64(t.prompt_hash) &&
    hasOwn.call(t, "visibility") &&
    isVisibility(t.visibility) &&
    hasOwn.call(t, "answer_digest") &&
    (t.answer_digest === null || (typeof t.answer_digest === "string" && DIGEST.test(t.answer_digest))) &&
    hasOwn.call(t, "credit") &&
    (t.credit === null || isReducedFraction(t.credit))
  );
}

/** Accepts what {@link revealedAnswerSchema} accepts (a subset of it). */
function fastRevealedAnswer(a: unknown): boolean {
  return (
    isObjectWithKeys(a, 3) &&
    hasOwn.call(a, "ordinal") &&
    isUint(a.ordinal) &&
    hasOwn.call(a, "bank_ordinal") &&
    isUint(a.bank_ordinal) &&
    hasOwn.call(a, "answer_text") &&
    typeof a.answer_text === "string"
  );
}

const GRADER_TYPE_SET: ReadonlySet<unknown> = new Set(GRADER_TYPE_NAMES);

/** Accepts what {@link testSetRowSchema} accepts (a subset of it). */
function fastTestSetRow(r: unknown): boolean {
  return (
    isObjectWithKeys(r, 6) &&
    hasOwn.call(r, "ordinal") &&
    isUint(r.ordinal) &&
    hasOwn.call(r, "prompt") &&
    typeof r.prompt === "string" &&
    hasOwn.call(r, "gold") &&
    r.gold !== undefined &&
    hasOwn.call(r, "salt") &&
    isBareHex64(r.salt) &&
    hasOwn.call(r, "visibility") &&
    isVisibility(r.visibility) &&
    hasOwn.call(r, "grader_type") &&
    GRADER_TYPE_SET.has(r.grader_type)
  );
}

/** An array every element of which passes `each` (zod never visits the elements). */
const fastArray = (each: (v: unknown) => boolean) =>
  z.custom<unknown[]>((v) => Array.isArray(v) && v.every((x) => each(x)));

/** The pack's `benchmark` block (SPEC 8). */
export const benchmarkSchema = z.strictObject({
  slug: nonEmpty,
  title: z.string(),
  commit_root: digest,
  leaf_count: posInt,
  chain_id: posInt,
  bounty_contract: address,
  bounty_id: uintString,
  token: address,
  author: address,
  awarder: address,
  pool_base_units: uintString,
  closes_at: uint,
  award_tx: digest,
  award_block: uint,
  ranking_digest: digest,
  commitment_anchor: anchorSchema,
  grader_types: z.record(z.enum(GRADER_TYPE_NAMES), graderTypeSchema),
});

/** A revealed answer of a winner. */
export const revealedAnswerSchema = z.strictObject({
  ordinal: uint,
  bank_ordinal: uint,
  answer_text: z.string(),
});

/** One winner (SPEC 8), place order. */
export const winnerSchema = z.strictObject({
  place: posInt,
  agent_id: nonEmpty,
  withdrawal_address: address,
  amount_base_units: uintString,
  run_id: nonEmpty,
  receipt: receiptSchema,
  receipt_hash: digest,
  answer_salt: bareHex64,
  answers: z.array(revealedAnswerSchema),
});

/** One ranked row of `rank_derivation.rows` (SPEC 8). */
export const rankRowSchema = z.strictObject({
  rank: posInt,
  agent_id: nonEmpty,
  is_author_agent: z.boolean(),
  run_id: nonEmpty,
  receipt_hash: digest,
  receipt_url: z.string().nullable(),
  receipt: receiptSchema.optional(),
  achieved_at: isoMsZ,
  attempts_used: posInt,
  rank_accuracy: score4,
  score_public: score4,
  score_composite: score4,
  wall_seconds: seconds3,
  queries_used: uint,
  usdc_spent: usdc6,
});

/** Payout rule names in a pack: the named rules of SPEC 1.1, or `custom` splits. */
export const PAYOUT_RULE_NAMES = ["winner_take_all", "top_n_split", "custom"] as const;

/** The `rank_derivation` block (SPEC 8): everything the ranking, selection and payouts used. */
export const rankDerivationSchema = z.strictObject({
  speed_weight: plainDecimal,
  cost_weight: plainDecimal,
  time_budget_seconds: posInt,
  cost_budget_usdc: usdc6.nullable(),
  threshold_bps: uint.max(10000, "must be <= 10000"),
  payout_rule: z.enum(PAYOUT_RULE_NAMES),
  splits_bps: z.array(posInt).min(1, "needs at least one place").max(8, "at most 8 places"),
  pool_base_units: uintString,
  place_amounts_base_units: z.array(uintString),
  zero_winner_reason: z.enum(["no_runs", "none_at_or_above_threshold", "only_author_agents"]).nullable(),
  rows: z.array(rankRowSchema),
});

/** The whole award evidence pack (SPEC 8): seven top-level keys. */
export const evidencePackSchema = z.strictObject({
  benchmark: benchmarkSchema,
  test_set: z.array(testSetRowSchema).min(1, "needs at least one row"),
  winners: z.array(winnerSchema).max(8, "at most 8 winners"),
  rank_derivation: rankDerivationSchema,
  pack_hash: digest,
  pack_anchor: anchorSchema.nullable(),
  verify_hints: jsonValue,
});

const fastReceiptSchema = z.strictObject({ ...receiptHeaderShape, tasks: fastArray(fastReceiptTask) });

/**
 * {@link evidencePackSchema} with the three large arrays checked by the fast predicates
 * above: it accepts only packs the full schema accepts. {@link evidencePackProblems} tries it
 * first and runs the full schema only when it fails (so problems are the full schema's).
 */
const fastEvidencePackSchema = z.strictObject({
  benchmark: benchmarkSchema,
  test_set: fastArray(fastTestSetRow).refine((v) => v.length >= 1),
  winners: z
    .array(
      z.strictObject({
        ...winnerSchema.shape,
        receipt: fastReceiptSchema,
        answers: fastArray(fastRevealedAnswer),
      }),
    )
    .max(8),
  rank_derivation: z.strictObject({
    ...rankDerivationSchema.shape,
    rows: z.array(z.strictObject({ ...rankRowSchema.shape, receipt: fastReceiptSchema.optional() })),
  }),
  pack_hash: digest,
  pack_anchor: anchorSchema.nullable(),
  verify_hints: jsonValue,
});

/**
 * Every problem of a pack against {@link evidencePackSchema}, with its JSON path
 * (`schemaProblems(evidencePackSchema, value)`, faster on a valid pack: its large arrays are
 * checked by plain predicates that accept only what the schema accepts). Never throws.
 */
export function evidencePackProblems(value: unknown): SchemaProblem[] {
  if (fastEvidencePackSchema.safeParse(value).success) return [];
  return schemaProblems(evidencePackSchema, value);
}

/** An anchor record. */
export type Anchor = z.infer<typeof anchorSchema>;
/** A test-set row as the schema sees it. */
export type TestSetRowJson = z.infer<typeof testSetRowSchema>;
/** The `benchmark` block. */
export type Benchmark = z.infer<typeof benchmarkSchema>;
/** One winner entry. */
export type Winner = z.infer<typeof winnerSchema>;
/** One ranked row. */
export type RankRow = z.infer<typeof rankRowSchema>;
/** The `rank_derivation` block. */
export type RankDerivation = z.infer<typeof rankDerivationSchema>;
/** A whole evidence pack. */
export type EvidencePack = z.infer<typeof evidencePackSchema>;

/** One schema problem: the JSON path and what is wrong there. */
export interface SchemaProblem {
  code: "schema";
  path: string;
  message: string;
}

/** The value at `path` inside `value` (own properties only), or undefined when there is none. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (typeof v !== "object" || v === null || !Object.prototype.hasOwnProperty.call(v, key))
      return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function issueMessage(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === "unrecognized_keys")
    return `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
  if (issue.code === "invalid_type") {
    const received = valueAt(value, issue.path);
    if (received === undefined) return `is required (${issue.expected})`;
    return `expected ${issue.expected}, got ${describeValue(received)}`;
  }
  return issue.message;
}

/**
 * Validate a value against a schema and list every problem with its JSON
 * path (`$.winners[2].receipt.tasks[0].ordinal`). Never throws, at any nesting
 * depth: the value found is read back by the issue's path, not reported by zod
 * (`reportInput` puts it in the issue, and zod's error then stringifies every issue
 * recursively: a 3,000-deep array where a string is due overflowed the stack, probeD2 F1).
 * @param root path prefix for the value (default `$`)
 */
export function schemaProblems(schema: z.ZodType, value: unknown, root = "$"): SchemaProblem[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  return r.error.issues.map((issue) => ({
    code: "schema" as const,
    path: formatPath(issue.path as PathSegment[], root),
    message: issueMessage(issue, value),
  }));
}

/**
 * Validate and return the value typed (the original object, untouched).
 * @throws EvidenceError `schema` naming the first offending path (and how many more there are)
 */
export function assertSchema<T extends z.ZodType>(schema: T, value: unknown, root = "$"): z.infer<T> {
  const problems = schemaProblems(schema, value, root);
  const first = problems[0];
  if (first !== undefined) {
    const more =
      problems.length > 1
        ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})`
        : "";
    throw new EvidenceError("schema", first.path, `${first.message}${more}`);
  }
  return value as z.infer<T>;
}
