/**
 * Size limits of a GraphQL operation (issue 13 item 2), checked before Ponder runs it:
 * tokens, depth, aliases and an estimate of the rows it asks for. A nested query of a few
 * hundred bytes used to multiply its work at each level (pages of up to 1,000 rows inside
 * pages) until the process died; the estimate refuses it before any database work.
 */
import {
  Kind,
  parse,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
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
 *   `maxExpandedFields` or `maxEstimatedRows`; `invalid_query` when the document does not parse.
 */
export function checkGraphqlLimits(query: string, variables: Record<string, unknown> = {}): void {
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
    throw new QueryRefused("invalid_query", message);
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const state = { aliases: 0, fields: 0 };
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const rows = measure(d.selectionSet, 1, 1, { fragments, variables, state });
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
    const page = pageSize(limitArg?.value, w.variables);
    const inner = multiplier * page;
    rows += inner + measure(field.selectionSet, depth + 1, inner, w);
  }
  return rows;
}

function pageSize(v: ValueNode | undefined, variables: Record<string, unknown>): number {
  if (v === undefined) return PONDER_DEFAULT_PAGE;
  if (v.kind === Kind.INT) return Math.min(Math.max(Number(v.value), 0), PONDER_MAX_PAGE);
  if (v.kind === Kind.VARIABLE) {
    const x = variables[v.name.value];
    return typeof x === "number" && Number.isFinite(x)
      ? Math.min(Math.max(x, 0), PONDER_MAX_PAGE)
      : PONDER_MAX_PAGE;
  }
  return PONDER_MAX_PAGE;
}
