import * as z from 'zod/mini';
import { describedRecordFields } from '../content-fields.js';
import { commonFields, type Mode, optional } from '../fields.js';
import { defineKind, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/**
 * The query's fields. The spec shows none; a query is a saved selection of people (a
 * message can target one), so it has the descriptive fields of every named record and
 * `filter`, the filter expression that selects its people: the same expression a
 * client passes as `filter=` to the people collection
 * (`modified_date gt '2026-01-01T00:00:00Z'`). It is optional because queries built in
 * a vendor's own query editor have no such expression to show.
 */
function queryShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...describedRecordFields(),
    filter: optional(z.string()),
  };
}

/**
 * The query kind: a saved selection of people. Read with `schema` (unknown members
 * kept); sent with `writeSchema` (no unknown plain members, vendor `<prefix>:<name>`
 * members pass). Whether `filter` is an expression the server can evaluate is checked
 * by the server.
 *
 * @example
 * ```ts
 * import { queryKind } from 'adis-sdk/schema';
 *
 * queryKind.writeSchema.parse({ name: 'recent', filter: "modified_date gt '2026-01-01T00:00:00Z'" });
 * ```
 */
export const queryKind = defineKind({
  singular: 'query',
  plural: 'queries',
  description: 'A saved selection of people',
  shape: queryShape,
  relations: {
    /** The person who created the query (`std:creator`), when the server records one. */
    creator: one('person'),
    /**
     * The person who last changed the query (`std:modified_by`), when the server
     * records one.
     */
    modifiedBy: one('person'),
  },
});

/** A query as read from a server: the output of `queryKind.schema`. */
export interface Query extends z.output<typeof queryKind.schema> {}
/** What a client sends to create or update a query: the input of `queryKind.writeSchema`. */
export interface QueryInput extends z.input<typeof queryKind.writeSchema>, VendorMembers {}
