/**
 * Who may hold the PostgreSQL pool's connections for a request's write (probe21 A-F7). A write waiting
 * on a row lock another session holds keeps its pooled connection for as long as it waits (up to its
 * request's deadline): 12 writes of one account parked on its held agent rows took all 10 connections
 * of `serve`'s pool, and every read and registration of unrelated data waited 21-29 s for one.
 *
 * So a request's write (`Store.tx` with `locksBy`) takes two slots before it takes a connection, in this
 * order: one of its account's {@link WRITES_PER_ACCOUNT} (one account's writes park at most that many
 * connections), then one of the pool's write slots (the pool's size less {@link readReserve}: reads,
 * background work and the unbounded writes always find a connection, however many accounts wait on held
 * rows). A write waits for its slots without a connection, first come first served, until its
 * deadline; past it, `server_busy` with nothing written, as for a lock wait. Per process: each `serve`
 * has its own pool.
 */

/** How many request writes of one account hold connections of one process's pool at once. */
export const WRITES_PER_ACCOUNT = 2;

/**
 * How many of a pool's `poolSize` connections a request's write never takes: three tenths, at least one
 * (10 in `serve`: 7 for writes, 3 kept); a pool of one keeps none.
 */
export function readReserve(poolSize: number): number {
  return poolSize <= 1 ? 0 : Math.max(1, Math.ceil(poolSize * 0.3));
}

/** A counting semaphore whose waiters, first come first served, give up at their deadline. */
class Slots {
  private held = 0;
  private readonly waiting: { grant: () => void }[] = [];
  constructor(private readonly size: number) {}

  /** True once a slot is taken, false when `deadline` (unix ms) passes first. */
  async take(deadline: number): Promise<boolean> {
    if (this.held < this.size && this.waiting.length === 0) {
      this.held++;
      return true;
    }
    let timer: NodeJS.Timeout | undefined;
    return new Promise<boolean>((resolve) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiting.push(waiter);
      timer = setTimeout(
        () => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          resolve(false);
        },
        Math.max(0, deadline - Date.now()),
      );
    });
  }

  /** Gives a slot back: to the first waiter, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next !== undefined) next.grant();
    else this.held--;
  }

  /** True when no slot is held and none is waited for. */
  get idle(): boolean {
    return this.held === 0 && this.waiting.length === 0;
  }
}

/** The write slots of one store's pool ({@link WRITES_PER_ACCOUNT} per account, the pool less its reserve). */
export class WriteSlots {
  private readonly pool: Slots;
  private readonly accounts = new Map<string, Slots>();
  constructor(poolSize: number) {
    this.pool = new Slots(Math.max(1, poolSize - readReserve(poolSize)));
  }

  /**
   * Runs `fn` holding a slot of `account` (undefined: anonymous, none) and one of the pool, taken by
   * `deadline` (unix ms); returns false without running it when a slot is not free by then.
   */
  async run<T>(
    account: string | undefined,
    deadline: number,
    fn: () => Promise<T>,
  ): Promise<{ ran: true; result: T } | { ran: false }> {
    let own: Slots | undefined;
    if (account !== undefined) {
      own = this.accounts.get(account);
      if (own === undefined) this.accounts.set(account, (own = new Slots(WRITES_PER_ACCOUNT)));
      if (!(await own.take(deadline))) {
        this.forget(account, own);
        return { ran: false };
      }
    }
    try {
      if (!(await this.pool.take(deadline))) return { ran: false };
      try {
        return { ran: true, result: await fn() };
      } finally {
        this.pool.release();
      }
    } finally {
      if (own !== undefined) {
        own.release();
        this.forget(account!, own);
      }
    }
  }

  private forget(account: string, own: Slots): void {
    if (own.idle && this.accounts.get(account) === own) this.accounts.delete(account);
  }
}
