/**
 * Datasets (seed "Publish a Benchmark from Your Data", step 1): validation of labelled rows, the
 * `sanitize` / `bucket_fields` / `time_bound_fields` options, row hashes and the content hash.
 *
 * A row is `{decision_ts, payload, label, knowable_at?}`:
 * - `decision_ts`: the instant the prediction is made (strict ISO-8601, see {@link parseInstant});
 * - `payload`: a non-empty JSON object, what the prompt shows;
 * - `label`: any non-null JSON value, what the grader checks (gold is shaped from it at publish time);
 * - `knowable_at`: optional `{payload_field: instant}`; an entry later than `decision_ts` is a leak and
 *   is refused; every field named in `time_bound_fields` must have an entry at or before `decision_ts`.
 *
 * Validation is pure and persists nothing (the dry run); errors are row-numbered and sorted so that the
 * first one names the LOWEST offending `row_index` and its field.
 */
import {
  GOLD_DEPTH_IN_PACK,
  appendPath,
  shortenPath,
  canonicalHash,
  firstLongNonStarterRun,
  nonStarterRunText,
  valueLimitProblems,
  type Hex,
  type NonStarterRun,
} from "@bench-bounty/evidence";
import { PlatformError, throwRowIssues, type RowIssue } from "./errors.js";
import { unkeptNumberError } from "./gold.js";
import { assertWellFormedText } from "./utf8.js";
import { textTooLong } from "./text-limits.js";
import { controlCharacterProblem, terminalText } from "./terminal.js";
import {
  isJsonFloat,
  isJsonObject,
  jsonTypeName,
  setOwn,
  toJsonValue,
  type JsonObject,
  type JsonValue,
} from "./json.js";
import { BUCKET_UNITS, INSTANT_FORM, bucketInstant, parseInstant, type BucketUnit } from "./time.js";

/** One dataset row as stored after validation (sanitized and bucketed when asked). */
export interface DatasetRow extends JsonObject {
  decision_ts: string;
  payload: JsonObject;
  label: JsonValue;
}

/** A dataset upload (the body of `POST /datasets` in the seed). */
export interface DatasetInput {
  /** Name of the dataset (non-empty; the default benchmark slug is derived from it). */
  name: string;
  description?: string;
  /** Free text describing how labels were produced. */
  label_policy?: string;
  /** When true, strings in payload and label are NFC-normalised, stripped of control characters and trimmed. */
  sanitize?: boolean;
  /** `{payload_field: unit}`: timestamp fields floored to `minute` | `hour` | `day` | `month` (UTC). */
  bucket_fields?: Record<string, BucketUnit>;
  /** Payload fields that must be knowable at `decision_ts` (each row needs a `knowable_at` entry <= decision_ts). */
  time_bound_fields?: string[];
  /** The rows: `{decision_ts, payload, label, knowable_at?}`. */
  rows: unknown[];
}

/** The members of a dataset document ({@link DatasetInput}); any other is refused by name. */
export const DATASET_MEMBERS = [
  "name",
  "description",
  "label_policy",
  "sanitize",
  "bucket_fields",
  "time_bound_fields",
  "rows",
] as const satisfies readonly (keyof DatasetInput)[];

/** A validated dataset: normalised rows, their hashes and the content hash. */
export interface ValidatedDataset {
  name: string;
  description: string | null;
  label_policy: string | null;
  sanitize: boolean;
  bucket_fields: Record<string, BucketUnit>;
  time_bound_fields: string[];
  rows: DatasetRow[];
  /** `row_hashes[i] = keccak256(canonical_json(rows[i]))` (0x hex). */
  row_hashes: Hex[];
  /**
   * `keccak256(canonical_json(sorted row_hashes))`: the same rows give the same hash in any order. The
   * dataset's identity (dedupe, dataset id), shown to its owner only: it covers the labels, so nothing
   * served to anyone else is derived from it or from `row_hashes` (SPEC 6.1; the bank and the default
   * slug use prompt hashes, see `publish.ts`).
   */
  content_hash: Hex;
}

