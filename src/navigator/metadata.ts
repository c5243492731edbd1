import * as z from 'zod/mini';
import {
  type HalDocument,
  type Link,
  templateVariableNames,
  withQueryParameter,
} from '../hal/index.js';
import type { CustomField } from '../presets/action-network/custom-field.js';
import { commonFields, optional } from '../schema/fields.js';
import type { CallOptions, NavigatorContext } from './context.js';

/** The metadata root's fields, read leniently (its links are read from the document). */
export const MetadataRootSchema = z.looseObject({
  name: optional(z.string()),
});

/** The metadata root's fields. Derived from {@link MetadataRootSchema}. */
export type MetadataRoot = z.output<typeof MetadataRootSchema>;

/**
 * The fields every metadata list carries. Read leniently like every resource: servers
 * in the wild omit the descriptive ones.
 */
const listFields = {
  ...commonFields('read'),
  origin_system: optional(z.string()),
  name: optional(z.string()),
  description: optional(z.string()),
};

/** One response code: the outcome a canvasser records (`not_home`, `refused`, …). */
export const CanvassResponseCodeSchema = z.looseObject({
  response_code: optional(z.string()),
  name: optional(z.string()),
});

/** One element of `response_codes`. Derived from {@link CanvassResponseCodeSchema}. */
export type CanvassResponseCode = z.output<typeof CanvassResponseCodeSchema>;

/** The canvass response code list (`std:canvass_response_codes`). */
export const CanvassResponseCodesSchema = z.looseObject({
  ...listFields,
  response_codes: optional(z.array(CanvassResponseCodeSchema)),
});

/** The canvass response code list. Derived from {@link CanvassResponseCodesSchema}. */
export type CanvassResponseCodes = z.output<typeof CanvassResponseCodesSchema>;

/** One contact type: how a canvasser reached a person (`door`, `phone`, …). */
export const CanvassContactTypeSchema = z.looseObject({
  contact_type: optional(z.string()),
  name: optional(z.string()),
});

/** One element of `contact_types`. Derived from {@link CanvassContactTypeSchema}. */
export type CanvassContactType = z.output<typeof CanvassContactTypeSchema>;

/** The canvass contact type list (`std:canvass_contact_types`). */
export const CanvassContactTypesSchema = z.looseObject({
  ...listFields,
  contact_types: optional(z.array(CanvassContactTypeSchema)),
});

/** The canvass contact type list. Derived from {@link CanvassContactTypesSchema}. */
export type CanvassContactTypes = z.output<typeof CanvassContactTypesSchema>;

/** One input type: how a canvass result got into the system (`mobile_app`, …). */
export const CanvassInputTypeSchema = z.looseObject({
  input_type: optional(z.string()),
  name: optional(z.string()),
});

/** One element of `input_types`. Derived from {@link CanvassInputTypeSchema}. */
export type CanvassInputType = z.output<typeof CanvassInputTypeSchema>;

/** The canvass input type list (`std:canvass_input_types`). */
export const CanvassInputTypesSchema = z.looseObject({
  ...listFields,
  input_types: optional(z.array(CanvassInputTypeSchema)),
});

/** The canvass input type list. Derived from {@link CanvassInputTypesSchema}. */
export type CanvassInputTypes = z.output<typeof CanvassInputTypesSchema>;

/** Options of {@link Metadata.responseCodes}. */
export interface ResponseCodesOptions extends CallOptions {
  /** Only the codes available for this contact type (a `contact_type` of the contact type list). */
  contactType?: string;
}

/** Action Network's relation and member of its custom field list (`metadata/custom_fields`). */
const CUSTOM_FIELDS = 'action_network:custom_fields';

/** The query parameter (or template variable) of the contact type filter, as the spec spells it. */
const CONTACT_TYPE_PARAMETER = 'contacttype';

/**
 * The metadata root (`std:metadata` of the entry point) and the lists it links to: the
 * canvass lists, and Action Network's custom fields. Every list is reached through the
 * root's links, never by building a path, so a server that puts its lists elsewhere
 * works unchanged.
 *
 * @example
 * ```ts
 * const metadata = await client.metadata();
 * const door = await metadata.responseCodes({ contactType: 'door' });
 * for (const code of door.response_codes ?? []) console.log(code.response_code, code.name);
 * ```
 */
export class Metadata {
  /** The metadata root document. */
  readonly root: HalDocument;
  /** The root's typed fields. */
  readonly data: MetadataRoot;
  readonly #context: NavigatorContext;

