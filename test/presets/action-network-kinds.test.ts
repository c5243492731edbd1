// Action Network's own kinds (event campaigns, campaigns, unique ID lists, custom
// fields, embeds), given to `connect` by the preset, against documents shaped as its
// documentation describes them (action-network-documents.ts), over msw.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import {
  ACTION_NETWORK_KINDS,
  actionNetwork,
  type CollectionOf,
  connect,
  connectWith,
  defineKind,
  EMBED_RELATION,
  type eventCampaignKind,
  eventKind,
  isLinkNotFoundError,
  isResourceOf,
  isSchemaValidationError,
  linkedAs,
  optional,
  personKind,
} from '../../src/index.js';
import {
  BASE,
  campaign,
  campaignEvent,
  customFieldList,
  embed,
  entryPoint,
  eventCampaign,
  eventCampaignPage,
  metadataRoot,
  uniqueIdList,
} from './action-network-documents.js';

const KEY = 'an-test-key';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The entry point, and the records every test may read; `sent` collects the writes. */
function actionNetworkServer(options: { distinctCuries?: boolean } = {}) {
  const sent: { method: string; url: string; body: unknown; key: string | null }[] = [];
  const record = async (request: Request) => {
    const body: unknown = await request.json();
    sent.push({
      method: request.method,
      url: request.url,
      body,
      key: request.headers.get('OSDI-API-Token'),
    });
    return body;
  };
  server.use(
    http.get(`${BASE}/`, () => HttpResponse.json(entryPoint(options.distinctCuries))),
    http.get(`${BASE}/event_campaigns`, ({ request }) => {
      const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
      return HttpResponse.json(eventCampaignPage(page, 3));
    }),
    http.get(`${BASE}/event_campaigns/ec-9`, () =>
      HttpResponse.json(eventCampaign('ec-9', 'Repair cafés, autumn')),
    ),
    http.get(`${BASE}/event_campaigns/ec-9/events`, () =>
      HttpResponse.json({
        page: 1,
        per_page: 25,
        _links: { self: { href: `${BASE}/event_campaigns/ec-9/events` } },
        _embedded: {
          'osdi:events': [
            campaignEvent('ec-9', 'ev-1', 'Café at the library'),
            campaignEvent('ec-9', 'ev-2', 'Café at the school'),
          ],
        },
      }),
    ),
    http.post(`${BASE}/event_campaigns/ec-9/events`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(campaignEvent('ec-9', 'ev-3', 'Café at the church hall'), {
        status: 201,
      });
    }),
    http.put(`${BASE}/event_campaigns/ec-9`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(eventCampaign('ec-9', 'Repair cafés, autumn'));
    }),
    http.get(`${BASE}/event_campaigns/ec-9/embed`, () =>
      HttpResponse.json(embed('event_campaigns/ec-9')),
    ),
    http.get(`${BASE}/events/ev-1/embed`, () => HttpResponse.json(embed('events/ev-1'))),
    http.get(`${BASE}/campaigns`, () =>
      HttpResponse.json({
        page: 1,
        per_page: 25,
        _links: { curies: entryPoint()._links.curies, self: { href: `${BASE}/campaigns` } },
        _embedded: { 'action_network:campaigns': [campaign('c-1')] },
      }),
    ),
    http.get(`${BASE}/unique_id_lists/u-1`, () =>
      HttpResponse.json(uniqueIdList('u-1', 'Bike owners in Leith', 412)),
    ),
    http.post(`${BASE}/unique_id_lists`, async ({ request }) => {
      const body = (await record(request)) as { name: string; unique_ids: string[] };
      return HttpResponse.json(uniqueIdList('u-2', body.name, body.unique_ids.length), {
        status: 201,
      });
    }),
    http.get(`${BASE}/metadata`, () => HttpResponse.json(metadataRoot())),
    http.get(`${BASE}/metadata/custom_fields`, () => HttpResponse.json(customFieldList())),
  );
  return { sent };
}

/** A client with the preset, its key, over the handlers above. */
function connectWithPreset() {
  return connect(`${BASE}/`, { ...actionNetwork, apiKey: KEY });
}

