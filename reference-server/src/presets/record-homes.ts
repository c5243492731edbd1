/**
 * Where a preset's records that live under a parent have their own address: Action
 * Network documents a signature at `petitions/{p}/signatures/{id}`, a tagging at
 * `tags/{t}/taggings/{id}`, and no flat address for them. The preset names each kind's
 * parent (`recordsUnderParents`); the parent's sub-collection of the kind says the rest.
 */
import type { KindRegistry } from '../domain/kinds.js';
import type { ServingPreset } from './serving-preset.js';

/**
 * Where the records of a kind live under a preset that puts them under a parent
 * (`recordsUnderParents`): a signature at `petitions/{p}/signatures/{id}`.
 */
export interface RecordHome {
  /** The parent's collection (`petitions`). */
  parent: string;
  /** The parent's sub-collection listing the records (`signatures`). */
  sub: string;
  /** The record's reference to the parent (`petition`). */
  via: string;
}

/**
 * The homes of the preset's records that live under a parent, by the kind's plural,
 * for the URL builder (`Urls.recordAt`). Kinds the registry does not serve are left
 * out; a parent without a sub-collection of the kind is a mistake of the preset (thrown).
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_PRESET, defaultRegistry, SPECIFICATION_PRESET } from 'adis-server';
 * import { recordHomes } from './record-homes.js';
 *
 * recordHomes(ACTION_NETWORK_PRESET, defaultRegistry(ACTION_NETWORK_PRESET)).signatures;
 * // { parent: 'petitions', sub: 'signatures', via: 'petition' }
 * recordHomes(SPECIFICATION_PRESET, defaultRegistry()); // {}
 * ```
 */
export function recordHomes(
  preset: ServingPreset,
  registry: KindRegistry,
): Record<string, RecordHome> {
  const homes: Record<string, RecordHome> = {};
  for (const [singular, parentSingular] of Object.entries(preset.recordsUnderParents)) {
    const kind = registry.bySingular(singular);
    const parent = registry.bySingular(parentSingular);
    if (!kind || !parent) continue;
    const subs = parent.subCollections.filter((sub) => sub.kind === singular);
    const sub = subs.find((s) => s.via === parentSingular) ?? subs[0];
    if (!sub) {
      throw new Error(
        `preset ${preset.name}: ${parent.plural} has no sub-collection of ${kind.plural} to be their home`,
      );
    }
    homes[kind.plural] = { parent: parent.plural, sub: sub.plural, via: sub.via };
  }
  return homes;
}
