/**
 * Text with U+0000 (NUL) never reaches the database (probe16 A-F1/F2): PostgreSQL cannot store it in a
 * `text` column (SQLSTATE 22021, "invalid byte sequence for encoding UTF8: 0x00"), so an answer, a
 * title or a path parameter holding one was a 500 on PostgreSQL while SQLite stored it. Every query of
 * the store, on both engines, goes through a connection of {@link NulTextDialect}: a string parameter
 * holding U+0000 is refused before the query is sent, the same on both engines, whether Kysely built it
 * or it was compiled before (`TableModule.compiled`, `executeQuery`). The check reads the compiled
 * query's parameters once; a Kysely plugin walked (and rebuilt) the operation tree of every built query
 * instead (`bench:nul`). The server names the JSON path of a body holding one before this is reached;
 * this is the one rule under every entry point (the CLI's options, path parameters, MCP arguments).
 *
 * The same wrapper ends a bounded transaction by its deadline (`tx-deadline.ts`, probe21 A-F5): each of
 * its statements is preceded by the time left as its `lock_timeout` and `statement_timeout`, and its
 * COMMIT is refused past the deadline.
 */
import type {
  AbortableOperationOptions,
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from "kysely";
import { PlatformError } from "../errors.js";
import { assertBeforeDeadline, boundNextStatement, txDeadlineHere } from "./tx-deadline.js";

/** The refusal: `invalid_text` naming U+0000 (no value is echoed). */
function nulRefused(): PlatformError {
  return new PlatformError(
    "invalid_text",
    "text holding U+0000 (NUL) is refused: the store cannot keep it (remove the NUL character)",
    { reason: "nul_character" },
  );
}

/**
 * Refuses a compiled query whose parameters hold a string with U+0000 (exported for `bench:nul`).
 * @throws PlatformError `invalid_text` (`details.reason: "nul_character"`)
 */
export function refuseNulText(query: CompiledQuery): void {
  for (const v of query.parameters) if (typeof v === "string" && v.includes("\u0000")) throw nulRefused();
}

/**
 * A connection of the engine's driver that checks each query ({@link refuseNulText}) before sending it,
 * and in a bounded transaction sets the time left before it ({@link boundNextStatement}).
 */
class NulCheckedConnection implements DatabaseConnection {
  /** The deadline (unix ms) of the bounded transaction this connection runs, if any. */
  deadline: number | undefined;
  constructor(readonly inner: DatabaseConnection) {}
  async executeQuery<R>(query: CompiledQuery, options?: AbortableOperationOptions): Promise<QueryResult<R>> {
    refuseNulText(query);
    if (this.deadline !== undefined) await boundNextStatement(this.inner, this.deadline);
    return this.inner.executeQuery<R>(query, options);
  }
  streamQuery<R>(
    query: CompiledQuery,
    chunkSize: number,
    options?: AbortableOperationOptions,
  ): AsyncIterableIterator<QueryResult<R>> {
    refuseNulText(query);
    return this.inner.streamQuery<R>(query, chunkSize, options);
  }
}

/** The engine's own connection of `c` (the engine's driver is handed its own connections back). */
function innerOf(c: DatabaseConnection): DatabaseConnection {
  return c instanceof NulCheckedConnection ? c.inner : c;
}

/**
 * The engine's driver, its connections wrapped in {@link NulCheckedConnection} (one wrapper per
 * pooled connection). No savepoints: the store uses none (Kysely refuses them on this driver).
 */
class NulCheckedDriver implements Driver {
  private readonly wrappers = new WeakMap<DatabaseConnection, NulCheckedConnection>();
  constructor(private readonly inner: Driver) {}
  init(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.init(options);
  }
  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    const c = await this.inner.acquireConnection(options);
    let checked = this.wrappers.get(c);
    if (checked === undefined) this.wrappers.set(c, (checked = new NulCheckedConnection(c)));
    return checked;
  }
  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction(innerOf(c), settings);
    if (c instanceof NulCheckedConnection) c.deadline = txDeadlineHere();
  }
  /** @throws TxDeadlinePassed past a bounded transaction's deadline (Kysely then rolls it back) */
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    if (c instanceof NulCheckedConnection && c.deadline !== undefined) {
      assertBeforeDeadline(c.deadline);
      c.deadline = undefined;
    }
    return this.inner.commitTransaction(innerOf(c));
  }
  rollbackTransaction(c: DatabaseConnection): Promise<void> {
    if (c instanceof NulCheckedConnection) c.deadline = undefined;
    return this.inner.rollbackTransaction(innerOf(c));
  }
  releaseConnection(c: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    if (c instanceof NulCheckedConnection) c.deadline = undefined;
    return this.inner.releaseConnection(innerOf(c), options);
  }
  destroy(options?: AbortableOperationOptions): Promise<void> {
    return this.inner.destroy(options);
  }
}

/**
 * The dialect of both engines: `engine`'s own dialect, whose connections refuse a query holding U+0000
 * in a parameter (see the module doc).
 * @throws PlatformError `invalid_text` (`details.reason: "nul_character"`) from the query that holds one
 */
export class NulTextDialect implements Dialect {
  constructor(private readonly engine: Dialect) {}
  createDriver(): Driver {
    return new NulCheckedDriver(this.engine.createDriver());
  }
  createQueryCompiler(): ReturnType<Dialect["createQueryCompiler"]> {
    return this.engine.createQueryCompiler();
  }
  createAdapter(): ReturnType<Dialect["createAdapter"]> {
    return this.engine.createAdapter();
  }
  createIntrospector(
    db: Parameters<Dialect["createIntrospector"]>[0],
  ): ReturnType<Dialect["createIntrospector"]> {
    return this.engine.createIntrospector(db);
  }
}
