import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  actionNetwork,
  connect,
  connectWith,
  defineKind,
  isResponseFormatError,
  optional,
  type ResponseFormatError,
} from '../../src/index.js';
import { testServer } from '../e2e/reference-server.js';

// connect() takes only an entry point: given a collection's URL it would page
// `std:people` inside a page of people and answer none, so a collection page, a record,
// or a document that links no collection is refused, saying what it is.

async function refusal(connecting: Promise<unknown>): Promise<ResponseFormatError> {
  const error = await connecting.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isResponseFormatError(error)) throw new Error(`not a ResponseFormatError: ${String(error)}`);
  return error;
}

describe('against the reference server', () => {
  const server = testServer(3);
  afterAll(() => server.close());
  const options = { apiKey: server.keys.read, fetch: server.fetch };

  it('connects to its entry point', async () => {
    const client = await connect(server.entryPoint, options);
    expect(await client.people.toArray()).toHaveLength(3);
  });

  it('refuses its people collection, naming it and the entry point above it', async () => {
    const peopleUrl = `${server.entryPoint}people`;
    const error = await refusal(connect(peopleUrl, options));
    expect(error.url).toBe(peopleUrl);
    expect(error.status).toBe(200);
    expect(error.reason).toBe(
      `not an entry point: a collection of std:people (a page of 3 records); the entry point is likely ${server.entryPoint}`,
    );
    expect(error.message).toContain('not an entry point: a collection of std:people');
  });

  it('refuses a page of it, and a person', async () => {
    const client = await connect(server.entryPoint, options);
    const [person] = await client.people.toArray({ limit: 1 });
    if (!person) throw new Error('the server holds people');
    const secondPage = `${server.entryPoint}people?per_page=2&page=2`;
    const error = await refusal(connect(secondPage, options));
    expect(error.reason).toMatch(
      /^not an entry point: a collection of std:people \(a page of 1 record\)/,
    );
    const record = await refusal(connect(person.url, options));
    expect(record.reason).toBe(
      `not an entry point: a record (self link ${person.url}); the entry point is likely ${server.entryPoint}`,
    );
  });

  it('refuses its metadata root, which links no collection', async () => {
    const error = await refusal(connect(`${server.entryPoint}metadata`, options));
    expect(error.reason).toBe(
      'not an entry point: a document that links none of the collections an entry point links (relations: self, std:canvass_response_codes, std:canvass_contact_types, std:canvass_input_types)',
    );
  });
});

