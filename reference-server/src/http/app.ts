/**
 * The Hono application: middleware order, routes, error mapping.
 */
import { Hono } from 'hono';
import { PatternRouter } from 'hono/router/pattern-router';
import { ALL_KINDS } from '../domain/catalog.js';
import { type KeylessOpenings, openNames } from '../domain/helpers/keyless-openings.js';
import { KindRegistry } from '../domain/kinds.js';
import { RecordService } from '../domain/records/index.js';
import { webhookSubscriptionLimitOf } from '../domain/webhook-subscription-limit.js';
import { adaptKind } from '../presets/adapt-kind.js';
import type { ServingPreset } from '../presets/serving-preset.js';
import { SPECIFICATION_PRESET } from '../presets/specification.js';
import type { Storage } from '../storage/storage.js';
import { deliveryConcurrencyOf } from '../webhooks/delivery-concurrency.js';
import { requestLog } from './access-log.js';
import { anonymousRateLimit } from './anonymous.js';
import { answerAfterCommit } from './answer-after-commit.js';
import { limitBody } from './body-limit.js';
import { apiCors, checkCorsOrigins } from './cors.js';
import type { AppConfig, AppEnv } from './env.js';
import { type IdempotencyOptions, idempotentPosts } from './idempotency.js';
import { keyRateLimit, keyWindowsFor } from './key-rate-limit.js';
import {
  apiHeaders,
  authenticate,
  checkApiKeyHeader,
  errorHandler,
  notFound,
} from './middleware.js';
import { type RateLimit, type SlidingWindows, TokenBuckets } from './rate-limit.js';
import { checkCuriePrefix } from './relations.js';
import { registerDocs } from './routes/docs.js';
import { registerEmbeds } from './routes/embeds.js';
import { registerEntryPoint } from './routes/entry-point.js';
import { registerHelperRoutes } from './routes/helpers.js';
import { registerMessageHelpers } from './routes/messages.js';
import { registerMetadata } from './routes/metadata.js';
import { registerPersonSignup } from './routes/person-signup.js';
import { registerRecordRoutes } from './routes/records.js';
import { registerWebhookRoutes } from './routes/webhooks.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** Where records, tenants and keys live. */
  storage: Storage;
  /**
   * A real server to answer as (`ACTION_NETWORK_PRESET`): its entry point path, key
   * header, curie prefix, rate, page size, identifiers, addresses, vocabulary and own
   * collections (see `ServingPreset`). The options below, when given, win over the
   * preset's. Default: the specification (`SPECIFICATION_PRESET`).
   */
  preset?: ServingPreset;
  /**
   * Header carrying the API key. Default `STD-API-Token` (the spec's); `OSDI-API-Token`
   * to serve clients written for Action Network. Checked: an HTTP header name that
   * means nothing else already (not Content-Type, Host, Origin, X-Request-Id, …).
   */
  apiKeyHeader?: string;
  /**
   * Curie prefix of every relation the server writes: link relations (`std:people`),
   * `_embedded` members, the curies entry's name, the error member (`std:error`) and
   * its resource names, and the entry point's version member (`<prefix>_version`).
   * Default `std` (the spec's); `osdi` to serve clients written for OSDI servers such as
   * Action Network. Request bodies may use either `std:` or this prefix. The curie's
   * href, what identifies the relations, stays this server's documentation.
   */
  curiePrefix?: string;
  /**
   * Calls allowed per API key in any rolling second: the next one gets 429
   * `RATE_LIMITED` with `Retry-After` (strict: a client spacing calls at exactly
   * 1000/n ms can be refused after a little jitter; see {@link SlidingWindows}). Calls
   * without a key are not counted here. Default `false`: no limit.
   */
  keyRateLimit?: number | false;
  /**
   * Where access log lines go, one per request once its answer is ready: time, method,
   * path (no query), status, duration, tenant and request id (see `accessLine`).
   * Default: none. The command line writes them to stdout unless `--quiet`.
   */
  accessLog?: (line: string) => void;
  /**
   * Absolute root for hrefs (for example `https://api.example.org`), when a proxy hides
   * the client-facing host. Default: the request's origin.
   */
  publicUrl?: string;
  /** max_pagesize of the entry point and cap of per_page. Default 100. */
  maxPageSize?: number;
  /** Largest accepted request body in bytes; larger ones get 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Entry point motd. */
  motd?: string;
  /** Entry point vendor_name. */
  vendorName?: string;
  /** Entry point product_name. */
  productName?: string;
  /** Kinds to serve; default: every kind of the specification ({@link defaultRegistry}). */
  registry?: KindRegistry;
  /** Where 500 reports (with their reference codes, the request ids) go. Default: stderr. */
  logError?: (message: string) => void;
  /**
   * Origins whose pages may call the API from a browser (`Access-Control-Allow-Origin`),
   * written like `https://www.example.org`; `'*'` for any. Default `'*'`: the anonymous
   * helpers are meant for pages on other sites, and keyed calls are protected by their
   * key, not by CORS.
   */
  corsOrigins?: readonly string[] | '*';
  /**
   * Whether a proxy you run sets `X-Forwarded-For`: the anonymous rate limit then counts
   * per its first entry instead of per TCP peer (which would be the proxy). Leave it
   * off otherwise: any client can write that header. Default false.
   */
  trustProxy?: boolean;
  /** Largest body of a call without an API key, in bytes; larger ones get 413. Default 16 KiB. */
  anonymousBodyBytes?: number;
  /**
   * The tags and lists helper calls without an API key may apply (`add_tags`,
   * `add_lists`, and their `_uri` forms), by name, in every tenant. Default: none; a
   * closed tag is refused as one that does not exist. Such calls never remove anything
   * and never change what a person has (docs/helpers.md, "What a call without a key may do").
   */
  keylessOpen?: KeylessOpenings;
  /**
   * Calls without an API key allowed per client address: a token bucket of `burst`
   * calls refilled at `calls` per `perSeconds`; beyond it 429 `RATE_LIMITED` with
   * `Retry-After`. `false` turns the limit off (for tests, or behind a proxy that
   * limits already). Default `{ calls: 30, perSeconds: 60, burst: 10 }`.
   */
  anonymousRateLimit?: RateLimit | false;
  /** Recipients per second of a (simulated) message send. Default 50. */
  messageSendRate?: number;
  /**
   * `Idempotency-Key` on POSTs: how long a repeat waits for the first request with its
   * key, and the clock answers expire by (24 hours). See `http/idempotency.ts`.
   */
  idempotency?: IdempotencyOptions;
  /**
   * Whether webhook subscriptions made through the API (`POST <apiPrefix>/webhooks`) may
   * name URLs whose host is loopback, private, link-local (cloud metadata), CGNAT or
   * otherwise not public. Default false: such URLs are refused with a 400 naming the
   * address, so that an API key cannot make the server call into its own network
   * (server-side request forgery). Turn it on for tests and receivers on the same
   * machine or network. The operator's `--webhooks` file is never checked.
   */
  webhooksAllowPrivate?: boolean;
  /**
   * Webhook subscriptions one tenant may make through the API, at most; the next create
   * is refused with 409 `WEBHOOK_LIMIT_REACHED` until one is deleted. Subscriptions from
   * the operator's `--webhooks` file are not counted. Default 100 (why:
   * `domain/webhook-subscription-limit.ts`); 0 allows none.
   */
  webhookSubscriptionLimit?: number;
  /**
   * Webhook POSTs in flight at most, server-wide, for the delivery worker started with
   * this app (`startWebhookDelivery({ app })`); more wait their turn, none is dropped.
   * Default 16 (`webhooks/delivery-slots.ts` says why).
   */
  webhookConcurrency?: number;
  /**
   * How many of {@link webhookConcurrency}'s POSTs one tenant may have in flight, from 1
   * to it, so that the other tenants' deliveries never all wait behind one tenant's
   * fan-out. Default: half of it, rounded up.
   */
  webhookTenantConcurrency?: number;
  /**
   * When the work of a call accepted with `?background_request=true` starts: called
   * once the call is accepted, with the function that starts its work. Default: the next
   * turn of the event loop (`setImmediate`), right after the `{}` (202, or 200 under
   * Action Network's preset) leaves. A test holds the work here to see the state between
   * the answer and the work, whatever the machine's load; a deployment could start it at
   * a quieter moment. Whatever it does, it must call `start` in the end: a clean shutdown
   * waits for the work.
   *
   * @example
   * ```ts
   * import { createApp, openStorage } from 'adis-server';
   *
   * const storage = openStorage(':memory:');
   * const held: (() => void)[] = [];
   * createApp({ storage, scheduleBackground: (start) => held.push(start) });
   * // … a call answered 202 {}; nothing done yet …
   * for (const start of held.splice(0)) start();
   * ```
   */
  scheduleBackground?: (start: () => void) => void;
  /**
   * The clock of the rate limits (the anonymous calls' token buckets and the per-key
   * windows), in milliseconds; only differences between its readings count. Default:
   * each limit's own (`Date.now`, `performance.now`). A test holds it still to spend a
   * burst however slowly the machine makes the calls.
   *
   * @example
   * ```ts
   * import { createApp, openStorage } from 'adis-server';
   *
   * const storage = openStorage(':memory:');
   * let paused: number | undefined;
   * createApp({ storage, rateLimitClock: () => paused ?? performance.now() });
   * ```
   */
  rateLimitClock?: () => number;
}

