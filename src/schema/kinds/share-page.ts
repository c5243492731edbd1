import type * as z from 'zod/mini';
import { describedRecordFields, SHARING_TOTALS, sharingFields } from '../content-fields.js';
import { commonFields, type Mode } from '../fields.js';
import { defineKind, many, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/**
 * The share page's writable fields: the content fields of a petition without
 * `featured_image_url` (the spec does not list it: the share options carry the
 * images), and the sharing fields.
 */
function sharePageShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...describedRecordFields(),
    ...sharingFields(mode),
  };
}

/**
 * The share page kind: a page whose purpose is to be shared. Read with `schema`
 * (unknown members and share networks the spec does not name kept); sent with
 * `writeSchema` (no unknown plain members, vendor `<prefix>:<name>` members pass; every
 * `total_shares`, the page's and each network's, is computed by the server and ignored
 * when sent back).
 *
 * @example
 * ```ts
 * import { sharePageKind } from 'adis-sdk/schema';
 *
 * sharePageKind.writeSchema.parse({
 *   title: 'Tell your friends',
 *   share_url: 'https://parks.example.org/join',
 *   share_options: [{ network_b_share: { message: 'I joined the park campaign!' } }],
 * });
 * ```
 */
export const sharePageKind = defineKind({
  singular: 'share_page',
  plural: 'share_pages',
  description: 'A page whose purpose is to be shared',
  shape: sharePageShape,
  computed: SHARING_TOTALS,
  relations: {
    /** The person who created the share page (`std:creator`), if the server links one. */
    creator: one('person'),
    /** The person who last modified the share page (`std:modified_by`), if the server says. */
    modifiedBy: one('person'),
    /** The taggings that tag the share page (`std:taggings`). */
    taggings: many('tagging'),
  },
});

/** A share page as read from a server: the output of `sharePageKind.schema`. */
export interface SharePage extends z.output<typeof sharePageKind.schema> {}
/** What a client sends to create or update a share page: the input of `sharePageKind.writeSchema`. */
export interface SharePageInput extends z.input<typeof sharePageKind.writeSchema>, VendorMembers {}
