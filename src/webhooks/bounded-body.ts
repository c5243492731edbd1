import { concatBytes } from '../wire/concat-bytes.js';

/**
 * Default most bytes a webhook body may have: 4 MiB, far above a batch of events
 * (Action Network's and the reference server's are kilobytes), far below what would
 * hurt a receiver's memory.
 */
export const DEFAULT_WEBHOOK_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The body of a request, read to its end unless it passes `maxBytes`: then `undefined`,
 * as soon as the chunk that passes it arrives (or at once, when its `Content-Length`
 * says so), so memory never holds much more than the cap.
 */
export async function readBoundedBody(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (request.body === null) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return concatBytes(chunks, length);
}
