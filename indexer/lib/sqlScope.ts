/**
 * Name resolution of the `/sql/db` guard (issue 13 re-probe 6, O1 and O11): which relation
 * every `FROM` name of a statement reads, and which column every `x.f` reads.
 *
 * - **CTE scoping** (O1): a `WITH` query's name is visible in the `WITH`'s main statement and in
 *   the later sibling CTEs (never in itself: `WITH RECURSIVE` is refused), and inner queries see
 *   outer CTEs, not the reverse, as in PostgreSQL (`parse_cte.c`). A `FROM` name that is neither
 *   an in-scope CTE nor one of the indexer's tables is refused: it would resolve through
 *   `search_path`, where `pg_catalog` is always searched (`WITH pg_authid AS (SELECT ... FROM
 *   pg_authid) SELECT * FROM pg_authid` read the catalog's `pg_authid`).
 * - **Columns** (O11): PostgreSQL reads `x.f` as the call `f(x)` when `f` is not a column of `x`
 *   (attribute notation), and `(x).f` likewise: `w.pg_typeof` called a function off the allowlist.
 *   So `x.f` is accepted only when `x` is a `FROM` item of the statement and `f` one of its
 *   columns (the indexer tables' columns from the Ponder schema; for a CTE or subquery, the output
 *   names the guard can tell for sure: `AS` names, plain column references, `*`); `(x).f`, names of
 *   three or more parts and a whole row (`w`, `w.*`) passed to a function other than
 *   {@link ROW_FUNCTIONS} are refused. `f` must be a column of every FROM item called `x` that the
 *   point may see (the guard's view of a scope is PostgreSQL's or wider: a subquery in FROM sees the
 *   earlier items of its level even without LATERAL, an ON clause every earlier item), so whichever
 *   one PostgreSQL picks, `x.f` is a column, never a call.
 */
import { QueryRefused } from "./limits";

/** Output names of a relation, in order; `null` where the guard cannot tell the name (never matches). */
type Columns = readonly (string | null)[];

/** The indexer's tables: SQL table name → SQL column names (in table order). */
export type TableColumns = ReadonlyMap<string, readonly string[]>;

