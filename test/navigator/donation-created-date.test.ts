import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  actionNetwork,
  connect,
  donationKind,
  isSchemaValidationError,
  personKind,
} from '../../src/index.js';
import { recordedMsw } from '../fixtures/recorded-msw.js';

// A donation's created_date is the donation's own date (`clientCreatedDate` in its
// declaration): an import of past donations sends it, on create, on update and in the
// record donation helper's body, and a value that is no date-time is refused before
// anything is sent. Every other kind still drops it as a member the server owns.

const BASE = 'https://donation-dates.example/api/v1';
const PAGE = `${BASE}/fundraising_pages/7`;
const DONATION = `${PAGE}/donations/31`;
const SIGNATURE = `${BASE}/petitions/5/signatures/8`;
const { server, requests } = recordedMsw();
/** The bodies sent, by `METHOD path`. */
const sent: { call: string; body: Record<string, unknown> }[] = [];
beforeEach(() => {
  sent.length = 0;
});

const hal = (body: object) =>
  HttpResponse.json(body, { headers: { 'content-type': 'application/hal+json' } });

/** A donation as a server answers it: imported in 2023, written today. */
const donationJson = {
  identifiers: ['ledger:gift-2291'],
  created_date: '2023-11-05T14:30:00Z',
  modified_date: '2026-02-01T09:00:00Z',
  amount: '40.00',
  currency: 'EUR',
  triggers: { autoresponse: { enabled: false } },
  _links: {
    self: { href: DONATION },
    'std:fundraising_page': { href: PAGE },
    'std:person': { href: `${BASE}/people/3` },
  },
};

const signatureJson = {
  created_date: '2025-06-01T08:00:00Z',
  modified_date: '2025-06-02T08:00:00Z',
  comments: 'For longer opening hours',
  _links: { self: { href: SIGNATURE }, 'std:person': { href: `${BASE}/people/3` } },
};

function record(call: string) {
  return async ({ request }: { request: Request }) => {
    sent.push({ call, body: (await request.json()) as Record<string, unknown> });
    return call.includes('signature') ? hal(signatureJson) : hal(donationJson);
  };
}

function handlers() {
  return [
    http.get(`${BASE}/`, () =>
      hal({
        _links: {
          self: { href: `${BASE}/` },
          'std:people': { href: `${BASE}/people` },
          'std:donations': { href: `${BASE}/donations` },
          'std:fundraising_pages': { href: `${BASE}/fundraising_pages` },
          'std:petitions': { href: `${BASE}/petitions` },
        },
      }),
    ),
    http.get(PAGE, () =>
      hal({
        title: 'Winter appeal',
        _links: {
          self: { href: PAGE },
          'std:donations': { href: `${PAGE}/donations` },
          'std:record_donation_helper': { href: `${PAGE}/record_donation_helper` },
        },
      }),
    ),
    http.get(DONATION, () => hal(donationJson)),
    http.get(SIGNATURE, () => hal(signatureJson)),
    http.post(`${BASE}/donations`, record('POST donations')),
    http.post(`${PAGE}/donations`, record('POST page donations')),
    http.put(DONATION, record('PUT donation')),
    http.post(`${PAGE}/record_donation_helper`, record('POST record_donation_helper')),
    http.post(`${BASE}/people`, async ({ request }) => {
      sent.push({ call: 'POST people', body: (await request.json()) as Record<string, unknown> });
      return hal({ given_name: 'Ana', _links: { self: { href: `${BASE}/people/3` } } });
    }),
    http.put(SIGNATURE, record('PUT signature')),
  ];
}

