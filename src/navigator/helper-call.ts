import type { z } from 'zod/mini';
import { isHTTPError } from '../errors/type-guards.js';
import { HalDocument } from '../hal/index.js';
import {
  acceptedResult,
  findMember,
  type HelperResult,
  helperFailures,
  isPartialSuccess,
} from '../helpers/result.js';
import type { AnyKind } from '../schema/kind.js';
import type { CallOptions, NavigatorContext } from './context.js';
import type { Resource } from './resource.js';
import { outgoingBody, type WriteOptions } from './write.js';

// The full SDK's side of the helpers: the body is checked with its schema, sent through
// the client's transport (key on trusted origins only, rate limit, timeouts), and the
// records that come back are read with their read schemas and wrapped in their classes.
// This module imports resource kinds as types only: the kinds are passed in, because
// navigator/resource.ts imports this module and every resource class extends Resource.

/**
 * Options of the full SDK's helper methods (`petition.recordSignature`,
 * `client.signup`…).
 *
 * @example
 * ```ts
 * const petition = await client.petitions.get('https://api.example.org/api/v1/petitions/1');
 * const input = { person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] } };
 * await petition.recordSignature(input, { authenticate: false }); // as a web page would
 * await petition.recordSignature(input, { returnResponse: false, signal: AbortSignal.timeout(5_000) });
 * await petition.recordSignature(input, { background: true }); // answered at once, written later
 * ```
 */
export interface HelperOptions extends WriteOptions {
  /**
   * Default true. `false` sends no API key, as a web page calls the helpers that allow
   * it; the server then answers `{}` on success and never returns records.
   */
  authenticate?: boolean;
  /**
   * Asks the server to do the work later (`?background_request=true` added to the
   * helper's address, its other query parameters kept; the connection's
   * `backgroundParameter` names another), to answer a busy page at once.
   * The call then resolves with an {@link AcceptedHelperResult} (`accepted: true`, no
   * record) when the server answers without a record (202 Accepted, or 200 `{}`); a
   * server that ignores the parameter answers as usual. Record helpers only: a notice
   * helper (a message's `send_helper`) ignores it. Default false.
   */
  background?: boolean;
}

/**
 * Options of a notice helper method (a message's `send()`, `schedule(…)`): the call's
 * signal and timeout, and its `Idempotency-Key` (see {@link WriteOptions.idempotencyKey}):
 * a job that sends a message keeps its own key, so that the job run again sends once.
 *
 * @example
 * ```ts
 * const message = await client.messages.get('https://api.example.org/api/v1/messages/1');
 * await message.send({ idempotencyKey: 'send-newsletter-2026-05' });
 * await message.send({ idempotencyKey: false }); // sent once, never retried
 * ```
 */
export type NoticeHelperOptions = CallOptions & Pick<WriteOptions, 'idempotencyKey'>;

/** What {@link sendHelper} needs to know about one helper. */
export interface HelperCall {
  /** The helper's absolute URL (the href of its link). */
  url: string;
  /** The helper's relation, for error messages (`std:record_signature_helper`). */
  rel: string;
  /** The body schema; the input is checked with it before sending (when validation is on). */
  schema: z.ZodMiniType;
  /** What the caller passed; checked with `schema` before sending. */
  input: unknown;
  /** The main record's kind (signature, canvass; person for signup). */
  recordKind: AnyKind;
  /** The person kind. */
  personKind: AnyKind;
}

/**
 * Calls a helper for the full SDK: checks the body, POSTs it, and reads the answer into
 * a {@link HelperResult} of wrapped resources. A non-atomic 400 resolves with
 * `complete: false` (record and person from the members beside the error); every other
 * error rejects as the transport reports it.
 */
export async function sendHelper(
  context: NavigatorContext,
  call: HelperCall,
  options: HelperOptions = {},
): Promise<HelperResult<Resource<object>, Resource<object>>> {
  const { returnResponse, authenticate, signal, timeout, idempotencyKey, background } = options;
  // parse() returns the input unchanged when validation is off.
  const body = context.parse(call.schema, call.input, call.url, call.rel, 'write');
  const send = {
    ...(signal ? { signal } : {}),
    ...(timeout === undefined ? {} : { timeout }),
    ...(authenticate === false ? { authenticate } : {}),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  };
  const recordName = call.recordKind.singular;
  const isSignup = recordName === call.personKind.singular;
  try {
    const { status, document } = await context.send(
      'POST',
      context.writeUrl(call.url, background),
      outgoingBody(context, body, returnResponse),
      send,
    );
    // `{}` (calls without a key, servers that work in the background) or no body: no record.
    const main = document && Object.keys(document.body).length > 0 ? document : undefined;
    const accepted = main ? undefined : acceptedResult(status, background);
    if (accepted) return accepted;
    const personDocument = isSignup ? main : main && member(main, 'person');
    return {
      accepted: false,
      status,
      complete: true,
      record: main && context.wrap(call.recordKind, main),
      person: personDocument && context.wrap(call.personKind, personDocument),
      failures: [],
      error: undefined,
    };
  } catch (error) {
    if (!isHTTPError(error) || !isPartialSuccess(error.status, error.stdError)) throw error;
    const stdError = error.stdError;
    // The members beside the error, read as embedded resources so that the curies of
    // the server (`osdi:person`) resolve like everywhere else.
    const beside = HalDocument.parse(
      { _embedded: stdError?.results ?? {} },
      error.url,
      context.curies,
    );
    const personDocument = member(beside, 'person');
    const recordDocument = isSignup ? personDocument : member(beside, recordName);
    return {
      accepted: false,
      status: error.status,
      complete: false,
      record: recordDocument && context.wrap(call.recordKind, recordDocument),
      person: personDocument && context.wrap(call.personKind, personDocument),
      failures: helperFailures(stdError),
      error: stdError,
    };
  }
}

/**
 * The resource embedded in `document` under `std:<name>` (matched through the curies),
 * else under any `<prefix>:<name>`: servers use prefixes they declare no curie for.
 */
function member(document: HalDocument, name: string): HalDocument | undefined {
  const [embedded] = document.embedded(`std:${name}`);
  if (embedded) return embedded;
  const raw = document.body._embedded;
  const found = findMember(
    typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : undefined,
    name,
  );
  return found && HalDocument.parse(found, document.base, document.curies);
}
