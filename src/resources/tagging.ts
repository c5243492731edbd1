import * as z from 'zod/mini';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { type CanvassResource, canvassKind } from './canvass.js';
import { EVEN_WITH_INVALID_MEMBERS } from './content-fields.js';
import { commonFields, flexenum, type Mode, optional, resourceSchemas } from './fields.js';
import { type FormResource, formKind } from './form.js';
import { type FundraisingPageResource, fundraisingPageKind } from './fundraising-page.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';
import { type PetitionResource, petitionKind } from './petition.js';
import { type SharePageResource, sharePageKind } from './share-page.js';
import { type TagResource, tagKind } from './tag.js';
import { type WrapperResource, wrapperKind } from './wrapper.js';

/**
 * The kinds of record a tag can be applied to: the records whose links include
 * `std:taggings`. A tagging links exactly one of them.
 */
export const TAGGING_TARGET_TYPES = [
  'person',
  'organization',
  'petition',
  'form',
  'fundraising_page',
  'share_page',
  'wrapper',
] as const;

/** The link relations of a tagging's target: `std:person`, `std:petition`, and so on. */
export const TAGGING_TARGET_RELATIONS: readonly string[] = TAGGING_TARGET_TYPES.map(
  (type) => `std:${type}`,
);

/**
 * The tagging's fields. The spec shows none; a tagging is the link between a tag and a
 * record, so it has the `origin_system` every record has, and `item_type`, the kind of
 * the tagged record (`person`, `petition`…). The server computes `item_type` from the
 * target link, so it is read-only: a client says what it tags by linking it.
 */
function taggingShape(mode: Mode) {
  return {
    ...commonFields(mode),
    origin_system: optional(z.string()),
  };
}

const taggingSchemas = resourceSchemas(taggingShape, {
  item_type: optional(flexenum(TAGGING_TARGET_TYPES)),
});

/**
 * A tagging as the SDK reads it from any server: unknown members kept, `item_type` any
 * string.
 *
 * @example
 * ```ts
 * import { TaggingSchema } from 'adis-sdk';
 * TaggingSchema.parse({ item_type: 'person' }).item_type; // 'person'
 * ```
 */
export const TaggingSchema = taggingSchemas.read;

/**
 * A tagging as a client sends it on create and update: no unknown members, and at
 * most one target among its `_links` (a custom issue at `_links` otherwise). A new
 * tagging links its target, and its tag unless it is created in the tag's own
 * `std:taggings` collection; the server checks that both exist.
 *
 * @example
 * ```ts
 * import { TaggingWriteSchema } from 'adis-sdk';
 * TaggingWriteSchema.safeParse({
 *   _links: { 'std:person': { href: a.url }, 'std:petition': { href: b.url } },
 * }).success; // false: a tagging tags one record
 * ```
 */
export const TaggingWriteSchema = taggingSchemas.write.check(
  z.superRefine((tagging, ctx) => {
    // Read defensively: the rule also runs when other members failed their own checks.
    const links: unknown = tagging._links;
    if (!links || typeof links !== 'object') return;
    const targets = TAGGING_TARGET_RELATIONS.filter(
      (rel) => (links as Record<string, unknown>)[rel] != null,
    );
    if (targets.length > 1) {
      ctx.addIssue({
        code: 'custom',
        message: `a tagging tags one record, but links ${targets.join(', ')}`,
        path: ['_links'],
      });
    }
  }, EVEN_WITH_INVALID_MEMBERS),
);

/**
 * Members of a tagging the server owns (`item_type`, dates, HAL members): ignored on
 * create and update.
 *
 * @example
 * ```ts
 * TAGGING_READ_ONLY_FIELDS.includes('item_type'); // true
 * ```
 */
export const TAGGING_READ_ONLY_FIELDS = taggingSchemas.readOnly;

/**
 * A tagging read from a server. Derived from {@link TaggingSchema}.
 *
 * @example
 * ```ts
 * const isPerson = tagging.data.item_type === 'person';
 * ```
 */
export type Tagging = z.output<typeof TaggingSchema>;

/**
 * What a client sends to create or update a tagging. Derived from
 * {@link TaggingWriteSchema}.
 *
 * @example
 * ```ts
 * const input: TaggingInput = { _links: { 'std:person': linkTo(person) } };
 * ```
 */
export type TaggingInput = z.input<typeof TaggingWriteSchema>;

/**
 * The record a tagging applies its tag to, typed by its kind.
 *
 * @example
 * ```ts
 * const target: TaggingTarget | undefined = await tagging.target();
 * if (target instanceof PersonResource) console.log(target.primaryEmail);
 * ```
 */
