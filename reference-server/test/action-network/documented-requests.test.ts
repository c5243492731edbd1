/**
 * Action Network's documented requests of its API v2 (`actionnetwork.org/docs/v2/…`:
 * people, person_signup_helper, petitions, signatures, record_signature_helper, events,
 * attendances, record_attendance_helper, forms, submissions, fundraising_pages,
 * donations, record_donation_helper, advocacy_campaigns, outreaches, tags, taggings,
 * lists, items, messages) sent to the reference server with its Action Network preset,
 * each URL built by hand from the documented layout with the id of an earlier answer,
 * and each answer checked against the documented shape. Data invented for the tests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ActionNetworkServer,
  API,
  actionNetworkServer,
  expectPage,
  expectRecord,
  type Json,
  nativeId,
  OTHER_GROUP_KEY,
  personHash,
  read,
  written,
} from './an-server.js';

let an: ActionNetworkServer;
let serial = 0;

beforeAll(() => {
  // A few demo people and their activity: lists and items are read-only on Action
  // Network, so the group's lists come from there.
  an = actionNetworkServer({ seedPeople: 12 });
});

/** A new person through POST to the people collection (the signup helper there). */
async function newPerson(given = 'Lucía'): Promise<{ id: string; href: string; body: Json }> {
  serial += 1;
  const body = written(
    await an.post('people', {
      person: personHash(given, 'Okafor', `person${serial}@alder.example.org`),
    }),
  );
  const id = nativeId(body);
  return { id, href: `${API}/people/${id}`, body };
}

/** A new record POSTed to `plural`; its native id and body. */
async function newRecord(plural: string, body: Json): Promise<{ id: string; body: Json }> {
  const created = written(await an.post(plural, body));
  return { id: nativeId(created), body: created };
}

/** A new tag (tags must exist before add_tags can name them). */
async function newTag(name: string): Promise<string> {
  return (await newRecord('tags', { name })).id;
}

/** Only the Action Network-prefixed member names of a document. */
function vendorMembers(document: Json): string[] {
  return Object.keys(document).filter((key) => key.startsWith('action_network:'));
}

describe('people (docs/v2/people)', () => {
  it('GET people: 25 a page at most, no totals, records embedded as osdi:people', async () => {
    const page = read(await an.get('people'));
    expect(page.per_page).toBe(25);
    expect(page.page).toBe(1);
    const people = expectPage(page, 'osdi:people', { totals: false });
    expect(people.length).toBeGreaterThan(0);
    expect(people.length).toBeLessThanOrEqual(25);
  });

  it('GET people/{id}: the person with emails, addresses and the links to their actions', async () => {
    const { id } = await newPerson('Amara');
    const person = read(await an.get(`people/${id}`));
    expectRecord(person, `people/${id}`);
    expect(person.given_name).toBe('Amara');
    expect(person.email_addresses[0]).toMatchObject({ primary: true, status: 'subscribed' });
    expect(person.email_addresses[0].address).toMatch(/@alder\.example\.org$/);
    expect(person.postal_addresses[0]).toMatchObject({ postal_code: '97211', country: 'US' });
    for (const rel of [
      'osdi:attendances',
      'osdi:signatures',
      'osdi:submissions',
      'osdi:donations',
      'osdi:outreaches',
      'osdi:taggings',
    ]) {
      expect(person._links[rel]?.href, rel).toBe(`${API}/people/${id}/${rel.slice(5)}`);
    }
  });

  it('PUT people/{id}: changes what is sent, custom fields included, and answers the person', async () => {
    const { id, body } = await newPerson('Tomasz');
    const changed = written(
      await an.put(`people/${id}`, {
        family_name: 'Wiśniewski',
        email_addresses: body.email_addresses,
        custom_fields: { bike_owner: 'yes' },
      }),
    );
    expect(nativeId(changed)).toBe(id);
    const again = read(await an.get(`people/${id}`));
    expect(again.family_name).toBe('Wiśniewski');
    expect(again.custom_fields).toMatchObject({ bike_owner: 'yes' });
  });

  it('PUT people/{id} with an email status of unsubscribed unsubscribes the address (docs/v2/delete)', async () => {
    const { id, body } = await newPerson('Ines');
    const address = body.email_addresses[0].address;
    written(
      await an.put(`people/${id}`, {
        email_addresses: [{ address, status: 'unsubscribed' }],
      }),
    );
    const again = read(await an.get(`people/${id}`));
    expect(again.email_addresses[0]).toMatchObject({ address, status: 'unsubscribed' });
  });
});

