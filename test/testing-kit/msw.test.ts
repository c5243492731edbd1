/**
 * The testing kit as a user would use it (docs/testing.md shows this same file, with
 * package imports): msw sends the SDK's requests to an in-process reference server,
 * reset to the same seed data after every test.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestServer } from '../../reference-server/src/testing.js';
import { type Client, connect, isHTTPError, primaryEmail } from '../../src/index.js';

const kit = createTestServer({ seed: { people: 120, seed: 42 } });
const server = setupServer(...kit.handlers);
let client: Client;

beforeAll(async () => {
  // 'error': a request to any other host fails the test instead of reaching the network.
  server.listen({ onUnhandledRequest: 'error' });
  // No custom fetch: msw intercepts globalThis.fetch, which the SDK uses.
  client = await connect(kit.entryPoint, { apiKey: kit.keys.write });
});
afterEach(() => {
  server.resetHandlers();
  kit.reset();
});
afterAll(async () => {
  server.close();
  await kit.close();
});

it('creates a person', async () => {
  const ana = await client.people.create({
    given_name: 'Ana',
    family_name: 'Lopez',
    email_addresses: [{ address: 'ana@example.org', primary: true }],
  });
  expect(ana.url).toMatch(/^http:\/\/adis\.test\/api\/v1\/people\/[0-9a-f-]{36}$/);
  expect(primaryEmail(ana.data)).toBe('ana@example.org');
  const again = await client.people.get(ana.url);
  expect(again.data.family_name).toBe('Lopez');
});

it('starts every test from the seed data', async () => {
  // The person of the previous test is gone: kit.reset() ran after it.
  for await (const page of client.people.pages({ limit: 1 })) {
    expect(page.totalRecords).toBe(120);
  }
});

it('pages through the seeded people', async () => {
  const sizes: number[] = [];
  const urls = new Set<string>();
  for await (const page of client.people.pages()) {
    sizes.push(page.items.length);
    for (const person of page.items) urls.add(person.url);
  }
  expect(sizes).toEqual([100, 20]);
  expect(urls.size).toBe(120);
});

it('records a signature of a petition', async () => {
  const petition = await client.petitions.create({ title: 'Save Elm Park' });
  const result = await petition.recordSignature({
    comments: 'Keep the park public!',
    person: { given_name: 'Bo', email_addresses: [{ address: 'bo@example.org' }] },
  });
  expect(result.complete).toBe(true);
  expect(result.record?.data.comments).toBe('Keep the park public!');
  expect(result.person && primaryEmail(result.person.data)).toBe('bo@example.org');
  const signed = await client.petitions.get(petition.url);
  expect(signed.data.total_signatures).toBe(1);
});

it('refuses a write with the read-only key', async () => {
  const reader = await connect(kit.entryPoint, { apiKey: kit.keys.read });
  const error = await reader.people.create({ given_name: 'Cy' }).catch((e: unknown) => e);
  expect(isHTTPError(error) && error.status).toBe(403);
  const created = await client.people.toArray();
  expect(created.map((person) => person.data.given_name)).not.toContain('Cy');
});

it('retries through a brief outage that one test simulates', async () => {
  // server.use() puts a handler in front of the kit's for this test only (resetHandlers).
  let outages = 0;
  server.use(
    http.get(
      `${kit.entryPoint}people`,
      () => {
        outages += 1;
        return HttpResponse.json({}, { status: 503 });
      },
      { once: true },
    ),
  );
  const people = await client.people.toArray();
  expect(outages).toBe(1);
  expect(people).toHaveLength(120);
});
