import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  connect,
  decodeStdError,
  type ErrorDescription,
  type EventInput,
  errorDescriptions,
  isHTTPError,
  isSchemaValidationError,
  linkTo,
  type PersonResource,
  RESPONSE_KEY_PATTERN,
  RESPONSE_NAME_PATTERN,
} from '../../src/index.js';
import { type TestServer, testServer } from './reference-server.js';

let server: TestServer;
/** Validates locally (the default); counts the requests it sends. */
let client: Client;
/** Sends whatever it is given, so the server's own validation answers. */
let lax: Client;
let sent = 0;
let person: PersonResource;

beforeAll(async () => {
  server = testServer();
  const counting: typeof fetch = (input, init) => {
    sent += 1;
    return server.fetch(input, init);
  };
  client = await connect(server.entryPoint, { apiKey: server.keys.write, fetch: counting });
  lax = await connect(server.entryPoint, {
    apiKey: server.keys.write,
    fetch: server.fetch,
    validate: false,
  });
  person = await client.people.create({ given_name: 'Ana' });
});
afterAll(() => server.close());

/** How many records a collection holds, as the server counts them. */
async function total(collection: { url(): Promise<string> }): Promise<unknown> {
  return (await client.get(await collection.url())).properties.total_records;
}

/**
 * The error descriptions of a request the server must refuse with 400, checking that
 * the collection it would have written to holds as many records afterwards as before.
 */
async function refused(
  collection: { url(): Promise<string> },
  request: () => Promise<unknown>,
): Promise<ErrorDescription[]> {
  const before = await total(collection);
  const error = await request().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isHTTPError(error)) throw new Error(`expected an HTTPError, got ${String(error)}`);
  expect(error.status).toBe(400);
  expect(error.stdError).toMatchObject({ request_type: 'atomic', response_code: 400 });
  expect(await total(collection)).toBe(before);
  return errorDescriptions(error.stdError);
}

/** `[error_code, ...properties]` of each description, for compact assertions. */
const summary = (descriptions: readonly ErrorDescription[]) =>
  descriptions.map((d) => [d.error_code, ...(d.properties ?? [])]);

const LATE_START: EventInput = {
  title: 'Backwards',
  start_date: '2026-05-02T20:00:00Z',
  end_date: '2026-05-02T18:00:00Z',
};

describe('the SDK refuses misspelt members and wrong types before sending', () => {
  it.each([
    [
      'an unknown member',
      () => client.wrappers.create({ wrapper_type: 'email', colour: 'red' } as never),
      [[]],
    ],
    [
      'a value of the wrong type',
      () => client.events.create({ capacity: 'many' as never }),
      [['capacity']],
    ],
    [
      'a misspelt member inside a list',
      () => client.questions.create({ responses: [{ key: 'yes', nme: 'Yes' } as never] }),
      [['responses', 0]],
    ],
  ])('%s', async (_, request, paths) => {
    const before = sent;
    const error = await request().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSchemaValidationError(error)).toBe(true);
    if (!isSchemaValidationError(error)) return;
    expect(error.issues.map((issue) => issue.path)).toEqual(paths);
    expect(sent).toBe(before);
  });
});

describe("values are the server's: sent, and refused by the server with 400", () => {
  // The write side checks names and types only (the round-trip rule): formats, closed
  // enums and rules between fields are the server's, which answers naming the property.
  it.each([
    [
      'an event that ends before it starts',
      () => client.events.create(LATE_START),
      [['START_DATE_AFTER_END_DATE', 'start_date']],
    ],
    [
      'a Paragraph question with a badly named response',
      () =>
        client.questions.create({
          question_type: 'Paragraph',
          responses: [{ key: 'yes', name: '<b>Yes</b>' }],
        }),
      [
        ['PARAGRAPH_CANNOT_HAVE_RESPONSES', 'responses'],
        ['RESPONSE_NAME_INVALID', 'responses[0].name'],
      ],
    ],
    [
      'a value outside a closed enum',
      () => client.wrappers.create({ wrapper_type: 'fax' }),
      [['INVALID_PROPERTY', 'wrapper_type']],
    ],
    [
      'a lower-case currency',
      () => client.events.create({ ticket_levels: [{ title: 'General', currency: 'usd' }] }),
      [['INVALID_PROPERTY', 'ticket_levels[0].currency']],
    ],
  ])('%s', async (_, request, expected) => {
    const before = sent;
    const error = await request().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(sent).toBe(before + 1);
    if (!isHTTPError(error)) throw new Error(`expected an HTTPError, got ${String(error)}`);
    expect(error.status).toBe(400);
    expect(summary(errorDescriptions(error.stdError))).toEqual(expected);
  });
});