/** Result of the dry-run {@link checkDataset}. */
export interface DatasetReport {
  ok: boolean;
  row_count: number;
  /** Present when `ok`. */
  content_hash: Hex | null;
  /**
   * Sorted by `(row_index, field)`; option-level problems use `row_index: -1`. At most
   * {@link MAX_REPORT_ERRORS} (probe18 F8: one per row x missing field made a 26 KB body a 36 MB answer).
   */
  errors: RowIssue[];
  /** How many problems were found (more than `errors` holds when `truncated`). */
  errors_total: number;
  /**
   * Present when `errors` is cut to {@link MAX_REPORT_ERRORS}, or the check stopped after
   * {@link MAX_COLLECTED_ISSUES} problems (then `errors_total` is a lower bound).
   */
  truncated?: true;
}

/** Most problems a dry run lists ({@link DatasetReport.errors}). */
export const MAX_REPORT_ERRORS = 100;
/** Problems after which the rows are no longer checked (each row may add its own few more). */
export const MAX_COLLECTED_ISSUES = 1_000;
/** Most entries of `bucket_fields` and of `time_bound_fields`. */
export const MAX_FIELD_RULES = 100;

/** Most rows accepted in one dataset. */
export const MAX_DATASET_ROWS = 100_000;

/**
 * The one rule for a dataset's row count ({@link MAX_DATASET_ROWS}), for a whole list of rows (the
 * validator) and for a loader that counts rows while it reads (the CSV loader stops at row
 * `MAX_DATASET_ROWS + 1` rather than reading the rest, probe28 B-F8).
 * @param count the rows counted (the whole list, or those read so far)
 * @param stopped true when reading stopped at `count` (the file may hold more)
 * @returns an issue on field `rows` naming the limit and the count, or null when `count` is within it
 */
export function rowCountIssue(count: number, stopped: boolean): RowIssue | null {
  if (count <= MAX_DATASET_ROWS) return null;
  return optionIssue(
    "rows",
    `at most ${MAX_DATASET_ROWS} rows per dataset (MAX_DATASET_ROWS; ` +
      (stopped ? `reading stopped at row ${count})` : `got ${count})`),
  );
}

/**
 * Deepest nesting of objects and arrays in one row, the row object counting as level 1 (so a
 * `label` or `payload` value may nest 62 levels below its own). Far inside the pack's limit
 * (`PACK_LIMITS.maxDepth`, 10,000, with {@link GOLD_DEPTH_IN_PACK} levels above a row's values), so
 * whatever is accepted here a verifier reads; and the row checks, the sanitizer and the graders walk a
 * value recursively, which at ~1,000 levels overflowed the stack (re-probe 6 O8). Over it:
 * `nesting_too_deep` naming the path and the limit.
 */
export const MAX_ROW_DEPTH = 64;

/**
 * The path of the first container of `row` at a level over {@link MAX_ROW_DEPTH} (relative:
 * `label[0].a`), or null. Iterative: any depth is measured without recursion.
 */
function pathTooDeep(row: unknown): string | null {
  const stack: { v: unknown; path: string; depth: number }[] = [{ v: row, path: "", depth: 0 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v !== "object" || v === null || isJsonFloat(v)) continue;
    if (depth + 1 > MAX_ROW_DEPTH) return path || "$";
    const entries: [string | number, unknown][] = Array.isArray(v) ? [...v.entries()] : Object.entries(v);
    for (const [k, x] of entries)
      stack.push({
        v: x,
        path: typeof k === "number" ? `${path}[${k}]` : path === "" ? k : `${path}.${k}`,
        depth: depth + 1,
      });
  }
  return null;
}

