/**
 * Locates and reads the protocol's test vectors in the repository, `spec/vectors/`
 * (never edited; `spec/README.md` says where they come from), and, for the drift
 * test, compares the copies with `../shared` when it sits beside the repository root.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson, type JsonValue } from "../src/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root (this checkout). */
export const repoRoot = path.resolve(here, "..", "..", "..");
/** The repository's copy of the protocol: `spec/` (SPEC.md, vectors/). */
export const specDir = path.join(repoRoot, "spec");
/** The vectors directory, `spec/vectors/`. */
export const vectorsDir = path.join(specDir, "vectors");
/** The project's shared folder beside the repository root, the source of `spec/` (may be absent). */
export const sharedBesideRepo = path.join(repoRoot, "..", "shared");

/** Raw bytes of a vector file. */
export function vectorBytes(name: string): Uint8Array {
  return readFileSync(path.join(vectorsDir, name));
}

/** A vector file read with the SPEC 2 parser (integers exact, floats as JsonFloat). */
export function vector(name: string): any {
  return parseJson(vectorBytes(name)) as JsonValue;
}

/** Every file under `dir`, as `/`-separated paths relative to it, sorted. */
function filesUnder(dir: string, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...filesUnder(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

/**
 * How the repository's copy of the protocol (`spec`: `SPEC.md` and `vectors/`) differs
 * from its source (`shared`): one line per file that drifted (`vectors/x.json differs
 * from ...`, `... is missing from spec/`, `... is not in shared/`); empty when every
 * file is byte-identical.
 */
export function specDrift(spec: string, shared: string): string[] {
  const problems: string[] = [];
  const copied = ["SPEC.md", ...filesUnder(path.join(shared, "vectors")).map((f) => `vectors/${f}`)];
  const present = new Set([
    ...(existsSync(path.join(spec, "SPEC.md")) ? ["SPEC.md"] : []),
    ...(existsSync(path.join(spec, "vectors"))
      ? filesUnder(path.join(spec, "vectors")).map((f) => `vectors/${f}`)
      : []),
  ]);
  for (const rel of copied) {
    if (!present.has(rel)) {
      problems.push(`spec/${rel} is missing (copy ${path.join(shared, rel)})`);
      continue;
    }
    if (!readFileSync(path.join(spec, rel)).equals(readFileSync(path.join(shared, rel))))
      problems.push(`spec/${rel} differs from ${path.join(shared, rel)}`);
  }
  const source = new Set(copied);
  for (const rel of present)
    if (!source.has(rel)) problems.push(`spec/${rel} is not in ${path.join(shared, rel)} (remove it)`);
  return problems;
}
