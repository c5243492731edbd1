/**
 * A compact way to declare a resource kind: the SDK's write schema and read-only list
 * (the one definition of the resource's fields), plus the server's own rules (links,
 * sub-collections, totals). Defaults keep simple kinds to a few lines.
 */
import type * as z from 'zod/mini';
import type { JsonObject, LookupKey } from '../storage/storage.js';
import type { RecordHelper, Reference, ResourceKind, SubCollection } from './kinds.js';
import { parseOrThrow } from './validation.js';

/** What {@link defineKind} needs; everything not listed defaults to "none". */
export type KindSpec = Omit<
  ResourceKind,
  'parse' | 'lookupKeys' | 'references' | 'subCollections' | 'inEntryPoint' | 'writable'
> & {
  /** The SDK's strict write schema of the resource. */
  schema: z.ZodMiniType;
  references?: readonly Reference[];
  subCollections?: readonly SubCollection[];
  lookupKeys?(doc: JsonObject): LookupKey[];
  inEntryPoint?: boolean;
  writable?: boolean;
};

/**
 * Builds a {@link ResourceKind} whose `parse` validates with the SDK's write schema,
 * reporting every issue as the spec's ErrorDescriptions.
 *
 * @example
 * ```ts
 * const tagKind = defineKind({
 *   singular: 'tag', plural: 'tags', title: 'Tags', schema: TagWriteSchema, readOnly: TAG_READ_ONLY_FIELDS,
 * });
 * ```
 */
export function defineKind(spec: KindSpec): ResourceKind {
  const { schema, ...rest } = spec;
  return {
    references: [],
    subCollections: [],
    inEntryPoint: true,
    writable: true,
    lookupKeys: () => [],
    ...rest,
    parse: (body) => parseOrThrow(schema, body, `std:${spec.singular}`) as JsonObject,
  };
}

/**
 * A link to a record of `kinds` (default: the kind named like the relation).
 *
 * @example
 * ```ts
 * reference('creator', { kinds: ['person'] }); // optional link std:creator to a person
 * reference('petition', { required: true });
 * ```
 */
export function reference(
  rel: string,
  options: { kinds?: readonly string[]; required?: boolean } = {},
): Reference {
  return { rel, kinds: options.kinds ?? [rel], required: options.required ?? false };
}

/**
 * A sub-collection listing the records of `kind` whose reference `via` points at the
 * parent.
 *
 * @example
 * ```ts
 * subCollection('signatures', 'signature', 'petition', "The petition's signatures");
 * ```
 */
export function subCollection(
  plural: string,
  kind: string,
  via: string,
  title: string,
): SubCollection {
  return { plural, kind, via, title };
}

/** Records an actor (a person, or an organization acting as one) takes or is given. */
/**
 * A helper endpoint of each record of a kind. `anonymous` says whether the spec lets
 * callers without an API key use it.
 *
 * @example
 * ```ts
 * recordHelper('record_signature_helper', 'Record a signature of this petition', { anonymous: true });
 * recordHelper('send_helper', 'Send this message', { path: 'send' });
 * ```
 */
export function recordHelper(
  rel: string,
  title: string,
  options: { path?: string; anonymous?: boolean } = {},
): RecordHelper {
  return { rel, path: options.path ?? rel, title, anonymous: options.anonymous ?? false };
}

const ACTOR_RECORDS = [
  ['answers', 'answer', 'answers'],
  ['attendances', 'attendance', 'event attendances'],
  ['signatures', 'signature', 'petition signatures'],
  ['submissions', 'submission', 'form submissions'],
  ['donations', 'donation', 'donations'],
  ['outreaches', 'outreach', 'outreaches'],
  ['taggings', 'tagging', 'taggings'],
  ['items', 'item', 'list items'],
] as const;

/**
 * The sub-collections of the records that link an actor as `via`: a person's (or an
 * organization's) answers, attendances, signatures, submissions, donations,
 * outreaches, taggings and list items.
 *
 * @example
 * ```ts
 * actorSubCollections('person'); // [{ plural: 'answers', kind: 'answer', via: 'person', … }, …]
 * ```
 */
export function actorSubCollections(via: 'person' | 'organization'): SubCollection[] {
  return ACTOR_RECORDS.map(([plural, kind, what]) =>
    subCollection(plural, kind, via, `The ${via}'s ${what}`),
  );
}