  /**
   * Wraps a metadata root document already read, parsing its fields (a
   * SchemaValidationError when validation is on and they do not match). Usually
   * {@link BaseClient.metadata} or {@link Metadata.load} reads the root and calls this.
   *
   * @param context - The connection's shared state: transport, curies, validation.
   * @param root - The metadata root document.
   *
   * @internal
   */
  constructor(context: NavigatorContext, root: HalDocument) {
    this.#context = context;
    this.root = root;
    this.data = context.parse(MetadataRootSchema, root.properties, root.url, 'std:metadata');
  }

  /**
   * Reads the metadata root at `url` (usually the href of the entry point's
   * `std:metadata`).
   *
   * @internal
   */
  static async load(
    context: NavigatorContext,
    url: string,
    options: CallOptions = {},
  ): Promise<Metadata> {
    return new Metadata(context, await context.get(url, options));
  }

  /** The root's URL. */
  get url(): string {
    return this.root.url;
  }

  /**
   * The response codes, all of them or those available for one contact type. The
   * filter goes into the link's template variable `contacttype` when the server
   * templates the link, else into the query parameter of that name.
   */
  async responseCodes(options: ResponseCodesOptions = {}): Promise<CanvassResponseCodes> {
    const { contactType, ...call } = options;
    const rel = 'std:canvass_response_codes';
    const url = filteredUrl(this.root.requireLink(rel), contactType);
    const document = await this.#context.get(url, call);
    return this.#context.parse(CanvassResponseCodesSchema, document.properties, url, rel);
  }

  /** The contact types. */
  async contactTypes(options: CallOptions = {}): Promise<CanvassContactTypes> {
    const rel = 'std:canvass_contact_types';
    const url = this.root.requireLink(rel).url();
    const document = await this.#context.get(url, options);
    return this.#context.parse(CanvassContactTypesSchema, document.properties, url, rel);
  }

  /** The input types. */
  async inputTypes(options: CallOptions = {}): Promise<CanvassInputTypes> {
    const rel = 'std:canvass_input_types';
    const url = this.root.requireLink(rel).url();
    const document = await this.#context.get(url, options);
    return this.#context.parse(CanvassInputTypesSchema, document.properties, url, rel);
  }

  /**
   * Action Network's custom fields: the document the root links as
   * `action_network:custom_fields`, which lists every custom field of the group in its
   * member of the same name. Each is read with the connection's kind named
   * `custom_field` (the `actionNetwork` preset gives it; a connection without it keeps
   * the members unchecked). A LinkNotFoundError when the root does not link the list,
   * a SchemaValidationError when the member is not an array of objects (validation on).
   *
   * @example
   * ```ts
   * import { actionNetwork, connect } from 'adis-sdk';
   *
   * const client = await connect('https://actionnetwork.org/api/v2/', {
   *   ...actionNetwork,
   *   apiKey: process.env.ACTION_NETWORK_KEY,
   * });
   * const fields = await (await client.metadata()).customFields();
   * fields.map((field) => field.name); // ['employer', 'volunteer', …]
   * ```
   */
  async customFields(options: CallOptions = {}): Promise<CustomField[]> {
    const rel = CUSTOM_FIELDS;
    const url = this.root.requireLink(rel).url();
    const document = await this.#context.get(url, options);
    const kind = this.#context.declaredKind('custom_field');
    // The list is required: a document without it is not the custom fields list, and
    // answering [] for it would be a silent zero (a SchemaValidationError instead).
    const list = this.#context.parse(
      z.looseObject({ [CUSTOM_FIELDS]: z.array(kind.schema) }),
      document.properties,
      url,
      rel,
    );
    return (list[CUSTOM_FIELDS] ?? []) as CustomField[];
  }
}

/**
 * The URL of the response code list for `contactType`. A templated link that declares
 * `contacttype` gets it as a variable; otherwise the parameter is set on the (expanded)
 * href: the spec defines the filter as this query parameter on the list's address.
 */
function filteredUrl(link: Link, contactType: string | undefined): string {
  if (contactType === undefined) return link.url();
  if (link.templated && templateVariableNames(link.href).includes(CONTACT_TYPE_PARAMETER)) {
    return link.url({ [CONTACT_TYPE_PARAMETER]: contactType });
  }
  return withQueryParameter(link.url(), CONTACT_TYPE_PARAMETER, contactType);
}
