/**
 * Slow clients cannot hold connections open (slowloris): headers sent a byte at a time,
 * or a body that trickles or stalls, get 408 `REQUEST_TIMEOUT` and the connection is
 * closed within a bound of the server's timeouts, while other clients are served, and a
 * request that is slow but within the limits still works. Short timeouts for the test;
 * raw sockets, so the test controls every byte and when it is sent.
 */
import { connect, type Socket } from 'node:net';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../src/http/env.js';
import { createApp, openStorage, type RunningServer, startServer } from '../src/index.js';
import { killCliRuns, runCli } from './run-cli.js';

const KEY = 'slow-clients-key-1';
const HEADERS_MS = 300;
const REQUEST_MS = 600;
const KEEP_ALIVE_MS = 500;
/**
 * How late past its limit a connection may be closed: a bound on a hang, not on speed. The
 * server looks for late requests every 75 ms here (a quarter of the headers timeout); the
 * rest is room for a loaded machine. Node's own 30 s check would still overrun it.
 */
const LATE_MS = 10_000;
/** How long any wait may take before the test fails rather than hangs. */
const DEADLINE_MS = 20_000;
/** A timeout no test here lives to see: nothing but the behaviour under test closes a connection. */
const NEVER_MS = 600_000;

const storage = openStorage(':memory:');
let running: RunningServer;
const loggedErrors: unknown[] = [];

beforeAll(async () => {
  await storage.tenants.putApiKey(KEY, 'acme', 'write');
  running = await startServer({
    app: createApp({
      storage,
      anonymousRateLimit: false,
      logError: (error) => loggedErrors.push(error),
    }),
    port: 0,
    host: '127.0.0.1',
    timeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS, keepAliveMs: KEEP_ALIVE_MS },
  });
});

afterAll(async () => {
  await running.close();
  await storage.close();
});

afterEach(killCliRuns);

/** A raw connection: what it has read, and when (ms after connecting) it closed. */
interface RawClient {
  socket: Socket;
  answer(): string;
  closed: Promise<number>;
  /** Resolves with the text read once `pattern` is in it (in what came from offset `from` on). */
  read(pattern: RegExp, from?: number): Promise<string>;
}

function rawClient(port = running.port): RawClient {
  const started = performance.now();
  const socket = connect(port, '127.0.0.1');
  socket.setEncoding('latin1');
  let data = '';
  const waiting: Array<() => void> = [];
  socket.on('data', (chunk: string) => {
    data += chunk;
    for (const check of waiting.splice(0)) check();
  });
  // The server may end a cut-off connection with a reset; the test looks at `closed`.
  socket.on('error', () => {});
  const closed = new Promise<number>((done) =>
    socket.once('close', () => done(performance.now() - started)),
  );
  const read = (pattern: RegExp, from = 0) =>
    new Promise<string>((done) => {
      const check = () => (pattern.test(data.slice(from)) ? done(data) : waiting.push(check));
      check();
    });
  return { socket, answer: () => data, closed, read };
}

/** `promise`, or a failure naming `what` once the deadline passes. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: not within ${DEADLINE_MS} ms`)), DEADLINE_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Writes `text`, then one more byte every `everyMs` ms, until the connection closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  socket.write(text);
  const timer = setInterval(() => {
    if (socket.writable) socket.write('a');
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

/** Writes `parts` one after another, `gapMs` apart. */
async function writeSpaced(socket: Socket, parts: readonly string[], gapMs: number): Promise<void> {
  for (const [index, part] of parts.entries()) {
    if (index > 0) await new Promise((done) => setTimeout(done, gapMs));
    await new Promise<void>((done) => socket.write(part, () => done()));
  }
}

