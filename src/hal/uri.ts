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
