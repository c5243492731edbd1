import * as z from 'zod/mini';
import { integer, optional } from './fields.js';

/**
 * The paging members of a collection document. All are optional: servers in the wild
 * leave out `total_pages` and `total_records`, and an empty collection may be `{}`.
 * Paging itself never trusts these numbers; it follows `next` links.
 *
 * @example
 * ```ts
 * import { CollectionPageSchema } from 'adis-sdk/schema';
 *
 * const json: unknown = await (await fetch('https://api.example.org/api/v1/people?page=2')).json();
 * const { page, total_pages } = CollectionPageSchema.parse(json);
 * ```
 */
export const CollectionPageSchema = z.looseObject({
  total_pages: optional(integer('read')),
  per_page: optional(integer('read')),
  page: optional(integer('read')),
  total_records: optional(integer('read')),
});

/** The paging members of a collection document. */
export type CollectionPageInfo = z.output<typeof CollectionPageSchema>;
