/**
 * `spec/SPEC.md` sections 6-8: minting the award evidence pack. The rank derivation
 * (ranking, winners, amounts and its digest, which the award transaction needs
 * first), then the pack: a pure function of its inputs, so the same inputs give the
 * same pack and the same `canonicalJson(pack)` bytes; nothing partial is returned.
 * @packageDocumentation
 */
import { checkComposites, prepareTestSetGold, regradeRunSteps } from "../checks.js";
import { runSteps, type Steps } from "../slices.js";
import { commitTestSet, type TestSetRow } from "../commitment.js";
import { EvidenceError, appendPath } from "../errors.js";
import { UINT_STRING, isIsoMsZ } from "../formats.js";
import { GRADER_TYPES } from "../graders.js";
import type { Hex } from "../hash.js";
import type { JsonValue } from "../json/index.js";
import { PAYOUT_RULES, validateSplits } from "../payouts.js";
import { rankRows, selectWinners, type RunRow, type ZeroWinnerReason } from "../ranking.js";
import { receiptHash, type Receipt, type RevealedAnswer } from "../receipts.js";
import {
  assertSchema,
  evidencePackSchema,
  rankDerivationSchema,
  receiptSchema,
  testSetRowSchema,
  type Anchor,
  type Benchmark,
  type EvidencePack,
  type RankDerivation,
  type RankRow,
  type Winner,
} from "../schemas.js";
import { composite } from "../scores.js";
import { packHash, rankingDigest } from "./hash.js";

/** The same pack with its `pack_anchor` set (not hashed, so `pack_hash` is unchanged). */
export function withPackAnchor(pack: EvidencePack, anchor: Anchor | null): EvidencePack {
  return {
    ...pack,
    pack_anchor:
      anchor === null
        ? null
        : {
            ...anchor,
            registry_address: anchor.registry_address.toLowerCase(),
            tx_hash: anchor.tx_hash.toLowerCase(),
          },
  };
}

/** The default `verify_hints` block (not hashed): how a stranger re-derives the award. */
export const VERIFY_HINTS = Object.freeze({
  summary:
    "Re-derive the award yourself: rebuild the commitment root from test_set, recompute every winner's answer digests and receipt hash, regrade the answers, recompute composites, ordering, winners and payouts, then recompute ranking_digest and pack_hash.",
  steps: [
    "Step 1: prompt_hash = hex(keccak(utf8(prompt))) and gold_leaf = hex(keccak(canonical_json(gold) || utf8(salt))), both bare hex; leaf = keccak(canonical_json({ordinal, prompt_hash, gold_leaf})); fold in ordinal order (an odd level duplicates its last node); compare with benchmark.commit_root and leaf_count; on chain, testSetRoots(bounty_id) and rootBurned(commit_root).",
    "Step 2: keccak(utf8(answer_text) || bytes.fromhex(answer_salt)) == the receipt task's answer_digest; each receipt task's prompt_hash == prompt_hash(test_set[bank_ordinal]); receipt.commit_root == benchmark.commit_root; keccak(canonical_json(receipt)) == receipt_hash.",
    "Step 3: regrade from the revealed gold; accuracy = sum(credit)/n over the run's private tasks (public if the bank has none), 4 dp HALF_UP == rank_accuracy.",
    "Step 4: recompute composites; sort by (-score_composite, -score_public, queries_used, wall_seconds, achieved_at, run_id); winners are the first len(splits_bps) rows at or above threshold_bps that are not author agents; amount_i = floor(pool * splits_bps[i] / S), dust to place 1.",
    "Step 5: ranking_digest = keccak(canonical_json(rank_derivation)); pack_hash = keccak(canonical_json({benchmark, test_set, winners, rank_derivation})).",
  ],
  hashed_blocks: ["benchmark", "test_set", "winners", "rank_derivation"],
  not_hashed: ["pack_hash", "pack_anchor", "verify_hints"],
});

/** Scoring and payout configuration of the benchmark (SPEC 6-7). */
export interface MintScoring {
  /** plain decimal string as configured, e.g. `"0.3"` */
  speed_weight: string;
  /** plain decimal string as configured, e.g. `"0"` */
  cost_weight: string;
  /** integer seconds > 0 */
  time_budget_seconds: number;
  /** USDC with 6 dp, or null (no cost term) */
  cost_budget_usdc: string | null;
  /** 0..10000 */
  threshold_bps: number;
  /** a named rule, or `custom` with explicit `splits_bps` */
  payout_rule: "winner_take_all" | "top_n_split" | "custom";
  /** required for `custom`; for a named rule, must equal the rule's splits if given */
  splits_bps?: readonly number[];
}

