import { NetworkError } from '../errors/network-error.js';
import { ResponseTooLargeError } from '../errors/response-too-large-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { concatBytes } from '../wire/concat-bytes.js';

// The text of each response the transport buffered, so that it is decoded once.
const bufferedText = new WeakMap<Response, string>();

/** Where a body is read from, for the errors that name it. */
export interface BodySource {
  /** The request's method. */
  method: string;
  /** The request's URL. */
  url: string;
  /** Longest pause allowed between two chunks, ms, or `false` for none. */
  idleTimeout: number | false;
  /** Most bytes of body read before the read stops with a {@link ResponseTooLargeError}; `false` for no cap. */
  maxBodyBytes: number | false;
  /** The attempt's signal; when it aborts, the abort's own error is rethrown. */
  signal: AbortSignal | undefined;
  /** Shown the text received so far after each chunk; see {@link HEAD_TEXT_LIMIT}. */
  onHead?: ((text: string) => boolean) | undefined;
}

/**
 * How much of a body `onHead` is shown at most: a document's links come first or not
 * at all, and rescanning a growing head on every chunk must stay cheap.
 */
export const HEAD_TEXT_LIMIT = 64 * 1024;

/**
 * Reads a response body to the end and returns a copy of the response whose text
 * {@link textOf} gives, so that everything that can fail while a body arrives fails here, inside the
 * attempt, where it is retried like a failure before the headers:
 * - the connection drops mid-body, the body is shorter than its `Content-Length`, or
 *   its `Content-Encoding` does not decode: a {@link NetworkError};
 * - no chunk arrives for `idleTimeout` ms: a {@link TimeoutError} of phase `idle`;
 * - the body grows past `maxBodyBytes`: a {@link ResponseTooLargeError}, as soon as the
 *   chunk that passes the cap arrives (memory never holds much more than the cap);
 * - the attempt is aborted (the caller, or the attempt's total timeout): the abort's
 *   own error, for the caller of the attempt to report.
 */
export async function bufferResponse(response: Response, source: BodySource): Promise<Response> {
  const text = await readText(response, source);
  // The copy carries no body of its own: its text is read once, here, and kept beside
  // it, so no page is held twice (as text and as bytes nothing reads).
  let copy: Response;
  const init = { status: response.status, headers: response.headers };
  try {
    copy = new Response(null, { ...init, statusText: response.statusText });
  } catch {
    // A status text the Response constructor refuses is not worth failing over.
    copy = new Response(null, init);
  }
  // A constructed Response has no URL; keep the one the answer came from.
  Object.defineProperty(copy, 'url', { value: response.url });
  bufferedText.set(copy, text);
  return copy;
}

/**
 * The text of a response: the buffered text when the transport already read it (the
 * only way to read a buffered copy), otherwise the body read now.
 */
export async function textOf(response: Response): Promise<string> {
  return bufferedText.get(response) ?? (await response.text());
}

async function readText(response: Response, source: BodySource): Promise<string> {
  const stream = response.body;
  if (stream === null) return '';
  const reader = stream.getReader();
  // The bytes are kept as they come and decoded once at the end: decoding chunk by
  // chunk into a growing string made a rope that JSON.parse had to flatten again, and
  // cost a page of 100 people about a fifth more than a plain `response.text()`. Only
  // the head shown to `onHead` is decoded as it arrives.
  const chunks: Uint8Array[] = [];
  let length = 0;
  let onHead = source.onHead;
  const headDecoder = onHead === undefined ? undefined : new TextDecoder();
  let head = '';
  try {
    for (;;) {
      const { done, value } = await nextChunk(reader, source);
      if (done) break;
      length += value.byteLength;
      if (source.maxBodyBytes !== false && length > source.maxBodyBytes) {
        throw new ResponseTooLargeError({
          method: source.method,
          url: source.url,
          status: response.status,
          maxBodyBytes: source.maxBodyBytes,
          bytesRead: length,
        });
      }
      chunks.push(value);
      if (onHead !== undefined && headDecoder !== undefined) {
        head += headDecoder.decode(value, { stream: true });
        if (onHead(head) || head.length >= HEAD_TEXT_LIMIT) onHead = undefined;
      }
    }
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    if (
      source.signal?.aborted ||
      error instanceof TimeoutError ||
      error instanceof ResponseTooLargeError
    )
      throw error;
    throw new NetworkError(source.method, source.url, error);
  }
  return new TextDecoder().decode(concatBytes(chunks, length));
}

function nextChunk(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  source: BodySource,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const { idleTimeout } = source;
  if (idleTimeout === false) return reader.read();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new TimeoutError(source.method, source.url, idleTimeout, { phase: 'idle' }));
    }, idleTimeout);
    reader.read().then(
      (result) => {
        clearTimeout(timer);
        resolve(result);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
