/**
 * A gate for the work of calls accepted with `?background_request=true`: given to the
 * app as its `scheduleBackground`, it holds each accepted call's work until the test
 * opens it. So a test sees the state between the `{}` and the work however loaded the
 * machine is, instead of hoping the work has not run yet.
 */

/** The gate (see the top of this module). */
export interface BackgroundGate {
  /** The app's `scheduleBackground`: holds `start` while the gate is shut. */
  readonly schedule: (start: () => void) => void;
  /** Works accepted and held now. */
  readonly held: number;
  /** Resolves once at least `count` works are held (accepted, not started). */
  holding(count: number): Promise<void>;
  /** Starts every held work, and every later one at once. */
  open(): void;
}

/**
 * A shut gate.
 *
 * @example
 * ```ts
 * const gate = backgroundGate();
 * const h = harness({ scheduleBackground: gate.schedule });
 * expect((await h.call('POST', `${href}?background_request=true`, { body })).status).toBe(202);
 * await gate.holding(1); // nothing done yet
 * gate.open();
 * await backgroundIdle(h.storage); // done and committed
 * ```
 */
export function backgroundGate(): BackgroundGate {
  const held: (() => void)[] = [];
  const watchers: { count: number; resolve: () => void }[] = [];
  let opened = false;
  const notify = () => {
    for (const watcher of [...watchers]) {
      if (held.length < watcher.count) continue;
      watchers.splice(watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
  };
  return {
    schedule(start) {
      if (opened) {
        setImmediate(start);
        return;
      }
      held.push(start);
      notify();
    },
    get held() {
      return held.length;
    },
    holding(count) {
      if (held.length >= count) return Promise.resolve();
      return new Promise((resolve) => watchers.push({ count, resolve }));
    },
    open() {
      opened = true;
      for (const start of held.splice(0)) start();
    },
  };
}
