import type * as z from 'zod/mini';
import { SchemaValidationError } from '../errors/index.js';
import { UnknownKindError } from '../errors/unknown-kind-error.js';
import { type Curies, HalDocument, isJsonObject, Link, unfetchableReason } from '../hal/index.js';
import type { HttpMethod, HttpRequest, HttpResponse, Transport } from '../http/transport.js';
import { fitsAsIs } from '../schema/fits.js';
import type { AnyKind } from '../schema/kind.js';
import { declaredPlural } from '../schema/kind-names.js';
import { DEFAULT_BACKGROUND_PARAMETER } from '../wire/background-parameter.js';
import { inInputOrder } from './input-order.js';
import { untypedKindOf } from './kind.js';
import { type Resource, resourceClass } from './resource.js';
import { shapeError } from './shape-error.js';

/**
 * Per-call options every network call of the SDK accepts.
 *
 * @example
 * ```ts
 * await client.people.create({ given_name: 'Ana' }, { signal: AbortSignal.timeout(5_000) });
 * ```
 */
export interface CallOptions {
  /** Cancels the call. */
  signal?: AbortSignal;
  /** Per-attempt timeout in milliseconds for this call, or `false` for none. */
  timeout?: number | false;
}

/** What a call that sends a body answers. */
export interface SendResult {
  /** The response status. */
  status: number;
  /** The response, body parsed. */
  response: HttpResponse;
  /** The response body as a HAL document, when there was one. */
  document: HalDocument | undefined;
  /**
   * The answer's `Location` header as an absolute http(s) URL; undefined when there is
   * none or it is unusable (the write was made: its answer is not refused for that).
   */
  location: string | undefined;
}

/**
 * What every resource and collection of one connection shares: the transport, the
 * entry point's curies (inherited by every document, because many servers declare them
 * only there), the validation setting, the kinds it reads typed and the server's name
 * for background processing. {@link connect} builds it.
 *
 * @internal
 */
export class NavigatorContext {
  /** The transport every request goes through. */
  readonly transport: Transport;
  /** The entry point's curies, inherited by every document read. */
  readonly curies: Curies;
  /** Whether documents and bodies are checked with their schemas. */
  readonly validate: boolean;
  /** The server's prefix for the specification's curie: `std` on most servers. */
  readonly specPrefix: string;

  /** The kinds this connection reads typed, by singular name. */
  readonly kinds: ReadonlyMap<string, AnyKind>;
  /**
   * The query parameter `background: true` sets to `true`: `connect`'s
   * `backgroundParameter`, by default `background_request` (`wire/background-parameter.ts`).
   */
  readonly backgroundParameter: string;
  readonly #untyped = new Map<string, AnyKind>();

  constructor(
    transport: Transport,
    curies: Curies,
    validate: boolean,
    specPrefix = 'std',
    kinds: readonly AnyKind[] = [],
    backgroundParameter = DEFAULT_BACKGROUND_PARAMETER,
  ) {
    this.transport = transport;
    this.curies = curies;
    this.validate = validate;
    this.specPrefix = specPrefix;
    this.kinds = new Map(kinds.map((kind) => [kind.singular, kind]));
    this.backgroundParameter = backgroundParameter;
  }

  /**
   * The address a write or helper call goes to: `url` itself, or with `background` the
   * server's parameter for background processing set to true, through the URL API (its
   * other query parameters kept, re-encoded as `application/x-www-form-urlencoded`,
   * which a server decodes to the same values; the parameter, when already there,
   * replaced). Every background call of the navigator is sent through here, so that a
   * connection's `backgroundParameter` reaches all of them. (The light entry sets the
   * default name on its own URL: a page pays for every byte, and loads no navigator.)
   */
  writeUrl(url: string, background: boolean | undefined): string {
    if (!background) return url;
    const target = new URL(url);
    target.searchParams.set(this.backgroundParameter, 'true');
    return target.href;
  }

  /**
   * The kind registered under `name`; for a kind this connection was not given, an
   * untyped kind under the names the SDK's table of declared kinds gives it (every kind
   * of the specification and of the server presets), whose records are read as plain
   * JSON objects. A name in neither is an {@link UnknownKindError} naming `from` (what
   * led to the kind): a plural is never guessed.
   *
   * @param name - The kind's singular name, as a relation or helper names it.
   * @param from - What named it, for the error (`person's std:outreaches`).
   */
  declaredKind(name: string, from: string = name): AnyKind {
    const known = this.kinds.get(name) ?? this.#untyped.get(name);
    if (known) return known;
    const plural = declaredPlural(name);
    if (plural === undefined) throw new UnknownKindError(name, from);
    // Kept, so that every record of the kind shares one derived class.
    const untyped = untypedKindOf(name, plural);
    this.#untyped.set(name, untyped);
    return untyped;
  }

  /**
   * Wraps a document of `kind` in the kind's resource class: its fields parsed into
   * `data`, a method per relation and helper of the kind. `address` is where the server
   * said the record is when the record is the whole answer (the URL a GET of it
   * answered, the `Location` of its create); its `self` link, when it has one, wins
   * (see {@link Resource.url}).
   */
  wrap(kind: AnyKind, document: HalDocument, address?: string): Resource<object> {
    return new (resourceClass(kind))(this, document, kind, address);
  }

