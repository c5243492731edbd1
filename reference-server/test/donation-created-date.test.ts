/**
 * A donation's `created_date` is the donation's own date (`clientCreatedDate` in the
 * SDK's declaration): a donation created with one (POST to a donations collection, or
 * the record donation helper) keeps it, in its representation, in listings and for
 * `created_date` filters; one that is no RFC 3339 date-time, or lies in the future, is
 * refused with a 400 naming the member, and nothing is written. An update takes the
 * stored date back and refuses another. `modified_date` stays the server's, and every
 * other kind still ignores a `created_date` sent. On the plain server and under Action
 * Network's preset (which documents `created_date` on the donation's create, and writes
 * date-times to the second: `2023-11-05T14:30:00Z`); data invented for the tests.
 */
import { describe, expect, it } from 'vitest';
import { errorOf, type Json } from './helpers.js';
import { actionNetwork, created, idOf, plain, type Server, send } from './preset-servers.js';

const PAST = '2023-11-05T15:30:00+01:00';
/** {@link PAST} as the server stores it, and as the plain server writes it. */
const PAST_STORED = '2023-11-05T14:30:00.000Z';

/** A stored `toISOString` date as `server` writes it: Action Network's without the fraction. */
function writtenBy(server: Server, stored: string): string {
  return server.prefix === 'osdi' ? stored.replace(/\.\d{3}Z$/, 'Z') : stored;
}

/**
 * Whether a date written by a server names an instant from `before` to `after`: compared
 * as instants, since `…:05Z` and `…:05.120Z` do not order as text, and from the start of
 * `before`'s second, which a date written to the second may name.
 */
function writtenBetween(date: string, before: string, after: string): boolean {
  const at = Date.parse(date);
  return at >= Math.floor(Date.parse(before) / 1000) * 1000 && at <= Date.parse(after);
}

/** A fundraising page and a donor on `server`. */
async function pageAndDonor(server: Server) {
  const page = idOf(await created(server, 'fundraising_pages', { title: 'Reading room lamps' }));
  const person = idOf(
    await created(server, 'people', { email_addresses: [{ address: 'ines@example.org' }] }),
  );
  const personLink = {
    [`${server.prefix}:person`]: { href: `http://adis.test${server.api}/people/${person}` },
  };
  return { page, person, personLink };
}

/** The donations `path` lists (every page of them), as documents. */
async function listed(server: Server, path: string): Promise<Json[]> {
  const answer = await send(server, 'GET', path);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body._embedded?.[`${server.prefix}:donations`] ?? [];
}

/** `path` filtered by `filter`, as the ids of the records listed. */
async function filtered(server: Server, path: string, filter: string): Promise<string[]> {
  const records = await listed(server, `${path}?filter=${encodeURIComponent(filter)}`);
  return records.map(idOf);
}

/** The one error description of a 400 answer, which must name `created_date`. */
function createdDateError(answer: { status: number; body: Json }) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  // `std:error` on the plain server, `osdi:error` under Action Network's curie.
  const member = Object.keys(answer.body).find((name) => name.endsWith(':error')) ?? 'std:error';
  const [error, ...others] = errorOf({ 'std:error': answer.body[member] });
  expect(others).toEqual([]);
  expect(error?.properties).toEqual(['created_date']);
  expect(error?.description).toMatch(/^created_date: /);
  return error;
}

const SERVERS = [
  { name: 'the plain server', server: plain },
  { name: 'under the Action Network preset', server: actionNetwork },
];

