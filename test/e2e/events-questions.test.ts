import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AttendanceInput,
  type Client,
  connect,
  type EventResource,
  errorDescriptions,
  type HTTPError,
  isHTTPError,
  linkTo,
  type PersonResource,
  type QuestionResource,
  type TicketLevel,
} from '../../src/index.js';
import { type TestServer, testServer } from './reference-server.js';

let server: TestServer;
let client: Client;
let ana: PersonResource;
let bo: PersonResource;

beforeAll(async () => {
  server = testServer();
  client = await connect(server.entryPoint, { apiKey: server.keys.write, fetch: server.fetch });
  ana = await client.people.create({ given_name: 'Ana' });
  bo = await client.people.create({ given_name: 'Bo' });
});
afterAll(() => server.close());

/** The HTTPError a request fails with (fails the test when it succeeds). */
async function rejection(request: Promise<unknown>): Promise<HTTPError> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isHTTPError(error)) throw new Error(`expected an HTTPError, got ${String(error)}`);
  return error;
}

const codesOf = (error: HTTPError) =>
  errorDescriptions(error.stdError).map((d) => [d.error_code, ...(d.properties ?? [])]);

type Ticket = NonNullable<AttendanceInput['tickets']>[number];

const urls = (resources: readonly { url: string }[]) => resources.map((r) => r.url).sort();

function level(event: EventResource, title: string): TicketLevel | undefined {
  return event.data.ticket_levels?.find((l) => l.title === title);
}

