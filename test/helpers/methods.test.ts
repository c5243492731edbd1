import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  attendanceKind,
  canvassKind,
  connect,
  donationKind,
  isHTTPError,
  isLinkNotFoundError,
  isResourceOf,
  isSchemaValidationError,
  linkTo,
  outreachKind,
  personKind,
  signatureKind,
  submissionKind,
} from '../../src/index.js';

// The full SDK's helper methods over msw: the body is checked before sending, goes
// through the client's transport (key, prefix renaming), and what comes back is wrapped.

const BASE = 'https://api.example.org/api/v1';
const KEY = 'secret';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

interface Seen {
  url: string;
  method: string;
  body: unknown;
  key: string | null;
}

/**
 * A server with one record of each kind that has a helper, under `prefix`. Helper POSTs
 * are answered by `answer` and recorded in `seen`.
 */
function fakeServer(
  prefix: string,
  answer: (request: Request, body: unknown) => Response | Promise<Response>,
) {
  const seen: Seen[] = [];
  const rel = (name: string) => `${prefix}:${name}`;
  const record = (path: string, helpers: Record<string, string>, fields: object = {}) => ({
    ...fields,
    _links: {
      self: { href: `${BASE}/${path}` },
      ...Object.fromEntries(
        Object.entries(helpers).map(([name, href]) => [rel(name), { href: `${BASE}/${href}` }]),
      ),
    },
  });
  const records: Record<string, object> = {
    'petitions/p1': record('petitions/p1', {
      record_signature_helper: 'petitions/p1/record_signature_helper',
    }),
    'advocacy_campaigns/c1': record('advocacy_campaigns/c1', {
      record_outreach_helper: 'advocacy_campaigns/c1/record_outreach_helper',
    }),
    'events/e1': record('events/e1', {
      record_attendance_helper: 'events/e1/record_attendance_helper',
    }),
    'fundraising_pages/f1': record('fundraising_pages/f1', {
      record_donation_helper: 'fundraising_pages/f1/record_donation_helper',
    }),
    'forms/o1': record('forms/o1', {
      record_submission_helper: 'forms/o1/record_submission_helper',
    }),
    'people/a1': record(
      'people/a1',
      { record_canvass_helper: 'people/a1/record_canvass_helper' },
      { given_name: 'Ana' },
    ),
    'messages/m1': record('messages/m1', {
      send_helper: 'messages/m1/send',
      schedule_helper: 'messages/m1/schedule',
    }),
    'petitions/bare': record('petitions/bare', {}),
  };
  server.use(
    http.get(`${BASE}/`, () =>
      HttpResponse.json({
        namespace: 'test',
        _links: {
          self: { href: `${BASE}/` },
          curies: [
            { name: prefix, href: 'https://api.example.org/docs/v1/{rel}', templated: true },
          ],
          [rel('people')]: { href: `${BASE}/people` },
          [rel('petitions')]: { href: `${BASE}/petitions` },
          [rel('person_signup_helper')]: { href: `${BASE}/people/person_signup_helper` },
        },
      }),
    ),
    ...Object.entries(records).map(([path, body]) =>
      http.get(`${BASE}/${path}`, () => HttpResponse.json(body)),
    ),
    http.all(`${BASE}/*`, async ({ request }) => {
      const text = await request.text();
      const body = text ? JSON.parse(text) : undefined;
      seen.push({
        url: request.url,
        method: request.method,
        body,
        key: request.headers.get('std-api-token'),
      });
      return answer(request, body);
    }),
  );
  return seen;
}

const connectTo = () => connect(`${BASE}/`, { apiKey: KEY });

const ana = {
  given_name: 'Ana',
  email_addresses: [{ address: 'ana@example.org', primary: true }],
  _links: { self: { href: `${BASE}/people/a1` } },
};

