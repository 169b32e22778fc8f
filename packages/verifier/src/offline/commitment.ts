/**
 * `commitment_root` and `leaf_count` (Step 1): rows in ordinal order
 * (`test_set[i].ordinal == i`), every row hashable, the rebuilt Merkle root ==
 * `benchmark.commit_root`; the number of rows == `benchmark.leaf_count` (> 0).
 *
 * Also indexes the rows by their ordinal field for the receipts: when the
 * ordinals are 0..n-1 in some order, a receipt binds to the row it named even if
 * the array was reordered (that tampering is `commitment_root`'s alone).
 * @packageDocumentation
 */
import {
  goldLeaf,
  leafFromParts,
  merkleRootBytes,
  promptHash,
  toHex,
  type TestSetRow,
} from "@bench-bounty/evidence";
import { errorText, rethrowUnexpected, sameHex } from "../compare.js";
import { fact, factFrom } from "../facts.js";
import type { TestRowView } from "../pack.js";
import type { OfflineFacts, OfflineWalk, TestSetIndex } from "./context.js";

/** Rows between two progress reports. */
const STEP = 4096;

/** The `commitment_root` and `leaf_count` facts; records `commitRoot` and `testSet`. */
export function commitmentFacts(walk: OfflineWalk): Pick<OfflineFacts, "commitment_root" | "leaf_count"> {
  const b = walk.view.benchmark;
  const rows = walk.view.test_set;
  const n = rows.length;
  const promptHashes: (string | null)[] = new Array<string | null>(n).fill(null);
  // index of the first row naming each ordinal in 0..n-1 (-1: none); an ordinal >= n names no row
  const rowIndexByOrdinal = new Int32Array(n).fill(-1);
  const problems: string[] = [];
  const leaves: Uint8Array[] = new Array<Uint8Array>(n);
  let hashable = true;
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    if (row.ordinal !== i)
      problems.push(`${row.path}.ordinal is ${row.ordinal}, expected ${i} (array order is ordinal order)`);
    if (row.ordinal < n && rowIndexByOrdinal[row.ordinal] === -1) rowIndexByOrdinal[row.ordinal] = i;
    try {
      const ph = promptHash(row.prompt);
      promptHashes[i] = ph;
      leaves[i] = leafFromParts(row.ordinal, ph, goldLeaf(row.gold, row.salt, row.path));
    } catch (e) {
      rethrowUnexpected(e);
      hashable = false;
      problems.push(`${row.path}: the leaf cannot be built: ${errorText(e)}`);
    }
    if (walk.onProgress !== undefined && (i + 1) % STEP === 0)
      walk.onProgress({ phase: "commitment", done: i + 1, total: n });
  }
  walk.onProgress?.({ phase: "commitment", done: n, total: n });
  if (n === 0) problems.push("$.test_set is empty: zero leaves have no root");
  else if (hashable) {
    walk.commitRoot = toHex(merkleRootBytes(leaves));
    if (!sameHex(walk.commitRoot, b.commit_root))
      problems.push(`$.benchmark.commit_root is ${b.commit_root}, the ${n} rows rebuild ${walk.commitRoot}`);
  }
  walk.testSet = indexByOrdinal(rows, rowIndexByOrdinal, promptHashes);
  return {
    commitment_root: factFrom(problems, `${n} leaves rebuild ${walk.commitRoot} == benchmark.commit_root`),
    leaf_count:
      n === b.leaf_count && n > 0
        ? fact("verified", `${n} rows == benchmark.leaf_count`)
        : fact("failed", `$.benchmark.leaf_count is ${b.leaf_count}, $.test_set has ${n} rows`),
  };
}

/** The rows and their prompt hashes by ordinal field (the first row naming each ordinal in 0..n-1). */
function indexByOrdinal(
  rows: readonly TestRowView[],
  rowIndexByOrdinal: Int32Array,
  promptHashes: readonly (string | null)[],
): TestSetIndex {
  const n = rows.length;
  const byOrdinal: TestSetRow[] = [];
  const promptHashByOrdinal: string[] = [];
  let bindable = true;
  for (let ord = 0; ord < n; ord++) {
    const idx = rowIndexByOrdinal[ord] as number;
    if (idx === -1) {
      bindable = false;
      continue;
    }
    // a row view carries every field of a TestSetRow (and its path), and its ordinal field is
    // `ord` (the key it is indexed by): it serves as the TestSetRow without a copy
    byOrdinal[ord] = rows[idx] as unknown as TestSetRow;
    promptHashByOrdinal[ord] = promptHashes[idx] ?? "";
  }
  return { byOrdinal, promptHashByOrdinal, bindable };
}
