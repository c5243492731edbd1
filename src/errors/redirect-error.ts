import { AdisError } from './adis-error.js';

/** Why a redirect could not be followed. */
export type RedirectFailure =
  | 'opaque-redirect'
  | 'too-many-redirects'
  | 'missing-location'
  | 'unsupported-location';

const EXPLANATIONS: Record<RedirectFailure, string> = {
  'opaque-redirect':
    'the runtime hid the redirect target (opaque redirect), so it cannot be checked before the API key is sent again; call the final URL directly',
  'too-many-redirects': 'too many redirects',
  'missing-location': 'redirect without a usable Location header',
  'unsupported-location': 'redirect to a URL that is not http(s)',
};

/**
 * A redirect of an authenticated request could not be followed safely. The transport
 * follows such redirects itself so it can decide per hop whether the API key goes on.
 *
 * @example
 * ```ts
 * import { isRedirectError } from 'adis-sdk';
 *
 * try {
 *   await client.people.get('https://api.example.org/api/v1/people/1');
 * } catch (error) {
 *   if (isRedirectError(error)) console.error(error.reason);
 * }
 * ```
 */
export class RedirectError extends AdisError {
  /** Always `'REDIRECT'`. */
  readonly code = 'REDIRECT' as const;
  /** Always `'RedirectError'`. */
  override readonly name = 'RedirectError' as const;
  /** The method of the hop that answered with the redirect. */
  declare readonly method: string;
  /** The URL of the hop that answered with the redirect. */
  declare readonly url: string;
  /** Why the redirect could not be followed. */
  declare readonly reason: RedirectFailure;

  /**
   * Builds the error; the message explains `reason`.
   *
   * @param method - The method of the hop that answered with the redirect.
   * @param url - The URL of that hop.
   * @param reason - Why the redirect could not be followed; explained in the message.
   */
  constructor(method: string, url: string, reason: RedirectFailure) {
    super(`Cannot follow redirect: ${EXPLANATIONS[reason]}: ${method} ${url}`);
    this.method = method;
    this.url = url;
    this.reason = reason;
  }
}
