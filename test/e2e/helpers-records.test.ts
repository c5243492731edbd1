import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attendanceKind,
  canvassKind,
  connect,
  donationKind,
  errorDescriptions,
  isHTTPError,
  isResourceOf,
  linkTo,
  outreachKind,
  personKind,
  personSignup,
  primaryEmail,
  recordAttendance,
  recordCanvass,
  recordDonation,
  recordOutreach,
  recordSignature,
  recordSubmission,
  signatureKind,
  submissionKind,
} from '../../src/index.js';
import { httpError } from './fixtures.js';
import { type HelperFixture, startHelperFixture, uniqueEmail } from './helpers-fixture.js';

// Every record helper against the reference server: through the full SDK's methods
// (keyed, and `authenticate: false`) and through the light entry's functions (keyed,
// and anonymous as a web page calls them).

let f: HelperFixture;
beforeAll(async () => {
  f = await startHelperFixture();
});
afterAll(() => f.server.close());

const personWith = (name: string, email = uniqueEmail(name)) => ({
  given_name: name,
  email_addresses: [{ address: email }],
});
const hrefOf = (resource: { link(rel: string): { url(): string } | undefined }, rel: string) => {
  const href = resource.link(rel)?.url();
  if (!href) throw new Error(`no ${rel}`);
  return href;
};