describe('what the SDK says about input it does not send', () => {
  it('names the kind and the URL and the unknown member', async () => {
    const before = sent;
    const error = await client.wrappers
      // Deliberately wrong: a misspelled member (the value 'fax' is the server's to judge).
      .create({ wrapper_type: 'fax', colour: 'red' } as never)
      .catch((e: unknown) => e);
    expect(sent).toBe(before);
    expect(isSchemaValidationError(error)).toBe(true);
    if (!isSchemaValidationError(error)) return;
    const wrappersUrl = await client.wrappers.url();
    expect(error.message).toContain(`Invalid input for std:wrapper (not sent to ${wrappersUrl}): `);
    expect(error.message).toContain('(root): unknown member "colour"');
    expect(error.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['colour'] }),
    ]);
  });

  it('names a misspelled member and a member of the wrong type', async () => {
    const error = await person
      // Deliberately wrong: a typo of `gender` and a number for a string.
      .update({ gendr: 'Female', given_name: 7 } as never)
      .catch((e: unknown) => e);
    expect(isSchemaValidationError(error)).toBe(true);
    if (!isSchemaValidationError(error)) return;
    expect(error.message).toContain(`Invalid input for std:person (not sent to ${person.url})`);
    expect(error.message).toContain('unknown member "gendr"');
    expect(error.message).toMatch(/given_name: /);
  });

  it('leaves the allowed values of a closed enum to the server, which lists them', async () => {
    const error = await person.update({ gender: 'female' }).catch((e: unknown) => e);
    if (!isHTTPError(error)) throw new Error(`expected an HTTPError, got ${String(error)}`);
    const [description] = errorDescriptions(error.stdError);
    expect(description?.properties).toEqual(['gender']);
    expect(description?.hint).toContain('"Female"');
  });
});

describe('reading with validation off', () => {
  /**
   * A client of the reference server whose answers to GETs of `url` carry a member of
   * the wrong type (`email_addresses` as a string) and an unknown one.
   */
  async function readingTampered(url: string, validate: boolean) {
    const tampering: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const response = await server.fetch(request);
      if (request.method !== 'GET' || request.url !== url) return response;
      const body = (await response.json()) as Record<string, unknown>;
      return Response.json(
        { ...body, email_addresses: 'ana@example.org', 'vendor:score': 7 },
        { status: response.status },
      );
    };
    return connect(server.entryPoint, { apiKey: server.keys.read, fetch: tampering, validate });
  }

  it('leaves a member that does not fit its type out of data, and keeps it in the document', async () => {
    const reader = await readingTampered(person.url, false);
    const read = await reader.people.get(person.url);
    expect(read.data.given_name).toBe('Ana');
    expect(read.data).not.toHaveProperty('email_addresses');
    expect((read.data as Record<string, unknown>)['vendor:score']).toBe(7);
    expect(read.document.properties.email_addresses).toBe('ana@example.org');
  });

  it('refuses the same record with validation on, naming the member', async () => {
    const reader = await readingTampered(person.url, true);
    const error = await reader.people.get(person.url).catch((e: unknown) => e);
    expect(isSchemaValidationError(error)).toBe(true);
    if (!isSchemaValidationError(error)) return;
    expect(error.issues.map((issue) => issue.path)).toEqual([['email_addresses']]);
    expect(error.message).toContain(`Invalid std:person from ${person.url}: email_addresses: `);
  });
});

