/**
 * Kinds a preset serves read only: Action Network's lists and items (its reports and
 * email targets, made in its user interface) take no POST, PUT or DELETE, which answer
 * 405 as they do for any kind that is not writable. The server's own seeding writes them
 * through the domain layer, which does not ask.
 */
import type { ResourceKind } from '../domain/kinds.js';
import type { ServingPreset } from './serving-preset.js';

/**
 * The kind, not writable when the preset names it in `readOnlyKinds`; else the same object.
 *
 * @example
 * ```ts
 * import { listKind } from 'adis-sdk/schema';
 * import { ACTION_NETWORK_PRESET, SPECIFICATION_PRESET, serveKind } from 'adis-server';
 * import { withReadOnly } from './read-only-kinds.js';
 *
 * const lists = serveKind(listKind);
 * withReadOnly(lists, ACTION_NETWORK_PRESET).writable; // false
 * withReadOnly(lists, SPECIFICATION_PRESET).writable; // true
 * ```
 */
export function withReadOnly(kind: ResourceKind, preset: ServingPreset): ResourceKind {
  return kind.writable && preset.readOnlyKinds.includes(kind.plural)
    ? { ...kind, writable: false }
    : kind;
}
