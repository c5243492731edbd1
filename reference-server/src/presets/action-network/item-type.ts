/**
 * The `item_type` of taggings and items under Action Network's preset: the relation of
 * the record tagged or listed, with its curie (`osdi:person`; docs/v2/items: "always"
 * that for an item). The specification shows neither member; the plain server writes
 * the relation's name without a prefix (`person`), as the SDK declares it.
 */
import type { ResourceKind } from '../../domain/kinds.js';
import type { JsonObject } from '../../storage/storage.js';

/**
 * A kind change: the kind's derived `item_type` written under `prefix` (`person` →
 * `osdi:person`); a value that has a prefix already is left as it is.
 *
 * @example
 * ```ts
 * import { defaultRegistry } from 'adis-server';
 * import { itemTypeAsRelation } from './item-type.js';
 *
 * const items = itemTypeAsRelation('osdi')(defaultRegistry().bySingular('item')!);
 * items.derive?.({}, { person: { kind: 'person', id: '1' } }).item_type; // 'osdi:person'
 * ```
 */
export function itemTypeAsRelation(prefix: string): (kind: ResourceKind) => ResourceKind {
  return (kind) => {
    const { derive } = kind;
    if (!derive) return kind;
    return {
      ...kind,
      derive: (doc, refs) => {
        const derived: JsonObject = derive(doc, refs);
        const type = derived.item_type;
        return typeof type === 'string' && !type.includes(':')
          ? { ...derived, item_type: `${prefix}:${type}` }
          : derived;
      },
    };
  };
}