describe("a donation's created_date is sent", () => {
  it('on create, through the donations collection and a page’s donations', async () => {
    server.use(...handlers());
    const client = await connect(`${BASE}/`);
    await client.donations.create({
      amount: 40,
      created_date: '2023-11-05T14:30:00Z',
      _links: { 'std:person': { href: `${BASE}/people/3` } },
    });
    const page = await client.fundraisingPages.get(PAGE);
    await page.donations().create({ created_date: '2023-11-05 14:30:00', amount: 12 });
    expect(sent).toEqual([
      {
        call: 'POST donations',
        body: {
          amount: 40,
          created_date: '2023-11-05T14:30:00Z',
          _links: { 'std:person': { href: `${BASE}/people/3` } },
        },
      },
      // Another server's spelling goes as it was given: its format is the server's.
      { call: 'POST page donations', body: { created_date: '2023-11-05 14:30:00', amount: 12 } },
    ]);
  });

  it('a Date is sent as ISO 8601 in UTC, in its place', async () => {
    server.use(...handlers());
    const client = await connect(`${BASE}/`);
    await client.donations.create({
      amount: 5,
      created_date: new Date(Date.UTC(2022, 11, 31, 23, 59)),
      currency: 'EUR',
    });
    expect(JSON.stringify(sent[0]?.body)).toBe(
      '{"amount":5,"created_date":"2022-12-31T23:59:00.000Z","currency":"EUR"}',
    );
  });

  it('on update(donation.data): written back with its date, without what the server owns', async () => {
    server.use(...handlers());
    const client = await connect(`${BASE}/`);
    const donation = await client.donations.get(DONATION);
    await donation.update(donation.data);
    const { modified_date: _m, triggers: _t, _links: _l, ...expected } = donationJson;
    expect(sent).toEqual([{ call: 'PUT donation', body: expected }]);
    expect(sent[0]?.body.created_date).toBe('2023-11-05T14:30:00Z');
  });

  it('in the record donation helper’s body, which takes the donation’s fields', async () => {
    server.use(...handlers());
    const client = await connect(`${BASE}/`);
    const page = await client.fundraisingPages.get(PAGE);
    await page.recordDonation({
      created_date: '2023-11-05T14:30:00+01:00',
      amount: 40,
      person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
    });
    expect(sent).toEqual([
      {
        call: 'POST record_donation_helper',
        body: {
          created_date: '2023-11-05T14:30:00+01:00',
          amount: 40,
          person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
        },
      },
    ]);
  });

  it('with the Action Network preset too', async () => {
    server.use(...handlers());
    const client = await connect(`${BASE}/`, { ...actionNetwork, curiePrefix: undefined });
    const donation = await client.donations.get(DONATION);
    await donation.update(donation.data);
    expect(sent[0]?.body).toHaveProperty('created_date', '2023-11-05T14:30:00Z');
  });
});

describe("a donation's created_date that is no date-time", () => {
  for (const created_date of [
    'yesterday',
    '',
    '2023-11-05',
    '2023-13-05T10:00:00Z',
    '05/11/2023 14:30',
  ]) {
    it(`${JSON.stringify(created_date)} is refused before sending, naming created_date`, async () => {
      server.use(...handlers());
      const client = await connect(`${BASE}/`);
      const page = await client.fundraisingPages.get(PAGE);
      const calls = [
        () => client.donations.create({ amount: 5, created_date }),
        () => page.recordDonation({ created_date, person: { given_name: 'Ana' } }),
      ];
      for (const call of calls) {
        const error = await call().then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(isSchemaValidationError(error), String(error)).toBe(true);
        if (!isSchemaValidationError(error)) continue;
        expect(error.issues.map((issue) => issue.path)).toEqual([['created_date']]);
        expect(error.issues[0]?.message).toMatch(/must be a date-time/);
      }
      expect(sent).toEqual([]);
      expect(requests.filter((request) => !request.startsWith('GET'))).toEqual([]);
    });
  }

  it('an invalid Date is refused too', () => {
    const result = donationKind.writeSchema.safeParse({ created_date: new Date(Number.NaN) });
    expect(result.success).toBe(false);
  });
});

describe('every other kind, as before', () => {
  it('a person’s created_date is dropped on create, and a signature’s on update', async () => {
    server.use(...handlers());
    const client = await connect(`${BASE}/`);
    await client.people.create({ given_name: 'Ana', created_date: '2020-01-01T00:00:00Z' });
    const signature = await client.signatures.get(SIGNATURE);
    await signature.update(signature.data);
    expect(sent.map((one) => [one.call, Object.keys(one.body)])).toEqual([
      ['POST people', ['given_name']],
      ['PUT signature', ['comments']],
    ]);
    expect(personKind.readOnly).toContain('created_date');
    expect(donationKind.readOnly).not.toContain('created_date');
    expect(donationKind.readOnly).toContain('modified_date');
  });

  it('the record signature helper refuses a created_date, as an unknown member', async () => {
    server.use(
      ...handlers(),
      http.get(`${BASE}/petitions/5`, () =>
        hal({
          _links: {
            self: { href: `${BASE}/petitions/5` },
            'std:record_signature_helper': { href: `${BASE}/petitions/5/record_signature_helper` },
          },
        }),
      ),
    );
    const client = await connect(`${BASE}/`);
    const petition = await client.petitions.get(`${BASE}/petitions/5`);
    const error = await petition
      .recordSignature({
        // @ts-expect-error: not a member of the record signature helper's body
        created_date: '2020-01-01T00:00:00Z',
        person: { given_name: 'Ana' },
      })
      .catch((thrown: unknown) => thrown);
    expect(isSchemaValidationError(error)).toBe(true);
    expect(sent).toEqual([]);
  });
});
