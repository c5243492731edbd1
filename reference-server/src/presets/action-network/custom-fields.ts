/**
 * Action Network's custom fields on the reference server (`docs/v2/custom_fields`): the
 * read-only document `metadata/custom_fields`, linked from the metadata root as
 * `action_network:custom_fields` beside the canvass lists, listing the names of the
 * custom fields the tenant's people carry (the keys of their `custom_fields`). The
 * server has no field definitions of its own: a field exists once a person has it.
 */
import { isPlainObject } from '../../domain/merge.js';
import type { Storage, StoredRecord, Tenant } from '../../storage/storage.js';
import type { PresetMetadataList, PresetMetadataSource } from '../serving-preset.js';

/** The relation and member name of the list. */
const CUSTOM_FIELDS_REL = 'action_network:custom_fields';

/** People read per query while the fields are gathered. */
const BATCH = 1000;

/** One custom field as the document lists it (the SDK's `customFieldKind`). */
export interface CustomFieldEntry {
  name: string;
  /** When the first person to carry it was created. */
  created_date: string;
  /** When a person carrying it was last modified. */
  modified_date: string;
  /** Its number, in the order the fields first appear among the tenant's people. */
  numeric_id: number;
}

/** Every person of the tenant, oldest first, read in batches. */
async function* peopleOf(storage: Storage, tenant: Tenant): AsyncGenerator<StoredRecord> {
  let after: number | undefined;
  for (;;) {
    const batch = await storage.records.list({
      tenantId: tenant.id,
      kind: 'person',
      limit: BATCH,
      ...(after === undefined ? { offset: 0 } : { after }),
    });
    yield* batch;
    const last = batch[batch.length - 1];
    if (!last || batch.length < BATCH) return;
    after = last.seq;
  }
}

/**
 * The custom fields the tenant's people carry, in the order they first appear among
 * them (oldest person first). Reads every person: the server keeps no index of field
 * names, and the document is read rarely (before a sync, not on every call).
 */
export async function customFieldsOf(
  storage: Storage,
  tenant: Tenant,
): Promise<CustomFieldEntry[]> {
  const fields = new Map<string, CustomFieldEntry>();
  for await (const person of peopleOf(storage, tenant)) {
    const custom = person.doc.custom_fields;
    if (!isPlainObject(custom)) continue;
    for (const name of Object.keys(custom)) {
      const known = fields.get(name);
      if (!known) {
        fields.set(name, {
          name,
          created_date: person.created_date,
          modified_date: person.modified_date,
          numeric_id: fields.size + 1,
        });
      } else if (person.modified_date > known.modified_date) {
        known.modified_date = person.modified_date;
      }
    }
  }
  return [...fields.values()];
}

/**
 * The `metadata/custom_fields` document of the Action Network preset, as a
 * {@link PresetMetadataList}: its `origin_system`, `name`, `description` and the list in
 * `action_network:custom_fields`.
 */
export const CUSTOM_FIELDS_METADATA: PresetMetadataList = {
  name: 'custom_fields',
  rel: CUSTOM_FIELDS_REL,
  title: 'The collection of custom fields available at this endpoint',
  fields: async ({ tenant, storage, originSystem }: PresetMetadataSource) => ({
    origin_system: originSystem,
    name: 'custom_fields',
    description: 'The custom fields the people of this group carry.',
    [CUSTOM_FIELDS_REL]: await customFieldsOf(storage, tenant),
  }),
};
