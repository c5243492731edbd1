import type * as z from 'zod/mini';
import { LinkNotFoundError } from '../errors/link-not-found-error.js';
import type { HalDocument, Link, TemplateVariables } from '../hal/index.js';
import type { HelperResult } from '../helpers/result.js';
import type {
  AnyKind,
  AnyOfRelation,
  Helper,
  ManyRelation,
  OneRelation,
  Relation,
} from '../schema/kind.js';
import { collectionRelation } from '../wire/collection-relation.js';
import { Collection } from './collection.js';
import type { CallOptions, NavigatorContext } from './context.js';
import { type HelperOptions, type NoticeHelperOptions, sendHelper } from './helper-call.js';
import type { ResourceOf } from './typed.js';
import {
  type BackgroundWriteResult,
  type DeleteOptions,
  outgoingBody,
  type WriteOptions,
  writeResult,
} from './write.js';

/**
 * Options for following a link.
 *
 * @example
 * ```ts
 * const page = await client.follow('std:people', { variables: { page: 2 } });
 * ```
 */
export interface FollowOptions extends CallOptions {
  /** Values for a templated href. */
  variables?: TemplateVariables;
}

/**
 * A resource read from a server: its typed fields in `data`, its links, and the calls
 * that act on it. A resource of a declared kind also has a method per relation and per
 * helper of its kind (see {@link ResourceOf}), derived from the kind's declaration.
 *
 * The record's members are on `.data`, not on the resource: `person.data.given_name`,
 * not `person.given_name` ("Property 'given_name' does not exist on type
 * 'PersonResource'" means this).
 *
 * @example
 * ```ts
 * const person = await client.people.get('https://api.example.org/api/v1/people/1');
 * console.log(person.data.given_name, person.url);
 * const updated = await person.update({ family_name: 'Lopez' });
 * ```
 */
export class Resource<T extends object, I = T> {
  /** The HAL document the resource was read from. */
  readonly document: HalDocument;
  /**
   * The connection the resource was read through: its transport, curies and validation.
   *
   * @internal
   */
  protected readonly context: NavigatorContext;
  /** The resource's kind: its names, schemas, relations and helpers. */
  readonly kind: AnyKind;

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
   * @param address - Where the server said the record is, when the document is the
   *   whole answer about it: the URL a GET of it answered, or the `Location` of its
   *   create. Never a container's URL (a page, another record, a helper). Its `self`
   *   link, when it has one, wins.
   *
   * @internal
   */
  constructor(context: NavigatorContext, document: HalDocument, kind: AnyKind, address?: string) {
    this.context = context;
    this.document = document;
    this.kind = kind;
    this.#address = address;
    // With validation on, a record that does not fit fails where it is read. With it
    // off nothing can fail, so `data` is worked out when first asked for: a caller that
    // reads only `url` or `document` (the export command) never pays for it.
    if (context.validate) this.#data = this.#parse();
  }

  #data: T | undefined;
  readonly #address: string | undefined;

