/**
 * What a sync needs to know of a server beyond the specification, as data: how the
 * target takes children with a record helper, how the source pages. Named by the same
 * names as the connect presets (`SERVER_PRESETS`), detected from an entry point otherwise.
 */
import type { BaseClient } from '../navigator/client.js';
import type { SyncTargetProfile } from './types.js';

/** A server of the specification: children are created under their parent, linking the person. */
export const SPECIFICATION_TARGET: SyncTargetProfile = {
  name: 'a server of the specification',
  childWrites: 'create',
  idempotencyKeys: true,
};

/**
 * Action Network: a POST to a petition's signatures (an event's attendances, …) is the
 * record helper, with the person inline (docs/v2/signatures, "Scenario: Creating a new
 * signature"), matched by email address or phone number.
 */
export const ACTION_NETWORK_TARGET: SyncTargetProfile = {
  name: 'Action Network',
  childWrites: 'helper',
  idempotencyKeys: false,
  // docs/v2/people: a POST sets an email address or phone number subscribed or
  // unsubscribed, no other status.
  personStatuses: ['subscribed', 'unsubscribed'],
};

/** The profiles by preset name (`--to-preset action-network`). */
export const SYNC_PROFILES: Readonly<Record<string, SyncTargetProfile>> = {
  'action-network': ACTION_NETWORK_TARGET,
};

/**
 * Whether a connected server says it is Action Network: its namespace, vendor name or
 * curie, as `adis-check` recognises it.
 *
 * @example
 * ```ts
 * import { saysActionNetwork } from 'adis-sdk/sync';
 *
 * if (saysActionNetwork(client)) console.log('pages by number');
 * ```
 */
export function saysActionNetwork(client: BaseClient): boolean {
  const body = client.root.properties;
  return (
    body.namespace === 'action_network' ||
    /action network/i.test(String(body.vendor_name ?? '')) ||
    client.curies.names().includes('action_network')
  );
}

/**
 * The profile of a target: Action Network's when it says it is, the specification's
 * otherwise.
 *
 * @example
 * ```ts
 * import { detectTarget } from 'adis-sdk/sync';
 *
 * detectTarget(client).childWrites; // 'helper' against Action Network
 * ```
 */
export function detectTarget(client: BaseClient): SyncTargetProfile {
  return saysActionNetwork(client) ? ACTION_NETWORK_TARGET : SPECIFICATION_TARGET;
}