describe('event campaigns', () => {
  it('pages client.eventCampaigns under action_network:event_campaigns, typed', async () => {
    actionNetworkServer();
    const client = await connectWithPreset();
    const pages = [];
    for await (const page of client.eventCampaigns.pages()) pages.push(page);
    expect(pages.map((page) => [page.number, page.items.length])).toEqual([
      [1, 2],
      [2, 2],
      [3, 2],
    ]);
    const first = pages[0]?.items[0];
    expect(first?.data.title).toBe('Repair cafés, round 1.1');
    expect(first?.data.total_events).toBe(12);
    expect(first?.data.host_pitch).toBe('Have a table and a screwdriver? Host a café.');
    expect(first?.data['action_network:sponsor']).toEqual({
      title: 'Fixers United',
      url: 'https://an.example/groups/fixers',
    });
    expect(first?.url).toBe(`${BASE}/event_campaigns/ec-1-1`);
  });

  it("pages an event campaign's events as events, and creates one in the campaign", async () => {
    const { sent } = actionNetworkServer();
    const client = await connectWithPreset();
    const campaign = await client.eventCampaigns.get(`${BASE}/event_campaigns/ec-9`);
    const events = await campaign.events().toArray();
    expect(events.map((event) => event.data.title)).toEqual([
      'Café at the library',
      'Café at the school',
    ]);
    expect(events.every((event) => isResourceOf(event, eventKind))).toBe(true);
    expect(events[0]?.data.location?.venue).toBe('Library basement');

    const created = await campaign
      .events()
      .create({ title: 'Café at the church hall', start_date: '2025-04-19T10:00:00Z' });
    expect(created.url).toBe(`${BASE}/events/ev-3`);
    expect(sent).toEqual([
      {
        method: 'POST',
        url: `${BASE}/event_campaigns/ec-9/events`,
        body: { title: 'Café at the church hall', start_date: '2025-04-19T10:00:00Z' },
        key: KEY,
      },
    ]);
  });

  it('writes back what it read: update(campaign.data) sends the record unchanged', async () => {
    const { sent } = actionNetworkServer();
    const client = await connectWithPreset();
    const campaign = await client.eventCampaigns.get(`${BASE}/event_campaigns/ec-9`);
    await campaign.update(campaign.data);
    expect(sent[0]?.method).toBe('PUT');
    expect(sent[0]?.body).toMatchObject({
      title: 'Repair cafés, autumn',
      host_instructions: '<p>Book a room, then tell your neighbours.</p>',
      'action_network:hidden': false,
    });
  });

  it('refuses an unknown plain member before sending (typo safety kept)', async () => {
    const { sent } = actionNetworkServer();
    const client = await connectWithPreset();
    const campaign = await client.eventCampaigns.get(`${BASE}/event_campaigns/ec-9`);
    // @ts-expect-error: `host_pich` is not a member of an event campaign
    const error = await campaign.update({ host_pich: 'typo' }).catch((caught: unknown) => caught);
    expect(isSchemaValidationError(error)).toBe(true);
    expect(sent).toEqual([]);
  });
});

describe('embeds', () => {
  it("reads an event campaign's embed through action_network:embed", async () => {
    actionNetworkServer();
    const client = await connectWithPreset();
    const campaign = await client.eventCampaigns.get(`${BASE}/event_campaigns/ec-9`);
    const found = await campaign.embed();
    expect(found?.url).toBe(`${BASE}/event_campaigns/ec-9/embed`);
    expect(found?.data.embed_full_no_styles).toBe(
      "<script src='https://an.example/widgets/event_campaigns/ec-9?style=full-none'></script><div id='an-full-none'></div>",
    );
    expect(found?.kind.singular).toBe('embed');
  });

  it("reads any record's embed with related(EMBED_RELATION)", async () => {
    actionNetworkServer();
    const client = await connectWithPreset();
    const campaign = await client.eventCampaigns.get(`${BASE}/event_campaigns/ec-9`);
    const [event] = await campaign.events().toArray();
    const found = await event?.related(EMBED_RELATION);
    const data = found?.data as { embed_standard_no_styles?: string } | undefined;
    expect(data?.embed_standard_no_styles).toBe(
      "<script src='https://an.example/widgets/events/ev-1?style=standard-none'></script><div id='an-standard-none'></div>",
    );
  });

  it('has no collection of its own: no client.embeds, no client.customFields', async () => {
    actionNetworkServer();
    const client = await connectWithPreset();
    expect('embeds' in client).toBe(false);
    expect('customFields' in client).toBe(false);
    expect(Object.keys(client)).toEqual(
      expect.arrayContaining(['eventCampaigns', 'campaigns', 'uniqueIdLists']),
    );
  });
});

