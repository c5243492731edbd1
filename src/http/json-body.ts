/** A response body as read: nothing, JSON, or text that is not JSON. */
export type ReadBody =
  | { kind: 'empty' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string; error: unknown };

/**
 * Reads a response body and parses it as JSON whatever the content type says: servers
 * send HAL as `application/hal+json`, `application/json`, `text/plain` or with no
 * type at all. Whitespace-only bodies count as empty (a 200 "with no content").
 *
 * @example
 * ```ts
 * const body = await readBody(response);
 * if (body.kind === 'json') use(body.value);
 * ```
 */
export async function readBody(response: Response): Promise<ReadBody> {
  const text = await response.text();
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { kind: 'text', text, error };
  }
}

/**
 * The value an error report keeps of a body: the JSON, else the text, else undefined.
 *
 * @example
 * ```ts
 * bodyValue({ kind: 'text', text: 'Bad Gateway', error }); // 'Bad Gateway'
 * ```
 */
export function bodyValue(body: ReadBody): unknown {
  if (body.kind === 'json') return body.value;
  return body.kind === 'text' ? body.text : undefined;
}
