/** Data access of the `anchors` table: one row per digest, pending until its evidence is recorded. */
import type { Hex } from "@bench-bounty/evidence";
import type { AnchorEvidence, AnchorSquat } from "../chain.js";
import { sql } from "kysely";
import { TableModule } from "./executor.js";

/** Kind of an anchored digest. */
export type AnchorKind = "commitment" | "receipt" | "pack";

/**
 * The `meta` key marking a store whose digests are anchored on a chain (probe26 A-F5): written by every
 * process that opens the store with a chain (its value the chain id), never removed.
 */
export const ON_CHAIN_MARKER = "anchoring_chain_id";

/**
 * The `meta` key holding the genesis block hash of the chain the store's digests are anchored on (store28
 * R-F1): written beside {@link ON_CHAIN_MARKER} by a process with a chain (a store marked before it
 * existed gets it from the first such process), never removed.
 */
export const ON_CHAIN_GENESIS_MARKER = "anchoring_genesis_hash";

/**
 * The prefix of the `meta` key holding the highest chain time (unix s) a process with the chain read for
 * a close (probe36 A-F4; the key is the prefix and the chain id, e.g. `close_chain_time:8453`): raised by
 * every process with that chain ({@link AnchorsTable.raiseCloseChainTime}), never lowered, so a process
 * without a chain on the store never counts a bounty open once a chain process saw its `closes_at` pass.
 */
export const CLOSE_CHAIN_TIME_PREFIX = "close_chain_time:";

/**
 * The `meta` key holding the service's awarder (probe36 A-F3, A-F6): the signing address (lowercase) of
 * the last `serve` that opened the store with the chain and the platform account's key (platform
 * `recordServiceAwarder`; no other command records it: probe36 V-F6), the awarder an attached bounty
 * must name. A process without a chain serves it as the commitment's `awarder`.
 */
export const SERVICE_AWARDER_MARKER = "service_awarder";

/** The `anchors` table. */
export class AnchorsTable extends TableModule {
  /**
   * Marks the store as anchored on chain `chainId` (`meta.anchoring_chain_id`, {@link ON_CHAIN_MARKER}):
   * from then on every process on it, with a chain or not, records the digests it writes as pending
   * (`reveal.ts`). Idempotent: the first chain id written stays.
   * @returns the chain id the store is marked with (the first written: `chainId` or an earlier process's)
   */
  async markOnChain(chainId: number): Promise<number> {
    await this.db
      .insertInto("meta")
      .values({ key: ON_CHAIN_MARKER, value: String(chainId) })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    return (await this.anchoringChainId()) ?? chainId;
  }

  /** The chain id the store is marked with ({@link markOnChain}), or null when no process opened it with a chain. */
  async anchoringChainId(): Promise<number | null> {
    const r = await this.db
      .selectFrom("meta")
      .select("value")
      .where("key", "=", ON_CHAIN_MARKER)
      .executeTakeFirst();
    return r === undefined ? null : Number(r.value);
  }

  /**
   * Marks the store with the genesis block hash of its chain ({@link ON_CHAIN_GENESIS_MARKER}, lowercase
   * hex). Idempotent: the first hash written stays.
   * @returns the hash the store is marked with (the first written: `hash` or an earlier process's)
   */
  async markGenesis(hash: string): Promise<string> {
    await this.db
      .insertInto("meta")
      .values({ key: ON_CHAIN_GENESIS_MARKER, value: hash.toLowerCase() })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    return (await this.anchoringGenesisHash()) ?? hash.toLowerCase();
  }

  /** The genesis block hash the store is marked with ({@link markGenesis}), or null. */
  async anchoringGenesisHash(): Promise<string | null> {
    const r = await this.db
      .selectFrom("meta")
      .select("value")
      .where("key", "=", ON_CHAIN_GENESIS_MARKER)
      .executeTakeFirst();
    return r === undefined ? null : r.value;
  }

  /**
   * Raises the store's mark of chain `chainId`'s clock ({@link CLOSE_CHAIN_TIME_PREFIX}) to `t` (unix s)
   * when it is below (or absent); a lower `t` changes nothing (the mark never goes back, whichever
   * process writes last).
   */
  async raiseCloseChainTime(chainId: number, t: bigint): Promise<void> {
    const key = `${CLOSE_CHAIN_TIME_PREFIX}${chainId}`;
    await this.db
      .insertInto("meta")
      .values({ key, value: t.toString() })
      .onConflict((oc) =>
        oc
          .column("key")
          .doUpdateSet({ value: t.toString() })
          .where(sql<boolean>`CAST(meta.value AS BIGINT) < CAST(${t.toString()} AS BIGINT)`),
      )
      .execute();
  }