describe('person signup helper (docs/v2/person_signup_helper): POST to the people collection', () => {
  it('creates a person with add_tags, phone status and custom fields', async () => {
    await newTag('bike-library');
    const created = written(
      await an.post('people', {
        person: {
          ...personHash('Noor', 'Haddad', 'noor.haddad@alder.example.org'),
          phone_numbers: [{ number: '15035550142', number_type: 'Mobile', status: 'subscribed' }],
          custom_fields: { favourite_branch: 'Alberta St' },
        },
        add_tags: ['bike-library'],
      }),
    );
    const id = nativeId(created);
    expectRecord(created, `people/${id}`);
    expect(created.phone_numbers[0]).toMatchObject({ number: '15035550142', status: 'subscribed' });
    expect(created.custom_fields).toMatchObject({ favourite_branch: 'Alberta St' });
    const taggings = read(await an.get(`people/${id}/taggings`));
    expect(expectPage(taggings, 'osdi:taggings', { totals: 'either' })).toHaveLength(1);
  });

  it('matches an existing person by email: the same id, the new values kept', async () => {
    const first = written(
      await an.post('people', { person: personHash('Kai', 'Moreno', 'kai.m@alder.example.org') }),
    );
    const second = written(
      await an.post('people', {
        person: { ...personHash('Kai', 'Moreno-Ruiz', 'kai.m@alder.example.org') },
      }),
    );
    expect(nativeId(second)).toBe(nativeId(first));
    expect(read(await an.get(`people/${nativeId(first)}`)).family_name).toBe('Moreno-Ruiz');
  });

  it('remove_tags takes a tag off the person', async () => {
    await newTag('lapsed-reader');
    const tagged = written(
      await an.post('people', {
        person: personHash('Sven', 'Lund', 'sven.lund@alder.example.org'),
        add_tags: ['lapsed-reader'],
      }),
    );
    const id = nativeId(tagged);
    const count = async () =>
      expectPage(read(await an.get(`people/${id}/taggings`)), 'osdi:taggings', { totals: 'either' })
        .length;
    expect(await count()).toBe(1);
    written(
      await an.post('people', {
        person: { email_addresses: [{ address: 'sven.lund@alder.example.org' }] },
        remove_tags: ['lapsed-reader'],
      }),
    );
    expect(await count()).toBe(0);
  });

  it('takes Action Network email statuses; only subscribed and unsubscribed change a status', async () => {
    written(
      await an.post('people', { person: personHash('Wen', 'Li', 'wen.li@alder.example.org') }),
    );
    for (const status of ['previous bounce', 'spam complaint', 'previous spam complaint']) {
      const answer = written(
        await an.post('people', {
          person: { email_addresses: [{ address: 'wen.li@alder.example.org', status }] },
        }),
      );
      expect(answer.email_addresses[0].status, status).toBe('subscribed');
    }
  });
});

describe('petitions (docs/v2/petitions)', () => {
  it('POST petitions, GET petitions/{id}, PUT petitions/{id}: vendor members kept', async () => {
    const { id, body } = await newRecord('petitions', {
      identifiers: ['crm:pet-401'],
      title: 'Keep the Alberta branch open on Sundays',
      petition_text: 'We ask the library board to fund Sunday hours.',
      target: [{ name: 'The library board' }],
      'action_network:hidden': false,
    });
    expectRecord(body, `petitions/${id}`);
    expect(body.identifiers).toContain('crm:pet-401');
    expect(body.total_signatures).toBe(0);
    expect(body['action_network:hidden']).toBe(false);
    expect(body._links['osdi:signatures'].href).toBe(`${API}/petitions/${id}/signatures`);
    expect(body._links['osdi:record_signature_helper'].href).toBe(
      `${API}/petitions/${id}/signatures`,
    );
    const changed = written(await an.put(`petitions/${id}`, { title: 'Sunday hours at Alberta' }));
    expect(changed.title).toBe('Sunday hours at Alberta');
    const again = read(await an.get(`petitions/${id}`));
    expect(again).toMatchObject({
      title: 'Sunday hours at Alberta',
      'action_network:hidden': false,
    });
  });

  it('GET petitions: a page of 25 at most with totals, embedded as osdi:petitions', async () => {
    await newRecord('petitions', { title: 'Fix the bike racks' });
    const page = read(await an.get('petitions'));
    expect(page.per_page).toBe(25);
    expect(expectPage(page, 'osdi:petitions', { totals: true }).length).toBeGreaterThan(0);
  });
});