describe('record signature', () => {
  it('keyed through the SDK: the signature and the signer, stored and counted', async () => {
    const petition = await f.client.petitions.create({ title: 'Save Elm Park' });
    const result = await petition.recordSignature({
      comments: 'Keep it green',
      action_date: '2026-03-01T10:00:00Z',
      person: personWith('Ana'),
    });
    expect(result.status).toBe(201);
    expect(result.complete).toBe(true);
    expect(isResourceOf(result.record, signatureKind)).toBe(true);
    expect(result.record?.data.comments).toBe('Keep it green');
    expect(isResourceOf(result.person, personKind)).toBe(true);
    expect(result.person?.data.given_name).toBe('Ana');
    // The signature is the server's: it links the petition and the signer.
    const signature = await f.client.signatures.get(result.record?.url ?? '');
    expect((await signature.petition()).url).toBe(petition.url);
    expect((await signature.person()).url).toBe(result.person?.url);
    expect((await petition.refresh()).data.total_signatures).toBe(1);
  });

  it('anonymous through the SDK (authenticate: false): {} answered, the signature stored', async () => {
    const petition = await f.client.petitions.create({ title: 'Anonymous' });
    const result = await petition.recordSignature(
      { person: personWith('Bo') },
      { authenticate: false },
    );
    expect(result).toMatchObject({ status: 200, complete: true, record: undefined });
    expect(result.person).toBeUndefined();
    expect((await petition.refresh()).data.total_signatures).toBe(1);
  });

  it('anonymous through the light entry, as a page calls it', async () => {
    const petition = await f.client.petitions.create({ title: 'From a page' });
    const href = hrefOf(petition, 'std:record_signature_helper');
    const result = await recordSignature(
      href,
      { comments: 'Signed on the web', person: personWith('Cy') },
      f.anonymous,
    );
    expect(result).toEqual({
      accepted: false,
      status: 200,
      complete: true,
      record: undefined,
      person: undefined,
      failures: [],
      error: undefined,
    });
    const [signature] = await petition.signatures().toArray();
    expect(signature?.data.comments).toBe('Signed on the web');
  });

  it('keyed through the light entry: plain data, the person embedded', async () => {
    const petition = await f.client.petitions.create({ title: 'Plain' });
    const href = hrefOf(petition, 'std:record_signature_helper');
    const result = await recordSignature(href, { person: personWith('Di') }, f.keyed);
    expect(result.status).toBe(201);
    expect(result.record?._links).toBeDefined();
    expect(result.person?.given_name).toBe('Di');
  });

  it('returnResponse: false gets the short answer: the record identified, no person', async () => {
    const petition = await f.client.petitions.create({ title: 'Short' });
    const result = await petition.recordSignature(
      { person: personWith('Gia') },
      { returnResponse: false },
    );
    expect(result.status).toBe(201);
    expect(result.record?.url).toMatch(/\/signatures\//);
    expect(result.record?.identifiers).toHaveLength(1);
    expect(result.record?.data.comments).toBeUndefined();
    expect(result.person).toBeUndefined();
  });

  it('refuses a bad body atomically: HTTPError 400, nothing written', async () => {
    const petition = await f.client.petitions.create({ title: 'Strict' });
    const href = hrefOf(petition, 'std:record_signature_helper');
    const peopleBefore = (await f.client.people.pages().next()).value?.totalRecords;
    // The light entry checks nothing, so the server's refusal comes back.
    const error = await httpError(
      recordSignature(
        href,
        { person: { email_addresses: [{ address: 'not an email' }] } },
        f.anonymous,
      ),
      400,
    );
    expect(error.stdError?.request_type).toBe('atomic');
    const unknownMember = await httpError(
      // @ts-expect-error: `signer` is not a member of the body
      recordSignature(href, { person: personWith('Ed'), signer: 'x' }, f.keyed),
      400,
    );
    expect(unknownMember.stdError?.resource_status[0]?.error_descriptions).not.toEqual([]);
    expect((await petition.refresh()).data.total_signatures).toBe(0);
    expect((await f.client.people.pages().next()).value?.totalRecords).toBe(peopleBefore);
  });

  it('answers 404 for a petition that does not exist, keyed or not', async () => {
    const petition = await f.client.petitions.create({ title: 'Gone soon' });
    const href = hrefOf(petition, 'std:record_signature_helper');
    await petition.delete();
    await httpError(recordSignature(href, { person: personWith('Fa') }, f.anonymous), 404);
    await httpError(recordSignature(href, { person: personWith('Fa') }, f.keyed), 404);
  });

  it('30 concurrent signatures keep total_signatures exact', async () => {
    const petition = await f.client.petitions.create({ title: 'Popular' });
    const href = hrefOf(petition, 'std:record_signature_helper');
    const calls = Array.from({ length: 30 }, (_, i) =>
      i % 2 === 0
        ? petition.recordSignature({ person: personWith(`Keyed${i}`) })
        : recordSignature(href, { person: personWith(`Page${i}`) }, f.anonymous),
    );
    const results = await Promise.all(calls);
    expect(results.every((result) => result.complete)).toBe(true);
    expect((await petition.refresh()).data.total_signatures).toBe(30);
    expect(await petition.signatures().toArray()).toHaveLength(30);
  });
});

describe('over real HTTP', () => {
  it('the light entry with the global fetch: keyed and anonymous, CORS headers present', async () => {
    const running = await f.server.listen();
    const client = await connect(running.entryPoint, { apiKey: f.server.keys.write });
    const petition = await client.petitions.create({ title: 'Over the wire' });
    const href = hrefOf(petition, 'std:record_signature_helper');
    const keyed = await recordSignature(
      href,
      { person: personWith('Net') },
      { apiKey: f.server.keys.write },
    );
    expect(keyed.status).toBe(201);
    expect(keyed.person?.given_name).toBe('Net');
    const anonymous = await recordSignature(href, { person: personWith('Web') });
    expect(anonymous).toMatchObject({ status: 200, complete: true, record: undefined });
    expect((await petition.refresh()).data.total_signatures).toBe(2);
    // What a page's browser checks before it lets the script read the answer.
    const preflight = await fetch(href, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://www.example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeTruthy();
  });
});

describe('person matching', () => {
  it('the same email twice is one person; a new email is a new person', async () => {
    const petition = await f.client.petitions.create({ title: 'Matching' });
    const email = uniqueEmail('Gil');
    const first = await petition.recordSignature({ person: personWith('Gil', email) });
    const second = await petition.recordSignature({
      person: personWith('Gil', email.toUpperCase()),
    });
    expect(second.person?.url).toBe(first.person?.url);
    // One signature per person and petition: Gil's second call updated the first.
    expect(second.status).toBe(200);
    expect(second.record?.url).toBe(first.record?.url);
    const third = await petition.recordSignature({ person: personWith('Gil') });
    expect(third.person?.url).not.toBe(first.person?.url);
    expect((await first.person?.signatures().toArray())?.length).toBe(1);
  });

  it('email plus phone: a person known by phone is matched and gets the email', async () => {
    const petition = await f.client.petitions.create({ title: 'Phones' });
    const phone = `4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
    const first = await petition.recordSignature({
      person: { given_name: 'Hal', phone_numbers: [{ number: phone }] },
    });
    const email = uniqueEmail('Hal');
    const second = await petition.recordSignature({
      person: {
        given_name: 'Hal',
        phone_numbers: [{ number: phone }],
        email_addresses: [{ address: email }],
      },
    });
    expect(second.person?.url).toBe(first.person?.url);
    expect(second.person?.data.email_addresses?.map((e) => e.address)).toEqual([email]);
    // The email alone now finds the same person.
    const third = await petition.recordSignature({ person: personWith('Hal', email) });
    expect(third.person?.url).toBe(first.person?.url);
  });

  it('an anonymous call matches by email too, without overwriting the name', async () => {
    const petition = await f.client.petitions.create({ title: 'Anonymous match' });
    const email = uniqueEmail('Ivy');
    const first = await petition.recordSignature({ person: personWith('Ivy', email) });
    await recordSignature(
      hrefOf(petition, 'std:record_signature_helper'),
      { person: { given_name: 'Mallory', email_addresses: [{ address: email }] } },
      f.anonymous,
    );
    const person = await first.person?.refresh();
    expect(person?.data.given_name).toBe('Ivy');
    // Her one signature of the petition, not a second one in her name.
    expect((await person?.signatures().toArray())?.length).toBe(1);
  });
});

describe('the other record helpers', () => {
  it('outreach: keyed, anonymous, and counted on the campaign', async () => {
    const campaign = await f.client.advocacyCampaigns.create({ title: 'Call the council' });
    const keyed = await campaign.recordOutreach({
      type: 'phone',
      duration: 120,
      targets: [{ given_name: 'Sam', family_name: 'Ruiz' }],
      person: personWith('Jo'),
    });
    expect(isResourceOf(keyed.record, outreachKind)).toBe(true);
    expect(keyed.record?.data.duration).toBe(120);
    expect((await keyed.record?.advocacyCampaign())?.url).toBe(campaign.url);
    const page = await recordOutreach(
      hrefOf(campaign, 'std:record_outreach_helper'),
      { type: 'email', subject: 'Vote no', person: personWith('Kai') },
      f.anonymous,
    );
    expect(page).toMatchObject({ status: 200, complete: true, record: undefined });
    expect((await campaign.refresh()).data.total_outreaches).toBe(2);
  });

  it('attendance: an RSVP, and tickets whose holders are people of their own', async () => {
    const open = await f.client.events.create({
      title: 'Clean-up day',
      start_date: '2030-05-01T09:00:00Z',
    });
    const rsvp = await open.recordAttendance({ status: 'accepted', person: personWith('Lu') });
    expect(isResourceOf(rsvp.record, attendanceKind)).toBe(true);
    expect(rsvp.record?.data.status).toBe('accepted');
    const anonymous = await recordAttendance(
      hrefOf(open, 'std:record_attendance_helper'),
      { status: 'tentative', person: personWith('Oz') },
      f.anonymous,
    );
    expect(anonymous.status).toBe(200);
    expect((await open.attendances().toArray()).length).toBe(2);
    // An open event takes no tickets: an atomic error, thrown.
    const refused = await httpError(
      open.recordAttendance({ person: personWith('Lu'), tickets: [{ title: 'Adult' }] }),
      400,
    );
    expect(refused.stdError?.resource_status[0]?.error_descriptions[0]?.error_code).toBe(
      'TICKETS_NOT_ALLOWED',
    );

    const gala = await f.client.events.create({
      title: 'Gala',
      type: 'ticketed',
      start_date: '2030-05-01T19:00:00Z',
      ticket_levels: [{ title: 'Adult', amount: 10, currency: 'USD' }],
    });
    const holderEmail = uniqueEmail('Nia');
    const tickets = await gala.recordAttendance({
      status: 'accepted',
      person: personWith('Max'),
      tickets: [
        { title: 'Adult', amount: 10, currency: 'USD' },
        { title: 'Adult', amount: 10, currency: 'USD', person: personWith('Nia', holderEmail) },
      ],
    });
    expect(tickets.record?.data.tickets).toHaveLength(2);
    const holderHref = tickets.record?.data.tickets?.[1]?.person;
    expect(holderHref).toBeTypeOf('string');
    const holder = await f.client.people.get(holderHref ?? '');
    expect(primaryEmail(holder.data) ?? holder.data.email_addresses?.[0]?.address).toBe(
      holderEmail,
    );
    expect(holder.url).not.toBe(tickets.person?.url);
    expect((await gala.refresh()).data.total_tickets).toBe(2);
  });

  it('donation: linked to an attendance, recipients checked, anonymous allowed', async () => {
    const event = await f.client.events.create({
      title: 'Gala',
      start_date: '2030-06-01T18:00:00Z',
    });
    const rsvp = await event.recordAttendance({ status: 'accepted', person: personWith('Pia') });
    const page = await f.client.fundraisingPages.create({ title: 'Gala fund', currency: 'USD' });
    const donation = await page.recordDonation({
      amount: 50,
      currency: 'USD',
      recipients: [{ display_name: 'Friends of Elm Park', amount: 50 }],
      person: personWith('Pia'),
      _links: { 'std:attendance': linkTo(rsvp.record?.url ?? '') },
    });
    expect(isResourceOf(donation.record, donationKind)).toBe(true);
    expect((await donation.record?.attendance())?.url).toBe(rsvp.record?.url);
    const anonymous = await recordDonation(
      hrefOf(page, 'std:record_donation_helper'),
      { amount: 5, currency: 'USD', person: personWith('Quinn') },
      f.anonymous,
    );
    expect(anonymous.status).toBe(200);
    const totals = (await page.refresh()).data;
    expect(totals.total_donations).toBe(2);
    expect(totals.total_amount).toBe(55);
  });

  it('canvass: the target is the person in the URL; canvasser and answer recorded', async () => {
    const target = await f.client.people.create({
      given_name: 'Rae',
      email_addresses: [{ address: uniqueEmail('Rae') }],
    });
    const question = await f.client.questions.create({
      name: 'Support?',
      question_type: 'SingleChoice',
      responses: [
        { key: 'yes', name: 'Yes' },
        { key: 'no', name: 'No' },
      ],
    });
    const result = await target.recordCanvass({
      canvass: {
        contact_type: 'door',
        success: true,
        canvasser: personWith('Sol'),
        question_response: { question: question.url, responses: ['yes'] },
      },
    });
    expect(result.status).toBe(201);
    expect(isResourceOf(result.record, canvassKind)).toBe(true);
    expect(result.person?.url).toBe(target.url);
    expect((await result.record?.target())?.url).toBe(target.url);
    expect((await result.record?.canvasser())?.data.given_name).toBe('Sol');
    const answers = await result.record?.answers().toArray();
    expect(answers?.map((answer) => answer.data.responses)).toEqual([['yes']]);
    const anonymous = await recordCanvass(
      hrefOf(target, 'std:record_canvass_helper'),
      { canvass: { contact_type: 'phone', success: false, status_code: 'not_home' } },
      f.anonymous,
    );
    expect(anonymous.status).toBe(200);
  });

  it('canvass: the canvasser given as a link, checked by the SDK and the server', async () => {
    const target = await f.client.people.create({
      given_name: 'Ula',
      email_addresses: [{ address: uniqueEmail('Ula') }],
    });
    const canvasser = await f.client.people.create({
      given_name: 'Vic',
      email_addresses: [{ address: uniqueEmail('Vic') }],
    });
    const result = await target.recordCanvass({
      canvass: {
        contact_type: 'door',
        success: true,
        _links: { 'std:canvasser': { href: canvasser.url } },
      },
    });
    expect(result.status).toBe(201);
    expect((await result.record?.canvasser())?.url).toBe(canvasser.url);
    // A link to no person is the server's 400 INVALID_LINK, nothing written.
    const error = await httpError(
      target.recordCanvass({
        canvass: {
          contact_type: 'door',
          success: true,
          _links: { 'std:canvasser': { href: `${canvasser.url}-gone` } },
        },
      }),
      400,
    );
    expect(errorDescriptions(error.stdError)[0]).toMatchObject({ error_code: 'INVALID_LINK' });
  });

  it('submission: keyed only; without a key 401', async () => {
    const form = await f.client.forms.create({ title: 'Volunteer form' });
    const result = await form.recordSubmission({
      custom_fields: { t_shirt: 'M' },
      person: personWith('Tia'),
    });
    expect(isResourceOf(result.record, submissionKind)).toBe(true);
    expect(result.record?.data.custom_fields).toEqual({ t_shirt: 'M' });
    expect((await form.refresh()).data.total_submissions).toBe(1);
    const href = hrefOf(form, 'std:record_submission_helper');
    await httpError(recordSubmission(href, { person: personWith('Uma') }, f.anonymous), 401);
    await httpError(
      form.recordSubmission({ person: personWith('Uma') }, { authenticate: false }),
      401,
    );
    const keyed = await recordSubmission(href, { person: personWith('Uma') }, f.keyed);
    expect(keyed.status).toBe(201);
    expect((await form.refresh()).data.total_submissions).toBe(2);
  });
});

describe('person signup', () => {
  it('creates (201), then updates the same person (200)', async () => {
    const email = uniqueEmail('Vic');
    const created = await f.client.signup({ person: personWith('Vic', email) });
    expect(created.status).toBe(201);
    expect(isResourceOf(created.record, personKind)).toBe(true);
    expect(created.person?.url).toBe(created.record?.url);
    const updated = await f.client.signup({
      person: { family_name: 'Lopez', email_addresses: [{ address: email }] },
    });
    expect(updated.status).toBe(200);
    expect(updated.person?.url).toBe(created.person?.url);
    expect(updated.person?.data.family_name).toBe('Lopez');
    expect(updated.person?.data.given_name).toBe('Vic');
  });

  it('through the light entry with a key; without a key 401', async () => {
    const href = f.client.root.link('std:person_signup_helper')?.url() ?? '';
    const keyed = await personSignup(href, { person: personWith('Wes') }, f.keyed);
    expect(keyed.status).toBe(201);
    expect(keyed.record?.given_name).toBe('Wes');
    const error = await personSignup(href, { person: personWith('Wes') }, f.anonymous).catch(
      (e: unknown) => e,
    );
    expect(isHTTPError(error) && error.status).toBe(401);
  });
});

describe('the anonymous rate limit (default settings)', () => {
  it('answers 429 with Retry-After once the burst is spent, which a page’s call waits out', async () => {
    // The limit's clock stands still until the first 429: the burst is spent however
    // slowly a loaded machine makes the calls (a token comes back every 2 s), and runs
    // again from there so that the page's call can wait the Retry-After out.
    let held: number | undefined = performance.now();
    let behind = 0;
    const release = () => {
      if (held === undefined) return;
      behind = performance.now() - held;
      held = undefined;
    };
    const limited = await startHelperFixture({
      anonymousRateLimit: { calls: 30, perSeconds: 60, burst: 10 },
      rateLimitClock: () => held ?? performance.now() - behind,
    });
    try {
      const petition = await limited.client.petitions.create({ title: 'Busy' });
      const href = hrefOf(petition, 'std:record_signature_helper');
      // The server's answers, as the page's fetch sees them. A 429 applied nothing, so a
      // call is sent again after its Retry-After, with a key or without one (as here).
      const answers: Response[] = [];
      const watched = {
        ...limited.anonymous,
        idempotencyKey: false as const,
        fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
          const response = await limited.server.fetch(input, init);
          answers.push(response.clone());
          if (response.status === 429) release();
          return response;
        },
      };
      let start = performance.now();
      for (let i = 0; i < 11; i++) {
        await recordSignature(href, { person: personWith(`R${i}`) }, watched);
        if (i === 9) start = performance.now();
      }
      expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(answers[10]?.status).toBe(429);
      const retryAfter = Number(answers[10]?.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(answers[11]?.status).toBe(200);
      expect(performance.now() - start).toBeGreaterThan(retryAfter * 1000 - 1_000);
      // With its key (the default), the same.
      start = performance.now();
      const retried = await recordSignature(
        href,
        { person: personWith('Patient') },
        limited.anonymous,
      );
      expect(retried.status).toBe(200);
      expect(performance.now() - start).toBeGreaterThan(retryAfter * 1000 - 1_000);
      // Keyed calls are not limited.
      expect((await petition.recordSignature({ person: personWith('K') })).status).toBe(201);
    } finally {
      await limited.server.close();
    }
  });
});
