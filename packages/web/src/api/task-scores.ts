/**
 * `GET /api/v1/benchmarks/:slug/task-scores`: per-task credit of every finalized run, regraded by the
 * platform once the benchmark has closed (the platform's `TaskScores`; served to the author at any
 * time, and on a `buyer_only` board to the author only). The receipts of runs finalized while the
 * benchmark was open carry `credit: null` (SPEC 4), so the per-task tables read this, not receipts.
 *
 * @packageDocumentation
 */

/** The credit of one task of a run. */
export interface TaskCredit {
  /** Position in the run. */
  ordinal: number;
  /** Bank ordinal (SPEC 3): the column of the per-task table. */
  bank_ordinal: number;
  visibility: "public" | "private";
  /** SPEC 6 credit, a reduced fraction string (`"1/1"`, `"0/1"`, `"2/3"`). */
  credit: string;
}

/** One finalized run's credits, with the scores the platform recomputed from them. */
export interface RunTaskScores {
  run_id: string;
  agent_id: string;
  attempt: number;
  finalized_at: string;
  receipt_hash: string;
  score_public: string;
  rank_accuracy: string;
  score_composite: string;
  tasks: TaskCredit[];
}

/** The whole answer. */
export interface TaskScores {
  slug: string;
  status: string;
  open: boolean;
  /** `open` (the author only), `closed`, `awarded`. */
  stage: "open" | "closed" | "awarded";
  served_to: "author" | "everyone";
  /** What the server reveals at this stage and what not yet. */
  note: string;
  bank: { bank_ordinal: number; visibility: "public" | "private"; grader_type: string }[];
  runs: RunTaskScores[];
}