describe('events and attendances', () => {
  let event: EventResource;
  let guests = 0;
  /** An RSVP by a new guest: one attendance per person and event (a second updates it). */
  const rsvp = async (status: AttendanceInput['status'], tickets: Ticket[] = []) => {
    const guest = await client.people.create({ given_name: `Guest ${++guests}` });
    return event.attendances().create({
      ...(status ? { status } : {}),
      ...(tickets.length ? { tickets } : {}),
      _links: { 'std:person': linkTo(guest) },
    });
  };

  beforeAll(async () => {
    event = await client.events.create({
      title: 'Spring gala',
      type: 'ticketed',
      start_date: '2026-05-02T18:00:00-05:00',
      end_date: '2026-05-02T22:00:00-05:00',
      ticket_levels: [
        { title: 'General', amount: 15, currency: 'USD', limit: 10 },
        { title: 'VIP', amount: 50, currency: 'USD', limit: 2 },
        { title: 'Press', amount: 0 },
      ],
    });
  });

  it('starts with zero totals and the written limits', () => {
    expect(event.data).toMatchObject({ total_accepted: 0, total_tickets: 0, total_amount: 0 });
    expect(level(event, 'General')).toMatchObject({ limit: 10, total_tickets: 0 });
  });

  it('counts accepted and status-less attendances, tickets and amounts per level', async () => {
    const general = { title: 'General', amount: 15, currency: 'USD' };
    const accepted = await rsvp('accepted', [general, { ...general, title: ' general ' }]);
    await rsvp(undefined, [
      { ...general, title: 'GENERAL' },
      { title: 'VIP', amount: 50 },
    ]);
    await rsvp('declined');
    await rsvp('tentative');
    expect(accepted.data.status).toBe('accepted');
    expect((await accepted.event()).url).toBe(event.url);
    const guest = await accepted.person();

    event = await event.refresh();
    expect(event.data).toMatchObject({ total_accepted: 2, total_tickets: 4, total_amount: 95 });
    expect(level(event, 'General')).toMatchObject({ total_tickets: 3, total_amount: 45, limit: 7 });
    expect(level(event, 'VIP')).toMatchObject({ total_tickets: 1, total_amount: 50, limit: 1 });
    expect(level(event, 'Press')).toMatchObject({ total_tickets: 0, total_amount: 0 });
    expect(level(event, 'Press')?.limit ?? undefined).toBeUndefined();
    expect(await event.attendances().toArray()).toHaveLength(4);
    expect(urls(await guest.attendances().toArray())).toEqual([accepted.url]);
    // The same guest answering again updates their attendance: 200, totals follow it.
    const again = await event.attendances().create({
      status: 'accepted',
      tickets: [general, { ...general, title: ' general ' }],
      _links: { 'std:person': linkTo(guest) },
    });
    expect(again.url).toBe(accepted.url);
    expect((await event.refresh()).data).toMatchObject({ total_accepted: 2, total_tickets: 4 });
  });

  it('keeps the available limit through a GET-then-PUT round trip of ticket_levels', async () => {
    const levels = event.data.ticket_levels ?? [];
    const updated = await event.update({ ticket_levels: levels, description: 'Tickets on sale' });
    expect(level(updated, 'General')).toMatchObject({ limit: 7, total_tickets: 3 });
    expect(level(updated, 'VIP')).toMatchObject({ limit: 1, total_tickets: 1 });
    expect(level(await event.refresh(), 'General')?.limit).toBe(7);
  });

  it('treats a written limit as tickets still available', async () => {
    const levels = (event.data.ticket_levels ?? []).map((l) =>
      l.title === 'VIP' ? { title: 'VIP', amount: 50, limit: 5 } : l,
    );
    const updated = await event.update({ ticket_levels: levels });
    expect(level(updated, 'VIP')).toMatchObject({ limit: 5, total_tickets: 1 });
    event = updated;
  });

  it('gives tickets back when an attendance is deleted', async () => {
    const attendances = await event.attendances().toArray();
    const withTwo = attendances.find((a) => a.data.tickets?.length === 2 && a.data.status);
    if (!withTwo) throw new Error('no attendance with two tickets');
    await withTwo.delete();
    event = await event.refresh();
    expect(event.data).toMatchObject({ total_accepted: 1, total_tickets: 2, total_amount: 65 });
    expect(level(event, 'General')).toMatchObject({ total_tickets: 1, total_amount: 15, limit: 9 });
  });

  it('lowers total_accepted when an attendance changes from accepted to declined', async () => {
    const attendance = await rsvp('accepted');
    expect((await event.refresh()).data.total_accepted).toBe(2);
    const declined = await attendance.update({ status: 'declined' });
    expect(declined.data.status).toBe('declined');
    expect((await event.refresh()).data.total_accepted).toBe(1);
    await declined.update({ status: 'accepted' });
    expect((await event.refresh()).data.total_accepted).toBe(2);
  });

  it('follows changed tickets, and the deletion of the person who RSVPed', async () => {
    const totals = async () => {
      const { total_accepted, total_tickets, total_amount } = (await event.refresh()).data;
      return [total_accepted, total_tickets, total_amount, level(event, 'VIP')?.limit];
    };
    const before = await totals();
    const cy = await client.people.create({ given_name: 'Cy' });
    const attendance = await event.attendances().create({
      status: 'accepted',
      tickets: [{ title: 'VIP', amount: 50 }],
      _links: { 'std:person': linkTo(cy) },
    });
    event = await event.refresh();
    expect(await totals()).toEqual([3, 3, 115, 4]);
    await attendance.update({ tickets: [] });
    event = await event.refresh();
    expect(await totals()).toEqual([3, 2, 65, 5]);
    await cy.delete();
    event = await event.refresh();
    expect(await totals()).toEqual(before);
    expect((await rejection(attendance.refresh())).status).toBe(404);
  });

  it('ignores totals a client sends', async () => {
    const lax = await connect(server.entryPoint, {
      apiKey: server.keys.write,
      fetch: server.fetch,
      validate: false,
    });
    const fresh = await lax.events.get(event.url);
    const updated = await fresh.update({ total_accepted: 99 } as never);
    expect(updated.data.total_accepted).toBe(2);
  });
});