describe('signatures (docs/v2/signatures)', () => {
  it('POST petitions/{id}/signatures with osdi:person, then at both nested addresses, then PUT', async () => {
    const person = await newPerson('Ayla');
    const petition = await newRecord('petitions', { title: 'Light the bike path' });
    const created = written(
      await an.post(`petitions/${petition.id}/signatures`, {
        identifiers: ['crm:sig-77'],
        comments: 'I ride it every night.',
        _links: { 'osdi:person': { href: person.href } },
      }),
    );
    const id = nativeId(created);
    const byPetition = read(await an.get(`petitions/${petition.id}/signatures/${id}`));
    expect(byPetition.comments).toBe('I ride it every night.');
    expect(byPetition._links['osdi:person'].href).toBe(person.href);
    expect(byPetition._links['osdi:petition'].href).toBe(`${API}/petitions/${petition.id}`);
    const byPerson = read(await an.get(`people/${person.id}/signatures/${id}`));
    expect(byPerson.identifiers).toEqual(byPetition.identifiers);
    written(
      await an.put(`petitions/${petition.id}/signatures/${id}`, { comments: 'Every night!' }),
    );
    expect(read(await an.get(`people/${person.id}/signatures/${id}`)).comments).toBe(
      'Every night!',
    );
    const page = read(await an.get(`petitions/${petition.id}/signatures`));
    expect(expectPage(page, 'osdi:signatures', { totals: true }).map(nativeId)).toEqual([id]);
  });
});

describe('record signature helper (docs/v2/record_signature_helper)', () => {
  it('POST petitions/{id}/signatures with a person: the signer is matched or created, tags and referrer data kept', async () => {
    await newTag('sunday-hours');
    const petition = await newRecord('petitions', { title: 'Sunday story time' });
    const signature = written(
      await an.post(`petitions/${petition.id}/signatures`, {
        comments: 'My kids love it.',
        person: {
          ...personHash('Rosa', 'Quispe', 'rosa.q@alder.example.org'),
          phone_numbers: [{ number: '15035550177', number_type: 'Mobile', status: 'subscribed' }],
        },
        add_tags: ['sunday-hours'],
        'action_network:referrer_data': { source: 'branch-flyer', website: 'alder.example.org' },
        triggers: { autoresponse: { enabled: true } },
      }),
    );
    const id = nativeId(signature);
    expectRecord(signature, `petitions/${petition.id}/signatures/${id}`);
    expect(signature['action_network:referrer_data']).toMatchObject({ source: 'branch-flyer' });
    const personHref: string = signature._links['osdi:person'].href;
    expect(personHref).toMatch(new RegExp(`^${API}/people/[^/]+$`));
    const person = read(await an.get(personHref));
    expect(person.email_addresses[0].address).toBe('rosa.q@alder.example.org');
    expect(read(await an.get(`petitions/${petition.id}`)).total_signatures).toBe(1);
  });
});

