import * as z from 'zod/mini';
import { optional } from '../../schema/fields.js';
import { defineKind, type OneRelation, one } from '../../schema/kind.js';
import { linkedAs } from '../../schema/linked-as.js';
import type { VendorMembers } from '../../schema/vendor.js';

/**
 * Action Network's link from an action (an event, an event campaign, a petition, a
 * form…) to its embed codes: `action_network:embed`, a relation under Action Network's
 * own curie. Give it to any record's `related()`.
 *
 * @example
 * ```ts
 * import { EMBED_RELATION } from 'adis-sdk';
 *
 * const event = await client.events.get('https://actionnetwork.org/api/v2/events/1');
 * const embed = await event.related(EMBED_RELATION); // undefined when not linked
 * ```
 */
export const EMBED_RELATION: OneRelation<'embed', false> = one('embed', {
  rel: 'action_network:embed',
});

/** The six variants of an embed code: two layouts, each with three levels of styling. */
const EMBED_CODES = {
  /** The standard layout with Action Network's default styles. */
  embed_standard_default_styles: optional(z.string()),
  /** The standard layout with layout styles only, for a page that styles the rest. */
  embed_standard_layout_only_styles: optional(z.string()),
  /** The standard layout without any styles. */
  embed_standard_no_styles: optional(z.string()),
  /** The full layout (the action's text beside its form) with the default styles. */
  embed_full_default_styles: optional(z.string()),
  /** The full layout with layout styles only. */
  embed_full_layout_only_styles: optional(z.string()),
  /** The full layout without any styles. */
  embed_full_no_styles: optional(z.string()),
};

/**
 * Action Network's embed (`docs/v2/embed`): the HTML snippets (a script and the element
 * it fills) that put an action's form on another website. An action (an event, an
 * event campaign, a petition, a form…) links its embed as `action_network:embed`; the
 * event campaign's `embed()` follows it, and any record's can be read with
 * `record.related(EMBED_RELATION)`. No collection of its own (`rel` null). Read only:
 * every member is computed by the server.
 *
 * @example
 * ```ts
 * import { actionNetwork, connect } from 'adis-sdk';
 *
 * const client = await connect('https://actionnetwork.org/api/v2/', {
 *   ...actionNetwork,
 *   apiKey: process.env.ACTION_NETWORK_KEY,
 * });
 * const campaign = await client.eventCampaigns.get('https://actionnetwork.org/api/v2/event_campaigns/1');
 * const embed = await campaign.embed();
 * document.body.insertAdjacentHTML('beforeend', String(embed?.data.embed_standard_default_styles));
 * ```
 */
export const embedKind = linkedAs(
  defineKind({
    singular: 'embed',
    plural: 'embeds',
    description: "The HTML that embeds an action's form in another website (Action Network)",
    shape: () => ({}),
    computed: EMBED_CODES,
  }),
  null,
);

/** An embed as read from Action Network: the output of `embedKind.schema`. */
export interface Embed extends z.output<typeof embedKind.schema> {}
/**
 * What an embed's `update` takes: the input of `embedKind.writeSchema` (embeds are read
 * only; the type is here for the resource's methods).
 */
export interface EmbedInput extends z.input<typeof embedKind.writeSchema>, VendorMembers {}