/** drizzle's `snake_case` casing (the one Ponder uses): `bountyId` → `bounty_id`. */
function snakeCase(input: string): string {
  const words = input.replace(/['\u2019]/g, "").match(/[\da-z]+|[A-Z]+(?![a-z])|[A-Z][\da-z]+/g) ?? [];
  return words.map((w) => w.toLowerCase()).join("_");
}

/**
 * The tables of a Ponder schema module (`ponder:schema`) with their SQL column names, read from
 * drizzle's table symbols (drizzle-orm is not a direct dependency; Ponder does not re-export
 * `getTableName`/`getTableColumns`). A column named by its key is snake-cased, as Ponder's drizzle does.
 */
export function ponderTableColumns(schema: Record<string, unknown>): TableColumns {
  return new Map(
    Object.values(schema).flatMap((v) => {
      const t = (v ?? {}) as Record<symbol, unknown>;
      const name = t[Symbol.for("drizzle:Name")];
      const columns = t[Symbol.for("drizzle:Columns")] as
        | Record<string, { name: string; keyAsName?: boolean }>
        | undefined;
      if (
        t[Symbol.for("drizzle:IsDrizzleTable")] !== true ||
        typeof name !== "string" ||
        columns === undefined
      )
        return [];
      return [[name, Object.values(columns).map((c) => (c.keyAsName === true ? snakeCase(c.name) : c.name))]];
    }),
  );
}

/** Functions a whole row may be passed to (its JSON). */
export const ROW_FUNCTIONS: ReadonlySet<string> = new Set(["row_to_json", "to_json", "to_jsonb"]);

/** CTEs visible at a point of the statement (innermost first through `parent`). */
interface CteScope {
  ctes: Map<string, Columns>;
  parent?: CteScope;
}

/** FROM items of one query level registered so far (innermost first through `parent`). */
interface Namespace {
  items: { name: string; cols: Columns }[];
  parent?: Namespace;
}

/** What resolution checked: the `RangeVar` and `ColumnRef` nodes (the node walk refuses any other). */
export interface Resolution {
  rangeVars: Set<object>;
  columnRefs: Set<object>;
  /**
   * The `ColumnRef` nodes that are a whole row as one value (a bare `w` naming a FROM item, `w.*`
   * passed to a row function), each with the most columns such a row may have: a value as long as
   * all of them (probe17 B-F7).
   */
  wholeRows: Map<object, number>;
}

const MAX_DEPTH = 300;
type Node = Record<string, unknown>;

const str = (n: unknown): string | undefined => (n as { String?: { sval?: string } })?.String?.sval;

function lookupCte(scope: CteScope | undefined, name: string): Columns | undefined {
  for (let s = scope; s !== undefined; s = s.parent) {
    const c = s.ctes.get(name);
    if (c !== undefined) return c;
  }
  return undefined;
}

/** Every FROM item called `name` that a point with namespace `ns` may see (a superset of PostgreSQL's). */
function candidates(ns: Namespace | undefined, name: string): Columns[] {
  const out: Columns[] = [];
  for (let n = ns; n !== undefined; n = n.parent)
    for (const i of n.items) if (i.name === name) out.push(i.cols);
  return out;
}

/** Renames the first columns after `AS x(a, b)`; the rest is dropped (their order is not always known). */
function renamed(cols: Columns, colnames: unknown): Columns {
  const names = ((colnames as unknown[] | undefined) ?? []).map((c) => str(c) ?? null);
  return names.length > 0 ? names : cols;
}

function nestedTooDeeply(depth: number): void {
  if (depth > MAX_DEPTH) throw new QueryRefused("not_read_only", "SQL is nested too deeply");
}

class Resolver {
  readonly out: Resolution = { rangeVars: new Set(), columnRefs: new Set(), wholeRows: new Map() };
  constructor(private readonly tables: TableColumns) {}

  /** Output names of a SELECT (a `SelectStmt` body), resolving everything inside it. */
  select(s: Node, outer: CteScope | undefined, outerNs: Namespace | undefined, depth: number): Columns {
    nestedTooDeeply(depth);
    let scope = outer;
    const w = s.withClause as { ctes?: { CommonTableExpr?: Node }[]; recursive?: boolean } | undefined;
    if (w !== undefined) {
      if (w.recursive === true) throw new QueryRefused("not_read_only", "WITH RECURSIVE is not allowed");
      scope = { ctes: new Map(), parent: outer };
      for (const c of w.ctes ?? []) {
        const cte = c.CommonTableExpr ?? {};
        const body = (cte.ctequery as { SelectStmt?: Node } | undefined)?.SelectStmt;
        if (body === undefined) continue; // not a SELECT: refused by the node walk
        // the CTE sees the scope so far (earlier siblings, outer CTEs), not itself
        const cols = renamed(this.select(body, scope, outerNs, depth + 1), cte.aliascolnames);
        scope.ctes.set(String(cte.ctename ?? ""), cols);
      }
    }
    if (s.op !== undefined && s.op !== "SETOP_NONE") {
      const left = this.select((s.larg ?? {}) as Node, scope, outerNs, depth + 1);
      this.select((s.rarg ?? {}) as Node, scope, outerNs, depth + 1);
      const rest = { sortClause: s.sortClause, limitCount: s.limitCount, limitOffset: s.limitOffset };
      this.expressions(rest, scope, outerNs, depth + 1);
      return left;
    }
    // FROM items are registered in order: a (LATERAL) subquery sees the earlier ones
    const ns: Namespace = { items: [], parent: outerNs };
    const local: Columns[] = [];
    for (const f of (s.fromClause as unknown[] | undefined) ?? [])
      local.push(...this.fromItem(f as Node, scope, ns, depth + 1));
    const rest: Node = { ...s, withClause: undefined, fromClause: undefined };
    this.expressions(rest, scope, ns, depth + 1);
    if (s.valuesLists !== undefined) return [];
    return ((s.targetList as { ResTarget?: Node }[] | undefined) ?? []).flatMap((t) =>
      this.targetNames(t.ResTarget ?? {}, local, ns),
    );
  }

  /** Resolves one `FROM` item and registers it in `ns`; returns the column lists it adds (for `*`). */
  private fromItem(f: Node, scope: CteScope | undefined, ns: Namespace, depth: number): Columns[] {
    nestedTooDeeply(depth);
    if (f.RangeVar !== undefined) {
      const rv = f.RangeVar as Node;
      const name = String(rv.relname ?? "");
      if (rv.schemaname !== undefined || rv.catalogname !== undefined) {
        throw new QueryRefused(
          "not_read_only",
          `relation ${String(rv.schemaname)}.${name}: only the indexer's tables, unqualified, may be read`,
        );
      }
      const cols = lookupCte(scope, name) ?? this.tables.get(name);
      if (cols === undefined) {
        throw new QueryRefused(
          "not_read_only",
          `relation "${name}" is neither one of the indexer's tables (${[...this.tables.keys()].join(", ")}) nor a WITH query in scope here`,
        );
      }
      this.out.rangeVars.add(rv);
      const alias = rv.alias as Node | undefined;
      const own = renamed(cols, alias?.colnames);
      ns.items.push({ name: String(alias?.aliasname ?? name), cols: own });
      return [own];
    }
    if (f.RangeSubselect !== undefined) {
      const rs = f.RangeSubselect as Node;
      const body = (rs.subquery as { SelectStmt?: Node } | undefined)?.SelectStmt ?? {};
      const alias = rs.alias as Node | undefined;
      // it sees the earlier items of its level (PostgreSQL: only when LATERAL; a superset is stricter, below)
      const own = renamed(
        this.select(body, scope, { items: [...ns.items], parent: ns.parent }, depth + 1),
        alias?.colnames,
      );
      if (alias?.aliasname !== undefined) ns.items.push({ name: String(alias.aliasname), cols: own });
      return [own];
    }
    if (f.JoinExpr !== undefined) {
      const j = f.JoinExpr as Node;
      if (j.alias !== undefined) {
        throw new QueryRefused(
          "not_read_only",
          "an alias on a JOIN is not allowed: alias its relations instead",
        );
      }
      const both = [
        ...this.fromItem(j.larg as Node, scope, ns, depth + 1),
        ...this.fromItem(j.rarg as Node, scope, ns, depth + 1),
      ];
      this.expressions({ quals: j.quals }, scope, ns, depth + 1);
      return both;
    }
    return []; // another FROM item (a function): refused by the node walk
  }

  /** Checks the column references of expressions and resolves their subqueries (`SubLink`s). */
  private expressions(
    node: unknown,
    scope: CteScope | undefined,
    ns: Namespace | undefined,
    depth: number,
  ): void {
    nestedTooDeeply(depth);
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const n of node) this.expressions(n, scope, ns, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node as Node)) {
      if (key === "SelectStmt") {
        this.select(value as Node, scope, ns, depth + 1);
        continue;
      }
      if (key === "ColumnRef") {
        checkColumnRef(value as Node, ns);
        this.out.columnRefs.add(value as object);
        const fields = ((value as Node).fields as unknown[] | undefined) ?? [];
        if (fields.length === 1) this.recordWholeRow(node, ns);
      } else if (key === "A_Indirection") checkIndirection(value as Node);
      else if (key === "FuncCall") {
        checkRowArguments(value as Node, ns);
        for (const a of ((value as Node).args as unknown[] | undefined) ?? []) this.recordWholeRow(a, ns);
      }
      this.expressions(value, scope, ns, depth + 1);
    }
  }

  /** Records `n` in {@link Resolution.wholeRows} when it is a whole row, with its FROM item's most columns. */
  private recordWholeRow(n: unknown, ns: Namespace | undefined): void {
    const columnRef = (n as { ColumnRef?: { fields?: unknown[] } })?.ColumnRef;
    if (columnRef === undefined || !isWholeRow(n, ns)) return;
    const name = str(columnRef.fields?.[0]) ?? "";
    const widths = candidates(ns, name).map((cols) => cols.length);
    this.out.wholeRows.set(columnRef, Math.max(1, ...widths));
  }

  /** The output name(s) of one target: `AS` name, a column reference's last name, `*` expanded; else unknown. */
  private targetNames(t: Node, local: Columns[], ns: Namespace): Columns {
    if (typeof t.name === "string") return [t.name];
    const fields = ((t.val as { ColumnRef?: { fields?: unknown[] } })?.ColumnRef?.fields ?? []) as Node[];
    const last = fields.at(-1);
    if (last === undefined) return [null];
    if (last.A_Star === undefined) return [str(last) ?? null];
    if (fields.length === 1) return local.flat();
    // x.*: the names every relation x may be have in common
    const all = candidates(ns, str(fields[0]) ?? "");
    return (all[0] ?? []).filter((c) => all.every((cols) => cols.includes(c)));
  }
}

