/**
 * What a JSON request body may cost to parse (issue 13, re-probe O3): a body of 300,000 distinct keys
 * under the 4 MiB body limit blocked the event loop for 3-5 s. Every body but a dataset's is small
 * when valid, so its bytes, its nesting and its objects' and arrays' sizes are bounded here, and the
 * strict parser counts them while parsing: it stops at the first member, item or level over the limit,
 * never building the rest. Dataset bodies (`bodyMode: "lossless"`) are not bounded here: their rows
 * are checked by the platform's dataset limits.
 */
import { MAX_DATASET_ROWS } from "@bench-bounty/platform";

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
});

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
});
