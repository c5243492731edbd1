import * as z from 'zod/mini';
import { contentFields } from '../../schema/content-fields.js';
import { commonFields, integer, optional } from '../../schema/fields.js';
import { defineKind, many } from '../../schema/kind.js';
import { linkedAs } from '../../schema/linked-as.js';
import type { VendorMembers } from '../../schema/vendor.js';
import { EMBED_RELATION } from './embed.js';

/**
 * Action Network's event campaign (`docs/v2/event_campaigns`): a heading that groups
 * events, such as a week of house parties, with a pitch and instructions for the people
 * who host them. Linked from the entry point as `action_network:event_campaigns`; its
 * events are a collection of ordinary events (`osdi:events`), to which new events of
 * the campaign are POSTed. Writable: create with at least a `title`.
 *
 * Members, beside the content fields every action has (`name` is the administrative
 * title, `title` the public one, `description` may hold HTML):
 * - `host_pitch`: the short text that asks people to host an event of the campaign;
 * - `host_instructions`: what a host is told to do (may hold HTML);
 * - `host_url` (read-only): the public page where people sign up to host;
 * - `total_events`, `total_rsvps` (read-only): counts the server keeps.
 * `action_network:hidden` and `action_network:sponsor` are vendor members: they pass
 * as they are.
 *
 * @example
 * ```ts
 * import { actionNetwork, connect } from 'adis-sdk';
 *
 * const client = await connect('https://actionnetwork.org/api/v2/', {
 *   ...actionNetwork,
 *   apiKey: process.env.ACTION_NETWORK_KEY,
 * });
 * for await (const campaign of client.eventCampaigns) {
 *   console.log(campaign.data.title, campaign.data.total_events);
 *   for await (const event of campaign.events()) console.log('  ', event.data.title);
 * }
 * ```
 */
export const eventCampaignKind = linkedAs(
  defineKind({
    singular: 'event_campaign',
    plural: 'event_campaigns',
    description: 'A group of events under one heading (Action Network)',
    shape: (mode) => ({
      ...commonFields(mode),
      ...contentFields(mode),
      host_pitch: optional(z.string()),
      host_instructions: optional(z.string()),
    }),
    computed: {
      host_url: optional(z.string()),
      total_events: optional(integer('read')),
      total_rsvps: optional(integer('read')),
    },
    relations: {
      /** The campaign's events (`osdi:events`): page them, or create one in the campaign. */
      events: many('event'),
      /** The campaign's embed codes (`action_network:embed`), if the server links them. */
      embed: EMBED_RELATION,
    },
  }),
  'action_network:event_campaigns',
);

/** An event campaign as read from Action Network: the output of `eventCampaignKind.schema`. */
export interface EventCampaign extends z.output<typeof eventCampaignKind.schema> {}
/** What a client sends to create or update an event campaign. */
export interface EventCampaignInput
  extends z.input<typeof eventCampaignKind.writeSchema>,
    VendorMembers {}
