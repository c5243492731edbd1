/**
 * Action Network's own collections, beside the specification's, as its API v2 documents
 * them (`docs/v2/event_campaigns`, `campaigns`, `unique_id_lists`, `metadata`,
 * `custom_fields`, `embed`): relations under the `action_network` curie, records at
 * `/api/v2/<plural>/{id}`, creates where Action Network allows them. Data invented.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ActionNetworkServer,
  API,
  actionNetworkServer,
  expectCuries,
  expectPage,
  expectRecord,
  type Json,
  nativeId,
  personHash,
  read,
  written,
} from './an-server.js';

let an: ActionNetworkServer;

beforeAll(() => {
  an = actionNetworkServer();
});

/** The six embed codes of `docs/v2/embed`: two layouts, three levels of styling each. */
const EMBED_CODES = [
  'embed_standard_default_styles',
  'embed_standard_layout_only_styles',
  'embed_standard_no_styles',
  'embed_full_default_styles',
  'embed_full_layout_only_styles',
  'embed_full_no_styles',
];

describe('event campaigns (docs/v2/event_campaigns)', () => {
  it('POST event_campaigns, GET event_campaigns/{id}, PUT, and the collection', async () => {
    const created = written(
      await an.post('event_campaigns', {
        identifiers: ['crm:camp-31'],
        origin_system: 'Alder CRM',
        title: 'Read-in week',
        description: '<p>Host a two-hour read-in at a branch near you.</p>',
        host_pitch: 'Bring neighbours, bring a book.',
      }),
    );
    const id = nativeId(created);
    expectRecord(created, `event_campaigns/${id}`);
    expect(created.identifiers).toContain('crm:camp-31');
    expect(created.total_events).toBe(0);
    expect(created._links['osdi:events'].href).toBe(`${API}/event_campaigns/${id}/events`);
    expect(created._links['action_network:embed'].href).toBe(`${API}/event_campaigns/${id}/embed`);
    written(await an.put(`event_campaigns/${id}`, { title: 'Read-in week, autumn' }));
    expect(read(await an.get(`event_campaigns/${id}`)).title).toBe('Read-in week, autumn');
    const page = read(await an.get('event_campaigns'));
    expect(page.per_page).toBe(25);
    expect(
      expectPage(page, 'action_network:event_campaigns', { totals: true }).map(nativeId),
    ).toContain(id);
  });

  it('POST event_campaigns/{id}/events creates an event in the campaign, listed at its events', async () => {
    const campaign = written(await an.post('event_campaigns', { title: 'Stoop sales' }));
    const campaignId = nativeId(campaign);
    const event = written(
      await an.post(`event_campaigns/${campaignId}/events`, {
        title: 'Stoop sale on Going St',
        start_date: '2026-09-19 10:00:00',
        location: {
          venue: 'Going St stoops',
          locality: 'Portland',
          region: 'OR',
          postal_code: '97217',
        },
      }),
    );
    const eventId = nativeId(event);
    expectRecord(read(await an.get(`events/${eventId}`)), `events/${eventId}`);
    const events = read(await an.get(`event_campaigns/${campaignId}/events`));
    expect(expectPage(events, 'osdi:events', { totals: true }).map(nativeId)).toEqual([eventId]);
    expect(read(await an.get(`event_campaigns/${campaignId}`)).total_events).toBe(1);
    // The event takes RSVPs like any other: the record attendance helper at its attendances.
    written(
      await an.post(`events/${eventId}/attendances`, {
        person: personHash('Bea', 'Soto', 'bea.soto@alder.example.org'),
      }),
    );
    expect(read(await an.get(`event_campaigns/${campaignId}`)).total_rsvps).toBe(1);
  });
});

describe('campaigns (docs/v2/campaigns): read only', () => {
  it('GET campaigns answers a page under action_network:campaigns', async () => {
    const page = read(await an.get('campaigns'));
    expect(page.per_page).toBe(25);
    expectPage(page, 'action_network:campaigns', { totals: true });
  });

  it('POST campaigns is refused with an osdi:error', async () => {
    const answer = await an.post('campaigns', { title: 'Save Sunday hours' });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toHaveProperty('osdi:error');
  });
});

