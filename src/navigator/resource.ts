import type { z } from 'zod/mini';
import { LinkNotFoundError } from '../errors/index.js';
import type { HalDocument, Link, TemplateVariables } from '../hal/index.js';
import { type HelperOptions, sendHelper, type WrappingKind } from '../helpers/navigator.js';
import type { HelperResult } from '../helpers/result.js';
import { Collection } from './collection.js';
import type { CallOptions, NavigatorContext } from './context.js';
import type { ResourceKind } from './kind.js';
import { outgoingBody, type WriteOptions } from './write.js';

/**
 * Options for following a link.
 *
 * @example
 * ```ts
 * await resource.follow('std:people', { variables: { page: 2 } });
 * ```
 */
export interface FollowOptions extends CallOptions {
  /** Values for a templated href. */
  variables?: TemplateVariables;
}

/**
 * A resource read from a server: its typed fields in `data`, its links, and the calls
 * that act on it. Subclasses add a method per link relation of their kind.
 *
 * @example
 * ```ts
 * const person = await client.people.get(url);
 * console.log(person.data.given_name, person.url);
 * const updated = await person.update({ family_name: 'Lopez' });
 * ```
 */
export class Resource<T extends object, I = T> {
  /** The typed fields of the resource. */
  readonly data: T;
  /** The HAL document the resource was read from. */
  readonly document: HalDocument;
  /** The connection the resource was read through: its transport, curies and validation. */
  protected readonly context: NavigatorContext;
  /** The resource's kind: its relation names, schemas and wrapper. */
  protected readonly kind: ResourceKind<T, I, Resource<T, I>>;

  /**
   * Wraps a document read from the server, parsing its members with the kind's read
   * schema (a SchemaValidationError when validation is on and they do not match).
   * Applications do not call this: {@link Collection.get}, {@link Collection.create},
   * {@link Resource.follow} and the other methods return resources already wrapped, and
   * a kind's `wrap` function calls it for them.
   *
   * @param context - The connection's shared state, as a kind's `wrap` receives it.
   * @param document - The HAL document to wrap.
   * @param kind - The kind of resource the document is.
   *
   * @example
   * ```ts
   * const kind: ResourceKind<Person, PersonInput, PersonResource> = {
   *   ...personKind,
   *   wrap: (context, document) => new PersonResource(context, document, kind),
   * };
   * ```
   */
  constructor(
    context: NavigatorContext,
    document: HalDocument,
    kind: ResourceKind<T, I, Resource<T, I>>,
  ) {
    this.context = context;
    this.document = document;
    this.kind = kind;
    this.data = context.parse(
      kind.schema,
      document.properties,
      document.url,
      `std:${kind.singular}`,
    );
  }

  /**
   * The resource's canonical URL: its `self` link, else the URL it was read from.
   *
   * @example
   * ```ts
   * person.url; // 'https://api.example.org/api/v1/people/4c1e…'
   * ```
   */
  get url(): string {
    return this.document.selfUrl ?? this.document.url;
  }

  /**
   * The identifiers of the resource (`<system>:<id>`), or an empty list.
   *
   * @example
   * ```ts
   * person.identifiers; // ['adis:4c1e…', 'crm:881']
   * ```
   */
  get identifiers(): string[] {
    const value = (this.data as { identifiers?: unknown }).identifiers;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  }

  /**
   * The first link of a relation, or undefined.
   *
   * @example
   * ```ts
   * person.link('std:signatures')?.url();
   * ```
   */
  link(rel: string): Link | undefined {
    return this.document.link(rel);
  }

  /**
   * All links of a relation.
   *
   * @example
   * ```ts
   * person.links('std:taggings').length;
   * ```
   */
  links(rel: string): Link[] {
    return this.document.links(rel);
  }

  /**
   * Follows a relation to the resource it points at. An embedded copy is used when the
   * document carries one, so no request is made.
   *
   * @example
   * ```ts
   * const petition = await signature.follow('std:petition');
   * ```
   */
  async follow(rel: string, options: FollowOptions = {}): Promise<HalDocument> {
    const [embedded] = this.document.embedded(rel);
    if (embedded) return embedded;
    const { variables, ...call } = options;
    return this.context.get(this.requireLink(rel).url(variables), call);
  }

  /**
   * Reads the resource again from its URL.
   *
   * @example
   * ```ts
   * const fresh = await person.refresh();
   * ```
   */
  async refresh(options: CallOptions = {}): Promise<this> {
    const document = await this.context.getRecord(this.url, options);
    return this.kind.wrap(this.context, document) as this;
  }

  /**
   * Updates the resource with PUT. Send only the fields to change: fields left out are
   * untouched, `null` clears a field, and an array replaces the whole array.
   * Returns the updated resource, or undefined when `returnResponse` is false.
   *
   * @example
   * ```ts
   * const updated = await person.update({ family_name: 'Lopez', honorific_prefix: null });
   * await person.update({ given_name: 'Ana' }, { returnResponse: false });
   * ```
   */
  async update(changes: I, options?: WriteOptions & { returnResponse?: true }): Promise<this>;
  async update(changes: I, options: WriteOptions & { returnResponse: false }): Promise<undefined>;
  async update(changes: I, options: WriteOptions = {}): Promise<this | undefined> {
    const { returnResponse, ...call } = options;
    // parse() returns the input unchanged when validation is off.
    const body = this.context.parse(
      this.kind.writeSchema,
      changes,
      this.url,
      `std:${this.kind.singular}`,
    );
    const result = await this.context.send(
      'PUT',
      this.url,
      outgoingBody(this.context, body, returnResponse),
      call,
    );
    if (returnResponse === false) return undefined;
    // Some servers answer an update with an empty body; read the resource again then.
    if (!result.document || result.document.relations().length === 0) return this.refresh(call);
    return this.kind.wrap(this.context, result.document) as this;
  }

