/**
 * A signup that survives a dropped connection: helper calls written to the device
 * (IndexedDB) with their Idempotency-Key before they are sent, sent at once when the
 * browser is online, and otherwise when it comes back (`online`, the next page load, the
 * page shown again), with backoff and the server's Retry-After. A call leaves the queue
 * only when the server answered: a success, or a refusal that sending again cannot fix,
 * each told to the page. One tab sends at a time (Web Locks), so two tabs open when the
 * connection returns send each call once; what one tab learns of a saved call (sent,
 * refused, expired, how many wait) it tells the others (a BroadcastChannel named after
 * the queue), so every open page shows the truth whichever sent it; and every attempt
 * carries the call's key, so
 * a server that honours keys acts once even when an answer was lost. On a server that
 * does not, a call whose answer was lost is sent again: at least once.
 *
 * Opt-in, in a module of its own: a page that does not use it does not load it.
 */
import type { HTTPError } from '../errors/http-error.js';
import { newIdempotencyKey } from '../http/idempotency-key.js';
import { refusedBeforeSending } from '../http/refused-connection.js';
import {
  backoffDelay,
  type RetryFailure,
  type RetryPolicy,
  retryPolicy,
  retryVerdict,
} from '../http/retry-policy.js';
import { callHelper, type HelperCallOptions } from './call.js';
import { openQueueStore, type QueuedCall, type QueueStore } from './queue-store.js';
import type { HelperResult } from './result.js';

export type { QueuedCall } from './queue-store.js';

/** Options of {@link createSignupQueue}: those of a helper call, and the queue's limits. */
export interface SignupQueueOptions
  extends Omit<HelperCallOptions, 'idempotencyKey' | 'signal' | 'background'> {
  /** The database's name (and the lock's): one queue per name. Default `adis-signup-queue`. */
  name?: string;
  /**
   * Calls kept at most. A call past it is sent directly and not kept: if it fails, the
   * page is told (`failed`, reason `full`). Default 50.
   */
  maxEntries?: number;
  /**
   * How long a call is kept, ms. An older one is removed at the next attempt and the
   * page told (`failed`, reason `expired`): a signature weeks late may be unwelcome.
   * Default 7 days.
   */
  maxAgeMs?: number;
  /** The IndexedDB to keep calls in; `null` to keep none. Default `globalThis.indexedDB`. */
  indexedDB?: IndexedDBFactory | null;
  /** The lock manager that keeps two tabs from sending at once; `null` for none. Default `navigator.locks`. */
  locks?: QueueLocks | null;
}

// The two below are typed by their shape, not as the DOM's IDBFactory and LockManager:
// runtimes whose types have no DOM (Deno, Workers) compile against this entry too.

/** What the queue takes as IndexedDB: a browser's `indexedDB`. */
export interface IndexedDBFactory {
  /** Opens a database, as `indexedDB.open` does (an `IDBOpenDBRequest`). */
  open(name: string, version?: number): object;
}

/** What the queue takes as a lock manager: a browser's `navigator.locks`. */
export interface QueueLocks {
  /** Runs `callback` holding the lock `name`, as `navigator.locks.request` does. */
  request(name: string, callback: () => Promise<void>): Promise<unknown>;
}

/** Why a call left the queue unsent. */
export type QueueFailureReason =
  /** The server refused it (a 4xx that sending again cannot fix). */
  | 'refused'
  /**
   * No answer came (or a 5xx), the call may have been recorded, and the server is not
   * known to honour `Idempotency-Key`: sending it again could record it twice, so the
   * page is told instead (`idempotencyKeysHonoured` keeps such a call and sends it again).
   */
  | 'unconfirmed'
  /** It was older than `maxAgeMs`. */
  | 'expired'
  /** The queue was full, so it was sent directly, and that failed. */
  | 'full'
  /** The device keeps nothing (no IndexedDB), so it was sent directly, and that failed. */
  | 'unsaved';

/**
 * What the queue tells the page. A saved call's `sent` and `failed`, and `pending`, come
 * from whichever tab or page of the origin settled the call: `elsewhere: true` when it
 * was another (the result then is a copy, and a failure's `error` a plain `Error` with
 * the original's `message`, `code`, `status` and `stdError`).
 */