describe('questions and answers', () => {
  let single: QuestionResource;
  let multi: QuestionResource;
  let paragraph: QuestionResource;
  const answer = (question: QuestionResource, body: { responses?: string[]; value?: string }) =>
    question.answers().create({ ...body, _links: { 'std:person': linkTo(bo) } });

  beforeAll(async () => {
    single = await client.questions.create({
      name: 'Parks bill',
      title: 'Do you support SB 12?',
      question_type: 'SingleChoice',
      responses: [
        { key: 'yes', name: 'Supports SB 12', title: 'Yes' },
        { key: 'no', name: 'Opposes SB 12', title: 'No' },
      ],
    });
    multi = await client.questions.create({
      title: 'Which issues matter to you?',
      question_type: 'MultiChoice',
      responses: [
        { key: 'parks', name: 'Parks' },
        { key: 'housing', name: 'Housing' },
        { key: 'transit', name: 'Transit' },
      ],
    });
    paragraph = await client.questions.create({
      title: 'Anything else?',
      question_type: 'Paragraph',
    });
  });

  it('stores the three question types', () => {
    expect(single.data.question_type).toBe('SingleChoice');
    expect(multi.data.responses?.map((r) => r.key)).toEqual(['parks', 'housing', 'transit']);
    expect(paragraph.data.question_type).toBe('Paragraph');
    expect(paragraph.data.responses ?? []).toEqual([]);
  });

  it('records answers linked to the question and the person', async () => {
    const yes = await answer(single, { responses: ['yes'] });
    const issues = await answer(multi, { responses: ['parks', 'transit'] });
    const text = await answer(paragraph, { value: 'More bike lanes' });
    expect(yes.data.responses).toEqual(['yes']);
    expect(issues.data.responses).toEqual(['parks', 'transit']);
    expect(text.data.value).toBe('More bike lanes');
    expect((await yes.question()).url).toBe(single.url);
    expect((await text.question()).data.question_type).toBe('Paragraph');
    expect((await issues.person()).url).toBe(bo.url);
    expect(await yes.canvass()).toBeUndefined();
    expect(urls(await bo.answers().toArray())).toEqual(urls([yes, issues, text]));
    expect(urls(await single.answers().toArray())).toEqual([yes.url]);
  });

  it.each([
    ['a response key the question lacks', () => single, ['maybe'], 'responses[0]'],
    ['two responses to a SingleChoice', () => single, ['yes', 'no'], 'responses'],
    ['no response to a MultiChoice', () => multi, [], 'responses'],
    ['responses to a Paragraph', () => paragraph, ['yes'], 'responses'],
  ])('refuses an answer with %s (INVALID_ANSWER)', async (_, question, responses, property) => {
    const before = (await question().answers().toArray()).length;
    const error = await rejection(answer(question(), { responses }));
    expect(error.status).toBe(400);
    expect(codesOf(error)).toContainEqual(['INVALID_ANSWER', property]);
    expect(await question().answers().toArray()).toHaveLength(before);
  });

  it('names the allowed keys in the hint of an unknown response', async () => {
    const error = await rejection(answer(multi, { responses: ['parks', 'schools'] }));
    const [description] = errorDescriptions(error.stdError);
    expect(description).toMatchObject({ error_code: 'INVALID_ANSWER' });
    expect(description?.properties).toEqual(['responses[1]']);
    expect(description?.hint).toContain('"housing"');
  });

  it('checks an updated answer against its question too', async () => {
    const [yes] = await single.answers().toArray();
    if (!yes) throw new Error('no answer');
    const error = await rejection(yes.update({ responses: ['perhaps'] }));
    expect(codesOf(error)).toContainEqual(['INVALID_ANSWER', 'responses[0]']);
    expect((await yes.refresh()).data.responses).toEqual(['yes']);
  });

  it('needs a person (MISSING_LINK)', async () => {
    const error = await rejection(single.answers().create({ responses: ['no'] }));
    expect(codesOf(error)).toContainEqual(['MISSING_LINK', '_links.std:person']);
  });
});

