/**
 * Where the signup queue keeps its calls: one IndexedDB object store, keyed by the
 * call's Idempotency-Key. A write resolves only when its transaction has completed (the
 * call is on the device before it is sent). Hand-written over the raw API, a few hundred
 * bytes: a wrapper library would cost the page more than it saves here.
 */

/** A helper call waiting in the queue, as stored on the device. */
export interface QueuedCall {
  /** The call's Idempotency-Key, sent with every attempt: it is also its id. */
  id: string;
  /** The helper's href. */
  href: string;
  /** The body, as the page gave it. */
  body: object;
  /** The main record's relation (`signature`), as `callHelper` takes it. */
  record?: string;
  /** When the page made the call (ms since the epoch). */
  createdAt: number;
  /** Attempts so far. */
  attempts: number;
  /** Not sent again before this moment (ms since the epoch): a backoff, or a Retry-After. */
  notBefore: number;
}

/** The queue's storage: whole calls in, whole calls out. */
export interface QueueStore {
  all(): Promise<QueuedCall[]>;
  /** How many calls are kept, without reading them. */
  count(): Promise<number>;
  put(call: QueuedCall): Promise<void>;
  delete(id: string): Promise<void>;
}

const STORE = 'calls';

/**
 * Opens (or makes) the queue's database. Rejects when IndexedDB is missing or refused
 * (a private mode, storage blocked by the user): the queue then says it cannot keep
 * anything and sends directly.
 */
export function openQueueStore(factory: IDBFactory | undefined, name: string): Promise<QueueStore> {
  return new Promise((resolve, reject) => {
    if (!factory) throw new Error('IndexedDB is not available here');
    const opening = factory.open(name, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE, { keyPath: 'id' });
    opening.onerror = () => reject(opening.error);
    opening.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
    opening.onsuccess = () => resolve(storeOf(opening.result));
  });
}

function storeOf(db: IDBDatabase): QueueStore {
  // One transaction per operation; it settles when committed, not when the request succeeds.
  const run = <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error ?? request.error);
    });
  return {
    all: () => run('readonly', (store) => store.getAll() as IDBRequest<QueuedCall[]>),
    count: () => run('readonly', (store) => store.count()),
    put: async (call) => {
      await run('readwrite', (store) => store.put(call));
    },
    delete: async (id) => {
      await run('readwrite', (store) => store.delete(id));
    },
  };
}