export type QueueEvent =
  | { type: 'queued'; call: QueuedCall; error?: unknown }
  | {
      type: 'sent';
      call: QueuedCall;
      result: HelperResult<Record<string, unknown>, Record<string, unknown>>;
      elsewhere?: true;
    }
  | {
      type: 'failed';
      call: QueuedCall;
      error: unknown;
      reason: QueueFailureReason;
      elsewhere?: true;
    }
  | { type: 'pending'; count: number; elsewhere?: true };

/** What became of a submitted call, as far as this tab knows when `submit` resolves. */
export type QueueSubmitOutcome =
  | { state: 'sent'; result?: HelperResult<Record<string, unknown>, Record<string, unknown>> }
  | { state: 'queued'; id: string; error?: unknown }
  | { state: 'failed'; error: unknown; reason: QueueFailureReason };

/** A queue of helper calls on this device. Made by {@link createSignupQueue}. */
export interface SignupQueue {
  /** Resolves once the queue knows whether the device keeps calls (`persistent`), and why not. */
  readonly ready: Promise<{ persistent: boolean; reason?: string }>;
  /** Saves the call, then sends it (and any other due): see {@link QueueSubmitOutcome}. */
  submit(href: string, body: object, options?: { record?: string }): Promise<QueueSubmitOutcome>;
  /** Calls waiting on this device (every tab's). */
  pending(): Promise<number>;
  /** Sends the calls that are due now. */
  flush(): Promise<void>;
  /** Listens to the queue's events; returns the function that stops listening. */
  on(listener: (event: QueueEvent) => void): () => void;
  /** Stops listening to the browser (online, visibility) and the timer; kept calls stay. */
  close(): void;
}

const DAY = 86_400_000;

/**
 * Makes a queue of helper calls on this device, and sends what an earlier page left
 * in it. Without IndexedDB (a private mode, storage blocked) it keeps nothing and says
 * so (`ready` resolves `persistent: false`): calls are then sent directly, and a failure
 * is the page's to show.
 *
 * @example
 * ```ts
 * import { createSignupQueue } from 'adis-sdk/helpers';
 *
 * const badge = document.querySelector('#pending')!;
 * const status = document.querySelector('#status')!;
 * const helperHref = 'https://api.example.org/api/v1/petitions/1/record_signature_helper';
 * const person = { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] };
 * const queue = createSignupQueue({ idempotencyKeysHonoured: true });
 * queue.on((event) => {
 *   if (event.type === 'pending') badge.textContent = `${event.count} waiting`;
 *   if (event.type === 'sent') status.textContent = 'Your saved signature has been sent.';
 * });
 * const outcome = await queue.submit(helperHref, { person }, { record: 'signature' });
 * if (outcome.state === 'queued') status.textContent = 'Saved: it will be sent when you are back online.';
 * ```
 */
