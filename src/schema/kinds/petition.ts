import * as z from 'zod/mini';
import {
  contentFields,
  petitionTargetSchema,
  SHARING_TOTALS,
  sharingFields,
} from '../content-fields.js';
import { commonFields, integer, type Mode, optional } from '../fields.js';
import { defineKind, many, one, recordHelper } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/** The petition's writable fields as the spec's Petition table lists them. */
function petitionShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(mode),
    petition_text: optional(z.string()),
    target: optional(z.array(petitionTargetSchema(mode))),
    ...sharingFields(mode),
  };
}

/**
 * The petition kind: a petition people sign. Read with `schema` (unknown members and share
 * networks the spec does not name kept, counts read from numeric strings); sent with
 * `writeSchema` (no unknown plain members, vendor `<prefix>:<name>` members pass;
 * `total_signatures` and `total_shares` are computed by the server and ignored when
 * sent back).
 *
 * @example
 * ```ts
 * import { petitionKind } from 'adis-sdk/schema';
 *
 * petitionKind.writeSchema.parse({
 *   title: 'Save the park',
 *   petition_text: 'We ask the council to keep Elm Park public.',
 *   target: [{ name: 'Springfield City Council' }],
 * });
 * ```
 */
export const petitionKind = defineKind({
  singular: 'petition',
  plural: 'petitions',
  description: 'A petition people sign',
  shape: petitionShape,
  computed: { total_signatures: optional(integer('read')), ...SHARING_TOTALS },
  relations: {
    /** The person who created the petition (`std:creator`), if the server links one. */
    creator: one('person'),
    /** The person who last modified the petition (`std:modified_by`), if the server says. */
    modifiedBy: one('person'),
    /** The organization sponsoring the petition (`std:sponsor`), if any. */
    sponsor: one('organization'),
    /** The petition's signatures (`std:signatures`). */
    signatures: many('signature'),
    /** The taggings that tag the petition (`std:taggings`). */
    taggings: many('tagging'),
  },
  helpers: {
    /**
     * Records a signature of this petition through its `std:record_signature_helper`:
     * the signer (`person`) is created, or matched with a known person and updated, and
     * the action functions (tags, lists, answers) are applied. The input is checked
     * first (a SchemaValidationError, no request). Resolves with the signature and the
     * person; `complete` is false, with the failed parts in `failures`, when an action
     * function failed while the signature was recorded. An atomic error rejects with an
     * HTTPError. With `authenticate: false` no key is sent and a success has no record.
     */
    recordSignature: recordHelper('record_signature_helper', 'recordSignature', 'signature', {
      anonymous: true,
    }),
  },
});

/** A petition as read from a server: the output of `petitionKind.schema`. */
export interface Petition extends z.output<typeof petitionKind.schema> {}
/** What a client sends to create or update a petition: the input of `petitionKind.writeSchema`. */
export interface PetitionInput extends z.input<typeof petitionKind.writeSchema>, VendorMembers {}
