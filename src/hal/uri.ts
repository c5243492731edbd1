/**
 * Resolves a link's href against the URL of the document it was found in.
 *
 * An absolute href is returned exactly as the server wrote it: the spec makes the href
 * the only canonical address, and round-tripping it through `URL` would normalise it
 * (case, default ports, percent-encoding), which some servers treat as another URL.
 * Only relative references are resolved, per RFC 3986.
 *
 * @example
 * ```ts
 * resolveHref('https://api.example.org/api/v1/', 'people'); // 'https://api.example.org/api/v1/people'
 * resolveHref('https://a.example/', 'https://b.example/x');  // unchanged
 * ```
 */
export function resolveHref(base: string, href: string): string {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(href)) return href;
  return new URL(href, base).toString();
}

/**
 * Sets one query parameter on a URL taken from a link (a collection's `filter`, a
 * metadata list's `contacttype`): the only way the SDK adds to an href, and only for
 * parameters the spec or the servers in the wild define on that address. The value is
 * encoded, and a value already there is replaced.
 *
 * @example
 * ```ts
 * withQueryParameter('https://api.example.org/api/v1/people?page=2', 'filter', "a eq 'b'");
 * // 'https://api.example.org/api/v1/people?page=2&filter=a+eq+%27b%27'
 * ```
 */
export function withQueryParameter(url: string, name: string, value: string): string {
  const out = new URL(url);
  out.searchParams.set(name, value);
  return out.toString();
}
