import type { CallOptions, NavigatorContext } from './context.js';

/**
 * Options of calls that create or update a resource.
 *
 * @example
 * ```ts
 * await client.people.create(person, { returnResponse: false });
 * await client.people.create(person, { idempotencyKey: `import-${row.id}` });
 * ```
 */
export interface WriteOptions extends CallOptions {
  /**
   * Sent as the control object's `return_response`. When false the server need not
   * return the resource, which saves bandwidth on bulk writes. Default: true (not sent).
   */
  returnResponse?: boolean;
  /**
   * The `Idempotency-Key` of a create (or helper call), both POSTs. By default a new
   * random key for this call (unless the client was made with `idempotencyKeys:
   * false`), sent again with each retry, so the server acts once however often the
   * call is retried. A string sends that key instead: keep one per piece of work (a
   * queued job that is retried whole, an imported row) so that a repeat of the whole
   * call is recognised too. 1 to 255 visible ASCII characters, else an
   * `InvalidIdempotencyKeyError` before the POST is sent. `false` sends no key, and the
   * call is then never retried. An update (PUT) is idempotent already and sends none.
   */
  idempotencyKey?: string | false;
}

/**
 * The control member to add to a write body, under the server's own prefix for the
 * specification's curie (`std:control` on most servers, `osdi:control` on others).
 * Nothing is added for the default behaviour, to keep requests minimal.
 *
 * @example
 * ```ts
 * controlMember(context, false); // { 'std:control': { return_response: false } }
 * ```
 */
export function controlMember(
  context: NavigatorContext,
  returnResponse: boolean | undefined,
): Record<string, { return_response: boolean }> {
  if (returnResponse !== false) return {};
  return { [`${context.specPrefix}:control`]: { return_response: false } };
}

/**
 * A link object pointing at a resource or URL, for the `_links` of a write body (a
 * signature's `std:person`, a wrapper's `std:creator`).
 *
 * @example
 * ```ts
 * await petition.signatures().create({ comments: 'Yes!', _links: { 'std:person': linkTo(person) } });
 * ```
 */
export function linkTo(target: { readonly url: string } | string): { href: string } {
  return { href: typeof target === 'string' ? target : target.url };
}

/**
 * The body of a write as sent: the validated fields, the `_links` relations renamed from
 * the SDK's `std:` to the server's own prefix, and the control member.
 *
 * @example
 * ```ts
 * outgoingBody(context, { _links: { 'std:person': { href } } }, false);
 * // on an osdi server: { _links: { 'osdi:person': { href } }, 'osdi:control': { return_response: false } }
 * ```
 */
export function outgoingBody(
  context: NavigatorContext,
  body: unknown,
  returnResponse: boolean | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  const links = out._links;
  if (links && typeof links === 'object' && !Array.isArray(links) && context.specPrefix !== 'std') {
    const renamed: Record<string, unknown> = {};
    for (const [rel, value] of Object.entries(links)) {
      renamed[rel.startsWith('std:') ? `${context.specPrefix}:${rel.slice(4)}` : rel] = value;
    }
    out._links = renamed;
  }
  return { ...out, ...controlMember(context, returnResponse) };
}
