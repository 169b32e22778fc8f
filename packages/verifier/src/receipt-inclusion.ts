/**
 * `receipt_inclusion` (`verify PACK --receipt FILE`, probe34 C-F2): a competitor's own run receipt
 * against the award's rows. The row set of `rank_derivation.rows` is the awarder's word: receipts are
 * anchored by digest alone, so nothing on chain lists a benchmark's receipts and no SPEC 9 fact can tell a
 * run the award left out. A competitor who holds its receipt can: its hash (SPEC 4) is a row of the pack
 * that states the run's values as the receipt does (a row that drops its embedded receipt can state lower
 * ones: probe37 C-F1), or its agent's row is a better run of the same agent (SPEC 7.1 keeps the best row per
 * agent), or the award left that run out (`failed`).
 * @packageDocumentation
 */
import { anchorKindName } from "@bench-bounty/contracts";
import {
  checkRowReceipt,
  compareRuns,
  isEvidenceError,
  isJsonObject,
  receiptHash,
  type JsonValue,
  type RankRow,
  type Receipt,
  type RunRow,
} from "@bench-bounty/evidence";
import { errorText, rethrowUnexpected, sameHex } from "./compare.js";
import { VerifierInputError, isVerifierInputError } from "./errors.js";
import { fact, type Fact } from "./facts.js";
import type { ChainObservation } from "./onchain/context.js";
import { readReceipt, type PackView, type RankRowView, type ReceiptView } from "./pack.js";

/** The receipt schema tag (SPEC 4): a document with it at its root is the receipt itself. */
const RECEIPT_SCHEMA = "bench-bounty.receipt.v1";

/** A competitor's receipt given with `--receipt`, read and hashed. */
export interface GivenReceipt {
  /** Where it was read from (`file r.json`, `url ...`, `stdin`, `bytes`). */
  label: string;
  /** The receipt payload (SPEC 4). */
  receipt: ReceiptView;
  /** `0x` + keccak256(canonical_json(receipt)) (SPEC 4). */
  hash: string;
}

/**
 * Reads a receipt document as the platform gives it to a competitor: the receipt payload itself
 * (`schema: "bench-bounty.receipt.v1"` at its root), or a document carrying it under `receipt` (the
 * evidence door's `receipt_url` answer `{receipt, receipt_hash}`, the finalize or run answer once the
 * benchmark closed); a `receipt_hash` beside it must be the payload's hash. The receipt must be of the
 * pack's benchmark (its `benchmark_slug` and `commit_root`).
 * @param doc the parsed document
 * @param label where it came from, for messages
 * @param view the pack it is checked against
 * @throws VerifierInputError (exit 2) naming `--receipt`, the document and the JSON path: not a receipt, a
 *   malformed one, a `receipt_hash` that is not its hash, or a receipt of another benchmark
 */
export function readGivenReceipt(doc: JsonValue, label: string, view: PackView): GivenReceipt {
  const refuse = (code: string, message: string): never => {
    throw new VerifierInputError(code, "--receipt", `${label}: ${message}`);
  };
  if (!isJsonObject(doc))
    return refuse("wrong_type", "$: expected a receipt (an object), or a document with one under $.receipt");
  const atRoot = doc.schema === RECEIPT_SCHEMA;
  if (!atRoot && !isJsonObject(doc.receipt))
    return refuse(
      "missing_key",
      `$: neither a receipt (schema ${JSON.stringify(RECEIPT_SCHEMA)}) nor a document with one under $.receipt (the answer of the run's receipt_url, or of finalize once the benchmark closed)`,
    );
  const path = atRoot ? "$" : "$.receipt";
  let receipt: ReceiptView;
  try {
    receipt = readReceipt(atRoot ? doc : (doc.receipt as JsonValue), path);
  } catch (e) {
    if (!isVerifierInputError(e)) throw e;
    return refuse(e.code, e.message);
  }
  if (receipt.raw.schema !== RECEIPT_SCHEMA)
    refuse("wrong_type", `${path}.schema is not ${JSON.stringify(RECEIPT_SCHEMA)}`);
  let hash: string;
  try {
    hash = receiptHash(receipt.raw);
  } catch (e) {
    if (!isEvidenceError(e)) throw e;
    return refuse("schema", `${path} has no canonical JSON: ${errorText(e)}`);
  }
  const stated = atRoot ? undefined : doc.receipt_hash;
  if (stated !== undefined && stated !== null && (typeof stated !== "string" || !sameHex(stated, hash)))
    refuse(
      "wrong_value",
      `$.receipt_hash is ${typeof stated === "string" ? stated : "not a string"}, the receipt at $.receipt hashes to ${hash} (SPEC 4)`,
    );
  const b = view.benchmark;
  if (receipt.benchmark_slug !== b.slug || !sameHex(receipt.commit_root, b.commit_root))
    refuse(
      "wrong_benchmark",
      receipt.benchmark_slug === b.slug
        ? `the receipt names this pack's slug ${JSON.stringify(b.slug)} but another test set: its commit_root is ${receipt.commit_root}, the pack's ${b.commit_root} (another benchmark published under the same slug, e.g. on another store): give the receipt of a run on the pack's benchmark`
        : `the receipt is of benchmark ${JSON.stringify(receipt.benchmark_slug)} (commit_root ${receipt.commit_root}), this pack is of ${JSON.stringify(b.slug)} (commit_root ${b.commit_root}): give the receipt of a run on the pack's benchmark`,
    );
  return { label, receipt, hash };
}

