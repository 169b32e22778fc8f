/**
 * The anchors (AnchorRegistry `anchorOf`):
 * - `commitment_anchor`: `anchorOf(commit_root)` has kind `commitment`, the pack's
 *   `anchor_block`, at or before the award block, and `tx_hash` emitted that `Anchored` log;
 * - `receipt_anchors`: every receipt hash the pack names is anchored at or before `award_block` (on the
 *   commitment's registry), with kind `receipt` or, anchored first by anyone with another kind (a
 *   front-run of the platform's anchor), that other kind, named in the reason (probe35 C-F2: SPEC 9
 *   asks only that it be anchored by then; the registry is permissionless);
 * - `pack_anchor`: `anchorOf(pack_hash)` (recomputed) has kind `pack`, the pack's
 *   `anchor_block` and `tx_hash`, and its anchorer is the bounty's awarder on chain
 *   (`getBounty(bounty_id).awarder`): the registry is permissionless, and only the awarder's anchor binds
 *   the pack's text no other digest covers (probe31 C-F1: a stranger anchored a re-titled pack with kind
 *   pack and it met `full`); anchored by anyone else it is `unverified`. With `pack_anchor: null`, an
 *   anchor of the awarder found anyway verifies, none found is `unverified`.
 * @packageDocumentation
 */
import { ANCHOR_KINDS, anchorKindName, anchorKindServes, anchorRegistryAbi } from "@bench-bounty/contracts";
import type { Address, Hex } from "viem";
import { sameHex } from "../compare.js";
import { fact, factFrom, type Fact } from "../facts.js";
import { receiptHashStatedAt, type AnchorRef } from "../pack.js";
import { addr, bytes32, type AnchorRecord, type ChainFacts, type ChainWalk } from "./context.js";
import { exactEventLog } from "./logs.js";

/** Receipt anchors read at once. */
const ANCHOR_READS_IN_FLIGHT = 16;

/** `anchored in block N with kind K`, or `not anchored`. */
function describeAnchor(a: AnchorRecord): string {
  return a.blockNumber === 0n
    ? "not anchored"
    : `anchored in block ${a.blockNumber} with kind ${anchorKindName(a.kind) ?? a.kind}`;
}

/** The `commitment_anchor` and `receipt_anchors` facts (both read the commitment's registry). */
export async function commitmentAnchorFacts(
  walk: ChainWalk,
): Promise<Pick<ChainFacts, "commitment_anchor" | "receipt_anchors">> {
  const ref = walk.view.benchmark.commitment_anchor;
  if (ref === null)
    return {
      commitment_anchor: fact(
        "unverified",
        "$.benchmark.commitment_anchor is null: the pack names no registry to read",
      ),
      receipt_anchors: fact(
        "unverified",
        "$.benchmark.commitment_anchor is null: the pack names no registry to read the receipt anchors from",
      ),
    };
  const registry = addr(ref.registry_address);
  let unreadable: Fact | null = null;
  if (registry === null)
    unreadable = fact(
      "failed",
      `$.benchmark.commitment_anchor.registry_address ${ref.registry_address} is not an address`,
    );
  else {
    const problem = await walk.codeProblem(
      registry,
      "AnchorRegistry",
      "$.benchmark.commitment_anchor.registry_address",
    );
    if (problem !== null) unreadable = fact("failed", problem);
  }
  if (unreadable !== null || registry === null) {
    const f = unreadable ?? fact("failed", "no registry");
    return { commitment_anchor: f, receipt_anchors: f };
  }
  const commitment = await commitmentAnchor(walk, ref, registry);
  const receipts = await receiptAnchors(walk, registry);
  // a competitor's own receipts (`--receipt`): read into observation.anchors for receipt_inclusion
  for (const h of walk.givenReceiptHashes) if (bytes32(h) !== null) await walk.anchorOf(registry, h);
  return { commitment_anchor: commitment, receipt_anchors: receipts };
}

async function commitmentAnchor(walk: ChainWalk, ref: AnchorRef, registry: Address): Promise<Fact> {
  const root = walk.root;
  const awardBlock = BigInt(walk.view.benchmark.award_block);
  const problems: string[] = [];
  if (root === null)
    problems.push(`$.benchmark.commit_root ${walk.view.benchmark.commit_root} is not a bytes32`);
  else {
    const a = await walk.anchorOf(registry, root);
    if (a.blockNumber === 0n) problems.push(`anchorOf(${root}) on ${registry}: not anchored`);
    else {
      if (a.kind !== ANCHOR_KINDS.commitment)
        problems.push(`anchorOf(${root}) has kind ${anchorKindName(a.kind) ?? a.kind}, expected commitment`);
      if (a.blockNumber !== BigInt(ref.anchor_block))
        problems.push(
          `anchorOf(${root}) is in block ${a.blockNumber}, $.benchmark.commitment_anchor.anchor_block is ${ref.anchor_block}`,
        );
      if (a.blockNumber > awardBlock)
        problems.push(
          `the commitment was anchored in block ${a.blockNumber}, after the award block ${awardBlock}`,
        );
      problems.push(
        ...(await anchorTxProblems(
          walk,
          ref,
          registry,
          root,
          ANCHOR_KINDS.commitment,
          "$.benchmark.commitment_anchor",
        )),
      );
    }
  }
  return factFrom(
    problems,
    `commit_root anchored with kind commitment in block ${ref.anchor_block} (tx ${ref.tx_hash})`,
  );
}

