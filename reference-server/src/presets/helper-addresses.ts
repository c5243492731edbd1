/**
 * Where a preset's record helpers live. Action Network serves each record helper at the
 * sub-collection of the records it creates (`petitions/{id}/signatures` takes the record
 * signature helper's body), and links it there; the specification gives each its own
 * path below the record (`petitions/{id}/record_signature_helper`).
 */
import { RECORD_HELPERS } from '../domain/helpers/record-helpers.js';
import type { RecordHelper, ResourceKind, SubCollection } from '../domain/kinds.js';
import type { ServingPreset } from './serving-preset.js';

/**
 * The sub-collection of `kind` that lists the records `helper` creates, linked to the
 * record in the URL as the helper links them (a petition's `signatures`, whose `via` is
 * `petition`); undefined for a helper that creates no such record (a person's canvass
 * helper: a person has no canvasses sub-collection; a message's send helper).
 */
export function helperSubCollection(
  kind: ResourceKind,
  helper: RecordHelper,
): SubCollection | undefined {
  const definition = RECORD_HELPERS[helper.rel];
  if (!definition) return undefined;
  return kind.subCollections.find(
    (sub) => sub.kind === definition.main && sub.via === definition.via,
  );
}

/**
 * The kind with its record helpers at their sub-collections when the preset says so
 * (`recordHelpersAtSubCollections`): each such helper's path becomes the sub-collection's
 * plural, so its link, its route and the anonymous call detection (`http/anonymous.ts`)
 * all use that address. The same object otherwise, and for kinds without such helpers.
 *
 * @example
 * ```ts
 * import { petitionKind } from 'adis-sdk/schema';
 * import { ACTION_NETWORK_PRESET, serveKind } from 'adis-server';
 * import { withHelperAddresses } from './helper-addresses.js';
 *
 * const petitions = withHelperAddresses(serveKind(petitionKind), ACTION_NETWORK_PRESET);
 * petitions.helpers?.[0]?.path; // 'signatures'
 * ```
 */
export function withHelperAddresses(kind: ResourceKind, preset: ServingPreset): ResourceKind {
  if (!preset.recordHelpersAtSubCollections || !kind.helpers?.length) return kind;
  let moved = false;
  const helpers = kind.helpers.map((helper) => {
    const sub = helperSubCollection(kind, helper);
    if (!sub) return helper;
    moved = true;
    return { ...helper, path: sub.plural };
  });
  return moved ? { ...kind, helpers } : kind;
}
