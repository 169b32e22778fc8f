/**
 * Group commit of the SQLite store: transactions that queue up while one runs share one COMMIT.
 *
 * With `synchronous = FULL` every COMMIT waits for the disk (an fsync of the WAL), and better-sqlite3
 * waits on the event loop's thread: under 50 concurrent agents the fsyncs were the largest cost of a
 * run (bench:api). Here the store's transactions still run one at a time on the one connection, each
 * in its own SAVEPOINT of an outer IMMEDIATE transaction; the outer transaction commits once nobody
 * is waiting (or after {@link MAX_GROUP} transactions), and only then is any of them answered. So each
 * transaction is still all or nothing, and a caller is answered only once its writes are on disk:
 *
 * - a transaction whose `fn` throws is rolled back to its savepoint and its caller gets the error at
 *   once (nothing of it will commit); the others of the group are untouched;
 * - when the group's COMMIT (or a rollback to a savepoint) fails, every transaction of the group not
 *   yet answered gets that error and the whole group is rolled back: nobody is told "done" for
 *   writes that are not stored.
 */
import type { ControlledTransaction, Kysely } from "kysely";
import type { Database } from "./schema.js";

/** Most transactions in one group (then it commits, and reads waiting for the connection get their turn). */
const MAX_GROUP = 32;

interface Group {
  trx: ControlledTransaction<Database>;
  size: number;
  /** Callers whose transaction succeeded, told once the group commits. */
  waiters: { resolve: () => void; reject: (e: unknown) => void }[];
}

/** Runs transactions on one SQLite connection, committing them in groups. */
export class GroupCommit {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private group: Group | null = null;

  constructor(private readonly db: Kysely<Database>) {}

  /** Runs `fn` in its own savepoint of the current group; resolves once the group has committed. */
  async run<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    this.queued++;
    const prev = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    await prev;
    this.queued--;
    let committed: Promise<void> | undefined;
    let result!: T;
    try {
      const group = (this.group ??= { trx: await this.db.startTransaction().execute(), size: 0, waiters: [] });
      const name = `tx${++group.size}`;
      const sp = await this.step(group, () => group.trx.savepoint(name).execute());
      let failure: { error: unknown } | null = null;
      try {
        result = await fn(sp);
      } catch (error) {
        failure = { error };
      }
      if (failure)
        await this.step(group, async () =>
          (await sp.rollbackToSavepoint(name).execute()).releaseSavepoint(name).execute(),
        );
      else {
        await this.step(group, () => sp.releaseSavepoint(name).execute());
        committed = new Promise<void>((resolve, reject) => group.waiters.push({ resolve, reject }));
      }
      if (this.group === group && (this.queued === 0 || group.size >= MAX_GROUP)) await this.commit(group);
      if (failure) throw failure.error;
    } finally {
      release();
    }
    await committed;
    return result;
  }

  /** Runs one statement of the group; when it fails the group is lost: every waiter gets the error. */
  private async step<R>(group: Group, statement: () => Promise<R>): Promise<R> {
    try {
      return await statement();
    } catch (e) {
      await this.fail(group, e);
      throw e;
    }
  }

  private async commit(group: Group): Promise<void> {
    this.group = null;
    try {
      await group.trx.commit().execute();
    } catch (e) {
      await this.fail(group, e);
      return;
    }
    for (const w of group.waiters) w.resolve();
  }

  /** Rolls the whole group back (when SQLite has not already) and rejects its waiters with `e`. */
  private async fail(group: Group, e: unknown): Promise<void> {
    if (this.group === group) this.group = null;
    const waiters = group.waiters.splice(0);
    try {
      if (!group.trx.isCommitted && !group.trx.isRolledBack) await group.trx.rollback().execute();
    } finally {
      for (const w of waiters) w.reject(e);
    }
  }
}
