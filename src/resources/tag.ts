import * as z from 'zod/mini';
import type { Collection } from '../navigator/collection.js';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { commonFields, type Mode, optional, resourceSchemas } from './fields.js';
import { type PersonResource, personKind } from './person-resource.js';
import { type Tagging, type TaggingInput, type TaggingResource, taggingKind } from './tagging.js';

/**
 * A tag's name on write: not blank, and trimmed, because the helpers add tags by name
 * (`add_tags`) and ` volunteer` must not become a second tag beside `volunteer`.
 */
function tagName(mode: Mode): z.ZodMiniType<string, string> {
  return mode === 'write'
    ? z.string().check(z.trim(), z.minLength(1, 'must not be blank'))
    : z.string();
}

/**
 * The tag's fields. The spec shows none; a tag is a name people are tagged with, so it
 * has a `name` (unique per tenant, required by the server on create), a `description`
 * saying what it means, and the `origin_system` every record has. The write schema
 * serves create and partial update alike, so `name` is optional in it.
 */
function tagShape(mode: Mode) {
  return {
    ...commonFields(mode),
    origin_system: optional(z.string()),
    name: optional(tagName(mode)),
    description: optional(z.string()),
  };
}

const tagSchemas = resourceSchemas(tagShape);

/**
 * A tag as the SDK reads it from any server: unknown members kept.
 *
 * @example
 * ```ts
 * import { TagSchema } from 'adis-sdk';
 * TagSchema.parse({ name: 'volunteer' }).name; // 'volunteer'
 * ```
 */
export const TagSchema = tagSchemas.read;

/**
 * A tag as a client sends it on create and update: `name` not blank (and sent
 * trimmed), no unknown members. The server requires `name` on create and refuses a
 * name another tag of the tenant has.
 *
 * @example
 * ```ts
 * import { TagWriteSchema } from 'adis-sdk';
 * TagWriteSchema.parse({ name: ' volunteer ' }).name; // 'volunteer'
 * ```
 */
export const TagWriteSchema = tagSchemas.write;

/**
 * Members of a tag the server owns: ignored on create and update.
 *
 * @example
 * ```ts
 * TAG_READ_ONLY_FIELDS.includes('modified_date'); // true
 * ```
 */
export const TAG_READ_ONLY_FIELDS = tagSchemas.readOnly;

/**
 * A tag read from a server. Derived from {@link TagSchema}.
 *
 * @example
 * ```ts
 * const name: Tag['name'] = tag.data.name;
 * ```
 */
export type Tag = z.output<typeof TagSchema>;

/**
 * What a client sends to create or update a tag. Derived from {@link TagWriteSchema}.
 *
 * @example
 * ```ts
 * const input: TagInput = { name: 'volunteer', description: 'Signed up to volunteer' };
 * ```
 */
export type TagInput = z.input<typeof TagWriteSchema>;

/**
 * A tag read from a server, with a method per link relation of a tag.
 *
 * @example
 * ```ts
 * for await (const tag of client.tags) {
 *   const tagged = await tag.taggings().toArray();
 *   console.log(tag.data.name, tagged.length);
 * }
 * ```
 */
export class TagResource extends Resource<Tag, TagInput> {
  /**
   * The person who created the tag (`std:creator`), when the server records one.
   *
   * @example
   * ```ts
   * const author = await tag.creator();
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last changed the tag (`std:modified_by`), when the server records
   * one.
   *
   * @example
   * ```ts
   * const editor = await tag.modifiedBy();
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The taggings that apply this tag to people and other records (`std:taggings`).
   * Creating one tags a record: send its link, for example `std:person`.
   *
   * @example
   * ```ts
   * await tag.taggings().create({ _links: { 'std:person': linkTo(person) } });
   * ```
   */
  taggings(): Collection<Tagging, TaggingInput, TaggingResource> {
    return this.linkedCollection(taggingKind, 'std:taggings');
  }
}

/**
 * The tag kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const tags = new Collection(context, locate, tagKind);
 * ```
 */
export const tagKind: ResourceKind<Tag, TagInput, TagResource> = {
  singular: 'tag',
  plural: 'tags',
  schema: TagSchema,
  writeSchema: TagWriteSchema,
  wrap: (context, document) => new TagResource(context, document, tagKind),
};
