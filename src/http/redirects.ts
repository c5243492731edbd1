import type { HttpMethod } from './http-method.js';

/** Hops followed per request before giving up, as browsers cap it (they use 20). */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** One request of a redirect chain. */
export interface Hop {
  method: HttpMethod;
  url: string;
  body: unknown;
}

/**
 * Whether a status is a redirect the transport follows.
 *
 * @example
 * ```ts
 * import { isRedirectStatus } from './redirects.js';
 *
 * isRedirectStatus(308); // true
 * isRedirectStatus(304); // false
 * ```
 */
export function isRedirectStatus(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * The next hop after a redirect, with the method and body rewritten the way `fetch`
 * does it (Fetch standard, HTTP-redirect fetch): 303 turns anything into GET, 301/302
 * turn POST into GET, 307/308 keep both.
 *
 * @example
 * ```ts
 * import { nextHop } from './redirects.js';
 *
 * nextHop({ method: 'POST', url: 'https://a/x', body: {} }, 303, 'https://a/y');
 * // { method: 'GET', url: 'https://a/y', body: undefined }
 * ```
 */
export function nextHop(hop: Hop, status: number, target: string): Hop {
  const toGet =
    (status === 303 && hop.method !== 'GET') ||
    ((status === 301 || status === 302) && hop.method === 'POST');
  return toGet
    ? { method: 'GET', url: target, body: undefined }
    : { method: hop.method, url: target, body: hop.body };
}
