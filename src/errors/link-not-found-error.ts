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
  /** Always `'LINK_NOT_FOUND'`. */
  readonly code = 'LINK_NOT_FOUND' as const;
  /** Always `'LinkNotFoundError'`. */
  override readonly name = 'LinkNotFoundError' as const;
  /** The relation that was asked for, for example `std:people`. */
  readonly rel: string;
  /** The URL of the document that lacks the link. */
  readonly url: string;
  /** The relations the document does have. */
  readonly available: readonly string[];

  /**
   * Builds the error; the message lists the relations the document has.
   *
   * @param rel - The relation that was asked for.
   * @param url - The URL of the document that lacks it.
   * @param available - The relations the document has, listed in the message.
   *
   * @example
   * ```ts
   * const error = new LinkNotFoundError('std:people', url, document.relations());
   * ```
   */
  constructor(rel: string, url: string, available: readonly string[]) {
    const present = available.length > 0 ? available.join(', ') : 'none';
    super(`No link "${rel}" in ${url} (relations present: ${present})`);
    this.rel = rel;
    this.url = url;
    this.available = available;
  }
}
