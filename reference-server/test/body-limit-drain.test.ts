/**
 * A client that sends its whole body before it reads the answer still reads its 413.
 *
 * The server answers a body over the limit at once, before reading it. If it then closed
 * the connection with the rest of the body still arriving, its kernel would answer that
 * data with a reset, and a reset makes the client's kernel and HTTP stack drop the
 * answer the client has not read yet: the race once seen under load as "socket hang up"
 * instead of a 413. The test builds that race exactly: it holds the client's reading
 * (the answer waits in the client's kernel), waits until the server has answered and
 * either closed the connection or (with the drain) kept reading, then sends the rest of
 * the body, and only then reads.
 *
 * The waits are on the server's side of each connection (this process's own socket), not
 * on the clock, so they hold however loaded the machine is.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_BOUNDS } from '../src/http/drain-refused-body.js';
import { createApp, openStorage, type RunningServer, startServer } from '../src/index.js';

const KEY = 'drain-test-key-01';
const LIMIT = 1024 * 1024;
const storage = openStorage(':memory:');
let running: RunningServer;

beforeAll(async () => {
  await storage.tenants.putApiKey(KEY, 'acme', 'write');
  running = await startServer({
    app: createApp({ storage, anonymousRateLimit: false, logError: () => {} }),
    port: 0,
    host: '127.0.0.1',
  });
});

/** The server's side of the next connection it accepts (ask before connecting). */
function nextAccepted(): Promise<Socket> {
  return new Promise((done) => running.server.once('connection', (socket: Socket) => done(socket)));
}

afterAll(async () => {
  await running.close();
  await storage.close();
});

/** What a client read from a connection, and how the connection ended for it. */
interface Outcome {
  answer: string;
  error: string | undefined;
}

/** A client socket that reads nothing until `read()` is called. */
function heldClient(): Promise<{ socket: Socket; read(): Promise<Outcome> }> {
  const received: Buffer[] = [];
  let error: string | undefined;
  return new Promise((resolve, reject) => {
    const socket = connect({
      port: running.port,
      host: '127.0.0.1',
      // With `onread`, pause() stops reading from the kernel itself, so an answer
      // waits there unread, as it does for a client busy sending its body.
      onread: {
        buffer: Buffer.alloc(64 * 1024),
        callback: (length, buffer) => {
          received.push(Buffer.from(buffer.subarray(0, length)));
          return true;
        },
      },
    });
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message;
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => {
      socket.pause();
      resolve({
        socket,
        read: async () => {
          socket.resume();
          await closed;
          return { answer: Buffer.concat(received).toString('latin1'), error };
        },
      });
    });
    socket.once('error', reject);
  });
}

/** Writes `data`, resolving once it is handed to the kernel (or the write failed). */
function write(socket: Socket, data: string | Buffer): Promise<void> {
  return new Promise((done) => {
    if (!socket.writable) return done();
    socket.write(data, () => done());
  });
}

/** Resolves once `socket` has closed. */
function closed(socket: Socket): Promise<void> {
  return new Promise((done) => {
    if (socket.closed) return done();
    socket.once('close', () => done());
  });
}

/**
 * Resolves once the server's side `socket` has written its answer and ended its side
 * ('finish': the drain then reads on) or closed: the moment the race is about.
 */
function answeredAndEnded(socket: Socket): Promise<void> {
  return new Promise((done) => {
    if (socket.writableFinished || socket.closed) return done();
    socket.once('finish', () => done());
    socket.once('close', () => done());
  });
}

const HEAD = (length: number) =>
  `POST /api/v1/people HTTP/1.1\r\nHost: 127.0.0.1\r\nSTD-API-Token: ${KEY}\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/**
 * Sends a `length`-byte body: the head and `first` bytes, then (once the server has
 * answered and ended its side, or closed) the rest in 64 KiB writes; then reads.
 */
async function sendThenRead(length: number, first: number): Promise<Outcome> {
  const accepted = nextAccepted();
  const client = await heldClient();
  const server = await accepted;
  const answered = answeredAndEnded(server);
  await write(client.socket, HEAD(length) + 'x'.repeat(first));
  await answered;
  for (let sent = first; sent < length; sent += 64 * 1024) {
    await write(client.socket, 'x'.repeat(Math.min(64 * 1024, length - sent)));
  }
  client.socket.end();
  return client.read();
}

describe('a body over the limit is drained before the connection closes', () => {
  it('lets a client that reads after sending a 1.1 MB body read its 413', async () => {
    const outcome = await sendThenRead(1_100_000, 16 * 1024);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(outcome.answer).toContain('PAYLOAD_TOO_LARGE');
    expect(outcome.error).toBeUndefined();
  });

  it('closes a connection whose body goes on past the drain bound, reading no more', async () => {
    const accepted = nextAccepted();
    const client = await heldClient();
    const server = await accepted;
    const length = LIMIT + DRAIN_BOUNDS.bytes * 4;
    const head = HEAD(length);
    await write(client.socket, head);
    let sent = 0;
    while (!server.destroyed && sent < length) {
      await write(client.socket, 'x'.repeat(64 * 1024));
      sent += 64 * 1024;
    }
    await closed(server);
    expect(sent).toBeLessThan(length);
    // Closed by the byte bound, not the time bound: it read the bound's bytes past the
    // answer and at most a read or two more (64 KiB each), however long that took. (The
    // 413 comes on the head, before any of the body is read.)
    expect(server.bytesRead).toBeGreaterThan(head.length + DRAIN_BOUNDS.bytes);
    expect(server.bytesRead).toBeLessThanOrEqual(head.length + DRAIN_BOUNDS.bytes + 128 * 1024);
    client.socket.destroy();
  });

  it('closes a connection whose body stops coming once the drain time is up', async () => {
    const accepted = nextAccepted();
    const client = await heldClient();
    const server = await accepted;
    // From the connection on: the drain's timer starts later, on the answer.
    const started = performance.now();
    await write(client.socket, HEAD(LIMIT + 1));
    await closed(server);
    // Not before the drain's time (less a little for timer granularity).
    expect(performance.now() - started).toBeGreaterThanOrEqual(DRAIN_BOUNDS.ms - 50);
    const outcome = await client.read();
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
  });
});
