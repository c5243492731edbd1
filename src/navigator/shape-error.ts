import { ResponseFormatError } from '../errors/index.js';
import { isJsonObject } from '../hal/index.js';
import { jsonPreview } from '../http/json-body.js';
import type { HttpResponse } from '../http/transport.js';
import { BODY_PREVIEW_LENGTH } from '../wire/body-preview.js';

/**
 * A 2xx answer whose body is of the wrong shape for the call: `reason` says what was
 * expected, and the error adds what came (an empty body, JSON null, an array…).
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
