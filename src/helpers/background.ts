// Part of the light browser entry: the URL API only.

/**
 * An absolute helper address with `background_processing=true` added to its query,
 * through the URL API: the href's other query parameters are kept (re-encoded as
 * `application/x-www-form-urlencoded`, which a server decodes to the same values), and
 * a `background_processing` already there is replaced. The server then may answer at
 * once (202 Accepted, or 200 with `{}`) and write the records later.
 *
 * @example
 * ```ts
 * backgroundUrl('https://api.example.org/petitions/1/signatures?source=mail');
 * // 'https://api.example.org/petitions/1/signatures?source=mail&background_processing=true'
 * ```
 */
export function backgroundUrl(url: string | URL): string {
  const target = new URL(url);
  target.searchParams.set('background_processing', 'true');
  return target.href;
}
