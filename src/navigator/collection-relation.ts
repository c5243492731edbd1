import type { AnyKind } from '../schema/kind.js';
import { collectionRelation } from '../wire/collection-relation.js';

// Where a kind's collection is linked. The specification's kinds are linked from the
// entry point as `std:<plural>`, and their records are listed in a page under the same
// relation. A server's own kinds may be linked under its own curie instead (Action
// Network's `action_network:event_campaigns`), or have no collection at all (an embed,
// reached from the record it belongs to): such a kind says so with a `rel` member.

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
 * The relations to look for a kind's collection (or its records in a page) under, in
 * order: its own `rel`, then `std:<plural>`, so that a server which spells it the
 * specification's way is found too.
 *
 * @example
 * ```ts
 * collectionRelations(personKind); // ['std:people']
 * collectionRelations(eventCampaignKind); // ['action_network:event_campaigns', 'std:event_campaigns']
 * ```
 */
export function collectionRelations(kind: AnyKind & CollectionLink): string[] {
  const standard = collectionRelation(kind.plural);
  return typeof kind.rel === 'string' && kind.rel !== standard ? [kind.rel, standard] : [standard];
}

/**
 * Whether an entry point may link a collection of the kind: false only for a kind
 * whose `rel` is null (a client gets no `client.<plural>` for it).
 *
 * @example
 * ```ts
 * hasCollection(personKind); // true
 * hasCollection(embedKind); // false: an embed is reached from its action
 * ```
 */
export function hasCollection(kind: AnyKind & CollectionLink): boolean {
  return kind.rel !== null;
}
