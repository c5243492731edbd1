/**
 * Response construction. Every API response, errors included, is HAL+JSON with the
 * spec's Cache-Control header.
 */
import { type ApiError, errorBody } from '../domain/errors.js';
import { CANONICAL_PREFIX, presentBody } from './relations.js';

/** The content type of every API response. */
export const HAL_CONTENT_TYPE = 'application/hal+json; charset=utf-8';
/** The spec's Cache-Control value. */
export const CACHE_CONTROL = 'max-age=0, private, must-revalidate';

/**
 * Sets the spec's headers on a response's header list.
 */
export function setApiHeaders(headers: Headers): void {
  headers.set('Content-Type', HAL_CONTENT_TYPE);
  headers.set('Cache-Control', CACHE_CONTROL);
}

/**
 * A HAL+JSON response. `body` undefined gives an empty body (204).
 */
export function hal(
  body: unknown,
  status = 200,
  extraHeaders: Record<string, string> = {},
): Response {
  return halJson(body === undefined ? null : JSON.stringify(body), status, extraHeaders);
}

/**
 * A HAL+JSON response from JSON already serialised, as text or UTF-8 bytes (see
 * `renderRecordJson`); `null` gives an empty body.
 */
export function halJson(
  json: string | Uint8Array<ArrayBuffer> | null,
  status = 200,
  extraHeaders: Record<string, string> = {},
): Response {
  const headers = new Headers(extraHeaders);
  setApiHeaders(headers);
  const response = new Response(json, { status, headers });
  if (json !== null) SENT_JSON.set(response, json);
  return response;
}

// The JSON each response of ours was built from: a middleware that needs the bytes of an
// answer (Idempotency-Key keeps it) reads them here instead of draining the body stream
// and building the response again, which took the keyed helper call a fifth longer.
const SENT_JSON = new WeakMap<Response, string | Uint8Array>();

/**
 * The JSON a response made by {@link halJson} (or {@link hal}) carries, as given;
 * undefined for an empty body or a response made elsewhere (then read the body).
 */
export function sentJson(response: Response): string | Uint8Array | undefined {
  return SENT_JSON.get(response);
}

/**
 * The response for an {@link ApiError}: its `std:error` body, with the relations under
 * `curiePrefix` (the error member, the resource names: `osdi:error`, `osdi:person`).
 */
export function errorResponse(error: ApiError, curiePrefix = CANONICAL_PREFIX): Response {
  return hal(presentBody(errorBody(error), curiePrefix), error.status, error.headers);
}
