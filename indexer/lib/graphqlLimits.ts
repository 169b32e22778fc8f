/**
 * Size limits of a GraphQL operation (issue 13 item 2), checked before Ponder runs it:
 * tokens, depth, aliases, the nesting of argument values and variables, and an estimate of the
 * rows it asks for. A nested query of a few hundred bytes used to multiply its work at each level
 * (pages of up to 1,000 rows inside pages) until the process died; the estimate refuses it before
 * any database work. {@link prepareGraphql} also makes the string filters literal and refuses
 * cursors this API cannot have issued.
 */
import {
  Kind,
  parse,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type SelectionSetNode,
  type StringValueNode,
  type ValueNode,
  print,
  valueFromASTUntyped,
  visit,
} from "graphql";
import { QUERY_LIMITS, QueryRefused } from "./limits";

/** Page size Ponder's list fields use when `limit` is not given. */
const PONDER_DEFAULT_PAGE = 50;
/** Largest `limit` Ponder accepts. */
const PONDER_MAX_PAGE = 1000;

/**
 * Checks one GraphQL request against {@link QUERY_LIMITS}.graphql.
 * @param query - the document text.
 * @param variables - the request's variables (used to read `limit: $n`).
 * @throws QueryRefused `limit_exceeded` naming `maxTokens`, `maxDepth`, `maxAliases`,
 *   `maxExpandedFields`, `maxEstimatedRows` or `maxInputDepth`; `invalid_query` when the document does not
 *   parse or a string argument or variable holds U+0000 (naming its path).
 */
export function checkGraphqlLimits(query: string, variables: Record<string, unknown> = {}): DocumentNode {
  const L = QUERY_LIMITS.graphql;
  let doc: DocumentNode;
  try {
    doc = parse(query, { maxTokens: L.maxTokens });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/contains more th(an|at) \d+ tokens/i.test(message)) {
      throw new QueryRefused(
        "limit_exceeded",
        `the document has more than ${L.maxTokens} tokens`,
        "maxTokens",
        L.maxTokens,
      );
    }
    // where in the client's text (probe33 B-F6: the location was dropped)
    throw new QueryRefused("invalid_query", message, undefined, undefined, e instanceof GraphQLError ? e.locations : undefined);
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const state = { aliases: 0, fields: 0 };
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    // a variable's default counts when the request does not give it (probe18 F6: `$l: Int = -3`)
    const given: Record<string, unknown> = {};
    for (const def of d.variableDefinitions ?? [])
      if (def.defaultValue !== undefined) given[def.variable.name.value] = valueFromASTUntyped(def.defaultValue);
    const rows = measure(d.selectionSet, 1, 1, { fragments, variables: { ...given, ...variables }, state });
    if (rows > L.maxEstimatedRows) {
      throw new QueryRefused(
        "limit_exceeded",
        `the operation may return about ${rows} rows (at most ${L.maxEstimatedRows}; page sizes multiply along nested lists): use smaller limits or fewer nested lists`,
        "maxEstimatedRows",
        L.maxEstimatedRows,
      );
    }
  }
  if (state.aliases > L.maxAliases) {
    throw new QueryRefused(
      "limit_exceeded",
      `the document has ${state.aliases} aliases (at most ${L.maxAliases})`,
      "maxAliases",
      L.maxAliases,
    );
  }
  checkInputValues(doc, variables);
  return doc;
}

/**
 * Refuses an argument value or a variable nested deeper than `maxInputDepth` (objects and lists),
 * and a string holding U+0000 anywhere in them (`invalid_query` naming its path, e.g.
 * `where.digest_contains` or `$a[0]`): PostgreSQL text cannot hold it, and its own error
 * ("invalid byte sequence for encoding UTF8: 0x00") reached the client (probe17 B-F10).
 */
function checkInputValues(doc: DocumentNode, variables: Record<string, unknown>): void {
  const max = QUERY_LIMITS.graphql.maxInputDepth;
  const refuse = (where: string): never => {
    throw new QueryRefused(
      "limit_exceeded",
      `${where} is nested deeper than ${max} levels (objects and lists)`,
      "maxInputDepth",
      max,
    );
  };
  const checkText = (text: string, path: string): void => {
    if (text.includes("\u0000"))
      throw new QueryRefused(
        "invalid_query",
        `${path} contains U+0000 (a NUL character), which no value of this API can hold`,
      );
  };
  const valueDepth = (v: ValueNode, depth: number, path: string): void => {
    if (depth > max) refuse("an argument");
    if (v.kind === Kind.STRING) checkText(v.value, path);
    else if (v.kind === Kind.OBJECT)
      for (const f of v.fields) valueDepth(f.value, depth + 1, `${path}.${f.name.value}`);
    else if (v.kind === Kind.LIST) v.values.forEach((x, i) => valueDepth(x, depth + 1, `${path}[${i}]`));
  };
  visit(doc, {
    Argument(node) {
      valueDepth(node.value, 0, node.name.value);
    },
  });
  const jsonDepth = (x: unknown, depth: number, name: string, path: string): void => {
    if (typeof x === "string") checkText(x, path);
    if (x === null || typeof x !== "object") return;
    if (depth > max) refuse(`variable $${name}`);
    if (Array.isArray(x)) x.forEach((v, i) => jsonDepth(v, depth + 1, name, `${path}[${i}]`));
    else
      for (const [k, v] of Object.entries(x)) {
        checkText(k, `${path} (a field name)`);
        jsonDepth(v, depth + 1, name, `${path}.${k}`);
      }
  };
  for (const [name, value] of Object.entries(variables)) jsonDepth(value, 1, name, `$${name}`);
}

