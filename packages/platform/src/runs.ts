/**
 * Runs (seed "Compete on Benchmarks", steps 4-6; SPEC 4 and 6): start, submit, finalize, the views a
 * caller is served, and the anchoring of what is pending. One module per step under `runs/`.
 */
export * from "./runs/record.js";
export * from "./runs/plan.js";
export * from "./runs/start.js";
export * from "./runs/submit.js";
export * from "./runs/finalize.js";
export * from "./runs/views.js";
export * from "./runs/anchoring.js";
