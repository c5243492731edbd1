import * as z from 'zod/mini';
import { referredActionFields } from '../action-fields.js';
import { commonFields, HELPER_COMPUTED_FIELDS, type Mode, optional } from '../fields.js';
import { defineKind, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/** The signature's fields as the spec's Signature table lists them. */
function signatureShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...referredActionFields(mode),
    /** Comments the signer left with the signature. */
    comments: optional(z.string()),
  };
}

/**
 * The signature kind: a person's signature of a petition. Read with `schema`, sent with
 * `writeSchema` (on create, with `_links['std:person']`; no unknown plain members,
 * vendor `<prefix>:<name>` members pass).
 *
 * @example
 * ```ts
 * import { signatureKind } from 'adis-sdk/schema';
 *
 * const json: unknown = await (await fetch('https://api.example.org/api/v1/petitions/1/signatures/1')).json();
 * const data = signatureKind.schema.parse(json);
 * console.log(data.comments, data.referrer_data?.source);
 * ```
 */
export const signatureKind = defineKind({
  singular: 'signature',
  plural: 'signatures',
  description: 'A signature of a petition by a person',
  shape: signatureShape,
  computed: HELPER_COMPUTED_FIELDS,
  relations: {
    /** The person who signed (`std:person`). */
    person: one('person', { required: true }),
    /** The petition signed (`std:petition`). */
    petition: one('petition', { required: true }),
    /**
     * The organization that signed, when an organization rather than a person took the
     * action (`std:organization`); undefined otherwise.
     */
    organization: one('organization'),
  },
});

/** A signature as read from a server: the output of `signatureKind.schema`. */
export interface Signature extends z.output<typeof signatureKind.schema> {}
/** What a client sends to create or update a signature: the input of `signatureKind.writeSchema`. */
export interface SignatureInput extends z.input<typeof signatureKind.writeSchema>, VendorMembers {}
