/**
 * True when `url` is an http or https address: the only ones a client follows or a
 * server links to (a `file:`, `data:` or `javascript:` href is never fetched).
 *
 * @example
 * ```ts
 * import { isHttpUrl } from 'adis-sdk/server-kit';
 *
 * isHttpUrl(new URL('https://api.example.org/api/v1/')); // true
 * isHttpUrl(new URL('file:///etc/passwd')); // false
 * ```
 */
export function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/**
 * `text` read as an absolute http or https URL (against `base` when given), or
 * undefined when it is not one: unparsable, or of another scheme.
 *
 * @example
 * ```ts
 * import { httpUrlOrUndefined } from 'adis-sdk/server-kit';
 *
 * httpUrlOrUndefined('http://127.0.0.1:8000/api/v1/')?.host; // '127.0.0.1:8000'
 * httpUrlOrUndefined('ftp://example.org/'); // undefined
 * httpUrlOrUndefined('not a url'); // undefined
 * ```
 */
export function httpUrlOrUndefined(text: string, base?: string | URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return undefined;
  }
  return isHttpUrl(url) ? url : undefined;
}
