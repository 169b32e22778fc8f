/**
 * Data access of the `packs` table: the exact bytes of each minted evidence pack, so every `serve`
 * process on one database serves the same pack.
 */
import { sql } from "kysely";
import { TableModule } from "./executor.js";

/** A stored pack. */
export interface StoredPack {
  slug: string;
  bytes: Uint8Array;
  pack_hash: string;
  created_at: string;
}

/** What is known of a stored pack without its bytes: its hash and its size in bytes. */
export interface StoredPackHead {
  pack_hash: string;
  /** Size of the stored bytes, in bytes. */
  size: number;
}

/** The `packs` table. */
export class PacksTable extends TableModule {
  /** The pack of a benchmark, or null. */
  async get(slug: string): Promise<StoredPack | null> {
    const r = await this.db.selectFrom("packs").selectAll().where("slug", "=", slug).executeTakeFirst();
    return r ? { ...r, bytes: new Uint8Array(r.bytes) } : null;
  }

  /**
   * The hash and size of a benchmark's pack, or null, without reading its bytes (a 304 or a metadata
   * answer costs the same whatever the pack's size, probe20 F4). `length` of a BLOB (SQLite) and of a
   * `bytea` (PostgreSQL) is its size in bytes.
   */
  async head(slug: string): Promise<StoredPackHead | null> {
    const r = await this.db
      .selectFrom("packs")
      .select(["pack_hash", sql<number | string>`length(bytes)`.as("size")])
      .where("slug", "=", slug)
      .executeTakeFirst();
    return r ? { pack_hash: r.pack_hash, size: Number(r.size) } : null;
  }

  /**
   * The stored bytes of a benchmark's pack whose hash is `packHash` (one read by its {@link head}), or
   * null when no such pack is stored (the bytes column only).
   */
  async bytes(slug: string, packHash: string): Promise<Uint8Array | null> {
    const r = await this.db
      .selectFrom("packs")
      .select("bytes")
      .where("slug", "=", slug)
      .where("pack_hash", "=", packHash)
      .executeTakeFirst();
    return r ? new Uint8Array(r.bytes) : null;
  }

  /** The slugs of every stored pack, ascending (the slug column only: no bytes are read). */
  async slugs(): Promise<string[]> {
    const rows = await this.db.selectFrom("packs").select("slug").orderBy("slug").execute();
    return rows.map((r) => r.slug);
  }

  /**
   * Stores a pack once (a second insert of the same slug is ignored: minting is reproducible, so the
   * first bytes stay the served ones).
   */
  async insertIfAbsent(p: StoredPack): Promise<void> {
    await this.db
      .insertInto("packs")
      .values({ slug: p.slug, bytes: Buffer.from(p.bytes), pack_hash: p.pack_hash, created_at: p.created_at })
      .onConflict((oc) => oc.column("slug").doNothing())
      .execute();
  }
}
