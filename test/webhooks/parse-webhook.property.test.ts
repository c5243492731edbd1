import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isWebhookPayloadError,
  parseWebhook,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
} from '../../src/webhooks/index.js';

const TYPES: readonly string[] = WEBHOOK_EVENT_TYPES;

/** A key naming a type: a known or unknown name, under some prefix. */
const typeKey = fc
  .tuple(
    fc.constantFrom('osdi', 'std', 'action_network', 'acme'),
    fc.oneof(fc.constantFrom(...TYPES), fc.stringMatching(/^[a-z_]{1,12}$/)),
  )
  .filter(([, name]) => name !== 'sponsor')
  .map(([prefix, name]) => `${prefix}:${name}`);

const href = fc.webUrl({ withQueryParameters: false, withFragments: false });

/** A record as senders write it: any JSON members, and the ones the SDK reads well typed. */
const record = fc
  .record(
    {
      extra: fc.dictionary(
        fc
          .string()
          .filter(
            (key) =>
              !['person', 'add_tags', '_links', 'idempotency_key', '__proto__'].includes(key),
          ),
        fc.jsonValue(),
        { maxKeys: 4 },
      ),
      person: fc.option(fc.record({ given_name: fc.string() }), { nil: undefined }),
      add_tags: fc.option(fc.array(fc.string(), { maxLength: 3 }), { nil: undefined }),
      _links: fc.option(
        fc.record({ self: fc.record({ href }), 'osdi:person': fc.record({ href }) }),
        { nil: undefined },
      ),
    },
    { requiredKeys: ['extra'] },
  )
  .map(({ extra, ...members }) => {
    const closure: Record<string, unknown> = { ...extra };
    for (const [name, value] of Object.entries(members))
      if (value !== undefined) closure[name] = value;
    return closure;
  });

const element = fc
  .record({
    key: typeKey,
    record,
    idempotencyKey: fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
  })
  .map(({ key, record, idempotencyKey }) => ({
    [key]: record,
    ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }),
  }));

/** The element an event was read from, written back. */
function elementOf(event: WebhookEvent): Record<string, unknown> {
  const closure = event.type === 'unknown' ? event.body : event.record;
  return {
    [event.name]: closure,
    ...(event.idempotencyKey === undefined ? {} : { idempotency_key: event.idempotencyKey }),
  };
}

describe('parseWebhook, on any input', () => {
  it('returns events or throws its typed error, nothing else, on arbitrary JSON', () => {
    const shaped = fc.array(fc.oneof(element, fc.jsonValue()), { maxLength: 5 });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), shaped), (value) => {
        for (const body of [value, JSON.stringify(value)]) {
          try {
            const events = parseWebhook(body);
            expect(Array.isArray(value)).toBe(true);
            expect(events).toHaveLength((value as unknown[]).length);
          } catch (error) {
            if (!isWebhookPayloadError(error)) throw error;
            expect(error.message).toMatch(/^Invalid webhook payload: /);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('throws only its typed error on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          parseWebhook(text);
        } catch (error) {
          if (!isWebhookPayloadError(error)) throw error;
        }
      }),
    );
  });

  it('reads every well-formed delivery, and writing its events back reads the same', () => {
    fc.assert(
      fc.property(fc.array(element, { maxLength: 6 }), (elements) => {
        const text = JSON.stringify(elements);
        const events = parseWebhook(text);
        expect(events.map((event) => event.index)).toEqual(elements.map((_, index) => index));
        for (const [index, event] of events.entries()) {
          const sent = elements[index] as Record<string, unknown>;
          expect(event.name in sent).toBe(true);
          const local = event.name.slice(event.name.indexOf(':') + 1);
          expect(event.type).toBe(TYPES.includes(local) ? local : 'unknown');
          expect(event.idempotencyKey).toBe(sent.idempotency_key);
        }
        expect(parseWebhook(JSON.stringify(events.map(elementOf)))).toEqual(events);
      }),
      { numRuns: 200 },
    );
  });
});