describe('events (docs/v2/events)', () => {
  it('POST events with a start date written as Action Network accepts it, GET, PUT', async () => {
    const { id, body } = await newRecord('events', {
      title: 'Bike repair clinic',
      start_date: '2026-09-01 18:00:00',
      location: {
        venue: 'Alberta branch, community room',
        address_lines: ['1900 NE Alberta St'],
        locality: 'Portland',
        region: 'OR',
        postal_code: '97211',
        country: 'US',
      },
      'action_network:hidden': true,
    });
    expectRecord(body, `events/${id}`);
    expect(body.start_date).toMatch(/^2026-09-01T18:00:00/);
    expect(body['action_network:hidden']).toBe(true);
    expect(body._links['osdi:attendances'].href).toBe(`${API}/events/${id}/attendances`);
    expect(body._links['osdi:record_attendance_helper'].href).toBe(
      `${API}/events/${id}/attendances`,
    );
    written(await an.put(`events/${id}`, { title: 'Bike repair clinic, second round' }));
    expect(read(await an.get(`events/${id}`)).title).toBe('Bike repair clinic, second round');
    expectPage(read(await an.get('events')), 'osdi:events', { totals: true });
  });
});

describe('attendances (docs/v2/attendances) and the record attendance helper', () => {
  it('POST events/{id}/attendances with osdi:person, at both nested addresses, PUT', async () => {
    const person = await newPerson('Dario');
    const event = await newRecord('events', {
      title: 'Book swap',
      start_date: '2026-10-03T15:00:00Z',
    });
    const created = written(
      await an.post(`events/${event.id}/attendances`, {
        status: 'accepted',
        _links: { 'osdi:person': { href: person.href } },
      }),
    );
    const id = nativeId(created);
    expectRecord(
      read(await an.get(`events/${event.id}/attendances/${id}`)),
      `events/${event.id}/attendances/${id}`,
    );
    expect(read(await an.get(`people/${person.id}/attendances/${id}`)).status).toBe('accepted');
    written(await an.put(`events/${event.id}/attendances/${id}`, { status: 'declined' }));
    expect(read(await an.get(`events/${event.id}/attendances/${id}`)).status).toBe('declined');
  });

  it('POST events/{id}/attendances with a person is the record attendance helper', async () => {
    const event = await newRecord('events', {
      title: 'Poetry night',
      start_date: '2026-11-05T19:00:00Z',
    });
    const attendance = written(
      await an.post(`events/${event.id}/attendances`, {
        person: personHash('Femi', 'Adeyemi', 'femi.a@alder.example.org'),
      }),
    );
    const id = nativeId(attendance);
    expectRecord(attendance, `events/${event.id}/attendances/${id}`);
    const page = read(await an.get(`events/${event.id}/attendances`));
    expect(expectPage(page, 'osdi:attendances', { totals: true }).map(nativeId)).toEqual([id]);
  });
});

describe('forms (docs/v2/forms), submissions and the record submission helper', () => {
  it('POST forms, then a submission by osdi:person and one by a person hash, at nested addresses', async () => {
    const { id: formId, body: form } = await newRecord('forms', {
      title: 'Volunteer at the book sale',
      'action_network:hidden': false,
    });
    expectRecord(form, `forms/${formId}`);
    expect(form._links['osdi:submissions'].href).toBe(`${API}/forms/${formId}/submissions`);
    expect(form._links['osdi:record_submission_helper'].href).toBe(
      `${API}/forms/${formId}/submissions`,
    );
    const person = await newPerson('Greta');
    const linked = nativeId(
      written(
        await an.post(`forms/${formId}/submissions`, {
          _links: { 'osdi:person': { href: person.href } },
        }),
      ),
    );
    expect(
      read(await an.get(`people/${person.id}/submissions/${linked}`))._links['osdi:form'].href,
    ).toBe(`${API}/forms/${formId}`);
    const helped = written(
      await an.post(`forms/${formId}/submissions`, {
        person: personHash('Hiro', 'Tanaka', 'hiro.t@alder.example.org'),
      }),
    );
    expectRecord(
      read(await an.get(`forms/${formId}/submissions/${nativeId(helped)}`)),
      `forms/${formId}/submissions/${nativeId(helped)}`,
    );
    written(await an.put(`forms/${formId}`, { title: 'Volunteer at the autumn book sale' }));
    expect(read(await an.get(`forms/${formId}`)).total_submissions).toBe(2);
  });
});

