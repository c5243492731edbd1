import { describe, expect, it } from 'vitest';
import { errorOf, OTHER } from './helpers.js';
import { callHelper, count, create, helperHarness, helperOf, person } from './helpers-setup.js';

describe('record signature helper', () => {
  it('keyed: 201, Location, the signature with its links and the signer embedded', async () => {
    const h = helperHarness();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const { status, body, res } = await callHelper(
      h,
      helperOf(petition, 'record_signature_helper'),
      {
        comments: 'Keep it green',
        action_date: '2026-03-01T10:00:00Z',
        identifiers: ['forms:77'],
        person: person('Ana', 'ana@example.org'),
      },
    );
    expect(status).toBe(201);
    expect(res.headers.get('location')).toBe(body._links.self.href);
    expect(body.comments).toBe('Keep it green');
    expect(body.identifiers).toContain('forms:77');
    expect(body._links['std:petition'].href).toBe(petition._links.self.href);
    const signer = body._embedded['std:person'];
    expect(signer.given_name).toBe('Ana');
    expect(body._links['std:person'].href).toBe(signer._links.self.href);
    const read = await h.json('GET', body._links.self.href);
    const { _embedded, ...stored } = body;
    expect(read.body).toEqual(stored);
    expect((await h.json('GET', petition._links.self.href)).body.total_signatures).toBe(1);
    expect(await count(h, signer._links['std:signatures'].href)).toBe(1);
  });

  it('anonymous: 200 {} in the tenant of the petition, no identifiers taken', async () => {
    const h = helperHarness();
    const petition = await create(h, 'petitions', { title: 'Other tenant petition' }, OTHER);
    const { status, body, res } = await callHelper(
      h,
      helperOf(petition, 'record_signature_helper'),
      {
        identifiers: ['forms:1'],
        person: { ...person('Bo', 'bo@example.org'), identifiers: ['crm:1'] },
      },
      null,
    );
    expect(status).toBe(200);
    expect(body).toEqual({});
    expect(res.headers.get('location')).toBeNull();
    const signatures = await h.json('GET', '/api/v1/signatures', { key: OTHER });
    expect(signatures.body.total_records).toBe(1);
    expect(signatures.body._embedded['std:signatures'][0].identifiers).toHaveLength(1);
    const people = await h.json('GET', '/api/v1/people', { key: OTHER });
    expect(people.body._embedded['std:people'][0].identifiers).toHaveLength(1);
    expect(await count(h, 'people')).toBe(0);
  });

  it('404 for an unknown record, keyed or not, and for another tenant’s record with a key', async () => {
    const h = helperHarness();
    const petition = await create(h, 'petitions', { title: 'P' }, OTHER);
    const href = helperOf(petition, 'record_signature_helper');
    const unknown = href.replace(
      /petitions\/[^/]+/,
      'petitions/00000000-0000-4000-8000-000000000000',
    );
    const body = { person: person('C') };
    expect((await callHelper(h, unknown, body)).status).toBe(404);
    const anonymous = await callHelper(h, unknown, body, null);
    expect(anonymous.status).toBe(404);
    expect(errorOf(anonymous.body)[0]?.error_code).toBe('NOT_FOUND');
    expect((await callHelper(h, href, body)).status).toBe(404);
    expect(await count(h, 'people')).toBe(0);
  });

  it('refuses a bad body atomically, answers 405 to other methods, honours return_response', async () => {
    const h = helperHarness();
    const petition = await create(h, 'petitions', { title: 'P' });
    const href = helperOf(petition, 'record_signature_helper');
    const unknown = await callHelper(h, href, { person: person('D'), signature: 'x' });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown.body)[0]).toMatchObject({
      error_code: 'UNKNOWN_PROPERTY',
      properties: ['signature'],
    });
    const badPerson = await callHelper(h, href, { person: { phone_numbers: [{ number: 'x' }] } });
    expect(errorOf(badPerson.body)[0]?.properties).toEqual(['person.phone_numbers[0].number']);
    expect((await callHelper(h, href, { comments: 'no person' })).status).toBe(400);
    expect(await count(h, 'people')).toBe(0);
    const get = await h.call('GET', href);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const minimal = await callHelper(h, href, {
      person: person('E'),
      'std:control': { return_response: false },
    });
    expect(minimal.status).toBe(201);
    expect(Object.keys(minimal.body).sort()).toEqual(['_links', 'identifiers']);
    expect(minimal.res.headers.get('location')).toBe(minimal.body._links.self.href);
  });
});

