import type * as z from 'zod/mini';
import type { Collection } from '../navigator/collection.js';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { describedRecordFields } from './content-fields.js';
import { commonFields, integer, type Mode, optional, resourceSchemas } from './fields.js';
import { type Item, type ItemInput, type ItemResource, itemKind } from './item.js';
import { type PersonResource, personKind } from './person-resource.js';

/**
 * The list's fields. The spec shows none; a list is a named set of people that the
 * helpers add people to by name (`add_lists`), so it has the descriptive fields of
 * every named record, and `total_items`, the count of its items, which the server
 * computes.
 */
function listShape(mode: Mode) {
  return { ...commonFields(mode), ...describedRecordFields() };
}

const listSchemas = resourceSchemas(listShape, {
  total_items: optional(integer('read')),
});

/**
 * A list as the SDK reads it from any server: unknown members kept, `total_items` as a
 * number or numeric string.
 *
 * @example
 * ```ts
 * import { ListSchema } from 'adis-sdk';
 * ListSchema.parse({ name: 'volunteers', total_items: '42' }).total_items; // 42
 * ```
 */
export const ListSchema = listSchemas.read;

/**
 * A list as a client sends it on create and update: no unknown members. `total_items`
 * is accepted and ignored.
 *
 * @example
 * ```ts
 * import { ListWriteSchema } from 'adis-sdk';
 * ListWriteSchema.parse({ name: 'volunteers-2026', title: 'Volunteers 2026' });
 * ```
 */
export const ListWriteSchema = listSchemas.write;

/**
 * Members of a list the server owns (`total_items`, dates, HAL members): ignored on
 * create and update.
 *
 * @example
 * ```ts
 * LIST_READ_ONLY_FIELDS.includes('total_items'); // true
 * ```
 */
export const LIST_READ_ONLY_FIELDS = listSchemas.readOnly;

/**
 * A list read from a server. Derived from {@link ListSchema}.
 *
 * @example
 * ```ts
 * const size: List['total_items'] = list.data.total_items;
 * ```
 */
export type List = z.output<typeof ListSchema>;

/**
 * What a client sends to create or update a list. Derived from {@link ListWriteSchema}.
 *
 * @example
 * ```ts
 * const input: ListInput = { name: 'volunteers-2026', description: 'Everyone who signed up in 2026' };
 * ```
 */
export type ListInput = z.input<typeof ListWriteSchema>;

/**
 * A list of people read from a server, with a method per link relation of a list.
 *
 * @example
 * ```ts
 * for await (const item of list.items()) console.log((await item.person()).primaryEmail);
 * ```
 */
export class ListResource extends Resource<List, ListInput> {
  /**
   * The person who created the list (`std:creator`), when the server records one.
   *
   * @example
   * ```ts
   * const owner = await list.creator();
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last changed the list (`std:modified_by`), when the server records
   * one.
   *
   * @example
   * ```ts
   * const lastEditor = await list.modifiedBy();
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The list's items, one per person on the list (`std:items`). Creating one adds a
   * person: send its `std:person` link.
   *
   * @example
   * ```ts
   * await list.items().create({ _links: { 'std:person': linkTo(person) } });
   * ```
   */
  items(): Collection<Item, ItemInput, ItemResource> {
    return this.linkedCollection(itemKind, 'std:items');
  }
}

/**
 * The list kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const lists = new Collection(context, locate, listKind);
 * ```
 */
export const listKind: ResourceKind<List, ListInput, ListResource> = {
  singular: 'list',
  plural: 'lists',
  schema: ListSchema,
  writeSchema: ListWriteSchema,
  wrap: (context, document) => new ListResource(context, document, listKind),
};
