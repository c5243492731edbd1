/**
 * The Hono application: middleware order, routes, error mapping.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ALL_KINDS } from '../domain/catalog.js';
import { apiError, ErrorCode } from '../domain/errors.js';
import { KindRegistry } from '../domain/kinds.js';
import { RecordService } from '../domain/records.js';
import type { Storage } from '../storage/storage.js';
import type { AppConfig, AppEnv } from './env.js';
import { API_PREFIX } from './links.js';
import { apiHeaders, authenticate, errorHandler, notFound } from './middleware.js';
import { errorResponse } from './respond.js';
import { registerDocs } from './routes/docs.js';
import { registerEntryPoint } from './routes/entry-point.js';
import { registerHelperRoutes } from './routes/helpers.js';
import { registerMessageHelpers } from './routes/messages.js';
import { registerMetadata } from './routes/metadata.js';
import { PERSON_SIGNUP_PATH, registerPersonSignup } from './routes/person-signup.js';
import { registerRecordRoutes } from './routes/records.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** Where records, tenants and keys live. */
  storage: Storage;
  /** Header carrying the API key. Default `STD-API-Token` (the spec's). */
  apiKeyHeader?: string;
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
  /** Where 500 reports (with their reference codes) go. Default: stderr. */
  logError?: (message: string) => void;
}

/**
 * The kinds the server serves by default: every resource of the specification, and
 * the person signup helper.
 *
 * @example
 * ```ts
 * const app = createApp({ storage, registry: defaultRegistry() });
 * ```
 */
export function defaultRegistry(): KindRegistry {
  const registry = new KindRegistry();
  for (const kind of ALL_KINDS) registry.register(kind);
  return registry.registerHelper({
    rel: 'person_signup_helper',
    path: PERSON_SIGNUP_PATH,
    title: 'The person signup helper for the system',
  });
}

/**
 * Builds the ADIS reference server as a Hono app. `app.fetch(request)` is a web-standard
 * handler, so tests and msw can call it in-process; `startServer` serves it over HTTP.
 *
 * @example
 * ```ts
 * const storage = openStorage(':memory:');
 * storage.putApiKey('secret', 'demo', 'write');
 * const app = createApp({ storage });
 * const res = await app.fetch(new Request('http://localhost/api/v1/', { headers: { 'STD-API-Token': 'secret' } }));
 * ```
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const registry = options.registry ?? defaultRegistry();
  const config: AppConfig = {
    storage: options.storage,
    records: new RecordService(options.storage, registry),
    registry,
    apiKeyHeader: options.apiKeyHeader ?? 'STD-API-Token',
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    maxPageSize: options.maxPageSize ?? 100,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    motd: options.motd ?? 'Welcome to the ADIS reference server.',
    vendorName: options.vendorName ?? 'ADIS project',
    productName: options.productName ?? 'ADIS reference server',
    stdVersion: '1.0',
    logError: options.logError ?? ((message) => console.error(message)),
  };
  // strict: false so that `/api/v1/` and `/api/v1` (and `/people/`) are the same route.
  const app = new Hono<AppEnv>({ strict: false });
  app.onError(errorHandler(config));
  app.notFound(notFound);
  app.use('*', apiHeaders(config));
  registerDocs(app, config);
  app.use(`${API_PREFIX}/*`, authenticate(config));
  app.use(
    `${API_PREFIX}/*`,
    bodyLimit({
      maxSize: config.maxBodyBytes,
      onError: () =>
        errorResponse(
          apiError(
            413,
            ErrorCode.PAYLOAD_TOO_LARGE,
            `the request body exceeds the limit of ${config.maxBodyBytes} bytes`,
          ),
        ),
    }),
  );
  registerEntryPoint(app, config);
  // Before the generic record routes, which would take `/metadata` for a collection.
  registerMetadata(app, config);
  registerPersonSignup(app, config);
  registerHelperRoutes(app, config);
  registerMessageHelpers(app, config);
  registerRecordRoutes(app, config);
  return app;
}
