import type { ResourceStatus, StdError } from '../errors/std-error-schema.js';
import { isJsonObject } from '../hal/link.js';

// Run-time imports of this module stay free of zod, ky and uri-template: it is part of
// the light browser entry (`adis-sdk/helpers`). Types come from the zod schemas, which
// costs nothing at run time.

/**
 * What a helper call did. A helper is non-atomic: the main record (and the person) may
 * be written while an action function (a tag, a list, an answer) failed. Such a call
 * resolves with `complete: false` and the failed parts in `failures`; only a call that
 * changed nothing (an atomic error) rejects.
 *
 * @example
 * ```ts
 * const result = await recordSignature(href, { person: { given_name: 'Ana' }, add_tags: ['x'] }, { apiKey });
 * if (!result.complete) {
 *   for (const part of result.failures) console.warn(part.resource, part.error_descriptions);
 * }
 * console.log(result.record?.comments, result.person?.given_name);
 * ```
 */
export interface HelperResult<R, P> {
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
 * The member of `members` for a relation name given without prefix (`person`,
 * `signature`): `std:person`, `osdi:person` or a bare `person`, since the prefix is a
 * server-local abbreviation. An array (as some servers embed) gives its first object.
 *
 * @example
 * ```ts
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
 *
 * @example
 * ```ts
 * if (isHTTPError(error) && isPartialSuccess(error.status, error.stdError)) { ... }
 * ```
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
 *
 * @example
 * ```ts
 * helperFailures(error.stdError).map((part) => part.resource); // ['std:tagging']
 * ```
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
 * record.
 *
 * @example
 * ```ts
 * successResult(200, {}, 'signature'); // { status: 200, complete: true, record: undefined, ... }
 * ```
 */
export function successResult<R, P>(
  status: number,
  body: unknown,
  recordName: string | undefined,
): HelperResult<R, P> {
  const main = isJsonObject(body) && Object.keys(body).length > 0 ? body : undefined;
  const embedded = main && isJsonObject(main._embedded) ? main._embedded : undefined;
  const person = recordName === 'person' ? main : findMember(embedded, 'person');
  return {
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
 *
 * @example
 * ```ts
 * partialResult(400, decodeStdError(body)!, 'signature').failures;
 * ```
 */
export function partialResult<R, P>(
  status: number,
  stdError: StdError,
  recordName: string | undefined,
): HelperResult<R, P> {
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
    status,
    complete: false,
    record: record as R | undefined,
    person: person as P | undefined,
    failures: helperFailures(stdError),
    error: stdError,
  };
}
