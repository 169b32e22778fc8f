/**
 * `spec/SPEC.md` section 8: reading a pack: strict lossless JSON (section 2), then the
 * pack schema with every problem named by its JSON path.
 * @packageDocumentation
 */
import { ADDRESS } from "../formats.js";
import { parseJson } from "../json/index.js";
import {
  assertSchema,
  evidencePackProblems,
  evidencePackSchema,
  type EvidencePack,
  type SchemaProblem,
} from "../schemas.js";

/** Result of {@link validateEvidencePack}. */
export interface PackValidation {
  ok: boolean;
  /** the pack (typed) when `ok` */
  pack: EvidencePack | null;
  /** every schema problem with its JSON path */
  problems: SchemaProblem[];
}

/**
 * Check a parsed value against the pack schema (SPEC 8 + format rules),
 * listing every problem with its path. Never throws.
 */
export function validateEvidencePack(value: unknown): PackValidation {
  const problems = evidencePackProblems(value);
  return {
    ok: problems.length === 0,
    pack: problems.length === 0 ? (value as EvidencePack) : null,
    problems,
  };
}

/**
 * Parse a pack from JSON text or bytes: strict lossless JSON (SPEC 2), then
 * the schema (SPEC 8).
 * @throws EvidenceError JSON errors (`invalid_json`, `duplicate_key`, ...) or `schema`, naming the path
 */
export function parseEvidencePack(input: string | Uint8Array): EvidencePack {
  return assertSchema(evidencePackSchema, parseJson(input));
}

/** Check that an address is a lowercase 0x address (SPEC 8 form). */
export function isPackAddress(v: unknown): v is string {
  return typeof v === "string" && ADDRESS.test(v);
}