describe('canvasses', () => {
  it('links the target and canvasser, and lists the answers and taggings it recorded', async () => {
    const canvass = await client.canvasses.create({
      contact_type: 'door',
      success: true,
      _links: { 'std:target': linkTo(ana), 'std:canvasser': linkTo(bo) },
    });
    expect((await canvass.target()).url).toBe(ana.url);
    expect((await canvass.canvasser())?.url).toBe(bo.url);

    const question = await client.questions.create({
      title: 'Will you vote?',
      question_type: 'SingleChoice',
      responses: [{ key: 'yes' }, { key: 'no' }],
    });
    const given = await question.answers().create({
      responses: ['yes'],
      _links: { 'std:person': linkTo(ana), 'std:canvass': linkTo(canvass) },
    });
    await question.answers().create({ responses: ['no'], _links: { 'std:person': linkTo(bo) } });
    const tag = await client.tags.create({ name: 'canvassed' });
    const tagging = await tag.taggings().create({
      _links: { 'std:person': linkTo(ana), 'std:canvass': linkTo(canvass) },
    });
    await tag.taggings().create({ _links: { 'std:person': linkTo(bo) } });

    expect(urls(await canvass.answers().toArray())).toEqual([given.url]);
    expect(urls(await canvass.taggings().toArray())).toEqual([tagging.url]);
    expect((await given.canvass())?.url).toBe(canvass.url);
    expect((await tagging.canvass())?.url).toBe(canvass.url);
  });

  it('needs a target (MISSING_LINK)', async () => {
    const error = await rejection(client.canvasses.create({ contact_type: 'phone' }));
    expect(codesOf(error)).toContainEqual(['MISSING_LINK', '_links.std:target']);
  });
});

describe('lists, items, tags and taggings', () => {
  it('keeps total_items and lists the items of a list', async () => {
    const list = await client.lists.create({ name: 'Phone bank volunteers' });
    const org = await client.organizations.create({ organization: 'Friends of Elm Park' });
    const person = await list.items().create({ _links: { 'std:person': linkTo(ana) } });
    const organization = await list.items().create({
      _links: { 'std:organization': linkTo(org) },
    });
    expect(person.data.item_type).toBe('person');
    expect(organization.data.item_type).toBe('organization');
    expect((await person.list()).url).toBe(list.url);
    expect((await person.person())?.url).toBe(ana.url);
    expect(await person.organization()).toBeUndefined();
    expect((await organization.organization())?.url).toBe(org.url);
    expect(await organization.person()).toBeUndefined();
    expect(urls(await list.items().toArray())).toEqual(urls([person, organization]));
    expect((await list.refresh()).data.total_items).toBe(2);
    expect(urls(await ana.items().toArray())).toEqual([person.url]);

    await organization.delete();
    expect((await list.refresh()).data.total_items).toBe(1);
  });

  it('needs exactly one of std:person and std:organization on an item', async () => {
    const list = await client.lists.create({ name: 'Exactly one' });
    const org = await client.organizations.create({ organization: 'Both ways' });
    const both = await rejection(
      list.items().create({
        _links: { 'std:person': linkTo(ana), 'std:organization': linkTo(org) },
      }),
    );
    const neither = await rejection(list.items().create({}));
    expect(both.status).toBe(400);
    expect(codesOf(both).map(([code]) => code)).toEqual(['INVALID_LINK']);
    expect(neither.status).toBe(400);
    expect(codesOf(neither).map(([code]) => code)).toEqual(['MISSING_LINK']);
    expect((await list.refresh()).data.total_items).toBe(0);
  });

  it('lists the taggings of a tag with their computed item_type', async () => {
    const tag = await client.tags.create({ name: 'priority' });
    const petition = await client.petitions.create({ title: 'Save Elm Park' });
    const onPerson = await tag.taggings().create({ _links: { 'std:person': linkTo(bo) } });
    const onPetition = await tag.taggings().create({
      _links: { 'std:petition': linkTo(petition) },
    });
    expect(onPerson.data.item_type).toBe('person');
    expect(onPetition.data.item_type).toBe('petition');
    expect((await onPetition.tag()).url).toBe(tag.url);
    expect((await onPetition.petition())?.url).toBe(petition.url);
    expect(urls(await tag.taggings().toArray())).toEqual(urls([onPerson, onPetition]));
    expect(urls(await petition.taggings().toArray())).toEqual([onPetition.url]);
  });
});
