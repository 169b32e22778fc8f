/**
 * The award's evidence pack (SPEC 8): its runs and scoring as mint input, minting, the size check before
 * the award is sent, and storing the anchored bytes.
 */
import {
  evidencePackBytes,
  isEvidenceError,
  mintEvidencePackSteps,
  packHash,
  ruleOfSplits,
  runStepsSliced,
  withPackAnchor,
  type EvidencePack,
  type Hex,
  type MintInputs,
  type MintRun,
  type MintScoring,
  type Receipt,
  type RevealedAnswer,
} from "@bench-bounty/evidence";
import { AnchorNotMined, type AnchorEvidence, type AnchorWait } from "../chain.js";
import type { AttachedBounty, BenchmarkRecord, PlatformContext } from "../context.js";
import { PlatformError } from "../errors.js";
import { fromStored } from "../json.js";
import { receiptUrl } from "../leaderboard.js";
import { getBenchmark, getTasks, testSetRowOf } from "../publish.js";
import { isAuthorAgent, paysBountyAuthor } from "../agents.js";
import { listRuns, runAnswers } from "../runs.js";
import { packByteLimit, rowReceiptsFit } from "../pack-budget.js";
import type { Tables } from "../store.js";
import type { AwardRow } from "../store/awards.js";
import { awardDepth, signerNotAwarder, type PreparedAward } from "./state.js";
import { attachedChainOf } from "./bounty.js";
import { isoMillis } from "../time.js";

/**
 * Every finalized run of a benchmark as the evidence library's mint input, as the award's preparation
 * ranks it: today's author flags (an agent whose withdrawal address is the bounty's author is an author
 * agent, `paysBountyAuthor`), withdrawal addresses and receipt URLs (at today's public base URL),
 * the agents' rows read locked in `t` (the preparation's transaction), so an address change either
 * lands before the award is prepared or sees it (and is refused, `award_in_flight`).
 */
export function mintRunsToPrepare(ctx: PlatformContext, slug: string, t: Tables): Promise<MintRun[]> {
  return mintRuns(ctx, slug, t, null);
}

/**
 * Every finalized run of a benchmark as the evidence library's mint input for the pack of `prepared`:
 * each ranked run's receipt URL, author flag and a winner's withdrawal address as the award froze them
 * ({@link PreparedAward}), never today's (probe21 A-F11).
 */
export function mintRunsAsPrepared(
  ctx: PlatformContext,
  slug: string,
  q: Tables,
  prepared: PreparedAward,
): Promise<MintRun[]> {
  return mintRuns(ctx, slug, q, prepared);
}

/**
 * The mint input of {@link mintRunsToPrepare} (`prepared` null: today's facts, the agents' rows read
 * locked) and of {@link mintRunsAsPrepared} (the frozen facts of `prepared`; a run it does not rank,
 * today's).
 */
async function mintRuns(
  ctx: PlatformContext,
  slug: string,
  q: Tables,
  prepared: PreparedAward | null,
): Promise<MintRun[]> {
  const b = await getBenchmark(ctx, slug, q);
  const out: MintRun[] = [];
  for (const r of await listRuns(ctx, slug, undefined, q)) {
    if (r.status !== "finalized") continue;
    const agent = await q.agents.get(r.agent_id, prepared ? undefined : { lock: true });
    const answers = await runAnswers(ctx, r.run_id, q);
    const revealed: RevealedAnswer[] = r.plan
      .map((bank, i) => ({ ordinal: i, bank_ordinal: bank, answer_text: answers.get(i) }))
      .filter((a): a is RevealedAnswer => a.answer_text !== undefined);
    const frozen = prepared?.runs.get(r.run_id);
    out.push({
      agent_id: r.agent_id,
      // SPEC 7.2 by owner, or by the money's destination: an agent paying the bounty's author is the
      // author's (probe34 C-F1, `paysBountyAuthor`)
      is_author_agent:
        frozen?.is_author_agent ??
        (isAuthorAgent(agent, b.author_account_id) || paysBountyAuthor(agent?.withdrawal_address, b.bounty)),
      receipt: r.receipt as Receipt,
      receipt_url: frozen?.receipt_url ?? receiptUrl(ctx, slug, r.run_id),
      rank_accuracy: r.rank_accuracy!,
      achieved_at: isoMillis(r.finalized_at_ms!),
      withdrawal_address: frozen ? (frozen.withdrawal_address ?? null) : (agent?.withdrawal_address ?? null),
      answer_salt: r.answer_salt!,
      answers: revealed,
    });
  }
  // the rows carry their receipts only while they all fit the rows' share of the pack (pack-budget.ts)
  const rowReceipts = rowReceiptsFit(
    packByteLimit(ctx),
    out.map((r) => r.receipt.tasks.length),
  );
  return out.map((r) => ({ ...r, include_receipt: rowReceipts }));
}