describe('record outreach helper', () => {
  it('records an outreach with its targets, keyed and anonymous', async () => {
    const h = helperHarness();
    const campaign = await create(h, 'advocacy_campaigns', { title: 'Call the council' });
    const href = helperOf(campaign, 'record_outreach_helper');
    const target = { given_name: 'Sam', family_name: 'Ruiz', title: 'Council member' };
    const keyed = await callHelper(h, href, {
      type: 'phone',
      duration: 180,
      targets: [target],
      person: person('Ana', 'ana@example.org'),
    });
    expect(keyed.status).toBe(201);
    expect(keyed.body.targets).toEqual([target]);
    expect(keyed.body._links['std:advocacy_campaign'].href).toBe(campaign._links.self.href);
    expect(keyed.body._embedded['std:person'].given_name).toBe('Ana');
    const anonymous = await callHelper(
      h,
      href,
      { type: 'email', subject: 'No', person: person('Bo', 'bo@example.org') },
      null,
    );
    expect(anonymous).toMatchObject({ status: 200, body: {} });
    expect((await h.json('GET', campaign._links.self.href)).body.total_outreaches).toBe(2);
  });
});

describe('record attendance helper', () => {
  it('open event: status, attended and comment; tickets refused; anonymous RSVP', async () => {
    const h = helperHarness();
    const event = await create(h, 'events', { title: 'Picnic', type: 'open' });
    const href = helperOf(event, 'record_attendance_helper');
    const rsvp = await callHelper(h, href, {
      status: 'accepted',
      attended: true,
      comment: 'Bringing salad',
      person: person('Ana', 'ana@example.org'),
    });
    expect(rsvp.status).toBe(201);
    expect(rsvp.body).toMatchObject({
      status: 'accepted',
      attended: true,
      comment: 'Bringing salad',
    });
    const tickets = await callHelper(h, href, {
      person: person('Bo', 'bo@example.org'),
      tickets: [{ title: 'Adult' }],
    });
    expect(tickets.status).toBe(400);
    expect(errorOf(tickets.body)[0]).toMatchObject({
      error_code: 'TICKETS_NOT_ALLOWED',
      properties: ['tickets'],
    });
    const anonymous = await callHelper(
      h,
      href,
      { status: 'tentative', person: person('Cy') },
      null,
    );
    expect(anonymous).toMatchObject({ status: 200, body: {} });
    expect((await h.json('GET', event._links.self.href)).body.total_accepted).toBe(1);
    expect(await count(h, 'people')).toBe(2);
  });

  it('ticketed event: tickets held by another person than the buyer; limits enforced atomically', async () => {
    const h = helperHarness();
    const event = await create(h, 'events', {
      title: 'Gala',
      type: 'ticketed',
      ticket_levels: [{ title: 'Adult', amount: 10, currency: 'USD', limit: 3 }],
    });
    const href = helperOf(event, 'record_attendance_helper');
    const bought = await callHelper(h, href, {
      status: 'accepted',
      person: person('Ana', 'ana@example.org'),
      tickets: [
        { title: 'Adult', amount: 10, currency: 'USD', person: person('Ben', 'ben@example.org') },
        { title: 'Adult', amount: 10, currency: 'USD', person: person('Ana', 'ANA@example.org') },
      ],
    });
    expect(bought.status).toBe(201);
    const buyer = bought.body._embedded['std:person'];
    expect(bought.body._links['std:person'].href).toBe(buyer._links.self.href);
    const [first, second] = bought.body.tickets;
    expect(second.person).toBe(buyer._links.self.href);
    expect(first.person).not.toBe(buyer._links.self.href);
    const holder = await h.json('GET', first.person);
    expect(holder.body.given_name).toBe('Ben');
    expect(await count(h, 'people')).toBe(2);
    const gala = (await h.json('GET', event._links.self.href)).body;
    expect(gala.total_tickets).toBe(2);
    expect(gala.ticket_levels[0].limit).toBe(1);

    const soldOut = await callHelper(h, href, {
      person: person('Cy', 'cy@example.org'),
      tickets: [{ title: 'Adult', person: person('Dee', 'dee@example.org') }, { title: 'Adult' }],
    });
    expect(soldOut.status).toBe(400);
    expect(errorOf(soldOut.body)[0]?.error_code).toBe('TICKETS_SOLD_OUT');
    // Neither the buyer nor the ticket holder was kept.
    expect(await count(h, 'people')).toBe(2);
    expect(await count(h, 'attendances')).toBe(1);

    const none = await callHelper(h, href, { status: 'accepted', person: person('Ed') });
    expect(errorOf(none.body)[0]?.error_code).toBe('TICKETS_REQUIRED');
    const attended = await callHelper(h, href, {
      attended: true,
      person: person('Ed'),
      tickets: [{ title: 'Adult' }],
    });
    expect(errorOf(attended.body)[0]).toMatchObject({
      error_code: 'ATTENDED_NOT_ALLOWED',
      properties: ['attended'],
    });
    const declined = await callHelper(h, href, { status: 'declined', person: person('Fay') });
    expect(declined.status).toBe(201);
  });
});

