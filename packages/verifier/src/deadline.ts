/**
 * The total deadline of a verification (issue 13 re-probe): `--timeout` bounds each request, but a
 * server answering every request correctly just under it (or dribbling many pages) kept a verification
 * running for hours. {@link withinDeadline} bounds the whole walk, every read included (pack, JWKS,
 * RPC, indexer): at the deadline every request in flight is aborted, no further one starts, and the
 * verification ends with a {@link VerificationDeadlineError} (exit code 3).
 * @packageDocumentation
 */
import { VerifierNetworkError } from "./errors.js";

/** Default total deadline of one verification: 30 minutes, in milliseconds. */
export const DEFAULT_DEADLINE_MS = 30 * 60 * 1000;

/**
 * What a verification reads, as its deadline message names it: `verify` reads the pack, the RPC and the
 * indexer; `verify-receipt` the execute response, the JWKS, `--input` / `--output` and the RPC (probe32
 * B-F5: its message named the pack and the indexer, which it never reads).
 */
export type DeadlineScope = "pack" | "receipt";

const DEADLINE_READS: Record<DeadlineScope, { reads: string; faster: string }> = {
  pack: { reads: "reading the pack, the RPC and the indexer", faster: "a faster RPC or indexer" },
  receipt: {
    reads: "reading the execute response, the JWKS, --input, --output and the RPC",
    faster: "faster sources or RPC",
  },
};

/** The verification did not finish within its total deadline: exit code 3 (a source could not be read in time). */
export class VerificationDeadlineError extends VerifierNetworkError {
  /** The deadline, milliseconds from the verification's start. */
  readonly deadlineMs: number;

  /**
   * @param deadlineMs the deadline, milliseconds
   * @param scope which verification ran (its message names what it reads; default `pack`)
   */
  constructor(deadlineMs: number, scope: DeadlineScope = "pack") {
    const { reads, faster } = DEADLINE_READS[scope];
    super(
      "deadline",
      `the verification did not finish within its total deadline of ${deadlineMs} ms (--deadline; ${reads}, and computing the facts, all count); raise --deadline, or use ${faster}`,
    );
    this.name = "VerificationDeadlineError";
    this.deadlineMs = deadlineMs;
  }
}

/** True for a {@link VerificationDeadlineError} (also across duplicated module copies). */
export function isVerificationDeadlineError(e: unknown): e is VerificationDeadlineError {
  return (
    e instanceof VerificationDeadlineError ||
    (typeof e === "object" && e !== null && (e as { name?: unknown }).name === "VerificationDeadlineError")
  );
}

/**
 * Runs `work` within `deadlineMs` (default {@link DEFAULT_DEADLINE_MS}): `work` gets a signal that
 * aborts at the deadline (pass it to every request), and the returned promise rejects with
 * {@link VerificationDeadlineError} then. A timer cannot fire while `work` computes without yielding (the
 * off-chain walk of a pack), so `work` also gets `overdue`, which throws that error once the deadline has
 * passed: call it between computing steps (probe26 B-F1: a pack whose walk took minutes ran past
 * `--deadline 5000`).
 * @param scope which verification runs, named in the error's message (default `pack`)
 * @throws VerificationDeadlineError at the deadline; whatever `work` throws before it
 */
export async function withinDeadline<T>(
  deadlineMs: number | undefined,
  work: (signal: AbortSignal, overdue: () => void) => Promise<T>,
  scope: DeadlineScope = "pack",
): Promise<T> {
  const ms = deadlineMs ?? DEFAULT_DEADLINE_MS;
  const endsAt = Date.now() + ms;
  const overdue = (): void => {
    if (Date.now() >= endsAt) throw new VerificationDeadlineError(ms, scope);
  };
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new VerificationDeadlineError(ms, scope);
      controller.abort(e);
      reject(e);
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal, overdue), expired]);
  } finally {
    clearTimeout(timer);
  }
}
