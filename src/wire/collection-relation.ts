/**
 * The relation of a kind's collection under the specification's curie: the name an
 * entry point links it by and a page embeds its records under, unless a preset or a
 * kind says otherwise.
 *
 * @example
 * ```ts
 * import { collectionRelation } from 'adis-sdk/server-kit';
 *
 * collectionRelation('people'); // 'std:people'
 * ```
 */
export function collectionRelation(plural: string): string {
  return `std:${plural}`;
}
