/**
 * One unit of work at a time on the SQLite connection.
 *
 * Why: there is one connection, and a transaction is now a function that awaits (the
 * storage is asynchronous). Between its awaits other requests run; were their reads and
 * writes to reach the connection then, they would see the unit's uncommitted writes (a
 * match on a person the unit may still roll back) or land inside its savepoint. So a
 * unit holds this lock from start to end, and every call from outside it waits its turn.
 * Calls made by the unit itself (its async context says so) run at once, and nested
 * units are savepoints of it. With nothing held, a call runs at once, synchronously.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Who holds the lock: the async context of one unit. */
type Holder = { readonly unit: true };

/**
 * The lock (see the top of this module).
 */
export class UnitLock {
  private readonly context = new AsyncLocalStorage<Holder>();
  private holder: Holder | undefined;
  /** Those waiting for their turn, first come first served; each is handed the lock. */
  private readonly waiting: ((holder: Holder) => void)[] = [];

  /** Whether the caller may use the connection now without waiting. */
  private mayRun(): boolean {
    return this.holder === undefined || this.context.getStore() === this.holder;
  }

  /**
   * Runs `fn` as the holder: alone on the connection until it settles. Nested (called
   * by the holder) it just runs.
   */
  async exclusive<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.holder !== undefined && this.context.getStore() === this.holder) return fn();
    let holder: Holder;
    if (this.holder === undefined) {
      holder = { unit: true };
      this.holder = holder;
    } else {
      // Handed over by the one before, never free in between: nobody cuts in.
      holder = await new Promise<Holder>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await this.context.run(holder, fn);
    } finally {
      const next = this.waiting.shift();
      if (next) {
        this.holder = { unit: true };
        next(this.holder);
      } else {
        this.holder = undefined;
      }
    }
  }

  /**
   * Runs a synchronous call on the connection: now when no unit is running (or the
   * caller is the unit), else after the units ahead of it. A throw becomes a rejection.
   */
  call<T>(fn: () => T): Promise<T> {
    if (!this.mayRun()) return this.exclusive(fn);
    try {
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
