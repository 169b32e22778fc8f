/**
 * Synthetic inputs for benchmarks and tests (`@bench-bounty/evidence/testing`): one deterministic test
 * set builder and its answers, shared by the evidence and the verifier benchmarks. Not protocol code:
 * nothing of the library's index imports it.
 *
 * @packageDocumentation
 */
import { keccak256, toBareHex } from "./hash.js";
import type { TestSetRow } from "./commitment.js";

/** 64 hex characters (no `0x`) derived from a label: a deterministic "random" salt. */
export function hex64(label: string): string {
  return toBareHex(keccak256(label));
}

/** A test set of `n` rows cycling through the four grader types (exact, numeric, contains_all, json_fields); 30% public. */
export function makeTestSet(n: number): TestSetRow[] {
  const rows: TestSetRow[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const kind = i % 4;
    const visibility = i % 10 < 3 ? "public" : "private";
    const [grader_type, gold]: [string, TestSetRow["gold"]] =
      kind === 0
        ? ["exact", { value: `Answer number ${i}`, alternatives: [`answer #${i}`] }]
        : kind === 1
          ? ["numeric", { value: `${i}.25`, tolerance: "0.01" }]
          : kind === 2
            ? ["contains_all", { terms: [`alpha${i}`, "beta"] }]
            : ["json_fields", { fields: { id: i, label: `row-${i}`, ok: true } }];
    rows[i] = {
      ordinal: i,
      prompt: `Task ${i}: read the record for item ${i} and give the ${grader_type} answer described in the benchmark notes.`,
      gold,
      salt: hex64(`salt-${i}`),
      visibility,
      grader_type,
    };
  }
  return rows;
}

/** An answer to a row of {@link makeTestSet} that its grader credits in full when `right`, with none otherwise. */
export function answerFor(row: TestSetRow, right: boolean): string {
  const i = row.ordinal;
  switch (row.grader_type) {
    case "exact":
      return right ? `  ANSWER number ${i} ` : `answer ${i + 1}`;
    case "numeric":
      return right ? `${i}.254` : `${i}.3`;
    case "contains_all":
      return right ? `Beta and ALPHA${i}` : `alpha${i} only`;
    default:
      return right
        ? `{"id": ${i}, "label": "ROW-${i}", "ok": true}`
        : `{"id": ${i}, "label": "row", "ok": false}`;
  }
}
