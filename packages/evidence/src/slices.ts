/**
 * Long computations in steps, so a server can run them without freezing its event loop (probe27
 * A-F6, A-F1): a computation is written once as a generator ({@link Steps}) that yields between units
 * of work (one graded answer), and run either at once ({@link runSteps}: scripts, the verifier CLI,
 * the sync APIs) or in slices ({@link runStepsSliced}: `serve`), which gives the event loop a turn
 * whenever a slice has run for `sliceMs`. Both drivers run the same steps in the same order, so
 * their results are identical.
 * @packageDocumentation
 */

/** A computation in steps: it yields (no value) between units of work and returns its result. */
export type Steps<T> = Generator<void, T, void>;

/** Milliseconds of work a slice of {@link runStepsSliced} runs before it yields, by default. */
export const DEFAULT_SLICE_MS = 10;

/** Options of {@link runStepsSliced}. */
export interface SliceOptions {
  /**
   * Milliseconds of work per slice before the event loop gets a turn (default {@link DEFAULT_SLICE_MS});
   * 0 yields after every step. One step (one answer) is never cut: its cost is bounded by the answer
   * limits (about 130 ms for a 100,000-character answer of U+FDFA).
   */
  sliceMs?: number;
}

/** Runs `steps` to the end at once and returns the result (throws what they throw). */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** One turn of the event loop: timers and I/O callbacks queued meanwhile run first. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof setImmediate === "function") setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}

/**
 * Runs `steps` to the end in slices of about `sliceMs` of work, yielding to the event loop between
 * slices, and resolves with the result (rejects with what they throw). The same result as
 * {@link runSteps}.
 */
export async function runStepsSliced<T>(steps: Steps<T>, o: SliceOptions = {}): Promise<T> {
  const sliceMs = o.sliceMs ?? DEFAULT_SLICE_MS;
  let start = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - start >= sliceMs) {
      await yieldToEventLoop();
      start = performance.now();
    }
  }
}