  /** The store's mark of chain `chainId`'s clock ({@link raiseCloseChainTime}, unix s), or null when none was written. */
  async closeChainTime(chainId: number): Promise<bigint | null> {
    const r = await this.db
      .selectFrom("meta")
      .select("value")
      .where("key", "=", `${CLOSE_CHAIN_TIME_PREFIX}${chainId}`)
      .executeTakeFirst();
    return r === undefined ? null : BigInt(r.value);
  }

  /**
   * Records `address` (lowercased) as the service's awarder ({@link SERVICE_AWARDER_MARKER}), replacing
   * the one recorded before. Called only by a `serve` opened with the chain and a key (platform
   * `recordServiceAwarder`): a serve restarted with another key of the platform account awards with
   * that one now; a CLI command with some other key (`account create --rpc-url`) never writes it, since
   * the running serve still awards with its own (probe36 V-F6).
   */
  async recordAwarder(address: string): Promise<void> {
    const value = address.toLowerCase();
    await this.db
      .insertInto("meta")
      .values({ key: SERVICE_AWARDER_MARKER, value })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
      .execute();
  }

  /** The service's awarder recorded by a process with the chain ({@link recordAwarder}, lowercase), or null. */
  async recordedAwarder(): Promise<string | null> {
    const r = await this.db
      .selectFrom("meta")
      .select("value")
      .where("key", "=", SERVICE_AWARDER_MARKER)
      .executeTakeFirst();
    return r === undefined ? null : r.value;
  }

  /** Whether some process opened the store with a chain ({@link markOnChain}). */
  async onChain(): Promise<boolean> {
    return (await this.anchoringChainId()) !== null;
  }

  /**
   * Records a digest as pending (idempotent: an existing digest is left as it is). `held`: no flush of
   * the batcher sends it ({@link pendingOfKind} skips it) until {@link release}; `anchor <slug>` and the
   * award send it all the same (the batched-anchoring budget, `batchAnchorQuota` in `runs/finalize.ts`).
   */
  async addPending(
    digest: string,
    kind: AnchorKind,
    slug: string,
    at: string,
    o: { held?: boolean } = {},
  ): Promise<void> {
    await this.db
      .insertInto("anchors")
      .values({ digest, kind, slug, status: "pending", created_at: at, held: o.held === true ? 1 : 0 })
      .onConflict((oc) => oc.column("digest").doNothing())
      .execute();
  }

  /** Lets the batcher's flushes send a digest {@link addPending} recorded held (no-op for any other). */
  async release(digest: string): Promise<void> {
    await this.db.updateTable("anchors").set({ held: 0 }).where("digest", "=", digest).execute();
  }

  /** Records the evidence of a digest (pending or not yet known). */
  async recordAnchored(
    digest: string,
    kind: AnchorKind,
    slug: string,
    ev: AnchorEvidence,
    at: string,
  ): Promise<void> {
    await this.db
      .insertInto("anchors")
      .values({
        digest,
        kind,
        slug,
        status: "anchored",
        registry_address: ev.registry_address,
        tx_hash: ev.tx_hash,
        anchor_block: ev.anchor_block,
        created_at: at,
      })
      .onConflict((oc) =>
        oc.column("digest").doUpdateSet({
          status: "anchored",
          registry_address: ev.registry_address,
          tx_hash: ev.tx_hash,
          anchor_block: ev.anchor_block,
        }),
      )
      .execute();
  }

  /** Records the evidence of a pending digest (no-op for an unknown digest). */
  async markAnchored(digest: string, ev: AnchorEvidence): Promise<void> {
    await this.db
      .updateTable("anchors")
      .set({
        status: "anchored",
        registry_address: ev.registry_address,
        tx_hash: ev.tx_hash,
        anchor_block: ev.anchor_block,
      })
      .where("digest", "=", digest)
      .execute();
  }

  /** Pending digests of a benchmark (of one kind, or every kind), oldest first. */
  async pending(
    slug: string,
    kind?: AnchorKind,
  ): Promise<{ digest: Hex; kind: AnchorKind; created_at: string }[]> {
    const rows = await this.pendingRowsOf(slug)
      .select(["digest", "kind", "created_at"])
      .where("squat_json", "is", null)
      .$if(kind !== undefined, (q) => q.where("kind", "=", kind!))
      .execute();
    return rows.map((r) => ({ ...r, digest: r.digest as Hex }));
  }