/**
 * Resolves every relation name and column reference of a SELECT (see the module comment).
 * @param stmt - the `SelectStmt` body of the parse tree.
 * @throws QueryRefused `not_read_only` for a name that is not an indexer table or an in-scope
 *   CTE, a qualified relation, `x.f` that may not be a column, `(x).f`, a whole row passed to a
 *   function, an aliased JOIN.
 */
export function resolveNames(stmt: Node, tables: TableColumns): Resolution {
  const r = new Resolver(tables);
  r.select(stmt, undefined, undefined, 0);
  return r.out;
}

/** Whether `n` (an expression node) is, or may be, a whole row: `w.*`, or a bare `w` naming a FROM item. */
function isWholeRow(n: unknown, ns: Namespace | undefined): boolean {
  const fields = ((n as { ColumnRef?: { fields?: unknown[] } })?.ColumnRef?.fields ?? []) as Node[];
  if (fields.length === 2 && fields[1]!.A_Star !== undefined) return true;
  const name = fields.length === 1 ? str(fields[0]) : undefined;
  // a FROM item's name: a whole row unless a column of that name is in scope (refused either way)
  return name !== undefined && candidates(ns, name).length > 0;
}

/**
 * The system columns every PostgreSQL table has (PostgreSQL 16, "System Columns"): the transaction ids
 * of the cluster (`xmin`, `xmax`), the command ids (`cmin`, `cmax`), the table's OID and the row's
 * location. A reference to one, bare or qualified, is refused (probe15 B-F4): no table of the indexer has
 * a column of these names.
 */
