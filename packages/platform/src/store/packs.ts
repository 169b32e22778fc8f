/**
 * Data access of the `packs` table: the exact bytes of each minted evidence pack, so every `serve`
 * process on one database serves the same pack.
 */
import { TableModule } from "./executor.js";

/** A stored pack. */
export interface StoredPack {
  slug: string;
  bytes: Uint8Array;
  pack_hash: string;
  created_at: string;
}

/** The `packs` table. */
export class PacksTable extends TableModule {
  /** The pack of a benchmark, or null. */
  async get(slug: string): Promise<StoredPack | null> {
    const r = await this.db.selectFrom("packs").selectAll().where("slug", "=", slug).executeTakeFirst();
    return r ? { ...r, bytes: new Uint8Array(r.bytes) } : null;
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
