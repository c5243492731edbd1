import * as z from 'zod/mini';
import { commonFields, isServerMode, type Mode, optional } from '../fields.js';
import { defineKind, many, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/**
 * A tag's name for the reference server: not blank, and trimmed, because the helpers add
 * tags by name (`add_tags`) and ` volunteer` must not become a second tag beside
 * `volunteer`. Any string on read and write.
 */
function tagName(mode: Mode): z.ZodMiniType<string, string> {
  return isServerMode(mode)
    ? z.string().check(z.trim(), z.minLength(1, 'must not be blank'))
    : z.string();
}

/**
 * The tag's fields. The spec shows none; a tag is a name people are tagged with, so it
 * has a `name` (unique per tenant, required by the server on create), a `description`
 * saying what it means, and the `origin_system` every record has. The write and strict
 * schemas serve create and partial update alike, so `name` is optional in them.
 */
function tagShape(mode: Mode) {
  return {
    ...commonFields(mode),
    origin_system: optional(z.string()),
    name: optional(tagName(mode)),
    description: optional(z.string()),
  };
}

/**
 * The tag kind: a name people and other records are tagged with. Read with `schema`
 * (unknown members kept); sent with `writeSchema` (`name` a string, no unknown plain
 * members, vendor `<prefix>:<name>` members pass); the reference server checks
 * `strictSchema` (`name` not blank, and stored trimmed). The server requires `name` on
 * create and refuses a name another tag of the tenant has.
 *
 * @example
 * ```ts
 * import { tagKind } from 'adis-sdk/schema';
 *
 * tagKind.writeSchema.parse({ name: ' volunteer ' }).name; // ' volunteer ': sent as given
 * tagKind.strictSchema.parse({ name: ' volunteer ' }).name; // 'volunteer'
 * ```
 */
export const tagKind = defineKind({
  singular: 'tag',
  plural: 'tags',
  description: 'A name people and other records are tagged with',
  shape: tagShape,
  relations: {
    /** The person who created the tag (`std:creator`), when the server records one. */
    creator: one('person'),
    /**
     * The person who last changed the tag (`std:modified_by`), when the server records
     * one.
     */
    modifiedBy: one('person'),
    /**
     * The taggings that apply this tag to people and other records (`std:taggings`).
     * Creating one tags a record: send its link, for example `std:person`.
     */
    taggings: many('tagging'),
  },
});

/** A tag as read from a server: the output of `tagKind.schema`. */
export interface Tag extends z.output<typeof tagKind.schema> {}
/** What a client sends to create or update a tag: the input of `tagKind.writeSchema`. */
export interface TagInput extends z.input<typeof tagKind.writeSchema>, VendorMembers {}
