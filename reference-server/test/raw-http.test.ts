/**
 * What a client gets for requests the app never sees (refused by Node's HTTP parser or
 * by the node adapter), and for bodies over the limit on keep-alive connections: raw
 * `node:net` sockets against a server on 127.0.0.1, so that the bytes on the wire and
 * who closes the connection, and when, are what is tested.
 */
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientError } from '../src/http/client-errors.js';
import { createApp, openStorage, type RunningServer, startServer } from '../src/index.js';
import { createTestServer } from '../src/testing.js';
import type { Json } from './helpers.js';

const KEY = 'raw-socket-key-1';
const HAL = 'application/hal+json; charset=utf-8';
/**
 * The server's own timeouts here: far past any test's end, so a connection that ends was
 * ended by the answer to what was sent, never by a timer.
 */
const NO_TIMEOUT_MS = 600_000;
/** How long a wait may take before the test fails rather than hangs (a loaded machine included). */
const HANG_MS = 30_000;
const storage = openStorage(':memory:');
let running: RunningServer;
let petition: string;

beforeAll(async () => {
  await storage.tenants.putApiKey(KEY, 'acme', 'write');
  running = await startServer({
    app: createApp({ storage, anonymousRateLimit: false, logError: () => {} }),
    port: 0,
    host: '127.0.0.1',
    timeouts: { headersMs: NO_TIMEOUT_MS, requestMs: NO_TIMEOUT_MS, keepAliveMs: NO_TIMEOUT_MS },
  });
  const res = await fetch(`${running.url}/api/v1/petitions`, {
    method: 'POST',
    headers: { 'STD-API-Token': KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: 'Raw' }),
  });
  petition = new URL(((await res.json()) as Json)._links.self.href).pathname;
});

afterAll(async () => {
  await running.close();
  await storage.close();
});

/** One parsed HTTP/1.1 response. */
interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A socket and everything it received, and whether the server ended it. */
interface Conversation {
  socket: Socket;
  received(): Buffer;
  /** Resolves once the server ends the connection. */
  ended: Promise<void>;
}

function open(port = running.port): Promise<Conversation> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may reset a connection it has answered while we are still writing.
    socket.on('error', () => {});
    const ended = new Promise<void>((done) => {
      socket.once('end', () => done());
      socket.once('close', () => done());
    });
    socket.once('connect', () => resolve({ socket, received: () => Buffer.concat(chunks), ended }));
    socket.once('error', reject);
  });
}

/** Parses the responses in `bytes`, in order, using each one's Content-Length. */
function parseResponses(bytes: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd === -1) throw new Error(`incomplete head: ${rest.toString().slice(0, 200)}`);
    const [statusLine = '', ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.subarray(headEnd + 4, headEnd + 4 + length);
    expect(body.length, 'the whole body arrived').toBe(length);
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return out;
}

/**
 * Sends `request` on a new connection and reads until the server ends it (which, with
 * the server's timeouts out of reach, only its answer can do).
 */
async function exchange(request: string | Buffer): Promise<RawResponse[]> {
  const conversation = await open();
  conversation.socket.write(request);
  await within(conversation.ended, 'the server ending the connection');
  return parseResponses(conversation.received());
}

/**
 * Resolves once what the server sent on a conversation passes `test`, checked on each
 * chunk that arrives; fails if the connection closes first.
 */
function received(conversation: Conversation, test: (text: string) => boolean): Promise<void> {
  const { socket } = conversation;
  const passes = () => test(conversation.received().toString());
  return within(
    new Promise<void>((done, fail) => {
      const onData = () => {
        if (!passes()) return;
        socket.off('data', onData);
        socket.off('close', onClose);
        done();
      };
      const onClose = () => {
        socket.off('data', onData);
        if (passes()) done();
        else fail(new Error(`closed before the expected answer: ${conversation.received()}`));
      };
      // After open()'s own listener, which collects the chunk this one looks at.
      socket.on('data', onData);
      socket.once('close', onClose);
      onData();
    }),
    'the expected answer',
  );
}

/** `promise`, or a failure naming `what` once {@link HANG_MS} has passed. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: not within ${HANG_MS} ms`)), HANG_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Asserts a `std:error` answer of `status` with `code`, and returns the description. */
function expectStdError(response: RawResponse | undefined, status: number, code: string): string {
  expect(response?.status).toBe(status);
  expect(response?.headers['content-type']).toBe(HAL);
  const body = JSON.parse(response?.body ?? '');
  expect(body['std:error']).toMatchObject({ request_type: 'atomic', response_code: status });
  const description = body['std:error'].resource_status[0].error_descriptions[0];
  expect(description.error_code).toBe(code);
  return description.description;
}

