import * as z from 'zod/mini';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { commonFields, flexenum, type Mode, optional, resourceSchemas } from './fields.js';
import { type ListResource, listKind } from './list.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';

/**
 * The item's fields. The spec shows none; an item is the membership of one record in
 * one list, so it has the `origin_system` every record has, and `item_type`, the kind
 * of record on the list: `person`, or `organization` (the spec lists `items` among an
 * organization's links). The server computes it from the item's link; it is read-only
 * and open on read for servers whose lists hold other records.
 */
function itemShape(mode: Mode) {
  return { ...commonFields(mode), origin_system: optional(z.string()) };
}

const itemSchemas = resourceSchemas(itemShape, {
  item_type: optional(flexenum(['person', 'organization'])),
});

/**
 * A list item as the SDK reads it from any server: unknown members kept.
 *
 * @example
 * ```ts
 * import { ItemSchema } from 'adis-sdk';
 * ItemSchema.parse({ item_type: 'person' }).item_type; // 'person'
 * ```
 */
export const ItemSchema = itemSchemas.read;

/**
 * A list item as a client sends it on create (with `_links['std:person']`) and update:
 * no unknown members; `item_type` is accepted and ignored.
 *
 * @example
 * ```ts
 * import { ItemWriteSchema } from 'adis-sdk';
 * ItemWriteSchema.parse({ origin_system: 'CRM', _links: { 'std:person': { href: person.url } } });
 * ```
 */
export const ItemWriteSchema = itemSchemas.write;

/**
 * Members of an item the server owns (`item_type`, dates, HAL members): ignored on
 * create and update.
 *
 * @example
 * ```ts
 * ITEM_READ_ONLY_FIELDS.includes('item_type'); // true
 * ```
 */
export const ITEM_READ_ONLY_FIELDS = itemSchemas.readOnly;

/**
 * A list item read from a server. Derived from {@link ItemSchema}.
 *
 * @example
 * ```ts
 * const type: Item['item_type'] = item.data.item_type;
 * ```
 */
export type Item = z.output<typeof ItemSchema>;

/**
 * What a client sends to create or update a list item. Derived from
 * {@link ItemWriteSchema}.
 *
 * @example
 * ```ts
 * const input: ItemInput = { _links: { 'std:person': linkTo(person) } };
 * ```
 */
export type ItemInput = z.input<typeof ItemWriteSchema>;

/**
 * A list item (one person on one list) read from a server, with a method per link
 * relation of an item.
 *
 * @example
 * ```ts
 * for await (const item of person.items()) console.log((await item.list()).data.name);
 * ```
 */
export class ItemResource extends Resource<Item, ItemInput> {
  /**
   * The list the item belongs to (`std:list`).
   *
   * @example
   * ```ts
   * const list = await item.list();
   * ```
   */
  list(options?: CallOptions): Promise<ListResource> {
    return this.linkedResource(listKind, 'std:list', options);
  }

  /**
   * The person on the list (`std:person`), when the item holds a person.
   *
   * @example
   * ```ts
   * const member = await item.person();
   * ```
   */
  person(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:person', options);
  }

  /**
   * The organization on the list (`std:organization`), when the item holds one.
   *
   * @example
   * ```ts
   * const member = (await item.person()) ?? (await item.organization());
   * ```
   */
  organization(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:organization', options);
  }
}

/**
 * The item kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const items = new Collection(context, locate, itemKind);
 * ```
 */
export const itemKind: ResourceKind<Item, ItemInput, ItemResource> = {
  singular: 'item',
  plural: 'items',
  schema: ItemSchema,
  writeSchema: ItemWriteSchema,
  wrap: (context, document) => new ItemResource(context, document, itemKind),
};
