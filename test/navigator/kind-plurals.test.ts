import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  connectWith,
  defineKind,
  isUnknownKindError,
  many,
  one,
  optional,
  personKind,
  UnknownKindError,
} from '../../src/index.js';
import { recordedMsw } from '../fixtures/recorded-msw.js';

// A kind the connection was not given is read under the plural the table of declared
// kinds gives it (`outreaches`), never under a guessed one (`outreachs`): a guessed
// relation finds nothing in every page, and the walk answers [] instead of the records.

const BASE = 'https://plurals.example/api/v1';
const { server, requests } = recordedMsw();

const entryPoint = http.get(`${BASE}/`, () =>
  HttpResponse.json({
    _links: {
      self: { href: `${BASE}/` },
      'std:people': { href: `${BASE}/people` },
      'acme:widgets': { href: `${BASE}/widgets` },
    },
  }),
);

const ana = {
  identifiers: ['test:1'],
  given_name: 'Ana',
  _links: {
    self: { href: `${BASE}/people/1` },
    'std:outreaches': { href: `${BASE}/people/1/outreaches` },
  },
};

describe('a kind the connection was not given', () => {
  it("pages a person's outreaches under std:outreaches, read untyped", async () => {
    server.use(
      entryPoint,
      http.get(`${BASE}/people/1`, () => HttpResponse.json(ana)),
      http.get(`${BASE}/people/1/outreaches`, () =>
        HttpResponse.json({
          total_records: 1,
          _links: { self: { href: `${BASE}/people/1/outreaches` } },
          _embedded: {
            'std:outreaches': [
              {
                subject: 'Save the park',
                duration: '120', // untyped: left as the server sent it
                _links: { self: { href: `${BASE}/outreaches/7` } },
              },
            ],
          },
        }),
      ),
    );
    const client = await connectWith([personKind], `${BASE}/`);
    const person = await client.people.get(`${BASE}/people/1`);
    const outreaches = person.outreaches();
    expect(outreaches.itemRelation).toBe('std:outreaches');
    const [outreach, ...rest] = await outreaches.toArray();
    expect(rest).toEqual([]);
    expect(outreach?.kind.plural).toBe('outreaches');
    expect(outreach?.data).toEqual({ subject: 'Save the park', duration: '120' });
    expect(outreach?.url).toBe(`${BASE}/outreaches/7`);
  });

  it("takes a preset kind's plural from the table too", async () => {
    const widgetKind = defineKind({
      singular: 'widget',
      plural: 'widgets',
      description: 'A widget of a server of its own',
      shape: () => ({ name: optional(z.string()) }),
      relations: { campaigns: many('event_campaign') },
    });
    server.use(
      entryPoint,
      http.get(`${BASE}/widgets/1`, () =>
        HttpResponse.json({
          name: 'w',
          _links: {
            self: { href: `${BASE}/widgets/1` },
            'std:campaigns': { href: `${BASE}/widgets/1/campaigns` },
          },
        }),
      ),
      http.get(`${BASE}/widgets/1/campaigns`, () =>
        HttpResponse.json({
          _embedded: { 'std:event_campaigns': [{ title: 'Spring', _links: {} }] },
        }),
      ),
    );
    const client = await connectWith([widgetKind], `${BASE}/`);
    const widget = await client.widgets.get(`${BASE}/widgets/1`);
    const campaigns = await widget.campaigns().toArray();
    expect(campaigns.map((campaign) => campaign.data.title)).toEqual(['Spring']);
  });

  it('is an UnknownKindError naming the kind when no table names it, before any request', async () => {
    const widgetKind = defineKind({
      singular: 'widget',
      plural: 'widgets',
      description: 'A widget of a server of its own',
      shape: () => ({ name: optional(z.string()) }),
      relations: { reviews: many('review'), maker: one('maker') },
    });
    server.use(
      entryPoint,
      http.get(`${BASE}/widgets/1`, () =>
        HttpResponse.json({
          name: 'w',
          _links: {
            self: { href: `${BASE}/widgets/1` },
            'std:reviews': { href: `${BASE}/widgets/1/reviews` },
            'std:maker': { href: `${BASE}/makers/1` },
          },
        }),
      ),
    );
    const client = await connectWith([widgetKind], `${BASE}/`);
    const widget = await client.widgets.get(`${BASE}/widgets/1`);
    const sent = requests.length;
    let error: unknown;
    try {
      widget.reviews();
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UnknownKindError);
    expect(isUnknownKindError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'UNKNOWN_KIND',
      kind: 'review',
      from: "widget's std:reviews",
    });
    expect(String(error)).toContain('Unknown kind "review"');
    const maker = await widget.maker().catch((thrown: unknown) => thrown);
    expect(maker).toMatchObject({
      code: 'UNKNOWN_KIND',
      kind: 'maker',
      from: "widget's std:maker",
    });
    expect(requests.length).toBe(sent);
  });
});
