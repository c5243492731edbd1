/**
 * Reading the rest of a refused body before closing its connection (a "lingering close").
 *
 * A body over the limit is answered 413 at once, before it is read, with
 * `Connection: close`. Node closes such a connection as soon as the answer is written.
 * If the client is still sending its body then, the closed socket's kernel answers the
 * incoming data with a reset, and a reset makes the client drop whatever it has not read
 * yet: a client that reads only after sending (most do, under load) gets "connection
 * reset" instead of its 413. So the server ends its side after the answer and reads on,
 * discarding, until the body ends or a bound is reached, and only then closes.
 */
import type { IncomingMessage } from 'node:http';

/**
 * How much of a refused body is read after the answer: at most `bytes` more bytes, for at
 * most `ms` milliseconds. Past either, the connection is closed anyway (a client sending
 * that much more, or that slowly, may then see a reset).
 */
export const DRAIN_BOUNDS = { bytes: 4 * 1024 * 1024, ms: 2000 } as const;

/**
 * Drains the rest of `incoming`, a request refused before its body was read, and defers
 * the close Node does after the answer (`socket.destroySoon()`, for `Connection: close`)
 * until the body has ended or a bound of `bounds` is reached. The answer is still sent at
 * once and the server's side ended after it, so the client reads the answer and sees
 * the end of the connection; only the socket's closing waits.
 * Call it before returning the refusal; whoever was reading `incoming` must have let go
 * of it without destroying it.
 */
export function drainRefusedBody(
  incoming: IncomingMessage,
  bounds: { bytes: number; ms: number } = DRAIN_BOUNDS,
): void {
  const socket = incoming.socket;
  if (socket.destroyed) return;
  let read = 0;
  let bodyEnded = incoming.readableEnded;
  let ending = false;
  let flushed = false;
  const close = () => {
    clearTimeout(timer);
    incoming.off('data', count);
    socket.destroy();
  };
  const count = (chunk: Buffer) => {
    read += chunk.byteLength;
    if (read > bounds.bytes) close();
  };
  const timer = setTimeout(close, bounds.ms);
  timer.unref();
  incoming.on('data', count);
  incoming.once('end', () => {
    bodyEnded = true;
    if (flushed) close();
  });
  socket.once('close', () => clearTimeout(timer));
  const answerFlushed = () => {
    flushed = true;
    if (bodyEnded) close();
  };
  // Node calls this once the answer is written; the socket ends after the answer, and
  // closes when both the answer is flushed and the body has been read.
  socket.destroySoon = () => {
    if (ending) return;
    ending = true;
    if (socket.writable) socket.end(answerFlushed);
    else answerFlushed();
  };
  incoming.resume();
}
