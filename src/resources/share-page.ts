import type * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import type { CallOptions, NavigatorContext } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { describedRecordFields, SHARING_TOTALS, sharingFields } from './content-fields.js';
import { commonFields, type Mode, resourceSchemas } from './fields.js';
import { type PersonResource, personKind } from './person-resource.js';
import { taggingKind } from './tagging.js';

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

const sharePageSchemas = resourceSchemas(sharePageShape, SHARING_TOTALS);

/**
 * A share page (a page whose purpose is to be shared) as the SDK reads it from any
 * server: unknown members and unnamed share networks kept.
 *
 * @example
 * ```ts
 * import { SharePageSchema } from 'adis-sdk';
 * const page = SharePageSchema.parse(json);
 * console.log(page.share_url, page.total_shares);
 * ```
 */
export const SharePageSchema = sharePageSchemas.read;

/**
 * A share page as a client sends it and the reference server accepts it. Every
 * `total_shares` (the page's and each network's) is computed: accepted and ignored.
 *
 * @example
 * ```ts
 * import { SharePageWriteSchema } from 'adis-sdk';
 * SharePageWriteSchema.parse({
 *   title: 'Tell your friends',
 *   share_url: 'https://parks.example.org/join',
 *   share_options: [{ network_b_share: { message: 'I joined the park campaign!' } }],
 * });
 * ```
 */
export const SharePageWriteSchema = sharePageSchemas.write;

/**
 * Fields of a share page that a client may not set (dates, totals, HAL members).
 *
 * @example
 * ```ts
 * SHARE_PAGE_READ_ONLY_FIELDS.includes('total_shares'); // true
 * ```
 */
export const SHARE_PAGE_READ_ONLY_FIELDS = sharePageSchemas.readOnly;

/** A share page read from a server. Derived from {@link SharePageSchema}. */
export type SharePage = z.output<typeof SharePageSchema>;
/** The fields a client may send to create or update a share page. Derived from {@link SharePageWriteSchema}. */
export type SharePageInput = z.input<typeof SharePageWriteSchema>;

/**
 * A share page read from a server, with a method per link relation.
 *
 * @example
 * ```ts
 * const page = await client.sharePages.get(url);
 * console.log(page.data.share_options?.[0]?.email_share?.subject);
 * ```
 */
export class SharePageResource extends Resource<SharePage, SharePageInput> {
  /**
   * The person who created the share page (`std:creator`), if the server links one.
   *
   * @example
   * ```ts
   * const creator = await sharePage.creator();
   * console.log(creator?.data.family_name);
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last modified the share page (`std:modified_by`), if the server says.
   *
   * @example
   * ```ts
   * const editor = await sharePage.modifiedBy();
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The taggings that tag the share page (`std:taggings`).
   *
   * @example
   * ```ts
   * for await (const tagging of sharePage.taggings()) console.log(tagging.url);
   * ```
   */
  taggings() {
    return this.linkedCollection(taggingKind, 'std:taggings');
  }
}

/**
 * The share page kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const sharePages = new Collection(context, locate, sharePageKind);
 * ```
 */
export const sharePageKind: ResourceKind<SharePage, SharePageInput, SharePageResource> = {
  singular: 'share_page',
  plural: 'share_pages',
  schema: SharePageSchema,
  writeSchema: SharePageWriteSchema,
  wrap: (context: NavigatorContext, document: HalDocument) =>
    new SharePageResource(context, document, sharePageKind),
};
