import type { z } from 'zod/mini';
import { ResponseFormatError, SchemaValidationError } from '../errors/index.js';
import { type Curies, fetchableUrl, HalDocument, isJsonObject, Link } from '../hal/index.js';
import { jsonPreview } from '../http/json-body.js';
import type { HttpMethod, HttpResponse, Transport } from '../http/transport.js';

/**
 * Per-call options every network call of the SDK accepts.
 *
 * @example
 * ```ts
 * await client.people.create(person, { signal: AbortSignal.timeout(5_000) });
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
}

/**
 * What every resource and collection of one connection shares: the transport, the
 * entry point's curies (inherited by every document, because many servers declare them
 * only there) and the validation setting. {@link connect} builds it; resource kinds
 * receive it in their `wrap` function.
 *
 * @example
 * ```ts
 * const kind: ResourceKind<Person, PersonInput, PersonResource> = {
 *   ...personKind,
 *   wrap: (context, document) => new PersonResource(context, document, kind),
 * };
 * ```
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

  constructor(transport: Transport, curies: Curies, validate: boolean, specPrefix = 'std') {
    this.transport = transport;
    this.curies = curies;
    this.validate = validate;
    this.specPrefix = specPrefix;
  }

  /**
   * GETs a URL and reads the answer as a HAL document: a JSON object, or an empty body
   * or `[]` (an empty collection, as servers stretch the spec's empty object). Any other
   * body is a ResponseFormatError.
   *
   * @example
   * ```ts
   * const doc = await context.get('https://api.example.org/api/v1/people');
   * ```
   */
  async get(url: string, options: CallOptions = {}): Promise<HalDocument> {
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
   *
   * @example
   * ```ts
   * const person = personKind.wrap(context, await context.getRecord(personUrl));
   * ```
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
   * would).
   *
   * @example
   * ```ts
   * const { status, document } = await context.send('POST', peopleUrl, { given_name: 'Ana' });
   * ```
   */
  async send(
    method: HttpMethod,
    url: string,
    body: unknown,
    options: CallOptions & { authenticate?: boolean } = {},
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
    const document = object
      ? HalDocument.parse(response.body, locationOf(response, url), this.curies)
      : undefined;
    return { status: response.status, response, document };
  }

  /**
   * The `Location` header of a write's answer as an absolute URL, or undefined when
   * there is none. The header is server data like any href: one that does not resolve
   * to an http(s) URL is an InvalidLinkError with the relation `Location`.
   *
   * @example
   * ```ts
   * const where = context.location(result.response, collectionUrl);
   * ```
   */
  location(response: HttpResponse, requestUrl: string): string | undefined {
    const location = response.headers.get('location');
    if (location === null) return undefined;
    return new Link('Location', { href: location }, response.url || requestUrl).url();
  }

  /**
   * Parses `value` with `schema` when validation is on, throwing a
   * SchemaValidationError that names each failing path; returns it unchanged when off.
   *
   * @example
   * ```ts
   * const person = context.parse(PersonSchema, doc.properties, doc.url, 'std:person');
   * ```
   */
  parse<S extends z.ZodMiniType>(
    schema: S,
    value: unknown,
    url: string,
    resource: string,
  ): z.output<S> {
    if (!this.validate) return value as z.output<S>;
    const result = schema.safeParse(value);
    if (!result.success) throw new SchemaValidationError(result.error, { url, resource });
    return result.data;
  }
}

/**
 * The URL a write answered about: the `Location` of a 201, else the request URL (also
 * when the Location is unusable: the document's own `self` still decides its address).
 */
function locationOf(response: HttpResponse, requestUrl: string): string {
  const base = response.url || requestUrl;
  const location = response.headers.get('location');
  if (!location) return base;
  try {
    const url = new URL(location, base).toString();
    return fetchableUrl(url) === undefined ? url : base;
  } catch {
    return base;
  }
}

const BODY_PREVIEW_LENGTH = 500;

/**
 * A 2xx answer whose body is of the wrong shape for the call: `reason` says what was
 * expected, and the error adds what came (an empty body, JSON null, an array…).
 *
 * @example
 * ```ts
 * throw shapeError('GET', response, 'a record (a JSON object with members) was expected');
 * ```
 */
export function shapeError(
  method: string,
  response: HttpResponse,
  reason: string,
): ResponseFormatError {
  const found =
    response.body === undefined
      ? 'an empty body'
      : Array.isArray(response.body)
        ? 'a JSON array'
        : response.body === null
          ? 'JSON null'
          : isJsonObject(response.body)
            ? 'an empty JSON object'
            : `a JSON ${typeof response.body}`;
  return new ResponseFormatError({
    method,
    url: response.url,
    status: response.status,
    contentType: response.headers.get('content-type'),
    bodyText: jsonPreview(response.body, BODY_PREVIEW_LENGTH),
    reason: `${reason} but got ${found}`,
  });
}
