import { expect } from 'vitest';
import { type Harness, harness, type Json } from './helpers.js';

/**
 * A harness for helper calls. The anonymous rate limit is off: in-process calls share
 * one client address, and these tests make more anonymous calls than one burst.
 */
export function helperHarness(options: Parameters<typeof harness>[0] = {}): Harness {
  return harness({ anonymousRateLimit: false, ...options });
}

/** Creates a record through the collection and returns its representation. */
export async function create(h: Harness, plural: string, body: Json, key?: string): Promise<Json> {
  const created = await h.json('POST', `/api/v1/${plural}`, { body, ...(key ? { key } : {}) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** The href of a record's helper link, as a client finds it. */
export function helperOf(record: Json, rel: string): string {
  const href = record._links[`std:${rel}`]?.href;
  expect(href, rel).toBeTypeOf('string');
  return href;
}

/** Calls a helper with a key (default) or anonymously (`key: null`). */
export function callHelper(
  h: Harness,
  href: string,
  body: Json,
  key?: string | null,
): Promise<{ status: number; body: Json; res: Response }> {
  return h.json('POST', href, { body, ...(key === undefined ? {} : { key }) });
}

/** `total_records` of a collection or sub-collection. */
export async function count(h: Harness, path: string): Promise<number> {
  const { body } = await h.json('GET', path.startsWith('http') ? path : `/api/v1/${path}`);
  return body.total_records;
}

/** The resource statuses of a non-atomic answer. */
export function statusesOf(body: Json): Json[] {
  expect(body['std:error'].request_type).toBe('non-atomic');
  return body['std:error'].resource_status;
}

/** A person as a helper body inlines it. */
export function person(given: string, email?: string, phone?: string): Json {
  return {
    given_name: given,
    ...(email ? { email_addresses: [{ address: email }] } : {}),
    ...(phone ? { phone_numbers: [{ number: phone }] } : {}),
  };
}
