import type { ResourceStatus, StdError } from '../errors/std-error-schema.js';
import { isJsonObject } from '../wire/json-object.js';

// Run-time imports of this module stay free of zod, ky and uri-template: it is part of
// the light browser entry (`adis-sdk/helpers`). Types come from the zod schemas, which
// costs nothing at run time.

/**
 * What a helper call did: either the server did the work and answered with its outcome
 * ({@link ProcessedHelperResult}, `accepted: false`), or it took the call to do later
 * ({@link AcceptedHelperResult}, `accepted: true`: a call made with `background: true`,
 * or answered 202 Accepted, that came back without a record).
 *
 * A helper is non-atomic: the main record (and the person) may be written while an
 * action function (a tag, a list, an answer) failed. Such a call resolves with
 * `complete: false` and the failed parts in `failures`; only a call that changed
 * nothing (an atomic error) rejects.
 *
 * @example
 * ```ts
 * import { recordSignature } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/petitions/1/record_signature_helper';
 * const apiKey = process.env.ADIS_KEY;
 * const result = await recordSignature(href, { person: { given_name: 'Ana' }, add_tags: ['x'] }, { apiKey });
 * if (!result.complete) {
 *   for (const part of result.failures) console.warn(part.resource, part.error_descriptions);
 * }
 * console.log(result.record?.comments, result.person?.given_name);
 * ```
 */
export type HelperResult<R, P> = ProcessedHelperResult<R, P> | AcceptedHelperResult;

/**
 * A helper call the server carried out and answered with its outcome: the records it
 * wrote (when it sends them back) and the parts that failed.
 */
export interface ProcessedHelperResult<R, P> {
  /** Always false: the answer is the outcome of the call, not a promise to do it later. */
  accepted: false;
  /** The HTTP status: 201 or 200 on success, 400 when parts failed. */
  status: number;
  /** False when some parts failed (a non-atomic answer). */
  complete: boolean;
  /**
   * The main record (signature, outreach, attendance, donation, canvass, submission,
   * or the person for signup). Undefined when the server answered `{}` or nothing, as
   * it does for calls without a key, and whenever it did not send the record back.
   */
  record: R | undefined;
  /** The person created or updated (the target, for canvass), when the server returned it. */
  person: P | undefined;
  /** The parts that failed (`response_code` 400 or more); `[]` when complete. */
  failures: ResourceStatus[];
  /** The decoded non-atomic `std:error`, when parts failed. */
  error: StdError | undefined;
}

/**
 * A helper call the server accepted to carry out in the background
 * (`?background_request=true`): it answered 202 Accepted (the reference server) or
 * 200 (Action Network, whose documentation answers `200 OK {}`) with `{}`. Nothing was written yet as far as the caller can
 * know; the record appears later, and a failure of the background work is not reported
 * to this call. Told apart from a call without a key that answered `{}` (which is a
 * {@link ProcessedHelperResult} with no record) by `accepted`.
 *
 * @example
 * ```ts
 * import { recordSignature } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/petitions/1/record_signature_helper';
 * const result = await recordSignature(href, { person: { given_name: 'Ana' } }, { background: true });
 * if (result.accepted) console.log('Your signature will be counted shortly.');
 * ```
 */
export interface AcceptedHelperResult {
  /** Always true: the server took the call to carry out later. */
  accepted: true;
  /** The HTTP status: 202 Accepted, or 200 from servers that answer so (Action Network). */
  status: number;
  /** Always true: no part is known to have failed (later failures are not reported). */
  complete: true;
  /** Always undefined: the record does not exist yet. */
  record: undefined;
  /** Always undefined. */
  person: undefined;
  /** Always empty. */
  failures: ResourceStatus[];
  /** Always undefined. */
  error: undefined;
}

/**
 * The result of a 2xx answer that carried no record, when it says the server took the
 * call to carry out later: the call asked for `background` processing, or the server
 * answered 202 Accepted. Undefined otherwise (a call without a key answered `{}`).
 * Any 2xx counts after a background call: Action Network answers one with `200 OK {}`,
 * which without the question would be a keyless call's `{}`. (A 2xx that carries a
 * record is a server that ignored the parameter: the caller reads it as the record and
 * does not ask here.)
 *
 * @example
 * ```ts
 * import { acceptedResult } from './result.js';
 *
 * acceptedResult(202, false); // { accepted: true, status: 202, complete: true, record: undefined, ... }
 * acceptedResult(200, true); // { accepted: true, status: 200, ... }: Action Network's 200 OK {}
 * acceptedResult(200, false); // undefined
 * ```
 */