/**
 * The default of {@link AppOptions.anonymousRateLimit}: 10 calls at once, 30 a minute.
 *
 * @example
 * ```ts
 * import { createApp, openStorage } from 'adis-server';
 * import { DEFAULT_ANONYMOUS_RATE_LIMIT } from './app.js';
 *
 * const storage = openStorage(':memory:');
 * createApp({ storage, anonymousRateLimit: { ...DEFAULT_ANONYMOUS_RATE_LIMIT, burst: 20 } });
 * ```
 */
export const DEFAULT_ANONYMOUS_RATE_LIMIT: Readonly<RateLimit> = Object.freeze({
  calls: 30,
  perSeconds: 60,
  burst: 10,
});

/**
 * The kinds the server serves by default: every resource of the specification, and
 * the person signup helper.
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_PRESET, createApp, defaultRegistry, openStorage } from 'adis-server';
 *
 * const storage = openStorage(':memory:');
 * const app = createApp({ storage, registry: defaultRegistry(ACTION_NETWORK_PRESET) });
 * ```
 */
export function defaultRegistry(preset: ServingPreset = SPECIFICATION_PRESET): KindRegistry {
  const registry = new KindRegistry();
  for (const kind of [...ALL_KINDS, ...preset.kinds]) registry.register(adaptKind(kind, preset));
  return registry.registerHelper({
    rel: 'person_signup_helper',
    path: preset.personSignupPath,
    title: 'The person signup helper for the system',
  });
}

