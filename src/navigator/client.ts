import { InvalidLinkError, ResponseFormatError } from '../errors/index.js';
import { type Curies, HalDocument, unfetchableReason } from '../hal/index.js';
import type { HelperResult } from '../helpers/result.js';
import { jsonPreview } from '../http/json-body.js';
import { createTransport, type Transport, type TransportOptions } from '../http/transport.js';
import { type EntryPoint, EntryPointSchema, entryPointVersion } from '../schema/entry-point.js';
import type { PersonSignupInput } from '../schema/helper-bodies.js';
import { localId } from '../schema/identifiers.js';
import type { AnyKind } from '../schema/kind.js';
import { declaredPlurals, specPlurals } from '../schema/kind-names.js';
import { KINDS, type SpecKind } from '../schema/kinds/index.js';
import type { personKind } from '../schema/kinds/person.js';
import { BODY_PREVIEW_LENGTH } from '../wire/body-preview.js';
import { collectionRelation } from '../wire/collection-relation.js';
import { Collection } from './collection.js';
import { collectionRelations, hasCollection } from './collection-relation.js';
import { type CallOptions, NavigatorContext } from './context.js';
import { notAnEntryPoint } from './entry-point-check.js';
import { type HelperOptions, sendHelper } from './helper-call.js';
import { Metadata } from './metadata.js';
import type { FollowOptions } from './resource.js';
import { type Collections, collectionName, type ResourceOf } from './typed.js';

/**
 * Options of {@link connect}: the transport's (key, key header name, trusted origins,
 * retries, rate limit, timeout, custom fetch, hooks) plus navigation settings.
 *
 * @example
 * ```ts
 * import { connect } from 'adis-sdk';
 *
 * const client = await connect('https://api.example.org/api/v1/', {
 *   apiKey: process.env.ADIS_KEY,
 *   rateLimit: 4,
 *   retry: 5,
 * });
 * ```
 */
export interface ClientOptions extends TransportOptions {
  /**
   * The server's name for the specification's curie, when it is neither `std` nor the
   * only curie of the entry point. The SDK always names relations `std:…`.
   */
  curiePrefix?: string;
  /**
   * Check what is sent against the write schemas, and what is read against the read
   * schemas (which are lenient). Default true.
   */
  validate?: boolean;
  /**
   * The query parameter that `background: true` sets to `true` on a write or helper
   * call. Default `background_request`, as Action Network documents it (and the
   * reference server accepts); a {@link ServerPreset} names another for a server known
   * to spell it otherwise. The light entry (`adis-sdk/helpers`) always sends the default.
   */
  backgroundParameter?: string;
  /** A transport to use instead of one built from these options (tests, sharing). */
  transport?: Transport;
  /** Cancels or times out the entry point request. */
  signal?: AbortSignal;
  /**
   * Kinds the server has beside the specification's (a {@link ServerPreset} gives its
   * own, as `actionNetwork` gives event campaigns): {@link connect} reads their records
   * typed and adds a collection for each (`client.eventCampaigns`), linked under the
   * kind's `rel` or `std:<plural>` (see {@link linkedAs}). {@link connectWith} adds
   * them to the kinds of its first argument (collections at run time; its type names
   * the first argument's only).
   */
  kinds?: readonly AnyKind[];
}

/**
 * A connection to one server, made by {@link connect}: the entry point's fields, and
 * the collections and relations that start from it.
 *
 * @example
 * ```ts
 * import { connect } from 'adis-sdk';
 *
 * const client = await connect('http://127.0.0.1:8000/api/v1/', { apiKey: process.env.ADIS_KEY });
 * console.log(client.entryPoint.product_name);
 * for await (const person of client.people.items({ limit: 10 })) console.log(person.data.given_name);
 * ```
 */
export class BaseClient {
  /** The entry point's typed fields (motd, max_pagesize, namespace, …). */
  readonly entryPoint: EntryPoint;
  /** The entry point document. */
  readonly root: HalDocument;
  readonly #context: NavigatorContext;

