/**
 * The webhook delivery worker: runs beside the server (never inside a request), and
 * sends each active subscription its pending events (see `subscription-delivery.ts`).
 *
 * Why one lane per subscription: a slow or failing receiver holds only its own
 * deliveries; the others go on. Why it polls: events are committed by the requests'
 * transactions, possibly by another process on the same database, and a lost wake-up
 * must not strand one; a poll of a few hundred milliseconds is a query per active
 * subscription. A request whose events committed (`answer-after-commit.ts`) and
 * `notify()` only make it sooner. The timers are
 * unref'd: the worker never keeps a process alive by itself.
 *
 * Why claims: several server processes may share one database, each with a worker. A
 * lane delivers a subscription only while it holds the subscription's claim
 * (`WebhookStore.claimSubscription`), renewed before each batch and released when the
 * lane ends, so each subscription is delivered by one process at a time, in order. A
 * lane that finds the claim held elsewhere ends quietly: the holder delivers.
 *
 * Why slots: lanes are many (one per subscription), but the POSTs they make in flight
 * are bounded server-wide, and each tenant to a share of the bound
 * (`delivery-slots.ts`), so that one tenant's fan-out neither floods its receivers nor
 * makes the other tenants wait. A lane takes a slot for each batch before it claims the
 * subscription, and gives it back after: a lane waiting for a slot holds no claim at
 * first, and between batches goes to the back of its tenant's turn.
 */
import { randomUUID } from 'node:crypto';
import { appConfigOf } from '../http/app.js';
import type { Storage } from '../storage/storage.js';
import { refusedAddress } from './address-check.js';
import { AttemptAborts } from './attempt-aborts.js';
import { type Backoff, DEFAULT_BACKOFF } from './backoff.js';
import { DEFAULT_WEBHOOK_CONCURRENCY } from './delivery-concurrency.js';
import { DeliverySlots } from './delivery-slots.js';
import {
  type DeliveryContext,
  deliverNextBatch,
  type StepOutcome,
} from './subscription-delivery.js';
import { WebhookBodies, type WebhookRenderConfig } from './webhook-body.js';

/** How long a subscription may fail before it is switched off, by default: 24 hours. */
export const DEFAULT_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How long a delivery claim lasts unless renewed: 60 s, far longer than one batch
 * (an attempt times out after 10 s by default; a longer `timeoutMs` lengthens the lease
 * to twice it). A lane renews its claim before each batch; a process killed
 * mid-delivery holds its subscriptions back for at most this long.
 */
export const DELIVERY_CLAIM_LEASE_MS = 60_000;

/** Options of {@link startWebhookDelivery}. */
export interface WebhookDeliveryOptions {
  /** The app (`createApp`'s) whose events are delivered: rendered with its config. */
  app?: object;
  /** Or its config directly (the preset, kinds, storage and curie prefix to render with). */
  config?: WebhookRenderConfig;
  /** Where subscriptions and events are. Default: the config's storage. */
  storage?: Storage;
  /**
   * Root of the hrefs in the events (`https://api.example.org`): the server's public
   * URL, or where it listens. Default: the app's `publicUrl`; one of them is required.
   */
  rootUrl?: string;
  /** How long a subscription may keep failing before it is switched off. Default 24 h. */
  retryWindowMs?: number;
  /** Events per POST at most. Default 25. */
  batchSize?: number;
  /**
   * POSTs in flight at most, all subscriptions of all tenants together; more wait for a
   * slot (none is dropped). Default: the app's `webhookConcurrency`
   * (`--webhook-concurrency`), else 16.
   */
  concurrency?: number;
  /**
   * POSTs one tenant may have in flight at most, from 1 to `concurrency`, so that the
   * other tenants' deliveries find slots free. Default: half of `concurrency`, rounded
   * up, when it is given here; else the app's (`webhookTenantConcurrency`, by default
   * half of its bound).
   */
  tenantConcurrency?: number;
  /** How long one attempt may take. Default 10 000 ms. */
  timeoutMs?: number;
  /** Spacing of retries. Default 1 s doubling up to 1 h, with full jitter. */
  backoff?: Backoff;
  /** How often pending events are looked for without a `notify()`. Default 500 ms. */
  pollMs?: number;
  /** How often delivered events are pruned from the outbox. Default 60 000 ms. */
  pruneEveryMs?: number;
  /**
   * Whether API subscriptions may POST to loopback and private addresses. Default: the
   * app's `webhooksAllowPrivate` (`--webhooks-allow-private`), else false.
   */
  allowPrivate?: boolean;
  /**
   * Why a URL may not be POSTed to now, or undefined. Default: `refusedAddress(url,
   * allowPrivate)`. Subscriptions from the operator's file are not checked.
   */
  checkAddress?: (url: string) => Promise<string | undefined>;
  /** Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
  /** Milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Uniform in [0, 1), for the jitter. Default `Math.random`. */
  random?: () => number;
  /** Where failures and switched-off subscriptions are told. Default: stderr. */
  log?: (message: string) => void;
  /**
   * Whether the worker runs by itself (timers, `notify()`). Default true; false: it
   * delivers only when `idle()` is called (the testing kit's `deliver()`).
   */
  background?: boolean;
}

