import * as z from 'zod/mini';
import { contentFields } from '../../schema/content-fields.js';
import { commonFields, object, optional } from '../../schema/fields.js';
import { defineKind } from '../../schema/kind.js';
import { linkedAs } from '../../schema/linked-as.js';
import type { VendorMembers } from '../../schema/vendor.js';

/**
 * Action Network's campaign (`docs/v2/campaigns`): a page that gathers several actions
 * (a petition, an event, a form…) under one title. Linked from the entry point as
 * `action_network:campaigns`. Read only: Action Network refuses to create, change or
 * delete campaigns through the API, and only a group's key sees them.
 *
 * Members, beside the content fields (`name` the administrative title, `title` the
 * public one, `description` may hold HTML, `browser_url` the public page):
 * - `actions` (read-only): the campaign's actions, each with its `title` and the
 *   `browser_url` of its page.
 * `action_network:hidden` and `action_network:sponsor` are vendor members.
 *
 * @example
 * ```ts
 * import { actionNetwork, connect } from 'adis-sdk';
 *
 * const client = await connect('https://actionnetwork.org/api/v2/', {
 *   ...actionNetwork,
 *   apiKey: process.env.ACTION_NETWORK_KEY,
 * });
 * for await (const campaign of client.campaigns) {
 *   console.log(campaign.data.title, campaign.data.actions?.map((action) => action.title));
 * }
 * ```
 */
export const campaignKind = linkedAs(
  defineKind({
    singular: 'campaign',
    plural: 'campaigns',
    description: 'A page gathering several actions (Action Network)',
    shape: (mode) => ({ ...commonFields(mode), ...contentFields(mode) }),
    computed: {
      actions: optional(
        z.array(object({ title: optional(z.string()), browser_url: optional(z.string()) }, 'read')),
      ),
    },
  }),
  'action_network:campaigns',
);

/** A campaign as read from Action Network: the output of `campaignKind.schema`. */
export interface Campaign extends z.output<typeof campaignKind.schema> {}
/**
 * What a campaign's `update` takes: the input of `campaignKind.writeSchema` (Action
 * Network refuses writes of campaigns; the type is here for the resource's methods).
 */
export interface CampaignInput extends z.input<typeof campaignKind.writeSchema>, VendorMembers {}
