import * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import { RecordSignatureBodySchema, type RecordSignatureInput } from '../helpers/bodies.js';
import type { HelperOptions } from '../helpers/navigator.js';
import type { HelperResult } from '../helpers/result.js';
import type { CallOptions, NavigatorContext } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import {
  contentFields,
  petitionTargetSchema,
  SHARING_TOTALS,
  sharingFields,
} from './content-fields.js';
import { commonFields, integer, type Mode, optional, resourceSchemas } from './fields.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';
import { type SignatureResource, signatureKind } from './signature.js';
import { taggingKind } from './tagging.js';

/** The petition's writable fields as the spec's Petition table lists them. */
function petitionShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(),
    petition_text: optional(z.string()),
    target: optional(z.array(petitionTargetSchema(mode))),
    ...sharingFields(mode),
  };
}

const petitionSchemas = resourceSchemas(petitionShape, {
  total_signatures: optional(integer('read')),
  ...SHARING_TOTALS,
});

/**
 * A petition as the SDK reads it from any server: unknown members (and share networks
 * the spec does not name) kept, counts read from numeric strings.
 *
 * @example
 * ```ts
 * import { PetitionSchema } from 'adis-sdk';
 * const petition = PetitionSchema.parse(json);
 * console.log(petition.title, petition.total_signatures);
 * ```
 */
export const PetitionSchema = petitionSchemas.read;

/**
 * A petition as a client sends it and the reference server accepts it: no unknown
 * members, share options checked. `total_signatures` and `total_shares` are computed
 * by the server; sending them back is accepted and they are ignored.
 *
 * @example
 * ```ts
 * import { PetitionWriteSchema } from 'adis-sdk';
 * PetitionWriteSchema.parse({
 *   title: 'Save the park',
 *   petition_text: 'We ask the council to keep Elm Park public.',
 *   target: [{ name: 'Springfield City Council' }],
 * });
 * ```
 */
export const PetitionWriteSchema = petitionSchemas.write;

/**
 * Fields of a petition that a client may not set (dates, totals, HAL members).
 *
 * @example
 * ```ts
 * PETITION_READ_ONLY_FIELDS.includes('total_signatures'); // true
 * ```
 */
export const PETITION_READ_ONLY_FIELDS = petitionSchemas.readOnly;

/** A petition read from a server. Derived from {@link PetitionSchema}. */
export type Petition = z.output<typeof PetitionSchema>;
/** The fields a client may send to create or update a petition. Derived from {@link PetitionWriteSchema}. */
export type PetitionInput = z.input<typeof PetitionWriteSchema>;

/**
 * A petition read from a server, with a method per link relation of a petition.
 *
 * @example
 * ```ts
 * const petition = await client.petitions.get(url);
 * console.log(petition.data.title, petition.data.total_signatures);
 * for await (const signature of petition.signatures()) console.log(signature.data.comments);
 * ```
 */
export class PetitionResource extends Resource<Petition, PetitionInput> {
  /**
   * The person who created the petition (`std:creator`), if the server links one.
   *
   * @example
   * ```ts
   * const creator = await petition.creator();
   * console.log(creator?.data.given_name);
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The organization sponsoring the petition (`std:sponsor`), if any.
   *
   * @example
   * ```ts
   * const sponsor = await petition.sponsor();
   * console.log(sponsor?.data.organization);
   * ```
   */
  sponsor(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:sponsor', options);
  }

  /**
   * The person who last modified the petition (`std:modified_by`), if the server says.
   *
   * @example
   * ```ts
   * const editor = await petition.modifiedBy();
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The petition's signatures (`std:signatures`).
   *
   * @example
   * ```ts
   * const latest = await petition.signatures().toArray({ limit: 10 });
   * ```
   */
  signatures() {
    return this.linkedCollection(signatureKind, 'std:signatures');
  }

  /**
   * The taggings that tag the petition (`std:taggings`).
   *
   * @example
   * ```ts
   * for await (const tagging of petition.taggings()) console.log((await tagging.tag()).data.name);
   * ```
   */
  taggings() {
    return this.linkedCollection(taggingKind, 'std:taggings');
  }

  /**
   * Records a signature of this petition through its `std:record_signature_helper`:
   * the signer (`person`) is created, or matched with a known person and updated, and
   * the action functions (tags, lists, answers) are applied. The input is checked
   * first (a SchemaValidationError, no request). Resolves with the signature and the
   * person; `complete` is false, with the failed parts in `failures`, when an action
   * function failed while the signature was recorded. An atomic error rejects with an
   * HTTPError. With `authenticate: false` no key is sent and a success has no record.
   *
   * @example
   * ```ts
   * const { record, person, complete, failures } = await petition.recordSignature({
   *   comments: 'Keep the park public!',
   *   person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org', primary: true }] },
   *   add_tags: ['elm-park'],
   * });
   * console.log(record?.data.comments, person?.url, complete || failures);
   * ```
   */
  recordSignature(
    input: RecordSignatureInput,
    options?: HelperOptions,
  ): Promise<HelperResult<SignatureResource, PersonResource>> {
    return this.callHelper(
      'std:record_signature_helper',
      RecordSignatureBodySchema,
      input,
      { record: signatureKind, person: personKind },
      options,
    );
  }
}

/**
 * The petition kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const petitions = new Collection(context, locate, petitionKind);
 * ```
 */
export const petitionKind: ResourceKind<Petition, PetitionInput, PetitionResource> = {
  singular: 'petition',
  plural: 'petitions',
  schema: PetitionSchema,
  writeSchema: PetitionWriteSchema,
  wrap: (context: NavigatorContext, document: HalDocument) =>
    new PetitionResource(context, document, petitionKind),
};
