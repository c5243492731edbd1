/**
 * Action Network's own collections as the reference server serves them under the
 * preset, each built from the SDK's declaration of the kind (`adis-sdk/server-kit`), and
 * the preset's changes to the specification's kinds they need.
 */
import type { ResourceKind } from '../../domain/kinds.js';
import { campaignServerKind } from './campaign.js';
import { donationAmountFromRecipients } from './donation-amount.js';
import {
  attendanceInCampaigns,
  eventCampaignServerKind,
  eventInCampaigns,
} from './event-campaign.js';
import { itemTypeAsRelation } from './item-type.js';
import { uniqueIdListServerKind } from './unique-id-list.js';

/**
 * The collections Action Network has beside the specification's: event campaigns,
 * campaigns and unique ID lists. (Its custom fields are a metadata document and its
 * embeds documents below actions: neither is a collection.)
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_SERVER_KINDS } from './kinds.js';
 *
 * ACTION_NETWORK_SERVER_KINDS.map((kind) => kind.plural); // ['event_campaigns', 'campaigns', 'unique_id_lists']
 * ```
 */
export const ACTION_NETWORK_SERVER_KINDS: readonly ResourceKind[] = [
  eventCampaignServerKind,
  campaignServerKind,
  uniqueIdListServerKind,
];

/**
 * The preset's changes to the specification's kinds: an event may belong to an event
 * campaign, and its attendances count towards the campaign's RSVPs; a donation's amount
 * is its recipients' total; taggings and items name the type of what they hold as a
 * relation (`osdi:person`).
 *
 * @example
 * ```ts
 * import { eventKind } from 'adis-sdk/schema';
 * import { serveKind } from 'adis-server';
 * import { ACTION_NETWORK_KIND_CHANGES } from './kinds.js';
 *
 * ACTION_NETWORK_KIND_CHANGES.event?.(serveKind(eventKind)).references.at(-1)?.rel; // 'event_campaign'
 * ```
 */
export const ACTION_NETWORK_KIND_CHANGES: Readonly<
  Record<string, (kind: ResourceKind) => ResourceKind>
> = {
  event: eventInCampaigns,
  attendance: attendanceInCampaigns,
  // A donation's amount is its recipients' total (donation-amount.ts).
  donation: donationAmountFromRecipients,
  // What a tagging tags and an item lists, as Action Network writes it: `osdi:person`.
  tagging: itemTypeAsRelation('osdi'),
  item: itemTypeAsRelation('osdi'),
};
