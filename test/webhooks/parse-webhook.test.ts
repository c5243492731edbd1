import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { signatureKind } from '../../src/schema/kinds/signature.js';
import {
  isWebhookPayloadError,
  type KnownWebhookEvent,
  parseWebhook,
  type WebhookEvent,
  WebhookPayloadError,
  type WebhookPayloadProblem,
} from '../../src/webhooks/index.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/webhooks/${name}.json`, import.meta.url), 'utf8');

const AN = 'https://actionnetwork.org/api/v2';

function only(events: WebhookEvent[]): WebhookEvent {
  expect(events).toHaveLength(1);
  return events[0] as WebhookEvent;
}

describe("parseWebhook on Action Network's documented payloads", () => {
  it('reads a signature: typed record, person, tags, links, key, sponsor', () => {
    const event = only(parseWebhook(fixture('signature')));
    expect(event.type).toBe('signature');
    if (event.type !== 'signature') return;
    expectTypeOf(event).toEqualTypeOf<KnownWebhookEvent<'signature'>>();
    expect(event.name).toBe('osdi:signature');
    expect(event.index).toBe(0);
    expect(event.record.comments).toBe('The laundry room has been broken since January.');
    expect(event.record.identifiers).toEqual([
      'action_network:2f9e1c7a-0b5d-4e8e-a1c3-6d4b2e9f0a11',
    ]);
    expect(event.person?.given_name).toBe('Marisol');
    expect(event.person?.email_addresses?.[0]?.address).toBe('marisol.okafor@example.org');
    expect(event.addTags).toEqual(['repairs', 'volunteer-interest']);
    expect(event.idempotencyKey).toBe('c1d2e3f4a5b60718293a4b5c6d7e8f90');
    expect(event.sponsor).toEqual({
      title: 'Riverside Tenants Union',
      url: 'https://actionnetwork.org/groups/riverside-tenants-union',
    });
    const petition = `${AN}/petitions/8c3d7e21-55aa-4f0e-b7c2-1e9a0d4f6b33`;
    expect(event.links).toEqual({
      self: `${petition}/signatures/2f9e1c7a-0b5d-4e8e-a1c3-6d4b2e9f0a11`,
      petition,
      action: petition,
      person: `${AN}/people/5b0c6a4e-1f2d-4c1a-9e3b-7d2f8a61c0aa`,
    });
  });

  it.each([
    ['attendance', 'osdi:attendance', 'event', 'events/3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7'],
    ['submission', 'osdi:submission', 'form', 'forms/11223344-5566-4778-899a-abbccddeeff0'],
    [
      'donation',
      'osdi:donation',
      'fundraising_page',
      'fundraising_pages/6f7e8d9c-0b1a-4f2e-8d3c-b4a5f6e7d8c9',
    ],
  ] as const)('reads %s with its action link', (type, name, relation, path) => {
    const event = only(parseWebhook(fixture(type)));
    expect(event).toMatchObject({ type, name, links: { [relation]: `${AN}/${path}` } });
    expect(event.links.action).toBe(`${AN}/${path}`);
    expect(event.links.person).toMatch(/^https:\/\/actionnetwork\.org\/api\/v2\/people\//);
    expect(event.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
  });

  it("types each record as the SDK's record of its kind", () => {
    const [donation] = parseWebhook(fixture('donation'));
    if (donation?.type !== 'donation') throw new Error('expected a donation');
    expect(donation.record.amount).toBe('25.00');
    expect(donation.record.currency).toBe('USD');
    expect(donation.record.recipients?.[0]?.display_name).toBe('Riverside Tenants Union');
    const [attendance] = parseWebhook(fixture('attendance'));
    if (attendance?.type !== 'attendance') throw new Error('expected an attendance');
    expect(attendance.record.status).toBe('accepted');
  });

  it('reads a batch of outreaches, one event per element, in order', () => {
    const events = parseWebhook(fixture('outreach'));
    expect(events.map((event) => [event.type, event.index, event.idempotencyKey])).toEqual([
      ['outreach', 0, '11111111aaaa2222bbbb3333cccc4444'],
      ['outreach', 1, '55555555dddd6666eeee7777ffff8888'],
    ]);
    const [first] = events;
    if (first?.type !== 'outreach') throw new Error('expected an outreach');
    expect(first.links.advocacy_campaign).toBe(first.links.action);
    expect(first.record.subject).toBe('Fund the transit expansion');
  });

  it.each(['action', 'upload'] as const)(
    "reads Action Network's %s (no kind: a generic record)",
    (type) => {
      const event = only(parseWebhook(fixture(type)));
      expect(event.type).toBe(type);
      expect(event.name).toBe(`action_network:${type}`);
      expect(event.person?.family_name).toBeTypeOf('string');
      expect(event.links.person).toMatch(/\/people\//);
      expect(event.links.action).toBeUndefined();
      if (event.type === 'action' || event.type === 'upload') {
        expect(event.record.created_date).toBe(
          type === 'action' ? '2026-06-11T08:00:00Z' : '2026-06-12T16:20:00Z',
        );
      }
    },
  );

  it('keeps an element of an unknown type as it came, never an error', () => {
    const event = only(parseWebhook(fixture('unknown-type')));
    expect(event.type).toBe('unknown');
    if (event.type !== 'unknown') return;
    expect(event.name).toBe('action_network:tally');
    expect(event.body.choice).toBe('option-b');
    expect(event.idempotencyKey).toBe('deadbeefdeadbeefdeadbeefdeadbeef');
    expect(event.person?.given_name).toBe('Lena');
    expect(event.links.self).toBe(`${AN}/tallies/0123`);
  });

  it('reads a mixed batch in order, from text, bytes or parsed JSON alike', () => {
    const text = fixture('batch');
    const events = parseWebhook(text);
    expect(events.map((event) => event.type)).toEqual([
      'signature',
      'donation',
      'outreach',
      'outreach',
      'unknown',
    ]);
    expect(parseWebhook(new TextEncoder().encode(text))).toEqual(events);
    expect(parseWebhook(JSON.parse(text))).toEqual(events);
    expect(parseWebhook('[]')).toEqual([]);
  });
});

describe("parseWebhook on the reference server's deliveries", () => {
  const body = [
    {
      'std:signature': {
        comments: 'yes',
        person: { given_name: 'Ana' },
        add_tags: ['a'],
        _links: {
          self: { href: 'http://127.0.0.1:8001/api/v1/petitions/p1/signatures/s1' },
          'std:petition': { href: '/api/v1/petitions/p1' },
          'std:person': { href: 'http://127.0.0.1:8001/api/v1/people/u1' },
          curies: [{ name: 'std', href: 'http://127.0.0.1:8001/docs/{rel}', templated: true }],
        },
      },
      idempotency_key: 'k-1',
    },
    {
      'std:signup': {
        given_name: 'Bo',
        idempotency_key: 'k-2',
        _links: { self: { href: 'http://127.0.0.1:8001/api/v1/people/u2' } },
      },
    },
    {
      'std:canvass': { action_date: '2026-01-01', idempotency_key: 'k-3' },
      idempotency_key: 'k-3',
    },
  ];

  it('takes any prefix, a key inside the record, and resolves relative hrefs against self', () => {
    const [signature, signup, canvass] = parseWebhook(body);
    expect(signature).toMatchObject({ type: 'signature', name: 'std:signature' });
    expect(signature?.links).toEqual({
      self: 'http://127.0.0.1:8001/api/v1/petitions/p1/signatures/s1',
      petition: 'http://127.0.0.1:8001/api/v1/petitions/p1',
      action: 'http://127.0.0.1:8001/api/v1/petitions/p1',
      person: 'http://127.0.0.1:8001/api/v1/people/u1',
    });
    expect(signup).toMatchObject({ type: 'signup', idempotencyKey: 'k-2' });
    // A signup's record is the person.
    expect(signup?.person?.given_name).toBe('Bo');
    expect(canvass).toMatchObject({ type: 'canvass', idempotencyKey: 'k-3', addTags: [] });
  });
});

describe('parseWebhook on malformed input', () => {
  const cases: [string, unknown, WebhookPayloadProblem, number | undefined, RegExp][] = [
    ['not JSON', '[{"osdi:signature": ', 'not-json', undefined, /the body is not JSON/],
    ['an object, not an array', '{"osdi:signature":{}}', 'not-an-array', undefined, /an object/],
    [
      'an element that is a string',
      [{ 'osdi:signature': {} }, 'x'],
      'element-not-an-object',
      1,
      /element 1: the element is a string/,
    ],
    [
      'an element with no type',
      [{ idempotency_key: 'k' }],
      'no-type',
      0,
      /element 0: no member names the event type/,
    ],
    [
      'an element with only a sponsor',
      [{ 'action_network:sponsor': {} }],
      'no-type',
      0,
      /no member/,
    ],
    [
      'two type keys',
      [{ 'osdi:signature': {} }, { 'osdi:signature': {}, 'osdi:donation': {} }],
      'several-types',
      1,
      /element 1: 2 members .*"osdi:signature", "osdi:donation"/,
    ],
    [
      'a closure that is an array',
      [{ 'osdi:signature': [] }],
      'closure-not-an-object',
      0,
      /element 0, "osdi:signature": holds an array/,
    ],
    [
      'a numeric idempotency key',
      [{ 'osdi:signature': {}, idempotency_key: 7 }],
      'invalid-idempotency-key',
      0,
      /element 0, "idempotency_key": idempotency_key is a number/,
    ],
    [
      'an empty idempotency key inside',
      [{ 'osdi:signature': { idempotency_key: '' } }],
      'invalid-idempotency-key',
      0,
      /is empty/,
    ],
    [
      'two different keys',
      [{ 'osdi:signature': { idempotency_key: 'a' }, idempotency_key: 'b' }],
      'invalid-idempotency-key',
      0,
      /two different idempotency keys/,
    ],
    [
      'a person that is a string',
      [{ 'osdi:signature': { person: 'Ana' } }],
      'invalid-member',
      0,
      /its person is a string/,
    ],
    [
      'add_tags with a number',
      [{ 'osdi:signature': { add_tags: ['a', 1] } }],
      'invalid-member',
      0,
      /add_tags is not an array of strings/,
    ],
    [
      '_links that is an array',
      [{ 'osdi:signature': { _links: [] } }],
      'invalid-member',
      0,
      /_links is an array/,
    ],
  ];

  it.each(cases)('%s is a WebhookPayloadError naming where', (_, body, problem, index, message) => {
    let thrown: unknown;
    try {
      parseWebhook(body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WebhookPayloadError);
    expect(isWebhookPayloadError(thrown)).toBe(true);
    const error = thrown as WebhookPayloadError;
    expect(error.code).toBe('WEBHOOK_PAYLOAD');
    expect(error.problem).toBe(problem);
    expect(error.index).toBe(index);
    expect(error.message).toMatch(/^Invalid webhook payload: /);
    expect(error.message).toMatch(message);
  });
});

describe('parseWebhook with validation (opt-in)', () => {
  it('checks records with the kinds given, and leaves other types alone', () => {
    const events = parseWebhook(fixture('batch'), { validate: { signature: signatureKind } });
    expect(events[0]?.type).toBe('signature');
    const bad = [{ 'osdi:signature': { comments: 42 } }, { 'osdi:donation': { amount: {} } }];
    expect(() => parseWebhook(bad)).not.toThrow();
    let thrown: unknown;
    try {
      parseWebhook(bad, { validate: { signature: signatureKind } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ problem: 'invalid-record', index: 0, member: 'osdi:signature' });
    expect((thrown as Error).message).toMatch(/the signature does not match its kind: comments: /);
  });
});
