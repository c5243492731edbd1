import * as z from 'zod/mini';
import { commonFields, integer, optional } from '../../schema/fields.js';
import { defineKind } from '../../schema/kind.js';
import { linkedAs } from '../../schema/linked-as.js';
import type { VendorMembers } from '../../schema/vendor.js';

/**
 * Action Network's unique ID list (`docs/v2/unique_id_lists`; "ID targets" in its user
 * interface): a named list of the unique IDs of people already in the group, used to
 * target emails, texts or reports at them. It adds no one to the group and changes no
 * one's data. Linked from the entry point as `action_network:unique_id_lists` (the
 * client also looks under `osdi:unique_id_lists`). Created with a `name` and the
 * `unique_ids`; the server answers with the list and its `count`.
 *
 * Members:
 * - `name`: what the list is called;
 * - `unique_ids`: the people's unique IDs (sent to create or replace the list);
 * - `count` (read-only): how many IDs the list holds.
 *
 * @example
 * ```ts
 * import { actionNetwork, connect } from 'adis-sdk';
 *
 * const client = await connect('https://actionnetwork.org/api/v2/', {
 *   ...actionNetwork,
 *   apiKey: process.env.ACTION_NETWORK_KEY,
 * });
 * const list = await client.uniqueIdLists.create({
 *   name: 'Ward 3 volunteers',
 *   unique_ids: ['0f3b…', '9a21…'],
 * });
 * console.log(list.data.count);
 * ```
 */
export const uniqueIdListKind = linkedAs(
  defineKind({
    singular: 'unique_id_list',
    plural: 'unique_id_lists',
    description: 'A named list of the unique IDs of people in the group (Action Network)',
    shape: (mode) => ({
      ...commonFields(mode),
      origin_system: optional(z.string()),
      name: optional(z.string()),
      unique_ids: optional(z.array(z.string())),
    }),
    computed: { count: optional(integer('read')) },
  }),
  'action_network:unique_id_lists',
);

/** A unique ID list as read from Action Network: the output of `uniqueIdListKind.schema`. */
export interface UniqueIdList extends z.output<typeof uniqueIdListKind.schema> {}
/** What a client sends to create or replace a unique ID list. */
export interface UniqueIdListInput
  extends z.input<typeof uniqueIdListKind.writeSchema>,
    VendorMembers {}
