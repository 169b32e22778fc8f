/**
 * `GET /anchors/:digest` for the commitment, every receipt the pack names and
 * the pack: its own digest, kind (name and bytes32), block and transaction as the pack says (receipts at or before the
 * award block) and, when the chain was read, as `anchorOf` says. A digest the pack states that is not a
 * bytes32 is not asked (probe36 B-F3): the fact fails naming its JSON path.
 * @packageDocumentation
 */
import { ANCHOR_KINDS, anchorKindName, anchorKindServes, type AnchorKindName } from "@bench-bounty/contracts";
import { bytes32 } from "../onchain/context.js";
import { receiptHashStatedAt } from "../pack.js";
import { A_BYTES32, obj, packValueRefused, s, type Disagreements, type IndexerWalk } from "./context.js";

/** Anchor routes read at once. */
const ANCHOR_GETS_IN_FLIGHT = 8;

/** One anchor the indexer must know. */
interface AnchorExpectation {
  digest: string;
  kind: AnchorKindName;
  block?: number;
  tx?: string;
  atOrBefore?: number;
  /** The pack names no anchor (`pack_anchor: null`): a 404 is no disagreement. */
  optional?: boolean;
  /** Where the pack states the digest, when it is the pack's text rather than a digest the verifier computed. */
  statedAt?: string;
}

/**
 * Where the pack states a digest that keys no read (not a bytes32), and how it is written there: the
 * commitment's `$.benchmark.commit_root`, a receipt's first winner or rank row stating it; null for a digest
 * the verifier computed (the pack's: always a bytes32).
 */
function statedDigest(walk: IndexerWalk, c: AnchorExpectation): { path: string; value: string } | null {
  if (c.kind === "commitment")
    return { path: "$.benchmark.commit_root", value: walk.view.benchmark.commit_root };
  return c.kind === "receipt" ? receiptHashStatedAt(walk.view, c.digest) : null;
}

/** The anchors the pack names, as the indexer must serve them. */
export function expectedAnchors(walk: IndexerWalk): AnchorExpectation[] {
  const { view, derived } = walk;
  const b = view.benchmark;
  const out: AnchorExpectation[] = [];
  if (b.commitment_anchor !== null)
    out.push({
      digest: b.commit_root.toLowerCase(),
      kind: "commitment",
      statedAt: "$.benchmark.commit_root",
      block: b.commitment_anchor.anchor_block,
      tx: b.commitment_anchor.tx_hash.toLowerCase(),
    });
  for (const h of derived.receiptHashes) out.push({ digest: h, kind: "receipt", atOrBefore: b.award_block });
  if (derived.packHash !== null)
    out.push(
      view.pack_anchor === null
        ? { digest: derived.packHash, kind: "pack", optional: true }
        : {
            digest: derived.packHash,
            kind: "pack",
            block: view.pack_anchor.anchor_block,
            tx: view.pack_anchor.tx_hash.toLowerCase(),
          },
    );
  return out;
}

/** Every expected anchor against the indexer's. */
export async function anchorAgreement(walk: IndexerWalk, found: Disagreements): Promise<void> {
  const checks = expectedAnchors(walk);
  let done = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const c = checks[next++];
      if (c === undefined) return;
      await checkAnchor(walk, c, found);
      done++;
      walk.onProgress?.({ phase: "indexer", done, total: checks.length });
    }
  };
  await Promise.all(Array.from({ length: ANCHOR_GETS_IN_FLIGHT }, worker));
}

async function checkAnchor(walk: IndexerWalk, c: AnchorExpectation, found: Disagreements): Promise<void> {
  // a digest of the pack that is not a bytes32 keys no route (probe36 B-F3: `GET /anchors/0` and `GET
  // /anchors/` blamed the --indexer URL): not asked, the fact fails naming where the pack states it
  if (bytes32(c.digest) === null) {
    const stated = statedDigest(walk, c) ?? { path: `the ${c.kind} digest`, value: c.digest };
    found.unkeyed(stated.path, stated.value, A_BYTES32, `GET /anchors/:digest (its ${c.kind} anchor)`);
    return;
  }
  const route = `/anchors/${c.digest}`;
  let r;
  try {
    r = await walk.get(route);
  } catch (e) {
    const refused = c.statedAt === undefined ? null : packValueRefused(e, route, "digest", c.statedAt);
    if (refused === null) throw e;
    found.unobservable(refused);
    return;
  }
  if (r.status === 404) {
    if (!c.optional) found.push(`GET ${route}: 404, the indexer has no ${c.kind} anchor`);
    return;
  }
  const a = obj(r.body);
  found.cmp(route, "digest", s(a.digest), c.digest);
  // a pack naming no anchor (`optional`) may have been squatted with another kind (probe28 C-F10), and a
  // receipt anchored first by someone with another kind is its anchor (`anchorKindServes`, probe35 C-F2,
  // V-F6: the pack failed `full` for good): the indexer's kind is then compared with the chain's (below),
  // and its name with its bytes32
  if ((!c.optional && !anchorKindServes(c.kind, s(a.kind) ?? "")) || s(a.kindName) === c.kind) {
    found.cmp(route, "kindName", s(a.kindName), c.kind);
    found.cmp(route, "kind", s(a.kind), ANCHOR_KINDS[c.kind]);
  } else
    found.cmp(
      route,
      "kindName",
      s(a.kindName),
      anchorKindName(s(a.kind) ?? "") ?? "unknown",
      "its kind says",
    );
  if (c.block !== undefined) found.cmp(route, "blockNumber", s(a.blockNumber), String(c.block));
  if (c.tx !== undefined) found.cmp(route, "txHash", s(a.txHash), c.tx);
  if (c.atOrBefore !== undefined && !(Number(s(a.blockNumber)) <= c.atOrBefore))
    found.push(`GET ${route}: blockNumber ${s(a.blockNumber)} is after the award block ${c.atOrBefore}`);
  const onChain = walk.chain?.anchors.get(c.digest);
  if (onChain !== undefined && onChain.blockNumber === 0n)
    // the indexer has an anchor the chain does not (probe28 C-F2's class)
    found.push(
      `GET ${route}: the indexer has a ${c.kind} anchor in block ${s(a.blockNumber)}, anchorOf says the digest is not anchored`,
    );
  if (onChain !== undefined && onChain.blockNumber !== 0n) {
    found.cmp(route, "blockNumber", s(a.blockNumber), String(onChain.blockNumber), "anchorOf says");
    found.cmp(route, "kind", s(a.kind), onChain.kind, "anchorOf says");
    found.cmp(route, "anchorer", s(a.anchorer), onChain.anchorer, "anchorOf says");
  }
}
