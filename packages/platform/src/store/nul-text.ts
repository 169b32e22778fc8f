/**
 * Text with U+0000 (NUL) never reaches the database (probe16 A-F1/F2): PostgreSQL cannot store it in a
 * `text` column (SQLSTATE 22021, "invalid byte sequence for encoding UTF8: 0x00"), so an answer, a
 * title or a path parameter holding one was a 500 on PostgreSQL while SQLite stored it. Every query of
 * the store, on both engines, goes through {@link NulTextRefusal}: a string parameter holding U+0000 is
 * refused before the query is sent, the same on both engines. The server names the JSON path of a body
 * holding one before this is reached; this is the one rule under every entry point (the CLI's options,
 * path parameters, MCP arguments).
 */
import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from "kysely";
import { PlatformError } from "../errors.js";

/** The refusal: `invalid_text` naming U+0000 (no value is echoed). */
function nulRefused(): PlatformError {
  return new PlatformError(
    "invalid_text",
    "text holding U+0000 (NUL) is refused: the store cannot keep it (remove the NUL character)",
    { reason: "nul_character" },
  );
}

/**
 * The placeholder value of a precompiled query's argument (`TableModule.compiled`): it starts with
 * U+0000, which no stored text holds, so it never collides with a value; it is let through only while
 * such a template is compiled ({@link compilingTemplate}).
 */
export const ARG_MARKER = "\u0000bench-bounty.arg:";

let templating = false;

/**
 * Compiles a precompiled query's template (`q.compile()` is synchronous): its {@link ARG_MARKER}
 * placeholders pass the check; any other text holding U+0000 does not, then or ever.
 */
export function compilingTemplate<T>(compile: () => T): T {
  templating = true;
  try {
    return compile();
  } finally {
    templating = false;
  }
}

/** True when `v` is a string holding U+0000 (other than a template's placeholder while compiling it). */
function holdsNul(v: unknown): boolean {
  if (typeof v !== "string" || !v.includes("\u0000")) return false;
  return !(templating && v.startsWith(ARG_MARKER));
}

/**
 * Refuses parameters holding U+0000: the check of the store's precompiled hot queries
 * (`TableModule.compiled`, run without Kysely's plugins).
 * @throws PlatformError `invalid_text`
 */
export function refuseNulText(values: readonly unknown[]): void {
  if (values.some(holdsNul)) throw nulRefused();
}

/** Walks a query's values and refuses one holding U+0000. */
class NulTextCheck extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    if (holdsNul(node.value)) throw nulRefused();
    return super.transformValue(node);
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    if (node.values.some(holdsNul)) throw nulRefused();
    return super.transformPrimitiveValueList(node);
  }
}

/**
 * The Kysely plugin of both engines (see the module doc).
 * @throws PlatformError `invalid_text` (`details.reason: "nul_character"`) from the query that holds one
 */
export class NulTextRefusal implements KyselyPlugin {
  private readonly check = new NulTextCheck();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.check.transformNode(args.node);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
