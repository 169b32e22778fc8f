/**
 * The deadline of a bounded PostgreSQL transaction (`Store.tx` `locksBy`): the transaction ends by it,
 * committed or not at all. PostgreSQL's `lock_timeout` bounds each lock wait on its own, so a value set
 * once at BEGIN let a write waiting on three rows in turn wait three times the time left (probe21 A-F5:
 * answered 503 `request_timeout` at 60 s, committed at 74 s). So before each statement of the
 * transaction its `lock_timeout` and `statement_timeout` are set (`SET LOCAL`) to the time left: one
 * statement waiting on several rows ends by the deadline too; and the deadline is checked once more right
 * before COMMIT. Past it: {@link TxDeadlinePassed}, or PostgreSQL's 55P03 / 57014, and the transaction
 * is rolled back (`Store.tx` answers `server_busy`, nothing written).
 *
 * The deadline reaches the store's driver (`nul-text.ts`, the one wrapper of every connection) through
 * an `AsyncLocalStorage`: `Store.tx` runs the transaction inside {@link withTxDeadline}, and the driver
 * reads it when the transaction begins, on that transaction's connection only.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { CompiledQuery, type DatabaseConnection } from "kysely";

const deadlines = new AsyncLocalStorage<number>();

/** A bounded transaction reached its deadline (unix ms) before a statement or its COMMIT: rolled back. */
export class TxDeadlinePassed extends Error {
  constructor(readonly deadline: number) {
    super(`the transaction's deadline ${new Date(deadline).toISOString()} passed: rolled back`);
    this.name = "TxDeadlinePassed";
  }
}

/** Runs `fn`; a transaction the store's driver begins inside it ends by `deadline` (unix ms, wall clock). */
export function withTxDeadline<T>(deadline: number, fn: () => Promise<T>): Promise<T> {
  return deadlines.run(deadline, fn);
}

/** The deadline of a transaction beginning now ({@link withTxDeadline}), if any. */
export function txDeadlineHere(): number | undefined {
  return deadlines.getStore();
}

/**
 * Before a statement of a transaction bounded by `deadline`: sets its `lock_timeout` and
 * `statement_timeout` to the time left (ms, at least 1), on `conn`, the transaction's own connection.
 * @throws TxDeadlinePassed when no time is left
 */
export async function boundNextStatement(conn: DatabaseConnection, deadline: number): Promise<void> {
  const left = Math.floor(deadline - Date.now());
  if (left < 1) throw new TxDeadlinePassed(deadline);
  // a number of ours, not a value of the caller's: no parameter, so one round trip of the simple protocol
  await conn.executeQuery(
    CompiledQuery.raw(
      `SELECT set_config('lock_timeout', '${left}ms', true), set_config('statement_timeout', '${left}ms', true)`,
    ),
  );
}

/** PostgreSQL's SQLSTATE `lock_not_available`: a lock wait passed `lock_timeout`. */
export const LOCK_TIMEOUT = "55P03";

/** PostgreSQL's SQLSTATE `query_canceled`: here, a statement of a bounded transaction passed its `statement_timeout`. */
const QUERY_CANCELED = "57014";

/**
 * True when `e` is a bounded transaction's refusal at its deadline: {@link TxDeadlinePassed} before a
 * statement or its COMMIT, or PostgreSQL's 55P03 (a lock wait) / 57014 (a statement) past the time left.
 */
export function pastTxDeadline(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return e instanceof TxDeadlinePassed || code === LOCK_TIMEOUT || code === QUERY_CANCELED;
}

/** Right before COMMIT of a transaction bounded by `deadline`. @throws TxDeadlinePassed past it */
export function assertBeforeDeadline(deadline: number): void {
  if (Date.now() > deadline) throw new TxDeadlinePassed(deadline);
}
