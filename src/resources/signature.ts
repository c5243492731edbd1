import * as z from 'zod/mini';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { referredActionFields } from './action-fields.js';
import {
  commonFields,
  HELPER_COMPUTED_FIELDS,
  type Mode,
  optional,
  resourceSchemas,
} from './fields.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';
import { type PetitionResource, petitionKind } from './petition.js';

/** The signature's fields as the spec's Signature table lists them. */
function signatureShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...referredActionFields(mode),
    comments: optional(z.string()),
  };
}

const signatureSchemas = resourceSchemas(signatureShape, HELPER_COMPUTED_FIELDS);

/**
 * A signature of a petition as the SDK reads it from any server: unknown members kept,
 * `action_date` any string.
 *
 * @example
 * ```ts
 * import { SignatureSchema } from 'adis-sdk';
 * const signature = SignatureSchema.parse(json);
 * console.log(signature.comments, signature.referrer_data?.source);
 * ```
 */
export const SignatureSchema = signatureSchemas.read;

/**
 * A signature as a client sends it on create (with `_links['std:person']`) and update:
 * `action_date` an ISO 8601 date-time, no unknown members.
 *
 * @example
 * ```ts
 * import { SignatureWriteSchema } from 'adis-sdk';
 * SignatureWriteSchema.parse({
 *   comments: 'The park matters to my kids.',
 *   action_date: '2026-03-01T10:00:00Z',
 *   _links: { 'std:person': { href: person.url } },
 * });
 * ```
 */
export const SignatureWriteSchema = signatureSchemas.write;

/**
 * Members of a signature the server owns (`created_date`, `modified_date`, HAL
 * members): ignored on create and update.
 *
 * @example
 * ```ts
 * SIGNATURE_READ_ONLY_FIELDS.includes('created_date'); // true
 * ```
 */
export const SIGNATURE_READ_ONLY_FIELDS = signatureSchemas.readOnly;

/**
 * A signature read from a server. Derived from {@link SignatureSchema}.
 *
 * @example
 * ```ts
 * const comments: Signature['comments'] = signature.data.comments;
 * ```
 */
export type Signature = z.output<typeof SignatureSchema>;

/**
 * What a client sends to create or update a signature. Derived from
 * {@link SignatureWriteSchema}.
 *
 * @example
 * ```ts
 * const input: SignatureInput = { comments: 'Yes!', _links: { 'std:person': linkTo(person) } };
 * ```
 */
export type SignatureInput = z.input<typeof SignatureWriteSchema>;

/**
 * A signature read from a server, with a method per link relation of a signature.
 *
 * @example
 * ```ts
 * for await (const signature of petition.signatures()) {
 *   const signer = await signature.person();
 *   console.log(signer.data.given_name, signature.data.comments);
 * }
 * ```
 */
export class SignatureResource extends Resource<Signature, SignatureInput> {
  /**
   * The person who signed (`std:person`).
   *
   * @example
   * ```ts
   * const signer = await signature.person();
   * ```
   */
  person(options?: CallOptions): Promise<PersonResource> {
    return this.linkedResource(personKind, 'std:person', options);
  }

  /**
   * The petition signed (`std:petition`).
   *
   * @example
   * ```ts
   * const petition = await signature.petition();
   * console.log(petition.data.title);
   * ```
   */
  petition(options?: CallOptions): Promise<PetitionResource> {
    return this.linkedResource(petitionKind, 'std:petition', options);
  }

  /**
   * The organization that signed, when an organization rather than a person took the
   * action (`std:organization`); undefined otherwise.
   *
   * @example
   * ```ts
   * const signedBy = (await signature.organization())?.data.organization;
   * ```
   */
  organization(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:organization', options);
  }
}

/**
 * The signature kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const signatures = new Collection(context, locate, signatureKind);
 * ```
 */
export const signatureKind: ResourceKind<Signature, SignatureInput, SignatureResource> = {
  singular: 'signature',
  plural: 'signatures',
  schema: SignatureSchema,
  writeSchema: SignatureWriteSchema,
  wrap: (context, document) => new SignatureResource(context, document, signatureKind),
};