export function scoringOf(b: BenchmarkRecord, bounty: AttachedBounty): MintScoring {
  const rule = ruleOfSplits(bounty.splits_bps);
  return {
    speed_weight: b.config.speed_weight,
    cost_weight: b.config.cost_weight,
    time_budget_seconds: b.config.time_budget_seconds,
    cost_budget_usdc: b.config.cost_budget_usdc,
    threshold_bps: bounty.threshold_bps,
    payout_rule: rule ?? "custom",
    splits_bps: bounty.splits_bps,
  };
}

/**
 * Mints, anchors and stores the pack of a confirmed award `row` (or returns the stored one), its runs
 * as `prepared` froze them (`preparedAward` of the row). Minting is reproducible, and anchoring is
 * idempotent, so a retry after a crash gives the same bytes. Callers hold the award's lock.
 * @param wait the caller's deadline for the anchor's transaction ({@link AnchorWait}: the award's
 *   deadline, the door's), and whom to tell what it waits for
 * @throws PlatformError `pack_pending` (the anchor's transaction not mined by `wait.until`, or not deep
 *   enough: nothing stored), `chain_error`, `award_not_allowed` (not confirmed; or this process signs
 *   with another key than the bounty's awarder, `details.reason` `signer_not_awarder`, nothing minted nor
 *   sent: {@link assertPackSigner}), `bounty_mismatch`
 */
export async function ensurePack(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  row: AwardRow,
  prepared: PreparedAward,
  wait: AnchorWait,
): Promise<{ pack_hash: Hex; pack_anchor: AnchorEvidence | null; bytes: Uint8Array }> {
  const stored = await ctx.store.packs.get(b.slug);
  if (stored) {
    if (row.status !== "packed") {
      // A crash between storing the pack and marking the award: finish the step.
      await markPacked(ctx, b.slug, stored.pack_hash, null);
    }
    const pack = fromStored<EvidencePack>(new TextDecoder().decode(stored.bytes));
    return { pack_hash: stored.pack_hash as Hex, pack_anchor: pack.pack_anchor, bytes: stored.bytes };
  }
  if (!b.bounty || !b.commitment_anchor || !row.award_tx || row.award_block === null) {
    throw new PlatformError("award_not_allowed", `award of ${b.slug} is not confirmed yet`, { slug: b.slug });
  }
  // anchored on the attached bounty's chain only (a stored pack is for good), by its awarder only
  if (ctx.chain) await assertPackSigner(ctx, b);
  const pack = await mintPack(ctx, b, prepared, row.award_tx, row.award_block);
  if (pack.benchmark.ranking_digest !== row.ranking_digest) {
    throw new PlatformError(
      "bounty_mismatch",
      `the minted pack's ranking digest ${pack.benchmark.ranking_digest} differs from the one sent on-chain ${row.ranking_digest}; refusing to publish an inconsistent pack`,
      {},
    );
  }
  const hash = packHash(pack);
  await ctx.faults.packBeforeAnchor?.(b.slug, hash);
  const anchor = ctx.chain ? await anchorPack(ctx, b.slug, hash, wait) : null;
  if (anchor) await assertAnchorDeep(ctx, b.slug, anchor);
  const bytes = evidencePackBytes(withPackAnchor(pack, anchor));
  await ctx.store.tx(async (t) => {
    await t.packs.insertIfAbsent({
      slug: b.slug,
      bytes,
      pack_hash: hash,
      created_at: isoMillis(ctx.clock()),
    });
    await markPacked(ctx, b.slug, hash, anchor, t);
  });
  const kept = (await ctx.store.packs.get(b.slug))!;
  return { pack_hash: kept.pack_hash as Hex, pack_anchor: anchor, bytes: kept.bytes };
}

/**
 * Before a confirmed award's pack is minted and anchored: the configured chain and contract are the
 * attached bounty's (`attachedChainOf`: probe26 C-F5), and the process signs as the bounty's awarder read
 * on-chain (`signerNotAwarder`, the award's own rule: probe36 C-F1, a process with another key, a rotated
 * platform key, a colleague's, spent the pack's one anchoring for good, and the pack could never meet the
 * verifier's `full` policy). A read-only chain (no key) sends nothing and is not asked.
 * @throws PlatformError `award_not_allowed` (`details.reason` `signer_not_awarder`, `signer`, `awarder`:
 *   nothing minted, sent or stored), `bounty_mismatch`, `no_bounty`, `chain_error`
 */
