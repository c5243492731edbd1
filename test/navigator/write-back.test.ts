import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { actionNetwork, connect, connectWith, personKind } from '../../src/index.js';
import { inInputOrder } from '../../src/navigator/input-order.js';
import { recordedMsw } from '../fixtures/recorded-msw.js';

// What a write back sends: the record as it was read, member for member and in its
// order, less the members the server owns; vendor members and Action Network's
// vocabulary unchanged (the round-trip rule, docs/round-trip.md).

const BASE = 'https://write-back.example/api/v1';
const { server } = recordedMsw();
const bodies: string[] = [];
beforeEach(() => {
  bodies.length = 0;
});

// Members in an order no schema lists them in, with a vendor member at two depths.
const personJson = `{"phone_numbers":[{"status":"subscribed","number":"12025550123","primary":true}],"action_network:person_id":"a1","email_addresses":[{"status":"previous bounce","address":"ana@example.org","acme:verified":true}],"given_name":"Ana","created_date":"2026-01-02 03:04:05","modified_date":"2026-01-03T00:00:00Z","_links":{"self":{"href":"${BASE}/people/1"}}}`;

function handlers() {
  return [
    http.get(`${BASE}/`, () =>
      HttpResponse.json({
        _links: { self: { href: `${BASE}/` }, 'std:people': { href: `${BASE}/people` } },
      }),
    ),
    http.get(`${BASE}/people/1`, () =>
      HttpResponse.text(personJson, { headers: { 'content-type': 'application/hal+json' } }),
    ),
    http.put(`${BASE}/people/1`, async ({ request }) => {
      bodies.push(await request.text());
      return HttpResponse.text(personJson, { headers: { 'content-type': 'application/hal+json' } });
    }),
  ];
}

describe('writing back what was read', () => {
  it('update(person.data) sends the record as read, in its order, without the server-owned dates', async () => {
    server.use(...handlers());
    const client = await connect(`${BASE}/`);
    const person = await client.people.get(`${BASE}/people/1`);
    await person.update(person.data);
    const { created_date: _c, modified_date: _m, _links: _l, ...expected } = JSON.parse(personJson);
    expect(bodies).toEqual([JSON.stringify(expected)]);
  });

  it('a Date is sent as ISO 8601 in place, the other members in the caller order', () => {
    const when = new Date(Date.UTC(2026, 8, 1, 18));
    const parsed = personKind.writeSchema.parse({ given_name: 'Ana' });
    expect(parsed).toEqual({ given_name: 'Ana' });
    expect(
      inInputOrder(
        { z: 1, start_date: when, a: [{ y: 1, x: 2 }] },
        { a: [{ x: 2, y: 1 }], start_date: when.toISOString(), z: 1 },
      ),
    ).toStrictEqual({ z: 1, start_date: '2026-09-01T18:00:00.000Z', a: [{ y: 1, x: 2 }] });
    // A member the parse adds comes last; __proto__ stays an own member.
    const withProto = JSON.parse('{"__proto__": {"x": 1}, "b": 2}');
    const ordered = inInputOrder(withProto, { b: 2, __proto__: { x: 1 }, c: 3 }) as object;
    expect(Object.keys(ordered)).toEqual(['b', 'c']);
  });

  it('a create without a response answers its Location, or undefined for an unusable one', async () => {
    let location = 'ftp://elsewhere.example/p/1';
    server.use(
      ...handlers(),
      http.post(
        `${BASE}/people`,
        () => new HttpResponse(null, { status: 201, headers: { location } }),
      ),
    );
    const client = await connect(`${BASE}/`);
    expect(await client.people.create({ given_name: 'Ana' }, { returnResponse: false })).toBe(
      undefined,
    );
    location = '/api/v1/people/9';
    expect(await client.people.create({ given_name: 'Ana' }, { returnResponse: false })).toBe(
      'https://write-back.example/api/v1/people/9',
    );
  });

  it('connectWith counts the kinds a preset spreads into the options', async () => {
    server.use(
      http.get(`${BASE}/`, () =>
        HttpResponse.json({
          _links: {
            self: { href: `${BASE}/` },
            'std:people': { href: `${BASE}/people` },
            'std:event_campaigns': { href: `${BASE}/event_campaigns` },
          },
        }),
      ),
    );
    const client = await connectWith([personKind], `${BASE}/`, {
      ...actionNetwork,
      curiePrefix: undefined,
    });
    expect(Object.keys(client)).toContain('eventCampaigns');
  });
});
