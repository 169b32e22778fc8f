/**
 * Deterministic synthetic inputs for the benchmarks: the test set of `@bench-bounty/evidence/testing`
 * (every grader type; the verifier's benchmark builds on the same), and finalized runs with receipts,
 * answers and scores that are consistent with the library's own grading (so minting accepts them).
 */
import {
  buildReceipt,
  commitTestSet,
  composite,
  grade,
  rankAccuracy,
  scorePublic,
  type MintInputs,
  type MintRun,
} from "../dist/index.js";
import { answerFor, hex64, makeTestSet } from "../dist/testing.js";

export { hex64, makeTestSet };

const SCORING = {
  speed_weight: "0.3",
  cost_weight: "0.1",
  time_budget_seconds: 3600,
  cost_budget_usdc: "5.000000",
  threshold_bps: 3000,
  payout_rule: "top_n_split" as const,
};

/** Mint inputs for a pack over `tasks` tasks with `agents` agents (the first is the author's), each answering every task. */
export function makeMintInputs(tasks: number, agents = 5): MintInputs {
  const test_set = makeTestSet(tasks);
  const { root, derived } = commitTestSet(test_set);
  const runs: MintRun[] = [];
  for (let a = 0; a < agents; a++) {
    const agent_id = a === 0 ? "author-agent" : `agent-${a}`;
    const salt = hex64(`answer-salt-${a}`);
    const skill = 0.95 - a * 0.1;
    const answered = test_set.map((row) => ({
      row,
      text:
        ((row.ordinal * 7919 + a * 104729) % 1000) / 1000 < skill
          ? answerFor(row, true)
          : answerFor(row, false),
    }));
    const graded = answered.map(({ row, text }) => ({
      visibility: row.visibility,
      credit: grade(row.grader_type, row.gold, text),
    }));
    const rank_accuracy = rankAccuracy(graded, true);
    const wall_seconds = `${600 + a * 97}.${String(100 + a).padStart(3, "0")}`;
    const usdc_spent = `0.${String(120000 + a * 3333).padStart(6, "0")}`;
    const score_composite = composite({ rank_accuracy, wall_seconds, usdc_spent, ...SCORING });
    const receipt = buildReceipt({
      run_id: `run-${agent_id}-1`,
      benchmark_slug: "bench-synthetic",
      commit_root: root,
      agent_id,
      attempt: 1,
      started_at: "2026-03-01T09:00:00.000Z",
      finalized_at: `2026-03-01T10:${String(10 + a).padStart(2, "0")}:00.000Z`,
      wall_seconds,
      queries_used: a,
      usdc_spent,
      score_public: scorePublic(graded),
      score_composite,
      answer_salt: salt,
      tasks: answered.map(({ row, text }) => ({
        bank_ordinal: row.ordinal,
        prompt_hash: (derived[row.ordinal] as { prompt_hash: string }).prompt_hash,
        visibility: row.visibility,
        answer_text: text,
      })),
    });
    runs.push({
      agent_id,
      is_author_agent: a === 0,
      receipt,
      receipt_url: `https://bench-bounty.example/api/v1/benchmarks/bench-synthetic/runs/${receipt.run_id}/receipt`,
      rank_accuracy,
      include_receipt: false,
      withdrawal_address: `0x${hex64(`owner-${a}`).slice(0, 40)}`,
      answer_salt: salt,
      answers: answered.map(({ row, text }, ordinal) => ({
        ordinal,
        bank_ordinal: row.ordinal,
        answer_text: text,
      })),
    });
  }
  return {
    benchmark: {
      slug: "bench-synthetic",
      title: "Synthetic benchmark for the evidence benchmarks",
      chain_id: 8453,
      bounty_contract: `0x${"ab".repeat(20)}`,
      bounty_id: "1",
      token: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
      author: `0x${"01".repeat(20)}`,
      awarder: `0x${"02".repeat(20)}`,
      pool_base_units: "50000000",
      closes_at: 1772874000,
      award_tx: `0x${hex64("award-tx")}`,
      award_block: 24050003,
      commitment_anchor: {
        registry_address: `0x${"03".repeat(20)}`,
        tx_hash: `0x${hex64("anchor-tx")}`,
        anchor_block: 24000003,
      },
    },
    test_set,
    scoring: SCORING,
    runs,
    pack_anchor: null,
  };
}