function created(name: string, prefix = 'std') {
  return HttpResponse.json(
    {
      identifiers: [`test:${name}1`],
      _links: {
        self: { href: `${BASE}/${name}s/1` },
        [`${prefix}:person`]: { href: `${BASE}/people/a1` },
      },
      _embedded: { [`${prefix}:person`]: ana },
    },
    { status: 201, headers: { location: `${BASE}/${name}s/1` } },
  );
}

function nonAtomic(prefix: string, recordName: string) {
  return HttpResponse.json(
    {
      [`${prefix}:error`]: {
        request_type: 'non-atomic',
        response_code: 400,
        resource_status: [
          { resource: `${prefix}:person`, response_code: 200 },
          // Signup has no main record beside the person.
          ...(recordName === 'person'
            ? []
            : [{ resource: `${prefix}:${recordName}`, response_code: 201 }]),
          {
            resource: `${prefix}:item`,
            response_code: 400,
            error_descriptions: [
              { error_code: 'LIST_NAME_DOES_NOT_EXIST', properties: ['add_lists[0]'] },
            ],
          },
        ],
      },
      [`${prefix}:person`]: ana,
      ...(recordName === 'person'
        ? {}
        : {
            [`${prefix}:${recordName}`]: {
              identifiers: [`test:${recordName}1`],
              _links: { self: { href: `${BASE}/${recordName}s/1` } },
            },
          }),
    },
    { status: 400 },
  );
}

