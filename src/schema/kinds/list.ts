import type * as z from 'zod/mini';
import { describedRecordFields } from '../content-fields.js';
import { commonFields, integer, type Mode, optional } from '../fields.js';
import { defineKind, many, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/**
 * The list's fields. The spec shows none; a list is a named set of people that the
 * helpers add people to by name (`add_lists`), so it has the descriptive fields of
 * every named record, and `total_items`, the count of its items, which the server
 * computes.
 */
function listShape(mode: Mode) {
  return { ...commonFields(mode), ...describedRecordFields() };
}

/**
 * The list kind: a named list of people. Read with `schema` (unknown members kept,
 * `total_items` as a number or numeric string); sent with `writeSchema` (no unknown
 * plain members, vendor `<prefix>:<name>` members pass; `total_items` is computed by the
 * server, accepted and ignored).
 *
 * @example
 * ```ts
 * import { listKind } from 'adis-sdk/schema';
 *
 * listKind.schema.parse({ name: 'volunteers', total_items: '42' }).total_items; // 42
 * listKind.writeSchema.parse({ name: 'volunteers-2026', title: 'Volunteers 2026' });
 * ```
 */
export const listKind = defineKind({
  singular: 'list',
  plural: 'lists',
  description: 'A named list of people',
  shape: listShape,
  computed: { total_items: optional(integer('read')) },
  relations: {
    /** The person who created the list (`std:creator`), when the server records one. */
    creator: one('person'),
    /**
     * The person who last changed the list (`std:modified_by`), when the server records
     * one.
     */
    modifiedBy: one('person'),
    /**
     * The list's items, one per person on the list (`std:items`). Creating one adds a
     * person: send its `std:person` link.
     */
    items: many('item'),
  },
});

/** A list as read from a server: the output of `listKind.schema`. */
export interface List extends z.output<typeof listKind.schema> {}
/** What a client sends to create or update a list: the input of `listKind.writeSchema`. */
export interface ListInput extends z.input<typeof listKind.writeSchema>, VendorMembers {}
