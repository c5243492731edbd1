/**
 * Reading request bodies: media type check, nesting depth, JSON parsing, object check,
 * reserved member names and the `std:control` object. Size is enforced before this by
 * hono's bodyLimit. Everything a body can be wrong about is refused here, at the edge,
 * so that the domain only ever sees a JSON object it can walk safely.
 */
import type { Context } from 'hono';
import * as z from 'zod';
import { ApiError, apiError, ErrorCode } from '../domain/errors.js';
import { isPlainObject } from '../domain/merge.js';
import { issueToDescription } from '../domain/validation.js';
import type { JsonObject } from '../storage/storage.js';
import type { AppEnv } from './env.js';
import { MAX_JSON_DEPTH, tooDeepAt } from './json-depth.js';
import { reservedMemberPath } from './member-names.js';
import { canonicalBody } from './relations.js';

/** Bodies are UTF-8 JSON; bytes that are not UTF-8 read as U+FFFD, as `Request.text()` reads them. */
const UTF8 = new TextDecoder();

/** `application/json`, `application/hal+json` and any other `+json` type. */
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.!#$&^_-]+\+)?json$/i;

/**
 * Reads the body as a JSON object. Wrong media type: 415; nested deeper than
 * {@link MAX_JSON_DEPTH}: 400 JSON_TOO_DEEP; unparsable: 400 INVALID_JSON; not an object
 * (array, string, empty): 400 INVALID_BODY; a member named `__proto__` anywhere: 400
 * INVALID_PROPERTY. Relations under the server's curie prefix (`osdi:control`, `_links`
 * members) come back under their canonical `std:` names (see `canonicalBody`).
 */
export async function readJsonObject(c: Context<AppEnv>): Promise<JsonObject> {
  const contentType = c.req.header('content-type');
  // limitBody has read the body (every API route sits behind it); a route outside it
  // reads the web request.
  const bytes = c.get('body');
  const text = bytes === undefined ? await c.req.text() : UTF8.decode(bytes);
  const mediaType = contentType?.split(';')[0]?.trim() ?? '';
  // An empty body is a missing body whatever its declared type (fetch labels an empty
  // string body text/plain).
  if (text.trim() === '') {
    throw apiError(400, ErrorCode.INVALID_BODY, 'the request needs a JSON object body');
  }
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw apiError(
      415,
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      `unsupported Content-Type ${JSON.stringify(contentType ?? '')}: send JSON`,
      { hint: 'Content-Type: application/json (or application/hal+json)' },
    );
  }
  const deep = tooDeepAt(text, MAX_JSON_DEPTH);
  if (deep !== undefined) {
    throw apiError(
      400,
      ErrorCode.JSON_TOO_DEEP,
      `the body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at position ${deep})`,
      { hint: `at most ${MAX_JSON_DEPTH} levels of arrays and objects, the body itself included` },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw apiError(
      400,
      ErrorCode.INVALID_JSON,
      `the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!isPlainObject(value)) {
    throw apiError(400, ErrorCode.INVALID_BODY, 'the body must be a JSON object');
  }
  const reserved = reservedMemberPath(value);
  if (reserved !== undefined) {
    throw apiError(
      400,
      ErrorCode.INVALID_PROPERTY,
      `${reserved}: __proto__ cannot be a member name (it could not be stored as sent)`,
      { properties: [reserved], hint: 'rename the member' },
    );
  }
  // Relations under the server's own curie prefix read as the canonical `std:` ones.
  const urls = c.get('urls');
  return canonicalBody(value, urls.curiePrefix, urls.relationNames);
}

const ControlSchema = z.strictObject({ return_response: z.boolean().optional() });

/** The parsed `std:control` object. */
export interface Control {
  returnResponse: boolean;
}

/**
 * Removes `std:control` from a body and validates it (an object with an optional
 * boolean `return_response`, default true).
 *
 * @example
 * ```ts
 * import { takeControl } from './body.js';
 *
 * const { control, rest } = takeControl({ 'std:control': { return_response: false }, given_name: 'Ana' });
 * control.returnResponse; // false
 * ```
 */
export function takeControl(body: JsonObject): { control: Control; rest: JsonObject } {
  const { 'std:control': raw, ...rest } = body;
  if (raw === undefined) return { control: { returnResponse: true }, rest };
  const result = ControlSchema.safeParse(raw);
  if (!result.success) {
    // Control errors get their own code: they are not properties of the resource.
    throw new ApiError(
      400,
      result.error.issues.map((issue) => ({
        ...issueToDescription(issue, 'std:control'),
        error_code: ErrorCode.INVALID_CONTROL,
      })),
      'std:control',
    );
  }
  return { control: { returnResponse: result.data.return_response ?? true }, rest };
}