describe('petition.recordSignature', () => {
  it('sends the checked body with the key and wraps the signature and the person', async () => {
    const seen = fakeServer('std', () => created('signature'));
    const client = await connectTo();
    const petition = await client.petitions.get(`${BASE}/petitions/p1`);
    const input = { comments: 'Yes', person: { given_name: 'Ana' }, add_tags: ['park'] };
    const result = await petition.recordSignature(input);

    expect(seen).toEqual([
      {
        url: `${BASE}/petitions/p1/record_signature_helper`,
        method: 'POST',
        body: input,
        key: KEY,
      },
    ]);
    expect(result.status).toBe(201);
    expect(result.complete).toBe(true);
    expect(isResourceOf(result.record, signatureKind)).toBe(true);
    expect(result.record?.url).toBe(`${BASE}/signatures/1`);
    expect(isResourceOf(result.person, personKind)).toBe(true);
    expect(result.person?.data.given_name).toBe('Ana');
    expect(result.failures).toEqual([]);
  });

  it('refuses a body that fails the schema, without a request', async () => {
    const seen = fakeServer('std', () => created('signature'));
    const petition = await (await connectTo()).petitions.get(`${BASE}/petitions/p1`);
    const error = await petition
      // @ts-expect-error: `person` is required, and `signer` is not a member
      .recordSignature({ comments: 'Yes', signer: 'Ana' })
      .catch((e: unknown) => e);
    expect(isSchemaValidationError(error)).toBe(true);
    if (isSchemaValidationError(error)) {
      expect(error.resource).toBe('std:record_signature_helper');
      expect(error.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['', 'person']);
    }
    const bad = await petition
      // A misspelt member of the nested person (an email's format is the server's).
      .recordSignature({ person: { email_addresses: [{ adress: 'ana@example.org' } as never] } })
      .catch((e: unknown) => e);
    expect(isSchemaValidationError(bad)).toBe(true);
    expect(seen).toEqual([]);
  });

  it('sends no key with authenticate: false, and reads {} as complete without records', async () => {
    const seen = fakeServer('std', () => HttpResponse.json({}));
    const petition = await (await connectTo()).petitions.get(`${BASE}/petitions/p1`);
    const result = await petition.recordSignature(
      { person: { given_name: 'Ana' } },
      { authenticate: false },
    );
    expect(seen[0]?.key).toBeNull();
    expect(result).toMatchObject({ status: 200, complete: true, record: undefined });
    expect(result.person).toBeUndefined();
  });

  it('returns a non-atomic answer with wrapped records', async () => {
    fakeServer('std', () => nonAtomic('std', 'signature'));
    const petition = await (await connectTo()).petitions.get(`${BASE}/petitions/p1`);
    const result = await petition.recordSignature({
      person: { given_name: 'Ana' },
      add_lists: ['nope'],
    });
    expect(result.status).toBe(400);
    expect(result.complete).toBe(false);
    expect(isResourceOf(result.record, signatureKind)).toBe(true);
    expect(result.record?.identifiers).toEqual(['test:signature1']);
    expect(result.person?.url).toBe(`${BASE}/people/a1`);
    expect(result.failures).toEqual([
      {
        resource: 'std:item',
        response_code: 400,
        error_descriptions: [
          { error_code: 'LIST_NAME_DOES_NOT_EXIST', properties: ['add_lists[0]'] },
        ],
      },
    ]);
    expect(result.error?.request_type).toBe('non-atomic');
  });

  it('throws an atomic error as an HTTPError', async () => {
    fakeServer('std', () =>
      HttpResponse.json(
        {
          'std:error': {
            request_type: 'atomic',
            response_code: 404,
            resource_status: [
              { resource: 'std:petition', response_code: 404, error_descriptions: [] },
            ],
          },
        },
        { status: 404 },
      ),
    );
    const petition = await (await connectTo()).petitions.get(`${BASE}/petitions/p1`);
    const error = await petition
      .recordSignature({ person: { given_name: 'Ana' } })
      .catch((e: unknown) => e);
    expect(isHTTPError(error) && error.status).toBe(404);
  });

  it('rejects with LinkNotFoundError when the petition links no helper', async () => {
    fakeServer('std', () => created('signature'));
    const petition = await (await connectTo()).petitions.get(`${BASE}/petitions/bare`);
    const error = await petition
      .recordSignature({ person: { given_name: 'Ana' } })
      .catch((e: unknown) => e);
    expect(isLinkNotFoundError(error)).toBe(true);
  });

  it('sends std:control under the server prefix and reads the minimal answer', async () => {
    const seen = fakeServer('osdi', () =>
      HttpResponse.json(
        { identifiers: ['test:s1'], _links: { self: { href: `${BASE}/signatures/1` } } },
        { status: 201 },
      ),
    );
    const petition = await (await connectTo()).petitions.get(`${BASE}/petitions/p1`);
    const result = await petition.recordSignature(
      { person: { given_name: 'Ana' } },
      { returnResponse: false },
    );
    expect(seen[0]?.body).toEqual({
      person: { given_name: 'Ana' },
      'osdi:control': { return_response: false },
    });
    expect(result.record?.url).toBe(`${BASE}/signatures/1`);
    expect(result.person).toBeUndefined();
  });
});

describe('on a server whose prefix is osdi', () => {
  it('reads osdi:person embedded in a complete answer', async () => {
    fakeServer('osdi', () => created('signature', 'osdi'));
    const petition = await (await connectTo()).petitions.get(`${BASE}/petitions/p1`);
    const result = await petition.recordSignature({ person: { given_name: 'Ana' } });
    expect(result.person?.data.given_name).toBe('Ana');
  });

  it('reads osdi: members beside a non-atomic error', async () => {
    fakeServer('osdi', () => nonAtomic('osdi', 'signature'));
    const petition = await (await connectTo()).petitions.get(`${BASE}/petitions/p1`);
    const result = await petition.recordSignature({ person: { given_name: 'Ana' } });
    expect(result.complete).toBe(false);
    expect(result.person?.data.given_name).toBe('Ana');
    expect(result.record?.identifiers).toEqual(['test:signature1']);
  });

  it('renames the donation links to the server prefix', async () => {
    const seen = fakeServer('osdi', () => created('donation', 'osdi'));
    const client = await connectTo();
    const page = await client.fundraisingPages.get(`${BASE}/fundraising_pages/f1`);
    await page.recordDonation({
      amount: 10,
      person: { given_name: 'Ana' },
      _links: { 'std:attendance': linkTo(`${BASE}/attendances/1`) },
    });
    expect(seen[0]?.body).toEqual({
      amount: 10,
      person: { given_name: 'Ana' },
      _links: { 'osdi:attendance': { href: `${BASE}/attendances/1` } },
    });
  });
});

