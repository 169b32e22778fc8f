/**
 * The grader types of SPEC 5 (`exact`, `numeric`, `contains_all`, `json_fields`).
 * @packageDocumentation
 */

/** The grader types of SPEC 5. */
export const GRADER_TYPE_NAMES = ["exact", "numeric", "contains_all", "json_fields"] as const;
/** A grader type name. */
export type GraderType = (typeof GRADER_TYPE_NAMES)[number];

/** True for a known grader type. */
export function isGraderType(v: unknown): v is GraderType {
  return typeof v === "string" && (GRADER_TYPE_NAMES as readonly string[]).includes(v);
}