describe('the server answers 400 std:error', () => {
  it('refuses an event whose start_date is after its end_date', async () => {
    const errors = await refused(lax.events, () => lax.events.create(LATE_START));
    expect(summary(errors)).toEqual([['START_DATE_AFTER_END_DATE', 'start_date']]);
  });

  it('refuses a PUT that moves only end_date before the stored start_date', async () => {
    const event = await client.events.create({
      title: 'Park cleanup',
      start_date: '2026-05-02T09:00:00-05:00',
      end_date: '2026-05-02T12:00:00-05:00',
    });
    // Alone, end_date passes the SDK's check: only the server sees the stored start_date.
    const errors = await refused(client.events, () =>
      event.update({ end_date: '2026-05-02T08:00:00-05:00' }),
    );
    expect(summary(errors)).toEqual([['START_DATE_AFTER_END_DATE', 'start_date']]);
    expect((await event.refresh()).data.end_date).toBe(event.data.end_date);
    const moved = await event.update({ start_date: '2026-05-02T07:00:00-05:00' });
    expect((await moved.update({ end_date: '2026-05-02T08:00:00-05:00' })).data.end_date).toBe(
      '2026-05-02T08:00:00-05:00',
    );
  });

  it("reports PARAGRAPH_CANNOT_HAVE_RESPONSES and RESPONSE_NAME_INVALID together (the spec's example)", async () => {
    const before = await total(client.questions);
    const response = await server.fetch(`${server.entryPoint}questions`, {
      method: 'POST',
      headers: { 'STD-API-Token': server.keys.write, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Tell us more',
        question_type: 'Paragraph',
        responses: [{ key: 'yes', name: '<b>Yes</b>', title: 'Yes' }],
      }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/json/);
    const stdError = decodeStdError(await response.json());
    expect(stdError).toMatchObject({ request_type: 'atomic', response_code: 400 });
    expect(stdError?.resource_status).toHaveLength(1);
    expect(stdError?.resource_status[0]).toMatchObject({
      resource: 'std:question',
      response_code: 400,
    });
    const errors = errorDescriptions(stdError);
    expect(summary(errors)).toEqual([
      ['PARAGRAPH_CANNOT_HAVE_RESPONSES', 'responses'],
      ['RESPONSE_NAME_INVALID', 'responses[0].name'],
    ]);
    expect(errors[1]?.hint).toBe(RESPONSE_NAME_PATTERN.source);
    expect(await total(client.questions)).toBe(before);
  });

  it('reports RESPONSE_KEY_INVALID and DUPLICATE_RESPONSE_KEY in one answer', async () => {
    const errors = await refused(lax.questions, () =>
      lax.questions.create({
        question_type: 'MultiChoice',
        responses: [{ key: 'strongly_agree' }, { key: 'yes' }, { key: 'yes' }],
      }),
    );
    expect(summary(errors)).toEqual([
      ['RESPONSE_KEY_INVALID', 'responses[0].key'],
      ['DUPLICATE_RESPONSE_KEY', 'responses[2].key'],
    ]);
    expect(errors[0]?.hint).toContain(RESPONSE_KEY_PATTERN.source);
  });

  it('refuses a PUT that makes a question with responses a Paragraph', async () => {
    const question = await client.questions.create({
      title: 'Will you volunteer?',
      question_type: 'SingleChoice',
      responses: [{ key: 'yes' }, { key: 'no' }],
    });
    const errors = await refused(client.questions, () =>
      question.update({ question_type: 'Paragraph' }),
    );
    expect(summary(errors)).toEqual([['PARAGRAPH_CANNOT_HAVE_RESPONSES', 'responses']]);
    expect((await question.refresh()).data.question_type).toBe('SingleChoice');
    const paragraph = await question.update({ question_type: 'Paragraph', responses: [] });
    expect(paragraph.data.question_type).toBe('Paragraph');
  });

  it('refuses two ticket levels with the same title (ignoring case and spaces)', async () => {
    const errors = await refused(lax.events, () =>
      lax.events.create({ ticket_levels: [{ title: 'General' }, { title: ' general ' }] }),
    );
    expect(summary(errors)).toEqual([['DUPLICATE_TICKET_LEVEL_TITLE', 'ticket_levels[1].title']]);
  });

  it.each([
    [
      'event status',
      () => lax.events,
      () => lax.events.create({ title: 'Maybe', status: 'maybe' as never }),
      'status',
      ['confirmed', 'tentative', 'cancelled'],
    ],
    [
      'wrapper_type',
      () => lax.wrappers,
      () => lax.wrappers.create({ wrapper_type: 'fax' as never }),
      'wrapper_type',
      ['email', 'sms'],
    ],
    [
      'attendance status',
      () => lax.attendances,
      async () => {
        const event = await lax.events.create({ title: 'RSVP' });
        return event.attendances().create({
          status: 'going' as never,
          _links: { 'std:person': linkTo(person) },
        });
      },
      'status',
      ['declined', 'tentative', 'accepted', 'needs action'],
    ],
  ])(
    'refuses a closed %s outside its values, naming them in the hint',
    async (_, collection, request, property, allowed) => {
      const errors = await refused(collection(), request);
      expect(summary(errors)).toEqual([['INVALID_PROPERTY', property]]);
      for (const value of allowed) expect(errors[0]?.hint).toContain(JSON.stringify(value));
    },
  );

  it('refuses codes that are not ISO (currency, country, region), all at once', async () => {
    const errors = await refused(lax.events, () =>
      lax.events.create({
        title: 'Abroad',
        ticket_levels: [{ title: 'General', amount: 10, currency: 'usd' }],
        location: { locality: 'Albany', region: 'New York', country: 'USA' },
      }),
    );
    expect(summary(errors)).toEqual(
      expect.arrayContaining([
        ['INVALID_PROPERTY', 'ticket_levels[0].currency'],
        ['INVALID_PROPERTY', 'location.region'],
        ['INVALID_PROPERTY', 'location.country'],
      ]),
    );
    expect(errors).toHaveLength(3);
    const personErrors = await refused(lax.people, () =>
      lax.people.create({ postal_addresses: [{ locality: 'Lyon', country: 'fr' }] }),
    );
    expect(summary(personErrors)).toEqual([['INVALID_PROPERTY', 'postal_addresses[0].country']]);
  });

  it('refuses unknown members, with any other problem in the same array', async () => {
    const errors = await refused(lax.events, () =>
      lax.events.create({ ...LATE_START, status: 'maybe', colour: 'red' } as never),
    );
    expect(summary(errors)).toEqual(
      expect.arrayContaining([
        ['UNKNOWN_PROPERTY', 'colour'],
        ['INVALID_PROPERTY', 'status'],
        ['START_DATE_AFTER_END_DATE', 'start_date'],
      ]),
    );
    expect(errors).toHaveLength(3);
    const personErrors = await refused(lax.people, () =>
      lax.people.create({ given_name: 'Bo', nickname: 'B' } as never),
    );
    expect(summary(personErrors)).toEqual([['UNKNOWN_PROPERTY', 'nickname']]);
  });

  describe.each([
    ['tag', () => client.tags, () => lax.tags],
    ['list', () => client.lists, () => lax.lists],
  ] as const)('%s names', (kind, strict, loose) => {
    it('are unique ignoring case, on create and on rename', async () => {
      const first = await strict().create({ name: `Volunteers (${kind})` });
      const again = await refused(strict(), () => loose().create({ name: `VOLUNTEERS (${kind})` }));
      expect(summary(again)).toEqual([['DUPLICATE_NAME', 'name']]);
      // The SDK cannot know the names taken: its own client sends, the server refuses.
      const spaced = await refused(strict(), () =>
        strict().create({ name: `volunteers (${kind})` }),
      );
      expect(summary(spaced)).toEqual([['DUPLICATE_NAME', 'name']]);
      const second = await strict().create({ name: `Donors (${kind})` });
      const renamed = await refused(strict(), () =>
        second.update({ name: `volunteers (${kind})` }),
      );
      expect(summary(renamed)).toEqual([['DUPLICATE_NAME', 'name']]);
      expect((await second.refresh()).data.name).toBe(`Donors (${kind})`);
      // Renaming a record to its own name in another case is not a clash.
      expect((await first.update({ name: `VOLUNTEERS (${kind})` })).data.name).toBe(
        `VOLUNTEERS (${kind})`,
      );
    });

    it('are required on create', async () => {
      const errors = await refused(strict(), () => strict().create({ description: 'no name' }));
      expect(summary(errors)).toEqual([['INVALID_PROPERTY', 'name']]);
    });
  });
});
