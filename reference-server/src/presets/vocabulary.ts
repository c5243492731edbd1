/**
 * How a preset's server validates what clients write: the specification's vocabulary
 * (`strict`, the plain server), or that plus what a real server documents beside it
 * (`extended`: Action Network's `tag_list`, phone `status`, email statuses such as
 * `previous bounce`, date-times such as `2026-09-01 18:00:00`, stored as ISO 8601).
 * Both are the SDK's schemas, built from the same field definitions (`Mode`).
 */
import type { ResourceKind } from '../domain/kinds.js';
import { parseOrThrow } from '../domain/validation.js';
import type { JsonObject } from '../storage/storage.js';
import type { ServingPreset } from './serving-preset.js';

/**
 * The kind under the preset's vocabulary: under `extended`, its `parse` validates with
 * the declaration's extended schema (the same rules and errors as the strict one, more
 * members and values taken); under `strict`, or for a kind not built from a declaration,
 * the same object.
 *
 * @example
 * ```ts
 * import { personKind } from 'adis-sdk/schema';
 * import { ACTION_NETWORK_PRESET, serveKind } from 'adis-server';
 * import { withVocabulary } from './vocabulary.js';
 *
 * const people = withVocabulary(serveKind(personKind), ACTION_NETWORK_PRESET);
 * people.parse({ phone_numbers: [{ number: '12025550123', status: 'subscribed' }] }); // taken
 * ```
 */
export function withVocabulary(kind: ResourceKind, preset: ServingPreset): ResourceKind {
  const declaration = kind.declaration;
  if (preset.vocabulary === 'strict' || !declaration) return kind;
  return {
    ...kind,
    parse: (body) =>
      parseOrThrow(declaration.extendedSchema, body, `std:${kind.singular}`) as JsonObject,
  };
}