export function acceptedResult(
  status: number,
  background: boolean | undefined,
): AcceptedHelperResult | undefined {
  if (!background && status !== 202) return undefined;
  return {
    accepted: true,
    status,
    complete: true,
    record: undefined,
    person: undefined,
    failures: [],
    error: undefined,
  };
}

/**
 * The member of `members` for a relation name given without prefix (`person`,
 * `signature`): `std:person`, `osdi:person` or a bare `person`, since the prefix is a
 * server-local abbreviation. An array (as some servers embed) gives its first object.
 *
 * @example
 * ```ts
 * import { findMember } from './result.js';
 *
 * findMember({ 'osdi:person': { given_name: 'Ana' } }, 'person'); // { given_name: 'Ana' }
 * ```
 */
export function findMember(
  members: Readonly<Record<string, unknown>> | undefined,
  name: string,
): Record<string, unknown> | undefined {
  if (!members) return undefined;
  const key =
    `std:${name}` in members
      ? `std:${name}`
      : Object.keys(members).find((k) => k === name || k.slice(k.indexOf(':') + 1) === name);
  if (key === undefined) return undefined;
  const value = members[key];
  const first = Array.isArray(value) ? value.find(isJsonObject) : value;
  return isJsonObject(first) ? first : undefined;
}

/**
 * Whether an error answer is a helper's partial success rather than a failure: a 400
 * whose `std:error` is non-atomic, or that carries records beside the error.
 */
export function isPartialSuccess(status: number, stdError: StdError | undefined): boolean {
  if (status !== 400 || stdError === undefined) return false;
  return (
    stdError.request_type === 'non-atomic' ||
    (stdError.results !== undefined && Object.keys(stdError.results).length > 0)
  );
}

/**
 * The parts of a non-atomic answer that failed: statuses of 400 or more, and statuses
 * without a code that still carry error descriptions.
 */
export function helperFailures(stdError: StdError | undefined): ResourceStatus[] {
  return (stdError?.resource_status ?? []).filter((status) =>
    status.response_code === undefined
      ? status.error_descriptions.length > 0
      : status.response_code >= 400,
  );
}

/**
 * The result of a 2xx helper answer, as plain data: the body is the main record (for
 * signup, the person), with the person under `_embedded`. `{}` or no body gives no
 * record, and an {@link AcceptedHelperResult} when the call asked for `background`
 * processing or was answered 202.
 *
 * @example
 * ```ts
 * import { successResult } from './result.js';
 *
 * successResult(200, {}, 'signature'); // { accepted: false, status: 200, complete: true, record: undefined, ... }
 * successResult(202, {}, 'signature', true); // { accepted: true, status: 202, ... }
 * ```
 */
export function successResult<R, P>(
  status: number,
  body: unknown,
  recordName: string | undefined,
  background?: boolean,
): HelperResult<R, P> {
  const main = isJsonObject(body) && Object.keys(body).length > 0 ? body : undefined;
  const accepted = main ? undefined : acceptedResult(status, background);
  if (accepted) return accepted;
  const embedded = main && isJsonObject(main._embedded) ? main._embedded : undefined;
  const person = recordName === 'person' ? main : findMember(embedded, 'person');
  return {
    accepted: false,
    status,
    complete: true,
    record: main as R | undefined,
    person: person as P | undefined,
    failures: [],
    error: undefined,
  };
}

/**
 * The result of a non-atomic helper answer, as plain data: the person and the main
 * record are the members beside the error (none for calls without a key). Without a
 * `recordName`, the record is the first member that is not the person.
 */
export function partialResult<R, P>(
  status: number,
  stdError: StdError,
  recordName: string | undefined,
): ProcessedHelperResult<R, P> {
  const results = stdError.results;
  const person = findMember(results, 'person');
  let record: Record<string, unknown> | undefined;
  if (recordName === 'person') record = person;
  else if (recordName !== undefined) record = findMember(results, recordName);
  else {
    // A generic call names no record: take the one member that is not the person.
    const other = Object.keys(results ?? {}).find(
      (key) => key !== 'person' && !key.endsWith(':person'),
    );
    record = other === undefined ? undefined : findMember(results, other);
  }
  return {
    accepted: false,
    status,
    complete: false,
    record: record as R | undefined,
    person: person as P | undefined,
    failures: helperFailures(stdError),
    error: stdError,
  };
}
