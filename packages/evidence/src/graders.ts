/**
 * `spec/SPEC.md` section 5: graders (`exact`, `numeric`, `contains_all`, `json_fields`), the
 * normalisation `norm`, gold validation at publish time, and the pack's
 * `grader_types` description block: one module each under `graders/`.
 * @packageDocumentation
 */

export * from "./graders/names.js";
export * from "./graders/norm.js";
export * from "./graders/unicode-baseline.js";
export * from "./graders/stream-safe.js";
export * from "./graders/final-sigma.js";
export * from "./graders/gold.js";
export * from "./graders/grade.js";
export * from "./graders/types-block.js";
