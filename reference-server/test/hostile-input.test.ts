/**
 * Hostile input: malformed and hostile bodies and query parameters, sent to every kind
 * of route, must each get a 4xx with a well-formed `std:error` body: never a 500, never
 * a body that is not JSON. The values come from tables (one value per line, crossed
 * with the routes) and, for what no table foresees, from fast-check.
 *
 * The app's logError collects every 500 the error handler reports; each test ends by
 * checking that it stayed empty, so a bug hidden behind a 4xx-looking answer would
 * still fail here.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/http/json-depth.js';
import { defaultRegistry, seedActivity, seedPeople } from '../src/index.js';
import { type Harness, harness, type Json, OTHER } from './helpers.js';

const HAL = 'application/hal+json; charset=utf-8';

/** One request: where, how, and with which key (`null`: none, for anonymous helpers). */
interface Target {
  name: string;
  method: string;
  path: string;
  key?: null;
}

/** A body as sent: JSON text with a media type, or raw bytes without one. */
type Body = { text: string; type?: string } | { bytes: Uint8Array; type?: string };

const logged: string[] = [];
let h: Harness;
/** The first record of every collection, as the server renders it. */
const sample: Record<string, Json> = {};
/** A person of another tenant: links to it must be refused. */
let foreignPerson: string;

const registry = defaultRegistry();
const COLLECTIONS = registry
  .all()
  .filter((kind) => kind.writable)
  .map((kind) => kind.plural);

beforeAll(async () => {
  h = harness({ anonymousRateLimit: false, logError: (message) => logged.push(message) });
  await seedPeople(h.storage, { tenant: 'acme', count: 60, seed: 7 });
  await seedActivity(h.storage, { tenant: 'acme', seed: 7 });
  for (const plural of COLLECTIONS) {
    const page = await h.json('GET', `/api/v1/${plural}?per_page=1`);
    sample[plural] = page.body._embedded[`std:${plural}`][0];
    expect(sample[plural], `a seeded ${plural} record`).toBeDefined();
  }
  const other = await h.json('POST', '/api/v1/people', { key: OTHER, body: { given_name: 'X' } });
  foreignPerson = other.body._links.self.href;
});

function self(plural: string): string {
  return sample[plural]._links.self.href;
}

function helper(plural: string, rel: string): string {
  return sample[plural]._links[`std:${rel}`].href;
}

/**
 * Why a response is not a well-formed refusal, or undefined when it is: a 4xx, the
 * API's content type, and a `std:error` whose response codes match the status and whose
 * descriptions each carry a code and a text.
 */