describe('the other record helpers', () => {
  it('each posts to its own link and wraps its own record', async () => {
    const names: Record<string, string> = {
      record_outreach_helper: 'outreach',
      record_attendance_helper: 'attendance',
      record_donation_helper: 'donation',
      record_submission_helper: 'submission',
      record_canvass_helper: 'canvass',
    };
    const seen = fakeServer('std', (request) => {
      const helper = new URL(request.url).pathname.split('/').pop() ?? '';
      return created(names[helper] ?? 'unknown');
    });
    const client = await connectTo();
    const campaign = await client.advocacyCampaigns.get(`${BASE}/advocacy_campaigns/c1`);
    const outreach = await campaign.recordOutreach({ type: 'phone', person: { given_name: 'A' } });
    expect(isResourceOf(outreach.record, outreachKind)).toBe(true);

    const event = await client.events.get(`${BASE}/events/e1`);
    const attendance = await event.recordAttendance({
      status: 'accepted',
      person: { given_name: 'A' },
      tickets: [{ title: 'Adult', person: { given_name: 'B' } }],
    });
    expect(isResourceOf(attendance.record, attendanceKind)).toBe(true);

    const page = await client.fundraisingPages.get(`${BASE}/fundraising_pages/f1`);
    expect(
      isResourceOf((await page.recordDonation({ amount: 1, person: {} })).record, donationKind),
    ).toBe(true);

    const form = await client.forms.get(`${BASE}/forms/o1`);
    expect(isResourceOf((await form.recordSubmission({ person: {} })).record, submissionKind)).toBe(
      true,
    );

    const target = await client.people.get(`${BASE}/people/a1`);
    const canvass = await target.recordCanvass({
      canvass: { success: true, question_response: { question: `${BASE}/questions/q1` } },
    });
    expect(isResourceOf(canvass.record, canvassKind)).toBe(true);
    expect(isResourceOf(canvass.person, personKind)).toBe(true);

    expect(seen.map((s) => new URL(s.url).pathname)).toEqual([
      '/api/v1/advocacy_campaigns/c1/record_outreach_helper',
      '/api/v1/events/e1/record_attendance_helper',
      '/api/v1/fundraising_pages/f1/record_donation_helper',
      '/api/v1/forms/o1/record_submission_helper',
      '/api/v1/people/a1/record_canvass_helper',
    ]);
  });

  it('checks each body with its schema before sending: names and types', async () => {
    const seen = fakeServer('std', () => created('x'));
    const client = await connectTo();
    const page = await client.fundraisingPages.get(`${BASE}/fundraising_pages/f1`);
    const error = await page
      .recordDonation({ amount: true as never, person: {} })
      .catch((e: unknown) => e);
    expect(isSchemaValidationError(error)).toBe(true);
    const target = await client.people.get(`${BASE}/people/a1`);
    const canvassError = await target
      .recordCanvass({ canvass: { sucess: true } as never })
      .catch((e: unknown) => e);
    expect(isSchemaValidationError(canvassError)).toBe(true);
    expect(seen).toEqual([]);
    // Rules between fields are the server's (recipients over the amount, a success with
    // a status code): sent as given, with the amounts as written.
    await page.recordDonation({ amount: '5.00', recipients: [{ amount: 8 }], person: {} });
    expect(seen).toHaveLength(1);
  });
});