/** A row's fields SPEC 7.1 ranks on (the row's as stated). */
function rowRun(row: RankRowView): RunRow {
  return { ...row, is_author_agent: false };
}

/** A receipt's fields SPEC 7.1 ranks on (`achieved_at` is when the run was finalized). */
function receiptRun(r: ReceiptView): RunRow {
  return {
    agent_id: r.agent_id,
    is_author_agent: false,
    run_id: r.run_id,
    score_composite: r.score_composite,
    score_public: r.score_public,
    queries_used: r.queries_used,
    wall_seconds: r.wall_seconds,
    achieved_at: r.finalized_at,
  };
}

/** What the pack (and the chain) say of one given receipt. */
interface Judgement {
  state: "verified" | "unverified" | "failed";
  reason: string;
}

/**
 * A receipt the rows leave out, judged by its anchor when the chain was read: the platform anchors
 * every receipt it ranks before the award (SPEC 4), so one anchored at or before `award_block` (with kind
 * receipt, or first by someone else with another kind, which the platform adopts: probe35 C-F2) is a
 * finalized run the award had to rank (`failed`); one not anchored so is not shown to be the platform's
 * (`unverified`). Without `--rpc` it is `failed`, naming the read that confirms it.
 */
function leftOut(view: PackView, g: GivenReceipt, what: string, chain: ChainObservation | null): Judgement {
  const r = g.receipt;
  const awardBlock = BigInt(view.benchmark.award_block);
  const base = `${what} is not in $.rank_derivation.rows: the award left this finalized run out (score_composite ${r.score_composite}, finalized_at ${r.finalized_at})`;
  if (chain === null)
    return {
      state: "failed",
      reason: `${base}; not read on chain (no --rpc): anchorOf(${g.hash}) with kind receipt at or before award_block ${awardBlock} shows the platform issued it`,
    };
  const a = chain.anchors.get(g.hash.toLowerCase());
  if (a === undefined)
    return { state: "failed", reason: `${base}; its anchor could not be read (see receipt_anchors)` };
  // anchored first with another kind (a stranger's front-run of the platform's anchor) counts as the
  // receipt's anchor, as in receipt_anchors (probe35 C-F2): the platform adopts it and ranks the run
  if (a.blockNumber !== 0n && a.blockNumber <= awardBlock)
    return {
      state: "failed",
      reason: `${base}; anchored with kind ${anchorKindName(a.kind) ?? a.kind} in block ${a.blockNumber}, at or before award_block ${awardBlock}`,
    };
  const anchored =
    a.blockNumber === 0n
      ? "not anchored"
      : `anchored in block ${a.blockNumber}, after award_block ${awardBlock}`;
  return {
    state: "unverified",
    reason: `${what} is not in $.rank_derivation.rows, and it is ${anchored}: not shown to be a receipt the award had to rank (the platform anchors every ranked receipt before the award)`,
  };
}

/**
 * What the pack's row says of the holder's run (probe37 C-F1): the row must state the values it repeats from
 * its receipt as this receipt states them (evidence's `checkRowReceipt`, the rule `composite` applies to an
 * embedded receipt: `run_id`, `agent_id`, `score_public`, `score_composite`, `wall_seconds`, `queries_used`,
 * `usdc_spent`, and `achieved_at` against the receipt's `finalized_at`: probe37 B-F4), else `failed` naming
 * each field at the row's JSON path: a row that drops its embedded receipt can state lower values than the
 * receipt whose hash it keeps. The row's `attempts_used` and `rank_accuracy` are not the receipt's members
 * (SPEC 4, 8) and are not compared. A row
 * marked `is_author_agent` is `unverified`: no receipt states the mark, and only the holder knows whether it
 * is true.
 */
