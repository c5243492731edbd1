/**
 * Calls without an API key. The spec lets browser pages call the record signature,
 * outreach, attendance, donation and canvass helpers without one; such a call reaches
 * only those helpers, and is limited per client address so that an open endpoint
 * cannot be flooded (the body size limit is in app.ts, beside the keyed one).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { KindRegistry, RecordHelper, ResourceKind } from '../domain/kinds.js';
import type { AppEnv } from './env.js';
import { rateLimited, type TokenBuckets } from './rate-limit.js';

/** A call without a key to a record helper: the kind and id in its URL, and the helper. */
export interface AnonymousCall {
  kind: ResourceKind;
  id: string;
  helper: RecordHelper;
}

/**
 * The record helper call a request without a key may make: a POST to
 * `/api/v1/<plural>/<id>/<path>` where the kind declares a helper at `<path>` open to
 * anonymous callers. Undefined for every other call (which then needs a key).
 *
 * @example
 * ```ts
 * import { defaultRegistry } from 'adis-server';
 * import { anonymousCallOf } from './anonymous.js';
 *
 * anonymousCallOf(defaultRegistry(), 'POST', '/api/v1/petitions/7c9e…/record_signature_helper');
 * // { kind: <petition>, id: '7c9e…', helper: <record_signature_helper> }
 * ```
 */
export function anonymousCallOf(
  registry: KindRegistry,
  method: string,
  path: string,
  apiPrefix = '/api/v1',
): AnonymousCall | undefined {
  if (method !== 'POST' || !path.startsWith(`${apiPrefix}/`)) return undefined;
  const parts = path
    .slice(apiPrefix.length + 1)
    .replace(/\/+$/, '')
    .split('/');
  if (parts.length !== 3 || parts.some((part) => part === '')) return undefined;
  const [plural, id, helperPath] = parts;
  const kind = registry.byPlural(plural ?? '');
  const helper = kind?.helpers?.find((h) => h.anonymous && h.path === helperPath);
  return kind && helper && id ? { kind, id, helper } : undefined;
}

/**
 * The record helper a call without a key may reach ({@link anonymousCallOf}'s helper).
 *
 * @example
 * ```ts
 * import { defaultRegistry } from 'adis-server';
 * import { anonymousHelperOf } from './anonymous.js';
 *
 * const registry = defaultRegistry();
 * anonymousHelperOf(registry, 'POST', '/api/v1/petitions/7c9e…/record_signature_helper'); // the helper
 * anonymousHelperOf(registry, 'GET', '/api/v1/petitions/7c9e…/record_signature_helper'); // undefined
 * ```
 */
export function anonymousHelperOf(
  registry: KindRegistry,
  method: string,
  path: string,
  apiPrefix = '/api/v1',
): RecordHelper | undefined {
  return anonymousCallOf(registry, method, path, apiPrefix)?.helper;
}

/** The node request of @hono/node-server, when the app is served by it. */
function servedByNode(env: unknown): boolean {
  if (typeof env !== 'object' || env === null) return false;
  const bindings = 'server' in env && env.server ? env.server : env;
  return typeof bindings === 'object' && bindings !== null && 'incoming' in bindings;
}

/**
 * The address a call comes from, for per-client limits: the first `X-Forwarded-For`
 * entry when the server sits behind a proxy you trust (anyone can send that header, so
 * it is read only then), else the TCP peer when served by node, else (in-process
 * `app.fetch`, where no peer exists) `unknown`: one shared bucket.
 */
export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  if (servedByNode(c.env)) {
    const address = getConnInfo(c).remote.address;
    if (address) return address;
  }
  return 'unknown';
}

/**
 * Refuses anonymous calls beyond the rate of their client address with 429
 * `RATE_LIMITED` and a `Retry-After` (seconds). Calls with a key pass untouched.
 */
export function anonymousRateLimit(
  buckets: TokenBuckets,
  trustProxy: boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('anonymous') !== true) return next();
    const result = buckets.take(clientAddress(c, trustProxy));
    if (!result.allowed) {
      throw rateLimited(
        result.retryAfterSeconds,
        'too many calls without an API key from this address',
        'wait for Retry-After seconds, or call with an API key',
      );
    }
    return next();
  };
}
