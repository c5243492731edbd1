import { AdisError } from './adis-error.js';

/** What an {@link InvalidLinkError} is built from. */
export interface InvalidLinkErrorInit {
  /**
   * The relation the address was found under (`next`, `std:person`, `self`), `Location`
   * for a response header, or undefined for an address the caller passed in.
   */
  rel: string | undefined;
  /** The address exactly as the server (or the caller) wrote it. */
  href: string;
  /** The URL of the document the link came from; undefined for the caller's own. */
  documentUrl: string | undefined;
  /** What is wrong with it. */
  reason: string;
}

/**
 * An address cannot be used: a link's href (or a `Location` header) that is not an
 * absolute http(s) URL once resolved, that is not a URL at all, or a template that cannot
 * be expanded. Addresses from a server are data, checked where they are resolved, so a
 * server can never make the SDK request `javascript:` or `file:` URLs, or throw a raw
 * `TypeError` from deep inside a walk.
 *
 * @example
 * ```ts
 * import { isInvalidLinkError } from 'adis-sdk';
 *
 * try {
 *   for await (const person of client.people) console.log(person.url);
 * } catch (error) {
 *   if (isInvalidLinkError(error)) console.error(error.rel, error.href, error.documentUrl);
 * }
 * ```
 */
export class InvalidLinkError extends AdisError {
  /** Always `'INVALID_LINK'`. */
  readonly code = 'INVALID_LINK' as const;
  /** Always `'InvalidLinkError'`. */
  override readonly name = 'InvalidLinkError' as const;
  /** The relation of the link, `Location`, or undefined for an address the caller gave. */
  declare readonly rel: string | undefined;
  /** The address as written. */
  declare readonly href: string;
  /** The document the link came from; undefined for an address the caller gave. */
  declare readonly documentUrl: string | undefined;
  /** What is wrong with the address. */
  declare readonly reason: string;

  /**
   * Builds the error; the message names the relation, the address and the document.
   *
   * @param init - The relation, the address, the document it came from and the reason.
   * @param options - `cause`: the parse or expansion error behind it, when there is one.
   */
  constructor(init: InvalidLinkErrorInit, options?: { cause?: unknown }) {
    const what = init.rel === undefined ? 'URL' : `link "${init.rel}"`;
    const where = init.documentUrl === undefined ? '' : ` in ${init.documentUrl}`;
    super(`Invalid ${what}${where}: ${JSON.stringify(init.href)} is ${init.reason}`, options);
    this.rel = init.rel;
    this.href = init.href;
    this.documentUrl = init.documentUrl;
    this.reason = init.reason;
  }
}