async function notARefusal(res: Response): Promise<string | undefined> {
  const text = await res.text();
  if (res.status < 400 || res.status >= 500) return `status ${res.status}: ${text.slice(0, 300)}`;
  if (res.headers.get('content-type') !== HAL)
    return `content-type ${res.headers.get('content-type')}`;
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 100)}`;
  }
  const error = body?.['std:error'];
  const statuses: Json[] = error?.resource_status ?? [];
  const descriptions: Json[] = statuses.flatMap((status) => status.error_descriptions ?? []);
  const wellFormed =
    (error?.request_type === 'atomic' || error?.request_type === 'non-atomic') &&
    error.response_code === res.status &&
    statuses.length > 0 &&
    statuses.every((s) => typeof s.resource === 'string' && Number.isInteger(s.response_code)) &&
    descriptions.length > 0 &&
    descriptions.every(
      (d) => /^[A-Z][A-Z0-9_]*$/.test(d.error_code) && typeof d.description === 'string',
    );
  return wellFormed ? undefined : `malformed std:error: ${text.slice(0, 300)}`;
}

function send(target: Target, body?: Body, headers: Record<string, string> = {}) {
  const all: Record<string, string> = { ...headers };
  if (body?.type !== undefined) all['Content-Type'] = body.type;
  const payload = body === undefined ? undefined : 'text' in body ? body.text : body.bytes;
  return h.call(target.method, target.path, {
    raw: payload as string | undefined,
    headers: all,
    ...(target.key === null ? { key: null } : {}),
  });
}

/** Sends every body to every target and lists what was not a refusal. */
async function refusals(
  targets: readonly Target[],
  bodies: readonly (readonly [string, Body])[],
): Promise<string[]> {
  const problems: string[] = [];
  for (const target of targets) {
    for (const [label, body] of bodies) {
      const problem = await notARefusal(await send(target, body));
      if (problem) problems.push(`${target.name} ${label}: ${problem}`);
    }
  }
  return problems;
}

function json(value: unknown): Body {
  return { text: JSON.stringify(value), type: 'application/json' };
}

/** Every route that reads a body: creates, updates, helpers (keyed and anonymous), messages. */
function writeTargets(): Target[] {
  const post = (name: string, path: string, key?: null): Target => ({
    name,
    method: 'POST',
    path,
    ...(key === null ? { key } : {}),
  });
  return [
    post('create person', '/api/v1/people'),
    post('create petition', '/api/v1/petitions'),
    post('create signature', '/api/v1/signatures'),
    post('create event', '/api/v1/events'),
    post('create donation', '/api/v1/donations'),
    post('create message', '/api/v1/messages'),
    post('create tagging', '/api/v1/taggings'),
    post('create in sub-collection', `${self('petitions')}/signatures`),
    { name: 'update person', method: 'PUT', path: self('people') },
    { name: 'update signature', method: 'PUT', path: self('signatures') },
    { name: 'update event', method: 'PATCH', path: self('events') },
    post('signature helper', helper('petitions', 'record_signature_helper')),
    post('signature helper, no key', helper('petitions', 'record_signature_helper'), null),
    post('outreach helper', helper('advocacy_campaigns', 'record_outreach_helper')),
    post('outreach helper, no key', helper('advocacy_campaigns', 'record_outreach_helper'), null),
    post('attendance helper', helper('events', 'record_attendance_helper')),
    post('attendance helper, no key', helper('events', 'record_attendance_helper'), null),
    post('donation helper', helper('fundraising_pages', 'record_donation_helper')),
    post('donation helper, no key', helper('fundraising_pages', 'record_donation_helper'), null),
    post('canvass helper', helper('people', 'record_canvass_helper')),
    post('canvass helper, no key', helper('people', 'record_canvass_helper'), null),
    post('submission helper', helper('forms', 'record_submission_helper')),
    post('person signup helper', '/api/v1/people/person_signup_helper'),
    post('message schedule', `${self('messages')}/schedule`),
  ];
}

/** `open` levels of arrays (or `{"a":` objects) around a value. */
function nested(levels: number, open = '[', close = ']', inner = ''): string {
  return `${open.repeat(levels)}${inner}${close.repeat(levels)}`;
}

describe('hostile bodies', () => {
  it('refuses bodies that are not a JSON object, to every route that reads one', async () => {
    const texts = [
      '',
      '   ',
      'nope',
      '{',
      '}',
      '{"a":1,}',
      '{"a":1}{"b":2}',
      '{"a":1} x',
      "{'given_name':'x'}",
      '{"given_name":NaN}',
      '{"given_name":Infinity}',
      '{"given_name":undefined}',
      '\u0000',
      'null',
      'true',
      '1',
      '-0',
      '"x"',
      '[]',
      '[{}]',
    ];
    const bodies: [string, Body][] = texts.map((text) => [
      JSON.stringify(text.slice(0, 20)),
      { text, type: 'application/json' },
    ]);
    bodies.push([
      'invalid UTF-8',
      { bytes: new Uint8Array([0xff, 0xfe, 0x7b]), type: 'application/json' },
    ]);
    expect(await refusals(writeTargets(), bodies)).toEqual([]);
    expect(logged).toEqual([]);
  });

  it(`refuses bodies nested more than ${MAX_JSON_DEPTH} levels, 16 KiB of brackets included`, async () => {
    const deep = MAX_JSON_DEPTH + 1;
    const bodies: [string, Body][] = [
      ['16 KiB of [', { text: '['.repeat(16 * 1024), type: 'application/json' }],
      ['16 KiB of [ closed', { text: nested(8 * 1024), type: 'application/json' }],
      ['objects', { text: nested(deep, '{"a":', '}', '1'), type: 'application/json' }],
      ['in a field', { text: `{"given_name":${nested(deep - 1)}}`, type: 'application/json' }],
      [
        'in a free-form member',
        {
          text: `{"division_info":[{"divisions":[{"a":${nested(deep)}}]}]}`,
          type: 'application/json',
        },
      ],
      [
        'in a helper person',
        {
          text: `{"person":{"custom_fields":{"a":${nested(deep, '{"a":', '}', '"x"')}}}}`,
          type: 'application/json',
        },
      ],
    ];
    expect(await refusals(writeTargets(), bodies)).toEqual([]);
    const res = await send(writeTargets()[0] as Target, bodies[0]?.[1]);
    const body = await res.json();
    expect(body['std:error'].resource_status[0].error_descriptions[0].error_code).toBe(
      'JSON_TOO_DEEP',
    );
    // Brackets inside strings are text, not nesting: this one is 2 levels deep. In custom
    // fields, whose values have no length limit (a name is at most 255 characters).
    const quoted = await h.json('POST', '/api/v1/people', {
      body: { given_name: 'Ana', custom_fields: { a: '{'.repeat(5000), b: '['.repeat(5000) } },
    });
    expect(quoted.status).toBe(201);
    expect(logged).toEqual([]);
  });

  it('refuses bodies without a JSON media type with 415', async () => {
    const text = JSON.stringify({ given_name: 'Ana' });
    const types = [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'json',
      'application/jsonx',
      '*/*',
      ';;;',
    ];
    const bodies: [string, Body][] = types.map((type) => [type, { text, type }]);
    bodies.push(['no Content-Type', { bytes: new TextEncoder().encode(text) }]);
    const targets = writeTargets();
    expect(await refusals(targets, bodies)).toEqual([]);
    for (const [, body] of bodies) {
      expect((await send(targets[0] as Target, body)).status).toBe(415);
    }
    expect(logged).toEqual([]);
  });

  it('refuses a member named __proto__ anywhere, which could not be stored as sent', async () => {
    const texts = [
      '{"__proto__":{"given_name":"x"}}',
      '{"given_name":"x","custom_fields":{"__proto__":"x"}}',
      '{"person":{"given_name":"x","custom_fields":{"__proto__":{"polluted":"x"}}}}',
      '{"email_addresses":[{"address":"a@example.org","__proto__":1}]}',
      '{"_links":{"__proto__":{"href":"x"}}}',
    ];
    const bodies: [string, Body][] = texts.map((text) => [
      text,
      { text, type: 'application/json' },
    ]);
    expect(await refusals(writeTargets(), bodies)).toEqual([]);
    const res = await send(writeTargets()[0] as Target, bodies[1]?.[1]);
    expect((await res.json())['std:error'].resource_status[0].error_descriptions[0]).toMatchObject({
      error_code: 'INVALID_PROPERTY',
      properties: ['custom_fields.__proto__'],
    });
    expect(({} as Json).polluted).toBeUndefined();
    expect(logged).toEqual([]);
  });
});

describe('hostile values', () => {
  /** Values of another JSON type than `value`: each must be refused in its place. */
  function wrongTypes(value: unknown): unknown[] {
    if (typeof value === 'string') return [123, -1.5, 1e308, true, [], ['x'], {}, { href: 'x' }];
    if (typeof value === 'number') return ['12', 'NaN', 'Infinity', '', true, [], {}, [1]];
    if (typeof value === 'boolean') return ['true', 'yes', 1, 0, [], {}];
    if (Array.isArray(value)) return ['x', 1, true, {}, { 0: value[0] }, [1e308, {}]];
    return ['x', 1, 1e308, true, [], [{}], [[[]]]];
  }

  it('refuses a value of the wrong type in every field of every kind, on create and update', async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const plural of COLLECTIONS) {
      const kind = registry.byPlural(plural);
      const ignored = new Set([...(kind?.readOnly ?? []), '_links', '_embedded', 'created_date']);
      for (const [field, value] of Object.entries(sample[plural] as Json)) {
        if (ignored.has(field)) continue;
        for (const wrong of wrongTypes(value)) {
          for (const target of [
            { name: `create ${plural}`, method: 'POST', path: `/api/v1/${plural}` },
            { name: `update ${plural}`, method: 'PUT', path: self(plural) },
          ]) {
            sent++;
            const problem = await notARefusal(await send(target, json({ [field]: wrong })));
            if (problem)
              problems.push(`${target.name} ${field}=${JSON.stringify(wrong)}: ${problem}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
    expect(logged).toEqual([]);
  });

  it('refuses every kind of bad link: wrong types, no href, hrefs that name no allowed record', async () => {
    const person = self('people');
    const petition = self('petitions');
    const badLinks: unknown[] = [
      null,
      1,
      true,
      '',
      'x',
      'not a url',
      'http://[',
      'javascript:alert(1)',
      'x'.repeat(15_000),
      [],
      [1],
      [{}],
      [{ href: person }, { href: person }],
      {},
      { href: 1 },
      { href: null },
      { href: '' },
      { href: [person] },
      { href: { href: person } },
      { HREF: person },
      { href: '/api/v1/people' },
      { href: '/api/v1/nope/1' },
      { href: '/api/v1/people/00000000-0000-4000-8000-000000000000' },
      { href: '/api/v1/people/%ZZ' },
      { href: `/api/v1/people/${'a'.repeat(10_000)}` },
      { href: `${person}/signatures` },
      { href: foreignPerson },
    ];
    const bodies: [string, Body][] = badLinks.flatMap((link): [string, Body][] => {
      const label = JSON.stringify(link)?.slice(0, 60) ?? 'undefined';
      return [
        [`std:person ${label}`, json({ _links: { 'std:person': link, 'std:petition': petition } })],
        [`std:petition ${label}`, json({ _links: { 'std:person': person, 'std:petition': link } })],
      ];
    });
    // Records of the wrong kind.
    bodies.push(
      [
        'std:person a petition',
        json({ _links: { 'std:person': petition, 'std:petition': petition } }),
      ],
      ['std:petition a person', json({ _links: { 'std:person': person, 'std:petition': person } })],
    );
    const signatureTargets: Target[] = [
      { name: 'create signature', method: 'POST', path: '/api/v1/signatures' },
      { name: 'update signature', method: 'PUT', path: self('signatures') },
    ];
    expect(await refusals(signatureTargets, bodies)).toEqual([]);
    // Links the kind does not have, and `_links` that is not an object.
    const others: [string, Body][] = [
      ['unknown relation', json({ _links: { 'std:nope': { href: person } } })],
      ['std:constructor', json({ _links: { 'std:constructor': { href: person } } })],
      ...['x', 1, true, []].map((links): [string, Body] => [
        `_links ${JSON.stringify(links)}`,
        json({ given_name: 'x', _links: links }),
      ]),
    ];
    const personTargets: Target[] = [
      { name: 'create person', method: 'POST', path: '/api/v1/people' },
      { name: 'update person', method: 'PUT', path: person },
    ];
    expect(await refusals(personTargets, others)).toEqual([]);
    // The donation helper's own `_links` (the attendance or submission it goes with).
    const donation = {
      name: 'donation helper',
      method: 'POST',
      path: helper('fundraising_pages', 'record_donation_helper'),
    };
    const base = {
      amount: 5,
      currency: sample.fundraising_pages.currency,
      person: { given_name: 'A' },
    };
    const donationBodies = badLinks.map((link): [string, Body] => [
      JSON.stringify(link)?.slice(0, 60) ?? 'undefined',
      json({ ...base, _links: { 'std:attendance': link } }),
    ]);
    expect(await refusals([donation, { ...donation, key: null }], donationBodies)).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('refuses wrong-typed members of helper bodies, keyed and anonymous', async () => {
    const person = { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] };
    const members: [string, unknown][] = [
      ['person', 'x'],
      ['person', 1],
      ['person', []],
      ['person', { given_name: 1 }],
      ['person', { email_addresses: 'x' }],
      ['person', { phone_numbers: [{ number: { x: 1 } }] }],
      ['person', { _links: 'x' }],
      ['person', { identifiers: [null] }],
      ['identifiers', 'x'],
      ['identifiers', [1]],
      ['comments', 1],
      ['action_date', 'yesterday'],
      ['tickets', 'x'],
      ['amount', 'ten'],
      ['canvass', 'x'],
      ['canvass', { question_response: { question: 1 } }],
      ['add_tags', 'x'],
      ['add_tags', [1]],
      ['add_lists', {}],
      ['add_tags_uri', [null]],
      ['add_questions_responses_uri', 'x'],
      ['add_questions_responses_uri', [{ question: '' }]],
      ['triggers', 'x'],
      ['triggers', { autoresponse: 1 }],
      ['std:control', 'x'],
      ['std:control', { return_response: 'no' }],
      ['nonsense', 1],
    ];
    const bodies = members.map(([member, value]): [string, Body] => [
      `${member}=${JSON.stringify(value)}`,
      json({ person, [member]: value }),
    ]);
    const helpers = writeTargets().filter((target) => /helper|schedule/.test(target.name));
    expect(helpers.length).toBeGreaterThanOrEqual(13);
    expect(await refusals(helpers, bodies)).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('answers message send and stop with a std:error whatever the body, which they ignore', async () => {
    // A draft without targets can be neither sent nor stopped, so every call is refused.
    const draft = await h.json('POST', '/api/v1/messages', { body: { subject: 'Draft' } });
    const send = { name: 'send', method: 'POST', path: `${draft.body._links.self.href}/send` };
    const stop = { ...send, name: 'stop', method: 'DELETE' };
    const bodies: [string, Body][] = [
      ['none', { text: '' }],
      ['garbage', { text: '{{{', type: 'application/json' }],
      ['deep', { text: '['.repeat(16 * 1024), type: 'application/json' }],
      ['text', { text: 'hello', type: 'text/plain' }],
    ];
    expect(await refusals([send, stop], bodies)).toEqual([]);
    expect(logged).toEqual([]);
  });
});

describe('hostile query parameters', () => {
  const targets = (): Target[] => [
    { name: 'people', method: 'GET', path: '/api/v1/people' },
    { name: 'signatures', method: 'GET', path: '/api/v1/signatures' },
    { name: 'sub-collection', method: 'GET', path: `${self('petitions')}/signatures` },
    { name: 'person sub-collection', method: 'GET', path: `${self('people')}/taggings` },
  ];

  async function refusedQueries(queries: readonly string[]): Promise<string[]> {
    const problems: string[] = [];
    for (const target of targets()) {
      for (const query of queries) {
        const problem = await notARefusal(
          await send({ ...target, path: `${target.path}?${query}` }),
        );
        if (problem) problems.push(`${target.name}?${query.slice(0, 80)}: ${problem}`);
      }
    }
    return problems;
  }

  it('refuses bad paging parameters: negative, zero, fractional, huge, not numbers, repeated', async () => {
    const bad = {
      page: [
        '-1',
        '0',
        '1.5',
        '1e3',
        'abc',
        '',
        ' 1',
        '+1',
        '0x10',
        '١',
        'Infinity',
        'NaN',
        '99999999999999999999',
        '%ZZ',
      ],
      per_page: ['0', '-5', '2.5', 'abc', '', '1e2', '999999999999999999999'],
      after: ['-1', 'x', '1e400', '1.0', '9007199254740992'],
      before: ['-1', 'y', '0.5'],
    };
    const queries = Object.entries(bad).flatMap(([name, values]) =>
      values.map((value) => `${name}=${encodeURIComponent(value)}`),
    );
    queries.push('page=1&page=2', 'per_page=5&per_page=5', 'after=1&after=2', 'after=1&before=2');
    queries.push('page=%ZZ', 'per_page=%');
    expect(await refusedQueries(queries)).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('serves extreme but valid paging, lowering per_page to the maximum', async () => {
    for (const query of [
      'per_page=1000000000',
      'page=9007199254740991',
      'after=9007199254740991',
    ]) {
      const res = await h.json('GET', `/api/v1/people?${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.per_page).toBeLessThanOrEqual(100);
    }
  });

  it('refuses filters it cannot apply: garbage, unbalanced quotes, long, deep parentheses, repeated', async () => {
    const condition = "created_date gt '2026-01-01T00:00:00Z'";
    const filters = [
      '',
      ' ',
      "'",
      "'''",
      '((((',
      '('.repeat(5000),
      `${'('.repeat(100)}${condition}${')'.repeat(100)}`,
      'created_date',
      'created_date gt',
      'created_date gt 2026',
      "created_date gt '2026-13-01'",
      "created_date gt '0000-00-00'",
      "created_date gt '9999-99-99T99:99:99Z'",
      "created_date gt '2026-01-01T00:00:00+99:00'",
      "created_date gt '+275760-09-13'",
      `${condition} or ${condition}`,
      `not ${condition}`,
      `${condition} and`,
      'and',
      "email_address gt 'x'",
      "x eq 'y'",
      "créé eq 'y'",
      "contains(given_name,'a')",
      Array.from({ length: 20 }, () => condition).join(' and '),
      `created_date gt '${'x'.repeat(100_000)}'`,
      `${condition}${'x'.repeat(50_000)}`,
      '\u0000',
      '%',
    ];
    const queries = filters.map((filter) => `filter=${encodeURIComponent(filter)}`);
    queries.push(`filter=${encodeURIComponent(condition)}&filter=${encodeURIComponent(condition)}`);
    queries.push('filter=%', 'filter=%E0%A4%A');
    expect(await refusedQueries(queries)).toEqual([]);
    expect(logged).toEqual([]);
  });
});

describe('anything else', () => {
  /** JSON values with the awkward cases spelled out beside fast-check's own. */
  const awkward = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }),
    fc.constantFrom(
      '',
      '\u0000',
      '\ud800',
      '😀'.repeat(500),
      'x'.repeat(20_000),
      'NaN',
      '-Infinity',
      '1e999',
      '__proto__',
      'constructor',
      Number.MAX_SAFE_INTEGER + 2,
      -0,
      5e-324,
      1e308,
      { constructor: { prototype: 1 } },
      { toString: 'x', valueOf: 1, hasOwnProperty: null },
    ),
  );
  const field = fc.oneof(
    fc.constantFrom(
      '_links',
      '_embedded',
      'std:control',
      'identifiers',
      'person',
      'custom_fields',
      'constructor',
      'prototype',
      'toString',
      '_refs',
      '_state',
      'triggers',
    ),
    fc.string({ maxLength: 12 }),
  );

  it('never answers a 500 nor a non-JSON error to arbitrary members in any route (fast-check)', async () => {
    const targets = [
      ...writeTargets(),
      ...COLLECTIONS.map((plural) => ({
        name: `update ${plural}`,
        method: 'PUT',
        path: self(plural),
      })),
    ];
    const fields = (plural: string) => Object.keys(sample[plural] as Json);
    const anyField = fc.oneof(field, fc.constantFrom(...COLLECTIONS.flatMap(fields)));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        fc.dictionary(anyField, awkward, { maxKeys: 4 }),
        fc.constantFrom<'top' | 'person' | 'links'>('top', 'person', 'links'),
        async (target, members, where) => {
          const body =
            where === 'top'
              ? members
              : where === 'person'
                ? { person: { given_name: 'A', ...members } }
                : { _links: members };
          const res = await send(target, json(body));
          if (res.status < 400) return;
          const problem = await notARefusal(res);
          expect(problem, `${target.name} ${JSON.stringify(body).slice(0, 300)}`).toBeUndefined();
        },
      ),
      { numRuns: 500, seed: 20261123 },
    );
    expect(logged).toEqual([]);
  });

  it('serves or refuses bodies of any size up to the limit, and refuses one past it with 413', async () => {
    const big = 'x'.repeat(1024 * 1024 - 100);
    // In a custom field, which has no length limit of its own (a name has: 255).
    const fits = await h.json('POST', '/api/v1/people', { body: { custom_fields: { note: big } } });
    expect(fits.status).toBe(201);
    const over = await send(
      writeTargets()[0] as Target,
      json({ given_name: `${big}${'x'.repeat(200)}` }),
    );
    expect(over.status).toBe(413);
    expect(over.headers.get('connection')).toBe('close');
    const anonymous = writeTargets().find((target) => target.key === null) as Target;
    const tooBig = await send(anonymous, json({ person: { given_name: 'x'.repeat(16 * 1024) } }));
    expect(tooBig.status).toBe(413);
    expect(
      await notARefusal(await send(anonymous, json({ person: { given_name: big } }))),
    ).toBeUndefined();
    expect(logged).toEqual([]);
  });
});