/** Ponder's string filters that it turns into `LIKE` / `ILIKE` patterns around the raw value. */
const LIKE_FILTER = /_(not_)?(contains|starts_with|ends_with)(_nocase)?$/;

/** The value with `\`, `%` and `_` escaped for `LIKE` (PostgreSQL's default escape character). */
function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/**
 * The variables of `doc` used as a string filter's value (`kindName_contains: $s`: their value is a
 * pattern) and those used anywhere else (an equality filter, `limit`, a cursor).
 */
function variableUses(doc: DocumentNode): { like: Set<string>; other: Set<string> } {
  const like = new Set<string>();
  const other = new Set<string>();
  visit(doc, {
    VariableDefinition: () => false, // its own name is no use; a default holds no variable
    Variable(node, _key, parent) {
      const filter = parent as { kind?: Kind; name?: { value: string } } | undefined;
      const inLike = filter?.kind === Kind.OBJECT_FIELD && LIKE_FILTER.test(filter.name!.value);
      (inLike ? like : other).add(node.name.value);
    },
  });
  return { like, other };
}

/** Escapes the string values of LIKE filters found anywhere in a variable's value (an input object). */
function escapeLikeInJson(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(escapeLikeInJson);
  if (x === null || typeof x !== "object") return x;
  return Object.fromEntries(
    Object.entries(x).map(([k, v]) => [
      k,
      LIKE_FILTER.test(k) && typeof v === "string" ? likeLiteral(v) : escapeLikeInJson(v),
    ]),
  );
}

/**
 * A cursor this API issued: base64 of Ponder's superjson `{"json": {column: value, ...}}`, the
 * values scalars. Anything else is refused here (Ponder answered such cursors with raw JavaScript
 * errors, e.g. "Cannot read properties of undefined (reading 'id')").
 */
function checkCursor(name: string, cursor: unknown): void {
  const refuse = (): never => {
    throw new QueryRefused(
      "invalid_query",
      `${name} is not a cursor this API returned (use pageInfo.startCursor / endCursor of a previous page)`,
    );
  };
  if (typeof cursor !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(cursor)) refuse();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor as string, "base64").toString("utf8"));
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    refuse();
  }
  const json = (decoded as { json?: unknown } | null)?.json;
  if (json === null || typeof json !== "object" || Array.isArray(json)) refuse();
  const scalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);
  if (Object.keys(json as object).length === 0 || !Object.values(json as object).every(scalar)) refuse();
}

/**
 * Checks a request with {@link checkGraphqlLimits} and returns what GraphQL should run: the client's
 * own text (so that every error's `locations` point into it), with the values of the string filters (`_contains`, `_starts_with`, `_ends_with`, their
 * `_not_` and `_nocase` forms) escaped so that `%` and `_` match themselves (Ponder puts the raw
 * value into a `LIKE` pattern: `%_%_` matched every row), whether written in the document, in an
 * input-object variable (`where: $w`), or as a variable of its own (`kindName_contains: $s`, its value
 * and its default), and every `after` / `before` cursor checked.
 * @throws QueryRefused as {@link checkGraphqlLimits}; `invalid_query` naming a bad cursor argument, or
 *   a variable used both as a string filter's value and as another value.
 */
