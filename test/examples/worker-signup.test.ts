import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../reference-server/src/index.js';
import { createTestServer, type TestServer } from '../../reference-server/src/testing.js';
import { type Client, connect, field, type PetitionResource } from '../../src/index.js';

// examples/worker-signup run in workerd (Miniflare) as wrangler would run it: bundled
// by esbuild with the Workers conditions, the entry and compatibility date read from its
// wrangler.json, its vars, secrets and KV namespace bound. It signs a petition on a
// reference server listening on loopback, and receives that server's webhooks.
const root = fileURLToPath(new URL('../../', import.meta.url));
const folder = join(root, 'examples/worker-signup');
const WEBHOOK_SECRET = 'whsec_worker_test';
const WORKER = 'http://worker.test';

/** What the test reads of a KV namespace (Miniflare types it with Workers types, not installed). */
interface KVReader {
  list(options: { prefix: string }): Promise<{ keys: { name: string }[] }>;
  get(key: string): Promise<string | null>;
}

interface WranglerConfig {
  main: string;
  compatibility_date: string;
  compatibility_flags?: string[];
  vars?: Record<string, string>;
  kv_namespaces?: { binding: string }[];
}

let config: WranglerConfig;
let script: string;
let kit: TestServer;
/** The write key the Worker is given as its ADIS_KEY secret. */
let key: string;
let running: RunningServer;
let client: Client;
let petition: PetitionResource;
let helperHref: string;
let mf: Miniflare;
/** Every page and answer the Workers served, to check that the key is in none. */
const served: string[] = [];
/** What the Worker printed (console.log and console.error). */
const logs: string[] = [];
/** Tests waiting for a line of the Worker's (see `logLine`). */
const logWaiters = new Set<{ text: string; resolve: (line: string) => void }>();

// The SDK's source, not dist/: a lone `vitest run` then tests the current code (npm
// test builds dist/ first; a user's wrangler bundles the same modules from there).
const sdkFromSource: Plugin = {
  name: 'adis-sdk-from-source',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^adis-sdk\/(helpers|webhooks)$/ }, ({ path }) => ({
      path: join(root, 'src', path.slice('adis-sdk/'.length), 'index.ts'),
    }));
  },
};

function collect(stream: Readable): void {
  stream.setEncoding('utf8');
  // A line may come in two chunks: only whole lines are kept.
  let rest = '';
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts.filter(Boolean)) {
      logs.push(line);
      for (const waiter of [...logWaiters]) {
        if (!line.includes(waiter.text)) continue;
        logWaiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  });
  stream.on('end', () => {
    if (rest !== '') logs.push(rest);
  });
}

/** A Worker with the example's bindings; `overrides` replace some of them. */
function startWorker(overrides: Record<string, string> = {}): Miniflare {
  return new Miniflare({
    modules: true,
    script,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags ?? [],
    bindings: {
      ...config.vars,
      PETITION_HELPER_HREF: helperHref,
      ADIS_KEY: key,
      ADIS_WEBHOOK_SECRET: WEBHOOK_SECRET,
      ...overrides,
    },
    kvNamespaces: (config.kv_namespaces ?? []).map((namespace) => namespace.binding),
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      collect(stdout);
      collect(stderr);
    },
  });
}

