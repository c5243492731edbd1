import { describe, expect, it, vi } from 'vitest';
import { accessLine, batchedLines, newRequestId, requestIdFor } from '../src/http/access-log.js';
import { errorOf, harness } from './helpers.js';

/** time, method, path, status, duration, tenant, request id. */
const LINE =
  /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) ([A-Z]+) (\S+) (\d{3}) (\d+\.\d)ms (\S+) (\S+)$/;

function parsed(line: string | undefined) {
  const match = LINE.exec(line ?? '');
  expect(match, line).not.toBeNull();
  const [, time, method, path, status, ms, tenant, id] = match as RegExpExecArray;
  return { time, method, path, status: Number(status), ms: Number(ms), tenant, id };
}

describe('request ids', () => {
  it('are 16 hex digits, different every time', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newRequestId()));
    expect(ids.size).toBe(5000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
  });

  it("keep a client's sane id and replace anything else", () => {
    expect(requestIdFor('checkout-42')).toBe('checkout-42');
    expect(requestIdFor('Root=1-5759e988-bd862e3fe1be46a994272793')).toBe(
      'Root=1-5759e988-bd862e3fe1be46a994272793',
    );
    for (const insane of ['', 'two words', 'a"b', 'line\nbreak', 'x'.repeat(129), 'é']) {
      expect(requestIdFor(insane), insane).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(requestIdFor(undefined)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('come back as X-Request-Id on every answer: API, errors, preflights, docs', async () => {
    const h = harness();
    const answers = [
      await h.call('GET', '/api/v1/'),
      await h.call('GET', '/api/v1/people/nobody'),
      await h.call('GET', '/api/v1/', { key: null }),
      await h.call('GET', '/nowhere'),
      await h.call('GET', '/docs/v1/', { key: null }),
      await h.call('OPTIONS', '/api/v1/people', {
        key: null,
        headers: { Origin: 'https://x.example', 'Access-Control-Request-Method': 'GET' },
      }),
    ];
    const ids = answers.map((res) => res.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const tagged = await h.call('GET', '/api/v1/', { headers: { 'X-Request-Id': 'trace-7' } });
    expect(tagged.headers.get('x-request-id')).toBe('trace-7');
    // A browser page may read it.
    expect(answers[0]?.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });
});

describe('access log', () => {
  it('writes one line per request once its status is known, with tenant and request id', async () => {
    const lines: string[] = [];
    const h = harness({ accessLog: (line) => lines.push(line) });
    const ok = await h.call('GET', '/api/v1/people?per_page=5&email=ana%40example.org');
    const created = await h.call('POST', '/api/v1/people', { body: { given_name: 'Ana' } });
    const refused = await h.call('GET', '/api/v1/people', { key: 'wrong-key-000000' });
    const docs = await h.call('GET', '/docs/v1/people', { key: null });
    const odd = await h.call('GET', '/api/v1/people/a%20b');
    expect(lines).toHaveLength(5);
    const entries = lines.map(parsed);
    expect(entries.map((entry) => [entry.method, entry.path, entry.status, entry.tenant])).toEqual([
      ['GET', '/api/v1/people', 200, 'acme'],
      ['POST', '/api/v1/people', 201, 'acme'],
      ['GET', '/api/v1/people', 401, '-'],
      ['GET', '/docs/v1/people', 200, '-'],
      ['GET', '/api/v1/people/a%20b', 404, 'acme'],
    ]);
    expect(entries.map((entry) => entry.id)).toEqual(
      [ok, created, refused, docs, odd].map((res) => res.headers.get('x-request-id')),
    );
    // The query (here an email address) stays out of the log.
    expect(lines.join('\n')).not.toContain('example.org');
    for (const entry of entries) {
      expect(entry.ms).toBeGreaterThanOrEqual(0);
      expect(Math.abs(Date.parse(entry.time as string) - Date.now())).toBeLessThan(60_000);
    }
  });

  it('is off unless asked for: without accessLog no line is written anywhere', async () => {
    // Everything a default sink could write through: the console and both streams.
    const written: string[] = [];
    const capture = (...args: unknown[]) => {
      written.push(args.map(String).join(' '));
    };
    const spies = [
      ...(['log', 'info', 'debug', 'warn', 'error'] as const).map((method) =>
        vi.spyOn(console, method).mockImplementation(capture),
      ),
      ...[process.stdout, process.stderr].map((stream) =>
        vi.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
          capture(chunk instanceof Uint8Array ? Buffer.from(chunk).toString() : chunk);
          return true;
        }),
      ),
    ];
    let ids: (string | null)[];
    try {
      const h = harness();
      const answers = [
        await h.call('GET', '/api/v1/', { headers: { 'X-Request-Id': 'unlogged-1' } }),
        await h.call('POST', '/api/v1/people', { body: { given_name: 'Ana' } }),
        await h.call('GET', '/api/v1/people/nobody'),
        await h.call('GET', '/docs/v1/', { key: null }),
      ];
      ids = answers.map((res) => res.headers.get('x-request-id'));
      // A batched sink writes after the turn of the event loop: wait past it.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    // Every answer still carries its id, and no line names a request or its id.
    expect(ids[0]).toBe('unlogged-1');
    for (const id of ids.slice(1)) expect(id).toMatch(/^[0-9a-f]{16}$/);
    const lines = written.filter(
      (text) =>
        LINE.test(text.trim()) ||
        /\/(api|docs)\/v1\//.test(text) ||
        ids.some((id) => id !== null && text.includes(id)),
    );
    expect(lines).toEqual([]);
  });

  it('quotes a tenant name that would split the line', () => {
    const line = accessLine({
      at: 0,
      method: 'GET',
      path: '/api/v1/',
      status: 200,
      ms: 1.26,
      tenant: 'Friends of "Elm" Park',
      requestId: 'ab12',
    });
    expect(line).toBe(
      '1970-01-01T00:00:00.000Z GET /api/v1/ 200 1.3ms "Friends of \\"Elm\\" Park" ab12',
    );
  });

  it('batches the lines of one turn of the event loop into one write, after it', async () => {
    const writes: string[] = [];
    const log = batchedLines((text) => writes.push(text));
    log.write('a');
    log.write('b');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\nb\n']);
    log.write('c');
    log.flush();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
  });
});

describe('a 500', () => {
  it('carries the request id as reference_code, in the error report and the access log', async () => {
    const reports: string[] = [];
    const lines: string[] = [];
    const h = harness({
      logError: (message) => reports.push(message),
      accessLog: (line) => lines.push(line),
    });
    h.storage.records.count = async () => {
      throw new Error('disk on fire');
    };
    const { status, body, res } = await h.json('GET', '/api/v1/people');
    expect(status).toBe(500);
    const [description] = errorOf(body);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(description?.reference_code).toBe(id);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain(`${id} GET /api/v1/people`);
    expect(reports[0]).toContain('disk on fire');
    expect(parsed(lines[0])).toMatchObject({ status: 500, id });
  });

  it("uses the client's request id as the reference code when it sent a sane one", async () => {
    const h = harness();
    h.storage.records.count = async () => {
      throw new Error('disk on fire');
    };
    const { body } = await h.json('GET', '/api/v1/people', {
      headers: { 'X-Request-Id': 'client-trace-0001' },
    });
    expect(errorOf(body)[0]?.reference_code).toBe('client-trace-0001');
  });
});