  /**
   * GETs a URL and reads the answer as a HAL document: a JSON object, or an empty body
   * or `[]` (an empty collection, as servers stretch the spec's empty object). Any other
   * body is a ResponseFormatError. `onHead` is shown the start of the body as it
   * arrives (see {@link HttpRequest.onHead}).
   */
  async get(
    url: string,
    options: CallOptions & Pick<HttpRequest, 'onHead'> = {},
  ): Promise<HalDocument> {
    const response = await this.transport.request({ method: 'GET', url, ...options });
    const body = response.body;
    if (!(body === undefined || isJsonObject(body) || (Array.isArray(body) && body.length === 0))) {
      throw shapeError('GET', response, 'a HAL document (a JSON object) was expected');
    }
    return HalDocument.parse(body, url, this.curies);
  }

  /**
   * GETs one record: the answer must be a JSON object with members. An empty body,
   * `null`, an array, a truncated body or `{}` is a ResponseFormatError naming the URL
   * and the status, never an empty record.
   */
  async getRecord(url: string, options: CallOptions = {}): Promise<HalDocument> {
    const response = await this.transport.request({ method: 'GET', url, ...options });
    const body = response.body;
    if (!isJsonObject(body) || Object.keys(body).length === 0) {
      throw shapeError('GET', response, 'a record (a JSON object with members) was expected');
    }
    return HalDocument.parse(body, url, this.curies);
  }

  /**
   * Sends a JSON body (or none) and reads the answer, which may be empty. An answer
   * that is JSON but not an object is a ResponseFormatError (for a DELETE it is
   * ignored). `authenticate: false` sends no API key (helpers called as a browser page
   * would); `idempotencyKey` is the POST's key (see {@link HttpRequest.idempotencyKey}).
   */
  async send(
    method: HttpMethod,
    url: string,
    body: unknown,
    options: CallOptions & Pick<HttpRequest, 'authenticate' | 'idempotencyKey'> = {},
  ): Promise<SendResult> {
    const response = await this.transport.request({
      method,
      url,
      ...(body === undefined ? {} : { body }),
      ...options,
    });
    const object = isJsonObject(response.body);
    // What a DELETE answers besides success is not needed, so its shape is not held to.
    if (response.body !== undefined && !object && method !== 'DELETE') {
      throw shapeError(method, response, 'a JSON object or no body was expected');
    }
    const location = usableLocation(response, url);
    const document = object
      ? HalDocument.parse(response.body, location ?? (response.url || url), this.curies)
      : undefined;
    return { status: response.status, response, document, location };
  }

  /**
   * The `Location` header of a write's answer as an absolute URL, or undefined when
   * there is none. The header is server data like any href: one that does not resolve
   * to an http(s) URL is an InvalidLinkError with the relation `Location`.
   */
  location(response: HttpResponse, requestUrl: string): string | undefined {
    const location = response.headers.get('location');
    if (location === null) return undefined;
    return new Link('Location', { href: location }, response.url || requestUrl).url();
  }

  /**
   * Parses `value` with `schema`. With validation on, a mismatch is a
   * SchemaValidationError naming each failing path, and saying whether the value was
   * read (`direction` 'read', from `url`) or about to be sent ('write', to `url`). With
   * validation off, a value to send goes unchanged; a value read keeps every member that
   * fits its type, and a member that does not is left out (it stays in the document's
   * `properties`), so `data` is always what its type says. A value read that already
   * fits (nothing to coerce or drop) is returned itself rather than copied, so its
   * nested objects are the document's own. `url` may be given as a function, called
   * only when an error needs it (an embedded record's URL is resolved on demand).
   */
  parse<S extends z.ZodMiniType>(
    schema: S,
    value: unknown,
    url: string | (() => string),
    resource: string,
    direction: 'read' | 'write' = 'read',
  ): z.output<S> {
    if (!this.validate && direction === 'write') return value as z.output<S>;
    // What a server sends is nearly always in shape already: then the value itself is
    // what zod would build, at a fifth of the cost (see fitsAsIs).
    if (direction === 'read' && fitsAsIs(schema, value)) return value as z.output<S>;
    const result = schema.safeParse(value);
    if (result.success) {
      // Sent in the caller's order, as read (the round-trip rule): see input-order.ts.
      return direction === 'write'
        ? (inInputOrder(value, result.data) as z.output<S>)
        : result.data;
    }
    if (this.validate) {
      throw new SchemaValidationError(result.error, {
        url: typeof url === 'string' ? url : url(),
        resource,
        direction,
      });
    }
    // Validation off: drop the members that do not fit, once; what is left fits the
    // lenient read schema unless the value is no object at all.
    const fitting: Record<string, unknown> = isJsonObject(value) ? { ...value } : {};
    for (const issue of result.error.issues) {
      const key = issue.path[0];
      if (typeof key === 'string') delete fitting[key];
    }
    const retry = schema.safeParse(fitting);
    return (retry.success ? retry.data : {}) as z.output<S>;
  }
}

/**
 * The `Location` of a write's answer as an absolute http(s) URL, or undefined when there
 * is none or it is unusable (then the document's own `self` decides its address).
 */
function usableLocation(response: HttpResponse, requestUrl: string): string | undefined {
  const location = response.headers.get('location');
  if (!location) return undefined;
  try {
    const url = new URL(location, response.url || requestUrl).toString();
    return unfetchableReason(url) === undefined ? url : undefined;
  } catch {
    return undefined;
  }
}