export function prepareGraphql(
  query: string,
  variables: Record<string, unknown> = {},
): { query: string; variables: Record<string, unknown> } {
  const doc = checkGraphqlLimits(query, variables);
  // probe33 B-F1: a String variable used as a filter's value (`kindName_contains: $s`) was passed raw
  // into LIKE, and a variable merely named like a filter (`$x_contains`) was escaped wherever it was used
  const { like, other } = variableUses(doc);
  for (const name of like)
    if (other.has(name))
      throw new QueryRefused(
        "invalid_query",
        `$${name} is used both as a string filter's value (_contains, _starts_with, _ends_with: matched literally) and as another value: pass two variables`,
      );
  const cursorVariables = new Map<string, string>();
  // the string literals to escape, edited in the client's own text (probe33 B-F6: a re-printed document
  // moved every error's location to text the client never sent); nothing else of it changes
  const edits: { start: number; end: number; text: string }[] = [];
  const escapeLiteral = (node: StringValueNode): void => {
    const value = likeLiteral(node.value);
    if (value !== node.value && node.loc !== undefined)
      edits.push({ start: node.loc.start, end: node.loc.end, text: print({ ...node, value, block: false }) });
  };
  visit(doc, {
    VariableDefinition(node) {
      const d = node.defaultValue;
      if (like.has(node.variable.name.value) && d?.kind === Kind.STRING) escapeLiteral(d);
    },
    Argument(node) {
      if (node.name.value !== "after" && node.name.value !== "before") return;
      if (node.value.kind === Kind.VARIABLE) cursorVariables.set(node.value.name.value, node.name.value);
      else if (node.value.kind === Kind.STRING) checkCursor(node.name.value, node.value.value);
      else if (node.value.kind !== Kind.NULL) checkCursor(node.name.value, null);
    },
    ObjectField(node) {
      if (LIKE_FILTER.test(node.name.value) && node.value.kind === Kind.STRING) escapeLiteral(node.value);
    },
  });
  for (const [name, argument] of cursorVariables) {
    const v = variables[name];
    if (v !== undefined && v !== null) checkCursor(`${argument} ($${name})`, v);
  }
  let text = query;
  for (const e of edits.sort((a, b) => b.start - a.start))
    text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return {
    query: text,
    variables: Object.fromEntries(
      Object.entries(variables).map(([name, v]) => [
        name,
        like.has(name) && typeof v === "string" ? likeLiteral(v) : escapeLikeInJson(v),
      ]),
    ),
  };
}

interface Walk {
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  /** Aliases seen, and fields expanded (each visit counts: a fragment spread twice counts twice). */
  state: { aliases: number; fields: number };
}

/**
 * The fields of `set` as GraphQL executes them: inline fragments and named fragment spreads
 * are flattened into their fields (a fragment already being expanded on this path is skipped:
 * a cycle, which GraphQL validation refuses anyway). A page's `items` hidden in
 * `... on XPage { items }` or `...F` is still a direct field of the page here.
 */
function fieldsOf(set: SelectionSetNode, w: Walk, expanding: Set<string> = new Set()): FieldNode[] {
  const out: FieldNode[] = [];
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (++w.state.fields > QUERY_LIMITS.graphql.maxExpandedFields) {
        const m = QUERY_LIMITS.graphql.maxExpandedFields;
        throw new QueryRefused(
          "limit_exceeded",
          `the operation has more than ${m} fields once its fragments are expanded`,
          "maxExpandedFields",
          m,
        );
      }
      out.push(sel);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) out.push(...fieldsOf(sel.selectionSet, w, expanding));
    else {
      const name = sel.name.value;
      const frag = w.fragments.get(name);
      if (frag === undefined || expanding.has(name)) continue; // unknown or cyclic: GraphQL validation refuses it
      expanding.add(name);
      out.push(...fieldsOf(frag.selectionSet, w, expanding));
      expanding.delete(name);
    }
  }
  return out;
}

/**
 * Rows asked for below `set`, each list field (one whose selection, fragments flattened,
 * has `items`) counting its page size times `multiplier`. Throws on depth over the limit.
 */
function measure(set: SelectionSetNode, depth: number, multiplier: number, w: Walk): number {
  const max = QUERY_LIMITS.graphql.maxDepth;
  if (depth > max) {
    throw new QueryRefused(
      "limit_exceeded",
      `the operation is nested deeper than ${max} levels`,
      "maxDepth",
      max,
    );
  }
  let rows = 0;
  for (const field of fieldsOf(set, w)) {
    if (field.alias !== undefined) w.state.aliases++;
    if (field.selectionSet === undefined) continue;
    const isPage = fieldsOf(field.selectionSet, w).some((f) => f.name.value === "items");
    if (!isPage) {
      rows += measure(field.selectionSet, depth + 1, multiplier, w);
      continue;
    }
    const limitArg = field.arguments?.find((a) => a.name.value === "limit");
    const page = pageSize(field.name.value, limitArg?.value, w.variables);
    const inner = multiplier * page;
    rows += inner + measure(field.selectionSet, depth + 1, inner, w);
  }
  return rows;
}

/**
 * The page size a list field asks for. A `limit` under 1 is refused (probe18 F6: Ponder asks for
 * `limit + 1` rows, so -2 and less meant every row of the table, and the estimate counted 0): from a
 * literal, a variable or a variable's default.
 * @throws QueryRefused `invalid_query` naming the field's `limit` and its value
 */
function pageSize(field: string, v: ValueNode | undefined, variables: Record<string, unknown>): number {
  if (v === undefined) return PONDER_DEFAULT_PAGE;
  const x = v.kind === Kind.INT ? Number(v.value) : v.kind === Kind.VARIABLE ? variables[v.name.value] : undefined;
  if (typeof x !== "number") return PONDER_MAX_PAGE; // null or absent: Ponder's default; other types: its own refusal
  if (!Number.isInteger(x) || x < 1)
    throw new QueryRefused(
      "invalid_query",
      `${field}(limit: ${x}): limit must be an integer from 1 to ${PONDER_MAX_PAGE}`,
    );
  return Math.min(x, PONDER_MAX_PAGE);
}
