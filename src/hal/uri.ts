import { InvalidLinkError } from '../errors/invalid-link-error.js';
import { isHttpUrl } from '../wire/http-url.js';

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/**
 * Resolves a link's href against the URL of the document it was found in.
 *
 * An absolute href is returned exactly as the server wrote it: the spec makes the href
 * the only canonical address, and round-tripping it through `URL` would normalise it
 * (case, default ports, percent-encoding), which some servers treat as another URL.
 * Only relative references are resolved, per RFC 3986. Any scheme is kept (curies
 * name relations with URIs that are never fetched); {@link unfetchableReason} is the check
 * for an address about to be requested. A relative reference that does not resolve is
 * an {@link InvalidLinkError}.
 *
 * @example
 * ```ts
 * import { resolveHref } from './uri.js';
 *
 * resolveHref('https://api.example.org/api/v1/', 'people'); // 'https://api.example.org/api/v1/people'
 * resolveHref('https://a.example/', 'https://b.example/x');  // unchanged
 * ```
 */
export function resolveHref(base: string, href: string): string {
  if (SCHEME.test(href)) return href;
  try {
    return new URL(href, base).toString();
  } catch (error) {
    throw new InvalidLinkError(
      { rel: undefined, href, documentUrl: base, reason: 'not a URL reference' },
      { cause: error },
    );
  }
}

/**
 * Why an absolute URL cannot be requested, or undefined when it can: only http and
 * https URLs are fetched, whatever a server links to (`javascript:`, `file:`, `urn:`).
 *
 * @example
 * ```ts
 * import { unfetchableReason } from './uri.js';
 *
 * unfetchableReason('https://api.example.org/api/v1/people'); // undefined
 * unfetchableReason('javascript:alert(1)'); // 'not an http(s) URL'
 * ```
 */
export function unfetchableReason(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  return isHttpUrl(parsed) ? undefined : 'not an http(s) URL';
}

/**
 * Sets one query parameter on a URL taken from a link (a collection's `filter`, a
 * metadata list's `contacttype`): the only way the SDK adds to an href, and only for
 * parameters the spec or the servers in the wild define on that address. The value is
 * encoded, and a value already there is replaced.
 *
 * @example
 * ```ts
 * import { withQueryParameter } from './uri.js';
 *
 * withQueryParameter('https://api.example.org/api/v1/people?page=2', 'filter', "a eq 'b'");
 * // 'https://api.example.org/api/v1/people?page=2&filter=a+eq+%27b%27'
 * ```
 */
export function withQueryParameter(url: string, name: string, value: string): string {
  const out = new URL(url);
  out.searchParams.set(name, value);
  return out.toString();
}
