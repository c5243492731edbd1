import type { HalDocument } from '../hal/index.js';
import type { CallOptions, NavigatorContext, SendResult } from './context.js';

/**
 * Options of calls that create or update a resource.
 *
 * @example
 * ```ts
 * const person = { given_name: 'Ana', family_name: 'Lopez' };
 * await client.people.create(person, { returnResponse: false });
 * await client.people.create(person, { idempotencyKey: 'import-row-17' });
 * await client.people.create(person, { background: true }); // a BackgroundWriteResult
 * ```
 */
export interface WriteOptions extends CallOptions {
  /**
   * Sent as the control object's `return_response`. When false the server need not
   * return the resource, which saves bandwidth on bulk writes. Default: true (not sent).
   */
  returnResponse?: boolean;
  /**
   * The `Idempotency-Key` of a create (or helper call), both POSTs. By default a new
   * random key for this call (unless the client was made with `idempotencyKeys:
   * false`), sent again with each retry, so the server acts once however often the
   * call is retried. A string sends that key instead: keep one per piece of work (a
   * queued job that is retried whole, an imported row) so that a repeat of the whole
   * call is recognised too. 1 to 255 visible ASCII characters, else an
   * `InvalidIdempotencyKeyError` before the POST is sent. `false` sends no key, and the
   * call is then never retried. An update (PUT) is idempotent already and sends none.
   */
  idempotencyKey?: string | false;
  /**
   * Asks the server to do the write later (`?background_request=true` added to the
   * address, its other query parameters kept; the connection's `backgroundParameter`
   * names another), as Action Network offers on some writes (the actions' POST and PUT,
   * a person's PUT, a tagging's POST and DELETE: its documentation lists them, and no
   * others).
   * The call then resolves with a {@link BackgroundWriteResult}: `accepted: true` when
   * the answer carries no record (202 Accepted, or 200 `{}`), since the record may not
   * be written yet; the record when the server wrote it at once and sent it (a server
   * that ignores the parameter). Default false.
   */
  background?: boolean;
}

/**
 * Options of a delete: the call's signal and timeout, and `background` (see
 * {@link WriteOptions.background}), which asks the server to delete later.
 */
export interface DeleteOptions extends CallOptions {
  /**
   * Adds `?background_request=true` (or the connection's `backgroundParameter`) to the
   * record's address. Default false.
   */
  background?: boolean;
}

/**
 * What a create or update made with `background: true` answers: the record, when the
 * server wrote it at once and sent it back ({@link ProcessedWrite}), or that it took the
 * write to do later ({@link AcceptedWrite}). Never a record read from an empty answer.
 *
 * @example
 * ```ts
 * const result = await client.people.create({ given_name: 'Ana' }, { background: true });
 * if (result.accepted) console.log('queued', result.status, result.location ?? 'no Location');
 * else console.log('created', result.record.url);
 * ```
 */
export type BackgroundWriteResult<W> = ProcessedWrite<W> | AcceptedWrite;

/**
 * A background write the server carried out at once and answered with the record.
 *
 * @example
 * ```ts
 * const person = await client.people.get('https://api.example.org/api/v1/people/1');
 * const result = await person.update({ family_name: 'Lopez' }, { background: true });
 * if (!result.accepted) console.log(result.record.data.family_name);
 * ```
 */
export interface ProcessedWrite<W> {
  /** Always false: the answer is the record as written. */
  accepted: false;
  /** The HTTP status (200 or 201). */
  status: number;
  /** The record the server sent back. */
  record: W;
}

/**
 * A background write the server took to do later: its answer carried no record (202
 * Accepted, or 200 `{}` as Action Network answers). Nothing is known to be written yet,
 * and a failure of the work is not reported to this call.
 */
export interface AcceptedWrite {
  /** Always true: the server took the write to do later. */
  accepted: true;
  /** The HTTP status: 202, or 200 from servers that answer so. */
  status: number;
  /**
   * The answer's `Location`, when it sent one: for a 202 often a status monitor rather
   * than the record.
   */
  location: string | undefined;
}

/**
 * Reads the answer to a write made with `background: true`: the record when the answer
 * carries one (a document with links, as for any write), else an {@link AcceptedWrite}.
 * An empty answer is never read as the record, nor followed up with a GET: the record
 * may not exist yet.
 */
export function writeResult<W>(
  result: SendResult,
  wrap: (document: HalDocument) => W,
): BackgroundWriteResult<W> {
  const { status, document, location } = result;
  if (document && document.relations().length > 0) {
    return { accepted: false, status, record: wrap(document) };
  }
  return { accepted: true, status, location };
}

/**
 * The control member to add to a write body, under the server's own prefix for the
 * specification's curie (`std:control` on most servers, `osdi:control` on others).
 * Nothing is added for the default behaviour, to keep requests minimal.
 */
export function controlMember(
  context: NavigatorContext,
  returnResponse: boolean | undefined,
): Record<string, { return_response: boolean }> {
  if (returnResponse !== false) return {};
  return { [`${context.specPrefix}:control`]: { return_response: false } };
}

/**
 * A link object pointing at a resource or URL, for the `_links` of a write body (a
 * signature's `std:person`, a wrapper's `std:creator`). A resource without an address
 * of its own (see `Resource.url`) is a LinkNotFoundError naming `self`.
 *
 * @example
 * ```ts
 * import { linkTo } from 'adis-sdk';
 *
 * const petition = await client.petitions.get('https://api.example.org/api/v1/petitions/1');
 * const person = await client.people.create({ given_name: 'Ana' });
 * await petition.signatures().create({ comments: 'Yes!', _links: { 'std:person': linkTo(person) } });
 * ```
 */
export function linkTo(target: { readonly url: string } | string): { href: string } {
  return { href: typeof target === 'string' ? target : target.url };
}

/**
 * The body of a write as sent: the validated fields less the members the server owns
 * (`serverOwned`, a kind's `readOnly`), the `_links` relations renamed from the SDK's
 * `std:` to the server's own prefix, and the control member.
 */
export function outgoingBody(
  context: NavigatorContext,
  body: unknown,
  returnResponse: boolean | undefined,
  serverOwned: readonly string[] = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  // What the server computes or owns (a kind's read-only members: dates, totals) is not
  // sent: a record read and written back carries them, and the server would ignore them.
  // `_links` is how a write sets its links, so it stays.
  for (const member of serverOwned) if (member !== '_links') delete out[member];
  const links = out._links;
  if (links && typeof links === 'object' && !Array.isArray(links) && context.specPrefix !== 'std') {
    const renamed: Record<string, unknown> = {};
    for (const [rel, value] of Object.entries(links)) {
      renamed[rel.startsWith('std:') ? `${context.specPrefix}:${rel.slice(4)}` : rel] = value;
    }
    out._links = renamed;
  }
  return { ...out, ...controlMember(context, returnResponse) };
}