/** Calls a Worker and keeps what it answered. */
async function call(
  worker: Miniflare,
  path: string,
  init?: { method: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await worker.dispatchFetch(`${WORKER}${path}`, init);
  const text = await response.text();
  served.push(text, JSON.stringify([...response.headers]));
  return { status: response.status, text, headers: new Headers([...response.headers]) };
}

function postForm(worker: Miniflare, fields: Record<string, string>) {
  return call(worker, '/', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

async function totalSignatures(): Promise<number> {
  return (await petition.refresh()).data.total_signatures ?? 0;
}

/**
 * The first line the Worker printed with `text`, once it has printed it (the test
 * timeout bounds the wait: workerd's output comes when it comes on a loaded machine).
 */
function logLine(text: string): Promise<string> {
  const line = logs.find((entry) => entry.includes(text));
  if (line !== undefined) return Promise.resolve(line);
  return new Promise((resolve) => logWaiters.add({ text, resolve }));
}

beforeAll(async () => {
  config = JSON.parse(await readFile(join(folder, 'wrangler.json'), 'utf8')) as WranglerConfig;
  const bundle = await build({
    entryPoints: [join(folder, config.main)],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    plugins: [sdkFromSource],
    write: false,
    logLevel: 'silent',
  });
  script = bundle.outputFiles[0]?.text ?? '';
  kit = createTestServer();
  key = kit.keys.write;
  running = await kit.listen();
  client = await connect(running.entryPoint, { apiKey: kit.keys.write });
  petition = await client.petitions.create({ title: 'Keep Elm Park public' });
  helperHref = petition.link('std:record_signature_helper')?.url() ?? '';
  mf = startWorker();
  await mf.ready;
});

afterAll(async () => {
  await mf?.dispose();
  await kit?.close();
});

describe('examples/worker-signup', () => {
  it('its wrangler.json needs no nodejs_compat; the helper href is the listening server’s', () => {
    expect(config.compatibility_flags ?? []).not.toContain('nodejs_compat');
    expect(helperHref).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*record_signature_helper$/);
  });

  it('GET / serves the signup form', async () => {
    const { status, text, headers } = await call(mf, '/', { method: 'GET' });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain('text/html');
    expect(text).toContain('<form method="post" action="/">');
    for (const name of ['given_name', 'family_name', 'email', 'comments']) {
      expect(text).toContain(`name="${name}"`);
    }
  });

  it('POST / records the signature with the key: thank-you page, one more signature, the person known', async () => {
    const before = await totalSignatures();
    const email = `ana-${crypto.randomUUID().slice(0, 8)}@example.org`;
    const { status, text } = await postForm(mf, {
      given_name: 'Ana',
      family_name: 'Ruiz',
      email,
      comments: 'Keep it <public>!',
    });
    expect(status).toBe(200);
    expect(text).toContain('Thank you, Ana! Your signature has been recorded.');
    expect(await totalSignatures()).toBe(before + 1);
    const people = await client.people.filter(field('email_address').eq(email)).toArray();
    expect(people.map((person) => person.data.family_name)).toEqual(['Ruiz']);
    const [signature] = await petition.signatures().toArray();
    expect(signature?.data.comments).toBe('Keep it <public>!');
  });

  it('POST / without an email: 400, the form again with what was typed, nothing recorded', async () => {
    const before = await totalSignatures();
    const { status, text } = await postForm(mf, { given_name: 'Bea <b>', comments: 'hi' });
    expect(status).toBe(400);
    expect(text).toContain('Please give your email address.');
    expect(text).toContain('value="Bea &lt;b&gt;"'); // kept, escaped
    expect(await totalSignatures()).toBe(before);
  });

  it('an email the server refuses: 400 with the server’s reason, nothing recorded', async () => {
    const before = await totalSignatures();
    const { status, text } = await postForm(mf, { given_name: 'Cy', email: 'cy@example..org' });
    expect(status).toBe(400);
    expect(text).toContain('Your signature could not be recorded:');
    expect(text).toContain('must be an email address');
    expect(text).toContain('value="cy@example..org"');
    expect(await totalSignatures()).toBe(before);
  });

  it('misconfigured: a refused key gives 502 and a try-later page; no webhook secret, 503', async () => {
    const misconfigured = startWorker({ ADIS_KEY: 'revoked-key', ADIS_WEBHOOK_SECRET: '' });
    try {
      const before = await totalSignatures();
      const { status, text } = await postForm(misconfigured, { email: 'dee@example.org' });
      expect(status).toBe(502);
      expect(text).toContain('could not be recorded right now');
      expect(text).not.toContain('revoked-key');
      expect(await totalSignatures()).toBe(before);
      expect(await logLine('signature not recorded')).toContain('401');
      const unsigned = await call(misconfigured, '/webhooks', { method: 'POST', body: '[]' });
      expect(unsigned.status).toBe(503);
    } finally {
      await misconfigured.dispose();
    }
  });

  it('receives the server’s signed webhooks (kept in KV, duplicates skipped); a wrong secret gets 401', async () => {
    const toWorker = async (request: Request): Promise<Response> => {
      const answer = await call(mf, '/webhooks', {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
      });
      return new Response(answer.text, { status: answer.status });
    };
    const good = await kit.webhooks.subscribe({ secret: WEBHOOK_SECRET, handler: toWorker });
    const bad = await kit.webhooks.subscribe({ secret: 'not-the-secret', handler: toWorker });
    const email = `eve-${crypto.randomUUID().slice(0, 8)}@example.org`;
    expect((await postForm(mf, { given_name: 'Eve', email })).status).toBe(200);

    await kit.webhooks.deliver();
    const to = (url: string) => kit.webhooks.deliveries.filter((d) => d.url === url);
    expect(to(good.url).map((d) => d.status)).toEqual([200]);
    // Refused, every time: the kit retries a refused delivery within deliver() once its
    // backoff (1 ms to 1 s, random) has passed, which it may while deliver() runs.
    expect(to(bad.url).length).toBeGreaterThan(0);
    expect(new Set(to(bad.url).map((d) => d.status))).toEqual(new Set([401]));

    const kv = (await mf.getKVNamespace('WEBHOOK_EVENTS')) as unknown as KVReader;
    const { keys } = await kv.list({ prefix: 'signature:' });
    expect(keys).toHaveLength(1);
    const kept = JSON.parse((await kv.get(keys[0]?.name ?? '')) ?? 'null') as unknown;
    // The kit's deliveries link records under its own origin (http://adis.test).
    const petitionPath = new URL(petition.url).pathname;
    expect(kept).toMatchObject({ email, petition: expect.stringContaining(petitionPath) });
    expect(await logLine(`webhook: ${email} signed`)).toContain(petitionPath);

    // The same delivery sent again: the KV seen store, not memory, knows its events.
    const [delivery] = to(good.url);
    const again = await call(mf, '/webhooks', {
      method: 'POST',
      headers: delivery?.headers ?? {},
      body: delivery?.body ?? '',
    });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.text)).toMatchObject({ handled: 0, duplicates: 1 });
  });

  it('never shows the API key: not in a page, a header or a log line', () => {
    expect(served.length).toBeGreaterThan(10);
    for (const text of [...served, ...logs]) expect(text).not.toContain(key);
  });
});
