/**
 * Values the server writes or takes differently under ACTION_NETWORK_PRESET, each from
 * Action Network's documentation: a donation's amount is its recipients' total; an
 * advocacy campaign's `targets` may be an array of Target objects; the schedule helper
 * takes its date-time spellings; taggings and items name the type of what they hold
 * `osdi:person`. The plain server keeps the specification's behaviour for each. Data
 * invented for the tests.
 */
import { describe, expect, it } from 'vitest';
import { checkMessageSchedule } from '../src/domain/message-schedule.js';
import { defaultRegistry } from '../src/index.js';
import { ACTION_NETWORK_PRESET } from '../src/presets/action-network.js';
import { actionNetworkServer, nativeId } from './action-network/an-server.js';
import { errorOf, type Json } from './helpers.js';
import { actionNetwork, created, idOf, plain, send } from './preset-servers.js';

const RECIPIENTS = [
  { display_name: 'Harbor Library Friends', amount: '10.00' },
  { display_name: 'Reading Corner Fund', amount: '2.50' },
];

describe("a donation's amount under the preset: its recipients' total", () => {
  it('on create, on update, and in the page total', async () => {
    const an = actionNetwork();
    const page = idOf(await created(an, 'fundraising_pages', { title: 'Shelves' }));
    const person = idOf(
      await created(an, 'people', { email_addresses: [{ address: 'mo@example.org' }] }),
    );
    const donation = await created(an, `fundraising_pages/${page}/donations`, {
      recipients: RECIPIENTS,
      _links: { 'osdi:person': { href: `http://adis.test/api/v2/people/${person}` } },
    });
    expect(donation.amount).toBe('12.50');
    const id = idOf(donation);
    const changed = await send(an, 'PUT', `fundraising_pages/${page}/donations/${id}`, {
      recipients: [{ display_name: 'Harbor Library Friends', amount: 4 }],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.amount).toBe('4.00');
    expect((await send(an, 'GET', `fundraising_pages/${page}`)).body.total_amount).toBe('4.00');
  });

  it('through the record donation helper, an amount sent beside the recipients replaced', async () => {
    const an = actionNetwork();
    const page = idOf(await created(an, 'fundraising_pages', { title: 'Shelves' }));
    const answer = await send(an, 'POST', `fundraising_pages/${page}/donations`, {
      amount: 20,
      recipients: RECIPIENTS,
      person: { email_addresses: [{ address: 'mo@example.org' }] },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.amount).toBe('12.50');
  });

  it('a donation without recipients keeps the amount sent', async () => {
    const an = actionNetwork();
    const page = idOf(await created(an, 'fundraising_pages', { title: 'Shelves' }));
    const answer = await send(an, 'POST', `fundraising_pages/${page}/donations`, {
      amount: 7,
      person: { email_addresses: [{ address: 'mo@example.org' }] },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.amount).toBe('7.00');
  });

  it('the plain server stores the amount as sent, none when none is sent', async () => {
    const std = plain();
    const page = idOf(await created(std, 'fundraising_pages', { title: 'Shelves' }));
    const helper = `fundraising_pages/${page}/record_donation_helper`;
    const person = { email_addresses: [{ address: 'mo@example.org' }] };
    const without = await send(std, 'POST', helper, { recipients: RECIPIENTS, person });
    expect(without.status, JSON.stringify(without.body)).toBe(201);
    expect(without.body).not.toHaveProperty('amount');
    const withAmount = await send(std, 'POST', helper, {
      amount: 20,
      recipients: RECIPIENTS,
      person,
    });
    expect(withAmount.body.amount).toBe(20);
  });
});

describe("an advocacy campaign's targets", () => {
  const targets = [{ title: 'Commissioner', given_name: 'Pat', family_name: 'Lindqvist' }];

  it('as Target objects: taken under the preset, refused by the plain server naming targets', async () => {
    const an = actionNetwork();
    const campaign = await created(an, 'advocacy_campaigns', { title: 'Write', targets });
    expect(campaign.targets).toEqual(targets);
    expect((await send(an, 'GET', `advocacy_campaigns/${idOf(campaign)}`)).body.targets).toEqual(
      targets,
    );
    const refused = await send(plain(), 'POST', 'advocacy_campaigns', { title: 'Write', targets });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.body).map((e) => e.properties)).toEqual([['targets']]);
  });

  it('a target is held to the rules of target_list under the preset', async () => {
    const answer = await send(actionNetwork(), 'POST', 'advocacy_campaigns', {
      targets: [{ email_addresses: [{ address: 'not an address' }] }],
    });
    expect(answer.status).toBe(400);
  });

  it('as a description: taken by both', async () => {
    for (const server of [actionNetwork(), plain()]) {
      const campaign = await created(server, 'advocacy_campaigns', { targets: 'County board' });
      expect(campaign.targets).toBe('County board');
    }
  });
});

describe('the schedule helper’s date-times', () => {
  it('checkMessageSchedule reads Action Network’s spellings as ISO 8601 under extended only', () => {
    expect(
      checkMessageSchedule({ scheduled_start_date: '2026-09-01 18:00:00' }, 'extended'),
    ).toEqual({
      scheduled_start_date: '2026-09-01T18:00:00Z',
    });
    expect(
      checkMessageSchedule(
        { scheduled_start_date: '2026-09-01 18:00:00', scheduled_end_date: '2026-09-01 20:00:00' },
        'extended',
      ),
    ).toEqual({
      scheduled_start_date: '2026-09-01T18:00:00Z',
      scheduled_stop_date: '2026-09-01T20:00:00Z',
    });
    expect(() => checkMessageSchedule({ scheduled_start_date: '2026-09-01 18:00:00' })).toThrow(
      /scheduled_start_date/,
    );
    // What the extended side cannot read is refused, naming the member.
    expect(() => checkMessageSchedule({ scheduled_start_date: 'soon' }, 'extended')).toThrow(
      /scheduled_start_date/,
    );
  });

  it('a message is scheduled with one under the preset; the plain server refuses it', async () => {
    const an = actionNetworkServer({ seedPeople: 20 });
    const lists = (await an.get('lists')).body._embedded['osdi:lists'] as Json[];
    const list = lists.find((one) => Number(one.total_items) > 0) ?? lists[0];
    const message = await an.post('messages', {
      subject: 'The board votes Tuesday',
      body: 'Come at 6pm.',
      type: 'email',
      _links: { 'osdi:list': { href: list._links.self.href } },
    });
    expect(message.status, JSON.stringify(message.body)).toBe(201);
    const id = nativeId(message.body);
    const scheduled = await an.post(`messages/${id}/schedule`, {
      scheduled_start_date: '2099-09-01 18:00:00',
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    // Stored as the instant written, without an offset: UTC.
    const stored = (await an.get(`messages/${id}`)).body.scheduled_start_date;
    expect(Date.parse(stored)).toBe(Date.UTC(2099, 8, 1, 18));

    const std = plain();
    const stdMessage = await created(std, 'messages', { subject: 'The board votes Tuesday' });
    const refused = await send(std, 'POST', `messages/${idOf(stdMessage)}/schedule`, {
      scheduled_start_date: '2099-09-01 18:00:00',
    });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.body).map((e) => e.properties)).toEqual([['scheduled_start_date']]);
  });
});

describe('item_type of taggings and items', () => {
  it('osdi:person under the preset, person on the plain server', async () => {
    for (const [server, expected] of [
      [actionNetwork(), 'osdi:person'],
      [plain(), 'person'],
    ] as const) {
      const tag = idOf(await created(server, 'tags', { name: 'volunteer' }));
      const person = await created(server, 'people', {
        email_addresses: [{ address: 'li@example.org' }],
      });
      const tagging = await created(server, `tags/${tag}/taggings`, {
        _links: { [`${server.prefix}:person`]: { href: person._links.self.href } },
      });
      expect(tagging.item_type).toBe(expected);
    }
  });

  it('an item of a list, as the preset’s kinds derive it', () => {
    const items = defaultRegistry(ACTION_NETWORK_PRESET).bySingular('item');
    const derived = items?.derive?.({}, { person: { kind: 'person', id: '7' } });
    expect(derived?.item_type).toBe('osdi:person');
    const plainItems = defaultRegistry().bySingular('item');
    expect(plainItems?.derive?.({}, { person: { kind: 'person', id: '7' } }).item_type).toBe(
      'person',
    );
  });
});