export function createSignupQueue(options: SignupQueueOptions = {}): SignupQueue {
  const {
    name = 'adis-signup-queue',
    maxEntries = 50,
    maxAgeMs = 7 * DAY,
    indexedDB: factory = globalThis.indexedDB as IndexedDBFactory | undefined,
    locks = (globalThis.navigator as { locks?: QueueLocks } | undefined)?.locks,
    ...callOptions
  } = options;
  const policy = retryPolicy(callOptions.retry);
  const repeatSafe = !!callOptions.idempotencyKeysHonoured;
  const listeners = new Set<(event: QueueEvent) => void>();
  const emit = (event: QueueEvent) => {
    for (const listener of listeners) listener(event);
  };
  // The other tabs and pages of this origin with the same queue: a call saved by one may
  // be sent by another (the lock's holder), and both must show it. None where nothing is
  // kept; never holding a server-side runtime's process open (Node's channels are ref'd).
  const tabs =
    factory && typeof BroadcastChannel === 'function'
      ? new BroadcastChannel(`${name}:events`)
      : undefined;
  (tabs as { unref?: () => void } | undefined)?.unref?.();
  if (tabs) tabs.onmessage = ({ data }: MessageEvent<SharedEvent>) => emit(fromShared(data));
  /** Tells this page and the others: for what settles a kept call, and the count. */
  const emitEverywhere = (event: SettledEvent) => {
    emit(event);
    try {
      tabs?.postMessage(toShared(event));
    } catch {
      // A body that cannot be copied (not JSON): the other tabs learn the count only.
    }
  };
  // What this tab's attempts made of each call, for `submit` to answer with.
  const outcomes = new Map<string, QueueSubmitOutcome>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let tail: Promise<unknown> = Promise.resolve();
  const opened: Promise<QueueStore | Error> = factory
    ? openQueueStore(factory as IDBFactory, name).catch((error: unknown) =>
        error instanceof Error ? error : new Error(String(error)),
      )
    : Promise.resolve(new Error('IndexedDB is not available here'));
  const storeOrNone = async () => {
    const store = await opened;
    return store instanceof Error ? undefined : store;
  };
  const ready = opened.then((store) =>
    store instanceof Error ? { persistent: false, reason: store.message } : { persistent: true },
  );

  const send = (call: QueuedCall) =>
    callHelper<Record<string, unknown>, Record<string, unknown>>(call.href, call.body, {
      ...callOptions,
      record: call.record,
      idempotencyKey: call.id,
    });

  /** One attempt of a kept call; it stays kept unless the server answered for good. */
  const attempt = async (store: QueueStore, call: QueuedCall) => {
    call.attempts++;
    try {
      const result = await send(call);
      await store.delete(call.id);
      outcomes.set(call.id, { state: 'sent', result });
      emitEverywhere({ type: 'sent', call, result });
    } catch (error) {
      const wait = resendWait(error, call.attempts, policy, repeatSafe);
      if (typeof wait === 'string') {
        await store.delete(call.id);
        outcomes.set(call.id, { state: 'failed', error, reason: wait });
        emitEverywhere({ type: 'failed', call, error, reason: wait });
      } else {
        call.notBefore = Date.now() + wait;
        await store.put(call);
        outcomes.set(call.id, { state: 'queued', id: call.id, error });
        emit({ type: 'queued', call, error });
      }
    }
  };

  /** Sends the due calls; inside the lock, so that one tab sends at a time. */
  const flushNow = async (force: boolean) => {
    const store = await storeOrNone();
    if (!store) return;
    const calls = (await store.all()).sort((a, b) => a.createdAt - b.createdAt);
    for (const call of calls) {
      if (Date.now() - call.createdAt > maxAgeMs) {
        await store.delete(call.id);
        emitEverywhere({
          type: 'failed',
          call,
          error: new Error('kept longer than maxAgeMs'),
          reason: 'expired',
        });
      } else if (online() && (force || call.notBefore <= Date.now())) {
        await attempt(store, call);
      }
    }
    const left = await store.all();
    emitEverywhere({ type: 'pending', count: left.length });
    clearTimeout(timer);
    // Offline, the `online` event is the next attempt: a timer would spin on calls that
    // are due but cannot go (one that was never tried is due at once).
    const next = online() ? Math.min(...left.map((call) => call.notBefore)) : Number.NaN;
    if (Number.isFinite(next))
      timer = setTimeout(() => void flush(false), Math.max(0, next - Date.now()));
  };

  const flush = (force: boolean): Promise<void> => {
    const run = () => flushNow(force);
    const done = tail.then(async () => {
      if (locks) await locks.request(`${name}:send`, run);
      else await run();
    });
    tail = done.catch(() => undefined);
    return done;
  };

  const onOnline = () => void flush(true);
  const onVisible = () => {
    if (document.visibilityState === 'visible') void flush(false);
  };
  globalThis.addEventListener?.('online', onOnline);
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
  void flush(false);

  return {
    ready,
    async submit(href, body, submitOptions = {}) {
      const call: QueuedCall = {
        id: newIdempotencyKey(),
        href,
        body,
        ...(submitOptions.record === undefined ? {} : { record: submitOptions.record }),
        createdAt: Date.now(),
        attempts: 0,
        notBefore: 0,
      };
      const store = await storeOrNone();
      const full = store ? (await store.count()) >= maxEntries : false;
      if (!store || full) {
        // Nothing can keep it: sent directly, and a failure is the page's to show.
        try {
          const result = await send(call);
          emit({ type: 'sent', call, result });
          return { state: 'sent', result };
        } catch (error) {
          // A refusal is a refusal; anything else could have been kept, had there been room.
          const wait = resendWait(error, 1, policy, repeatSafe);
          const reason = typeof wait === 'string' ? wait : store ? 'full' : 'unsaved';
          emit({ type: 'failed', call, error, reason });
          return { state: 'failed', error, reason };
        }
      }
      // On the device before it is sent: a page closed mid-call loses nothing.
      await store.put(call);
      await flush(false);
      const outcome = outcomes.get(call.id);
      outcomes.delete(call.id);
      if (outcome) return outcome;
      // Not attempted here: offline (kept), or already sent by another tab (gone).
      const kept = (await store.all()).some((waiting) => waiting.id === call.id);
      if (kept) emit({ type: 'queued', call });
      return kept ? { state: 'queued', id: call.id } : { state: 'sent' };
    },
    async pending() {
      const store = await storeOrNone();
      return store ? store.count() : 0;
    },
    flush: () => flush(false),
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      clearTimeout(timer);
      tabs?.close();
      globalThis.removeEventListener?.('online', onOnline);
      if (typeof document !== 'undefined')
        document.removeEventListener('visibilitychange', onVisible);
    },
  };
}