describe('record donation helper', () => {
  it('records a donation with recipients, payment, credit and a link to an attendance', async () => {
    const h = helperHarness();
    const page = await create(h, 'fundraising_pages', { title: 'Park fund', currency: 'USD' });
    const event = await create(h, 'events', { title: 'Picnic' });
    const rsvp = await callHelper(h, helperOf(event, 'record_attendance_helper'), {
      person: person('Ana', 'ana@example.org'),
    });
    const form = await create(h, 'forms', { title: 'Pledge' });
    const submission = await callHelper(h, helperOf(form, 'record_submission_helper'), {
      person: person('Ana', 'ana@example.org'),
    });
    const href = helperOf(page, 'record_donation_helper');
    const { status, body } = await callHelper(h, href, {
      amount: 25,
      currency: 'USD',
      credited_amount: 5,
      credited_date: '2026-03-02T00:00:00Z',
      recipients: [{ display_name: 'Friends of Elm Park', amount: 25 }],
      payment: { method: 'Check', reference_number: '1042' },
      person: person('Ana', 'ana@example.org'),
      _links: {
        'std:attendance': { href: rsvp.body._links.self.href },
        'osdi:submission': { href: submission.body._links.self.href },
      },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ amount: 25, credited_amount: 5, payment: { method: 'Check' } });
    expect(body._links['std:attendance'].href).toBe(rsvp.body._links.self.href);
    expect(body._links['std:submission'].href).toBe(submission.body._links.self.href);
    expect(body._links['std:fundraising_page'].href).toBe(page._links.self.href);
    expect(await count(h, 'people')).toBe(1);
    const voided = await callHelper(
      h,
      href,
      { amount: 10, voided: true, voided_date: '2026-03-03T00:00:00Z', person: person('Bo') },
      null,
    );
    expect(voided).toMatchObject({ status: 200, body: {} });
    const totals = (await h.json('GET', page._links.self.href)).body;
    expect(totals).toMatchObject({ total_donations: 1, total_amount: 25 });
  });

  it('takes amounts as decimal strings (as Action Network writes money) and stores numbers', async () => {
    const h = helperHarness();
    const page = await create(h, 'fundraising_pages', { title: 'Fund', currency: 'USD' });
    const href = helperOf(page, 'record_donation_helper');
    const { status, body } = await callHelper(h, href, {
      amount: '25.00',
      recipients: [{ display_name: 'Friends of Elm Park', amount: '25.00' }],
      person: person('Ana'),
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ amount: 25, recipients: [{ amount: 25 }] });
    expect((await h.json('GET', page._links.self.href)).body.total_amount).toBe(25);
    const words = await callHelper(h, href, { amount: 'twenty', person: person('Bo') });
    expect(words.status).toBe(400);
    expect(errorOf(words.body)[0]?.properties).toEqual(['amount']);
  });

  it('refuses links to records of another kind or tenant, and another currency', async () => {
    const h = helperHarness();
    const page = await create(h, 'fundraising_pages', { title: 'Fund', currency: 'USD' });
    const petition = await create(h, 'petitions', { title: 'Not an attendance' });
    const otherEvent = await create(h, 'events', { title: 'Elsewhere' }, OTHER);
    const foreign = await callHelper(
      h,
      helperOf(otherEvent, 'record_attendance_helper'),
      { person: person('Zed') },
      OTHER,
    );
    const href = helperOf(page, 'record_donation_helper');
    for (const target of [petition._links.self.href, foreign.body._links.self.href]) {
      const refused = await callHelper(h, href, {
        amount: 5,
        person: person('Ana'),
        _links: { 'std:attendance': { href: target } },
      });
      expect(refused.status).toBe(400);
      expect(errorOf(refused.body)[0]).toMatchObject({
        error_code: 'INVALID_LINK',
        properties: ['_links.std:attendance'],
      });
    }
    const euros = await callHelper(h, href, { amount: 5, currency: 'EUR', person: person('Ana') });
    expect(errorOf(euros.body)[0]?.error_code).toBe('CURRENCY_MISMATCH');
    expect(await count(h, 'people')).toBe(0);
  });
});