/**
 * Most members of any one object of a row (the `payload`, `knowable_at`, and every object nested in
 * a `payload` or `label` value): the payload is shown in every prompt, so a real row has a few to a
 * few hundred fields. Every walk over a row (the parser, the text, limit, number and depth checks,
 * the hash) costs more per member the wider an object is (the engine's large dictionaries): a 10.7 MB
 * body of 25 rows of 40,000 payload members held the server's one dataset worker for 33 s, and an
 * 8 MB CSV of 20,000 columns took the CLI 92 s (probe30 B-F5). Over it: `too_many_members` naming the
 * path and the limit ({@link tooManyMembersMessage}), before any other walk of the row; the server's
 * parser stops at the first such object of a body (`DATASET_BODY.maxMembers`), the CSV loader at a
 * header of more payload columns.
 */
export const MAX_ROW_OBJECT_MEMBERS = 1_000;

/**
 * The one rule of {@link MAX_ROW_OBJECT_MEMBERS}: the refusal of an object of `count` members at JSON
 * path `path` (`$.rows[3].payload`, or a CSV's `payload columns`), or null within the limit.
 */
export function tooManyMembersMessage(count: number, path: string): string | null {
  if (count <= MAX_ROW_OBJECT_MEMBERS) return null;
  return `${path} has ${count} members; an object of a row has at most ${MAX_ROW_OBJECT_MEMBERS} (MAX_ROW_OBJECT_MEMBERS)`;
}

/**
 * The first object of row `i` over {@link MAX_ROW_OBJECT_MEMBERS}, as its issue (`too_many_members`
 * on its relative path: `payload`, `label.xs[0]`), or null. Iterative; counts an object's members
 * without walking it twice (its members are walked only when it is within the limit).
 */
function wideObjectIssue(row: unknown, i: number): RowIssue | null {
  const stack: { v: unknown; path: string }[] = [{ v: row, path: "" }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v !== "object" || v === null || isJsonFloat(v)) continue;
    if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--) stack.push({ v: v[k], path: `${path}[${k}]` });
      continue;
    }
    const keys = Object.keys(v);
    const message = tooManyMembersMessage(keys.length, `$.rows[${i}]${path === "" ? "" : `.${path}`}`);
    if (message !== null) return { row_index: i, field: path || "$", code: "too_many_members", message };
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k]!;
      stack.push({ v: (v as Record<string, unknown>)[key], path: path === "" ? key : `${path}.${key}` });
    }
  }
  return null;
}

/** Most numbers not kept as written ({@link unkeptNumberIssues}) listed for one row. */
const MAX_UNKEPT_PER_ROW = 20;

/**
 * Every number of row `i` whose text is not the double it reads as (gold's `unkeptNumberError`, the one
 * rule the publish options follow): `1e-400` would be stored, shown and graded as 0, and
 * `0.1000000000000000055511151231257827` as 0.1 (probe30 A-F3: a numeric gold written so was committed
 * and credited the answer 0). Each is an issue `inexact_number` on its path in the row (`label`,
 * `payload.b`, `payload.xs[2]`), the message naming the JSON path in the body (`$.rows[0].payload.b`)
 * and saying to send a decimal string; a number kept as written in another notation (`1E+2`, `2.50`)
 * and an integer of any size (a bigint, exact) are not. Iterative; at most {@link MAX_UNKEPT_PER_ROW}.
 * @param row the row as a lossless JSON value (a float an evidence `JsonFloat` with its lexeme)
 * @param i the row's index, for the message's path
 */
function unkeptNumberIssues(row: JsonValue, i: number): RowIssue[] {
  const out: RowIssue[] = [];
  const stack: { v: JsonValue; path: string }[] = [{ v: row, path: "" }];
  while (stack.length > 0 && out.length < MAX_UNKEPT_PER_ROW) {
    const { v, path } = stack.pop()!;
    if (isJsonFloat(v)) {
      const message = unkeptNumberError(`$.rows[${i}]${path}`, v.lexeme, v.value);
      if (message !== null)
        out.push({ row_index: i, field: path.replace(/^\./, ""), code: "inexact_number", message });
    } else if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--) stack.push({ v: v[k]!, path: appendPath(path, k) });
    } else if (isJsonObject(v)) {
      const entries = Object.entries(v);
      for (let k = entries.length - 1; k >= 0; k--)
        stack.push({ v: entries[k]![1], path: appendPath(path, entries[k]![0]) });
    }
  }
  return out;
}