  #parse(): T {
    return this.context.parse(
      this.kind.schema,
      this.document.properties,
      () => this.document.url,
      `std:${this.kind.singular}`,
    );
  }

  /** The typed fields of the resource. */
  get data(): T {
    if (this.#data === undefined) this.#data = this.#parse();
    return this.#data;
  }

  /**
   * The resource's address: its `self` link; for a record without one, the address the
   * server gave for it as a whole answer (the URL a GET of the record answered, the
   * `Location` of its create). A record without either (one embedded in a page or in
   * another record without `self`) has none: reading `url` is then a LinkNotFoundError
   * naming `self`, and so is every call that needs it (`update`, `delete`, `refresh`,
   * `linkTo`), never a request to the page's URL. {@link Resource.urlOrUndefined}
   * answers undefined instead.
   */
  get url(): string {
    const url = this.urlOrUndefined;
    if (url === undefined) {
      throw new LinkNotFoundError('self', this.document.url, this.document.relations());
    }
    return url;
  }

  /**
   * The resource's address as {@link Resource.url} gives it, or undefined when it has
   * none (a record embedded without a `self` link): for code that can do without one,
   * such as a report or an export.
   */
  get urlOrUndefined(): string | undefined {
    return this.document.selfUrl ?? this.#address;
  }

  /** The identifiers of the resource (`<system>:<id>`), or an empty list. */
  get identifiers(): string[] {
    const value = (this.data as { identifiers?: unknown }).identifiers;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  }

  /** The first link of a relation, or undefined. */
  link(rel: string): Link | undefined {
    return this.document.link(rel);
  }

  /** All links of a relation. */
  links(rel: string): Link[] {
    return this.document.links(rel);
  }

  /**
   * Follows a relation to the resource it points at. An embedded copy is used when the
   * document carries one, so no request is made.
   */
  async follow(rel: string, options: FollowOptions = {}): Promise<HalDocument> {
    const [embedded] = this.document.embedded(rel);
    if (embedded) return embedded;
    const { variables, ...call } = options;
    return this.context.get(this.requireLink(rel).url(variables), call);
  }

  /** Reads the resource again from its URL. */
  async refresh(options: CallOptions = {}): Promise<this> {
    const url = this.url;
    const document = await this.context.getRecord(url, options);
    return this.context.wrap(this.kind, document, url) as unknown as this;
  }

  /**
   * Updates the resource with PUT. Send only the fields to change: fields left out are
   * untouched, `null` clears a field, and an array replaces the whole array.
   * Returns the updated resource, or undefined when `returnResponse` is false. With
   * `background: true`, resolves with a {@link BackgroundWriteResult}: an answer
   * without a record is `accepted`, never read as the record. A resource without an
   * address (see {@link Resource.url}) is a LinkNotFoundError before any request.
   *
   * @example
   * ```ts
   * const person = await client.people.get('https://api.example.org/api/v1/people/1');
   * const updated = await person.update({ family_name: 'Lopez', honorific_prefix: null });
   * await person.update({ given_name: 'Ana' }, { returnResponse: false });
   * const later = await person.update({ given_name: 'Ana' }, { background: true });
   * if (later.accepted) console.log('queued');
   * ```
   */
  async update(
    changes: I,
    options: WriteOptions & { background: true },
  ): Promise<BackgroundWriteResult<this>>;
  async update(
    changes: I,
    options?: WriteOptions & { returnResponse?: true; background?: false },
  ): Promise<this>;
  async update(
    changes: I,
    options: WriteOptions & { returnResponse: false; background?: false },
  ): Promise<undefined>;
  // Options not known to the compiler (a flag forwarded by a wrapper): any of the answers.
  async update(
    changes: I,
    options?: WriteOptions,
  ): Promise<this | BackgroundWriteResult<this> | undefined>;
  async update(
    changes: I,
    options: WriteOptions = {},
  ): Promise<this | undefined | BackgroundWriteResult<this>> {
    const { returnResponse, background, ...call } = options;
    const url = this.url;
    // parse() returns the input unchanged when validation is off.
    const body = this.context.parse(
      this.kind.writeSchema,
      changes,
      url,
      `std:${this.kind.singular}`,
      'write',
    );
    const result = await this.context.send(
      'PUT',
      this.context.writeUrl(url, background),
      outgoingBody(this.context, body, returnResponse, this.kind.readOnly),
      call,
    );
    if (background) {
      return writeResult(result, (document) => this.#rewrap(document, url));
    }
    if (returnResponse === false) return undefined;
    // Some servers answer an update with an empty body; read the resource again then.
    if (!result.document || result.document.relations().length === 0) return this.refresh(call);
    return this.#rewrap(result.document, url);
  }

  /** The record as the answer to a write at its address tells it. */
  #rewrap(document: HalDocument, url: string): this {
    return this.context.wrap(this.kind, document, url) as unknown as this;
  }

  /**
   * Deletes the resource. `background: true` asks the server to delete it later. A
   * resource without an address (see {@link Resource.url}) is a LinkNotFoundError
   * before any request.
   *
   * @example
   * ```ts
   * const person = await client.people.get('https://api.example.org/api/v1/people/1');
   * await person.delete();
   * await person.delete({ background: true }); // DELETE …?background_request=true
   * ```
   */
  async delete(options: DeleteOptions = {}): Promise<void> {
    const { background, ...call } = options;
    const url = this.url;
    await this.context.send('DELETE', this.context.writeUrl(url, background), undefined, call);
  }

  /**
   * The record a one-relation points at (a signature's `std:person`), wrapped as its
   * kind. An embedded copy is used when present; otherwise one GET. Undefined when the
   * relation is optional and the record neither links nor embeds it; a
   * LinkNotFoundError when it is required and missing.
   *
   * @example
   * ```ts
   * import { signatureKind } from 'adis-sdk';
   *
   * const signature = await client.signatures.get('https://api.example.org/api/v1/signatures/1');
   * const signer = await signature.related(signatureKind.relations.person);
   * ```
   */
  async related(
    relation: OneRelation,
    options: CallOptions = {},
  ): Promise<Resource<object> | undefined> {
    const kind = this.context.declaredKind(relation.kind, this.#naming(relation.rel));
    const [embedded] = this.document.embedded(relation.rel);
    if (embedded) return this.context.wrap(kind, embedded);
    if (!relation.required && !this.document.link(relation.rel)) return undefined;
    const url = this.requireLink(relation.rel).url();
    return this.context.wrap(kind, await this.context.getRecord(url, options), url);
  }

  /**
   * The collection a many-relation leads to (a petition's `std:signatures`), of its
   * kind. When the resource embeds the collection's first page, paging starts from it
   * without a request.
   *
   * @example
   * ```ts
   * import { petitionKind } from 'adis-sdk';
   *
   * const petition = await client.petitions.get('https://api.example.org/api/v1/petitions/1');
   * const signatures = petition.collection(petitionKind.relations.signatures);
   * ```
   */
  collection(relation: ManyRelation): Collection<Resource<object>> {
    const kind = this.context.declaredKind(relation.kind, this.#naming(relation.rel));
    const rels = [relation.rel, ...relation.alternatives];
    const present = rels.find((r) => this.document.link(r)) ?? relation.rel;
    const [embedded] = this.document.embedded(present);
    const itemRel = collectionRelation(kind.plural);
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
   * Calls a helper of the record: a record helper (a petition's
   * `std:record_signature_helper`) checks `input` with its body schema (a
   * SchemaValidationError before any request), POSTs it, and wraps the record and the
   * person that come back; a notice helper (a message's `std:send_helper`) answers with
   * the server's notice. Rejects with a LinkNotFoundError when the record does not link
   * the helper.
   *
   * @example
   * ```ts
   * import { petitionKind } from 'adis-sdk';
   *
   * const petition = await client.petitions.get('https://api.example.org/api/v1/petitions/1');
   * const result = await petition.callHelper(petitionKind.helpers.recordSignature, {
   *   person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
   * });
   * ```
   */
  async callHelper(
    helper: Helper,
    input: unknown,
    options: HelperOptions = {},
  ): Promise<HelperResult<Resource<object>, Resource<object>> | { notice?: string }> {
    const url = this.requireLink(helper.rel).url();
    // The bodies are loaded with the first helper call: code that never calls a helper
    // does not carry them.
    const { HELPER_BODIES } = await import('../schema/helper-bodies.js');
    const bodies: Readonly<Record<string, z.ZodMiniType>> = HELPER_BODIES;
    const schema = helper.body === undefined ? undefined : bodies[helper.body];
    if (helper.type === 'record') {
      if (!schema)
        throw new TypeError(`${this.kind.singular}: no helper body named ${helper.body}`);
      return sendHelper(
        this.context,
        {
          url,
          rel: helper.rel,
          schema,
          input,
          recordKind: this.context.declaredKind(helper.record, this.#naming(helper.rel)),
          personKind: this.context.declaredKind('person', this.#naming(helper.rel)),
        },
        options,
      );
    }
    const body = schema && this.context.parse(schema, input, url, helper.rel, 'write');
    const { document } = await this.context.send(helper.method, url, body, options);
    const notice = document?.properties.notice;
    return typeof notice === 'string' ? { notice } : {};
  }

  /**
   * The first of several one-relations that the record links or embeds (a tagging's
   * target), or undefined. Absent relations cost no request.
   *
   * @example
   * ```ts
   * import { taggingKind } from 'adis-sdk';
   *
   * const tagging = await client.taggings.get('https://api.example.org/api/v1/taggings/1');
   * const tagged = await tagging.firstRelated(taggingKind.relations.target);
   * ```
   */
  async firstRelated(relation: AnyOfRelation, options: CallOptions = {}) {
    for (const name of relation.of) {
      const one = this.kind.relations[name];
      if (one?.type !== 'one') continue;
      if (!this.document.link(one.rel) && !this.document.hasEmbedded(one.rel)) continue;
      return this.related({ ...one, required: true }, options);
    }
    return undefined;
  }

  /** The link of a relation, or a LinkNotFoundError naming the relations present. */
  requireLink(rel: string): Link {
    return this.document.requireLink(rel, this.urlOrUndefined ?? this.document.url);
  }

  /** What names a kind from this record, for an UnknownKindError: `petition's std:reviews`. */
  #naming(rel: string): string {
    return `${this.kind.singular}'s ${rel}`;
  }
}

/** A resource class derived from a kind: {@link Resource} plus a method per relation and helper. */
export type DerivedClass = new (
  context: NavigatorContext,
  document: HalDocument,
  kind: AnyKind,
  address?: string,
) => Resource<object>;

const derivedClasses = new WeakMap<AnyKind, DerivedClass>();

/**
 * The class of a kind's resources: {@link Resource} with a method per relation and per
 * helper the kind declares, made once per kind. The methods are plain data lookups: a
 * relation's method calls {@link Resource.related}, {@link Resource.collection} or
 * {@link Resource.firstRelated}; a helper's calls {@link Resource.callHelper}.
 */
export function resourceClass(kind: AnyKind): DerivedClass {
  let derived = derivedClasses.get(kind);
  if (derived) return derived;
  derived = class extends Resource<object> {};
  const methods: Record<string, (this: Resource<object>, ...args: never[]) => unknown> = {};
  for (const [name, relation] of Object.entries(kind.relations) as [string, Relation][]) {
    methods[name] =
      relation.type === 'one'
        ? function (options?: CallOptions) {
            return this.related(relation, options);
          }
        : relation.type === 'many'
          ? function () {
              return this.collection(relation);
            }
          : function (options?: CallOptions) {
              return this.firstRelated(relation, options);
            };
  }
  for (const [name, helper] of Object.entries(kind.helpers) as [string, Helper][]) {
    methods[name] =
      helper.type === 'notice' && helper.body === undefined
        ? function (options?: NoticeHelperOptions) {
            return this.callHelper(helper, undefined, options);
          }
        : function (input: unknown, options?: HelperOptions) {
            return this.callHelper(helper, input, options);
          };
  }
  for (const [name, method] of Object.entries(methods)) {
    Object.defineProperty(derived.prototype, name, {
      value: method,
      writable: true,
      configurable: true,
    });
  }
  derivedClasses.set(kind, derived);
  return derived;
}

/**
 * Whether `value` is a resource of `kind` (what `instanceof PetitionResource` was before
 * the resource classes were derived from the kinds).
 *
 * @example
 * ```ts
 * import { isResourceOf, personKind, primaryEmail, taggingKind } from 'adis-sdk';
 *
 * const tagging = await client.taggings.get('https://api.example.org/api/v1/taggings/1');
 * const target = await tagging.firstRelated(taggingKind.relations.target);
 * if (isResourceOf(target, personKind)) console.log(primaryEmail(target.data));
 * ```
 */
export function isResourceOf<K extends AnyKind>(value: unknown, kind: K): value is ResourceOf<K> {
  return value instanceof Resource && value.kind === kind;
}
