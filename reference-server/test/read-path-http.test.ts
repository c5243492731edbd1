/**
 * The read path served over HTTP by @hono/node-server answers exactly what the app
 * answers in-process: the key read from the node request's raw headers, the records
 * spliced from their stored bytes, the CORS and API headers set on the final response.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApp,
  openStorage,
  type RunningServer,
  seedPeople,
  startServer,
} from '../src/index.js';
import type { Json } from './helpers.js';

const KEY = 'read-path-key-01';
const PUBLIC = 'http://public.example';
const storage = openStorage(':memory:');
const app = createApp({ storage, publicUrl: PUBLIC, corsOrigins: ['https://page.example'] });
let running: RunningServer;

beforeAll(async () => {
  await storage.tenants.putApiKey(KEY, 'acme', 'read');
  await seedPeople(storage, { tenant: 'acme', count: 120, seed: 5 });
  running = await startServer({ app, port: 0 });
});

afterAll(async () => {
  await running.close();
  await storage.close();
});

/** A GET over HTTP with raw header lines (so that a header may be repeated). */
function get(
  path: string,
  headers: [string, string][],
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    // Raw header lines replace Node's own, Host included.
    const lines = [['Host', `127.0.0.1:${running.port}`], ...headers].flat();
    const req = request(`${running.url}${path}`, { headers: lines }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function inProcess(path: string) {
  const res = await app.fetch(
    new Request(`${PUBLIC}${path}`, {
      headers: { 'STD-API-Token': KEY, Origin: 'https://page.example' },
    }),
  );
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe('the read path over HTTP', () => {
  it('answers a page and a record with the bytes and headers of an in-process call', async () => {
    const page = await inProcess('/api/v1/people?per_page=100');
    expect(page.status).toBe(200);
    const person = (JSON.parse(page.body.toString()) as Json)._embedded['std:people'][7];
    const path = new URL(person._links.self.href as string).pathname;
    for (const target of ['/api/v1/people?per_page=100', '/api/v1/people?page=2', path]) {
      const local = await inProcess(target);
      const served = await get(target, [
        ['std-api-token', KEY],
        ['Origin', 'https://page.example'],
      ]);
      expect(served.status, target).toBe(200);
      expect(served.body.equals(local.body), target).toBe(true);
      for (const name of [
        'content-type',
        'cache-control',
        'access-control-allow-origin',
        'access-control-expose-headers',
        'vary',
      ]) {
        expect(served.headers[name], `${target} ${name}`).toBe(
          local.headers.get(name) ?? undefined,
        );
      }
      expect(served.headers['content-length']).toBe(String(served.body.length));
    }
  });

  it('reads the key header in any case, and a repeated one as web Headers join it', async () => {
    const path = '/api/v1/people?per_page=1';
    expect((await get(path, [['STD-API-TOKEN', KEY]])).status).toBe(200);
    const twice = await get(path, [
      ['STD-API-Token', KEY],
      ['std-api-token', KEY],
    ]);
    // `Headers.get` gives "key, key": not a key, as in-process.
    expect(twice.status).toBe(401);
    const missing = await get(path, []);
    expect(missing.status).toBe(401);
    expect((JSON.parse(missing.body.toString()) as Json)['std:error']).toBeDefined();
  });
});