const ROW_KEYS = new Set(["decision_ts", "payload", "label", "knowable_at"]);
// C0 controls except TAB and LF, DEL, and C1 controls.
const CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The `sanitize` transformation of one string: NFC, control characters removed, trimmed. */
export function sanitizeString(s: string): string {
  return s.normalize("NFC").replace(CONTROL_RE, "").trim();
}

/**
 * The first string of `v` (walked in member order) holding, once its control characters are removed (as
 * {@link sanitizeString} removes them; the offset is in that text), a run of more than `MAX_NON_STARTER_RUN`
 * combining characters (`firstLongNonStarterRun`, the submit's and publish's rule), with its field path
 * under `field`, or null.
 */
function longCombiningRunIn(v: JsonValue, field: string): { field: string; run: NonStarterRun } | null {
  if (typeof v === "string") {
    // as sanitize leaves it: control characters between marks are removed, joining the runs (probe36 V-F11)
    const run = firstLongNonStarterRun(v.replace(CONTROL_RE, ""));
    return run === null ? null : { field, run };
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = longCombiningRunIn(v[i]!, appendPath(field, i));
      if (found !== null) return found;
    }
    return null;
  }
  if (isJsonObject(v))
    for (const [k, x] of Object.entries(v)) {
      const found = longCombiningRunIn(x, appendPath(field, k));
      if (found !== null) return found;
    }
  return null;
}

function sanitizeValue(v: JsonValue): JsonValue {
  if (typeof v === "string") return sanitizeString(v);
  if (Array.isArray(v)) return v.map(sanitizeValue);
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) {
      setOwn(out, k, sanitizeValue(x));
    }
    return out;
  }
  return v;
}

function optionIssue(field: string, message: string, code = "invalid_option"): RowIssue {
  return { row_index: -1, field, code, message };
}

/**
 * Dry run: validates a dataset and reports every problem, persisting nothing.
 * @returns the report (never throws for bad rows; throws only when `input` is not an object)
 */
export function checkDataset(input: unknown): DatasetReport {
  try {
    const v = validateDataset(input);
    return { ok: true, row_count: v.rows.length, content_hash: v.content_hash, errors: [], errors_total: 0 };
  } catch (e) {
    if (e instanceof PlatformError && e.code === "invalid_dataset") {
      const all = (e.details.errors as RowIssue[] | undefined) ?? [refusalAsIssue(e)];
      const rows = isJsonObject(input as JsonValue) && Array.isArray((input as { rows?: unknown }).rows);
      const truncated = all.length > MAX_REPORT_ERRORS || e.details.stopped === true;
      return {
        ok: false,
        row_count: rows ? (input as { rows: unknown[] }).rows.length : 0,
        content_hash: null,
        errors: all.slice(0, MAX_REPORT_ERRORS),
        errors_total: all.length,
        ...(truncated ? { truncated: true as const } : {}),
      };
    }
    throw e;
  }
}

/**
 * A dataset refusal that is not a list of row issues (the text rule's, {@link assertWellFormedText}:
 * `details {path, reason}`) as the one issue of a dry run's report, so `ok: false` always says where
 * and why (probe17 A-F1/B-F1: the report's list was empty).
 */
function refusalAsIssue(e: PlatformError): RowIssue {
  const path = typeof e.details.path === "string" ? e.details.path : "$";
  const inRow = /^\$\.rows\[(\d+)\]\.?(.*)$/.exec(path);
  const code = typeof e.details.reason === "string" ? e.details.reason : e.code;
  if (inRow !== null)
    return { row_index: Number(inRow[1]), field: inRow[2] || "$", code, message: e.message };
  return { row_index: -1, field: path.replace(/^\$\.?/, "") || "$", code, message: e.message };
}

/**
 * Validates and normalises a dataset.
 * @throws PlatformError `invalid_dataset` whose message names the lowest offending row index and field,
 *   with all issues in `details.errors`
 */