/**
 * The preset with the caller's own options over it.
 */
function presetWithOptions(options: AppOptions): ServingPreset {
  const preset = options.preset ?? SPECIFICATION_PRESET;
  return {
    ...preset,
    apiKeyHeader: checkApiKeyHeader(options.apiKeyHeader ?? preset.apiKeyHeader),
    curiePrefix: checkCuriePrefix(options.curiePrefix ?? preset.curiePrefix),
    keyRateLimit: options.keyRateLimit ?? preset.keyRateLimit,
    maxPageSize: options.maxPageSize ?? preset.maxPageSize,
    motd: options.motd ?? preset.motd,
    vendorName: options.vendorName ?? preset.vendorName,
    productName: options.productName ?? preset.productName,
  };
}

/**
 * Builds the ADIS reference server as a Hono app. `app.fetch(request)` is a web-standard
 * handler, so tests and msw can call it in-process; `startServer` serves it over HTTP.
 *
 * @example
 * ```ts
 * import { createApp, openStorage } from 'adis-server';
 *
 * const storage = openStorage(':memory:');
 * await storage.tenants.putApiKey('secret', 'demo', 'write');
 * const app = createApp({ storage });
 * const res = await app.fetch(new Request('http://localhost/api/v1/', { headers: { 'STD-API-Token': 'secret' } }));
 * ```
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const preset = presetWithOptions(options);
  const registry = options.registry ?? defaultRegistry(preset);
  const config: AppConfig = {
    preset,
    apiPrefix: preset.apiPrefix,
    storage: options.storage,
    webhookSubscriptionLimit: webhookSubscriptionLimitOf(options.webhookSubscriptionLimit),
    // Checked here, so that a bad bound fails when the app is made, not when delivery starts.
    webhookConcurrency: deliveryConcurrencyOf(
      options.webhookConcurrency,
      options.webhookTenantConcurrency,
    ),
    records: new RecordService(options.storage, registry),
    registry,
    apiKeyHeader: preset.apiKeyHeader,
    curiePrefix: preset.curiePrefix,
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    maxPageSize: preset.maxPageSize,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    motd: preset.motd,
    vendorName: preset.vendorName,
    productName: preset.productName,
    specVersion: preset.specVersion,
    logError: options.logError ?? ((message) => console.error(message)),
    accessLog: options.accessLog,
    webhooksAllowPrivate: options.webhooksAllowPrivate ?? false,
    keylessOpen: openNames(options.keylessOpen),
    scheduleBackground: options.scheduleBackground ?? ((start) => setImmediate(start)),
  };
  const corsOrigins = options.corsOrigins ?? '*';
  checkCorsOrigins(corsOrigins);
  const anonymousBodyBytes = options.anonymousBodyBytes ?? 16 * 1024;
  if (!Number.isInteger(anonymousBodyBytes) || anonymousBodyBytes < 0) {
    throw new RangeError(
      `anonymousBodyBytes must be a whole number of bytes, got ${anonymousBodyBytes}`,
    );
  }
  const sendRate = options.messageSendRate ?? 50;
  if (!Number.isFinite(sendRate) || sendRate <= 0) {
    throw new RangeError(`messageSendRate must be a positive number, got ${sendRate}`);
  }
  const rateLimit = options.anonymousRateLimit ?? DEFAULT_ANONYMOUS_RATE_LIMIT;
  // Built here so that a bad rate fails when the app is created, not at the first call.
  const keyWindows = keyWindowsFor(preset.keyRateLimit, options.rateLimitClock);
  // strict: false so that `/api/v1/` and `/api/v1` (and `/people/`) are the same route.
  // PatternRouter: hono's default (SmartRouter) cannot use its RegExpRouter for these
  // routes (a helper's static segment after `:id`) and falls back to TrieRouter, which
  // took a third longer to match a record's path than PatternRouter's regexes.
  const app = new Hono<AppEnv>({ strict: false, router: new PatternRouter() });
  app.onError(errorHandler(config));
  app.notFound(notFound(config));
  // First: the request id is set before anything can fail, and the log sees the final status.
  app.use('*', requestLog(config));
  app.use('*', apiHeaders(config));
  registerDocs(app, config);
  app.use(`${config.apiPrefix}/*`, answerAfterCommit(config));
  // Before authentication: preflights carry no key, and 401s need the CORS headers too.
  app.use(
    `${config.apiPrefix}/*`,
    apiCors({ origins: corsOrigins, apiKeyHeader: config.apiKeyHeader }),
  );
  app.use(`${config.apiPrefix}/*`, authenticate(config));
  if (rateLimit) {
    app.use(
      `${config.apiPrefix}/*`,
      anonymousRateLimit(
        new TokenBuckets({
          ...rateLimit,
          ...(options.rateLimitClock ? { now: options.rateLimitClock } : {}),
        }),
        options.trustProxy ?? false,
      ),
    );
  }
  if (keyWindows) app.use(`${config.apiPrefix}/*`, keyRateLimit(keyWindows, config.apiKeyHeader));
  const keyedBodyLimit = limitBody(config.maxBodyBytes);
  const anonymousBodyLimit = limitBody(anonymousBodyBytes);
  app.use(`${config.apiPrefix}/*`, (c, next) =>
    c.get('anonymous') === true ? anonymousBodyLimit(c, next) : keyedBodyLimit(c, next),
  );
  // After authentication (keys are per tenant) and the limits (their refusals are not
  // answers to store); inside answerAfterCommit, which answers after the commit.
  app.use(`${config.apiPrefix}/*`, idempotentPosts(config, options.idempotency));
  registerEntryPoint(app, config);
  // Before the generic record routes, which would take `/metadata` for a collection.
  registerMetadata(app, config);
  registerPersonSignup(app, config);
  registerHelperRoutes(app, config);
  registerMessageHelpers(app, config, { sendRate });
  // Before the generic record routes, which would take `<record>/embed` for a sub-collection.
  registerEmbeds(app, config);
  // Before the generic record routes, which would take `/webhooks` for a collection.
  registerWebhookRoutes(app, config);
  registerRecordRoutes(app, config);
  apiPrefixes.set(app, config.apiPrefix);
  appConfigs.set(app, config);
  return app;
}

/** The API prefix of each app {@link createApp} built. */
const apiPrefixes = new WeakMap<object, string>();

/** The resolved config of each app {@link createApp} built. */
const appConfigs = new WeakMap<object, AppConfig>();

/**
 * The resolved config of an app {@link createApp} built (its preset with the options
 * applied, its kinds, storage and public URL), for work beside the app that renders as
 * it does (webhook deliveries); undefined for any other app.
 */
export function appConfigOf(app: object): AppConfig | undefined {
  return appConfigs.get(app);
}

/**
 * The path of an app's entry point, with its trailing slash: `/api/v1/`, or its
 * preset's (`/api/v2/`). `/api/v1/` for an app {@link createApp} did not build.
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_PRESET, createApp, entryPointPath, openStorage } from 'adis-server';
 *
 * const storage = openStorage(':memory:');
 * entryPointPath(createApp({ storage, preset: ACTION_NETWORK_PRESET })); // '/api/v2/'
 * ```
 */
export function entryPointPath(app: object): string {
  return `${apiPrefixes.get(app) ?? SPECIFICATION_PRESET.apiPrefix}/`;
}
