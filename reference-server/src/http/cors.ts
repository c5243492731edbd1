/**
 * CORS for the API: browser pages on other origins may call it (the spec opens the
 * record helpers to browser scripts without a key, and a page may hold a key of its
 * own). Preflights are answered before authentication, since browsers never send the
 * key on them.
 */

import { isHttpUrl } from 'adis-sdk/server-kit';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { REQUEST_ID_HEADER } from './access-log.js';
import type { AppEnv } from './env.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_HONOURED_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
} from './idempotency.js';

/**
 * Methods a cross-origin page may use on the API.
 */
export const CORS_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Response headers a cross-origin page may read: where a record was created, when to
 * retry, whether an answer is a replay of an earlier request with the same
 * `Idempotency-Key`.
 */
export const CORS_EXPOSED_HEADERS = [
  'Location',
  'Retry-After',
  IDEMPOTENT_REPLAYED_HEADER,
  REQUEST_ID_HEADER,
  // So that the SDK in a page learns that this server honours Idempotency-Key (the
  // header, or the key echoed back) and may retry a POST whose answer was lost.
  IDEMPOTENCY_KEY_HONOURED_HEADER,
  IDEMPOTENCY_KEY_HEADER,
] as const;

/**
 * How long (seconds) a browser may reuse a preflight answer.
 */
export const CORS_MAX_AGE = 600;

/**
 * What {@link apiCors} needs.
 */
export interface ApiCorsOptions {
  /** `'*'` (any origin), or the exact origins allowed, such as `https://www.example.org`. */
  origins: readonly string[] | '*';
  /** The API key header, which preflights must allow. */
  apiKeyHeader: string;
}

/**
 * The CORS middleware of the API: `Access-Control-Allow-Origin` on every response
 * (errors included: they go through the same middleware chain), preflights answered
 * with 204 and the allowed methods and headers. With a list of origins, other origins
 * get no `Access-Control-Allow-Origin`, so their browsers refuse the answer.
 *
 * Preflights are hono's `cors()`. Other calls get the same headers as hono's `cors()`
 * would give them, but set on the final response after the handler: hono's sets them
 * on `c.res` before the handler runs, and hono then merges that placeholder into the
 * handler's response by building a new one from its body stream, which takes
 * `@hono/node-server` off its fast path (writing a string body at once) for every call.
 */
export function apiCors(options: ApiCorsOptions): MiddlewareHandler<AppEnv> {
  const origins = options.origins;
  const preflight = cors({
    origin: origins === '*' ? '*' : [...origins],
    allowMethods: [...CORS_METHODS],
    allowHeaders: [
      'Content-Type',
      'Accept',
      options.apiKeyHeader,
      IDEMPOTENCY_KEY_HEADER,
      REQUEST_ID_HEADER,
    ],
    exposeHeaders: [...CORS_EXPOSED_HEADERS],
    maxAge: CORS_MAX_AGE,
  });
  const exposed = CORS_EXPOSED_HEADERS.join(',');
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    const headers = c.res.headers;
    if (origins === '*') {
      headers.set('Access-Control-Allow-Origin', '*');
    } else {
      const origin = c.req.header('origin') ?? '';
      if (origins.includes(origin)) headers.set('Access-Control-Allow-Origin', origin);
      // The answer depends on Origin: caches must not serve it to another origin.
      headers.append('Vary', 'Origin');
    }
    headers.set('Access-Control-Expose-Headers', exposed);
  };
}

/**
 * Checks a configured list of origins: `'*'`, or origins written as browsers send
 * them (`scheme://host[:port]`, no path, no trailing slash), since they are compared
 * as exact strings. Throws a `RangeError` naming the first bad one.
 *
 * @example
 * ```ts
 * import { checkCorsOrigins } from './cors.js';
 *
 * checkCorsOrigins(['https://www.example.org', 'http://localhost:5173']); // ok
 * checkCorsOrigins(['https://www.example.org/']); // RangeError
 * ```
 */
export function checkCorsOrigins(origins: readonly string[] | '*'): void {
  if (origins === '*') return;
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !isHttpUrl(parsed) || parsed.origin !== origin) {
      throw new RangeError(
        `CORS origin ${JSON.stringify(origin)} must be written like https://www.example.org (scheme, host, optional port; no path or trailing slash)`,
      );
    }
  }
}