/** One finalized run offered to the ranking. */
export interface MintRun {
  agent_id: string;
  /** author agents rank but take no money */
  is_author_agent: boolean;
  /** the receipt payload as anchored (its hash is recomputed) */
  receipt: Receipt;
  /** where the receipt is served, or null */
  receipt_url: string | null;
  /** the run's 4-dp accuracy from the final grading (private tasks; public if the bank has none) */
  rank_accuracy: string;
  /**
   * when the score was achieved: the receipt's `finalized_at` (the default); any other
   * instant is refused, as the verifier fails a row whose `achieved_at` is not its
   * receipt's `finalized_at` (`checkRowReceipt`, probe37 B-F4)
   */
  achieved_at?: string;
  /**
   * the agent's total attempts, when not every run of the agent is passed in
   * (default: the number of this agent's runs in `runs`; the larger wins)
   */
  attempts_used?: number;
  /** embed the receipt in its rank row (default true) */
  include_receipt?: boolean;
  /** the owner's payout address; required if this run wins */
  withdrawal_address?: string | null;
  /** the run's answer salt (64 hex); required if this run wins */
  answer_salt?: string;
  /** the run's answers (answered tasks, ordinal order); required if this run wins */
  answers?: readonly RevealedAnswer[];
}

/** The benchmark facts that come from the chain and the platform (SPEC 8 `benchmark`, minus the derived fields). */
export interface MintBenchmark {
  slug: string;
  title: string;
  chain_id: number;
  bounty_contract: string;
  /** integer (string or bigint) */
  bounty_id: string | bigint;
  token: string;
  author: string;
  awarder: string;
  /** base units (string or bigint) */
  pool_base_units: string | bigint;
  /** unix seconds */
  closes_at: number;
  award_tx: string;
  award_block: number;
  commitment_anchor: Anchor;
}

/** Inputs of {@link mintEvidencePack}. */
export interface MintInputs {
  benchmark: MintBenchmark;
  /** the whole test set, ordinal order */
  test_set: readonly TestSetRow[];
  scoring: MintScoring;
  /** every finalized run (any order; each agent's best one is ranked) */
  runs: readonly MintRun[];
  /** usually null at mint time (the pack hash is anchored afterwards, see {@link withPackAnchor}) */
  pack_anchor?: Anchor | null;
  /** defaults to {@link VERIFY_HINTS} */
  verify_hints?: JsonValue;
}

/** Result of {@link buildRankDerivation}. */
export interface RankDerivationResult {
  rank_derivation: RankDerivation;
  /** `rankingDigest(rank_derivation)`: pass it to `award()` */
  ranking_digest: Hex;
  /** the winning runs' inputs in place order */
  winning_runs: MintRun[];
  /** amounts per place (base units) */
  amounts: bigint[];
  zero_winner_reason: ZeroWinnerReason | null;
}

function fail(path: string, message: string): never {
  throw new EvidenceError("bad_pack_inputs", path, message);
}

function lowerAddress(v: unknown, path: string): string {
  if (typeof v !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(v))
    fail(path, `must be a 0x address, got ${JSON.stringify(v)}`);
  return v.toLowerCase();
}

function intString(v: unknown, path: string): string {
  if (typeof v === "bigint" && v >= 0n) return v.toString();
  if (typeof v === "string" && UINT_STRING.test(v)) return v;
  fail(
    path,
    `must be a non-negative integer (string or bigint), got ${JSON.stringify(typeof v === "bigint" ? v.toString() : v)}`,
  );
}

/**
 * Rank the runs, select winners and compute amounts (SPEC 6-7), producing the
 * `rank_derivation` block and its digest. The award transaction needs the
 * digest before the pack can be minted; {@link mintEvidencePack} rebuilds
 * the same block from the same inputs.
 *
 * Each run's composite is recomputed from its `rank_accuracy`, wall time and
 * spend and must equal the receipt's `score_composite`; its `achieved_at` (the
 * SPEC 7.1 tie-break) is the receipt's `finalized_at` (probe37 B-F4).
 * @throws EvidenceError `bad_pack_inputs`, `schema`, `bad_splits`, `malformed` naming the input path
 */
