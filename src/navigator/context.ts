import type { z } from 'zod/mini';
import { SchemaValidationError } from '../errors/index.js';
import { type Curies, HalDocument } from '../hal/index.js';
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
   * GETs a URL and reads the answer as a HAL document.
   *
   * @example
   * ```ts
   * const doc = await context.get('https://api.example.org/api/v1/people');
   * ```
   */
  async get(url: string, options: CallOptions = {}): Promise<HalDocument> {
    const response = await this.transport.request({ method: 'GET', url, ...options });
    return HalDocument.parse(response.body, url, this.curies);
  }

  /**
   * Sends a JSON body (or none) and reads the answer, which may be empty.
   * `authenticate: false` sends no API key (helpers called as a browser page would).
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
    const document =
      response.body === undefined
        ? undefined
        : HalDocument.parse(response.body, locationOf(response, url), this.curies);
    return { status: response.status, response, document };
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
 * The URL a write answered about: the `Location` of a 201, else the request URL.
 */
function locationOf(response: HttpResponse, requestUrl: string): string {
  const location = response.headers.get('location');
  if (!location) return response.url || requestUrl;
  try {
    return new URL(location, response.url || requestUrl).toString();
  } catch {
    return response.url || requestUrl;
  }
}