async function receiptAnchors(walk: ChainWalk, registry: Address): Promise<Fact> {
  const hashes = walk.derived.receiptHashes;
  const awardBlock = BigInt(walk.view.benchmark.award_block);
  if (hashes.length === 0) return fact("not-required", "the pack names no receipt");
  const results = await mapLimit(
    hashes,
    ANCHOR_READS_IN_FLIGHT,
    async (h) => (bytes32(h) === null ? null : walk.anchorOf(registry, h)),
    (done) => walk.onProgress?.({ phase: "chain", done, total: hashes.length }),
  );
  const problems: string[] = [];
  const otherKind: string[] = [];
  let ok = 0;
  hashes.forEach((h, i) => {
    const a = results[i];
    if (a === null || a === undefined) {
      // a receipt hash the pack states that keys no read: named where the pack states it (j36's note)
      const at = receiptHashStatedAt(walk.view, h);
      problems.push(
        at === null ? `receipt hash ${h} is not a bytes32` : `${at.path} ${at.value} is not a bytes32`,
      );
    } else if (a.blockNumber === 0n) problems.push(`receipt ${h}: not anchored on ${registry}`);
    else if (a.blockNumber > awardBlock)
      problems.push(`receipt ${h}: anchored in block ${a.blockNumber}, after the award block ${awardBlock}`);
    // the kind rule of every reader (`anchorKindServes`): anchored first by someone with another kind (a
    // front-run of the platform's anchor), it still proves the receipt existed by then, all SPEC 9 asks
    // (probe35 C-F2)
    else if (!anchorKindServes("receipt", a.kind))
      problems.push(`receipt ${h}: ${describeAnchor(a)}, which does not anchor a receipt`);
    else {
      ok++;
      if (a.kind !== ANCHOR_KINDS.receipt)
        otherKind.push(`receipt ${h} ${describeAnchor(a)} by ${a.anchorer}`);
    }
  });
  const others =
    otherKind.length === 0
      ? ""
      : `; anchored first with another kind, which counts (SPEC 9 asks only that it be anchored by the award block): ${otherKind.join("; ")}`;
  return factFrom(problems, `${ok} receipt hashes anchored at or before block ${awardBlock}${others}`);
}

/** The `pack_anchor` fact. */
export async function packAnchorFacts(walk: ChainWalk): Promise<Pick<ChainFacts, "pack_anchor">> {
  return { pack_anchor: await packAnchor(walk) };
}

async function packAnchor(walk: ChainWalk): Promise<Fact> {
  const ph = walk.derived.packHash;
  const ref = walk.view.pack_anchor;
  if (ph === null) return fact("failed", "the pack hash cannot be computed");
  if (ref === null) return unnamedPackAnchor(walk, ph);
  const reg = addr(ref.registry_address);
  if (reg === null)
    return fact("failed", `$.pack_anchor.registry_address ${ref.registry_address} is not an address`);
  const problem = await walk.codeProblem(reg, "AnchorRegistry", "$.pack_anchor.registry_address");
  if (problem !== null) return fact("failed", problem);
  const problems: string[] = [];
  const a = await walk.anchorOf(reg, ph);
  if (a.blockNumber === 0n) problems.push(`anchorOf(${ph}) on ${reg}: not anchored`);
  else {
    if (a.kind !== ANCHOR_KINDS.pack)
      problems.push(`anchorOf(${ph}) has kind ${anchorKindName(a.kind) ?? a.kind}, expected pack`);
    if (a.blockNumber !== BigInt(ref.anchor_block))
      problems.push(
        `anchorOf(${ph}) is in block ${a.blockNumber}, $.pack_anchor.anchor_block is ${ref.anchor_block}`,
      );
    problems.push(...(await anchorTxProblems(walk, ref, reg, ph, ANCHOR_KINDS.pack, "$.pack_anchor")));
  }
  if (problems.length > 0) return factFrom(problems, "");
  const awarder = await awarderProblem(walk, a, ph);
  if (awarder !== null) return awarder;
  return fact(
    "verified",
    `pack hash anchored with kind pack by the awarder ${a.anchorer} in block ${ref.anchor_block} (tx ${ref.tx_hash})`,
  );
}

/**
 * `unverified` when `a` (the pack hash's anchor) was not made by the bounty's awarder on chain
 * (`getBounty(bounty_id).awarder`), or when the bounty cannot be read; null when it was.
 */
