/**
 * One signature per person and petition, one attendance per person and event, one
 * submission per person and form: the same person acting again updates the record (200)
 * and the totals do not move. Donations and outreaches always add. The same rule on the
 * plain collection creates, and on databases that already hold duplicates.
 */
import { describe, expect, it } from 'vitest';
import { errorOf, type Harness, type Json } from './helpers.js';
import { callHelper, count, create, helperHarness, helperOf, person } from './helpers-setup.js';

const ANA = person('Ana', 'ana@example.org');

/** Lets the clock move on, so that a second write has a later modified_date. */
function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5));
}

async function petitionOf(h: Harness): Promise<Json> {
  return create(h, 'petitions', { title: 'Save Elm Park' });
}

async function read(h: Harness, href: string): Promise<Json> {
  const { status, body } = await h.json('GET', href);
  expect(status).toBe(200);
  return body;
}

describe('one signature per person and petition', () => {
  it('signing again by the same email updates the signature: 200, total unchanged', async () => {
    const h = helperHarness();
    const petition = await petitionOf(h);
    const href = helperOf(petition, 'record_signature_helper');
    const first = await callHelper(h, href, {
      comments: 'Keep it green',
      identifiers: ['crm:1'],
      triggers: { autoresponse: { enabled: true } },
      person: ANA,
    });
    expect(first.status).toBe(201);
    expect(first.res.headers.get('Location')).toBe(first.body._links.self.href);
    await tick();
    const again = await callHelper(h, href, {
      comments: 'Still green',
      identifiers: ['crm:2'],
      triggers: { autoresponse: { enabled: false } },
      person: person('Ana', 'ANA@Example.org'),
    });
    expect(again.status).toBe(200);
    expect(again.res.headers.get('Location')).toBeNull();
    expect(again.body._links.self.href).toBe(first.body._links.self.href);
    expect(again.body.comments).toBe('Still green');
    expect(again.body.created_date).toBe(first.body.created_date);
    expect(Date.parse(again.body.modified_date)).toBeGreaterThan(
      Date.parse(first.body.modified_date),
    );
    // The identifiers of both calls name this signature; the latest triggers are kept.
    expect(again.body.identifiers).toEqual([...first.body.identifiers, 'crm:2']);
    expect(again.body.triggers).toEqual({ autoresponse: { enabled: false } });
    expect(again.body._embedded['std:person']._links.self.href).toBe(
      first.body._embedded['std:person']._links.self.href,
    );
    expect((await read(h, petition._links.self.href)).total_signatures).toBe(1);
    expect(await count(h, petition._links['std:signatures'].href)).toBe(1);
    expect(await count(h, 'signatures')).toBe(1);
    // Another person, another petition: new signatures.
    expect((await callHelper(h, href, { person: person('Bo', 'bo@example.org') })).status).toBe(
      201,
    );
    const other = await create(h, 'petitions', { title: 'Fix the swings' });
    const elsewhere = await callHelper(h, helperOf(other, 'record_signature_helper'), {
      person: ANA,
    });
    expect(elsewhere.status).toBe(201);
    expect((await read(h, petition._links.self.href)).total_signatures).toBe(2);
    expect((await read(h, other._links.self.href)).total_signatures).toBe(1);
  });

  it('without a key, signing again only fills what the signature lacks', async () => {
    const h = helperHarness();
    const petition = await petitionOf(h);
    const href = helperOf(petition, 'record_signature_helper');
    expect(await callHelper(h, href, { person: ANA }, null)).toMatchObject({ status: 200 });
    const [signature] = (await read(h, petition._links['std:signatures'].href))._embedded[
      'std:signatures'
    ];
    await callHelper(h, href, { comments: 'Yes!', person: ANA }, null);
    const filled = await read(h, signature._links.self.href);
    expect(filled.comments).toBe('Yes!');
    // Anyone who knows Ana's address could otherwise rewrite her comment.
    await tick();
    await callHelper(h, href, { comments: 'Mallory was here', person: ANA }, null);
    const kept = await read(h, signature._links.self.href);
    expect(kept.comments).toBe('Yes!');
    expect(kept.modified_date).toBe(filled.modified_date);
    // With a key, the comment is the caller's to change.
    const keyed = await callHelper(h, href, { comments: 'Changed', person: ANA });
    expect(keyed.status).toBe(200);
    expect(keyed.body.comments).toBe('Changed');
    expect((await read(h, petition._links.self.href)).total_signatures).toBe(1);
  });

  it('the collection create follows the same rule, through the petition or not', async () => {
    const h = helperHarness();
    const petition = await petitionOf(h);
    const ana = await create(h, 'people', ANA);
    const bo = await create(h, 'people', person('Bo', 'bo@example.org'));
    const signatures = petition._links['std:signatures'].href;
    const personLink = (who: Json) => ({ 'std:person': { href: who._links.self.href } });
    const first = await h.json('POST', signatures, {
      body: { comments: 'One', _links: personLink(ana) },
    });
    expect(first.status).toBe(201);
    expect(first.res.headers.get('Location')).toBe(first.body._links.self.href);
    const again = await h.json('POST', signatures, {
      body: { comments: 'Two', _links: personLink(ana) },
    });
    expect(again.status).toBe(200);
    expect(again.res.headers.get('Location')).toBeNull();
    expect(again.body).toMatchObject({ comments: 'Two' });
    expect(again.body._links.self.href).toBe(first.body._links.self.href);
    const plain = await h.json('POST', '/api/v1/signatures', {
      body: {
        comments: 'Three',
        _links: { ...personLink(ana), 'std:petition': { href: petition._links.self.href } },
      },
    });
    expect(plain.status).toBe(200);
    expect(plain.body._links.self.href).toBe(first.body._links.self.href);
    const other = await h.json('POST', signatures, { body: { _links: personLink(bo) } });
    expect(other.status).toBe(201);
    expect((await read(h, petition._links.self.href)).total_signatures).toBe(2);
    expect(await count(h, 'signatures')).toBe(2);
    // A petition link that contradicts the collection's is refused, not taken as Ana's
    // signature of that other petition.
    const elsewhere = await create(h, 'petitions', { title: 'Fix the swings' });
    const signedThere = await h.json('POST', elsewhere._links['std:signatures'].href, {
      body: { comments: 'There', _links: personLink(ana) },
    });
    expect(signedThere.status).toBe(201);
    const contradicting = await h.json('POST', signatures, {
      body: {
        comments: 'Moved?',
        _links: { ...personLink(ana), 'std:petition': { href: elsewhere._links.self.href } },
      },
    });
    expect(contradicting.status).toBe(400);
    expect(errorOf(contradicting.body)[0]).toMatchObject({
      error_code: 'INVALID_LINK',
      properties: ['_links.std:petition'],
    });
    expect((await read(h, signedThere.body._links.self.href)).comments).toBe('There');
    // A link that names nothing is still refused as on any create.
    const broken = await h.json('POST', signatures, {
      body: { _links: { 'std:person': { href: 'http://adis.test/api/v1/people/nope' } } },
    });
    expect(broken.status).toBe(400);
    expect(errorOf(broken.body)[0]?.error_code).toBe('INVALID_LINK');
  });

  it('an update cannot make a second signature of a person and petition', async () => {
    const h = helperHarness();
    const petition = await petitionOf(h);
    const href = helperOf(petition, 'record_signature_helper');
    const ana = await callHelper(h, href, { person: ANA });
    const bo = await callHelper(h, href, { person: person('Bo', 'bo@example.org') });
    const moved = await h.json('PUT', bo.body._links.self.href, {
      body: {
        _links: { 'std:person': { href: ana.body._embedded['std:person']._links.self.href } },
      },
    });
    expect(moved.status).toBe(400);
    expect(errorOf(moved.body)[0]).toMatchObject({
      error_code: 'INVALID_LINK',
      properties: ['_links.std:person'],
    });
    // A round trip that leaves the links as they are is fine.
    const echoed = await h.json('PUT', bo.body._links.self.href, {
      body: { comments: 'Edited', _links: bo.body._links },
    });
    expect(echoed.status).toBe(200);
    expect(echoed.body.comments).toBe('Edited');
  });

  it('a database holding duplicates from before the rule: the newest is updated, none lost', async () => {
    const h = helperHarness();
    const petition = await petitionOf(h);
    const href = helperOf(petition, 'record_signature_helper');
    const signed = await callHelper(h, href, { comments: 'Old', person: ANA });
    const ana = signed.body._embedded['std:person']._links.self.href;
    // Written as an older server did: a second signature of the same person and petition.
    const tenant = await h.storage.tenants.get('acme');
    const personId = ana.split('/').pop() as string;
    const petitionId = petition._links.self.href.split('/').pop() as string;
    const stamp = new Date().toISOString();
    const duplicate = await h.storage.records.insert({
      tenantId: tenant?.id as number,
      kind: 'signature',
      id: '00000000-0000-4000-8000-000000000001',
      doc: {
        identifiers: ['adis:00000000-0000-4000-8000-000000000001'],
        created_date: stamp,
        modified_date: stamp,
        comments: 'Duplicate',
        _refs: {
          petition: { kind: 'petition', id: petitionId },
          person: { kind: 'person', id: personId },
        },
      },
      created_date: stamp,
      modified_date: stamp,
      identifiers: ['adis:00000000-0000-4000-8000-000000000001'],
      parents: [
        { kind: 'petition', id: petitionId },
        { kind: 'person', id: personId },
      ],
      contributions: [
        { parent: { kind: 'petition', id: petitionId }, name: 'total_signatures', value: 1 },
      ],
    });
    expect((await read(h, petition._links.self.href)).total_signatures).toBe(2);
    const again = await callHelper(h, href, { comments: 'New', person: ANA });
    expect(again.status).toBe(200);
    expect(again.body._links.self.href).toContain(duplicate.id);
    expect((await read(h, signed.body._links.self.href)).comments).toBe('Old');
    expect(await count(h, 'signatures')).toBe(2);
    expect((await read(h, petition._links.self.href)).total_signatures).toBe(2);
  });
});

