import { isJsonObject } from '../wire/json-object.js';

// Re-exported: the hal layer's readers and the navigator take it from here.
export { isJsonObject };

/**
 * A link object as HAL defines it. Only `href` is required; the other members are
 * hints that servers in the wild fill in to varying degrees.
 */
export interface HalLink {
  /** A URI, a relative reference, or an RFC 6570 template when `templated` is true. */
  href: string;
  /** True when `href` is an RFC 6570 URI template. */
  templated?: boolean;
  /** A human-readable label. */
  title?: string;
  /** A secondary key for telling apart links of the same relation. */
  name?: string;
  /** The media type expected at the target. */
  type?: string;
  /** A URI of a profile describing the target. */
  profile?: string;
  /** The language of the target. */
  hreflang?: string;
  /** A URL explaining that the link is deprecated; present means deprecated. */
  deprecation?: string;
  /** The spec's docs link carries an `index`; other members are kept too. */
  [member: string]: unknown;
}

/**
 * Reads the value of one `_links` member into a list of link objects.
 *
 * HAL allows a relation to hold one link object or an array of them, and a server may
 * switch between the two as the number of links changes (one signature versus two), so
 * both always read as a list. Some servers write a bare string href instead of an
 * object; that is read as `{ href }`. Entries without a string `href` are dropped: a
 * link nobody can follow is not a link.
 *
 * @example
 * ```ts
 * import { toLinkList } from './link.js';
 *
 * toLinkList({ href: '/people/1' });             // [{ href: '/people/1' }]
 * toLinkList([{ href: '/a' }, { href: '/b' }]); // two links
 * toLinkList('/people/1');                       // [{ href: '/people/1' }]
 * ```
 */
export function toLinkList(value: unknown): HalLink[] {
  const entries = Array.isArray(value) ? value : [value];
  const links: HalLink[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') {
      links.push({ href: entry });
    } else if (isJsonObject(entry) && typeof entry.href === 'string') {
      links.push({ ...entry, href: entry.href });
    }
  }
  return links;
}
