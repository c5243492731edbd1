// Creates and helper calls of the full SDK carry an Idempotency-Key, and so are retried
// like reads where the server honours it (its entry point says so at connect); a key of
// one's own, or none, per call or for the whole client.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  connect,
  isInvalidIdempotencyKeyError,
  isNetworkError,
} from '../../src/index.js';
import {
  type FaultServer,
  faultServer,
  json,
  resetBeforeHeaders,
  type Script,
  status,
} from '../fixtures/fault-server.js';

const FAST: ClientOptions = { retry: { limit: 2, backoffLimit: 20 }, idleTimeout: 500 };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const entryPointBody = {
  _links: {
    self: { href: '/api/' },
    'std:people': { href: '/api/people' },
    'std:petitions': { href: '/api/petitions' },
    curies: [{ name: 'std', href: 'https://example.org/docs/{rel}', templated: true }],
  },
};
// A server that says it honours Idempotency-Key, as the reference server does.
const entryPoint = json(entryPointBody, 200, { 'Idempotency-Key-Honoured': 'true' });
const ana = { given_name: 'Ana', _links: { self: { href: '/api/people/1' } } };
const petition = json({
  title: 'Parks',
  _links: {
    self: { href: '/api/petitions/1' },
    'std:record_signature_helper': { href: '/api/petitions/1/signatures/helper' },
  },
});

async function client(routes: Record<string, Script>, options: ClientOptions = FAST) {
  server = await faultServer({ '/api/': entryPoint, '/api/petitions/1': petition, ...routes });
  return connect(server.url('/api/'), options);
}

const keysOf = (path: string) =>
  (server?.headers(path) ?? []).map((headers) => headers['idempotency-key']);

async function settle(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('collection.create', () => {
  it('sends a key and retries with it: connection reset, 503, then created', async () => {
    const people = (
      await client({ '/api/people': [resetBeforeHeaders(), status(503), json(ana, 201)] })
    ).people;
    const person = await people.create({ given_name: 'Ana' });
    expect(person.data.given_name).toBe('Ana');
    const keys = keysOf('/api/people');
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(1);
  });

  it('uses a new key for each create', async () => {
    const { people } = await client({ '/api/people': json(ana, 201) });
    await people.create({ given_name: 'Ana' });
    await people.create({ given_name: 'Ana' });
    const [first, second] = keysOf('/api/people');
    expect(second).not.toBe(first);
  });

  it('sends the caller’s own key', async () => {
    const { people } = await client({ '/api/people': [status(502), json(ana, 201)] });
    await people.create({ given_name: 'Ana' }, { idempotencyKey: 'import-row-17' });
    expect(keysOf('/api/people')).toEqual(['import-row-17', 'import-row-17']);
  });

  it('refuses an invalid own key with a typed error, before the POST', async () => {
    const { people } = await client({ '/api/people': json(ana, 201) });
    const error = await settle(people.create({ given_name: 'Ana' }, { idempotencyKey: 'a b' }));
    expect(isInvalidIdempotencyKeyError(error)).toBe(true);
    expect(server?.hits('/api/people')).toBe(0);
  });

  it.each<[string, ClientOptions, { idempotencyKey?: false }]>([
    ['for the client (connect)', { ...FAST, idempotencyKeys: false }, {}],
    ['for the call', FAST, { idempotencyKey: false }],
  ])('with keys off %s: no header and no retry', async (_name, options, call) => {
    const { people } = await client(
      { '/api/people': [resetBeforeHeaders(), json(ana, 201)] },
      options,
    );
    const error = await settle(people.create({ given_name: 'Ana' }, call));
    expect(isNetworkError(error)).toBe(true);
    expect(keysOf('/api/people')).toEqual([undefined]);
  });

  it('sends no key on an update (PUT is idempotent already)', async () => {
    const { people } = await client({ '/api/people/1': json(ana) });
    const person = await people.get(server!.url('/api/people/1'));
    await person.update({ given_name: 'Ana' });
    expect(keysOf('/api/people/1')).toEqual([undefined, undefined]);
  });
});

describe('a server whose entry point does not say it honours keys', () => {
  it('gets a create once after a reset or a 503, with its key, and again after a 429', async () => {
    server = await faultServer({
      '/api/': json(entryPointBody),
      '/api/people': [
        resetBeforeHeaders(),
        status(503),
        status(429, { 'retry-after': '0' }),
        json(ana, 201),
      ],
    });
    const { people } = await connect(server.url('/api/'), FAST);
    expect(isNetworkError(await settle(people.create({ given_name: 'Ana' })))).toBe(true);
    expect(await settle(people.create({ given_name: 'Ana' }))).toMatchObject({ status: 503 });
    expect(keysOf('/api/people')).toHaveLength(2);
    expect(keysOf('/api/people')[0]).toMatch(UUID_V4);
    await people.create({ given_name: 'Ana' });
    const [, , third, retry] = keysOf('/api/people');
    expect(keysOf('/api/people')).toHaveLength(4);
    expect(retry).toBe(third);
  });

  it('is trusted with retries when the caller says so (idempotencyKeys: honoured)', async () => {
    server = await faultServer({
      '/api/': json(entryPointBody),
      '/api/people': [status(503), json(ana, 201)],
    });
    const { people } = await connect(server.url('/api/'), { ...FAST, idempotencyKeys: 'honoured' });
    await people.create({ given_name: 'Ana' });
    expect(keysOf('/api/people')).toHaveLength(2);
  });
});

describe('helper calls of the full SDK', () => {
  it('send a key and retry with it', async () => {
    const helper = '/api/petitions/1/signatures/helper';
    const c = await client({ [helper]: [status(503), json({}, 200)] });
    const record = await c.petitions.get(server!.url('/api/petitions/1'));
    const result = await record.recordSignature({ person: { given_name: 'Ana' } });
    expect(result).toMatchObject({ accepted: false, status: 200, record: undefined });
    const keys = keysOf(helper);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(UUID_V4);
    expect(keys[1]).toBe(keys[0]);
  });

  it('send the caller’s own key, or none', async () => {
    const helper = '/api/petitions/1/signatures/helper';
    const c = await client({ [helper]: json({}, 200) });
    const record = await c.petitions.get(server!.url('/api/petitions/1'));
    await record.recordSignature({ person: { given_name: 'Ana' } }, { idempotencyKey: 'job-9' });
    await record.recordSignature({ person: { given_name: 'Ana' } }, { idempotencyKey: false });
    expect(keysOf(helper)).toEqual(['job-9', undefined]);
  });
});
