/** What every table module is built on: a Kysely database or transaction, and its engine. */
import { CompiledQuery, sql, type Compilable, type Kysely, type QueryResult, type Selectable } from "kysely";
import type { Engine } from "./engine.js";
import type { Database } from "./schema.js";

/** The store's database, or one transaction of it. */
export type Executor = Kysely<Database>;

/**
 * The text of a placeholder value (see {@link arg}): it starts with U+0000, which no stored text holds
 * (the store refuses it: nul-text.ts), so it never collides with a value; templates are compiled, never run.
 */
const ARG = "\u0000bench-bounty.arg:";

/**
 * Placeholder for argument `i` of a query built for {@link TableModule.compiled}: the builder puts it
 * where the value goes, as Kysely would take the value itself (typed as that value).
 */
export function arg<T>(i: number): T {
  return `${ARG}${i}` as unknown as T;
}

/** A query compiled once: its SQL text, and for each parameter the argument it takes or its constant. */
interface Template {
  sql: string;
  slots: ({ arg: number } | { value: unknown })[];
}

/** Compiled hot queries, by engine and name (a few dozen: the queries of start, submit, finalize, auth). */
const templates = new Map<string, Template>();

function compileTemplate(name: string, arity: number, q: Compilable<unknown>): Template {
  const c = q.compile();
  const used = new Set<number>();
  const slots = c.parameters.map((p) => {
    if (typeof p !== "string" || !p.startsWith(ARG)) return { value: p };
    const i = Number(p.slice(ARG.length));
    used.add(i);
    return { arg: i };
  });
  // Every argument must be a parameter of the query (never inlined into its text): else the cached
  // text would hold the first call's value.
  if (c.sql.includes(ARG) || used.size !== arity)
    throw new Error(`compiled query ${name}: its ${arity} arguments are not all parameters`);
  return { sql: c.sql, slots };
}

/** Base of the table modules: the executor and the engine (for the few engine-specific clauses). */
export abstract class TableModule {
  constructor(
    protected readonly db: Executor,
    protected readonly engine: Engine,
  ) {}

  /** True on PostgreSQL, where rows read to be changed are locked (`FOR UPDATE`); SQLite's IMMEDIATE transaction holds the write lock already. */
  protected get locks(): boolean {
    return this.engine === "postgres";
  }

  /**
   * Takes the lock named `key` until the transaction ends (PostgreSQL: a transaction-scoped advisory
   * lock on `hashtextextended(key, 0)`; on SQLite a no-op, the IMMEDIATE transaction holds the write
   * lock already). Call it inside a transaction before a check and the write it decides: two
   * transactions taking one key run their check-then-write one after the other.
   */
  protected async advisoryLock(key: string): Promise<void> {
    if (this.locks) await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(this.db);
  }

  /**
   * Runs a hot query whose shape never changes, compiled once per engine: `build` gives the Kysely
   * query with {@link arg}`(i)` in place of each value of `args` (called only the first time for
   * `name`, so it must build the same query whatever the arguments are; a variant, such as a locked
   * read or another row count, takes another name). What Kysely would run, without building and
   * compiling the query on every call (bench:api: the largest CPU cost of a full run).
   * @throws Error when an argument is not a parameter of the compiled query (a programming error)
   */
  protected async compiled<R>(
    name: string,
    args: readonly unknown[],
    build: () => Compilable<R>,
  ): Promise<QueryResult<R>> {
    const key = `${this.engine}:${name}`;
    let t = templates.get(key);
    if (t === undefined) templates.set(key, (t = compileTemplate(name, args.length, build())));
    const parameters = t.slots.map((s) => ("arg" in s ? args[s.arg] : s.value));
    return this.db.executeQuery<R>(CompiledQuery.raw(t.sql, parameters));
  }

  /**
   * The row of `table` whose key `column` is `value`, or undefined, through {@link compiled}.
   * `lock`: lock it until the transaction ends (PostgreSQL `FOR UPDATE`; see {@link locks}).
   */
  protected async rowByKey<T extends keyof Database & string>(
    table: T,
    column: keyof Database[T] & string,
    value: string,
    opts: { lock?: boolean } = {},
  ): Promise<Selectable<Database[T]> | undefined> {
    const lock = opts.lock === true && this.locks;
    const name = `${table}.${column}${lock ? ".lock" : ""}`;
    const { rows } = await this.compiled(name, [value], () => {
      // The table is a parameter here, so Kysely's types cannot follow it: the row type is restored below.
      const q = (this.db as unknown as Kysely<Record<string, Record<string, unknown>>>)
        .selectFrom(table)
        .selectAll()
        .where(column, "=", arg<never>(0));
      return lock ? q.forUpdate() : q;
    });
    return rows[0] as Selectable<Database[T]> | undefined;
  }
}

/** True for a unique-constraint violation on either engine. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