describe('client.signup', () => {
  it('creates (201) or updates (200) the person: record and person are both it', async () => {
    let status = 201;
    const seen = fakeServer('std', () => HttpResponse.json(ana, { status }));
    const client = await connectTo();
    const first = await client.signup({ person: { given_name: 'Ana' }, add_tags: ['t'] });
    expect(first.status).toBe(201);
    expect(isResourceOf(first.record, personKind)).toBe(true);
    expect(first.person?.url).toBe(`${BASE}/people/a1`);
    status = 200;
    const again = await client.signup({ person: { given_name: 'Ana' } });
    expect(again).toMatchObject({ status: 200, complete: true });
    expect(seen.map((s) => s.url)).toEqual([
      `${BASE}/people/person_signup_helper`,
      `${BASE}/people/person_signup_helper`,
    ]);
  });

  it('returns a non-atomic signup with the person', async () => {
    fakeServer('std', () => nonAtomic('std', 'person'));
    const result = await (await connectTo()).signup({ person: {}, add_lists: ['nope'] });
    expect(result.complete).toBe(false);
    expect(result.person?.data.given_name).toBe('Ana');
    expect(result.record?.url).toBe(`${BASE}/people/a1`);
  });
});

describe('message helpers', () => {
  async function message() {
    return (await connectTo()).messages.get(`${BASE}/messages/m1`);
  }

  it('send, stopSending, schedule and cancelSchedule call their links and read the notice', async () => {
    const seen = fakeServer('std', (request) =>
      HttpResponse.json({ notice: `${request.method} ${new URL(request.url).pathname}` }),
    );
    const m = await message();
    expect(await m.send()).toEqual({ notice: 'POST /api/v1/messages/m1/send' });
    expect(await m.stopSending()).toEqual({ notice: 'DELETE /api/v1/messages/m1/send' });
    expect(
      await m.schedule({
        scheduled_start_date: '2030-05-01T09:00:00Z',
        scheduled_end_date: '2030-05-01T21:00:00Z',
      }),
    ).toEqual({ notice: 'POST /api/v1/messages/m1/schedule' });
    expect(await m.cancelSchedule()).toEqual({ notice: 'DELETE /api/v1/messages/m1/schedule' });
    expect(seen.map((s) => [s.method, s.body, s.key])).toEqual([
      ['POST', undefined, KEY],
      ['DELETE', undefined, KEY],
      [
        'POST',
        {
          scheduled_start_date: '2030-05-01T09:00:00Z',
          scheduled_stop_date: '2030-05-01T21:00:00Z',
        },
        KEY,
      ],
      ['DELETE', undefined, KEY],
    ]);
  });

  it('reads {} as no notice', async () => {
    fakeServer('std', () => HttpResponse.json({}));
    expect(await (await message()).send()).toEqual({});
  });

  it('throws refusals as HTTPErrors with the server code', async () => {
    fakeServer('std', () =>
      HttpResponse.json(
        {
          'std:error': {
            request_type: 'atomic',
            response_code: 409,
            resource_status: [
              {
                resource: 'std:message',
                response_code: 409,
                error_descriptions: [{ error_code: 'MESSAGE_ALREADY_SENT', description: 'sent' }],
              },
            ],
          },
        },
        { status: 409 },
      ),
    );
    const error = await (await message()).send().catch((e: unknown) => e);
    expect(isHTTPError(error)).toBe(true);
    if (isHTTPError(error)) {
      expect(error.status).toBe(409);
      expect(error.stdError?.resource_status[0]?.error_descriptions[0]?.error_code).toBe(
        'MESSAGE_ALREADY_SENT',
      );
    }
  });

  it('refuses a schedule that stops before it starts, without a request', async () => {
    const seen = fakeServer('std', () => HttpResponse.json({ notice: 'x' }));
    const error = await (await message())
      .schedule({
        scheduled_start_date: '2030-05-01T09:00:00Z',
        scheduled_stop_date: '2030-05-01T08:00:00Z',
      })
      .catch((e: unknown) => e);
    expect(isSchemaValidationError(error)).toBe(true);
    expect(seen).toEqual([]);
  });
});