describe('fundraising pages (docs/v2/fundraising_pages), donations and the record donation helper', () => {
  it('POST fundraising_pages, then a donation by osdi:person: money as decimal strings', async () => {
    const { id: pageId, body: page } = await newRecord('fundraising_pages', {
      title: 'New shelves for the children’s room',
      origin_system: 'Alder CRM',
      currency: 'USD',
    });
    expectRecord(page, `fundraising_pages/${pageId}`);
    expect(page._links['osdi:donations'].href).toBe(`${API}/fundraising_pages/${pageId}/donations`);
    expect(page._links['osdi:record_donation_helper'].href).toBe(
      `${API}/fundraising_pages/${pageId}/donations`,
    );
    const person = await newPerson('Olu');
    const donation = written(
      await an.post(`fundraising_pages/${pageId}/donations`, {
        identifiers: ['payments:tx-9001'],
        currency: 'USD',
        recipients: [{ display_name: 'Alder Library Friends', amount: '12.50' }],
        _links: { 'osdi:person': { href: person.href } },
      }),
    );
    const id = nativeId(donation);
    const byPage = read(await an.get(`fundraising_pages/${pageId}/donations/${id}`));
    expect(byPage.amount).toBe('12.50');
    expect(byPage.recipients[0].amount).toBe('12.50');
    expect(read(await an.get(`people/${person.id}/donations/${id}`)).amount).toBe('12.50');
    const totals = read(await an.get(`fundraising_pages/${pageId}`));
    expect(totals.total_donations).toBe(1);
    expect(totals.total_amount).toBe('12.50');
  });

  it('POST fundraising_pages/{id}/donations with a person: recurrence and referrer data kept', async () => {
    const { id: pageId } = await newRecord('fundraising_pages', {
      title: 'Late fees amnesty fund',
    });
    const donation = written(
      await an.post(`fundraising_pages/${pageId}/donations`, {
        identifiers: ['payments:tx-9002'],
        recipients: [{ display_name: 'Alder Library Friends', amount: '3.00' }],
        person: personHash('Ewa', 'Nowak', 'ewa.nowak@alder.example.org'),
        'action_network:recurrence': { recurring: true, period: 'Monthly' },
        'action_network:referrer_data': { source: 'newsletter-june' },
      }),
    );
    const id = nativeId(donation);
    expectRecord(donation, `fundraising_pages/${pageId}/donations/${id}`);
    expect(donation.amount).toBe('3.00');
    expect(donation['action_network:recurrence']).toEqual({ recurring: true, period: 'Monthly' });
    expect(donation['action_network:referrer_data']).toMatchObject({ source: 'newsletter-june' });
  });
});

describe('donations with their own created_date (docs/v2/donations, an import)', () => {
  it('POST with created_date: kept, listed and filtered by it; the helper keeps it too', async () => {
    const { id: pageId } = await newRecord('fundraising_pages', { title: 'Spring book drive' });
    const person = await newPerson('Tomasz');
    // An import from a payment ledger: the gift's own date, Action Network's spelling.
    const imported = written(
      await an.post(`fundraising_pages/${pageId}/donations`, {
        identifiers: ['ledger:gift-0412'],
        created_date: '2024-03-09 16:45:00',
        recipients: [{ display_name: 'Alder Library Friends', amount: '15.00' }],
        _links: { 'osdi:person': { href: person.href } },
      }),
    );
    const id = nativeId(imported);
    expect(imported.created_date).toBe('2024-03-09T16:45:00Z');
    expect(imported.modified_date > imported.created_date).toBe(true);
    expect(read(await an.get(`fundraising_pages/${pageId}/donations/${id}`)).created_date).toBe(
      '2024-03-09T16:45:00Z',
    );
    const helped = written(
      await an.post(`fundraising_pages/${pageId}/donations`, {
        created_date: '2024-03-10T08:00:00Z',
        recipients: [{ display_name: 'Alder Library Friends', amount: '5.00' }],
        person: personHash('Tomasz', 'Wilk', 'tomasz.wilk@alder.example.org'),
      }),
    );
    expect(helped.created_date).toBe('2024-03-10T08:00:00Z');
    const filtered = (filter: string) =>
      an.get(`fundraising_pages/${pageId}/donations?filter=${encodeURIComponent(filter)}`);
    const found = read(await filtered("created_date lt '2024-03-10T00:00:00Z'"));
    expect(expectPage(found, 'osdi:donations', { totals: true }).map(nativeId)).toEqual([id]);
    // Written back as read: taken; with another date: refused, naming created_date.
    const { _links: _l, ...back } = read(await an.get(`donations/${id}`));
    expect(written(await an.put(`donations/${id}`, back)).created_date).toBe(
      '2024-03-09T16:45:00Z',
    );
    const moved = await an.put(`donations/${id}`, { created_date: '2024-03-01T00:00:00Z' });
    expect(moved.status).toBe(400);
    expect(JSON.stringify(moved.body)).toContain('created_date');
  });
});

