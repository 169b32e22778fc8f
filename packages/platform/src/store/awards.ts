/** Data access of the `awards` table: the award state machine, one row per benchmark (SPEC 7). */
import { TableModule } from "./executor.js";
import type { AwardsTable as AwardRow } from "./schema.js";

export type { AwardRow };

/**
 * The `meta` key holding the service's public base URL (the base of every `receipt_url`, SPEC 8), as the
 * last `serve` on the store used it (`--public-url`, else the address it listens on): what the CLI's
 * `award` builds a new award's receipt URLs from when it is given no `--public-url` (probe27 C-F6).
 */
export const PUBLIC_BASE_URL_KEY = "public_base_url";

/**
 * The `meta` key holding the store's award confirmation depth ({@link ChainConfig.awardConfirmations}):
 * written by a process that sets the depth (`--award-confirmations`), read by every award on the store
 * (store28 R-F2: a CLI `award` at the default 1 recorded and minted while `serve` waited for 12).
 */
export const AWARD_CONFIRMATIONS_KEY = "award_confirmations";

/** The `awards` table. */
export class AwardsTable extends TableModule {
  /**
   * Records the store's award confirmation depth ({@link AWARD_CONFIRMATIONS_KEY}, blocks, 1..1000); the
   * last one written stays.
   * @returns the depth recorded before, or null when none was
   */
  async recordAwardConfirmations(depth: number): Promise<number | null> {
    const was = await this.recordedAwardConfirmations();
    await this.db
      .insertInto("meta")
      .values({ key: AWARD_CONFIRMATIONS_KEY, value: String(depth) })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: String(depth) }))
      .execute();
    return was;
  }

  /** The award confirmation depth recorded in the store ({@link recordAwardConfirmations}), or null. */
  async recordedAwardConfirmations(): Promise<number | null> {
    const r = await this.db
      .selectFrom("meta")
      .select("value")
      .where("key", "=", AWARD_CONFIRMATIONS_KEY)
      .executeTakeFirst();
    return r === undefined ? null : Number(r.value);
  }

  /** Records the service's public base URL ({@link PUBLIC_BASE_URL_KEY}); the last one written stays. */
  async recordPublicBaseUrl(url: string): Promise<void> {
    await this.db
      .insertInto("meta")
      .values({ key: PUBLIC_BASE_URL_KEY, value: url })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: url }))
      .execute();
  }

  /** The public base URL a `serve` recorded ({@link recordPublicBaseUrl}), or null when none did. */
  async recordedPublicBaseUrl(): Promise<string | null> {
    const r = await this.db
      .selectFrom("meta")
      .select("value")
      .where("key", "=", PUBLIC_BASE_URL_KEY)
      .executeTakeFirst();
    return r === undefined ? null : r.value;
  }

  /** The award of a benchmark, or null. */
  async get(slug: string): Promise<AwardRow | null> {
    return (await this.rowByKey("awards", "slug", slug)) ?? null;
  }

  /** The awards prepared or sent and not confirmed yet: their transactions pay the frozen `winners_json`. */
  async inFlight(): Promise<AwardRow[]> {
    return this.db.selectFrom("awards").selectAll().where("status", "in", ["prepared", "sent"]).execute();
  }

  /** Inserts the prepared award (the primary key refuses a second award of the benchmark). */
  async insertPrepared(
    a: Pick<AwardRow, "slug" | "rank_derivation_json" | "ranking_digest" | "winners_json" | "created_at">,
  ): Promise<void> {
    await this.db
      .insertInto("awards")
      .values({ ...a, status: "prepared" })
      .execute();
  }

  /** `prepared` -> `sent` with the transaction hash. @returns false when the award was not prepared */
  async markSent(slug: string, tx: string): Promise<boolean> {
    const r = await this.db
      .updateTable("awards")
      .set({ status: "sent", award_tx: tx })
      .where("slug", "=", slug)
      .where("status", "=", "prepared")
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** `sent` -> `prepared`, forgetting a reverted or dropped transaction. */
  async forgetSent(slug: string): Promise<void> {
    await this.db
      .updateTable("awards")
      .set({ status: "prepared", award_tx: null })
      .where("slug", "=", slug)
      .where("status", "=", "sent")
      .execute();
  }

  /** -> `confirmed` with the mined transaction (from `prepared` or `sent`). */
  async markConfirmed(slug: string, tx: string, block: number): Promise<void> {
    await this.db
      .updateTable("awards")
      .set({ status: "confirmed", award_tx: tx, award_block: block })
      .where("slug", "=", slug)
      .where("status", "in", ["prepared", "sent"])
      .execute();
  }

  /** `confirmed` -> `packed` with the pack's hash. */
  async markPacked(slug: string, packHash: string): Promise<void> {
    await this.db
      .updateTable("awards")
      .set({ status: "packed", pack_hash: packHash })
      .where("slug", "=", slug)
      .execute();
  }
}
