// Action Network's own kinds: the collections and documents it has beside the
// specification's. The preset (../action-network.ts) gives them to `connect`; a bundle
// that does not import the preset leaves them out.
import { campaignKind } from './campaign.js';
import { customFieldKind } from './custom-field.js';
import { embedKind } from './embed.js';
import { eventCampaignKind } from './event-campaign.js';
import { uniqueIdListKind } from './unique-id-list.js';

export * from './campaign.js';
export * from './custom-field.js';
export * from './embed.js';
export * from './event-campaign.js';
export * from './unique-id-list.js';

/**
 * Every kind Action Network has beside the specification's: those with a collection
 * (`client.eventCampaigns`, `client.campaigns`, `client.uniqueIdLists`) and those
 * reached otherwise (embeds through `action_network:embed`, custom fields through the
 * metadata root).
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_KINDS } from 'adis-sdk';
 *
 * ACTION_NETWORK_KINDS.map((kind) => kind.plural);
 * // ['event_campaigns', 'campaigns', 'unique_id_lists', 'custom_fields', 'embeds']
 * ```
 */
export const ACTION_NETWORK_KINDS = [
  eventCampaignKind,
  campaignKind,
  uniqueIdListKind,
  customFieldKind,
  embedKind,
] as const;