describe('advocacy campaigns (docs/v2/advocacy_campaigns) and outreaches', () => {
  it('POST advocacy_campaigns with its targets as an array of hashes, GET, PUT', async () => {
    const { id, body } = await newRecord('advocacy_campaigns', {
      title: 'Write to the transit board',
      targets: [{ title: 'Commissioner', given_name: 'Pat', family_name: 'Lindqvist' }],
    });
    expectRecord(body, `advocacy_campaigns/${id}`);
    expect(body.targets).toEqual([
      { title: 'Commissioner', given_name: 'Pat', family_name: 'Lindqvist' },
    ]);
    written(await an.put(`advocacy_campaigns/${id}`, { title: 'Write to the transit board now' }));
    expect(read(await an.get(`advocacy_campaigns/${id}`)).title).toBe(
      'Write to the transit board now',
    );
    expectPage(read(await an.get('advocacy_campaigns')), 'osdi:advocacy_campaigns', {
      totals: true,
    });
  });

  it('POST advocacy_campaigns/{id}/outreaches with a person, at both nested addresses', async () => {
    const { id: campaignId, body: campaign } = await newRecord('advocacy_campaigns', {
      title: 'Call the county about the bus line',
    });
    expectRecord(campaign, `advocacy_campaigns/${campaignId}`);
    expect(campaign._links['osdi:outreaches'].href).toBe(
      `${API}/advocacy_campaigns/${campaignId}/outreaches`,
    );
    const outreach = written(
      await an.post(`advocacy_campaigns/${campaignId}/outreaches`, {
        type: 'email',
        targets: [{ given_name: 'Pat', family_name: 'Lindqvist' }],
        person: personHash('June', 'Park', 'june.park@alder.example.org'),
      }),
    );
    const id = nativeId(outreach);
    const byCampaign = read(await an.get(`advocacy_campaigns/${campaignId}/outreaches/${id}`));
    expectRecord(byCampaign, `advocacy_campaigns/${campaignId}/outreaches/${id}`);
    const personHref: string = byCampaign._links['osdi:person'].href;
    const personId = personHref.slice(`${API}/people/`.length);
    expect(nativeId(read(await an.get(`people/${personId}/outreaches/${id}`)))).toBe(id);
    const page = read(await an.get(`advocacy_campaigns/${campaignId}/outreaches`));
    expect(expectPage(page, 'osdi:outreaches', { totals: true }).map(nativeId)).toEqual([id]);
  });
});

