/**
 * The preset's vocabulary (`vocabulary: 'extended'`) and money (`money:
 * 'decimal-string'`): under ACTION_NETWORK_PRESET the server takes what Action Network
 * documents beside the specification (tag_list, a phone's status, its email statuses,
 * message targets, remove_tags, date-times such as `2026-09-01 18:00:00`) and writes
 * money as `"25.00"`; the plain server keeps refusing the same requests, naming the
 * property. Data invented for the tests.
 */
import { describe, expect, it } from 'vitest';
import type { Json } from './helpers.js';
import {
  actionNetwork,
  created as createdDocument,
  idOf,
  plain,
  type Server,
  send,
} from './preset-servers.js';

/** Creates a record and answers its id. */
async function created(server: Server, plural: string, body: unknown): Promise<string> {
  return idOf(await createdDocument(server, plural, body));
}

/** The properties a 400 names, under the server's curie prefix. */
function refusedProperties(server: Server, answer: { status: number; body: Json }): string[] {
  expect(answer.status).toBe(400);
  const error = answer.body[`${server.prefix}:error`];
  return error.resource_status.flatMap((status: Json) =>
    status.error_descriptions.flatMap((description: Json) => description.properties ?? []),
  );
}

/** The stored document of a record, as the storage holds it. */
async function stored(server: Server, kind: string, id: string): Promise<Json> {
  const tenant = await server.h.storage.tenants.get('acme');
  if (!tenant) throw new Error('no tenant acme');
  return (await server.h.storage.records.get(tenant.id, kind, id))?.doc;
}

const SIGNER = { given_name: 'Rosa', email_addresses: [{ address: 'rosa@example.org' }] };

