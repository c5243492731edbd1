import type { CallOptions, NavigatorContext } from './context.js';

/**
 * Options of calls that create or update a resource.
 *
 * @example
 * ```ts
 * await client.people.create(person, { returnResponse: false });
 * ```
 */
export interface WriteOptions extends CallOptions {
  /**
   * Sent as the control object's `return_response`. When false the server need not
   * return the resource, which saves bandwidth on bulk writes. Default: true (not sent).
   */
  returnResponse?: boolean;
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