async function assertPackSigner(ctx: PlatformContext, b: BenchmarkRecord): Promise<void> {
  const { chain, attached } = attachedChainOf(ctx, b);
  if (chain.readOnly) return;
  const bountyId = BigInt(attached.bounty_id);
  const notAwarder = signerNotAwarder(
    bountyId,
    chain.address,
    (await chain.getBounty(bountyId)).awarder,
    "pack",
  );
  if (notAwarder) throw notAwarder;
}

/**
 * The pack is stored (for good: SPEC 8, the door serves the same bytes forever after) only once its
 * anchor's block is as deep as the store's award confirmation depth ({@link awardDepth}), as the award's
 * own block (probe30 C-F8: stored on the anchor's first block, a reorg of one block dropped the anchor and
 * the served pack failed `pack_anchor` for good). Until then nothing is stored; the next `award` or door
 * read mints the same pack again and looks its anchor up (`ChainGateway.anchorMany`): found, maybe in
 * another block after a reorg, it is that one; dropped, it is sent anew.
 * @throws PlatformError `pack_pending` (`details.pack_hash`, `anchor_block`, `confirmations`,
 *   `confirmations_required`), `chain_error`
 */
async function assertAnchorDeep(ctx: PlatformContext, slug: string, anchor: AnchorEvidence): Promise<void> {
  const required = await awardDepth(ctx);
  if (required <= 1) return;
  const depth = (await ctx.chain!.latestBlockNumber()) - anchor.anchor_block + 1;
  if (depth < required)
    throw new PlatformError(
      "pack_pending",
      `the pack's anchor ${anchor.tx_hash} is mined in block ${anchor.anchor_block} with ${depth} of the ${required} confirmations this service waits for: the pack is stored once ${required - depth} more block(s) are on top of it (run award again then)`,
      {
        slug,
        tx_hash: anchor.tx_hash,
        anchor_block: anchor.anchor_block,
        confirmations: depth,
        confirmations_required: required,
      },
    );
}

/**
 * Anchors the pack's hash (kind `pack`). A hash anchored first by someone else with another kind (a
 * front-run of the pending anchor: probe28 C-F10, the award was paid and its pack never served, 409
 * `anchor_squatted` for good) cannot be anchored as a pack: the pack is then minted with `pack_anchor`
 * null (SPEC 8 allows it; the pack's content is bound on-chain by the award's ranking digest and the
 * committed root, and the verifier reports the squat as `pack_anchor` unverified) and the squat goes to
 * the operator's log. Its transaction (sent here, or this account's found in the node's pool) is waited
 * for until `wait.until` only: one not mined by then is `pack_pending` naming it (probe33 C-F1/C-F2: viem's
 * 180 s wait outran the award's deadline, and its end was answered as a failure of "the chain RPC").
 * @returns the anchor's evidence, or null for a squatted hash
 * @throws PlatformError `pack_pending` (`details.tx_hash`: the anchor's transaction, `pack_hash`,
 *   `retry_after_seconds`), `chain_error`
 */
async function anchorPack(
  ctx: PlatformContext,
  slug: string,
  hash: Hex,
  wait: AnchorWait,
): Promise<AnchorEvidence | null> {
  try {
    return await ctx.chain!.anchor(hash, "pack", wait);
  } catch (e) {
    if (e instanceof AnchorNotMined) throw packAnchorNotMined(e, hash);
    if (!(e instanceof PlatformError && e.code === "anchor_squatted")) throw e;
    const log = ctx.chain!.config.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
    log(`bench-bounty: award ${slug}: ${e.message}; the pack is served with pack_anchor null`);
    return null;
  }
}

/**
 * `pack_pending` for a pack whose anchor transaction was not mined by the caller's deadline: what it is
 * (pending in the node's pool, or dropped), never a failure of the chain RPC.
 */
function packAnchorNotMined(e: AnchorNotMined, packHash: Hex): PlatformError {
  const what =
    e.state === "pending"
      ? `its anchor transaction ${e.txHash} (${e.adopted ? "sent before, found waiting in the node's pool" : "sent"}) is not mined yet (a transaction that stays pending may be underpriced or stuck on the node): run award again once it is mined (it adopts that transaction; neither the award nor the anchor is sent twice)`
      : `its anchor transaction ${e.txHash} was dropped by the node before it was mined: run award again (it sends the anchor anew; the award is never sent twice)`;
  return new PlatformError("pack_pending", what, {
    tx_hash: e.txHash,
    pack_hash: packHash,
    anchor_state: e.state,
    retry_after_seconds: 10,
  });
}

