/** A response body as read: nothing, JSON, or text that is not JSON. */
export type ReadBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string; error: unknown };

/**
 * Parses a response body as JSON whatever the content type says: servers send HAL as
 * `application/hal+json`, `application/json`, `text/plain` or with no type at all.
 * Whitespace-only bodies count as empty (a 200 "with no content"). Never throws: text
 * that is not JSON (an HTML page, a truncated body) comes back as `text`.
 */
export function parseBody(text: string): ReadBody {
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { kind: 'text', text, error };
  }
}

/**
 * The value an error report keeps of a body: the JSON, else the text, else undefined.
 */
export function bodyValue(body: ReadBody): unknown {
  if (body.kind === 'json') return body.value;
  return body.kind === 'text' ? body.text : undefined;
}

/**
 * The start of a JSON value as text, for an error's preview of a body. Never throws:
 * a value too deeply nested for `JSON.stringify` (a server can send one, since
 * `JSON.parse` reads any depth) previews as nothing rather than as a `RangeError`.
 *
 * @example
 * ```ts
 * import { jsonPreview } from './json-body.js';
 *
 * jsonPreview({ given_name: 'Ana' }, 10); // '{"given_na'
 * ```
 */
export function jsonPreview(value: unknown, length: number): string {
  try {
    return (JSON.stringify(value) ?? '').slice(0, length);
  } catch {
    return '';
  }
}
