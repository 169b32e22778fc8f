/**
 * Progress of a long verification (the CLI's progress bar).
 * @packageDocumentation
 */

/** Progress of a long verification, reported every few thousand items. */
export interface VerifyProgress {
  /** `parse` (KiB), `schema`, `pack hash`, `commitment` (rows), `receipts` (receipt tasks), `chain`, `indexer` (anchors). */
  phase: string;
  /** Items done in this phase. */
  done: number;
  /** Items in this phase. */
  total: number;
}

/** A progress callback. */
export type ProgressCallback = (p: VerifyProgress) => void;
