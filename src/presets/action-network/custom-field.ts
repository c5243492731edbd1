import * as z from 'zod/mini';
import { integer, optional } from '../../schema/fields.js';
import { defineKind } from '../../schema/kind.js';
import { linkedAs } from '../../schema/linked-as.js';
import type { VendorMembers } from '../../schema/vendor.js';

/**
 * One of Action Network's custom fields (`docs/v2/custom_fields`): the name of a
 * per-person field a group collects (`custom_fields.employer` on a person). Action
 * Network lists them all in one document, `metadata/custom_fields`, linked from the
 * metadata root as `action_network:custom_fields`: read them with
 * `(await client.metadata()).customFields()`. Read only, and no collection of its own
 * (`rel` null: the client gets no `client.customFields`).
 *
 * Members:
 * - `name`: the field's name, the key in a person's `custom_fields`;
 * - `notes`: the group's internal notes about the field;
 * - `numeric_id` (read-only): the field's ID in Action Network's SQL mirror.
 *
 * @example
 * ```ts
 * import { actionNetwork, connect } from 'adis-sdk';
 *
 * const client = await connect('https://actionnetwork.org/api/v2/', {
 *   ...actionNetwork,
 *   apiKey: process.env.ACTION_NETWORK_KEY,
 * });
 * const fields = await (await client.metadata()).customFields();
 * console.log(fields.map((field) => field.name)); // ['employer', 'volunteer', …]
 * ```
 */
export const customFieldKind = linkedAs(
  defineKind({
    singular: 'custom_field',
    plural: 'custom_fields',
    description: 'The name of a per-person field a group collects (Action Network)',
    shape: () => ({
      name: optional(z.string()),
      notes: optional(z.string()),
    }),
    computed: { numeric_id: optional(integer('read')) },
  }),
  null,
);

/** A custom field as read from Action Network: the output of `customFieldKind.schema`. */
export interface CustomField extends z.output<typeof customFieldKind.schema> {}
/**
 * What a custom field's `update` takes: the input of `customFieldKind.writeSchema`
 * (custom fields are read only; the type is here for the resource's methods).
 */
export interface CustomFieldInput
  extends z.input<typeof customFieldKind.writeSchema>,
    VendorMembers {}