describe('one attendance per person and event, one submission per person and form', () => {
  it('an RSVP again changes the attendance and the event totals follow it', async () => {
    const h = helperHarness();
    const event = await create(h, 'events', { title: 'Picnic', type: 'open' });
    const href = helperOf(event, 'record_attendance_helper');
    const first = await callHelper(h, href, { status: 'accepted', person: ANA });
    expect(first.status).toBe(201);
    expect((await read(h, event._links.self.href)).total_accepted).toBe(1);
    await tick();
    const again = await callHelper(h, href, {
      status: 'declined',
      comment: 'Sorry',
      person: ANA,
    });
    expect(again.status).toBe(200);
    expect(again.body._links.self.href).toBe(first.body._links.self.href);
    expect(again.body).toMatchObject({ status: 'declined', comment: 'Sorry' });
    expect(Date.parse(again.body.modified_date)).toBeGreaterThan(
      Date.parse(first.body.modified_date),
    );
    expect((await read(h, event._links.self.href)).total_accepted).toBe(0);
    expect(await count(h, 'attendances')).toBe(1);
  });

  it('buying tickets again replaces the tickets; the level gives back those held', async () => {
    const h = helperHarness();
    const event = await create(h, 'events', {
      title: 'Gala',
      type: 'ticketed',
      ticket_levels: [{ title: 'Adult', amount: 10, currency: 'USD', limit: 2 }],
    });
    const href = helperOf(event, 'record_attendance_helper');
    const adult = { title: 'Adult', amount: 10, currency: 'USD' };
    expect((await callHelper(h, href, { person: ANA, tickets: [adult, adult] })).status).toBe(201);
    const again = await callHelper(h, href, { person: ANA, tickets: [adult] });
    expect(again.status).toBe(200);
    const gala = await read(h, event._links.self.href);
    expect(gala).toMatchObject({ total_tickets: 1, total_amount: 10, total_accepted: 1 });
    expect(gala.ticket_levels[0].limit).toBe(1);
  });

  it('submitting a form again updates the submission: 200, total unchanged', async () => {
    const h = helperHarness();
    const form = await create(h, 'forms', { title: 'Volunteer' });
    const href = helperOf(form, 'record_submission_helper');
    const first = await callHelper(h, href, { custom_fields: { shirt: 'M' }, person: ANA });
    expect(first.status).toBe(201);
    await tick();
    const again = await callHelper(h, href, { custom_fields: { shirt: 'L' }, person: ANA });
    expect(again.status).toBe(200);
    expect(again.body._links.self.href).toBe(first.body._links.self.href);
    expect(again.body.custom_fields).toEqual({ shirt: 'L' });
    expect(Date.parse(again.body.modified_date)).toBeGreaterThan(
      Date.parse(first.body.modified_date),
    );
    expect((await read(h, form._links.self.href)).total_submissions).toBe(1);
    expect(await count(h, 'submissions')).toBe(1);
  });
});

describe('donations and outreaches always add', () => {
  it('the same donor twice is two donations', async () => {
    const h = helperHarness();
    const page = await create(h, 'fundraising_pages', { title: 'Park fund', currency: 'USD' });
    const href = helperOf(page, 'record_donation_helper');
    const first = await callHelper(h, href, { amount: 10, person: ANA });
    const second = await callHelper(h, href, { amount: 15, person: ANA });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body._links.self.href).not.toBe(first.body._links.self.href);
    expect(await read(h, page._links.self.href)).toMatchObject({
      total_donations: 2,
      total_amount: 25,
    });
  });

  it('the same person reaching out twice is two outreaches', async () => {
    const h = helperHarness();
    const campaign = await create(h, 'advocacy_campaigns', { title: 'Call the council' });
    const href = helperOf(campaign, 'record_outreach_helper');
    const first = await callHelper(h, href, { type: 'phone', person: ANA });
    const second = await callHelper(h, href, { type: 'phone', person: ANA });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await read(h, campaign._links.self.href)).total_outreaches).toBe(2);
    expect(await count(h, 'outreaches')).toBe(2);
  });
});
