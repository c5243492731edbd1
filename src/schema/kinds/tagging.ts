import * as z from 'zod/mini';
import { commonFields, flexenum, type Mode, optional } from '../fields.js';
import { anyOf, defineKind, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

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

/** The tagging kind as declared: its strict schema gets the one-target rule below. */
/**
 * The tagging kind: a tag applied to one record. Read with `schema` (unknown members
 * kept, `item_type` any string); sent with `writeSchema` (no unknown plain members,
 * vendor `<prefix>:<name>` members pass); the reference server checks `strictSchema`
 * (at most one target among its `_links`, a custom issue at `_links` otherwise). A new
 * tagging links its target, and its tag unless it is created in the tag's own
 * `std:taggings` collection; the server checks that both exist. `item_type`, the
 * dates and the HAL members are the server's: ignored on create and update.
 *
 * @example
 * ```ts
 * import { taggingKind } from 'adis-sdk/schema';
 *
 * taggingKind.strictSchema.safeParse({
 *   _links: {
 *     'std:person': { href: 'https://api.example.org/api/v1/people/1' },
 *     'std:petition': { href: 'https://api.example.org/api/v1/petitions/1' },
 *   },
 * }).success; // false: a tagging tags one record
 * ```
 */
export const taggingKind = defineKind({
  singular: 'tagging',
  plural: 'taggings',
  description: 'A tag applied to one record',
  shape: taggingShape,
  computed: { item_type: optional(flexenum(TAGGING_TARGET_TYPES)) },
  relations: {
    /** The tag applied (`std:tag`). */
    tag: one('tag', { required: true }),
    /**
     * The record tagged, whichever kind it is: the first target relation the tagging
     * links or embeds, wrapped in its kind's class. Undefined when it links none.
     */
    target: anyOf(
      'person',
      'organization',
      'petition',
      'form',
      'fundraisingPage',
      'sharePage',
      'wrapper',
    ),
    /** The tagged person (`std:person`), when the tagging tags a person. */
    person: one('person'),
    /** The tagged organization (`std:organization`), when the tagging tags one. */
    organization: one('organization'),
    /** The tagged petition (`std:petition`), when the tagging tags one. */
    petition: one('petition'),
    /** The tagged form (`std:form`), when the tagging tags one. */
    form: one('form'),
    /** The tagged fundraising page (`std:fundraising_page`), when the tagging tags one. */
    fundraisingPage: one('fundraising_page'),
    /** The tagged share page (`std:share_page`), when the tagging tags one. */
    sharePage: one('share_page'),
    /** The tagged message wrapper (`std:wrapper`), when the tagging tags one. */
    wrapper: one('wrapper'),
    /**
     * The canvass during which the tag was applied (`std:canvass`), when the record
     * canvass helper applied it; undefined otherwise.
     */
    canvass: one('canvass'),
  },
  check: (tagging, ctx) => {
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
  },
});

/** A tagging as read from a server: the output of `taggingKind.schema`. */
export interface Tagging extends z.output<typeof taggingKind.schema> {}
/** What a client sends to create or update a tagging: the input of `taggingKind.writeSchema`. */
export interface TaggingInput extends z.input<typeof taggingKind.writeSchema>, VendorMembers {}