const HOST = 'Host: 127.0.0.1\r\n';
const AUTH = `${HOST}STD-API-Token: ${KEY}\r\n`;
const JSON_POST = `POST /api/v1/people HTTP/1.1\r\n${AUTH}Content-Type: application/json\r\n`;

describe('requests refused by the HTTP parser (clientError)', () => {
  const cases: [string, string, number, string][] = [
    ['a request line that is not HTTP', 'hello\r\n\r\n', 400, 'BAD_REQUEST'],
    ['an invalid method', `G@T / HTTP/1.1\r\n${HOST}\r\n`, 400, 'BAD_REQUEST'],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, 'BAD_REQUEST'],
    [
      'an invalid header name',
      `GET /api/v1/ HTTP/1.1\r\n${HOST}Bad Header: x\r\n\r\n`,
      400,
      'BAD_REQUEST',
    ],
    ['a NUL in the path', `GET /api/v1/\0 HTTP/1.1\r\n${HOST}\r\n`, 400, 'BAD_REQUEST'],
    [
      'a Content-Length that is not a number',
      `${JSON_POST}Content-Length: abc\r\n\r\n`,
      400,
      'BAD_REQUEST',
    ],
    [
      'two different Content-Lengths',
      `${JSON_POST}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      400,
      'BAD_REQUEST',
    ],
    [
      'Content-Length with chunked',
      `${JSON_POST}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      'BAD_REQUEST',
    ],
    [
      'an unknown Transfer-Encoding',
      `${JSON_POST}Transfer-Encoding: gzip, chunked, x\r\n\r\n`,
      400,
      'BAD_REQUEST',
    ],
    [
      'a bad chunk size',
      `${JSON_POST}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      400,
      'BAD_REQUEST',
    ],
    [
      'headers over 16 KiB',
      `GET /api/v1/ HTTP/1.1\r\n${HOST}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
    [
      'a URL over 16 KiB',
      `GET /api/v1/people?filter=${'a'.repeat(20_000)} HTTP/1.1\r\n${HOST}\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
    [
      'chunk extensions over 16 KiB',
      `${JSON_POST}Transfer-Encoding: chunked\r\n\r\n2;x=${'a'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ];

  it.each(cases)('answers %s with a std:error and closes', async (_, request, status, code) => {
    // The connection ends although the client never closes it and no timeout can act.
    const responses = await exchange(request);
    expect(responses).toHaveLength(1);
    const [response] = responses;
    expectStdError(response, status, code);
    expect(response?.headers.connection).toBe('close');
  });

  it('answers garbage sent after a complete exchange on a keep-alive connection', async () => {
    const conversation = await open();
    conversation.socket.write(`GET /api/v1/ HTTP/1.1\r\n${AUTH}\r\n`);
    await received(conversation, (text) => text.includes('"motd"'));
    conversation.socket.write('garbage\r\n\r\n');
    await within(conversation.ended, 'the server ending the connection');
    const [first, second] = parseResponses(conversation.received());
    expect(first?.status).toBe(200);
    expectStdError(second, 400, 'BAD_REQUEST');
    expect(second?.headers.connection).toBe('close');
  });

  it('only destroys a socket it cannot answer on', () => {
    const reset = new PassThrough();
    answerClientError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), reset);
    expect(reset.destroyed).toBe(true);
    expect(reset.read()).toBeNull();

    const ended = new PassThrough();
    ended.end();
    answerClientError(
      Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }),
      ended,
    );
    expect(ended.destroyed).toBe(true);

    // A response already half written: an error answer would corrupt it.
    const busy = Object.assign(new PassThrough(), { _httpMessage: { headersSent: true } });
    answerClientError(
      Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }),
      busy,
    );
    expect(busy.destroyed).toBe(true);
    expect(busy.read()).toBeNull();
  });

  it('answers a request that timed out with 408', () => {
    // Node's timeouts take a minute; its error is handed over as it would be.
    const socket = new PassThrough();
    const timeout = Object.assign(new Error('Request timeout'), {
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    });
    answerClientError(timeout, socket);
    const [response] = parseResponses(socket.read() as Buffer);
    expectStdError(response, 408, 'REQUEST_TIMEOUT');
    expect(response?.headers.connection).toBe('close');
  });

  it('also answers through the testing kit’s listen()', async () => {
    const kit = createTestServer();
    const server = await kit.listen();
    try {
      const conversation = await open(server.port);
      conversation.socket.write('hello\r\n\r\n');
      // The kit's server has the default timeouts, but a timeout would answer 408, not 400.
      await within(conversation.ended, 'the server ending the connection');
      expectStdError(parseResponses(conversation.received())[0], 400, 'BAD_REQUEST');
    } finally {
      await kit.close();
    }
  });
});