/** A running worker. */
export interface WebhookDelivery {
  /** Looks for pending events now (call it after a write that made events commits); cheap. */
  notify(): void;
  /**
   * Delivers until nothing is due now: every pending event is delivered, or its
   * subscription waits for a retry later, was switched off, or is claimed by another
   * process sharing the database (which delivers it). Resolves then.
   */
  idle(): Promise<void>;
  /**
   * Stops starting deliveries and waits for the ones in flight, at most `graceMs`;
   * those still running then are cut short, unlogged (sent again after a restart).
   */
  stop(graceMs: number): Promise<void>;
}

/**
 * Starts delivering the webhooks of a server's storage.
 *
 * @example
 * ```ts
 * import { createApp, openStorage, startServer, startWebhookDelivery } from 'adis-server';
 *
 * const storage = openStorage('data/adis.db');
 * const app = createApp({ storage });
 * const running = await startServer({ app, port: 8000 });
 * const delivery = startWebhookDelivery({ app, rootUrl: running.url });
 * // … on shutdown, after the requests have drained:
 * await delivery.stop(5000);
 * await storage.close();
 * ```
 */
export function startWebhookDelivery(options: WebhookDeliveryOptions): WebhookDelivery {
  const appConfig = options.app ? appConfigOf(options.app) : undefined;
  const config = options.config ?? appConfig;
  if (!config) {
    throw new TypeError('startWebhookDelivery needs the app createApp built, or its config');
  }
  const rootUrl = options.rootUrl ?? appConfig?.publicUrl;
  if (!rootUrl) {
    throw new TypeError('startWebhookDelivery needs the rootUrl the server is reached at');
  }
  const storage = options.storage ?? config.storage;
  const allowPrivate = options.allowPrivate ?? appConfig?.webhooksAllowPrivate ?? false;
  const aborts = new AttemptAborts();
  // The worker's own bound, with the share derived from it unless given; else the app's.
  const slots =
    options.concurrency === undefined && options.tenantConcurrency === undefined && appConfig
      ? new DeliverySlots(
          appConfig.webhookConcurrency.concurrency,
          appConfig.webhookConcurrency.perTenant,
        )
      : new DeliverySlots(
          options.concurrency ??
            appConfig?.webhookConcurrency.concurrency ??
            DEFAULT_WEBHOOK_CONCURRENCY,
          options.tenantConcurrency,
        );
  const now = options.now ?? Date.now;
  const log = options.log ?? ((message: string) => console.error(message));
  const context: DeliveryContext = {
    store: storage.webhooks,
    bodies: new WebhookBodies(config, rootUrl),
    batchSize: positive('batchSize', options.batchSize ?? 25),
    retryWindowMs: positive('retryWindowMs', options.retryWindowMs ?? DEFAULT_RETRY_WINDOW_MS),
    timeoutMs: positive('timeoutMs', options.timeoutMs ?? 10_000),
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    now,
    random: options.random ?? Math.random,
    checkAddress: options.checkAddress ?? ((url) => refusedAddress(url, allowPrivate)),
    log,
    aborts,
  };
  /** This worker's name in the claims it takes: one per worker, never reused. */
  const owner = randomUUID();
  const leaseMs = Math.max(DELIVERY_CLAIM_LEASE_MS, 2 * context.timeoutMs);
  const pollMs = positive('pollMs', options.pollMs ?? 500);
  const pruneEveryMs = positive('pruneEveryMs', options.pruneEveryMs ?? 60_000);
  const background = options.background ?? true;

  /** Lanes in flight, by subscription id: at most one per subscription (its order). */
  const lanes = new Map<string, Promise<void>>();
  /**
   * Subscriptions whose claim another worker held, by when to ask again: not at every
   * wake-up, since its holder delivers them; `idle()` asks once per call.
   */
  const heldElsewhere = new Map<string, number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPruneMs = now();

  /**
   * Delivers one subscription's batches while it makes progress and holds the claim;
   * answers how it ended (`nothing` when another process holds the claim).
   */
  const runLane = async (id: string, tenantId: number): Promise<StepOutcome> => {
    try {
      let outcome: StepOutcome = 'sent';
      while (!stopped && (outcome === 'sent' || outcome === 'skipped')) {
        // A slot for the batch first (see the top of this module): the claim is taken
        // once it is this lane's turn, so the lease runs while the batch does.
        const release = await slots.acquire(tenantId);
        try {
          if (stopped) return 'nothing';
          // Taken, or renewed, before each batch: a batch lasts far less than the lease.
          const at = now();
          if (!(await context.store.claimSubscription(id, owner, at, at + leaseMs))) {
            heldElsewhere.set(id, at + pollMs);
            return 'nothing';
          }
          heldElsewhere.delete(id);
          outcome = await deliverNextBatch(context, id);
        } finally {
          release();
        }
      }
      return outcome;
    } finally {
      await context.store.releaseSubscription(id, owner).catch(() => {
        // Storage failing: the claim expires by itself at the end of its lease.
      });
    }
  };
  const startLane = (id: string, tenantId: number) => {
    const lane = runLane(id, tenantId)
      .then((outcome) => {
        // A failure set the subscription's next attempt: the next tick's timer counts it.
        if (outcome === 'failed') schedule(0);
      })
      .catch((error: unknown) => {
        // Storage failing (closed, disk full): the next tick tries again.
        if (!stopped) log(`webhook delivery for subscription ${id} stopped: ${String(error)}`);
      })
      .finally(() => lanes.delete(id));
    lanes.set(id, lane);
  };

  /**
   * Starts a lane for every active subscription with events pending that is due and has
   * none running; answers in how many ms the earliest later attempt is due, if any.
   * Run through {@link requestTick} only: one at a time.
   */
  const tick = async (): Promise<number | undefined> => {
    if (stopped) return undefined;
    const at = now();
    let nextDueMs: number | undefined;
    for (const subscription of await context.store.listSubscriptions()) {
      if (!subscription.active || lanes.has(subscription.id)) continue;
      if ((heldElsewhere.get(subscription.id) ?? at) > at) continue;
      const pending =
        (await context.store.eventsAfter(subscription.tenantId, subscription.cursor, 1)).length > 0;
      // Stopped while reading: no lane may start after stop() looked at the lanes.
      if (stopped) return undefined;
      if (!pending) continue;
      const due = subscription.nextAttemptMs;
      if (due !== undefined && due > at) {
        nextDueMs = Math.min(nextDueMs ?? Number.POSITIVE_INFINITY, due - at);
        continue;
      }
      startLane(subscription.id, subscription.tenantId);
    }
    if (at - lastPruneMs >= pruneEveryMs) {
      lastPruneMs = at;
      // A full round pruned: more may wait, pruned at the next tick.
      if ((await context.store.pruneEvents()) > 0) lastPruneMs = at - pruneEveryMs;
    }
    return nextDueMs;
  };

  /** The tick running, and the one asked for while it runs (begun once it ends). */
  let running: Promise<number | undefined> | undefined;
  let queued: Promise<number | undefined> | undefined;
  /**
   * A tick begun after this call: now, or when the one running ends (a timer firing,
   * `notify()` or `idle()` while a tick still awaits storage). Ticks never overlap, so
   * two of them cannot both start a lane for the same subscription; the requests made
   * while one runs share the next.
   */
  const requestTick = (): Promise<number | undefined> => {
    if (!running) {
      running = tick().finally(() => {
        running = undefined;
      });
      return running;
    }
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return requestTick();
      });
    return queued;
  };

  /** The next tick in `delayMs` (0: now), replacing the one planned. */
  function schedule(delayMs: number): void {
    if (stopped || !background) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      // Handled whole: a failing tick is logged, and the next one is planned either way.
      void requestTick()
        .catch((error: unknown) => {
          if (!stopped) log(`webhook delivery: ${String(error)}`);
          return undefined;
        })
        .then((nextDueMs) => {
          if (!timer) schedule(Math.min(pollMs, nextDueMs ?? pollMs));
        });
    }, delayMs);
    timer.unref();
  }

  schedule(0);
  // A request that made events wakes the worker once they are committed.
  const unwatch = background ? storage.webhooks.watchCommitted(() => schedule(0)) : () => {};
  return {
    notify() {
      schedule(0);
    },
    async idle() {
      heldElsewhere.clear();
      for (;;) {
        await requestTick();
        if (lanes.size === 0) return;
        await Promise.all(lanes.values());
      }
    },
    async stop(graceMs) {
      stopped = true;
      unwatch();
      if (timer) clearTimeout(timer);
      timer = undefined;
      // A tick still reading storage starts no lane now; let it end before the storage does.
      await Promise.allSettled([running, queued]);
      if (lanes.size === 0) return;
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((done) => {
        graceTimer = setTimeout(done, graceMs);
        graceTimer.unref();
      });
      await Promise.race([Promise.all(lanes.values()), graceOver]);
      clearTimeout(graceTimer);
      if (lanes.size > 0) {
        log(`webhook deliveries still in flight after ${graceMs} ms are cut short`);
        aborts.abortAll();
        await Promise.all(lanes.values());
      }
    },
  };
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
  return value;
}
