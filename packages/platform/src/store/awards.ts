/** Data access of the `awards` table: the award state machine, one row per benchmark (SPEC 7). */
import { TableModule } from "./executor.js";
import type { AwardsTable as AwardRow } from "./schema.js";

export type { AwardRow };

/** The `awards` table. */
export class AwardsTable extends TableModule {
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