describe('campaigns', () => {
  it('pages client.campaigns with their actions', async () => {
    actionNetworkServer();
    const client = await connectWithPreset();
    const [only, ...rest] = await client.campaigns.toArray();
    expect(rest).toEqual([]);
    expect(only?.data.title).toBe('A cleaner river by summer');
    expect(only?.data.actions?.map((action) => action.title)).toEqual([
      'Sign to the water board',
      'Join a litter pick',
      'Tell us your river story',
    ]);
  });
});

describe('unique ID lists', () => {
  it('gets one by its URL', async () => {
    actionNetworkServer();
    const client = await connectWithPreset();
    const list = await client.uniqueIdLists.get(`${BASE}/unique_id_lists/u-1`);
    expect(list.data).toMatchObject({ name: 'Bike owners in Leith', count: 412 });
  });

  it('creates one by POST to the collection the entry point links, sending name and IDs', async () => {
    const { sent } = actionNetworkServer();
    const client = await connectWithPreset();
    const list = await client.uniqueIdLists.create({
      name: 'Café hosts',
      unique_ids: ['5d2c0e44-aaaa', '5d2c0e44-bbbb', '5d2c0e44-cccc'],
    });
    expect(list.data).toMatchObject({ name: 'Café hosts', count: 3 });
    expect(list.url).toBe(`${BASE}/unique_id_lists/u-2`);
    expect(sent).toEqual([
      {
        method: 'POST',
        url: `${BASE}/unique_id_lists`,
        body: {
          name: 'Café hosts',
          unique_ids: ['5d2c0e44-aaaa', '5d2c0e44-bbbb', '5d2c0e44-cccc'],
        },
        key: KEY,
      },
    ]);
  });

  it('checks the input first: unique_ids must be strings', async () => {
    const { sent } = actionNetworkServer();
    const client = await connectWithPreset();
    const input = { name: 'Café hosts', unique_ids: [17, 18] };
    // @ts-expect-error: unique IDs are strings
    const error = await client.uniqueIdLists.create(input).catch((caught: unknown) => caught);
    expect(isSchemaValidationError(error)).toBe(true);
    expect(sent).toEqual([]);
  });
});

describe('custom fields', () => {
  it('reads metadata/custom_fields through the metadata root, typed', async () => {
    actionNetworkServer();
    const client = await connectWithPreset();
    const fields = await (await client.metadata()).customFields();
    expect(fields.map((field) => [field.name, field.numeric_id])).toEqual([
      ['bike_owner', 311],
      ['ward', 27],
    ]);
    expect(fields[1]?.notes).toBeNull();
  });

  it('refuses a document without the list, rather than answering no fields', async () => {
    actionNetworkServer();
    server.use(http.get(`${BASE}/metadata/custom_fields`, () => HttpResponse.json({})));
    const client = await connectWithPreset();
    const error = await (await client.metadata()).customFields().catch((caught: unknown) => caught);
    expect(isSchemaValidationError(error)).toBe(true);
  });

  it('refuses a list whose fields are not objects (validation on)', async () => {
    actionNetworkServer();
    server.use(
      http.get(`${BASE}/metadata/custom_fields`, () =>
        HttpResponse.json({ 'action_network:custom_fields': ['bike_owner'] }),
      ),
    );
    const client = await connectWithPreset();
    const error = await (await client.metadata()).customFields().catch((caught: unknown) => caught);
    expect(isSchemaValidationError(error)).toBe(true);
  });
});