describe('unique ID lists (docs/v2/unique_id_lists)', () => {
  it('POST unique_id_lists with people ids, GET, PUT, the collection, DELETE', async () => {
    const ids: string[] = [];
    for (const [given, email] of [
      ['Ada', 'ada.w@alder.example.org'],
      ['Bo', 'bo.n@alder.example.org'],
    ] as const) {
      ids.push(
        nativeId(written(await an.post('people', { person: personHash(given, 'Reyes', email) }))),
      );
    }
    const created = written(
      await an.post('unique_id_lists', { name: 'Hearing RSVPs, October', unique_ids: ids }),
    );
    const id = nativeId(created);
    expectRecord(created, `unique_id_lists/${id}`);
    expect(created).toMatchObject({ name: 'Hearing RSVPs, October', count: 2 });
    expect(read(await an.get(`unique_id_lists/${id}`)).count).toBe(2);
    written(
      await an.put(`unique_id_lists/${id}`, { name: 'Hearing RSVPs', unique_ids: ids.slice(0, 1) }),
    );
    expect(read(await an.get(`unique_id_lists/${id}`))).toMatchObject({
      name: 'Hearing RSVPs',
      count: 1,
    });
    const page = read(await an.get('unique_id_lists'));
    expect(
      expectPage(page, 'action_network:unique_id_lists', { totals: true }).map(nativeId),
    ).toContain(id);
    expect((await an.delete(`unique_id_lists/${id}`)).status).toBe(200);
    expect((await an.get(`unique_id_lists/${id}`)).status).toBe(404);
  });
});

describe('metadata (docs/v2/metadata) and custom fields (docs/v2/custom_fields): read only', () => {
  it('GET metadata links action_network:custom_fields beside the canvass lists', async () => {
    const metadata = read(await an.get('metadata'));
    expect(metadata.name).toEqual(expect.any(String));
    expect(metadata._links.self.href).toBe(`${API}/metadata`);
    expectCuries(metadata);
    expect(metadata._links['action_network:custom_fields'].href).toBe(
      `${API}/metadata/custom_fields`,
    );
    for (const list of ['canvass_response_codes', 'canvass_contact_types', 'canvass_input_types']) {
      expect(metadata._links[`osdi:${list}`]?.href, list).toBe(`${API}/metadata/${list}`);
    }
  });

  it('GET metadata/custom_fields lists the custom fields the group has used', async () => {
    written(
      await an.post('people', {
        person: {
          ...personHash('Cyrus', 'Farahani', 'cyrus.f@alder.example.org'),
          custom_fields: { library_card_branch: 'Alberta', volunteer_shift: 'Saturday' },
        },
      }),
    );
    const fields = read(await an.get('metadata/custom_fields'));
    expect(fields._links.self.href).toBe(`${API}/metadata/custom_fields`);
    expectCuries(fields);
    const list: Json[] = fields['action_network:custom_fields'];
    expect(list.map((field) => field.name)).toEqual(
      expect.arrayContaining(['library_card_branch', 'volunteer_shift']),
    );
    for (const field of list) {
      expect(field.created_date).toEqual(expect.any(String));
      expect(field.modified_date).toEqual(expect.any(String));
    }
  });

  it.each(['POST', 'PUT', 'DELETE'])('%s metadata/custom_fields is refused', async (method) => {
    const answer = await an.call(
      method,
      'metadata/custom_fields',
      method === 'DELETE' ? undefined : {},
    );
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toHaveProperty('osdi:error');
  });
});

describe('embeds (docs/v2/embed)', () => {
  it.each([
    ['petitions', { title: 'Keep the reading garden' }],
    ['events', { title: 'Garden work day', start_date: '2026-09-26T09:00:00Z' }],
    ['forms', { title: 'Garden volunteers' }],
    ['fundraising_pages', { title: 'Garden benches' }],
    ['advocacy_campaigns', { title: 'Write to parks about the garden' }],
    ['event_campaigns', { title: 'Garden weekends' }],
  ])(
    'GET %s/{id}/embed answers the six embed codes, linked as action_network:embed',
    async (plural, body) => {
      const created = written(await an.post(plural, body));
      const id = nativeId(created);
      expect(created._links['action_network:embed']?.href).toBe(`${API}/${plural}/${id}/embed`);
      const embed = read(await an.get(`${plural}/${id}/embed`));
      for (const code of EMBED_CODES) expect(embed[code], code).toEqual(expect.any(String));
      expect(embed._links.self.href).toBe(`${API}/${plural}/${id}/embed`);
      expectCuries(embed);
    },
  );
});
