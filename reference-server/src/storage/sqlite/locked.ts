/**
 * A synchronous sub-store of the SQLite engine made asynchronous: each of its methods,
 * run through the storage's {@link UnitLock} (at once when no unit runs, else after
 * the units ahead), answers with a promise. Derived from the store, so a method added to
 * an engine's sub-store needs no line here.
 */
import type { UnitLock } from './unit-lock.js';

/** `T`'s methods, each answering with a promise of what it returned. */
export type Locked<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] extends (
    ...args: infer A
  ) => infer R
    ? (...args: A) => Promise<R>
    : never;
};

/** The names of `store`'s methods, its class's and their ancestors' (not Object's). */
function methodNames(store: object): string[] {
  const names = new Set<string>();
  for (
    let proto: object | null = Object.getPrototypeOf(store);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (typeof descriptor?.value === 'function') names.add(name);
    }
  }
  return [...names];
}

/**
 * `store` with every method run under `lock`.
 */
export function locked<T extends object>(store: T, lock: UnitLock): Locked<T> {
  const out: Record<string, unknown> = {};
  const methods = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of methodNames(store)) {
    out[name] = (...args: unknown[]) => lock.call(() => methods[name]?.apply(store, args));
  }
  return out as Locked<T>;
}