export function validateDataset(input: unknown): ValidatedDataset {
  const issues: RowIssue[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new PlatformError("invalid_dataset", "dataset: expected an object {name, rows, ...}", {
      field: "$",
    });
  }
  assertWellFormedText(input, "$", "invalid_dataset"); // names, rows, keys: no lone surrogate
  const d = input as Record<string, unknown>;
  // a member the document does not have is refused by name, never dropped (probe33 B-F13: a mistyped
  // `descripton` was silently lost by validate and publish of a JSON file)
  for (const key of Object.keys(d))
    if (!(DATASET_MEMBERS as readonly string[]).includes(key))
      issues.push(
        optionIssue(
          key,
          `${shortenPath(terminalText(appendPath("$", key)))} is not a member of a dataset (its members: ${DATASET_MEMBERS.join(", ")})`,
          "unknown_member",
        ),
      );
  const name = typeof d.name === "string" ? d.name.trim() : "";
  if (name === "") issues.push(optionIssue("name", "name is required (a non-empty string)"));
  // a name is one line of plain text, printed by lists and the CLI: a character a terminal acts on or
  // that hides or reorders text (ESC, a newline, U+202E; evidence's one definition) is refused (probe24)
  const control = controlCharacterProblem("name", name);
  if (control !== null) issues.push(optionIssue("name", control));
  for (const key of ["description", "label_policy"] as const) {
    if (d[key] !== undefined && d[key] !== null && typeof d[key] !== "string") {
      issues.push(optionIssue(key, `${key} must be a string`));
    } else if (typeof d[key] === "string") {
      // free text shown to others: lines and tabs kept, nothing a terminal acts on (probe25 B-F3)
      const problem = controlCharacterProblem(key, d[key] as string, { multiline: true });
      if (problem !== null) issues.push(optionIssue(key, problem));
    }
  }
  for (const [field, text] of [
    ["name", name],
    ["description", d.description],
    ["label_policy", d.label_policy],
  ] as const) {
    const tooLong = typeof text === "string" ? textTooLong(field, text) : null;
    if (tooLong) issues.push(optionIssue(field, tooLong.message, "text_too_long"));
  }
  if (d.sanitize !== undefined && typeof d.sanitize !== "boolean")
    issues.push(optionIssue("sanitize", "sanitize must be true or false"));
  const sanitize = d.sanitize === true;

  const bucket: Record<string, BucketUnit> = {};
  if (d.bucket_fields !== undefined && d.bucket_fields !== null) {
    if (typeof d.bucket_fields !== "object" || Array.isArray(d.bucket_fields)) {
      issues.push(optionIssue("bucket_fields", "bucket_fields must be an object {payload_field: unit}"));
    } else {
      for (const [f, unit] of Object.entries(d.bucket_fields as Record<string, unknown>)) {
        if (!(BUCKET_UNITS as readonly unknown[]).includes(unit)) {
          issues.push(optionIssue(`bucket_fields.${f}`, `unit must be one of ${BUCKET_UNITS.join(", ")}`));
        } else setOwn(bucket, f, unit as BucketUnit);
      }
    }
  }
  for (const key of ["bucket_fields", "time_bound_fields"] as const) {
    const rules = d[key];
    const count = Array.isArray(rules)
      ? rules.length
      : isJsonObject(rules as JsonValue)
        ? Object.keys(rules as object).length
        : 0;
    if (count > MAX_FIELD_RULES)
      issues.push(
        optionIssue(key, `${key} has ${count} entries; at most ${MAX_FIELD_RULES} (MAX_FIELD_RULES)`),
      );
  }
  const timeBound: string[] = [];
  if (d.time_bound_fields !== undefined && d.time_bound_fields !== null) {
    if (
      !Array.isArray(d.time_bound_fields) ||
      d.time_bound_fields.some((f) => typeof f !== "string" || f === "")
    ) {
      issues.push(
        optionIssue("time_bound_fields", "time_bound_fields must be a list of payload field names"),
      );
    } else timeBound.push(...(d.time_bound_fields as string[]));
  }
  if (!Array.isArray(d.rows) || d.rows.length === 0) {
    issues.push(optionIssue("rows", "rows must be a non-empty list"));
  } else {
    const tooMany = rowCountIssue(d.rows.length, false);
    if (tooMany) issues.push(tooMany);
  }
  throwRowIssues("invalid_dataset", issues, "dataset");

  const rawRows = d.rows as unknown[];
  const rows: DatasetRow[] = [];
  const rowHashes: Hex[] = [];
  const seen = new Map<string, number>();
  let stopped = false;
  rawRows.forEach((raw, i) => {
    if (stopped || issues.length >= MAX_COLLECTED_ISSUES) {
      stopped = true; // the rows past here are not checked: the report says so (`truncated`)
      return;
    }
    const before = issues.length;
    // first, before any walk whose cost per member grows with an object's width (probe30 B-F5)
    const wide = wideObjectIssue(raw, i);
    if (wide !== null) {
      issues.push(wide);
      return;
    }
    // what a verifier reads (evidence's PACK_LIMITS); a row's values sit in the pack where a gold's do
    for (const p of valueLimitProblems(raw, { path: "", depthAbove: GOLD_DEPTH_IN_PACK }))
      issues.push({ row_index: i, field: p.path || "$", code: p.code, message: p.message });
    if (issues.length > before) return;
    const deep = pathTooDeep(raw);
    if (deep !== null) {
      const message = `nesting deeper than ${MAX_ROW_DEPTH} levels (the row counting as level 1; the limit MAX_ROW_DEPTH)`;
      issues.push({ row_index: i, field: deep, code: "nesting_too_deep", message });
      return;
    }
    const row = normaliseRow(raw, i, { sanitize, bucket, timeBound }, issues);
    if (row === null || issues.length > before) return;
    const h = canonicalHash(row);
    const first = seen.get(h);
    if (first !== undefined) {
      issues.push({
        row_index: i,
        field: "$",
        code: "duplicate_row",
        message: `identical to row ${first}; remove the duplicate`,
      });
      return;
    }
    seen.set(h, i);
    rows.push(row);
    rowHashes.push(h);
  });
  throwRowIssues("invalid_dataset", issues, "dataset", stopped ? { stopped: true } : {});
  return {
    name,
    description: typeof d.description === "string" ? d.description : null,
    label_policy: typeof d.label_policy === "string" ? d.label_policy : null,
    sanitize,
    bucket_fields: bucket,
    time_bound_fields: timeBound,
    rows,
    row_hashes: rowHashes,
    content_hash: canonicalHash([...rowHashes].sort()),
  };
}