describe.each(SERVERS)("a donation's created_date, $name", ({ server: make }) => {
  it('a POST to the page’s donations keeps it: the record, listings and filters show it', async () => {
    const server = make();
    const { page, personLink } = await pageAndDonor(server);
    const before = new Date().toISOString();
    const imported = await created(server, `fundraising_pages/${page}/donations`, {
      created_date: PAST,
      modified_date: '2001-01-01T00:00:00Z',
      recipients: [{ display_name: 'Lamp Fund', amount: 30 }],
      _links: personLink,
    });
    const today = await created(server, `fundraising_pages/${page}/donations`, {
      recipients: [{ display_name: 'Lamp Fund', amount: 5 }],
      _links: personLink,
    });
    const after = new Date().toISOString();
    const past = writtenBy(server, PAST_STORED);
    expect(imported.created_date).toBe(past);
    // modified_date is the server's: the time of the write, whatever was sent.
    expect(writtenBetween(imported.modified_date, before, after)).toBe(true);
    expect(writtenBetween(today.created_date, before, after)).toBe(true);

    const id = idOf(imported);
    expect((await send(server, 'GET', `donations/${id}`)).body.created_date).toBe(past);
    for (const path of ['donations', `fundraising_pages/${page}/donations`]) {
      const dates = (await listed(server, path)).map((one) => [idOf(one), one.created_date]);
      expect(dates).toContainEqual([id, past]);
      expect(await filtered(server, path, "created_date lt '2024-01-01T00:00:00Z'")).toEqual([id]);
      expect(await filtered(server, path, "created_date gt '2024-01-01T00:00:00Z'")).toEqual([
        idOf(today),
      ]);
      // The filter compares instants: the stored date in another offset matches it.
      expect(await filtered(server, path, "created_date eq '2023-11-05T09:30:00-05:00'")).toEqual([
        id,
      ]);
    }
  });

  it('a POST to the donations collection and the record donation helper keep it too', async () => {
    const server = make();
    const { page, personLink } = await pageAndDonor(server);
    const direct = await created(server, 'donations', {
      created_date: '2022-02-28T23:00:00Z',
      recipients: [{ display_name: 'Lamp Fund', amount: 8 }],
      _links: {
        ...personLink,
        [`${server.prefix}:fundraising_page`]: {
          href: `http://adis.test${server.api}/fundraising_pages/${page}`,
        },
      },
    });
    expect(direct.created_date).toBe(writtenBy(server, '2022-02-28T23:00:00.000Z'));
    const helped = await send(
      server,
      'POST',
      `fundraising_pages/${page}/${server.donationHelper}`,
      {
        created_date: '2021-06-30T10:15:00Z',
        recipients: [{ display_name: 'Lamp Fund', amount: 12 }],
        person: { email_addresses: [{ address: 'ines@example.org' }] },
      },
    );
    expect(helped.status, JSON.stringify(helped.body)).toBe(201);
    const helpedDate = writtenBy(server, '2021-06-30T10:15:00.000Z');
    expect(helped.body.created_date).toBe(helpedDate);
    expect((await send(server, 'GET', `donations/${idOf(helped.body)}`)).body.created_date).toBe(
      helpedDate,
    );
  });

  it('without one, or with null, the donation is dated when it is written', async () => {
    const server = make();
    const { page, personLink } = await pageAndDonor(server);
    const before = new Date().toISOString();
    const none = await created(server, `fundraising_pages/${page}/donations`, {
      _links: personLink,
    });
    const cleared = await created(server, `fundraising_pages/${page}/donations`, {
      created_date: null,
      _links: personLink,
    });
    const after = new Date().toISOString();
    for (const donation of [none, cleared]) {
      expect(writtenBetween(donation.created_date, before, after)).toBe(true);
    }
  });

  const REFUSED: [string, string, RegExp][] = [
    ['words', 'last Tuesday', /RFC 3339/],
    ['a date without a time', '2023-11-05', /RFC 3339/],
    ['a month that does not exist', '2023-13-05T10:00:00Z', /RFC 3339/],
    ['the future', new Date(Date.now() + 86_400_000).toISOString(), /is in the future/],
  ];
  for (const [what, value, why] of REFUSED) {
    it(`refuses ${what} with a 400 naming created_date, and writes nothing`, async () => {
      const server = make();
      const { page, personLink } = await pageAndDonor(server);
      const direct = await send(server, 'POST', `fundraising_pages/${page}/donations`, {
        created_date: value,
        _links: personLink,
      });
      expect(createdDateError(direct)?.description).toMatch(why);
      const helped = await send(
        server,
        'POST',
        `fundraising_pages/${page}/${server.donationHelper}`,
        { created_date: value, person: { email_addresses: [{ address: 'ines@example.org' }] } },
      );
      expect(createdDateError(helped)?.description).toMatch(why);
      expect(await listed(server, 'donations')).toEqual([]);
      expect((await send(server, 'GET', `fundraising_pages/${page}`)).body.total_donations).toBe(0);
    });
  }

  it('an update takes the stored date back, in any spelling, and refuses another', async () => {
    const server = make();
    const { page, personLink } = await pageAndDonor(server);
    const donation = await created(server, `fundraising_pages/${page}/donations`, {
      created_date: PAST,
      recipients: [{ display_name: 'Lamp Fund', amount: 30 }],
      _links: personLink,
    });
    const id = idOf(donation);
    const past = writtenBy(server, PAST_STORED);
    // What was read, written back whole: taken.
    const { _links: _l, ...read } = (await send(server, 'GET', `donations/${id}`)).body;
    const back = await send(server, 'PUT', `donations/${id}`, read);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.created_date).toBe(past);
    // To the second under Action Network's preset: a PUT in the same second shows the same.
    if (server.prefix === 'osdi') {
      expect(Date.parse(back.body.modified_date)).toBeGreaterThanOrEqual(
        Date.parse(donation.modified_date),
      );
    } else {
      expect(back.body.modified_date > donation.modified_date).toBe(true);
    }
    for (const same of [PAST, '2023-11-05T09:30:00-05:00']) {
      const again = await send(server, 'PUT', `donations/${id}`, { created_date: same });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.created_date).toBe(past);
    }
    const moved = await send(server, 'PUT', `donations/${id}`, {
      created_date: '2023-11-06T14:30:00Z',
      recipients: [{ display_name: 'Lamp Fund', amount: 50 }],
    });
    const error = createdDateError(moved);
    expect(error?.description).toContain('cannot change');
    expect(error?.description).toContain(past);
    const stored = (await send(server, 'GET', `donations/${id}`)).body;
    expect(stored.created_date).toBe(past);
    expect(stored.recipients[0].amount).toEqual(server.prefix === 'osdi' ? '30.00' : 30);
    // Left out, or null: the stored date stays.
    for (const body of [{ voided: false }, { created_date: null }]) {
      const kept = await send(server, 'PUT', `donations/${id}`, body);
      expect(kept.status, JSON.stringify(kept.body)).toBe(200);
      expect(kept.body.created_date).toBe(past);
    }
  });

  it('every other kind still ignores a created_date sent', async () => {
    const server = make();
    const before = new Date().toISOString();
    const petition = await created(server, 'petitions', {
      title: 'Open on Sundays',
      created_date: '2020-01-01T00:00:00Z',
    });
    expect(writtenBetween(petition.created_date, before, new Date().toISOString())).toBe(true);
    const changed = await send(server, 'PUT', `petitions/${idOf(petition)}`, {
      created_date: '2019-01-01T00:00:00Z',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.created_date).toBe(petition.created_date);
  });
});

describe('the spellings of a created_date', () => {
  it('Action Network’s (a space, no offset: UTC) under its preset; the plain server wants RFC 3339', async () => {
    const an = actionNetwork();
    const anSide = await pageAndDonor(an);
    const taken = await created(an, `fundraising_pages/${anSide.page}/donations`, {
      created_date: '2023-11-05 14:30:00',
      _links: anSide.personLink,
    });
    expect(taken.created_date).toBe(writtenBy(an, PAST_STORED));

    const std = plain();
    const stdSide = await pageAndDonor(std);
    const refused = await send(std, 'POST', `fundraising_pages/${stdSide.page}/donations`, {
      created_date: '2023-11-05 14:30:00',
      _links: stdSide.personLink,
    });
    expect(createdDateError(refused)?.description).toMatch(/RFC 3339/);
  });
});