/** The events one tab tells the others: what settled a kept call, and the count. */
type SettledEvent = Exclude<QueueEvent, { type: 'queued' }>;

/** An event as it crosses to another tab: structured-cloneable, errors as plain data. */
type SharedEvent =
  | Exclude<QueueEvent, { type: 'failed' | 'queued' }>
  | (Omit<Extract<QueueEvent, { type: 'failed' }>, 'error'> & { error: SharedError });

/** What another tab keeps of an error: a class does not survive the copy. */
interface SharedError {
  message: string;
  code?: unknown;
  status?: unknown;
  stdError?: unknown;
}

function toShared(event: SettledEvent): SharedEvent {
  if (event.type !== 'failed') return event;
  const {
    message = String(event.error),
    code,
    status,
    stdError,
  } = (event.error ?? {}) as Partial<SharedError>;
  return { ...event, error: { message, code, status, stdError } };
}

function fromShared(event: SharedEvent): QueueEvent {
  if (event.type !== 'failed') return { ...event, elsewhere: true };
  const { message, ...members } = event.error;
  return { ...event, elsewhere: true, error: Object.assign(new Error(message), members) };
}

/** Whether the browser thinks it is online (anywhere without `navigator.onLine`: yes). */
function online(): boolean {
  return (globalThis.navigator as { onLine?: boolean } | undefined)?.onLine !== false;
}

/**
 * How long to wait before sending a kept call again, or why it may not be, by the
 * verdict of the call's own retries: `refused` for a 4xx other than 408, 429 and a 409
 * with Retry-After, an answer that is not JSON or a link that is no URL; `unconfirmed`
 * for a 5xx or a lost answer where the server is not known to honour the key (a repeat
 * could record it twice). A failure while the browser says it is offline sent nothing, as
 * a refused connection. The wait is the one the server asked for, even past
 * `maxRetryAfter` (the call is kept on the device, not holding a page), or the policy's
 * backoff, continued from the retries the call made: at most `backoffLimit`.
 */
function resendWait(
  error: unknown,
  attempts: number,
  policy: RetryPolicy,
  repeatSafe: boolean,
): number | QueueFailureReason {
  const code = (error as { code?: unknown } | null)?.code;
  // As the policy tells failures apart; offline, or refused, nothing reached the server.
  const failure: RetryFailure | undefined =
    code === 'HTTP_ERROR'
      ? (error as HTTPError)
      : code === 'TIMEOUT'
        ? 'lost'
        : code !== 'NETWORK'
          ? undefined
          : online() && !refusedBeforeSending(error)
            ? 'lost'
            : 'unsent';
  if (!failure) return 'refused';
  const verdict = retryVerdict(policy, failure, { repeatSafe, keyed: true });
  if (verdict.retry || verdict.wait !== undefined) {
    return verdict.wait ?? backoffDelay(policy, attempts * (policy.limit + 1));
  }
  // Would a server that honours the key have it again? Then it may have been recorded.
  return retryVerdict(policy, failure, { repeatSafe: true, keyed: true }).retry
    ? 'unconfirmed'
    : 'refused';
}