describe('tags (docs/v2/tags) and taggings (docs/v2/taggings)', () => {
  it('POST tags, a tagging by osdi:person, at both nested addresses, then DELETE it', async () => {
    const tagId = await newTag('book-sale-volunteer');
    const tag = read(await an.get(`tags/${tagId}`));
    expectRecord(tag, `tags/${tagId}`);
    expect(tag.name).toBe('book-sale-volunteer');
    expect(tag._links['osdi:taggings'].href).toBe(`${API}/tags/${tagId}/taggings`);
    const person = await newPerson('Ravi');
    const tagging = written(
      await an.post(`tags/${tagId}/taggings`, { _links: { 'osdi:person': { href: person.href } } }),
    );
    const id = nativeId(tagging);
    const byTag = read(await an.get(`tags/${tagId}/taggings/${id}`));
    expectRecord(byTag, `tags/${tagId}/taggings/${id}`);
    expect(byTag._links['osdi:person'].href).toBe(person.href);
    expect(byTag._links['osdi:tag'].href).toBe(`${API}/tags/${tagId}`);
    expect(nativeId(read(await an.get(`people/${person.id}/taggings/${id}`)))).toBe(id);
    const removed = await an.delete(`tags/${tagId}/taggings/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ notice: 'This tagging was successfully deleted.' });
    expect((await an.get(`tags/${tagId}/taggings/${id}`)).status).toBe(404);
    expectPage(read(await an.get('tags')), 'osdi:tags', { totals: true });
  });
});

describe('lists (docs/v2/lists) and items (docs/v2/items): read only', () => {
  it('GET lists, lists/{id}, lists/{id}/items and lists/{id}/items/{id}', async () => {
    const lists = expectPage(read(await an.get('lists')), 'osdi:lists', { totals: true });
    const withPeople: Json[] = [];
    for (const list of lists) {
      const items = read(await an.get(`lists/${nativeId(list)}/items`));
      const found = expectPage(items, 'osdi:items', { totals: false }).filter(
        (item) => item._links['osdi:person'] !== undefined,
      );
      if (found.length > 0) withPeople.push({ list, item: found[0] });
    }
    expect(withPeople.length).toBeGreaterThan(0);
    const { list, item } = withPeople[0];
    const listId = nativeId(list);
    expectRecord(read(await an.get(`lists/${listId}`)), `lists/${listId}`);
    const one = read(await an.get(`lists/${listId}/items/${nativeId(item)}`));
    expectRecord(one, `lists/${listId}/items/${nativeId(item)}`);
    expect(one.item_type).toBe('osdi:person');
    expect(one._links['osdi:person'].href).toMatch(new RegExp(`^${API}/people/`));
  });

  it.each([
    ['POST', 'lists', { name: 'Board meeting RSVPs' }],
    ['POST', 'metadata', { name: 'x' }],
  ])('%s %s is refused (read only) with an osdi:error', async (method, path, body) => {
    const answer = await an.call(method, path, body);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toHaveProperty('osdi:error');
  });

  it('refuses PUT and DELETE of a list, and POST, PUT and DELETE of its items (405)', async () => {
    const [list] = expectPage(read(await an.get('lists')), 'osdi:lists', { totals: true });
    const listId = nativeId(list);
    const [item] = expectPage(read(await an.get(`lists/${listId}/items`)), 'osdi:items', {
      totals: false,
    });
    const itemPath = `lists/${listId}/items/${nativeId(item)}`;
    const person = await newPerson('Ines');
    for (const [method, path, body] of [
      ['PUT', `lists/${listId}`, { name: 'Renamed' }],
      ['DELETE', `lists/${listId}`, undefined],
      ['POST', `lists/${listId}/items`, { _links: { 'osdi:person': { href: person.href } } }],
      ['PUT', itemPath, { identifiers: ['crm:item-7'] }],
      ['DELETE', itemPath, undefined],
    ] as const) {
      const answer = await an.call(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.body, `${method} ${path}`).toHaveProperty('osdi:error');
    }
    expect(read(await an.get(itemPath))._links.self.href).toBe(`${API}/${itemPath}`);
  });

  it('an item carries the native ids of its person and its list', async () => {
    const [list] = expectPage(read(await an.get('lists')), 'osdi:lists', { totals: true });
    const listId = nativeId(list);
    const items = expectPage(read(await an.get(`lists/${listId}/items`)), 'osdi:items', {
      totals: false,
    });
    const ofPerson = items.find((item) => item._links['osdi:person'] !== undefined);
    const personHref: string = ofPerson._links['osdi:person'].href;
    expect(ofPerson['action_network:person_id']).toBe(personHref.split('/').pop());
    expect(ofPerson['action_network:list_id']).toBe(listId);
  });
});

describe('messages (docs/v2/messages)', () => {
  it('POST messages with targets, GET messages/{id}, PUT while a draft', async () => {
    const [list] = expectPage(read(await an.get('lists')), 'osdi:lists', { totals: true });
    const { id, body } = await newRecord('messages', {
      identifiers: ['crm:mail-12'],
      subject: 'The board votes on Sunday hours',
      body: '<p>Come to the hearing, or sign before Tuesday.</p>',
      from: 'Alder Neighbors',
      reply_to: 'hello@alder.example.org',
      targets: [{ href: list._links.self.href }],
    });
    expectRecord(body, `messages/${id}`);
    expect(body.status).toBe('draft');
    expect(body.targets).toEqual([{ href: list._links.self.href }]);
    written(await an.put(`messages/${id}`, { subject: 'Sunday hours: the board votes Tuesday' }));
    const again = read(await an.get(`messages/${id}`));
    expect(again.subject).toBe('Sunday hours: the board votes Tuesday');
    expect(again.targets).toEqual([{ href: list._links.self.href }]);
    expectPage(read(await an.get('messages')), 'osdi:messages', { totals: true });
  });
});

describe("actions carry Action Network's native ids of what they link", () => {
  it('signatures, attendances, submissions, donations, taggings and outreaches: read-only', async () => {
    const person = await newPerson('Mina');
    const link = { _links: { 'osdi:person': { href: person.href } } };
    const petition = await newRecord('petitions', { title: 'Quiet room hours' });
    const event = await newRecord('events', {
      title: 'Seed library day',
      start_date: '2026-09-12T10:00:00Z',
    });
    const form = await newRecord('forms', { title: 'Tell us what to stock' });
    const page = await newRecord('fundraising_pages', { title: 'Seed packets' });
    const tagId = await newTag('seed-library');
    const campaign = await newRecord('advocacy_campaigns', { title: 'Fund the seed library' });
    const cases: [string, Json, string, string][] = [
      [`petitions/${petition.id}/signatures`, link, 'action_network:petition_id', petition.id],
      [`events/${event.id}/attendances`, link, 'action_network:event_id', event.id],
      [`forms/${form.id}/submissions`, link, 'action_network:form_id', form.id],
      [
        `fundraising_pages/${page.id}/donations`,
        { ...link, recipients: [{ display_name: 'Seeds', amount: '5.00' }] },
        'action_network:fundraising_page_id',
        page.id,
      ],
      [`tags/${tagId}/taggings`, link, 'action_network:tag_id', tagId],
      [
        `advocacy_campaigns/${campaign.id}/outreaches`,
        { ...link, type: 'email' },
        'action_network:advocacy_campaign_id',
        campaign.id,
      ],
    ];
    for (const [path, body, member, parentId] of cases) {
      const record = written(await an.post(path, body));
      expect(record['action_network:person_id'], path).toBe(person.id);
      expect(record[member], path).toBe(parentId);
      expect(vendorMembers(record), path).toEqual(
        expect.arrayContaining(['action_network:person_id', member]),
      );
      // Read-only: written back (a read-modify-write), what is sent is ignored.
      const self: string = record._links.self.href;
      const echoed = written(
        await an.put(self, {
          ...record,
          'action_network:person_id': 'someone-else',
          [member]: 'x',
        }),
      );
      expect(echoed['action_network:person_id'], path).toBe(person.id);
      expect(echoed[member], path).toBe(parentId);
      const again = read(await an.get(self));
      expect(again['action_network:person_id'], path).toBe(person.id);
      expect(again[member], path).toBe(parentId);
    }
  });
});

describe('groups are apart: a record of another group is 404 at every address', () => {
  it('a signature at its petition and its person', async () => {
    const person = await newPerson('Zoe');
    const petition = await newRecord('petitions', { title: 'Longer loans' });
    const signature = written(
      await an.post(`petitions/${petition.id}/signatures`, {
        _links: { 'osdi:person': { href: person.href } },
      }),
    );
    const id = nativeId(signature);
    for (const path of [
      `petitions/${petition.id}/signatures/${id}`,
      `people/${person.id}/signatures/${id}`,
      `petitions/${petition.id}`,
      `people/${person.id}`,
    ]) {
      const answer = await an.get(path, { key: OTHER_GROUP_KEY });
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toHaveProperty('osdi:error');
    }
  });
});