function rowOfReceipt(row: RankRowView, g: GivenReceipt, what: string): Judgement {
  const header = { ...(g.receipt.raw as unknown as Receipt), tasks: [] };
  const differences = checkRowReceipt({ ...(row.raw as unknown as RankRow), receipt: header }, row.path)
    .filter((p) => p.code !== "receipt_hash_mismatch")
    .map((p) => `${p.path}: ${p.message}`);
  const at = `${what} is ${row.path} (rank ${row.rank})`;
  if (differences.length > 0)
    return {
      state: "failed",
      reason: `${at}, but the row does not state the run as this receipt does: ${differences.join("; ")}`,
    };
  if (row.is_author_agent) return { state: "unverified", reason: `${at}; but ${markedAuthorAgent(row)}` };
  return { state: "verified", reason: at };
}

/** Why a row marked an author agent's leaves the holder's receipt unverified (SPEC 7.2). */
function markedAuthorAgent(row: RankRowView): string {
  return `${row.path}.is_author_agent is true: the row is marked the bounty author's agent, which ranks but takes no money (SPEC 7.2); no receipt states the mark, so the verifier cannot check it: you know whether your agent is the author's`;
}

/** What the pack says of one given receipt (`chain`: the anchors read, or null without `--rpc`). */
function judge(view: PackView, g: GivenReceipt, chain: ChainObservation | null): Judgement {
  const r = g.receipt;
  const rows = view.rank_derivation.rows;
  const what = `${g.label}: run ${JSON.stringify(r.run_id)} of ${JSON.stringify(r.agent_id)} (receipt ${g.hash})`;
  const byHash = rows.find((row) => sameHex(row.receipt_hash, g.hash));
  if (byHash !== undefined)
    return byHash.run_id === r.run_id
      ? rowOfReceipt(byHash, g, what)
      : {
          state: "failed",
          reason: `${what}: ${byHash.path} states this receipt's hash for run ${JSON.stringify(byHash.run_id)}`,
        };
  const byRun = rows.find((row) => row.run_id === r.run_id);
  if (byRun !== undefined)
    return {
      state: "failed",
      reason: `${what}: ${byRun.path} ranks this run with receipt_hash ${byRun.receipt_hash}, another receipt than this one`,
    };
  const agentRow = rows.find((row) => row.agent_id === r.agent_id);
  if (agentRow === undefined) {
    const j = leftOut(view, g, what, chain);
    return { ...j, reason: `${j.reason}; the agent has no row` };
  }
  let order: number;
  try {
    order = compareRuns(rowRun(agentRow), receiptRun(r));
  } catch (e) {
    rethrowUnexpected(e);
    return {
      state: "failed",
      reason: `${what} is not a row, and ${agentRow.path} cannot be compared with it (SPEC 7.1): ${errorText(e)}`,
    };
  }
  if (order < 0) {
    const reason = `${what} is not a row, rightly: SPEC 7.1 keeps the best row per agent, and the agent's row ${agentRow.path} (run ${JSON.stringify(agentRow.run_id)}) ranks before it`;
    return agentRow.is_author_agent
      ? { state: "unverified", reason: `${reason}; but ${markedAuthorAgent(agentRow)}` }
      : { state: "verified", reason };
  }
  const j = leftOut(view, g, what, chain);
  return {
    ...j,
    reason: `${j.reason}; the agent's row ${agentRow.path} (run ${JSON.stringify(agentRow.run_id)}) ranks after it by SPEC 7.1`,
  };
}

/**
 * The `receipt_inclusion` fact over the given receipts: `verified` when each is a row of the pack stating
 * the receipt's values (or a worse run of an agent whose best run is its row, SPEC 7.1); `failed` naming
 * each receipt the award left out (anchored at or before `award_block` when the chain was read), ranked with
 * another receipt, or ranked by a row stating other values than the receipt (probe37 C-F1); else
 * `unverified` for a receipt left out that is not anchored so, or whose agent's row is marked the author's
 * agent (`is_author_agent`, which no receipt states).
 * @param chain what the chain walk observed (its `anchors` hold the given receipts'), or null without `--rpc`
 */
export function receiptInclusionFact(
  view: PackView,
  given: readonly GivenReceipt[],
  chain: ChainObservation | null,
): Fact {
  const judged = given.map((g) => judge(view, g, chain));
  for (const state of ["failed", "unverified"] as const) {
    const bad = judged.filter((j) => j.state === state).map((j) => j.reason);
    if (bad.length > 0) return fact(state, ...bad);
  }
  return fact("verified", ...judged.map((j) => j.reason));
}
