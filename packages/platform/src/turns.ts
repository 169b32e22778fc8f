/**
 * One-at-a-time turns in arrival order, each optionally bounded by a deadline: the chain gateway's writes
 * (one nonce sequence per account) and the server's relayed claims take their turns here.
 * @packageDocumentation
 */

/** When a bounded turn was given up: still waiting at its deadline, or its turn came after it. */
export type LateTurn = "while_waiting" | "at_turn";

/** A turn's bound: `deadline` (unix ms); `late(when)` is the error its caller gets once past it. */
export interface TurnBound {
  deadline: number;
  late: (when: LateTurn) => Error;
}

/**
 * Runs `fn` once every turn taken before it has ended (fulfilled or thrown). With `bound`, a turn still
 * waiting at `bound.deadline` is answered `bound.late("while_waiting")` at once and `fn` never runs (its
 * turn, when it comes, is skipped); a turn that comes at or past the deadline is `bound.late("at_turn")`.
 * A turn's own error reaches only its caller; the next turn still runs.
 */
export type Turns = <T>(fn: () => Promise<T>, bound?: TurnBound) => Promise<T>;

/** A new, empty {@link Turns} queue. */
export function turnQueue(): Turns {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>, bound?: TurnBound): Promise<T> => {
    let state: "waiting" | "running" | "refused" = "waiting";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const turn = (): Promise<T> => {
      clearTimeout(timer);
      if (state === "refused") return Promise.reject(bound!.late("while_waiting"));
      if (bound && Date.now() >= bound.deadline) {
        state = "refused";
        return Promise.reject(bound.late("at_turn"));
      }
      state = "running";
      return fn();
    };
    const run = queue.then(turn, turn);
    queue = run.catch(() => undefined);
    if (!bound) return run;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          if (state !== "waiting") return;
          state = "refused";
          reject(bound.late("while_waiting"));
        },
        Math.max(0, bound.deadline - Date.now()),
      );
    });
    late.catch(() => undefined); // answered through the race below, or never settled
    run.catch(() => undefined); // a skipped turn's rejection is answered through `late`
    return Promise.race([run, late]);
  };
}
