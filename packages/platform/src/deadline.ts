/**
 * One deadline for a call that reads a chain (probe16 A-F3): the caller is answered by it, whatever the
 * chain's latency; the work it started goes on (its reads end by the RPC transport's own timeout) and
 * must itself refuse any irreversible step past the deadline.
 */

/** Marks a deadline that passed before the work ended. */
const LATE: unique symbol = Symbol("late");

/**
 * `work`'s value if it settles by `deadline` (unix ms, wall clock), else `late()`'s (called when the
 * deadline passes, so it sees how far the work got). `stop`, once aborted, answers as the deadline
 * does, at once (the process is stopping: the award's, probe29 C-F9). The work is not cancelled: it
 * goes on, and its later failure, if any, is dropped (the caller was answered).
 * @throws what `work` throws by the deadline, or what `late` throws
 */
export async function byDeadline<T, L>(
  work: Promise<T>,
  deadline: number,
  late: () => L,
  stop?: AbortSignal,
): Promise<T | L> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onStop: (() => void) | undefined;
  const expired = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), Math.max(0, deadline - Date.now()));
    onStop = () => resolve(LATE);
    if (stop?.aborted) resolve(LATE);
    else stop?.addEventListener("abort", onStop, { once: true });
  });
  work.catch(() => undefined); // a failure after the answer is nobody's to hear
  try {
    const first = await Promise.race([work, expired]);
    return first === LATE ? late() : first;
  } finally {
    clearTimeout(timer);
    if (onStop) stop?.removeEventListener("abort", onStop);
  }
}

/**
 * `work`'s value if it settles by `by` (unix ms, wall clock), else null ({@link byDeadline}: the work
 * goes on, its later failure dropped); with no `by` (the CLI, background work), `work` itself. A
 * request's wait for an anchor its write sent ends by the request's deadline (probe33 A-F5): the write
 * is committed, the anchor answered pending (null) and recorded once mined.
 * @throws what `work` throws by `by`
 */
export function byDeadlineOrNull<T>(work: Promise<T>, by: number | undefined): Promise<T | null> {
  return by === undefined ? work : byDeadline(work, by, () => null);
}
