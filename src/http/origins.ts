import { httpUrlOrUndefined } from '../wire/http-url.js';

/**
 * The origin (`scheme://host[:port]`) of an absolute http(s) URL, or undefined for
 * anything else. Going through `URL` makes `HTTPS://API.Example.org:443/x` and
 * `https://api.example.org` compare equal.
 *
 * @example
 * ```ts
 * import { originOf } from './origins.js';
 *
 * originOf('https://API.example.org:443/api/v1/'); // 'https://api.example.org'
 * originOf('mailto:a@example.org'); // undefined
 * ```
 */
export function originOf(urlOrOrigin: string): string | undefined {
  return httpUrlOrUndefined(urlOrOrigin)?.origin;
}

/**
 * The origins that may receive the API key. Links are data from the server, so a link
 * to another host must never carry the key there; only origins the user named, or
 * the entry point they connected to, are trusted.
 *
 * @example
 * ```ts
 * import { TrustedOrigins } from './origins.js';
 *
 * const origins = new TrustedOrigins(['https://api.example.org']);
 * origins.has('https://api.example.org/api/v1/people'); // true
 * origins.has('https://cdn.example.org/x'); // false
 * ```
 */
export class TrustedOrigins {
  readonly #origins = new Set<string>();

  constructor(initial: readonly string[] = []) {
    for (const origin of initial) this.add(origin);
  }

  /**
   * Trusts the origin of a URL (or an origin given as such).
   */
  add(urlOrOrigin: string): void {
    const origin = originOf(urlOrOrigin);
    // Throwing beats silently trusting nothing: the caller would see 401s with no clue why.
    if (origin === undefined) {
      throw new TypeError(`Cannot trust "${urlOrOrigin}": not an absolute http(s) URL or origin`);
    }
    this.#origins.add(origin);
  }

  /**
   * Whether a URL's origin is trusted; false for anything that is not an http(s) URL.
   */
  has(url: string): boolean {
    const origin = originOf(url);
    return origin !== undefined && this.#origins.has(origin);
  }
}
