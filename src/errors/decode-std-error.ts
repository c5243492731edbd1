import { isJsonObject as isRecord } from '../wire/json-object.js';
import type { ErrorDescription, StdError } from './std-error-schema.js';
import { isStdErrorObject, toStdError } from './std-error-wire.js';

// The prefix is a server-local abbreviation (`std`, `osdi`, a vendor's), so any
// `<prefix>:error` member is the error relation.
const ERROR_MEMBER = /^[A-Za-z_][\w.-]*:error$/;
const HAL_MEMBERS = new Set(['_links', '_embedded']);
const STD_ERROR_MEMBERS = new Set(['request_type', 'response_code', 'resource_status']);

/**
 * Reads the error out of a response body, whichever shape the server used: the spec's
 * `std:error` member (under any curie prefix), a bare top-level error object, or the
 * shapes seen in the wild (`{ "errors": [...] }`, `{ "error": "message" }`,
 * `{ "error": { "message", "code" } }`). Member spellings `errors`/`code` are accepted
 * beside `error_descriptions`/`error_code`.
 *
 * Never throws: an error body is read while another error is already being reported,
 * and a decoder crash there would hide it. Returns undefined for anything unrecognisable.
 *
 * @example
 * ```ts
 * import { decodeStdError, errorDescriptions } from 'adis-sdk';
 *
 * const response = await fetch('https://api.example.org/api/v1/people', { method: 'POST', body: '{}' });
 * const stdError = decodeStdError(await response.json());
 * for (const d of errorDescriptions(stdError)) console.log(d.error_code, d.properties);
 * ```
 */
export function decodeStdError(body: unknown): StdError | undefined {
  try {
    return decode(body);
  } catch {
    return undefined;
  }
}

function decode(body: unknown): StdError | undefined {
  if (!isRecord(body)) return undefined;
  const memberKey = errorMemberOf(body);
  if (memberKey !== undefined) {
    const value = body[memberKey];
    const stdError =
      toStdError(value, value) ??
      // The server did name the member, so report an error even if its content is odd.
      ({ request_type: 'atomic', resource_status: [], raw: value } satisfies StdError);
    return withResults(stdError, extractEmbeddedResults(body, memberKey));
  }
  if (isStdErrorObject(body)) {
    const results = Object.fromEntries(
      Object.entries(extractEmbeddedResults(body)).filter(([key]) => !STD_ERROR_MEMBERS.has(key)),
    );
    const stdError = toStdError(body, body);
    return stdError && withResults(stdError, results);
  }
  if ('errors' in body) return toStdError(body.errors, body);
  if ('error' in body) return toStdError(body.error, body);
  return undefined;
}

/**
 * The member of `body` that holds its error: `std:error`, or another prefix's `:error`.
 *
 * @internal
 */
export function errorMemberOf(body: Record<string, unknown>): string | undefined {
  if ('std:error' in body) return 'std:error';
  return Object.keys(body).find((key) => ERROR_MEMBER.test(key));
}

function withResults(stdError: StdError, results: Record<string, unknown>): StdError {
  return Object.keys(results).length > 0 ? { ...stdError, results } : stdError;
}

/**
 * The members of an error body other than the error itself and its HAL links: what a
 * non-atomic helper did create or update (e.g. `std:person`), including members
 * delivered under `_embedded`.
 */
export function extractEmbeddedResults(
  body: unknown,
  errorMember?: string,
): Record<string, unknown> {
  if (!isRecord(body)) return {};
  const embedded = isRecord(body._embedded) ? Object.entries(body._embedded) : [];
  const memberKey = errorMember ?? errorMemberOf(body);
  const beside = Object.entries(body).filter(([key]) => key !== memberKey && !HAL_MEMBERS.has(key));
  // Object.fromEntries defines every member as an own property. Assigning them
  // (Object.assign, `results[key] = value`) would read a member named `__proto__` (which
  // JSON.parse keeps as an own member) as the prototype: the member was lost and the
  // server's object, or null, became the prototype of the results, its members seen by
  // `in` and by inherited reads (found by test/properties/std-error.property.test.ts).
  return Object.fromEntries([...embedded, ...beside]);
}

/**
 * Every error description of a decoded error, across all resource statuses, in order.
 * Accepts undefined so `errorDescriptions(error.stdError)` needs no guard.
 *
 * @example
 * ```ts
 * import { errorDescriptions, isHTTPError } from 'adis-sdk';
 *
 * try {
 *   await client.people.create({ given_name: 'Ana' });
 * } catch (error) {
 *   if (!isHTTPError(error)) throw error;
 *   const codes = errorDescriptions(error.stdError).map((d) => d.error_code);
 * }
 * ```
 */
export function errorDescriptions(stdError: StdError | undefined): ErrorDescription[] {
  return stdError?.resource_status.flatMap((status) => status.error_descriptions) ?? [];
}
