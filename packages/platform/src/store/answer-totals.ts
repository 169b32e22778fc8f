/**
 * Data access of the `answer_bytes_totals` table (migration 0008, probe15 A-F5): the stored-answer
 * totals the quotas check (`runs/submit.ts` `countAnswerBytes`), one counter row per scope, updated in the
 * submit's transaction: O(1) per submit, where summing `runs.answer_bytes` read every run ever stored.
 * Each row equals the sum of `runs.answer_bytes` over its scope (the operator's runs in none).
 */
import { arg, TableModule } from "./executor.js";

/** The scope of an account's own total. */
export function accountScope(accountId: string): string {
  return `account:${accountId}`;
}

/** The scope of the total of every account but the operator's. */
export const ALL_ACCOUNTS_SCOPE = "all";

/** The `answer_bytes_totals` table. */
export class AnswerTotalsTable extends TableModule {
  /**
   * Adds `delta` bytes (may be negative) to the total of `scope` (a row created at 0 if missing) and
   * returns the new total. The row stays locked until the transaction ends (PostgreSQL: the upsert's
   * row lock; SQLite: the IMMEDIATE transaction), so two submits counting one scope run one after the
   * other from here: call it last in the transaction, where the lock is held the shortest.
   */
  async add(scope: string, delta: number): Promise<number> {
    const { rows } = await this.compiled("answerTotals.add", [scope, delta], () =>
      this.db
        .insertInto("answer_bytes_totals")
        .values({ scope: arg<string>(0), bytes: arg<number>(1) })
        .onConflict((oc) =>
          oc.column("scope").doUpdateSet((eb) => ({
            bytes: eb("answer_bytes_totals.bytes", "+", eb.ref("excluded.bytes")),
          })),
        )
        .returning("bytes"),
    );
    return Number(rows[0]!.bytes); // PostgreSQL returns a BIGINT as a string
  }

  /** The total of `scope` (0 when it has no row). */
  async get(scope: string): Promise<number> {
    const r = await this.rowByKey("answer_bytes_totals", "scope", scope);
    return Number(r?.bytes ?? 0);
  }
}