describe('record canvass helper', () => {
  async function setup() {
    const h = helperHarness();
    const target = await create(h, 'people', person('Tia', 'tia@example.org'));
    const question = await create(h, 'questions', {
      name: 'Support',
      question_type: 'SingleChoice',
      responses: [
        { key: 'yes', name: 'Yes' },
        { key: 'no', name: 'No' },
      ],
    });
    return { h, target, question, href: helperOf(target, 'record_canvass_helper') };
  }

  it('records a canvass of the target with its canvasser and answer', async () => {
    const { h, target, question, href } = await setup();
    const { status, body, res } = await callHelper(h, href, {
      canvass: {
        action_date: '2026-03-01T18:00:00Z',
        contact_type: 'door',
        input_type: 'mobile_app',
        success: true,
        canvasser: person('Cal', 'cal@example.org'),
        question_response: { question: question._links.self.href, responses: ['yes'] },
      },
    });
    expect(status).toBe(201);
    expect(res.headers.get('location')).toBe(body._links.self.href);
    expect(body).toMatchObject({ contact_type: 'door', input_type: 'mobile_app', success: true });
    expect(Object.keys(body._links)).toEqual(
      expect.arrayContaining([
        'self',
        'std:canvasser',
        'std:target',
        'std:answers',
        'std:taggings',
      ]),
    );
    expect(body._links['std:target'].href).toBe(target._links.self.href);
    expect(body._embedded['std:person']._links.self.href).toBe(target._links.self.href);
    const canvasser = await h.json('GET', body._links['std:canvasser'].href);
    expect(canvasser.body.given_name).toBe('Cal');
    const answers = await h.json('GET', body._links['std:answers'].href);
    expect(answers.body.total_records).toBe(1);
    const answer = answers.body._embedded['std:answers'][0];
    expect(answer.responses).toEqual(['yes']);
    expect(answer._links['std:person'].href).toBe(target._links.self.href);
    expect(answer._links['std:question'].href).toBe(question._links.self.href);
    // The question may also be named by its identifier; anonymous callers get {}.
    const anonymous = await callHelper(
      h,
      href,
      {
        canvass: {
          contact_type: 'phone',
          success: false,
          status_code: 'not_home',
          question_response: { question: question.identifiers[0], responses: ['no'] },
        },
      },
      null,
    );
    expect(anonymous).toMatchObject({ status: 200, body: {} });
    expect(await count(h, target._links['std:answers'].href)).toBe(2);
  });

  it('refuses codes not in the metadata lists, and bad answers, writing nothing', async () => {
    const { h, question, href } = await setup();
    const codes = await callHelper(h, href, {
      canvass: { contact_type: 'fax', input_type: 'carrier_pigeon', canvasser: person('Cal') },
    });
    expect(codes.status).toBe(400);
    expect(errorOf(codes.body).map((e) => e.properties?.[0])).toEqual([
      'canvass.contact_type',
      'canvass.input_type',
    ]);
    expect(errorOf(codes.body)[0]?.error_code).toBe('INVALID_PROPERTY');
    const answer = await callHelper(h, href, {
      canvass: {
        contact_type: 'door',
        canvasser: person('Cal'),
        question_response: { question: question._links.self.href, responses: ['maybe'] },
      },
    });
    expect(answer.status).toBe(400);
    expect(errorOf(answer.body)[0]).toMatchObject({
      error_code: 'INVALID_ANSWER',
      properties: ['canvass.question_response.responses[0]'],
    });
    const missing = await callHelper(h, href, {
      canvass: { question_response: { question: 'adis:nope', responses: ['yes'] } },
    });
    expect(errorOf(missing.body)[0]?.error_code).toBe('QUESTION_DOES_NOT_EXIST');
    expect(await count(h, 'canvasses')).toBe(0);
    expect(await count(h, 'answers')).toBe(0);
    expect(await count(h, 'people')).toBe(1);
  });
});

describe('record submission helper', () => {
  it('records a submission with a key; refuses calls without one', async () => {
    const h = helperHarness();
    const form = await create(h, 'forms', { title: 'Volunteer' });
    const href = helperOf(form, 'record_submission_helper');
    const keyed = await callHelper(h, href, { person: person('Ana', 'ana@example.org') });
    expect(keyed.status).toBe(201);
    expect(keyed.body._links['std:form'].href).toBe(form._links.self.href);
    expect((await h.json('GET', form._links.self.href)).body.total_submissions).toBe(1);
    const anonymous = await callHelper(h, href, { person: person('Bo') }, null);
    expect(anonymous.status).toBe(401);
    expect(await count(h, 'submissions')).toBe(1);
  });
});
