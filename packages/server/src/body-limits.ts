/**
 * What a JSON request body may cost to parse (issue 13, re-probe O3): a body of 300,000 distinct keys
 * under the 4 MiB body limit blocked the event loop for 3-5 s. Every body but a dataset's is small
 * when valid, so its bytes, its nesting and its objects' and arrays' sizes are bounded here, and the
 * strict parser counts them while parsing: it stops at the first member, item or level over the limit,
 * never building the rest. Dataset bodies are parsed in a worker thread (`dataset-check.ts`) within
 * {@link DATASET_BODY} (only their distinct member names are bounded here: their rows are checked by
 * the platform's dataset limits).
 */
import { MAX_JSON_DEPTH } from "@bench-bounty/evidence";
import { MAX_DATASET_ROWS, MAX_ROW_OBJECT_MEMBERS } from "@bench-bounty/platform";

/** The shape limits of one kind of JSON request body. */
export interface BodyLimits {
  /** Most bytes of the body (over it: 413 `body_too_large`, `details.limit_bytes`). */
  bytes: number;
  /** Deepest nesting of objects and arrays (413, `details.reason: "nesting_too_deep"`). */
  maxDepth: number;
  /** Most members of one object (413, `details.reason: "too_many_members"`). */
  maxMembers: number;
  /** Most items of one array (413, `details.reason: "too_many_items"`). */
  maxItems: number;
  /**
   * Most values of the whole body: members of all its objects and items of all its arrays together
   * (413, `details.reason: "too_many_values"`). Many objects each under `maxMembers` (probe 7 N1:
   * 1,236 objects of 255 distinct keys, 3.7 MB) cost what this many values cost.
   */
  maxValues: number;
  /**
   * Most DISTINCT member names of the whole body (413, `details.reason: "too_many_key_names"`).
   * A body's parse cost is mostly its distinct names (each new one a new object shape for the
   * engine), not its value count: probe 7 N1's 1,175 objects of 255 distinct names (under
   * `maxValues`) parsed in ~4x the time of the same objects with one set of 255 names, and a
   * submission of them took 1.2 s of event loop before its 422. Every schema but a dataset's has a
   * handful of names.
   */
  maxKeyNames: number;
}

/**
 * Every REST body but the submissions' and the datasets': accounts, agents, runs, publish options,
 * bounties, relayed claims (the largest valid one, a publish body, is a few KiB).
 */
export const SMALL_BODY: BodyLimits = Object.freeze({
  bytes: 64 * 1024,
  maxDepth: 32,
  maxMembers: 256,
  maxItems: 10_000,
  // 64 KiB hold at most ~32,768 values ("0," each): the bytes bound these already.
  maxValues: 32_768,
  // the schemas have a few dozen names in all (unknown members are refused 422 by name)
  maxKeyNames: 256,
});

/**
 * Every `/mcp` message of a caller without an API key: the {@link SMALL_BODY} limits (64 KiB, ...).
 * Without a key only the public tools may be called (`register`, `benchmark_list`,
 * `benchmark_detail`, ...: a few small arguments each; a batch of 100 `tools/list` is ~5 KiB), never
 * `benchmark_submit_answers`, so the large answers body is for keyed callers ({@link ANSWERS_BODY}).
 */
export const MCP_ANONYMOUS_BODY: BodyLimits = SMALL_BODY;

/**
 * The most values a legitimate answers body holds: a submission of a run's largest task count
 * ({@link MAX_DATASET_ROWS}), each answer an item of two members (`ordinal`, `answer_text`: 3
 * values), plus 1,024 for the envelope (`answers`, an MCP `tools/call`'s `jsonrpc`, `id`,
 * `params`, `name`, `arguments`, `run_id`, ...): 301,024.
 */
export const MAX_ANSWERS_BODY_VALUES = 3 * MAX_DATASET_ROWS + 1_024;

/**
 * A body that may carry a whole run's answers: REST `POST /benchmarks/runs/:run_id/submissions` and
 * every `/mcp` message (the `benchmark_submit_answers` tool). Its bytes are the app's ordinary body
 * limit (`limits.bodyBytes`, 4 MiB by default); a run has at most one task per dataset row, so an
 * `answers` array holds at most {@link MAX_DATASET_ROWS} items (the platform refuses more than the
 * run's own task count); an MCP batch holds at most 100 messages (the SDK's limit); the body's values in all at most
 * {@link MAX_ANSWERS_BODY_VALUES}.
 */
export const ANSWERS_BODY: BodyLimits = Object.freeze({
  bytes: Infinity,
  maxDepth: 32,
  maxMembers: 256,
  maxItems: MAX_DATASET_ROWS,
  maxValues: MAX_ANSWERS_BODY_VALUES,
  // an answers body has `answers`, `ordinal`, `answer_text` and the JSON-RPC envelope's few names
  // (`jsonrpc`, `id`, `method`, `params`, `name`, `arguments`, `run_id`, `_meta`, an initialize's
  // capabilities, ...): 256 distinct names are far more than a valid one holds
  maxKeyNames: 256,
});

/**
 * The most distinct member names of a dataset body: ten names of its own per row at the most rows a
 * dataset may have ({@link MAX_DATASET_ROWS}), 1,000,000. Rows share their names (`decision_ts`,
 * `label`, `payload` and the payload's fields), so a real dataset holds a few dozen to a few thousand;
 * a 64 MiB body of distinct names (~6 million) would otherwise cost its worker thread ~10 s and the
 * memory of as many object shapes.
 */
export const MAX_DATASET_KEY_NAMES = 10 * MAX_DATASET_ROWS;

/**
 * A dataset body (`POST /datasets`, `/datasets/validate`), parsed in the dataset worker thread: its
 * bytes are the app's dataset body limit (`limits.datasetBodyBytes`, checked before), its nesting the
 * parser's own ({@link MAX_JSON_DEPTH}), its arrays' and values' counts left to the platform's dataset
 * limits (rows, fields); its distinct member names are bounded here ({@link MAX_DATASET_KEY_NAMES}),
 * and each object's members by the platform's rule for an object of a row (`MAX_ROW_OBJECT_MEMBERS`,
 * larger than any other object of a valid body): the parser stops at the first wider object, 413
 * naming its path (`$.rows[0].payload`), before building the rest (probe30 B-F5: 25 rows of 40,000
 * payload members, 10.7 MB, held the dataset worker 33 s).
 */
export const DATASET_BODY: BodyLimits = Object.freeze({
  bytes: Infinity,
  maxDepth: MAX_JSON_DEPTH,
  maxMembers: MAX_ROW_OBJECT_MEMBERS,
  maxItems: Infinity,
  maxValues: Infinity,
  maxKeyNames: MAX_DATASET_KEY_NAMES,
});

/**
 * The body limits of an `/mcp` message: {@link ANSWERS_BODY} for a caller with an API key,
 * {@link MCP_ANONYMOUS_BODY} (64 KiB) without one. The one rule, read by the MCP endpoint (its parse)
 * and by the app's body limits (what a body may stream and hold in flight).
 */
export function mcpBodyLimits(keyed: boolean): BodyLimits {
  return keyed ? ANSWERS_BODY : MCP_ANONYMOUS_BODY;
}