  /**
   * Deletes the resource.
   *
   * @example
   * ```ts
   * await person.delete();
   * ```
   */
  async delete(options: CallOptions = {}): Promise<void> {
    await this.context.send('DELETE', this.url, undefined, options);
  }

  /**
   * The resource a single-valued relation points at (a signature's `std:person`),
   * typed by `kind`. An embedded copy is used when present; otherwise one GET.
   * Throws a LinkNotFoundError when the resource has no such link.
   *
   * @example
   * ```ts
   * class SignatureResource extends Resource<Signature, SignatureInput> {
   *   person(options?: CallOptions) { return this.linkedResource(personKind, 'std:person', options); }
   * }
   * ```
   */
  protected async linkedResource<T2 extends object, I2, W2 extends Resource<T2, I2>>(
    kind: ResourceKind<T2, I2, W2>,
    rel: string,
    options: CallOptions = {},
  ): Promise<W2> {
    const [embedded] = this.document.embedded(rel);
    if (embedded) return kind.wrap(this.context, embedded);
    return kind.wrap(
      this.context,
      await this.context.getRecord(this.requireLink(rel).url(), options),
    );
  }

  /**
   * Like {@link Resource.linkedResource} for an optional relation (a petition's
   * `std:sponsor`): undefined when the resource neither links nor embeds it.
   *
   * @example
   * ```ts
   * const sponsor = await petition.sponsor(); // OrganizationResource | undefined
   * ```
   */
  protected async optionalLinkedResource<T2 extends object, I2, W2 extends Resource<T2, I2>>(
    kind: ResourceKind<T2, I2, W2>,
    rel: string,
    options: CallOptions = {},
  ): Promise<W2 | undefined> {
    if (!this.document.link(rel) && !this.document.hasEmbedded(rel)) return undefined;
    return this.linkedResource(kind, rel, options);
  }

  /**
   * The collection a relation of this resource leads to (a petition's
   * `std:signatures`), typed by `kind`. When the resource embeds the collection's
   * first page, paging starts from it without a request. `alternatives` are other
   * spellings of the relation that servers use (`std:attendance`).
   *
   * @example
   * ```ts
   * class PetitionResource extends Resource<Petition, PetitionInput> {
   *   signatures() { return this.linkedCollection(signatureKind, 'std:signatures'); }
   * }
   * ```
   */
  protected linkedCollection<T2 extends object, I2, W2 extends Resource<T2, I2>>(
    kind: ResourceKind<T2, I2, W2>,
    rel: string,
    ...alternatives: string[]
  ): Collection<T2, I2, W2> {
    const rels = [rel, ...alternatives];
    const present = rels.find((r) => this.document.link(r)) ?? rel;
    const [embedded] = this.document.embedded(present);
    const itemRel = `std:${kind.plural}`;
    // An embedded collection document (with records or record links of its own) is the
    // first page; anything else embedded under the relation is not used for paging.
    const firstPage =
      embedded &&
      (embedded.hasEmbedded(itemRel) || embedded.links(itemRel).length > 0 || embedded.link('next'))
        ? embedded
        : undefined;
    // The link is the collection's address (for `url()`, `filter()` and `create()`);
    // only without one does the embedded page's own URL stand in for it.
    const link = this.document.link(present);
    return new Collection(
      this.context,
      async () => (link ? link.url() : (firstPage?.selfUrl ?? this.requireLink(present).url())),
      kind,
      firstPage,
    );
  }

  /**
   * Calls one of this resource's helpers (a petition's `std:record_signature_helper`):
   * checks `input` with the helper's body `schema` (a SchemaValidationError before any
   * request), POSTs it to the link's href, and wraps the main record and the person
   * that come back in their `kinds`. A non-atomic answer resolves with `complete:
   * false`; an atomic error rejects with an HTTPError. Rejects with a
   * LinkNotFoundError when the resource does not link the helper.
   *
   * @example
   * ```ts
   * class PetitionResource extends Resource<Petition, PetitionInput> {
   *   recordSignature(input: RecordSignatureInput, options?: HelperOptions) {
   *     return this.callHelper('std:record_signature_helper', RecordSignatureBodySchema, input,
   *       { record: signatureKind, person: personKind }, options);
   *   }
   * }
   * ```
   */
  protected async callHelper<B, W, PW>(
    rel: string,
    schema: z.ZodMiniType<unknown, B>,
    input: B,
    kinds: { record: WrappingKind<W>; person: WrappingKind<PW> },
    options: HelperOptions = {},
  ): Promise<HelperResult<W, PW>> {
    const url = this.requireLink(rel).url();
    return sendHelper(
      this.context,
      { url, rel, schema, input, recordKind: kinds.record, personKind: kinds.person },
      options,
    );
  }

  /**
   * The link of a relation, or a LinkNotFoundError naming the relations present.
   *
   * @example
   * ```ts
   * class PetitionResource extends Resource<Petition, PetitionInput> {
   *   signaturesUrl() { return this.requireLink('std:signatures').url(); }
   * }
   * ```
   */
  protected requireLink(rel: string): Link {
    const link = this.document.link(rel);
    if (!link) throw new LinkNotFoundError(rel, this.url, this.document.relations());
    return link;
  }
}