  /** The pending rows of a benchmark (squatted ones included), oldest first: a query to select from. */
  private pendingRowsOf(slug: string) {
    return this.db
      .selectFrom("anchors")
      .where("slug", "=", slug)
      .where("status", "=", "pending")
      .orderBy("created_at")
      .orderBy("digest");
  }

  /**
   * Pending digests of one kind across every benchmark that a flush of the batcher may send (neither
   * squatted nor held: {@link addPending}), oldest first, at most `limit`.
   */
  async pendingOfKind(kind: AnchorKind, limit: number): Promise<Hex[]> {
    const rows = await this.db
      .selectFrom("anchors")
      .select("digest")
      .where("status", "=", "pending")
      .where("held", "=", 0)
      .where("squat_json", "is", null)
      .where("kind", "=", kind)
      .orderBy("created_at")
      .orderBy("digest")
      .limit(limit)
      .execute();
    return rows.map((r) => r.digest as Hex);
  }

  /**
   * The recorded ones of `digests`: anchored or not, and the squat of each (null when none); unknown
   * digests are not in the map.
   */
  async statesAmong(
    digests: readonly string[],
  ): Promise<Map<string, { anchored: boolean; squat: AnchorSquat | null }>> {
    const out = new Map<string, { anchored: boolean; squat: AnchorSquat | null }>();
    const unique = [...new Set(digests)];
    // bounded IN lists (SQLite's host parameter limit)
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await this.db
        .selectFrom("anchors")
        .select(["digest", "status", "squat_json"])
        .where("digest", "in", unique.slice(i, i + 500))
        .execute();
      for (const r of rows)
        out.set(r.digest, {
          anchored: r.status === "anchored",
          squat: r.squat_json ? (JSON.parse(r.squat_json) as AnchorSquat) : null,
        });
    }
    return out;
  }

  /** Squatted digests of a benchmark (pending forever, never sent again), oldest first. */
  async squatted(slug: string): Promise<{ digest: Hex; kind: AnchorKind; squat: AnchorSquat }[]> {
    const rows = await this.pendingRowsOf(slug)
      .select(["digest", "kind", "squat_json"])
      .where("squat_json", "is not", null)
      .execute();
    return rows.map((r) => ({
      digest: r.digest as Hex,
      kind: r.kind,
      squat: JSON.parse(r.squat_json!) as AnchorSquat,
    }));
  }

  /**
   * Records that a pending digest (a commitment: a receipt so found is anchored, `anchorKindServes`,
   * probe35 C-F2) was found anchored on-chain with another kind by someone else (probe14 D3-F8): it stays pending, but no flush sends it again (the registry keeps the first
   * anchoring forever) and the award names it.
   */
  async markSquatted(digest: string, squat: AnchorSquat): Promise<void> {
    await this.db
      .updateTable("anchors")
      .set({ squat_json: JSON.stringify(squat) })
      .where("digest", "=", digest)
      .where("status", "=", "pending")
      .execute();
  }

  /** The squat recorded on a digest, or null. */
  async squatOf(digest: string): Promise<AnchorSquat | null> {
    const r = await this.db
      .selectFrom("anchors")
      .select("squat_json")
      .where("digest", "=", digest)
      .executeTakeFirst();
    return r?.squat_json ? (JSON.parse(r.squat_json) as AnchorSquat) : null;
  }

  /** The slugs of the benchmarks whose receipts are among `digests` (their boards show the hashes). */
  async receiptSlugsOf(digests: readonly string[]): Promise<string[]> {
    if (digests.length === 0) return [];
    const rows = await this.db
      .selectFrom("anchors")
      .select("slug")
      .distinct()
      .where("digest", "in", digests)
      .where("kind", "=", "receipt")
      .execute();
    return rows.map((r) => r.slug);
  }

  /** The recorded anchor of a digest, or null when pending or unknown. */
  async evidence(digest: string): Promise<AnchorEvidence | null> {
    const r = await this.db
      .selectFrom("anchors")
      .select(["registry_address", "tx_hash", "anchor_block"])
      .where("digest", "=", digest)
      .where("status", "=", "anchored")
      .executeTakeFirst();
    return r
      ? { registry_address: r.registry_address!, tx_hash: r.tx_hash!, anchor_block: r.anchor_block! }
      : null;
  }
}
