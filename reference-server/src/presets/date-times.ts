/**
 * How a preset's server writes date-times (`ServingPreset.dateTimes`), given to each
 * kind it serves: the renderer writes a record's date-times in the kind's style, and the
 * check of a donation's `created_date` sent back compares at the precision written.
 * Carried by the kind, not read from the preset by each of them, so that what is
 * written and what is compared cannot disagree.
 */
import { respells } from '../domain/date-times.js';
import type { ResourceKind } from '../domain/kinds.js';
import type { ServingPreset } from './serving-preset.js';

/**
 * The kind writing its date-times as the preset does; the same object when the preset
 * writes them as stored (the plain server), so its records keep the renderer's fast path.
 *
 * @example
 * ```ts
 * import { personKind } from 'adis-sdk/schema';
 * import { ACTION_NETWORK_PRESET, SPECIFICATION_PRESET, serveKind } from 'adis-server';
 * import { withDateTimes } from './date-times.js';
 *
 * const people = serveKind(personKind);
 * withDateTimes(people, ACTION_NETWORK_PRESET).dateTimes; // 'utc-seconds'
 * withDateTimes(people, SPECIFICATION_PRESET) === people; // true
 * ```
 */
export function withDateTimes(kind: ResourceKind, preset: ServingPreset): ResourceKind {
  return respells(preset.dateTimes) ? { ...kind, dateTimes: preset.dateTimes } : kind;
}
