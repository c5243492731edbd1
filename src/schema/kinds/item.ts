import * as z from 'zod/mini';
import { commonFields, flexenum, type Mode, optional } from '../fields.js';
import { defineKind, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

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

/**
 * The item kind: one person (or organization) on one list. Read with `schema` (unknown
 * members kept); sent with `writeSchema` (on create, with `_links['std:person']`; no
 * unknown plain members, vendor `<prefix>:<name>` members pass; `item_type` is computed
 * by the server, accepted and ignored).
 *
 * @example
 * ```ts
 * import { itemKind } from 'adis-sdk/schema';
 *
 * itemKind.schema.parse({ item_type: 'person' }).item_type; // 'person'
 * const person = { url: 'https://api.example.org/api/v1/people/1' };
 * itemKind.writeSchema.parse({ origin_system: 'CRM', _links: { 'std:person': { href: person.url } } });
 * ```
 */
export const itemKind = defineKind({
  singular: 'item',
  plural: 'items',
  description: 'The membership of one person or organization in one list',
  shape: itemShape,
  computed: { item_type: optional(flexenum(['person', 'organization'])) },
  relations: {
    /** The list the item belongs to (`std:list`). */
    list: one('list', { required: true }),
    /** The person on the list (`std:person`), when the item holds a person. */
    person: one('person'),
    /** The organization on the list (`std:organization`), when the item holds one. */
    organization: one('organization'),
  },
});

/** A list item as read from a server: the output of `itemKind.schema`. */
export interface Item extends z.output<typeof itemKind.schema> {}
/** What a client sends to create or update a list item: the input of `itemKind.writeSchema`. */
export interface ItemInput extends z.input<typeof itemKind.writeSchema>, VendorMembers {}