describe('requests refused by the node adapter', () => {
  const cases: [string, string][] = [
    ['no Host header', 'GET /api/v1/ HTTP/1.1\r\n\r\n'],
    ['an invalid Host header', 'GET /api/v1/ HTTP/1.1\r\nHost: a b\r\n\r\n'],
    ['an unbalanced IPv6 Host', 'GET /api/v1/ HTTP/1.1\r\nHost: [::1\r\n\r\n'],
    ['a backslash in the path', `GET /api\\v1/ HTTP/1.1\r\n${HOST}\r\n`],
    ['an invalid absolute URL', `GET http://[x/api/v1/ HTTP/1.1\r\n${HOST}\r\n`],
  ];

  it.each(cases)('answers %s with a 400 std:error', async (_, request) => {
    const conversation = await open();
    conversation.socket.write(request);
    await received(conversation, (text) => text.includes('}}'));
    conversation.socket.destroy();
    const description = expectStdError(
      parseResponses(conversation.received())[0],
      400,
      'BAD_REQUEST',
    );
    expect(description).toMatch(/^bad request: /);
  });
});

// No timeout can act here, and but for the chunked case the body can never reach the
// limit (it is never sent, or trickles far too slowly): a 413 at all proves the server
// answered without waiting for the body, however slow the machine.
describe('413 on a keep-alive connection', () => {
  /** Opens a connection and completes one request on it, so that it is kept alive. */
  async function keptAlive(): Promise<Conversation> {
    const conversation = await open();
    conversation.socket.write(`GET /api/v1/ HTTP/1.1\r\n${AUTH}Connection: keep-alive\r\n\r\n`);
    await received(conversation, (text) => text.includes('"motd"'));
    return conversation;
  }

  /** Waits until a second response (the 413) has arrived whole. */
  async function secondResponse(conversation: Conversation): Promise<RawResponse | undefined> {
    await received(
      conversation,
      (text) => text.split('HTTP/1.1 ').length > 2 && text.endsWith('}}'),
    );
    return parseResponses(conversation.received())[1];
  }

  function expectTooLarge(response: RawResponse | undefined, limit: number) {
    const description = expectStdError(response, 413, 'PAYLOAD_TOO_LARGE');
    expect(description).toContain(String(limit));
    expect(response?.headers.connection).toBe('close');
  }

  it('answers at once a body announced larger than the limit and never sent, then closes', async () => {
    const conversation = await keptAlive();
    conversation.socket.write(`${JSON_POST}Content-Length: 5000000\r\n\r\n`);
    expectTooLarge(await secondResponse(conversation), 1024 * 1024);
    // Closed by the server although the client neither sent the body nor closed.
    await within(conversation.ended, 'the server ending the connection');
  });

  it('answers a body announced larger and sent slowly without waiting for it, then closes', async () => {
    const conversation = await keptAlive();
    conversation.socket.write(`${JSON_POST}Content-Length: 2000000\r\n\r\n{"given_name":"`);
    const drip = setInterval(
      () => conversation.socket.writable && conversation.socket.write('x'),
      20,
    );
    try {
      expectTooLarge(await secondResponse(conversation), 1024 * 1024);
      await within(conversation.ended, 'the server ending the connection');
    } finally {
      clearInterval(drip);
    }
  });

  it('answers a chunked body as soon as it passes the limit while the client keeps sending', async () => {
    const conversation = await keptAlive();
    const { socket } = conversation;
    socket.write(`${JSON_POST}Transfer-Encoding: chunked\r\n\r\n`);
    const chunk = `10000\r\n${'a'.repeat(0x10000)}\r\n`;
    let writing = true;
    const pump = () => {
      while (writing && socket.writable && socket.write(chunk)) {}
      if (writing && socket.writable) socket.once('drain', pump);
    };
    pump();
    try {
      expectTooLarge(await secondResponse(conversation), 1024 * 1024);
      await within(conversation.ended, 'the server ending the connection');
    } finally {
      writing = false;
    }
  });

  it('applies the 16 KiB limit of calls without a key the same way', async () => {
    const conversation = await keptAlive();
    conversation.socket.write(
      `POST ${petition}/record_signature_helper HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 20000\r\n\r\n{`,
    );
    expectTooLarge(await secondResponse(conversation), 16 * 1024);
    await within(conversation.ended, 'the server ending the connection');
  });
});
