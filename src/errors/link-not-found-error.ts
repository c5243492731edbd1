import { AdisError } from './adis-error.js';

/**
 * A resource has no link with the relation that was asked for. Names the relations it
 * does have, because the usual cause is a server using another curie or rel name.
 *
 * @example
 * ```ts
 * throw new LinkNotFoundError('std:people', 'https://api.example.org/api/v1/', ['self', 'osdi:people']);
 * ```
 */
export class LinkNotFoundError extends AdisError {
  readonly code = 'LINK_NOT_FOUND' as const;
  override readonly name = 'LinkNotFoundError' as const;
  readonly rel: string;
  readonly url: string;
  readonly available: readonly string[];

  constructor(rel: string, url: string, available: readonly string[]) {
    const present = available.length > 0 ? available.join(', ') : 'none';
    super(`No link "${rel}" in ${url} (relations present: ${present})`);
    this.rel = rel;
    this.url = url;
    this.available = available;
  }
}