const SYSTEM_COLUMNS: ReadonlySet<string> = new Set(["tableoid", "ctid", "xmin", "xmax", "cmin", "cmax"]);

/**
 * `x.f` needs `f` a column of every FROM item called `x` the point may see (PostgreSQL picks the
 * innermost, which is one of them); `x.*` needs one; three or more parts are refused; so is a system
 * column, bare or qualified ({@link SYSTEM_COLUMNS}).
 */
function checkColumnRef(n: Node, ns: Namespace | undefined): void {
  const fields = (n.fields as Node[] | undefined) ?? [];
  const names = fields.map((f) => str(f) ?? "*");
  const column = names.at(-1);
  if (column !== undefined && SYSTEM_COLUMNS.has(column)) {
    throw new QueryRefused(
      "not_read_only",
      `column ${names.join(".")} is a system column of PostgreSQL (${[...SYSTEM_COLUMNS].join(", ")}): ` +
        "SQL over HTTP reads the indexer's tables, not facts of the database server (its transaction ids, OIDs, row locations)",
    );
  }
  if (fields.length <= 1) return;
  if (fields.length > 2) {
    throw new QueryRefused(
      "not_read_only",
      `column ${names.join(".")}: write relation.column (two parts at most)`,
    );
  }
  const [rel, col] = names as [string, string];
  const all = candidates(ns, rel);
  if (all.length === 0) {
    throw new QueryRefused(
      "not_read_only",
      `column ${rel}.${col}: "${rel}" is not a FROM item in scope here`,
    );
  }
  if (col !== "*" && !all.every((cols) => cols.includes(col))) {
    throw new QueryRefused(
      "not_read_only",
      `column ${rel}.${col}: "${col}" is not a column of "${rel}"${
        all.length > 1 ? " (or of one of the relations of that name in scope)" : ""
      }: attribute notation x.f calls the function f(x); give each FROM item its own alias`,
    );
  }
}

/** Refuses `(x).f` and `(x).*` (field selection calls `f(x)` when `f` is not a field): write `x.f`. */
function checkIndirection(n: Node): void {
  for (const i of (n.indirection as Node[] | undefined) ?? []) {
    if (i.String !== undefined || i.A_Star !== undefined) {
      throw new QueryRefused(
        "not_read_only",
        `field selection (x).${str(i) ?? "*"} is not allowed (it calls a function when the field does not exist): write relation.column`,
      );
    }
  }
}

/** Refuses a whole row (`w`, `w.*`) passed to a function other than {@link ROW_FUNCTIONS}. */
function checkRowArguments(call: Node, ns: Namespace | undefined): void {
  const name = ((call.funcname as unknown[] | undefined) ?? []).map(str).at(-1) ?? "";
  if (ROW_FUNCTIONS.has(name)) return;
  if (((call.args as unknown[] | undefined) ?? []).some((a) => isWholeRow(a, ns))) {
    throw new QueryRefused(
      "not_read_only",
      `${name}(): a whole row may only be passed to ${[...ROW_FUNCTIONS].join(", ")}; pass its columns`,
    );
  }
}