export type TaggingTarget =
  | PersonResource
  | OrganizationResource
  | PetitionResource
  | FormResource
  | FundraisingPageResource
  | SharePageResource
  | WrapperResource;

/**
 * A tagging read from a server: a tag applied to one record, with a method per link
 * relation of a tagging.
 *
 * @example
 * ```ts
 * for await (const tagging of person.taggings()) console.log((await tagging.tag()).data.name);
 * ```
 */
export class TaggingResource extends Resource<Tagging, TaggingInput> {
  /**
   * The tag applied (`std:tag`).
   *
   * @example
   * ```ts
   * const { name } = (await tagging.tag()).data;
   * ```
   */
  tag(options?: CallOptions): Promise<TagResource> {
    return this.linkedResource(tagKind, 'std:tag', options);
  }

  /**
   * The record tagged, whichever kind it is: the first target relation the tagging
   * links or embeds, wrapped in its kind's class. Undefined when it links none.
   *
   * @example
   * ```ts
   * const target = await tagging.target();
   * console.log(tagging.data.item_type, target?.url);
   * ```
   */
  async target(options?: CallOptions): Promise<TaggingTarget | undefined> {
    const lookups: (() => Promise<TaggingTarget | undefined>)[] = [
      () => this.person(options),
      () => this.organization(options),
      () => this.petition(options),
      () => this.form(options),
      () => this.fundraisingPage(options),
      () => this.sharePage(options),
      () => this.wrapper(options),
    ];
    // An absent relation answers undefined without a request, so only the present
    // target is fetched.
    for (const lookup of lookups) {
      const found = await lookup();
      if (found) return found;
    }
    return undefined;
  }

  /**
   * The tagged person (`std:person`), when the tagging tags a person.
   *
   * @example
   * ```ts
   * const person = await tagging.person();
   * ```
   */
  person(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:person', options);
  }

  /**
   * The tagged organization (`std:organization`), when the tagging tags one.
   *
   * @example
   * ```ts
   * const organization = await tagging.organization();
   * ```
   */
  organization(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:organization', options);
  }

  /**
   * The tagged petition (`std:petition`), when the tagging tags one.
   *
   * @example
   * ```ts
   * const petition = await tagging.petition();
   * ```
   */
  petition(options?: CallOptions): Promise<PetitionResource | undefined> {
    return this.optionalLinkedResource(petitionKind, 'std:petition', options);
  }

  /**
   * The tagged form (`std:form`), when the tagging tags one.
   *
   * @example
   * ```ts
   * const form = await tagging.form();
   * ```
   */
  form(options?: CallOptions): Promise<FormResource | undefined> {
    return this.optionalLinkedResource(formKind, 'std:form', options);
  }

  /**
   * The tagged fundraising page (`std:fundraising_page`), when the tagging tags one.
   *
   * @example
   * ```ts
   * const page = await tagging.fundraisingPage();
   * ```
   */
  fundraisingPage(options?: CallOptions): Promise<FundraisingPageResource | undefined> {
    return this.optionalLinkedResource(fundraisingPageKind, 'std:fundraising_page', options);
  }

  /**
   * The tagged share page (`std:share_page`), when the tagging tags one.
   *
   * @example
   * ```ts
   * const sharePage = await tagging.sharePage();
   * ```
   */
  sharePage(options?: CallOptions): Promise<SharePageResource | undefined> {
    return this.optionalLinkedResource(sharePageKind, 'std:share_page', options);
  }

  /**
   * The tagged message wrapper (`std:wrapper`), when the tagging tags one.
   *
   * @example
   * ```ts
   * const wrapper = await tagging.wrapper();
   * ```
   */
  wrapper(options?: CallOptions): Promise<WrapperResource | undefined> {
    return this.optionalLinkedResource(wrapperKind, 'std:wrapper', options);
  }

  /**
   * The canvass during which the tag was applied (`std:canvass`), when the record
   * canvass helper applied it; undefined otherwise.
   *
   * @example
   * ```ts
   * const canvass = await tagging.canvass();
   * ```
   */
  canvass(options?: CallOptions): Promise<CanvassResource | undefined> {
    return this.optionalLinkedResource(canvassKind, 'std:canvass', options);
  }
}

/**
 * The tagging kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const taggings = new Collection(context, locate, taggingKind);
 * ```
 */
export const taggingKind: ResourceKind<Tagging, TaggingInput, TaggingResource> = {
  singular: 'tagging',
  plural: 'taggings',
  schema: TaggingSchema,
  writeSchema: TaggingWriteSchema,
  wrap: (context, document) => new TaggingResource(context, document, taggingKind),
};
