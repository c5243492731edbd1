import type { ResourceKind } from '../domain/kinds.js';
import type { ServingPreset } from './serving-preset.js';

/**
 * The kind with the preset's own change to it applied (`kindChanges`, by singular name:
 * Action Network's event refers to its event campaign); the same object when the preset
 * changes nothing about it.
 *
 * @example
 * ```ts
 * import { eventKind } from 'adis-sdk/schema';
 * import { ACTION_NETWORK_PRESET, serveKind } from 'adis-server';
 * import { withKindChanges } from './kind-changes.js';
 *
 * withKindChanges(serveKind(eventKind), ACTION_NETWORK_PRESET).references.map((r) => r.rel); // [..., 'event_campaign']
 * ```
 */
export function withKindChanges(kind: ResourceKind, preset: ServingPreset): ResourceKind {
  const change = preset.kindChanges[kind.singular];
  return change ? change(kind) : kind;
}
