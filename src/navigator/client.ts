import { LinkNotFoundError, ResponseFormatError } from '../errors/index.js';
import { type Curies, HalDocument } from '../hal/index.js';
import { createTransport, type Transport, type TransportOptions } from '../http/transport.js';
import { type EntryPoint, EntryPointSchema } from '../resources/entry-point.js';
import type { Person, PersonInput } from '../resources/person.js';
import { type PersonResource, personKind } from '../resources/person-resource.js';
import { Collection } from './collection.js';
import { type CallOptions, NavigatorContext } from './context.js';
import type { ResourceKind } from './kind.js';
import type { FollowOptions, Resource } from './resource.js';

/**
 * Options of {@link connect}: the transport's (key, key header name, trusted origins,
 * retries, rate limit, timeout, custom fetch, hooks) plus navigation settings.
 *
 * @example
 * ```ts
 * const client = await connect(url, { apiKey, rateLimit: 4, retry: 5 });
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
  /** A transport to use instead of one built from these options (tests, sharing). */
  transport?: Transport;
  /** Cancels or times out the entry point request. */
  signal?: AbortSignal;
}

/**
 * A connection to one server, made by {@link connect}: the entry point's fields, and
 * the collections and relations that start from it.
 *
 * @example
 * ```ts
 * const client = await connect('http://127.0.0.1:8000/api/v1/', { apiKey: process.env.ADIS_KEY });
 * console.log(client.entryPoint.product_name);
 * for await (const person of client.people.items({ limit: 10 })) console.log(person.data.given_name);
 * ```
 */
export class Client {
  /** The entry point's typed fields (motd, max_pagesize, namespace, …). */
  readonly entryPoint: EntryPoint;
  /** The entry point document. */
  readonly root: HalDocument;
  /** The server's people. */
  readonly people: Collection<Person, PersonInput, PersonResource>;
  readonly #context: NavigatorContext;

  constructor(context: NavigatorContext, root: HalDocument) {
    this.#context = context;
    this.root = root;
    this.entryPoint = context.parse(EntryPointSchema, root.properties, root.url, 'entry point');
    this.people = this.collection(personKind);
  }

  /** The transport this client sends through. */
  get transport(): Transport {
    return this.#context.transport;
  }

  /**
   * The curies in force for every document of this server.
   *
   * @example
   * ```ts
   * client.curies.relationId('std:people');
   * ```
   */
  get curies(): Curies {
    return this.#context.curies;
  }

  /**
   * The collection of a resource kind linked from the entry point as `std:<plural>`.
   *
   * @example
   * ```ts
   * const people = client.collection(personKind);
   * ```
   */
  collection<T extends object, I, W extends Resource<T, I>>(
    kind: ResourceKind<T, I, W>,
  ): Collection<T, I, W> {
    const rel = `std:${kind.plural}`;
    return new Collection(this.#context, async () => this.#requireLink(rel).url(), kind);
  }

  /**
   * Follows a relation of the entry point and returns the document it leads to.
   *
   * @example
   * ```ts
   * const metadata = await client.follow('std:metadata');
   * ```
   */
  async follow(rel: string, options: FollowOptions = {}): Promise<HalDocument> {
    const { variables, ...call } = options;
    return this.#context.get(this.#requireLink(rel).url(variables), call);
  }

  /**
   * Reads any URL of the server as a HAL document, through the client's transport (the
   * key goes only to trusted origins).
   *
   * @example
   * ```ts
   * const doc = await client.get(person.link('std:signatures')!.url());
   * ```
   */
  get(url: string, options: CallOptions = {}): Promise<HalDocument> {
    return this.#context.get(url, options);
  }

  #requireLink(rel: string) {
    const link = this.root.link(rel);
    if (!link) throw new LinkNotFoundError(rel, this.root.url, this.root.relations());
    return link;
  }
}

/**
 * Picks the entry point's curie that stands for the specification: `std` when it is
 * declared, else the one the caller names, else the only curie there is, else the one
 * under which the entry point links `people`. Returns undefined when relations can only
 * be matched literally.
 */
function specPrefixOf(curies: Curies, root: HalDocument, preferred?: string): string | undefined {
  const names = curies.names();
  if (preferred !== undefined) return names.includes(preferred) ? preferred : undefined;
  if (names.includes('std')) return 'std';
  if (names.length === 1) return names[0];
  return names.find((name) => root.relations().includes(`${name}:people`));
}

/**
 * Connects to a server: reads its entry point and returns a {@link Client}. The entry
 * point's origin becomes trusted, so the API key goes there and to `trustedOrigins`
 * only, never to another origin that a link points at.
 *
 * @example
 * ```ts
 * import { connect } from 'adis-sdk';
 *
 * const client = await connect('http://127.0.0.1:8000/api/v1/', {
 *   apiKey: process.env.ADIS_KEY,
 *   rateLimit: 4, // requests per second
 * });
 * console.log(client.entryPoint.motd);
 * ```
 */
export async function connect(entryPointUrl: string, options: ClientOptions = {}): Promise<Client> {
  let url: URL;
  try {
    url = new URL(entryPointUrl);
  } catch {
    throw new TypeError(`Not an absolute URL: ${JSON.stringify(entryPointUrl)}`);
  }
  const { curiePrefix, validate = true, transport: given, signal, ...transportOptions } = options;
  const transport = given ?? createTransport(transportOptions);
  transport.trustOrigin(url.origin);
  const response = await transport.request({
    method: 'GET',
    url: url.toString(),
    ...(signal ? { signal } : {}),
  });
  const probe = HalDocument.parse(response.body, url.toString());
  if (
    typeof response.body !== 'object' ||
    response.body === null ||
    probe.relations().length === 0
  ) {
    throw new ResponseFormatError({
      method: 'GET',
      url: url.toString(),
      status: response.status,
      contentType: response.headers.get('content-type'),
      bodyText: JSON.stringify(response.body ?? null).slice(0, 500),
      reason: 'not an entry point: a HAL document with _links was expected',
    });
  }
  const prefix = specPrefixOf(probe.curies, probe, curiePrefix);
  // The SDK names the specification's relations `std:…`; alias `std` to the server's
  // own prefix so that those names resolve against its curie.
  const curies = prefix === undefined ? probe.curies : probe.curies.withAlias('std', prefix);
  const context = new NavigatorContext(transport, curies, validate, prefix ?? 'std');
  return new Client(context, HalDocument.parse(response.body, url.toString(), curies));
}