  /**
   * Wraps an entry point document already read, parsing its fields (a
   * SchemaValidationError when validation is on and they do not match), and adds a
   * collection per kind the context holds (`client.people`, `client.fundraisingPages`).
   * Applications call {@link connect} or {@link connectWith}, which read the entry point,
   * set up the transport and the curies, and build the client with this.
   *
   * @param context - The connection's shared state: transport, curies, validation, kinds.
   * @param root - The entry point document.
   *
   * @internal
   */
  constructor(context: NavigatorContext, root: HalDocument) {
    this.#context = context;
    this.root = root;
    this.entryPoint = context.parse(EntryPointSchema, root.properties, root.url, 'entry point');
    // Collections are located lazily: a server that does not link one fails only when
    // it is used, with a LinkNotFoundError naming the relations it does link.
    for (const kind of context.kinds.values()) {
      if (!hasCollection(kind)) continue;
      Object.defineProperty(this, collectionName(kind.plural), {
        value: this.collection(kind),
        enumerable: true,
      });
    }
  }

  /**
   * The version of the specification the server says it implements, from its entry
   * point: `std_version`, or the field named after the server's curie prefix
   * (`osdi_version` on OSDI servers); undefined when it names none. See
   * {@link entryPointVersion} for the order they are read in.
   *
   * @example
   * ```ts
   * import { connect } from 'adis-sdk';
   *
   * const client = await connect('https://api.example.org/api/v1/', { apiKey: process.env.ADIS_KEY });
   * if (client.version !== undefined && !client.version.startsWith('1.')) {
   *   console.warn(`written for version 1 of the specification; the server implements ${client.version}`);
   * }
   * ```
   */
  get version(): string | undefined {
    return entryPointVersion(this.root.properties, this.#context.specPrefix);
  }

  /** The transport this client sends through. */
  get transport(): Transport {
    return this.#context.transport;
  }

  /** The curies in force for every document of this server. */
  get curies(): Curies {
    return this.#context.curies;
  }

  /**
   * The collection of a resource kind linked from the entry point as `std:<plural>`,
   * or under the kind's own `rel` first when it has one (see {@link linkedAs}). A
   * LinkNotFoundError, on first use, when the entry point links neither.
   */
  collection<K extends AnyKind>(kind: K): Collection<ResourceOf<K>> {
    const rels = collectionRelations(kind);
    return new Collection(
      this.#context,
      async () => {
        const rel = rels.find((candidate) => this.root.link(candidate)) ?? rels[0];
        return this.root.requireLink(rel ?? collectionRelation(kind.plural)).url();
      },
      kind,
    ) as unknown as Collection<ResourceOf<K>>;
  }

  /**
   * The id of a resource in this server's namespace: the id part of its identifier
   * `<namespace>:<id>`, where the namespace is the entry point's `namespace`.
   *
   * @example
   * ```ts
   * const person = await client.people.create({ given_name: 'Ana' });
   * client.localId(person); // '4c1e…'
   * ```
   */
  localId(resource: { readonly identifiers: readonly string[] }): string | undefined {
    const namespace = this.entryPoint.namespace;
    return namespace ? localId(resource.identifiers, namespace) : undefined;
  }

  /**
   * The metadata root (`std:metadata` of the entry point) and the canvass lists it
   * links to.
   *
   * @example
   * ```ts
   * const metadata = await client.metadata();
   * const door = await metadata.responseCodes({ contactType: 'door' });
   * ```
   */
  async metadata(options: CallOptions = {}): Promise<Metadata> {
    return Metadata.load(this.#context, this.root.requireLink('std:metadata').url(), options);
  }

  /**
   * Signs a person up through the entry point's `std:person_signup_helper` (a key is
   * needed): the person is created (status 201) or the matching one updated (200), and
   * the action functions (tags, lists, answers) are applied. The input is checked
   * first (a SchemaValidationError, no request). `record` and `person` are both the
   * person; `complete` is false, with the failed parts in `failures`, when an action
   * function failed while the person was written. An atomic error rejects with an
   * HTTPError.
   *
   * @example
   * ```ts
   * const { status, person, complete, failures } = await client.signup({
   *   person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org', primary: true }] },
   *   add_lists: ['Newsletter'],
   * });
   * console.log(status === 201 ? 'new' : 'known', person?.url, complete || failures);
   * ```
   */
  async signup(
    input: PersonSignupInput,
    options: HelperOptions = {},
  ): Promise<HelperResult<ResourceOf<typeof personKind>, ResourceOf<typeof personKind>>> {
    const rel = 'std:person_signup_helper';
    const url = this.root.requireLink(rel).url();
    // Loaded with the first call, as the other helpers' bodies are.
    const { PersonSignupBodySchema } = await import('../schema/helper-bodies.js');
    const person = this.#context.declaredKind('person');
    const result = await sendHelper(
      this.#context,
      { url, rel, schema: PersonSignupBodySchema, input, recordKind: person, personKind: person },
      options,
    );
    return result as HelperResult<ResourceOf<typeof personKind>, ResourceOf<typeof personKind>>;
  }

  /** Follows a relation of the entry point and returns the document it leads to. */
  async follow(rel: string, options: FollowOptions = {}): Promise<HalDocument> {
    const { variables, ...call } = options;
    return this.#context.get(this.root.requireLink(rel).url(variables), call);
  }

  /**
   * Reads any URL of the server as a HAL document, through the client's transport (the
   * key goes only to trusted origins).
   *
   * @example
   * ```ts
   * const person = await client.people.get('https://api.example.org/api/v1/people/1');
   * const signatures = await client.get(person.requireLink('std:signatures').url());
   * ```
   */
  get(url: string, options: CallOptions = {}): Promise<HalDocument> {
    return this.#context.get(url, options);
  }
}

/**
 * Picks the entry point's curie that stands for the specification: the one the caller
 * names, else `std` when it is declared, else the only curie there is, else the one
 * under which the entry point links `people`. Returns undefined when relations can only
 * be matched literally.
 *
 * A curie whose href names no relation (`Curies.problems`) is never guessed: only its
 * URI could say that `osdi:people` is the specification's people, and it has none. A
 * caller that knows the server (a preset's `curiePrefix`) may name it all the same, and
 * its relations are then matched by name; otherwise a missing link says what is wrong
 * with the curie (LinkNotFoundError's `curieProblems`).
 */
function specPrefixOf(curies: Curies, root: HalDocument, preferred?: string): string | undefined {
  const declared = curies.names();
  if (preferred !== undefined) return declared.includes(preferred) ? preferred : undefined;
  const broken = curies.problems().map((problem) => problem.name);
  const names = declared.filter((name) => !broken.includes(name));
  if (names.includes('std')) return 'std';
  if (names.length === 1) return names[0];
  return names.find((name) => root.relations().includes(`${name}:people`));
}

/**
 * A client of every kind of the specification, as {@link connect} returns it: a
 * {@link BaseClient} with a typed collection per kind (`client.people`,
 * `client.petitions`, `client.fundraisingPages`, …).
 *
 * @example
 * ```ts
 * import { type Client, connect } from 'adis-sdk';
 *
 * const client: Client = await connect('https://api.example.org/api/v1/');
 * for await (const petition of client.petitions) console.log(petition.data.title);
 * ```
 */
export type Client = BaseClient & Collections<SpecKind>;

/**
 * Connects to a server: reads its entry point and returns a client with a typed
 * collection per kind of the specification. The entry point's origin becomes trusted,
 * so the API key goes there and to `trustedOrigins` only, never to another origin that
 * a link points at. A bundle that needs a few kinds only is smaller with
 * {@link connectWith}.
 *
 * One request is made (a GET of the entry point, retried like any GET); the server's
 * curie for the specification is found in it, so that `std:…` names work on servers
 * that say `osdi:…` (see {@link ClientOptions.curiePrefix}).
 *
 * @param entryPointUrl - The API entry point, an absolute http(s) URL such as
 *   `https://api.example.org/api/v1/`. Every other address comes from its links.
 * @param options - The key and how to send it (`apiKey`, `apiKeyHeader`,
 *   `trustedOrigins`), how to behave on the network (`timeout`, `idleTimeout`, `retry`,
 *   `rateLimit`, `fetch`, `headers`, `hooks`, or a whole `transport`), and how to read
 *   the server (`curiePrefix`, `validate`, and `kinds`, the server's own kinds beside
 *   the specification's); `signal` cancels the entry point request.
 *   Every one is optional; {@link ClientOptions} gives the defaults. A
 *   {@link ServerPreset} such as {@link actionNetwork} fills in those a kind of server
 *   needs: spread it first, and your own options after it win.
 * @returns The client, once the entry point has been read: a collection per kind of
 *   the specification, and one per kind of `options.kinds` that has one
 *   (`client.eventCampaigns` with `actionNetwork`), typed when `kinds` is a tuple (a
 *   preset declared `as const`).
 * @throws {@link InvalidLinkError} when `entryPointUrl` is not an absolute http(s) URL
 *   (no request is made).
 * @throws RangeError when an option can never work (a `timeout` of 0, a negative or
 *   infinite `rateLimit`, a negative `maxRetryAfter`), before any request.
 * @throws {@link HTTPError} when the entry point answers an error status: 401 or 403
 *   for a missing or wrong key (or a key sent under another header than the server
 *   reads: see `apiKeyHeader`), 404 for a URL that is not the entry point.
 * @throws {@link RateLimitError} when the server asks to wait longer than
 *   `retry.maxRetryAfter` (default 60 s); `retryAfter` is the wait it asked for.
 * @throws {@link NetworkError} when the server cannot be reached (DNS, refused
 *   connection, reset), after the retries.
 * @throws {@link TimeoutError} when no attempt finished within `timeout`, or a body
 *   stalled longer than `idleTimeout`, after the retries.
 * @throws {@link RedirectError} when a redirect cannot be followed with the key (in a
 *   browser, or too many hops).
 * @throws {@link ResponseFormatError} when the URL answers 2xx with something other than
 *   an entry point: not JSON, JSON without `_links`, a collection page (records under
 *   `<prefix>:<plural>`, or paging members), a record (`identifiers`, or a `self` such
 *   as `…/people/<id>`), or a document that links none of the collections an entry
 *   point links. Its `reason` says which it was and, when it can tell, where the entry
 *   point likely is.
 * @throws {@link SchemaValidationError} when the entry point's fields are not of their
 *   types (`max_pagesize: "many"`) and `validate` is on (the default).
 * @throws The signal's reason, as it is, when `signal` aborts first.
 *
 * @example
 * ```ts
 * import { connect, isHTTPError, isNetworkError } from 'adis-sdk';
 *
 * try {
 *   const client = await connect('https://api.example.org/api/v1/', {
 *     apiKey: process.env.ADIS_KEY,
 *     rateLimit: 4, // request starts a second, retries included
 *     retry: { limit: 5, maxRetryAfter: 60_000 },
 *     signal: AbortSignal.timeout(30_000),
 *   });
 *   console.log(client.entryPoint.motd, client.version);
 *   for await (const person of client.people.items({ limit: 10 })) {
 *     console.log(person.data.given_name, person.data.family_name);
 *   }
 * } catch (error) {
 *   if (isHTTPError(error) && error.status === 401) console.error('check ADIS_KEY');
 *   else if (isNetworkError(error)) console.error(`cannot reach ${error.url}`);
 *   else throw error;
 * }
 * ```
 *
 * @example
 * With a server preset (Action Network: its key header, its `osdi` prefix, a rate
 * under its limit of 4 requests a second):
 * ```ts
 * import { actionNetwork, connect } from 'adis-sdk';
 *
 * const client = await connect('https://actionnetwork.org/api/v2/', {
 *   ...actionNetwork,
 *   apiKey: process.env.ACTION_NETWORK_KEY,
 * });
 * const [petition] = await client.petitions.toArray({ limit: 1 });
 * for await (const campaign of client.eventCampaigns) console.log(campaign.data.title);
 * ```
 */
export function connect<const K extends readonly AnyKind[] = []>(
  entryPointUrl: string,
  options: ClientOptions & { kinds?: K } = {},
): Promise<Client & Collections<CollectionKinds<K[number]>>> {
  const { kinds = [], ...rest } = options;
  // The server's kinds after the specification's: one of the same name replaces it.
  return connectWith([...KINDS, ...kinds], entryPointUrl, rest) as Promise<
    Client & Collections<CollectionKinds<K[number]>>
  >;
}

/**
 * Of the kinds `K`, those a client gets a typed collection for: all but the kinds whose
 * `rel` is null (reached through a relation or the metadata root, such as an embed),
 * and but a kind whose plural is only known as `string` (options typed
 * `ClientOptions`, not a tuple): its collection is there at run time, not in the type.
 *
 * @example
 * ```ts
 * import type { CollectionKinds, embedKind, eventCampaignKind } from 'adis-sdk';
 *
 * type Listed = CollectionKinds<typeof eventCampaignKind | typeof embedKind>; // the event campaign
 * ```
 */
export type CollectionKinds<K extends AnyKind> = K extends { readonly rel: null }
  ? never
  : string extends K['plural']
    ? never
    : K;

/**
 * Connects like {@link connect} with only the kinds given: the client has a collection
 * for each of them, and a bundle carries only their schemas. Records of other kinds
 * met through a relation (a person's signatures, when `signatureKind` is not given) are
 * read as plain JSON objects, without their schema: give every kind you follow.
 *
 * @example
 * ```ts
 * import { connectWith, personKind } from 'adis-sdk';
 *
 * const client = await connectWith([personKind], 'http://127.0.0.1:8000/api/v1/', {
 *   apiKey: process.env.ADIS_KEY,
 * });
 * for await (const person of client.people) console.log(person.data.given_name);
 * ```
 */
export async function connectWith<const K extends readonly AnyKind[]>(
  kinds: K,
  entryPointUrl: string,
  options: ClientOptions = {},
): Promise<BaseClient & Collections<K[number]>> {
  const problem = unfetchableReason(entryPointUrl);
  if (problem !== undefined) {
    throw new InvalidLinkError({
      rel: undefined,
      href: entryPointUrl,
      documentUrl: undefined,
      reason: problem,
    });
  }
  const url = new URL(entryPointUrl);
  const {
    curiePrefix,
    validate = true,
    backgroundParameter,
    transport: given,
    signal,
    // A preset's kinds spread into the options count too: never dropped in silence.
    kinds: optionKinds = [],
    ...transportOptions
  } = options;
  const allKinds = [...kinds, ...optionKinds];
  const transport = given ?? createTransport(transportOptions);
  transport.trustOrigin(url.origin);
  const response = await transport.request({
    method: 'GET',
    url: url.toString(),
    ...(signal ? { signal } : {}),
  });
  const probe = HalDocument.parse(response.body, url.toString());
  // Kinds without a collection (Action Network's custom fields) are not what an entry
  // point links: its metadata document links them.
  const ownPlurals = allKinds.filter(hasCollection).map((kind) => kind.plural);
  const notEntryPoint =
    typeof response.body !== 'object' || response.body === null || probe.relations().length === 0
      ? 'a HAL document with _links was expected'
      : // A collection page or a record has _links too: paging `std:people` inside it
        // would answer no people, so what is not an entry point is refused, saying what it is.
        notAnEntryPoint(
          probe,
          new Set([...declaredPlurals(), ...ownPlurals]),
          new Set([...specPlurals(), ...ownPlurals]),
        );
  if (notEntryPoint !== undefined) {
    throw new ResponseFormatError({
      method: 'GET',
      url: url.toString(),
      status: response.status,
      contentType: response.headers.get('content-type'),
      bodyText: jsonPreview(response.body ?? null, BODY_PREVIEW_LENGTH),
      reason: `not an entry point: ${notEntryPoint}`,
    });
  }
  const prefix = specPrefixOf(probe.curies, probe, curiePrefix);
  // The SDK names the specification's relations `std:…`; alias `std` to the server's
  // own prefix so that those names resolve against its curie.
  const curies = prefix === undefined ? probe.curies : probe.curies.withAlias('std', prefix);
  const context = new NavigatorContext(
    transport,
    curies,
    validate,
    prefix ?? 'std',
    allKinds,
    backgroundParameter,
  );
  const client = new BaseClient(context, HalDocument.parse(response.body, url.toString(), curies));
  return client as BaseClient & Collections<K[number]>;
}
