import type { AnyKind } from './kind.js';

// Where a kind's collection is linked is data of the kind, as its names are: the
// navigator finds collections by it (navigator/collection-relation.ts), and the server
// builds its entry point from it. So it lives with the declarations, not in the
// presets that use it, and a preset's kinds (presets/action-network/) need nothing above
// this layer.

/**
 * What a kind may carry besides its declaration: `rel`, the relation its collection is
 * linked under (on the entry point, and for its records in a page), or `null` when no
 * entry point links a collection of it. Without it, the relation is `std:<plural>`.
 */
export interface CollectionLink {
  /** The collection's relation (`action_network:event_campaigns`), or null for none. */
  readonly rel?: string | null;
}

/**
 * A kind as a preset gives it: a declared kind (`defineKind`) and `rel`, the relation
 * its collection is linked under. See {@link linkedAs}.
 */
export type LinkedKind<K extends AnyKind = AnyKind, R extends string | null = string | null> = K &
  CollectionLink & { readonly rel: R };

/**
 * The kind with the relation its collection is linked under, for a server that links
 * it under its own curie rather than as `std:<plural>`: the client looks for
 * `rel` first (on the entry point, and for the records of a page), then
 * `std:<plural>`. `null` says that no entry point links a collection of the kind (it is
 * reached through a relation, or through the metadata root): a client then gets no
 * `client.<plural>` for it. A kind declared with `defineKind` alone is linked as
 * `std:<plural>`, like the specification's.
 *
 * The kind given is not changed: the result is a copy (its strict schema still built
 * on first use).
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { defineKind, linkedAs, optional } from 'adis-sdk';
 *
 * export const surveyKind = linkedAs(
 *   defineKind({
 *     singular: 'survey',
 *     plural: 'surveys',
 *     description: 'A survey people answer',
 *     shape: () => ({ title: optional(z.string()) }),
 *   }),
 *   'acme:surveys',
 * );
 * ```
 */
export function linkedAs<K extends AnyKind, const R extends string | null>(
  kind: K,
  rel: R,
): LinkedKind<K, R> {
  // Descriptors, not a spread: a spread would call the kind's lazy getters now.
  return Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(kind), rel: { value: rel, enumerable: true } },
  ) as LinkedKind<K, R>;
}