describe('vocabulary: what the preset takes and the plain server refuses', () => {
  const records = [
    [
      'a petition tag_list',
      'petitions',
      { title: 'Keep the ferry', tag_list: ['harbour'] },
      'tag_list',
      ['harbour'],
    ],
    [
      'message targets',
      'messages',
      { subject: 'Ferry vote', targets: [{ href: 'https://example.org/q/3' }] },
      'targets',
      [{ href: 'https://example.org/q/3' }],
    ],
    [
      'a message tag_list',
      'messages',
      { subject: 'Ferry vote', tag_list: ['harbour'] },
      'tag_list',
      ['harbour'],
    ],
  ] as const;

  it.each(records)('%s is stored and returned', async (_, plural, body, property, value) => {
    const an = actionNetwork();
    const id = await created(an, plural, body);
    const read = await send(an, 'GET', `${plural}/${id}`);
    expect(read.body[property]).toEqual(value);
    expect(refusedProperties(plain(), await send(plain(), 'POST', plural, body))).toEqual([
      property,
    ]);
  });

  const statuses = [
    ['email', 'previous bounce'],
    ['email', 'spam complaint'],
    ['email', 'previous spam complaint'],
    ['phone', 'subscribed'],
    ['phone', 'previous bounce'],
  ] as const;

  it.each(statuses)('a %s status %s, through a helper and a PUT', async (medium, status) => {
    const person =
      medium === 'email'
        ? { ...SIGNER, email_addresses: [{ address: 'rosa@example.org', status }] }
        : { ...SIGNER, phone_numbers: [{ number: '12025550143', status }] };
    const member = medium === 'email' ? 'email_addresses' : 'phone_numbers';
    const an = actionNetwork();
    const petition = await created(an, 'petitions', { title: 'Keep the ferry' });
    const signed = await send(an, 'POST', `petitions/${petition}/${an.signatureHelper}`, {
      person,
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    const personHref = signed.body._links['osdi:person'].href as string;
    const personId = personHref.split('/').pop() ?? '';
    // Taken, but a helper sets a new person's statuses by Action Network's rules: only
    // subscribed and unsubscribed are kept, else new emails are subscribed, new phones not.
    const byHelper =
      status === 'subscribed' ? status : medium === 'email' ? 'subscribed' : 'unsubscribed';
    expect((await send(an, 'GET', `people/${personId}`)).body[member][0].status).toBe(byHelper);
    // A PUT of the status (the record written back) stores it as sent.
    const put = await send(an, 'PUT', `people/${personId}`, {
      [member]: person[member as keyof typeof person],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await send(an, 'GET', `people/${personId}`)).body[member][0].status).toBe(status);

    const std = plain();
    const stdPetition = await created(std, 'petitions', { title: 'Keep the ferry' });
    const refused = await send(std, 'POST', `petitions/${stdPetition}/${std.signatureHelper}`, {
      person,
    });
    expect(refusedProperties(std, refused)).toEqual([`person.${member}[0].status`]);
  });

  it('a status nobody documents is refused by both', async () => {
    for (const server of [actionNetwork(), plain()]) {
      const petition = await created(server, 'petitions', { title: 'Keep the ferry' });
      const answer = await send(server, 'POST', `petitions/${petition}/${server.signatureHelper}`, {
        person: { ...SIGNER, email_addresses: [{ address: 'rosa@example.org', status: 'asleep' }] },
      });
      expect(refusedProperties(server, answer)).toEqual(['person.email_addresses[0].status']);
    }
  });
});

describe('date-times as Action Network takes them', () => {
  // Stored as ISO 8601 with the offset sent; written as Action Network writes dates, in
  // UTC to the second (reference-server/src/domain/date-times.ts).
  it.each([
    ['2026-09-01 18:00:00', '2026-09-01T18:00:00Z', '2026-09-01T18:00:00Z'],
    ['2026-09-01T18:00:00', '2026-09-01T18:00:00Z', '2026-09-01T18:00:00Z'],
    ['2026-09-01T18:00:00-04:00', '2026-09-01T18:00:00-04:00', '2026-09-01T22:00:00Z'],
  ])('%s is stored as %s and returned as %s', async (written, iso, returned) => {
    const an = actionNetwork();
    const id = await created(an, 'events', { title: 'Ferry rally', start_date: written });
    expect((await send(an, 'GET', `events/${id}`)).body.start_date).toBe(returned);
    expect((await stored(an, 'event', id)).start_date).toBe(iso);
  });

  it('the plain server refuses a date-time without an offset, naming it', async () => {
    const std = plain();
    const answer = await send(std, 'POST', 'events', {
      title: 'Ferry rally',
      start_date: '2026-09-01 18:00:00',
    });
    expect(refusedProperties(std, answer)).toEqual(['start_date']);
  });

  it('garbage is still refused, and the rules compare the normalised instants', async () => {
    const an = actionNetwork();
    expect(
      refusedProperties(an, await send(an, 'POST', 'events', { start_date: 'Tuesday evening' })),
    ).toEqual(['start_date']);
    const late = await send(an, 'POST', 'events', {
      start_date: '2026-09-01 22:00:00',
      end_date: '2026-09-01T20:00:00',
    });
    expect(refusedProperties(an, late)).toEqual(['start_date']);
  });

  it('a helper takes an action_date as Action Network writes it', async () => {
    const an = actionNetwork();
    const petition = await created(an, 'petitions', { title: 'Keep the ferry' });
    const signed = await send(an, 'POST', `petitions/${petition}/${an.signatureHelper}`, {
      person: SIGNER,
      action_date: '2026-08-30 09:15:00',
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    expect((await stored(an, 'signature', idOf(signed.body))).action_date).toBe(
      '2026-08-30T09:15:00Z',
    );
  });
});

describe('remove_tags', () => {
  async function tagNames(server: Server, tagIds: Record<string, string>): Promise<string[]> {
    const names: string[] = [];
    for (const [name, id] of Object.entries(tagIds)) {
      const page = await send(server, 'GET', `tags/${id}/taggings`);
      if ((page.body._embedded?.[`${server.prefix}:taggings`] ?? []).length > 0) names.push(name);
    }
    return names;
  }

  it('takes the tags named off the person; names that tag nothing are left alone', async () => {
    const an = actionNetwork();
    const tagIds: Record<string, string> = {};
    for (const name of ['volunteer', 'lapsed', 'donor']) {
      tagIds[name] = await created(an, 'tags', { name });
    }
    const petition = await created(an, 'petitions', { title: 'Keep the ferry' });
    const helper = `petitions/${petition}/${an.signatureHelper}`;
    const first = await send(an, 'POST', helper, {
      person: SIGNER,
      add_tags: ['volunteer', 'lapsed', 'donor'],
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(await tagNames(an, tagIds)).toEqual(['volunteer', 'lapsed', 'donor']);

    const again = await send(an, 'POST', helper, {
      person: SIGNER,
      remove_tags: ['Lapsed', 'donor', 'never-created'],
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await tagNames(an, tagIds)).toEqual(['volunteer']);
  });

  it('the plain server refuses it as an unknown property', async () => {
    const std = plain();
    const petition = await created(std, 'petitions', { title: 'Keep the ferry' });
    const answer = await send(std, 'POST', `petitions/${petition}/${std.signatureHelper}`, {
      person: SIGNER,
      remove_tags: ['lapsed'],
    });
    expect(refusedProperties(std, answer)).toEqual(['remove_tags']);
  });
});

describe('money as decimal strings', () => {
  async function donate(server: Server, page: string, amount: number | string) {
    const answer = await send(
      server,
      'POST',
      `fundraising_pages/${page}/${server.donationHelper}`,
      {
        person: SIGNER,
        amount,
        currency: 'USD',
        recipients: [{ display_name: 'Ferry Friends', amount }],
      },
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return idOf(answer.body);
  }

  it('donations and page totals are written "25.00", stored as numbers, and add up', async () => {
    const an = actionNetwork();
    const page = await created(an, 'fundraising_pages', { title: 'Ferry fund', currency: 'USD' });
    const first = await donate(an, page, '25.00');
    await donate(an, page, 10.5);
    const donation = (await send(an, 'GET', `donations/${first}`)).body;
    expect(donation.amount).toBe('25.00');
    expect(donation.recipients[0].amount).toBe('25.00');
    expect((await stored(an, 'donation', first)).amount).toBe(25);
    const totals = (await send(an, 'GET', `fundraising_pages/${page}`)).body;
    expect(totals).toMatchObject({ total_donations: 2, total_amount: '35.50' });
    const listed = (await send(an, 'GET', 'donations')).body._embedded['osdi:donations'];
    expect(listed.map((d: Json) => d.amount).sort()).toEqual(['10.50', '25.00']);
    // Written back as read: the decimal string is taken and stays the same amount.
    const put = await send(an, 'PUT', `donations/${first}`, { amount: donation.amount });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await stored(an, 'donation', first)).amount).toBe(25);
  });

  it('events, their ticket levels and attendances', async () => {
    const an = actionNetwork();
    const event = await created(an, 'events', {
      title: 'Ferry gala',
      type: 'ticketed',
      ticket_levels: [{ title: 'Adult', amount: 15, currency: 'USD' }],
    });
    const attended = await send(an, 'POST', `events/${event}/${an.attendanceHelper}`, {
      person: SIGNER,
      tickets: [
        { title: 'Adult', amount: 15, currency: 'USD' },
        { title: 'Adult', amount: '15.00', currency: 'USD' },
      ],
    });
    expect(attended.status, JSON.stringify(attended.body)).toBe(201);
    const attendance = (await send(an, 'GET', `attendances/${idOf(attended.body)}`)).body;
    expect(attendance.tickets.map((t: Json) => t.amount)).toEqual(['15.00', '15.00']);
    const gala = (await send(an, 'GET', `events/${event}`)).body;
    expect(gala.total_amount).toBe('30.00');
    expect(gala.total_tickets).toBe(2);
    expect(gala.ticket_levels[0]).toMatchObject({
      amount: '15.00',
      total_amount: '30.00',
      total_tickets: 2,
    });
  });

  it('the plain server writes money as numbers', async () => {
    const std = plain();
    const page = await created(std, 'fundraising_pages', { title: 'Ferry fund', currency: 'USD' });
    const first = await donate(std, page, '25.00');
    expect((await send(std, 'GET', `donations/${first}`)).body.amount).toBe(25);
    expect((await send(std, 'GET', `fundraising_pages/${page}`)).body.total_amount).toBe(25);
  });
});