export function buildRankDerivation(input: {
  scoring: MintScoring;
  pool_base_units: string | bigint;
  runs: readonly MintRun[];
}): RankDerivationResult {
  return buildRankDerivationCached(input, new WeakMap());
}

/** Receipt hashes are the costliest part of minting (a receipt of n tasks is ~250n bytes): hash each receipt object once. */
function cachedReceiptHash(cache: WeakMap<object, Hex>, receipt: Receipt): Hex {
  let h = cache.get(receipt);
  if (h === undefined) {
    h = receiptHash(receipt);
    cache.set(receipt, h);
  }
  return h;
}

function buildRankDerivationCached(
  input: { scoring: MintScoring; pool_base_units: string | bigint; runs: readonly MintRun[] },
  hashes: WeakMap<object, Hex>,
): RankDerivationResult {
  const sc = input.scoring;
  const pool = intString(input.pool_base_units, "$.benchmark.pool_base_units");
  let splits: number[];
  if (sc.payout_rule === "custom") {
    if (sc.splits_bps === undefined) fail("$.scoring.splits_bps", "custom payout_rule needs splits_bps");
    splits = validateSplits(sc.splits_bps, "$.scoring.splits_bps");
  } else if (sc.payout_rule in PAYOUT_RULES) {
    splits = [...PAYOUT_RULES[sc.payout_rule]];
    if (
      sc.splits_bps !== undefined &&
      (sc.splits_bps.length !== splits.length || sc.splits_bps.some((v, i) => v !== splits[i]))
    )
      fail(
        "$.scoring.splits_bps",
        `splits_bps differ from the ${sc.payout_rule} rule [${splits.join(", ")}]`,
      );
  } else {
    fail("$.scoring.payout_rule", `unknown payout_rule ${JSON.stringify(sc.payout_rule)}`);
  }
  if (!Array.isArray(input.runs)) fail("$.runs", "runs must be an array");
  /** A run as ranking reads it, with its index in `input.runs`. */
  type Candidate = RunRow & { idx: number };
  const candidates: Candidate[] = input.runs.map((run, i) => {
    const p = appendPath("$.runs", i);
    const r = assertSchema(receiptSchema, run.receipt, `${p}.receipt`);
    if (run.agent_id !== r.agent_id)
      fail(
        `${p}.agent_id`,
        `agent_id ${JSON.stringify(run.agent_id)} differs from the receipt's ${JSON.stringify(r.agent_id)}`,
      );
    if (typeof run.is_author_agent !== "boolean") fail(`${p}.is_author_agent`, "must be a boolean");
    const achieved = run.achieved_at ?? r.finalized_at;
    if (!isIsoMsZ(achieved)) fail(`${p}.achieved_at`, "must be ISO-8601 UTC with milliseconds and Z");
    // the row's achieved_at is its receipt's finalized_at (checkRowReceipt; probe37 B-F4)
    if (achieved !== r.finalized_at)
      fail(
        `${p}.achieved_at`,
        `achieved_at ${achieved} differs from the receipt's finalized_at ${r.finalized_at} (a run is achieved when it is finalized)`,
      );
    const comp = composite({
      rank_accuracy: run.rank_accuracy,
      wall_seconds: r.wall_seconds,
      usdc_spent: r.usdc_spent,
      speed_weight: sc.speed_weight,
      cost_weight: sc.cost_weight,
      time_budget_seconds: sc.time_budget_seconds,
      cost_budget_usdc: sc.cost_budget_usdc,
    });
    if (comp !== r.score_composite)
      fail(
        `${p}.receipt.score_composite`,
        `receipt says ${r.score_composite}, but rank_accuracy ${run.rank_accuracy} with this run's time and spend gives ${comp}`,
      );
    return {
      agent_id: r.agent_id,
      is_author_agent: run.is_author_agent,
      run_id: r.run_id,
      score_composite: comp,
      score_public: r.score_public,
      queries_used: r.queries_used,
      wall_seconds: r.wall_seconds,
      achieved_at: achieved,
      idx: i,
    };
  });
  const ranked = rankRows(candidates, "$.runs");
  const rows: RankRow[] = ranked.map((c) => {
    const run = input.runs[c.idx] as MintRun;
    let attempts = c.attempts_used;
    for (const other of input.runs) {
      if (other.agent_id !== c.agent_id || other.attempts_used === undefined) continue;
      if (!Number.isSafeInteger(other.attempts_used) || other.attempts_used < 1)
        fail(`${appendPath("$.runs", input.runs.indexOf(other))}.attempts_used`, "must be an integer >= 1");
      if (other.attempts_used > attempts) attempts = other.attempts_used;
    }
    const row: RankRow = {
      rank: c.rank,
      agent_id: c.agent_id,
      is_author_agent: c.is_author_agent,
      run_id: c.run_id,
      receipt_hash: cachedReceiptHash(hashes, run.receipt),
      receipt_url: run.receipt_url,
      achieved_at: c.achieved_at,
      attempts_used: attempts,
      rank_accuracy: run.rank_accuracy,
      score_public: c.score_public,
      score_composite: c.score_composite,
      wall_seconds: c.wall_seconds,
      queries_used: c.queries_used,
      usdc_spent: run.receipt.usdc_spent,
    };
    if (run.include_receipt !== false) row.receipt = run.receipt;
    return row;
  });
  const sel = selectWinners({
    rows: ranked,
    threshold_bps: sc.threshold_bps,
    splits_bps: splits,
    pool_base_units: pool,
  });
  const rank_derivation: RankDerivation = {
    speed_weight: sc.speed_weight,
    cost_weight: sc.cost_weight,
    time_budget_seconds: sc.time_budget_seconds,
    cost_budget_usdc: sc.cost_budget_usdc,
    threshold_bps: sc.threshold_bps,
    payout_rule: sc.payout_rule,
    splits_bps: splits,
    pool_base_units: pool,
    place_amounts_base_units: sel.place_amounts_base_units,
    zero_winner_reason: sel.zero_winner_reason,
    rows,
  };
  assertSchema(rankDerivationSchema, rank_derivation, "$.rank_derivation");
  return {
    rank_derivation,
    ranking_digest: rankingDigest(rank_derivation),
    winning_runs: sel.winners.map((w) => input.runs[w.idx] as MintRun),
    amounts: sel.amounts,
    zero_winner_reason: sel.zero_winner_reason,
  };
}

