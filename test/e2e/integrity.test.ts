/**
 * Rules that keep records consistent with each other: tickets within a level's limit,
 * donations in their page's currency, runnable query filters, amounts that totals can
 * hold, and no taggings or list items left without what they tag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttendanceInput, EventResource, PersonResource } from '../../src/index.js';
import {
  type Fixture,
  httpError,
  links,
  newPerson,
  problems,
  rawRequest,
  startFixture,
} from './fixtures.js';

let f: Fixture;
let ana: PersonResource;
let ben: PersonResource;

beforeAll(async () => {
  f = await startFixture();
  ana = await newPerson(f.client, 'Ana');
  ben = await newPerson(f.client, 'Ben');
});
afterAll(() => f.server.close());

describe('tickets', () => {
  let event: EventResource;
  beforeAll(async () => {
    event = await f.client.events.create({
      title: 'Dinner',
      type: 'ticketed',
      ticket_levels: [
        { title: 'Standard', amount: 20, currency: 'USD', limit: 3 },
        { title: 'Free', amount: 0, currency: 'USD' },
      ],
    });
  });

  const buy = (
    person: PersonResource,
    titles: string[],
    status: AttendanceInput['status'] = 'accepted',
  ) =>
    f.client.attendances.create({
      status,
      tickets: titles.map((title) => ({ title, amount: title === 'Free' ? 0 : 20 })),
      _links: links({ 'std:person': person, 'std:event': event }),
    });

  it('sells up to the limit, then refuses with TICKETS_SOLD_OUT', async () => {
    await buy(ana, ['Standard', 'Standard']);
    const error = await httpError(buy(ben, ['standard', 'Standard']), 400);
    expect(problems(error)).toEqual([{ code: 'TICKETS_SOLD_OUT', properties: ['tickets'] }]);
    await buy(ben, ['Standard', 'Free', 'Free']);
    const level = (await event.refresh()).data.ticket_levels?.[0];
    expect([level?.limit, level?.total_tickets]).toEqual([0, 3]);
  });

  it('lets an attendance keep its own tickets when it is updated', async () => {
    const own = (await f.client.attendances.toArray()).find(
      (attendance) => attendance.data.tickets?.length === 2,
    );
    expect(own).toBeDefined();
    const updated = await own?.update({ comment: 'Table near the door' });
    expect(updated?.data.tickets).toHaveLength(2);
  });

  it('refuses a ticket that names no level of the event', async () => {
    const error = await httpError(buy(ana, ['VIP']), 400);
    expect(problems(error)).toEqual([{ code: 'UNKNOWN_TICKET_LEVEL', properties: ['tickets'] }]);
  });

  it('gives the tickets of a declined attendance back', async () => {
    const before = (await event.refresh()).data;
    const free = (await f.client.attendances.toArray()).find((a) => a.data.tickets?.length === 3);
    await free?.update({ status: 'declined' });
    const after = (await event.refresh()).data;
    expect(after.total_tickets).toBe((before.total_tickets ?? 0) - 3);
    expect(after.ticket_levels?.[0]?.limit).toBe(1);
  });
});

describe('donations', () => {
  it('must be in the currency of their fundraising page', async () => {
    const page = await f.client.fundraisingPages.create({ title: 'Fund', currency: 'USD' });
    const error = await httpError(
      f.client.donations.create({
        amount: 10,
        currency: 'EUR',
        _links: links({ 'std:person': ana, 'std:fundraising_page': page }),
      }),
      400,
    );
    expect(problems(error)).toEqual([{ code: 'CURRENCY_MISMATCH', properties: ['currency'] }]);
    expect((await page.refresh()).data.total_donations).toBe(0);
  });

  it('refuses an amount too large to total instead of failing with a 500', async () => {
    const response = await rawRequest(f.server, 'POST', await f.client.donations.url(), {
      amount: 1e300,
      _links: { 'std:person': { href: ana.url } },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('"properties":["amount"]');
  });
});

describe('queries', () => {
  it('keep only filters the server can run', async () => {
    const query = await f.client.queries.create({
      name: 'Recent',
      filter: "modified_date gt '2026-01-01T00:00:00Z'",
    });
    expect(query.data.filter).toContain('modified_date');
    const error = await httpError(
      f.lax.queries.create({ name: 'Bad', filter: "name eq 'x'" }),
      400,
    );
    expect(problems(error)).toEqual([{ code: 'INVALID_FILTER', properties: ['filter'] }]);
  });
});

describe('deleting what a tagging or list item points at', () => {
  it('deletes the tagging and the item with it, and the list total follows', async () => {
    const carl = await newPerson(f.client, 'Carl');
    const tag = await f.client.tags.create({ name: 'Short-lived' });
    const list = await f.client.lists.create({ name: 'Short-lived list' });
    await tag.taggings().create({ _links: links({ 'std:person': carl }) });
    await list.items().create({ _links: links({ 'std:person': carl }) });
    await list.items().create({ _links: links({ 'std:person': ana }) });
    await carl.delete();
    expect(await tag.taggings().toArray()).toHaveLength(0);
    expect((await list.refresh()).data.total_items).toBe(1);
    for (const tagging of await f.client.taggings.toArray()) {
      expect(await tagging.target()).toBeDefined();
    }
  });
});
