/**
 * Members naming, by id, the records a record links to: Action Network's actions carry
 * `action_network:person_id`, `action_network:petition_id` and the like (the last
 * segment of the linked record's URL), system generated and read-only. Under a preset
 * with `nativeIdMembers`, a kind that has such relations derives them when a record is
 * written, so they are stored with the document (and the stored JSON spliced into
 * answers keeps them).
 */
import type { References, ResourceKind } from '../domain/kinds.js';
import type { JsonObject } from '../storage/storage.js';
import type { ServingPreset } from './serving-preset.js';

/**
 * The kind with the preset's native id members: each relation of `nativeIdMembers` the
 * kind has becomes the read-only member `<prefix>:<relation>_id` (what a client sends
 * in it is ignored), set from the record's reference when it is written and absent
 * without one. The same object when the preset has none or the kind no such relation.
 *
 * @example
 * ```ts
 * import { signatureKind } from 'adis-sdk/schema';
 * import { ACTION_NETWORK_PRESET, serveKind } from 'adis-server';
 * import { withNativeIds } from './native-ids.js';
 *
 * const signatures = withNativeIds(serveKind(signatureKind), ACTION_NETWORK_PRESET);
 * signatures.derive?.({}, { person: { kind: 'person', id: 'p1' } }); // { 'action_network:person_id': 'p1' }
 * ```
 */
export function withNativeIds(kind: ResourceKind, preset: ServingPreset): ResourceKind {
  const native = preset.nativeIdMembers;
  if (!native) return kind;
  const own = new Set(kind.references.map((reference) => reference.rel));
  const members = native.relations
    .filter((rel) => own.has(rel))
    .map((rel) => ({ rel, member: `${native.prefix}:${rel}_id` }));
  if (members.length === 0) return kind;
  const derived = kind.derive?.bind(kind);
  return {
    ...kind,
    readOnly: [...kind.readOnly, ...members.map(({ member }) => member)],
    derive(doc: JsonObject, refs: References): JsonObject {
      const out = { ...(derived ? derived(doc, refs) : doc) };
      for (const { rel, member } of members) {
        const target = refs[rel];
        if (target) out[member] = target.id;
        else delete out[member];
      }
      return out;
    },
  };
}
