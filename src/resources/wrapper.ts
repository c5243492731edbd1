import * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import type { CallOptions, NavigatorContext } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { bool, commonFields, enumeration, type Mode, optional, resourceSchemas } from './fields.js';
import { type PersonResource, personKind } from './person-resource.js';
import { taggingKind } from './tagging.js';

/** The wrapper's writable fields as the spec's Wrapper table lists them. */
function wrapperShape(mode: Mode) {
  return {
    ...commonFields(mode),
    origin_system: optional(z.string()),
    name: optional(z.string()),
    // Header and footer may contain HTML (email) or plain text (SMS from-line,
    // unsubscribe text).
    header: optional(z.string()),
    footer: optional(z.string()),
    administrative_url: optional(z.string()),
    wrapper_type: optional(enumeration(['email', 'sms'], mode)),
    default: optional(bool(mode)),
  };
}

const wrapperSchemas = resourceSchemas(wrapperShape);

/**
 * A message wrapper (an email's header and footer, an SMS from-line and unsubscribe
 * text) as the SDK reads it from any server: unknown members kept, `wrapper_type`
 * open, `default` read from `"true"`/`"false"` too.
 *
 * @example
 * ```ts
 * import { WrapperSchema } from 'adis-sdk';
 * const wrapper = WrapperSchema.parse(json);
 * console.log(wrapper.name, wrapper.wrapper_type, wrapper.default);
 * ```
 */
export const WrapperSchema = wrapperSchemas.read;

/**
 * A wrapper as a client sends it and the reference server accepts it: `wrapper_type`
 * `email` or `sms`, `default` a boolean, no unknown members.
 *
 * @example
 * ```ts
 * import { WrapperWriteSchema } from 'adis-sdk';
 * WrapperWriteSchema.parse({
 *   name: 'Parks newsletter',
 *   wrapper_type: 'email',
 *   header: '<img src="https://parks.example.org/logo.png" alt="Parks">',
 *   footer: '<p>Springfield Parks Alliance · <a href="{unsubscribe_url}">Unsubscribe</a></p>',
 *   default: true,
 * });
 * ```
 */
export const WrapperWriteSchema = wrapperSchemas.write;

/**
 * Fields of a wrapper that a client may not set (dates, HAL members).
 *
 * @example
 * ```ts
 * WRAPPER_READ_ONLY_FIELDS.includes('modified_date'); // true
 * ```
 */
export const WRAPPER_READ_ONLY_FIELDS = wrapperSchemas.readOnly;

/** A wrapper read from a server. Derived from {@link WrapperSchema}. */
export type Wrapper = z.output<typeof WrapperSchema>;
/** The fields a client may send to create or update a wrapper. Derived from {@link WrapperWriteSchema}. */
export type WrapperInput = z.input<typeof WrapperWriteSchema>;

/**
 * A wrapper read from a server, with a method per link relation.
 *
 * @example
 * ```ts
 * const wrapper = await client.wrappers.get(url);
 * console.log(wrapper.data.default ? 'default wrapper' : wrapper.data.name);
 * ```
 */
export class WrapperResource extends Resource<Wrapper, WrapperInput> {
  /**
   * The person who created the wrapper (`std:creator`; set on create by sending that
   * link), if the server links one.
   *
   * @example
   * ```ts
   * const designer = await wrapper.creator();
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last modified the wrapper (`std:modified_by`), if the server says.
   *
   * @example
   * ```ts
   * const editor = await wrapper.modifiedBy();
   * console.log(editor?.primaryEmail);
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The taggings that tag the wrapper (`std:taggings`).
   *
   * @example
   * ```ts
   * for await (const tagging of wrapper.taggings()) console.log(tagging.url);
   * ```
   */
  taggings() {
    return this.linkedCollection(taggingKind, 'std:taggings');
  }
}

/**
 * The wrapper kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const wrappers = new Collection(context, locate, wrapperKind);
 * ```
 */
export const wrapperKind: ResourceKind<Wrapper, WrapperInput, WrapperResource> = {
  singular: 'wrapper',
  plural: 'wrappers',
  schema: WrapperSchema,
  writeSchema: WrapperWriteSchema,
  wrap: (context: NavigatorContext, document: HalDocument) =>
    new WrapperResource(context, document, wrapperKind),
};