function normaliseRow(
  raw: unknown,
  i: number,
  opts: { sanitize: boolean; bucket: Record<string, BucketUnit>; timeBound: string[] },
  issues: RowIssue[],
): DatasetRow | null {
  const issue = (field: string, code: string, message: string): void => {
    issues.push({ row_index: i, field, code, message });
  };
  let row: JsonValue;
  try {
    row = toJsonValue(raw);
  } catch (e) {
    issue("$", "not_json", (e as Error).message);
    return null;
  }
  if (!isJsonObject(row)) {
    issue("$", "not_object", "a row must be an object {decision_ts, payload, label, knowable_at?}");
    return null;
  }
  issues.push(...unkeptNumberIssues(row, i));
  for (const k of Object.keys(row)) {
    if (!ROW_KEYS.has(k))
      issue(
        k,
        "unknown_field",
        `unknown row field ${JSON.stringify(k)} (allowed: decision_ts, payload, label, knowable_at)`,
      );
  }
  // decision_ts
  let decisionMs: number | null = null;
  const dts = row.decision_ts;
  if (dts === undefined)
    issue("decision_ts", "missing", "decision_ts is required (ISO-8601, e.g. 2026-09-01T00:00:00Z)");
  else if (typeof dts !== "string" || (decisionMs = parseInstant(dts)) === null) {
    issue(
      "decision_ts",
      "not_iso_timestamp",
      `decision_ts must be an ISO-8601 instant with a zone (${INSTANT_FORM})`,
    );
  }
  // payload
  let payload = row.payload;
  if (payload === undefined)
    issue("payload", "missing", "payload is required (an object: what the prompt shows)");
  else if (!isJsonObject(payload))
    issue("payload", "not_object", `payload must be an object, got ${jsonTypeName(payload)}`);
  else if (Object.keys(payload).length === 0)
    issue("payload", "empty", "payload must have at least one field");
  // label
  let label = row.label;
  if (label === undefined || label === null)
    issue("label", "missing", "label is required (what the grader checks)");
  // knowable_at
  // payload field -> its knowable_at instant (ms); a Map: a field may be named `constructor` (probe27 B-F3)
  const knowable = new Map<string, number>();
  const ka = row.knowable_at;
  if (ka !== undefined && ka !== null) {
    if (!isJsonObject(ka))
      issue("knowable_at", "not_object", "knowable_at must be an object {payload_field: instant}");
    else {
      for (const [f, t] of Object.entries(ka)) {
        const ms = typeof t === "string" ? parseInstant(t) : null;
        if (ms === null) {
          issue(
            `knowable_at.${f}`,
            "not_iso_timestamp",
            `must be an ISO-8601 instant with a zone (${INSTANT_FORM})`,
          );
          continue;
        }
        if (isJsonObject(payload) && !Object.prototype.hasOwnProperty.call(payload, f)) {
          issue(`knowable_at.${f}`, "unknown_payload_field", `names ${f}, which is not a payload field`);
          continue;
        }
        knowable.set(f, ms);
        if (decisionMs !== null && ms > decisionMs) {
          issue(
            `payload.${f}`,
            "not_knowable",
            `payload.${f} is knowable only at ${t as string}, after decision_ts ${dts as string}: it would leak the future`,
          );
        }
      }
    }
  }
  if (!isJsonObject(payload) || decisionMs === null || label === undefined || label === null) return null;
  for (const f of opts.timeBound) {
    if (!Object.prototype.hasOwnProperty.call(payload, f)) {
      issue(`payload.${f}`, "missing", `time-bound field ${f} is missing from the payload`);
    } else if (!knowable.has(f) && !(isJsonObject(ka) && Object.prototype.hasOwnProperty.call(ka, f))) {
      issue(
        `knowable_at.${f}`,
        "missing",
        `time-bound field ${f} needs a knowable_at entry at or before decision_ts`,
      );
    }
  }
  if (opts.sanitize) {
    // NFC sorts a run of combining characters in time quadratic in its length: such a string is refused
    // before it is normalised (the dataset worker held for minutes by one cell; probe36 A-F9's class)
    const long = longCombiningRunIn(payload, "payload") ?? longCombiningRunIn(label, "label");
    if (long !== null) {
      issue(long.field, "combining_run_too_long", `${long.field} ${nonStarterRunText(long.run)}`);
      return null;
    }
    payload = sanitizeValue(payload) as JsonObject;
    label = sanitizeValue(label);
  }
  for (const [f, unit] of Object.entries(opts.bucket)) {
    if (!Object.prototype.hasOwnProperty.call(payload, f)) {
      issue(`payload.${f}`, "missing", `bucket field ${f} is missing from the payload`);
      continue;
    }
    const v: JsonValue = payload[f]!;
    const ms: number | null = typeof v === "string" ? parseInstant(v) : null;
    if (ms === null) {
      issue(
        `payload.${f}`,
        "not_iso_timestamp",
        `bucket field ${f} must be an ISO-8601 instant, got ${isJsonFloat(v) ? v.lexeme : JSON.stringify(typeof v === "bigint" ? String(v) : v)}`,
      );
      continue;
    }
    payload = { ...payload, [f]: bucketInstant(ms, unit) };
  }
  const out: DatasetRow = { decision_ts: dts as string, payload, label };
  if (isJsonObject(ka)) out.knowable_at = ka;
  return out;
}