const POST_HEAD = (length: number) =>
  `POST /api/v1/people HTTP/1.1\r\nHost: 127.0.0.1\r\nSTD-API-Token: ${KEY}\r\n` +
  `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/**
 * Asserts a connection was closed by the server's timer: with a 408 `REQUEST_TIMEOUT`,
 * not before its limit, and (a bound on a hang) within {@link LATE_MS} of it.
 */
async function expectCutOff(client: RawClient, limitMs: number, what: string): Promise<void> {
  const elapsed = await within(client.closed, what);
  expect(client.answer(), what).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(client.answer(), what).toContain('"error_code":"REQUEST_TIMEOUT"');
  // Not before its limit (less a little for timer granularity; the client's clock
  // started before the server's, so a late start only adds).
  expect(elapsed, what).toBeGreaterThanOrEqual(limitMs - 50);
  expect(elapsed, what).toBeLessThan(limitMs + LATE_MS);
}

/** Resolves once `server` has accepted `count` more connections than it had when called. */
function accepted(server: RunningServer, count: number): Promise<void> {
  let seen = 0;
  return new Promise((done) => {
    const onConnection = () => {
      if (++seen < count) return;
      server.server.off('connection', onConnection);
      done();
    };
    server.server.on('connection', onConnection);
  });
}

async function entryPointStatus(root: string): Promise<number> {
  const res = await fetch(`${root}/api/v1/`, { headers: { 'STD-API-Token': KEY } });
  await res.arrayBuffer();
  return res.status;
}

describe('slow clients', () => {
  it('cuts off headers sent a byte at a time and never finished, and a connection that sends nothing', async () => {
    const trickling = rawClient();
    trickle(trickling.socket, 'GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 20);
    const silent = rawClient();
    await Promise.all([
      expectCutOff(trickling, HEADERS_MS, 'trickled headers'),
      expectCutOff(silent, HEADERS_MS, 'silent connection'),
    ]);
  });

  it('cuts off a body that trickles or stalls after complete headers', async () => {
    const trickling = rawClient();
    trickle(trickling.socket, `${POST_HEAD(4000)}{"given_name":"`, 20);
    const stalled = rawClient();
    stalled.socket.write(`${POST_HEAD(100)}{"given_name":"St`);
    await Promise.all([
      expectCutOff(trickling, REQUEST_MS, 'trickled body'),
      expectCutOff(stalled, REQUEST_MS, 'stalled body'),
    ]);
    // Nothing was written, and a cut-off body is not reported as a server error.
    const people = await fetch(`${running.url}/api/v1/people`, {
      headers: { 'STD-API-Token': KEY },
    });
    expect(((await people.json()) as { total_records: number }).total_records).toBe(0);
    expect(loggedErrors).toEqual([]);
  });

  it('serves other clients while slow ones hold connections', async () => {
    // Limits out of reach here, so the slow connections are still open when the others
    // have been answered, however busy the machine; only a fault could close them.
    const server = await startServer({
      app: createApp({ storage, anonymousRateLimit: false }),
      port: 0,
      timeouts: { headersMs: NEVER_MS, requestMs: NEVER_MS },
    });
    const holding = accepted(server, 20);
    const slow = Array.from({ length: 20 }, (_, index) => {
      const client = rawClient(server.port);
      if (index % 2 === 0) trickle(client.socket, 'GET /api/v1/ HTTP/1.1\r\nHost: x\r\nX-A: ', 20);
      else trickle(client.socket, `${POST_HEAD(4000)}{"given_name":"`, 20);
      return client;
    });
    try {
      // The slow ones hold their connections before the others are sent.
      await within(holding, 'the slow connections accepted');
      const statuses = await Promise.all(
        Array.from({ length: 5 }, () => entryPointStatus(server.url)),
      );
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(slow.filter((client) => client.socket.destroyed)).toEqual([]);
    } finally {
      for (const client of slow) client.socket.destroy();
      await server.close();
    }
  });

  it('answers a request sent slowly in pieces within the limits, and closes the connection once idle past the keep-alive timeout', async () => {
    // Limits far above the pieces' spacing, so the request stays within them however
    // late the client's own timers fire; the keep-alive timeout is the main server's.
    const server = await startServer({
      app: createApp({ storage, anonymousRateLimit: false }),
      port: 0,
      timeouts: { headersMs: 3000, requestMs: 6000, keepAliveMs: KEEP_ALIVE_MS },
    });
    try {
      const client = rawClient(server.port);
      const body = JSON.stringify({ given_name: 'Patient' });
      // Five writes, 100 ms apart: the headers in three, the body in two.
      await writeSpaced(
        client.socket,
        [
          'POST /api/v1/people HTTP/1.1\r\nHost: 127.0.0.1\r\n',
          `STD-API-Token: ${KEY}\r\nContent-Type: application/json\r\n`,
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
          body.slice(0, 8),
          body.slice(8),
        ],
        100,
      );
      await within(client.read(/\r\n\r\n\{.*\}$/s), 'the slow request answered');
      expect(client.answer()).toMatch(/^HTTP\/1\.1 201 Created\r\n/);
      const answer = client.answer();
      const answered = performance.now();

      // Then idle past the keep-alive timeout: Node closes it a second after the time it
      // advertises (`Keep-Alive: timeout=`), so a client reusing it just in time is safe.
      await within(client.closed, 'the idle connection closed');
      const idle = performance.now() - answered;
      // Closed quietly, by the keep-alive timer: nothing sent after the answer.
      expect(client.answer()).toBe(answer);
      expect(idle).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 50);
      expect(idle).toBeLessThan(KEEP_ALIVE_MS + 1000 + LATE_MS);
    } finally {
      await server.close();
    }
  });

  it('does not count the idle time between requests on a kept-alive connection against the headers timeout', async () => {
    // The main server's request limits, and a keep-alive timeout out of reach: only a
    // headers timer counting the idle time could close the connection.
    const server = await startServer({
      app: createApp({ storage, anonymousRateLimit: false }),
      port: 0,
      timeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS, keepAliveMs: NEVER_MS },
    });
    try {
      const client = rawClient(server.port);
      const get = `GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nSTD-API-Token: ${KEY}\r\n\r\n`;
      const answered = /HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{[\s\S]*\}$/;
      client.socket.write(get);
      await within(client.read(answered), 'the first request answered');
      const before = client.answer().length;
      // Idle three times the headers timeout (at least: a late timer only lengthens it).
      await new Promise((done) => setTimeout(done, 3 * HEADERS_MS));
      // Neither cut off (that would be a 408) nor closed.
      expect(client.answer()).toHaveLength(before);
      expect(client.socket.destroyed).toBe(false);
      client.socket.write(get);
      await within(client.read(answered, before), 'the next request on the connection');
      expect(client.answer().slice(before)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      client.socket.destroy();
    } finally {
      await server.close();
    }
  });

  it('does not count the time the server takes to answer', async () => {
    // An answer that takes longer than the whole request may: the limits are on the client.
    const slowAnswer = new Hono<AppEnv>().post('/slow', async (c) => {
      const text = await c.req.text();
      await new Promise((done) => setTimeout(done, REQUEST_MS + 300));
      return c.text(`read ${text.length}`);
    });
    const server = await startServer({
      app: slowAnswer,
      port: 0,
      timeouts: { headersMs: HEADERS_MS, requestMs: REQUEST_MS },
    });
    try {
      const client = rawClient(server.port);
      client.socket.write(
        'POST /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc',
      );
      await within(client.closed, 'the slow answer');
      expect(client.answer()).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*read 3$/);
    } finally {
      await server.close();
    }
  });

  it('takes its timeouts from the command line, and refuses bad ones with exit 2', async () => {
    const refusals = [
      [['--keep-alive-timeout', '0'], '--keep-alive-timeout must be a number of seconds above 0'],
      [
        ['--headers-timeout', '40'],
        '--headers-timeout (40 s) must not exceed --request-timeout (30 s, its default)',
      ],
    ] as const;
    // All at once: each start of the command takes a second or two.
    const bad = refusals.map(([args]) => runCli([...args, '--db', ':memory:']));
    const server = runCli(
      ['--port', '0', '--db', ':memory:', '--quiet'].concat([
        '--headers-timeout',
        '0.3',
        '--request-timeout',
        '0.6',
      ]),
    );
    const port = Number(new URL(await server.ready).port);
    await expectCutOff(rawClient(port), HEADERS_MS, 'silent connection to the command');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    for (const [index, [args, message]] of refusals.entries()) {
      expect(await bad[index]?.exited, args.join(' ')).toBe(2);
      expect(bad[index]?.output().stderr, args.join(' ')).toContain(message);
    }
  });
});
