/**
 * Locates and reads `shared/vectors/` (never copied, never edited).
 * Default: `<repo>/../shared/vectors`; override the shared directory with
 * the environment variable `BENCH_BOUNTY_SHARED` (the folder holding `vectors/`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson, type JsonValue } from "../src/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root (this checkout; `shared/` sits beside it). */
export const repoRoot = path.resolve(here, "..", "..", "..");
/** The shared directory holding `vectors/`. */
export const sharedDir = process.env.BENCH_BOUNTY_SHARED
  ? path.resolve(process.env.BENCH_BOUNTY_SHARED)
  : path.join(repoRoot, "..", "shared");
/** The vectors directory. */
export const vectorsDir = path.join(sharedDir, "vectors");

/** Raw bytes of a vector file. */
export function vectorBytes(name: string): Uint8Array {
  return readFileSync(path.join(vectorsDir, name));
}

/** A vector file read with the SPEC 2 parser (integers exact, floats as JsonFloat). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function vector(name: string): any {
  return parseJson(vectorBytes(name)) as JsonValue;
}
