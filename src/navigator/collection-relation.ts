import type { AnyKind } from '../schema/kind.js';
import type { CollectionLink } from '../schema/linked-as.js';
import { collectionRelation } from '../wire/collection-relation.js';

// Where a kind's collection is linked: `std:<plural>` for the specification's kinds, or
// the kind's own `rel` (Action Network's `action_network:event_campaigns`), or none at
// all (an embed, reached from the record it belongs to). See schema/linked-as.ts.

/**
 * The relations to look for a kind's collection (or its records in a page) under, in
 * order: its own `rel`, then `std:<plural>`, so that a server which spells it the
 * specification's way is found too.
 *
 * @example
 * ```ts
 * import { eventCampaignKind, personKind } from 'adis-sdk';
 * import { collectionRelations } from './collection-relation.js';
 *
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
 * import { embedKind, personKind } from 'adis-sdk';
 * import { hasCollection } from './collection-relation.js';
 *
 * hasCollection(personKind); // true
 * hasCollection(embedKind); // false: an embed is reached from its action
 * ```
 */
export function hasCollection(kind: AnyKind & CollectionLink): boolean {
  return kind.rel !== null;
}