async function awarderProblem(walk: ChainWalk, a: AnchorRecord, ph: string): Promise<Fact | null> {
  if ("unreadable" in walk.bounty)
    return fact(
      "unverified",
      `the awarder cannot be read to check who anchored ${ph}: ${walk.bounty.unreadable.reasons[0] ?? "the bounty contract is unreadable"}`,
    );
  const { awarder } = await walk.bountyRecord(walk.bounty.address);
  if (sameHex(a.anchorer, awarder)) return null;
  return fact(
    "unverified",
    `${ph} was anchored with kind pack by ${a.anchorer}, not by the awarder getBounty(${walk.bountyId}).awarder ${awarder.toLowerCase()}: ` +
      "anyone may anchor a digest, so only the awarder's anchor binds the pack's text (benchmark.title, grader_types)",
  );
}

/**
 * What an unanchored pack leaves unbound (probe35 C-F4: a re-titled, re-hashed copy of a real award's pack
 * with `pack_anchor: null` met `onchain`): no other fact covers the pack's own text.
 */
const UNBOUND_TEXT =
  "the pack's own text (benchmark.title, grader_types) is bound by no anchor: anyone may rewrite it and re-hash the pack; only the awarder's pack anchor (policy full) binds it";

/**
 * `pack_anchor: null`: an anchor of kind pack found on the commitment's registry verifies; none, or one of
 * another kind (a squat), is `unverified`.
 */
async function unnamedPackAnchor(walk: ChainWalk, ph: string): Promise<Fact> {
  const ref = walk.view.benchmark.commitment_anchor;
  const registry = ref === null ? null : addr(ref.registry_address);
  if (registry === null) return fact("unverified", "$.pack_anchor is null and the pack names no registry");
  const problem = await walk.codeProblem(
    registry,
    "AnchorRegistry",
    "$.benchmark.commitment_anchor.registry_address",
  );
  if (problem !== null) return fact("failed", problem);
  const a = await walk.anchorOf(registry, ph);
  if (a.blockNumber === 0n)
    return fact(
      "unverified",
      `$.pack_anchor is null and anchorOf(${ph}) on ${registry}: not anchored, so ${UNBOUND_TEXT}`,
    );
  // anchored first with another kind: a front-run of the platform's pending pack anchor (probe28 C-F10),
  // after which it can never be anchored as a pack; the pack says so by naming no anchor. The pack's
  // content stands on the award's ranking digest and the committed root, checked by their own facts.
  if (a.kind !== ANCHOR_KINDS.pack)
    return fact(
      "unverified",
      `$.pack_anchor is null and anchorOf(${ph}) is ${describeAnchor(a)}: anchored first with another kind (a squat), so it can never be anchored as a pack`,
    );
  return (
    (await awarderProblem(walk, a, ph)) ??
    fact(
      "verified",
      `$.pack_anchor is null, but ${ph} is anchored with kind pack by the awarder ${a.anchorer} in block ${a.blockNumber}`,
    )
  );
}

/** The anchor's `tx_hash` was mined in its `anchor_block` and emitted `Anchored(digest, kind)` of the registry. */
async function anchorTxProblems(
  walk: ChainWalk,
  ref: AnchorRef,
  registry: Address,
  digest: string,
  kind: Hex,
  what: string,
): Promise<string[]> {
  const txh = bytes32(ref.tx_hash);
  if (txh === null) return [`${what}.tx_hash ${ref.tx_hash} is not a transaction hash`];
  const rc = await walk.receiptOf(txh);
  if (rc === null) return [`${what}.tx_hash ${txh} is not a mined transaction on chain ${walk.chainId}`];
  const problems: string[] = [];
  if (Number(rc.blockNumber) !== ref.anchor_block)
    problems.push(
      `${what}.tx_hash was mined in block ${rc.blockNumber}, ${what}.anchor_block is ${ref.anchor_block}`,
    );
  // the anchor's transaction succeeded, as the award's must (probe35 B-F6: a status-0 receipt verified)
  if (rc.status !== "success") problems.push(`${what}.tx_hash ${txh} reverted (receipt status 0)`);
  const found = rc.logs.some((log) => {
    if (log.address.toLowerCase() !== registry) return false;
    // strictly: whole 32-byte words of data, exactly the event's topics (probe35 B-F6)
    const ev = exactEventLog(anchorRegistryAbi, log);
    return (
      ev !== null &&
      ev.eventName === "Anchored" &&
      sameHex(ev.args.digest as Hex, digest) &&
      sameHex(ev.args.kind as Hex, kind)
    );
  });
  if (!found)
    problems.push(
      `${what}.tx_hash ${txh} emitted no Anchored(${digest}, ${anchorKindName(kind)}) log of ${registry}`,
    );
  return problems;
}

/** Run promises with at most `limit` in flight. */
async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (t: T, i: number) => Promise<R>,
  onDone?: (n: number) => void,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i] as T, i);
      done++;
      onDone?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
