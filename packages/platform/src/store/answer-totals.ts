/**
 * Data access of the `answer_bytes_totals` table (migration 0008, probe15 A-F5): the stored-answer
 * totals the quotas check (`runs/submit.ts` `countStoredBytes`: answers, and since probe28 A-F4 each run's plan and receipt), one counter row per scope, updated in the
 * submit's, start's and finalize's transaction: O(1) per write, where summing `runs.answer_bytes` read every run ever stored.
 * Each row equals the sum of `runs.answer_bytes` over its scope (the operator's runs in none).
 */
import { arg, TableModule } from "./executor.js";

/** The scope of an account's own total. */
export function accountScope(accountId: string): string {
  return `account:${accountId}`;
}

/**
 * The scope of the total of the accounts created from client network `network` (`accounts.network`:
 * their share of the all-accounts bound, probe30 A-F7).
 */
export function networkScope(network: string): string {
  return `network:${network}`;
}

/** The scope of the total of every account but the operator's. */
export const ALL_ACCOUNTS_SCOPE = "all";

/**
 * The bytes a finalize's receipt is reserved at run start (UTF-8 bytes of `runs.receipt_json`, what
 * `runs/submit.ts` `countStoredBytes` charges): {@link RECEIPT_RESERVE_FIXED_BYTES} plus
 * {@link RECEIPT_RESERVE_BYTES_PER_TASK} per task of the run's plan. A receipt lists every task whether
 * answered or not (~175 bytes each unanswered, ~240 with an answer digest; probe28 A-F4: 2.1 MB for an
 * empty run of 12,000 tasks); the finalize counts the receipt's real bytes in place of the reserve.
 * @param tasks the run's tasks (its plan's length)
 */
export function receiptReserveBytes(tasks: number): number {
  return RECEIPT_RESERVE_FIXED_BYTES + RECEIPT_RESERVE_BYTES_PER_TASK * tasks;
}

/** A receipt's reserve per task (bytes), {@link receiptReserveBytes}. */
export const RECEIPT_RESERVE_BYTES_PER_TASK = 256;
/** A receipt's reserve for its fields other than the tasks (bytes), {@link receiptReserveBytes}. */
export const RECEIPT_RESERVE_FIXED_BYTES = 2048;

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
