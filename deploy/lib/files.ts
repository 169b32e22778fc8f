/**
 * Reading the JSON files the tasks take (commitments, test sets, rank
 * derivations, withdrawal addresses) with the strict SPEC 2 parser of
 * @bench-bounty/evidence, so a bad file is refused with its path and the JSON
 * path of the problem, never half-read.
 */
import fs from "node:fs";
import { TaskError } from "./errors";
import { evidence } from "./packages";

/**
 * Reads and parses a JSON file (duplicate keys refused, integers exact).
 * @throws TaskError naming the flag, the file and the JSON path
 */
export function readJsonFile(file: string, flag: string): unknown {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    throw new TaskError(
      `${flag}: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`,
    );
  }
  try {
    return evidence().parseJson(new Uint8Array(bytes));
  } catch (e) {
    throw new TaskError(`${flag}: ${file} is not valid JSON: ${describeError(e)}`);
  }
}

/**
 * "path: reason" for an EvidenceError (the path printed once: its message
 * already starts with the path, except at the root `$` where it is the reason
 * alone), else the message.
 * @param root where the checked value sits in the file, when it is not the
 *   file's root: `$.rank_derivation` turns `$.rows[0]` into `$.rank_derivation.rows[0]`
 */
export function describeError(e: unknown, root = "$"): string {
  const ev = evidence();
  if (ev.isEvidenceError(e)) {
    const path = e.path === "" ? "$" : e.path;
    const reason = e.message.startsWith(`${path}: `) ? e.message.slice(path.length + 2) : e.message;
    const shown = path.startsWith("$") ? `${root}${path.slice(1)}` : path;
    return `${shown}: ${reason}`;
  }
  return (e as Error)?.message ?? String(e);
}

/** A plain object, or a TaskError naming where. */
export function asObject(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new TaskError(`${where} must be a JSON object.`);
  return v as Record<string, unknown>;
}
