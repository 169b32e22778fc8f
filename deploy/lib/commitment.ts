/**
 * The commitment file of `bounty:lock --commitment`, `bounty:status --commitment` and `anchor --file`: the
 * one reader of its two shapes (probe32 A-F1: the platform's own answer was refused "$.root must be ..."),
 * and the test-set file of `bounty:lock --test-set` and `anchor --file` (its SPEC 3 root).
 */
import { TaskError } from "./errors";
import { asObject, describeError, readJsonFile } from "./files";
import { evidence } from "./packages";

/** A test-set commitment as `createBounty` takes it (SPEC 1.1): the root and the leaf count. */
export interface CommitmentFile {
  /** The test-set root, `0x` + 64 lowercase hex, not zero. */
  root: string;
  /** The number of leaves, 1..4294967295 (`uint32`). */
  leafCount: number;
  /**
   * The platform's answer's `awarder` (its signing address, the one awarder its attach accepts), when
   * the file names one.
   */
  awarder?: string;
  /**
   * The platform's answer says its commitment is anchored on chain (`commitment_anchor_status`
   * `"anchored"`, or a `commitment_anchor`) yet names no awarder (`awarder: null`: saved from a process
   * without a chain; probe36 A-F6): a service that anchors has an awarder, so the file cannot say which.
   */
  anchoredWithoutAwarder?: true;
}

/**
 * Reads a commitment file in either shape: the tasks' own `{"root": "0x…", "leafCount": n}`, or the
 * platform's answer of `GET /api/v1/benchmarks/:slug/commitment` saved as it is (`{"commit_root":
 * "0x…", "leaf_count": n, "commitment_anchor_status": ..., ...}`; its other members are not read).
 * Members of both shapes in one file are refused, as is a `commit_root` of null (the platform shows
 * it once the commitment's anchor is confirmed: `commitment_anchor_status` names why not yet).
 * @param file the file's path, as given
 * @param flag the option named in a refusal (`--commitment`)
 * @returns the root and the leaf count, and the platform answer's `awarder` when it names one
 *   (`anchoredWithoutAwarder` when it is null while the answer says the commitment is anchored)
 * @throws TaskError `<flag> <file>: $.<member> ...` naming the JSON path of the problem; the file
 *   errors of {@link readJsonFile}
 */
export function readCommitmentFile(file: string, flag: string): CommitmentFile {
  const where = `${flag} ${file}`;
  return commitmentOf(asObject(readJsonFile(file, flag), where), where);
}

/**
 * True when `doc` is meant as a commitment file (either shape of {@link readCommitmentFile}: it has both
 * `root` and `leafCount`, or both of the platform's `commit_root` and `leaf_count`), however well-formed.
 * A receipt (SPEC 4) names a `commit_root` but no `leaf_count`: it is none.
 */
export function isCommitmentDocument(doc: unknown): doc is Record<string, unknown> {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return false;
  return ("root" in doc && "leafCount" in doc) || ("commit_root" in doc && "leaf_count" in doc);
}

/**
 * The test-set rows of a test-set file (`bounty:lock --test-set`): the rows themselves (a JSON array) or
 * `{"test_set": [...]}`; undefined for any other document.
 * @returns the rows and the JSON path they sit at (`$` or `$.test_set`)
 */
export function testSetRowsOf(doc: unknown): { rows: unknown[]; at: string } | undefined {
  if (Array.isArray(doc)) return { rows: doc, at: "$" };
  if (typeof doc === "object" && doc !== null && Array.isArray((doc as Record<string, unknown>).test_set))
    return { rows: (doc as { test_set: unknown[] }).test_set, at: "$.test_set" };
  return undefined;
}

/**
 * The SPEC 3 commitment of a test-set file's rows ({@link testSetRowsOf}), by `commitTestSet` of the
 * evidence library: what `bounty:lock --test-set` locks on and `anchor --file` anchors.
 * @param doc the file's JSON value
 * @param where the option and file named in a refusal (`--test-set deploy/examples/test-set.json`)
 * @throws TaskError `<where>: expected an array of rows or an object with "test_set".`, or naming the
 *   JSON path of a row the commitment refuses
 */
export function testSetCommitment(doc: unknown, where: string): { root: string; leafCount: number } {
  const found = testSetRowsOf(doc);
  if (found === undefined)
    throw new TaskError(`${where}: expected an array of rows or an object with "test_set".`);
  try {
    const c = evidence().commitTestSet(found.rows as never, found.at);
    return { root: c.root, leafCount: c.leafCount };
  } catch (e) {
    throw new TaskError(`${where}: ${describeError(e)}`);
  }
}

/**
 * {@link readCommitmentFile} of a file already read: `doc` its JSON object, `where` the option and file
 * named in a refusal (`--commitment c.json`).
 * @throws TaskError `<where>: $.<member> ...` naming the JSON path of the problem
 */
export function commitmentOf(doc: Record<string, unknown>, where: string): CommitmentFile {
  const platform = "commit_root" in doc || "leaf_count" in doc;
  if (platform && ("root" in doc || "leafCount" in doc))
    throw new TaskError(
      `${where}: has both $.root/$.leafCount and the platform's $.commit_root/$.leaf_count: keep one pair.`,
    );
  const [rootName, countName] = platform ? ["commit_root", "leaf_count"] : ["root", "leafCount"];
  const root = doc[rootName];
  const leafCount = doc[countName];
  if (platform && root === null) {
    const status = doc.commitment_anchor_status;
    throw new TaskError(
      `${where}: $.commit_root is null: the platform shows it once the commitment's anchor is confirmed${typeof status === "string" ? ` ($.commitment_anchor_status is ${JSON.stringify(status)})` : ""}; fetch the commitment again later.`,
    );
  }
  if (typeof root !== "string" || !/^0x[0-9a-f]{64}$/.test(root))
    throw new TaskError(
      `${where}: $.${rootName} must be 0x + 64 lowercase hex, got ${JSON.stringify(root)}.`,
    );
  if (BigInt(root) === 0n) throw new TaskError(`${where}: $.${rootName} is zero.`);
  if (
    typeof leafCount !== "number" ||
    !Number.isInteger(leafCount) ||
    leafCount < 1 ||
    leafCount > 0xffffffff
  )
    throw new TaskError(
      `${where}: $.${countName} must be an integer 1..4294967295, got ${String(leafCount)}.`,
    );
  // the platform's answer names the awarder its attach accepts (null without a chain: not named)
  const awarder = platform ? doc.awarder : undefined;
  if (
    awarder !== undefined &&
    awarder !== null &&
    (typeof awarder !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(awarder))
  )
    throw new TaskError(
      `${where}: $.awarder must be a 0x address of 40 hex digits or null, got ${JSON.stringify(awarder)}.`,
    );
  const anchored =
    platform &&
    awarder === null &&
    (doc.commitment_anchor_status === "anchored" ||
      (doc.commitment_anchor !== undefined && doc.commitment_anchor !== null));
  return {
    root,
    leafCount,
    ...(typeof awarder === "string" ? { awarder } : {}),
    ...(anchored ? { anchoredWithoutAwarder: true as const } : {}),
  };
}