/**
 * Mint the award evidence pack (SPEC 8) from its inputs. Reproducible: the
 * same inputs give the same pack and `canonicalJson(pack)` bytes.
 *
 * Derived here, never taken from the caller: `commit_root` and `leaf_count`
 * (from the test set), `grader_types`, the ranked rows, winners, amounts,
 * `zero_winner_reason`, every receipt hash, `ranking_digest` and `pack_hash`.
 * Checked before anything is returned: every gold validates; each winner has
 * a withdrawal address, its revealed answers match its receipt digests and
 * the test set, and regrading them gives its `rank_accuracy`; every receipt
 * names the commit root; the result passes the pack schema.
 *
 * @throws EvidenceError (`bad_pack_inputs`, `schema`, `malformed_gold`, ...) naming the input path; nothing partial is returned
 */
export function mintEvidencePack(inputs: MintInputs): EvidencePack {
  return runSteps(mintEvidencePackSteps(inputs));
}

/**
 * {@link mintEvidencePack} in steps (one per regraded winner task, `slices.ts`): `serve` mints with
 * `runStepsSliced`, so the award's regrade of the winners does not hold the event loop (probe27 A-F6).
 * The same pack, the same errors.
 */
export function* mintEvidencePackSteps(inputs: MintInputs): Steps<EvidencePack> {
  const b = inputs.benchmark;
  if (typeof b !== "object" || b === null) fail("$.benchmark", "benchmark is required");
  inputs.test_set.forEach((row, i) => assertSchema(testSetRowSchema, row, appendPath("$.test_set", i)));
  const commitment = commitTestSet(inputs.test_set, "$.test_set");
  const prepared = prepareTestSetGold(inputs.test_set);
  for (const g of prepared) if ("code" in g) throw new EvidenceError("malformed_gold", g.path, g.message);
  const promptHashes = commitment.derived.map((d) => d.prompt_hash);

  inputs.runs.forEach((run, i) => {
    if (run.receipt?.commit_root !== commitment.root)
      fail(
        `${appendPath("$.runs", i)}.receipt.commit_root`,
        `receipt names root ${String(run.receipt?.commit_root)}, the test set commits to ${commitment.root}`,
      );
  });
  const hashes = new WeakMap<object, Hex>();
  const derivation = buildRankDerivationCached(
    { scoring: inputs.scoring, pool_base_units: b.pool_base_units, runs: inputs.runs },
    hashes,
  );
  const rd = derivation.rank_derivation;

  const winners: Winner[] = [];
  for (const [i, run] of derivation.winning_runs.entries()) {
    const idx = inputs.runs.indexOf(run);
    const p = appendPath("$.runs", idx);
    if (run.withdrawal_address === undefined || run.withdrawal_address === null)
      fail(
        `${p}.withdrawal_address`,
        `winner ${JSON.stringify(run.agent_id)} (place ${i + 1}) has no withdrawal address; the award is blocked`,
      );
    const withdrawal = lowerAddress(run.withdrawal_address, `${p}.withdrawal_address`);
    if (run.answer_salt === undefined || run.answers === undefined)
      fail(p, `winner ${JSON.stringify(run.agent_id)} needs answer_salt and answers to be revealed`);
    const answers = run.answers.map((a) => ({
      ordinal: a.ordinal,
      bank_ordinal: a.bank_ordinal,
      answer_text: a.answer_text,
    }));
    const regrade = yield* regradeRunSteps(inputs.test_set, run.receipt, answers, run.answer_salt, {
      commitRoot: commitment.root,
      prepared,
      promptHashes,
      path: p,
    });
    const first = regrade.problems[0];
    if (first !== undefined) fail(first.path, `${first.message} (${first.code})`);
    if (regrade.rank_accuracy !== run.rank_accuracy)
      fail(
        `${p}.rank_accuracy`,
        `regrading the revealed answers gives ${String(regrade.rank_accuracy)}, the run says ${run.rank_accuracy}`,
      );
    winners.push({
      place: i + 1,
      agent_id: run.agent_id,
      withdrawal_address: withdrawal,
      amount_base_units: (derivation.amounts[i] as bigint).toString(),
      run_id: run.receipt.run_id,
      receipt: run.receipt,
      receipt_hash: cachedReceiptHash(hashes, run.receipt),
      answer_salt: run.answer_salt,
      answers,
    });
  }

  const benchmark: Benchmark = {
    slug: b.slug,
    title: b.title,
    commit_root: commitment.root,
    leaf_count: commitment.leafCount,
    chain_id: b.chain_id,
    bounty_contract: lowerAddress(b.bounty_contract, "$.benchmark.bounty_contract"),
    bounty_id: intString(b.bounty_id, "$.benchmark.bounty_id"),
    token: lowerAddress(b.token, "$.benchmark.token"),
    author: lowerAddress(b.author, "$.benchmark.author"),
    awarder: lowerAddress(b.awarder, "$.benchmark.awarder"),
    pool_base_units: intString(b.pool_base_units, "$.benchmark.pool_base_units"),
    closes_at: b.closes_at,
    award_tx: typeof b.award_tx === "string" ? b.award_tx.toLowerCase() : b.award_tx,
    award_block: b.award_block,
    ranking_digest: derivation.ranking_digest,
    commitment_anchor: b.commitment_anchor
      ? {
          ...b.commitment_anchor,
          registry_address: lowerAddress(
            b.commitment_anchor.registry_address,
            "$.benchmark.commitment_anchor.registry_address",
          ),
          tx_hash: String(b.commitment_anchor.tx_hash).toLowerCase(),
        }
      : b.commitment_anchor,
    grader_types: GRADER_TYPES as Benchmark["grader_types"],
  };
  const hashed = { benchmark, test_set: inputs.test_set as TestSetRow[], winners, rank_derivation: rd };
  const pack = {
    ...hashed,
    pack_hash: packHash(hashed as unknown as EvidencePack),
    pack_anchor: inputs.pack_anchor ?? null,
    verify_hints: (inputs.verify_hints ?? (VERIFY_HINTS as unknown as JsonValue)) as JsonValue,
  } as EvidencePack;
  const composites = checkComposites(rd.rows, rd);
  if (composites[0] !== undefined) fail(composites[0].path, composites[0].message);
  return assertSchema(evidencePackSchema, pack);
}