describe('against documents of other servers', () => {
  const BASE = 'https://an.example/api/v2';
  const curies = [
    { name: 'osdi', href: 'https://an.example/docs/v2/{rel}', templated: true },
    { name: 'action_network', href: 'https://an.example/docs/v2/{rel}', templated: true },
  ];
  // Shaped like Action Network's entry point (actionnetwork.org/docs/v2/aep).
  const aep = {
    motd: 'Welcome',
    vendor_name: 'Action Network',
    product_name: 'Action Network',
    osdi_version: '1.1.1',
    namespace: 'action_network',
    max_page_size: 25,
    _links: {
      curies,
      self: { href: `${BASE}/` },
      docs: { href: 'https://an.example/docs/' },
      'osdi:people': { href: `${BASE}/people` },
      'osdi:petitions': { href: `${BASE}/petitions` },
      'action_network:event_campaigns': { href: `${BASE}/event_campaigns` },
      'osdi:person_signup_helper': { href: `${BASE}/people` },
    },
  };
  const person = (id: number) => ({
    identifiers: [`action_network:${id}`],
    given_name: `P${id}`,
    _links: { self: { href: `${BASE}/people/${id}` } },
  });
  const documents: Record<string, unknown> = {
    '/': aep,
    // A page as Action Network sends it: record links and the records embedded, no totals.
    '/people': {
      per_page: 25,
      page: 1,
      _links: {
        curies,
        self: { href: `${BASE}/people` },
        next: { href: `${BASE}/people?page=2` },
        'osdi:people': [{ href: `${BASE}/people/1` }, { href: `${BASE}/people/2` }],
      },
      _embedded: { 'osdi:people': [person(1), person(2)] },
    },
    '/people/1': { ...person(1), _links: { ...person(1)._links, curies } },
    // A page of record links only, without paging members.
    '/links': {
      _links: {
        curies,
        'osdi:people': [{ href: `${BASE}/people/1` }, { href: `${BASE}/people/2` }],
      },
    },
    // An empty page: nothing but its paging members.
    '/empty': { total_records: 0, page: 1, _links: { self: { href: `${BASE}/empty` } } },
    // A record without identifiers: its self link says what it is.
    '/petitions/9': {
      title: 'Save the park',
      _links: {
        curies,
        self: { href: `${BASE}/petitions/9` },
        'osdi:signatures': { href: `${BASE}/petitions/9/signatures` },
        index: { href: `${BASE}/` },
      },
    },
    // Action Network's metadata document: it links a collection of a preset's kind only.
    '/metadata': {
      name: 'Action Network',
      _links: {
        curies,
        self: { href: `${BASE}/metadata` },
        'action_network:custom_fields': { href: `${BASE}/metadata/custom_fields` },
      },
    },
    '/docs': {
      _links: { self: { href: `${BASE}/docs` }, 'osdi:guide': { href: `${BASE}/guide` } },
    },
    '/widgets-home': {
      _links: {
        self: { href: `${BASE}/widgets-home` },
        'acme:widgets': { href: `${BASE}/widgets` },
      },
    },
  };
  const msw = setupServer(
    http.get(`${BASE}/*`, ({ request }) => {
      const path = new URL(request.url).pathname.slice('/api/v2'.length);
      const document = documents[path];
      return document === undefined
        ? new HttpResponse(null, { status: 404 })
        : HttpResponse.json(document);
    }),
  );
  beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => msw.resetHandlers());
  afterAll(() => msw.close());

  it("takes Action Network's entry point, under its osdi prefix", async () => {
    const client = await connect(`${BASE}/`, { curiePrefix: 'osdi' });
    expect(client.entryPoint.namespace).toBe('action_network');
    expect(await client.people.url()).toBe(`${BASE}/people`);
  });

  it('refuses a page of people, a page of record links and an empty page', async () => {
    expect((await refusal(connect(`${BASE}/people`))).reason).toBe(
      `not an entry point: a collection of osdi:people (a page of 2 records); the entry point is likely ${BASE}/`,
    );
    expect((await refusal(connect(`${BASE}/links`))).reason).toBe(
      'not an entry point: a collection of osdi:people (a page of 2 record links)',
    );
    expect((await refusal(connect(`${BASE}/empty`))).reason).toBe(
      'not an entry point: a collection page (total_records: 0, page: 1)',
    );
  });

  it('refuses a record, by its identifiers or by its self link, and shows its index link', async () => {
    expect((await refusal(connect(`${BASE}/people/1`))).reason).toBe(
      `not an entry point: a record (self link ${BASE}/people/1); the entry point is likely ${BASE}/`,
    );
    expect((await refusal(connect(`${BASE}/petitions/9`))).reason).toBe(
      `not an entry point: a record (self link ${BASE}/petitions/9); its index link, ${BASE}/, may be the entry point`,
    );
  });

  it('refuses a document that links none of the collections an entry point links', async () => {
    expect((await refusal(connect(`${BASE}/metadata`))).reason).toBe(
      'not an entry point: a document that links none of the collections an entry point links (relations: self, action_network:custom_fields)',
    );
    expect((await refusal(connect(`${BASE}/docs`))).reason).toBe(
      'not an entry point: a document that links none of the collections an entry point links (relations: self, osdi:guide)',
    );
  });

  it('knows the collections of the kinds it is given', async () => {
    const widgetKind = defineKind({
      singular: 'widget',
      plural: 'widgets',
      description: 'A widget',
      shape: () => ({ name: optional(z.string()) }),
    });
    await expect(connect(`${BASE}/widgets-home`)).rejects.toThrow(/links none of the collections/);
    const client = await connectWith([widgetKind], `${BASE}/widgets-home`);
    expect(client.root.url).toBe(`${BASE}/widgets-home`);
  });
});

describe('entry points under any path, and documents that only look like one', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  it('takes an entry point that links the people collection under a path like a record', async () => {
    const base = 'https://crm.example.org/organizations/acme/';
    server.use(
      http.get(base, () =>
        HttpResponse.json({
          _links: { self: { href: base }, 'std:people': { href: `${base}people` } },
        }),
      ),
    );
    const client = await connect(base);
    expect(client.root.url).toBe(base);
  });

  it("refuses Action Network's metadata document even with the preset's kinds", async () => {
    const url = 'https://an.example/api/v2/metadata';
    server.use(
      http.get(url, () =>
        HttpResponse.json({
          _links: {
            self: { href: url },
            curies: [
              { name: 'action_network', href: 'https://an.example/docs/{rel}', templated: true },
            ],
            'action_network:custom_fields': { href: `${url}/custom_fields` },
          },
        }),
      ),
    );
    const error = await refusal(connect(url, { ...actionNetwork, rateLimit: 1000 }));
    expect(error.reason).toMatch(
      /^not an entry point: a document that links none of the collections/,
    );
  });
});
