/**
 * Benchmark (probe16 review): the CPU cost of the store's U+0000 check (store/nul-text.ts) per query.
 * The check was a Kysely plugin that walked (and rebuilt) the operation tree of every built query; it
 * now reads each query's compiled parameters once, in the driver's connections. Each case builds and
 * compiles the same query on the store's database (no run: the database's own time would hide the
 * check's), in interleaved rounds, and prints the median:
 *   - baseline: build and compile, no check;
 *   - now: the same, then the parameter check (`refuseNulText`, what the driver's connection runs);
 *   - former: build and compile with the former plugin's tree walk (copied here as it was).
 *
 *   npx pnpm@12.4.2 --filter @bench-bounty/platform bench:nul
 *   ROWS=200 ROUNDS=9 MS_PER_ROUND=300 (defaults)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  OperationNodeTransformer,
  type Compilable,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type ValueNode,
} from "kysely";
import { Store } from "../src/store.js";
import { refuseNulText } from "../src/store/nul-text.js";
import type { Database } from "../src/store/schema.js";

const ROWS = Number(process.env.ROWS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const MS_PER_ROUND = Number(process.env.MS_PER_ROUND ?? 300);

/** The former check (store/nul-text.ts before this change): a walk of every built query's tree. */
class FormerNulWalk extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    if (typeof node.value === "string" && node.value.includes("\u0000")) throw new Error("NUL");
    return super.transformValue(node);
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    if (node.values.some((v) => typeof v === "string" && v.includes("\u0000"))) throw new Error("NUL");
    return super.transformPrimitiveValueList(node);
  }
}
class FormerNulPlugin implements KyselyPlugin {
  private readonly walk = new FormerNulWalk();
  transformQuery(args: PluginTransformQueryArgs) {
    return this.walk.transformNode(args.node);
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

const dir = mkdtempSync(join(tmpdir(), "bb-bench-nul-"));
const store = await Store.open({ dir });
const keys = Array.from({ length: ROWS }, (_, i) => `bench-key-${i}`);
await store.db
  .insertInto("meta")
  .values(keys.map((key) => ({ key, value: `value of ${key}` })))
  .execute();
const former = store.db.withPlugin(new FormerNulPlugin());
const cases: Record<string, (q: (db: Db) => Compilable<unknown>) => unknown> = {
  "baseline (no check)": (q) => q(store.db).compile(),
  "now (compiled parameters)": (q) => refuseNulText(q(store.db).compile()),
  "former (tree walk)": (q) => q(former).compile(),
};

type Db = Kysely<Database>;
const queries: [string, (db: Db) => Compilable<unknown>][] = [
  ["read by one key", (db) => db.selectFrom("meta").select("value").where("key", "=", "bench-key-7")],
  [`read of ${ROWS} keys`, (db) => db.selectFrom("meta").select(["key", "value"]).where("key", "in", keys)],
  [
    `insert of ${ROWS} rows`,
    (db) => db.insertInto("meta").values(keys.map((key) => ({ key, value: `value of ${key}` }))),
  ],
];

/** Microseconds per query of `fn` over one round. */
function round(fn: () => unknown): number {
  let calls = 0;
  const w0 = performance.now();
  while (performance.now() - w0 < MS_PER_ROUND) {
    fn();
    calls++;
  }
  return ((performance.now() - w0) * 1000) / calls;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`the U+0000 check per query (SQLite), median of ${ROUNDS} interleaved rounds of ${MS_PER_ROUND} ms`);
for (const [name, query] of queries) {
  const times = new Map(Object.keys(cases).map((k) => [k, [] as number[]]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [label, run] of Object.entries(cases)) times.get(label)!.push(round(() => run(query)));
  const base = median(times.get("baseline (no check)")!);
  console.log(name);
  for (const [label, xs] of times) {
    const us = median(xs);
    const over = us - base;
    console.log(`  ${label.padEnd(28)} ${us.toFixed(1).padStart(8)} µs  (${over >= 0 ? "+" : ""}${over.toFixed(1)} µs over baseline)`);
  }
}
await store.close();
rmSync(dir, { recursive: true, force: true });
