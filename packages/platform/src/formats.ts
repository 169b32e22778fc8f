/**
 * The dataset formats served to authors (seed "Publish a Benchmark from Your Data", `GET
 * /datasets/formats`): the upload's row schema, the publish options, and worked examples that pass
 * `validateDataset` as they are (tested).
 */
import { GRADER_TYPES } from "@bench-bounty/evidence";
import { LEADERBOARD_VISIBILITIES } from "./context.js";
import { TEXT_LIMITS } from "./text-limits.js";

/** The row schema, the publish options and worked examples. */
export function datasetFormats() {
  return {
    upload: {
      name: `string, required: 1-${TEXT_LIMITS.name} characters (after trimming)`,
      description: `string, optional: at most ${TEXT_LIMITS.description} characters`,
      label_policy: `string, optional: how the labels were made, at most ${TEXT_LIMITS.label_policy} characters`,
      sanitize:
        "boolean, optional: NFC-normalise, strip control characters and trim strings (a string with more than 30 combining characters in a row is refused)",
      bucket_fields:
        'object, optional: payload timestamp field -> "minute" | "hour" | "day" | "month" (floored)',
      time_bound_fields:
        "list of payload field names, optional: each must be knowable at decision_ts (knowable_at)",
      rows: "list, required, at least one row",
    },
    row: {
      decision_ts: "string, required: ISO-8601 instant with a zone (2026-09-01T00:00:00Z)",
      payload: "object, required, non-empty: what the prompt shows (rendered into every competitor's task)",
      label: "any JSON value, required: what the grader checks (gold_field picks inside it)",
      knowable_at: "object, optional: payload field -> ISO-8601 instant at or before decision_ts",
    },
    // Every option of POST /datasets/:id/benchmark (PublishOptions), with its values, unit and default.
    publish: {
      title: `string, required: 1-${TEXT_LIMITS.title} characters (after trimming)`,
      prompt_template: "string, required: plain dotted placeholders {payload.field}; none may show the gold",
      grader_type: `one of ${Object.keys(GRADER_TYPES).join(" | ")}, required`,
      gold_field: "dotted path in the row, default label",
      tolerance: "numeric only: number or decimal string >= 0, in the label's unit, default 0",
      alternatives_field: "exact only: dotted path of a list of accepted alternatives",
      public_fraction:
        "0..1, default 0.5: the first round(n * f) rows by prompt_hash (never by a label, SPEC 6.1) become public tasks",
      max_attempts: "integer 1..1000, default 3: attempts per agent",
      time_budget_seconds: "integer seconds >= 1, default 900: the time budget of the speed term (SPEC 6)",
      speed_weight: 'plain decimal string, default "0.3": SPEC 6 weight; speed_weight + cost_weight <= 1',
      cost_weight: 'plain decimal string, default "0": SPEC 6 weight of the cost term',
      cost_budget_usdc:
        'decimal string in USDC with exactly 6 decimals (e.g. "0.500000") or null, default null: no cost term; not 0 when cost_weight > 0',
      public_tasks_per_run:
        "integer >= 1, default all: public tasks drawn (shuffled) per attempt; private tasks are always all served",
      leaderboard_visibility: `one of ${LEADERBOARD_VISIBILITIES.join(" | ")}, default public: buyer_only shows leaderboard rows and receipts to the author only (the award evidence pack stays public)`,
      slug: '^[a-z0-9][a-z0-9-]{1,127}$ but not "runs" (a route of its own), default slugified name + 8 hex of the label-free bank digest',
      seed: "string, optional, tests and demos only: makes the task salts reproducible (anyone knowing it can brute-force private gold); default 32 random bytes per task",
    },
    grader_types: GRADER_TYPES,
    errors:
      "Row-numbered: every problem carries row_index (0-based, as uploaded), field and a fix hint; the message names the LOWEST row, so fixing top-down converges.",
    examples: [
      {
        title: "numeric label (the seed's example)",
        dataset: {
          name: "eth-tip5m-2026-09",
          description: "ETH 1-minute bars with 5-minute-ahead tip labels",
          label_policy: "tip5m_clv+resolve",
          sanitize: true,
          bucket_fields: { bar_ts: "hour" },
          time_bound_fields: ["price"],
          rows: [
            {
              decision_ts: "2026-09-01T00:00:00Z",
              payload: { symbol: "ETH", price: 3000.5, bar_ts: "2026-08-31T23:59:00Z" },
              label: { tip5m_bps: 12 },
              knowable_at: { price: "2026-08-31T23:59:00Z" },
            },
          ],
        },
        publish: {
          title: "ETH 5-Minute Tip Challenge",
          prompt_template:
            "Given symbol {payload.symbol} at price {payload.price}, what is the 5-minute tip in bps?",
          grader_type: "numeric",
          gold_field: "label.tip5m_bps",
          tolerance: 0,
        },
      },
      {
        title: "exact label (one word)",
        dataset: {
          name: "seattle-weather",
          rows: [
            {
              decision_ts: "2012-01-01",
              payload: { date: "2012-01-01", precipitation: 0, temp_max: 12.8, temp_min: 5, wind: 4.7 },
              label: "drizzle",
            },
          ],
        },
        publish: {
          title: "Seattle weather",
          prompt_template:
            "On {payload.date}: precipitation {payload.precipitation} mm, wind {payload.wind}. One word: drizzle, rain, sun, snow or fog.",
          grader_type: "exact",
        },
      },
    ],
  };
}
