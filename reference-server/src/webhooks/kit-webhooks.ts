/**
 * The testing kit's webhooks (`kit.webhooks`): subscriptions whose deliveries go to a
 * Fetch handler in the test (no network), a record of every delivery, and `deliver()`,
 * which runs the delivery worker until nothing is due.
 *
 * Why `deliver()` rather than a worker in the background: a test then knows when the
 * deliveries have happened, without waiting on timers; what it delivers is exactly what
 * the server's worker would (the same rendering, signing, batching and cursors).
 */
import type { Storage } from '../storage/storage.js';
import { startWebhookDelivery, type WebhookDelivery } from './delivery-worker.js';

/** A Fetch handler: what `webhookHandler` of `adis-sdk/webhooks` returns, Hono's `app.fetch`, … */
export type TestWebhookHandler = (request: Request) => Response | Promise<Response>;

/** Options of {@link TestWebhooks.subscribe}. */
export interface TestWebhookSubscribeOptions {
  /**
   * Where deliveries are POSTed. With a `handler`, only a name (default
   * `http://webhooks.test/<n>`); without one, a real URL fetched with the global
   * `fetch` (msw handlers apply).
   */
  url?: string;
  /** Called with each delivery's request, directly. Default (without `url`): answers 204. */
  handler?: TestWebhookHandler;
  /** Signing secret. Default `test-webhook-secret`. */
  secret?: string;
  /** Event types delivered (`signature`, `signup`, …). Default `['*']`: all. */
  triggers?: readonly string[];
  /** The tenant whose events are delivered. Default: the tenant of the kit's first key (`demo`). */
  tenant?: string;
}

/** A subscription {@link TestWebhooks.subscribe} made. */
/**
 * Options of {@link TestWebhooks.deliver}.
 *
 * @example
 * ```ts
 * import { createTestServer } from 'adis-server/testing';
 *
 * const kit = createTestServer();
 * await kit.webhooks.deliver({ retry: true }); // the failed ones too, now
 * ```
 */
export interface TestWebhookDeliverOptions {
  /**
   * Also retry, now, the subscriptions whose last delivery failed, instead of waiting
   * for their backoff (the server waits 1 s, 2 s, 4 s … before a retry). Default false.
   */
  retry?: boolean;
}

export interface TestWebhookSubscription {
  id: string;
  url: string;
  secret: string;
}

/** One delivery the kit's server made. */
export interface TestWebhookDelivery {
  /** The subscription's URL. */
  url: string;
  /** The request's headers, names in lower case (`adis-webhook-signature`, `content-type`, …). */
  headers: Record<string, string>;
  /** The body as sent: what a signature is checked against. */
  body: string;
  /** The body parsed: one element per event (`{ "std:signature": {…}, "idempotency_key": "…" }`). */
  events: unknown[];
  /** The status the receiver answered; undefined when the handler threw. */
  status?: number;
}

/** The kit's webhooks. */
export interface TestWebhooks {
  /** Every delivery so far (since the last `reset()`), oldest first. */
  readonly deliveries: readonly TestWebhookDelivery[];
  /**
   * Subscribes to the server's events from now on (once it resolves). Its deliveries
   * happen at {@link deliver}.
   */
  subscribe(options?: TestWebhookSubscribeOptions): Promise<TestWebhookSubscription>;
  /**
   * Delivers every pending event, until nothing is due: resolves once each
   * subscription's events were delivered, or failed (retried after a backoff, by a later
   * `deliver()` once it is due, or by `deliver({ retry: true })` at once).
   */
  deliver(options?: TestWebhookDeliverOptions): Promise<void>;
}

/** What the kit gives its webhooks: its current app and storage (both change at `reset()`). */
export interface KitBackend {
  app: object;
  storage: Storage;
}

/** The kit's webhooks, and what the kit itself calls at `reset()` and `close()`. */
export interface KitWebhooks extends TestWebhooks {
  /** Forgets deliveries and handlers and drops the worker (a new database has neither). */
  reset(): void;
  /** Waits for deliveries in flight (at most `graceMs`) and stops. */
  close(graceMs: number): Promise<void>;
}

const HANDLER_HOST = 'http://webhooks.test';
const DEFAULT_SECRET = 'test-webhook-secret';

/**
 * Builds `kit.webhooks` for a kit whose server answers at `origin`.
 */
export function kitWebhooks(options: {
  origin: string;
  defaultTenant: string;
  backend: () => KitBackend;
}): KitWebhooks {
  const deliveries: TestWebhookDelivery[] = [];
  const handlers = new Map<string, TestWebhookHandler>();
  let worker: { delivery: WebhookDelivery; backend: KitBackend } | undefined;
  let count = 0;

  /** Deliveries go to the handler named by their URL, else out through the global fetch. */
  const kitFetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = await request.clone().text();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const delivery: TestWebhookDelivery = { url: request.url, headers, body, events: parsed(body) };
    deliveries.push(delivery);
    const handler = handlers.get(request.url);
    const response = handler ? await handler(request) : await globalThis.fetch(request);
    delivery.status = response.status;
    return response;
  };

  const current = () => {
    const backend = options.backend();
    if (worker?.backend !== backend) {
      worker = {
        backend,
        delivery: startWebhookDelivery({
          app: backend.app,
          storage: backend.storage,
          rootUrl: options.origin,
          background: false,
          fetch: kitFetch,
          // Handler URLs are names, not hosts; the test chose every URL.
          checkAddress: async () => undefined,
          log: () => undefined,
        }),
      };
    }
    return worker.delivery;
  };

  return {
    get deliveries() {
      return deliveries;
    },
    async subscribe(subscribeOptions = {}) {
      const { storage } = options.backend();
      const id = `test-webhook-${++count}`;
      const handler =
        subscribeOptions.handler ??
        (subscribeOptions.url === undefined
          ? () => new Response(null, { status: 204 })
          : undefined);
      const url = new URL(subscribeOptions.url ?? `${HANDLER_HOST}/${count}`).href;
      if (handler) handlers.set(url, handler);
      const secret = subscribeOptions.secret ?? DEFAULT_SECRET;
      const tenant = await storage.tenants.ensure(subscribeOptions.tenant ?? options.defaultTenant);
      await storage.webhooks.addSubscription({
        id,
        tenantId: tenant.id,
        url,
        secret,
        triggers: [...(subscribeOptions.triggers ?? ['*'])],
        source: 'api',
        createdMs: Date.now(),
      });
      return { id, url, secret };
    },
    async deliver(deliverOptions = {}) {
      const delivery = current();
      if (deliverOptions.retry) {
        const { storage } = options.backend();
        for (const subscription of await storage.webhooks.listSubscriptions()) {
          await storage.webhooks.retryNow(subscription.id);
        }
      }
      await delivery.idle();
    },
    reset() {
      deliveries.length = 0;
      handlers.clear();
      const stopping = worker;
      worker = undefined;
      void stopping?.delivery.stop(0);
    },
    async close(graceMs) {
      const stopping = worker;
      worker = undefined;
      await stopping?.delivery.stop(graceMs);
    },
  };
}

/** The body's elements, or none when it is not a JSON array (it always is, from this server). */
function parsed(body: string): unknown[] {
  try {
    const value: unknown = JSON.parse(body);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}