describe('where the collections are linked', () => {
  it('finds them under action_network: even when that curie expands unlike osdi', async () => {
    actionNetworkServer({ distinctCuries: true });
    server.use(
      http.get(`${BASE}/campaigns`, () =>
        HttpResponse.json({
          _links: { self: { href: `${BASE}/campaigns` } },
          _embedded: { 'action_network:campaigns': [campaign('c-1'), campaign('c-2')] },
        }),
      ),
    );
    const client = await connect(`${BASE}/`, { ...actionNetwork, apiKey: KEY });
    expect(await client.campaigns.url()).toBe(`${BASE}/campaigns`);
    // Without the kind's own relation, std:campaigns (osdi:campaigns) would find no link
    // and the page's records would be missed.
    expect(await client.campaigns.toArray()).toHaveLength(2);
  });

  it('also finds a collection the server links the specification way (osdi:<plural>)', async () => {
    actionNetworkServer({ distinctCuries: true });
    server.use(
      http.get(`${BASE}/`, () => {
        const document = entryPoint(true);
        const { 'action_network:unique_id_lists': _, ...links } = document._links;
        return HttpResponse.json({
          ...document,
          _links: { ...links, 'osdi:unique_id_lists': { href: `${BASE}/id_lists` } },
        });
      }),
      http.get(`${BASE}/id_lists`, () =>
        HttpResponse.json({
          _links: { self: { href: `${BASE}/id_lists` } },
          _embedded: { 'osdi:unique_id_lists': [uniqueIdList('u-1', 'Leith', 4)] },
        }),
      ),
    );
    const client = await connect(`${BASE}/`, { ...actionNetwork, apiKey: KEY });
    const lists = await client.uniqueIdLists.toArray();
    expect(lists.map((list) => list.data.name)).toEqual(['Leith']);
  });

  it('fails with LinkNotFoundError, naming the relations, when the entry point links neither', async () => {
    actionNetworkServer();
    server.use(
      http.get(`${BASE}/`, () =>
        HttpResponse.json({
          _links: {
            curies: entryPoint()._links.curies,
            self: { href: `${BASE}/` },
            'osdi:people': { href: `${BASE}/people` },
          },
        }),
      ),
    );
    const client = await connectWithPreset();
    const error = await client.eventCampaigns.toArray().catch((caught: unknown) => caught);
    expect(isLinkNotFoundError(error)).toBe(true);
    expect(String((error as Error).message)).toContain('action_network:event_campaigns');
  });
});

describe('a preset for another server, declared the same way', () => {
  it('gives a collection of its own kind, under its own relation', async () => {
    server.use(
      http.get('https://acme.example/api/', () =>
        HttpResponse.json({
          _links: {
            curies: [{ name: 'acme', href: 'https://acme.example/rels/{rel}', templated: true }],
            'acme:people': { href: 'https://acme.example/api/people' },
            'acme:surveys': { href: 'https://acme.example/api/surveys' },
          },
        }),
      ),
      http.get('https://acme.example/api/surveys', () =>
        HttpResponse.json({
          _embedded: {
            'acme:surveys': [
              {
                title: 'Park use',
                _links: { self: { href: 'https://acme.example/api/surveys/1' } },
              },
            ],
          },
        }),
      ),
    );
    const surveyKind = linkedAs(
      defineKind({
        singular: 'survey',
        plural: 'surveys',
        description: 'A survey people answer',
        shape: () => ({ title: optional(z.string()) }),
      }),
      'acme:surveys',
    );
    const acme = { curiePrefix: 'acme', kinds: [surveyKind] } as const;
    const client = await connect('https://acme.example/api/', acme);
    const [survey] = await client.surveys.toArray();
    expect(survey?.url).toBe('https://acme.example/api/surveys/1');
    expect(survey?.data.title).toBe('Park use');
    expectTypeOf(survey?.data.title).toEqualTypeOf<string | null | undefined>();
  });
});

describe('types', () => {
  it('types client.eventCampaigns with the preset, and not without it', async () => {
    actionNetworkServer();
    const withPreset = await connectWithPreset();
    expectTypeOf(withPreset.eventCampaigns).toEqualTypeOf<CollectionOf<typeof eventCampaignKind>>();
    expectTypeOf(withPreset.uniqueIdLists.create).parameter(0).toHaveProperty('unique_ids');
    expectTypeOf(withPreset).not.toHaveProperty('embeds');
    expectTypeOf(withPreset).not.toHaveProperty('customFields');

    const plain = await connect(`${BASE}/`, { apiKey: KEY });
    expectTypeOf(plain).not.toHaveProperty('eventCampaigns');
    expectTypeOf(plain.people).toEqualTypeOf(withPreset.people);
    // And at run time: no preset, no kinds.
    expect('eventCampaigns' in plain).toBe(false);

    const few = await connectWith([personKind], `${BASE}/`, { ...actionNetwork, apiKey: KEY });
    expectTypeOf(few).not.toHaveProperty('eventCampaigns');
  });

  it('lists every kind of the preset', () => {
    expect(ACTION_NETWORK_KINDS.map((kind) => [kind.singular, kind.plural, kind.rel])).toEqual([
      ['event_campaign', 'event_campaigns', 'action_network:event_campaigns'],
      ['campaign', 'campaigns', 'action_network:campaigns'],
      ['unique_id_list', 'unique_id_lists', 'action_network:unique_id_lists'],
      ['custom_field', 'custom_fields', null],
      ['embed', 'embeds', null],
    ]);
    expect(actionNetwork.kinds).toBe(ACTION_NETWORK_KINDS);
  });
});
