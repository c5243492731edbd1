// The transport's cap on response bodies (`maxBodyBytes`): a body that grows past it
// fails the call with a ResponseTooLargeError as soon as the chunk that passes the cap
// arrives, whatever the status, and is not retried; the read stops there, so memory
// holds about the cap and the server's stream is cut. Against a real server that
// streams forever.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AdisError,
  isAdisError,
  isResponseTooLargeError,
  ResponseTooLargeError,
} from '../../src/errors/index.js';
import { createTransport, DEFAULT_MAX_BODY_BYTES } from '../../src/http/transport.js';
import { type Fault, type FaultServer, faultServer, json, text } from '../fixtures/fault-server.js';

const MiB = 1024 * 1024;
// The most a read may run past the cap: one chunk of the stream (64 KiB from node:http,
// and a little more where chunks are merged on their way in).
const ONE_CHUNK = 256 * 1024;
const FAST = { retry: { limit: 3, backoffLimit: 5 } };

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What an endless answer sent, and whether its connection was closed by the client. */
interface Stream {
  sent: number;
  closed: Promise<void>;
}

/** Sends the headers, then 64 KiB chunks of spaces as fast as the client reads, forever. */
function endless(statusCode = 200): { fault: Fault; streams: Stream[] } {
  const streams: Stream[] = [];
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const fault: Fault = (_request, response: ServerResponse) => {
    let close = () => {};
    const stream: Stream = { sent: 0, closed: new Promise((resolve) => (close = resolve)) };
    streams.push(stream);
    response.writeHead(statusCode, { 'content-type': 'application/json' });
    response.write('{"endless": "');
    const pump = () => {
      while (!response.destroyed) {
        stream.sent += chunk.byteLength;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
    };
    response.on('close', close);
    pump();
  };
  return { fault, streams };
}

async function settle(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('maxBodyBytes', () => {
  it('stops an endless body just past the cap with a ResponseTooLargeError, and cuts the stream', async () => {
    const { fault, streams } = endless();
    server = await faultServer({ '/people': fault });
    const url = server.url('/people');
    const start = performance.now();
    const error = await settle(
      createTransport({ ...FAST, maxBodyBytes: MiB }).request({ method: 'GET', url }),
    );
    expect(isResponseTooLargeError(error)).toBe(true);
    expect(isAdisError(error)).toBe(true);
    expect(error).toBeInstanceOf(AdisError);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      name: 'ResponseTooLargeError',
      method: 'GET',
      url,
      status: 200,
      maxBodyBytes: MiB,
    });
    // Memory held about the cap: the read stopped at the chunk that passed it.
    expect(tooLarge.bytesRead).toBeGreaterThan(MiB);
    expect(tooLarge.bytesRead).toBeLessThanOrEqual(MiB + ONE_CHUNK);
    expect(tooLarge.message).toContain(`GET ${url}`);
    expect(tooLarge.message).toContain(String(MiB));
    expect(tooLarge.message).toContain(`${tooLarge.bytesRead} bytes`);
    // The cap ended it, not a timer: the error is no TimeoutError, and it came long
    // before the 30 s attempt timeout (a bound on a hang, not a speed target).
    // Not retried: a GET, yet one request.
    expect(performance.now() - start).toBeLessThan(15_000);
    expect(server.hits('/people')).toBe(1);
    // The connection is closed: the server stops sending instead of streaming on.
    await streams[0]?.closed;
    const sentAtClose = streams[0]?.sent ?? 0;
    expect(sentAtClose).toBeLessThan(64 * MiB);
  });

  it(`applies by default: ${DEFAULT_MAX_BODY_BYTES} bytes (32 MiB)`, async () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(32 * MiB);
    const { fault } = endless();
    server = await faultServer({ '/people': fault });
    const error = await settle(
      createTransport(FAST).request({ method: 'GET', url: server.url('/people') }),
    );
    expect(isResponseTooLargeError(error)).toBe(true);
    expect(error).toMatchObject({ maxBodyBytes: DEFAULT_MAX_BODY_BYTES });
    expect((error as ResponseTooLargeError).bytesRead).toBeLessThanOrEqual(
      DEFAULT_MAX_BODY_BYTES + ONE_CHUNK,
    );
  });

  it('caps error answers too (an endless 500), not retried', async () => {
    const { fault } = endless(500);
    server = await faultServer({ '/p': fault });
    const error = await settle(
      createTransport({ ...FAST, maxBodyBytes: 256 * 1024, idempotencyKeys: 'honoured' }).request({
        method: 'POST',
        url: server.url('/p'),
        body: {},
      }),
    );
    expect(isResponseTooLargeError(error)).toBe(true);
    expect(error).toMatchObject({ method: 'POST', status: 500 });
    expect(server.hits('/p')).toBe(1);
  });

  it('reads a body of exactly the cap, and refuses one byte more', async () => {
    const body = JSON.stringify({ given_name: 'A'.repeat(1000) });
    const size = Buffer.byteLength(body);
    server = await faultServer({
      '/people/1': text(body, 200, { 'content-type': 'application/json' }),
    });
    const url = server.url('/people/1');
    const response = await createTransport({ maxBodyBytes: size }).request({ method: 'GET', url });
    expect(response.body).toEqual(JSON.parse(body));
    const error = await settle(
      createTransport({ maxBodyBytes: size - 1 }).request({ method: 'GET', url }),
    );
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE', bytesRead: size });
  });

  it('counts bytes, not characters', async () => {
    // 100 characters of 3 bytes each in UTF-8.
    const body = JSON.stringify('€'.repeat(100));
    server = await faultServer({ '/x': json('€'.repeat(100)) });
    const error = await settle(
      createTransport({ maxBodyBytes: body.length + 10 }).request({
        method: 'GET',
        url: server.url('/x'),
      }),
    );
    expect(isResponseTooLargeError(error)).toBe(true);
  });

  it('false turns the cap off', async () => {
    server = await faultServer({ '/x': json({ a: 'b'.repeat(4096) }) });
    const response = await createTransport({ maxBodyBytes: false }).request({
      method: 'GET',
      url: server.url('/x'),
    });
    expect(response.body).toEqual({ a: 'b'.repeat(4096) });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses maxBodyBytes: %s with a RangeError when the transport is made',
    (maxBodyBytes) => {
      expect(() => createTransport({ maxBodyBytes })).toThrow(RangeError);
    },
  );

  it('is an error class like the others: a literal code, a name, the brand', () => {
    const error = new ResponseTooLargeError({
      method: 'GET',
      url: 'https://api.example.org/api/v1/people',
      status: 200,
      maxBodyBytes: 10,
      bytesRead: 12,
    });
    expect(error).toBeInstanceOf(AdisError);
    expect([error.code, error.name]).toEqual(['RESPONSE_TOO_LARGE', 'ResponseTooLargeError']);
    expect(isResponseTooLargeError(error)).toBe(true);
    expect(isResponseTooLargeError(new Error('x'))).toBe(false);
    expect(error.message).toBe(
      'Response body larger than maxBodyBytes (10 bytes): stopped after 12 bytes (status 200): GET https://api.example.org/api/v1/people',
    );
  });
});
