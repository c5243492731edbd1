import { AdisError } from './adis-error.js';

/**
 * A curie of a document's `_links.curies` whose href names no relation: none, an empty
 * one, or one without the `{rel}` token. Its prefix is then compared by name (see
 * `Curies`), so `osdi:people` meets `std:people` only when the caller names `osdi` as
 * the specification's prefix (`curiePrefix`, as a preset does).
 */
export interface CurieProblem {
  /** The curie's `name` (`osdi`). */
  readonly name: string;
  /** Its place in `_links.curies` (0 for a curie sent as a single object). */
  readonly index: number;
  /** What is wrong with it: `has no href`, `has an empty href`, `has no {rel} in its href`. */
  readonly problem: string;
}

/**
 * A resource has no link with the relation that was asked for. Names the relations it
 * does have, because the usual cause is a server using another curie or rel name, and
 * the curies in force whose href names no relation, the other cause.
 *
 * @example
 * ```ts
 * import { isLinkNotFoundError } from 'adis-sdk';
 *
 * try {
 *   await client.tags.toArray();
 * } catch (error) {
 *   if (isLinkNotFoundError(error)) console.error(`no ${error.rel}; it has ${error.available.join(', ')}`);
 * }
 * ```
 */
export class LinkNotFoundError extends AdisError {
  /** Always `'LINK_NOT_FOUND'`. */
  readonly code = 'LINK_NOT_FOUND' as const;
  /** Always `'LinkNotFoundError'`. */
  override readonly name = 'LinkNotFoundError' as const;
  /** The relation that was asked for, for example `std:people`. */
  declare readonly rel: string;
  /** The URL of the document that lacks the link. */
  declare readonly url: string;
  /** The relations the document does have. */
  declare readonly available: readonly string[];
  /**
   * The curies in force in the document whose href names no relation, each with what
   * is wrong with it; empty when every curie is sound.
   */
  declare readonly curieProblems: readonly CurieProblem[];

  /**
   * Builds the error; the message lists the relations the document has, and what is
   * wrong with its curies when something is.
   *
   * @param rel - The relation that was asked for.
   * @param url - The URL of the document that lacks it.
   * @param available - The relations the document has, listed in the message.
   * @param curieProblems - The document's curies whose href names no relation.
   */
  constructor(
    rel: string,
    url: string,
    available: readonly string[],
    curieProblems: readonly CurieProblem[] = [],
  ) {
    const present = available.length > 0 ? available.join(', ') : 'none';
    // Each curie that names no relation, and how to take its prefix as std: anyway: the
    // likely reason the link is missing, and the one the relations listed cannot show.
    let curies = '';
    for (const { name, index, problem } of curieProblems) {
      curies += `; the curie "${name}" (curies[${index}]) ${problem}, so ${name}: is read by name (curiePrefix: '${name}' reads it as std:)`;
    }
    super(`No link "${rel}" in ${url} (relations present: ${present})${curies}`);
    this.rel = rel;
    this.url = url;
    this.available = available;
    this.curieProblems = curieProblems;
  }
}
