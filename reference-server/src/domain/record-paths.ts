/**
 * Where a record lives on this server, as a path: what the domain needs of the server's
 * addresses (to read an href a body sends, to write one back) without the HTTP layer's
 * URL builder (`http/links.ts`, which builds absolute hrefs from these same paths).
 */

/** The API path prefix (the spec's versioned `{base_url}`); a preset may set another. */
export const API_PREFIX = '/api/v1';

/**
 * A record's path under the API prefix: `/api/v1/people/abc`.
 *
 * @example
 * ```ts
 * import { recordPath } from './record-paths.js';
 *
 * recordPath('people', 'a b'); // '/api/v1/people/a%20b'
 * ```
 */
export function recordPath(plural: string, id: string, apiPrefix = API_PREFIX): string {
  return `${apiPrefix}/${plural}/${encodeURIComponent(id)}`;
}

/**
 * The record an href of this server names, read from its path
 * (`…/api/v1/<plural>/<id>`, or the nested address `…/<plural>/<id>/<sub>/<id>` a
 * preset serves: the record is the last pair), whatever its origin: behind a proxy the
 * client may know the server by another host. Undefined for any other href.
 *
 * @example
 * ```ts
 * import { recordOfHref } from './record-paths.js';
 *
 * recordOfHref('http://h/api/v1/people/abc'); // { plural: 'people', id: 'abc' }
 * recordOfHref('http://h/api/v2/petitions/p/signatures/s', '/api/v2'); // { plural: 'signatures', id: 's' }
 * recordOfHref('http://h/elsewhere'); // undefined
 * ```
 */
export function recordOfHref(
  href: string,
  apiPrefix = API_PREFIX,
): { plural: string; id: string } | undefined {
  let path: string;
  try {
    path = new URL(href, 'http://relative.invalid').pathname;
  } catch {
    return undefined;
  }
  const prefix = `${apiPrefix}/`;
  if (!path.startsWith(prefix)) return undefined;
  const parts = path.slice(prefix.length).replace(/\/+$/, '').split('/');
  if ((parts.length !== 2 && parts.length !== 4) || parts.some((part) => part === '')) {
    return undefined;
  }
  const [plural, id] = parts.slice(-2) as [string, string];
  try {
    return { plural, id: decodeURIComponent(id) };
  } catch {
    return undefined;
  }
}