/**
 * Mints the pack of a benchmark whose award `prepared` is `awardTx` in block `awardBlock`
 * (reproducible: the runs' receipt URLs, author flags and winners' addresses are the prepared ones,
 * {@link mintRunsAsPrepared}).
 */
async function mintPack(
  ctx: PlatformContext,
  b: BenchmarkRecord,
  prepared: PreparedAward,
  awardTx: string,
  awardBlock: number,
): Promise<EvidencePack> {
  const tasks = await getTasks(ctx, b.slug);
  // in slices: minting regrades the winners' answers (probe27 A-F6: the award held the event loop)
  const inputs: MintInputs = {
    benchmark: {
      slug: b.slug,
      title: b.title,
      chain_id: b.bounty!.chain_id,
      bounty_contract: b.bounty!.bounty_contract,
      bounty_id: b.bounty!.bounty_id,
      token: b.bounty!.token,
      author: b.bounty!.author,
      awarder: b.bounty!.awarder,
      pool_base_units: b.bounty!.pool_base_units,
      closes_at: b.bounty!.closes_at,
      award_tx: awardTx,
      award_block: awardBlock,
      commitment_anchor: b.commitment_anchor!,
    },
    test_set: tasks.map(testSetRowOf),
    scoring: scoringOf(b, b.bounty!),
    runs: await mintRunsAsPrepared(ctx, b.slug, ctx.store, prepared),
  };
  return runStepsSliced(mintEvidencePackSteps(inputs), { sliceMs: ctx.gradeSliceMs });
}

/**
 * Before the award `prepared` of `slug` is sent: the pack it will publish must be readable by the
 * default verifier (issue 13 item 8; `PACK_LIMITS.maxPackBytes`, 512 MiB). The pack is minted with the widest award transaction,
 * block and pack anchor it can carry (their bytes are the only ones not known yet), and an award whose
 * pack would be larger is refused: no transaction is sent, the money stays in the bounty.
 * @throws PlatformError `award_not_allowed` with `reason: "pack_too_large"`, the size and the limit; or
 *   `reason: "pack_unmintable"` and the JSON path when minting refuses what the store holds (a test set
 *   that does not rebuild the committed root: probe32 A-F6)
 */
export async function assertPackFits(
  ctx: PlatformContext,
  slug: string,
  prepared: PreparedAward,
): Promise<void> {
  const b = await getBenchmark(ctx, slug);
  const widestTx = `0x${"f".repeat(64)}`;
  const pack = await mintPack(ctx, b, prepared, widestTx, Number.MAX_SAFE_INTEGER).catch((e: unknown) => {
    // the store does not rebuild what was committed (its test set, a receipt): no pack could ever be
    // minted, so nothing is sent, said as such, never a bare 500 on every retry (probe32 A-F6)
    if (!isEvidenceError(e)) throw e;
    throw new PlatformError(
      "award_not_allowed",
      `the award's evidence pack cannot be minted from this store: ${e.message}; the award is not sent (the stored test set or runs do not rebuild what was committed on-chain: only a reclaim after the award deadline returns the pool)`,
      { reason: "pack_unmintable", path: e.path },
    );
  });
  const anchor: AnchorEvidence = {
    registry_address: `0x${"f".repeat(40)}`,
    tx_hash: widestTx,
    anchor_block: Number.MAX_SAFE_INTEGER,
  };
  const size = evidencePackBytes(withPackAnchor(pack, anchor)).length;
  const max = packByteLimit(ctx);
  if (size > max)
    throw new PlatformError(
      "award_not_allowed",
      `the award's evidence pack would take ${size} bytes, over the ${max} bytes (PACK_LIMITS.maxPackBytes) the default verifier reads: the award is not sent`,
      { reason: "pack_too_large", size_bytes: size, limit: "maxPackBytes", max },
    );
}

/** The award is `packed`, the benchmark `awarded`, and the pack's anchor recorded (in one transaction). */
async function markPacked(
  ctx: PlatformContext,
  slug: string,
  hash: string,
  anchor: AnchorEvidence | null,
  q?: Tables,
): Promise<void> {
  const step = async (t: Tables) => {
    await t.awards.markPacked(slug, hash);
    await t.benchmarks.markAwarded(slug);
    if (anchor) await t.anchors.recordAnchored(hash, "pack", slug, anchor, isoMillis(ctx.clock()));
  };
  if (q) await step(q);
  else await ctx.store.tx(step);
}
