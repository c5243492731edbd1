/**
 * `?background_request=true` on helper calls (the plain server's preset): the call is
 * checked first (a bad body still gets its 400), answered 202 with `{}`, and done right
 * after; what fails then is logged with a reference code. The older spelling,
 * `background_processing`, is taken the same way, and with both "either one true" asks.
 * A shutdown waits for the work before closing the database. Under an Idempotency-Key
 * the stored 202 commits with the work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { backgroundIdle } from '../src/http/background.js';
import { createApp, openStorage } from '../src/index.js';
import { closeStorageWhenIdle } from '../src/shutdown.js';
import { type BackgroundGate, backgroundGate } from './background-gate.js';
import { errorOf, type Harness, harness, type Json, WRITE } from './helpers.js';
import { create, helperOf, person } from './helpers-setup.js';

const ANA = person('Ana', 'ana@example.org');

/**
 * A harness whose errors are kept for the test to read; its background work waits at
 * `gate` when one is given, else runs right after each answer.
 */
function logged(gate?: BackgroundGate): { h: Harness; logs: string[] } {
  const logs: string[] = [];
  const h = harness({
    anonymousRateLimit: false,
    logError: (m) => logs.push(m),
    ...(gate ? { scheduleBackground: gate.schedule } : {}),
  });
  return { h, logs };
}

async function total(h: Harness, href: string, name: string): Promise<number> {
  return (await h.json('GET', href)).body[name];
}

function inBackground(href: string, value = 'true', spelling = 'background_request'): string {
  return `${href}?${spelling}=${value}`;
}

describe('background processing of helper calls', () => {
  it('answers 202 {} at once, then records the signature', async () => {
    const gate = backgroundGate();
    const { h, logs } = logged(gate);
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const href = helperOf(petition, 'record_signature_helper');
    const accepted = await h.call('POST', inBackground(href), {
      body: { comments: 'Yes!', person: ANA },
    });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('Content-Type')).toMatch(/^application\/hal\+json/);
    expect(accepted.headers.get('Location')).toBeNull();
    expect(await accepted.json()).toEqual({});
    // Done after the answer, not before it: the work is held at the gate, not yet run.
    await gate.holding(1);
    expect(await total(h, petition._links.self.href, 'total_signatures')).toBe(0);
    gate.open();
    await backgroundIdle(h.storage);
    expect(await total(h, petition._links.self.href, 'total_signatures')).toBe(1);
    const signatures = await h.json('GET', petition._links['std:signatures'].href);
    expect(signatures.body._embedded['std:signatures'][0].comments).toBe('Yes!');
    // Without a key too; the same person again updates her signature.
    const anonymous = await h.call('POST', inBackground(href), {
      body: { person: person('Bo', 'bo@example.org') },
      key: null,
    });
    expect(anonymous.status).toBe(202);
    expect(await anonymous.json()).toEqual({});
    await backgroundIdle(h.storage);
    expect(await total(h, petition._links.self.href, 'total_signatures')).toBe(2);
    expect(logs).toEqual([]);
  });

  it('refuses a bad body, a missing record and a bad value at once, writing nothing', async () => {
    const { h, logs } = logged();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const href = helperOf(petition, 'record_signature_helper');
    const bad = await h.json('POST', inBackground(href), { body: { person: ANA, mood: 'ok' } });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.body)[0]?.error_code).toBe('UNKNOWN_PROPERTY');
    const missing = await h.json(
      'POST',
      inBackground(href.replace(/petitions\/[^/]+/, 'petitions/nope')),
      { body: { person: ANA } },
    );
    expect(missing.status).toBe(404);
    for (const [query, property] of [
      ['background_request=yes', 'background_request'],
      ['background_request=true&background_request=true', 'background_request'],
      ['background_processing=yes', 'background_processing'],
      ['background_processing=true&background_processing=true', 'background_processing'],
      // A bad value is refused whichever spelling carries it, even beside a good one.
      ['background_request=true&background_processing=yes', 'background_processing'],
    ] as const) {
      const refused = await h.json('POST', `${href}?${query}`, { body: { person: ANA } });
      expect(refused.status, query).toBe(400);
      expect(errorOf(refused.body)[0]).toMatchObject({
        error_code: 'INVALID_PARAMETER',
        properties: [property],
      });
      // A bad value is told the documented spelling (a repeat is singleQuery's own 400).
      if (query.endsWith('yes')) {
        expect(errorOf(refused.body)[0]?.hint, query).toBe('background_request=true');
      }
    }
    await backgroundIdle(h.storage);
    expect(await total(h, petition._links.self.href, 'total_signatures')).toBe(0);
    expect((await h.json('GET', '/api/v1/people')).body.total_records).toBe(0);
    expect(logs).toEqual([]);
  });

  it('false, or no parameter, works as before', async () => {
    const { h } = logged();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const href = helperOf(petition, 'record_signature_helper');
    const now = await h.json('POST', inBackground(href, 'false'), { body: { person: ANA } });
    expect(now.status).toBe(201);
    expect(now.body._embedded['std:person'].given_name).toBe('Ana');
    const both = await h.json(
      'POST',
      `${href}?background_request=false&background_processing=false`,
      { body: { person: person('Bo', 'bo@example.org') } },
    );
    expect(both.status).toBe(201);
  });

  it('takes the older spelling, background_processing, as it always has', async () => {
    const { h, logs } = logged();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const href = helperOf(petition, 'record_signature_helper');
    const accepted = await h.call('POST', inBackground(href, 'true', 'background_processing'), {
      body: { person: ANA },
    });
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({});
    await backgroundIdle(h.storage);
    expect(await total(h, petition._links.self.href, 'total_signatures')).toBe(1);
    expect(logs).toEqual([]);
  });

  it('with both spellings, either one true asks for the background', async () => {
    const { h } = logged();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const href = helperOf(petition, 'record_signature_helper');
    for (const [i, query] of [
      'background_request=true&background_processing=false',
      'background_request=false&background_processing=true',
      'background_request=true&background_processing=true',
    ].entries()) {
      const accepted = await h.call('POST', `${href}?${query}`, {
        body: { person: person(`P${i}`, `p${i}@example.org`) },
      });
      expect(accepted.status, query).toBe(202);
      expect(await accepted.json()).toEqual({});
    }
    await backgroundIdle(h.storage);
    expect(await total(h, petition._links.self.href, 'total_signatures')).toBe(3);
  });

  it('answers a plain write at once, whichever spelling it sends', async () => {
    const { h } = logged();
    for (const spelling of ['background_request', 'background_processing']) {
      const created = await h.json('POST', `/api/v1/petitions?${spelling}=true`, {
        body: { title: spelling },
      });
      expect(created.status, spelling).toBe(201);
      expect(created.body.title).toBe(spelling);
    }
  });

  it('a failure after the 202 is logged with a reference code, and nothing is written', async () => {
    const { h, logs } = logged();
    const event = await create(h, 'events', {
      title: 'Gala',
      type: 'ticketed',
      ticket_levels: [{ title: 'Adult', limit: 1 }],
    });
    const href = helperOf(event, 'record_attendance_helper');
    // The body fits its schema; two tickets of a level with one left is found out later.
    const accepted = await h.call('POST', inBackground(href), {
      body: { person: ANA, tickets: [{ title: 'Adult' }, { title: 'Adult' }] },
    });
    expect(accepted.status).toBe(202);
    await backgroundIdle(h.storage);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(
      / [0-9a-f]{16} background POST \/api\/v1\/events\/.+ failed: .*TICKETS_SOLD_OUT/,
    );
    // The reference code is the accepted call's request id.
    expect(logs[0]).toContain(` ${accepted.headers.get('X-Request-Id')} background `);
    expect(await total(h, event._links.self.href, 'total_tickets')).toBe(0);
    expect((await h.json('GET', '/api/v1/people')).body.total_records).toBe(0);
  });

  it('an action function that fails is logged; the rest is kept', async () => {
    const { h, logs } = logged();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const href = helperOf(petition, 'record_signature_helper');
    const accepted = await h.call('POST', inBackground(href), {
      body: { person: ANA, add_tags: ['ghost'] },
    });
    expect(accepted.status).toBe(202);
    await backgroundIdle(h.storage);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('TAG_NAME_DOES_NOT_EXIST');
    expect(await total(h, petition._links.self.href, 'total_signatures')).toBe(1);
  });

  it('the person signup helper takes it too', async () => {
    const { h, logs } = logged();
    const accepted = await h.call('POST', inBackground('/api/v1/people/person_signup_helper'), {
      body: { person: ANA },
    });
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({});
    await backgroundIdle(h.storage);
    expect((await h.json('GET', '/api/v1/people')).body.total_records).toBe(1);
    const bad = await h.json('POST', inBackground('/api/v1/people/person_signup_helper'), {
      body: { human: ANA },
    });
    expect(bad.status).toBe(400);
    expect(logs).toEqual([]);
  });
});

describe('shutdown with background work pending', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('closes the database only once accepted calls are done', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adis-background-'));
    dirs.push(dir);
    const file = join(dir, 'data.db');
    const storage = openStorage(file, { groupCommit: true });
    await storage.tenants.putApiKey(WRITE, 'acme', 'write');
    const logs: string[] = [];
    const gate = backgroundGate();
    const app = createApp({
      storage,
      logError: (m) => logs.push(m),
      scheduleBackground: gate.schedule,
    });
    const call = async (method: string, path: string, body?: Json) => {
      const res = await app.fetch(
        new Request(`http://adis.test${path}`, {
          method,
          headers: { 'STD-API-Token': WRITE, 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
      return { status: res.status, body: (await res.json()) as Json };
    };
    const petition = await call('POST', '/api/v1/petitions', { title: 'Save Elm Park' });
    const href = new URL(helperOf(petition.body, 'record_signature_helper')).pathname;
    const accepted = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call('POST', inBackground(href), { person: person(`P${i}`, `p${i}@example.org`) }),
      ),
    );
    expect(accepted.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    // The shutdown comes before the work has run: all five are held at the gate.
    await gate.holding(5);
    expect(await storage.records.count({ tenantId: 1, kind: 'signature' })).toBe(0);
    // A grace far beyond the work's time: the close waits for the work, not for the grace.
    const closed = closeStorageWhenIdle(storage, 60_000, (m) => logs.push(m));
    gate.open();
    await closed;
    expect(logs).toEqual([]);
    const reopened = openStorage(file);
    try {
      expect(await reopened.records.count({ tenantId: 1, kind: 'signature' })).toBe(5);
    } finally {
      await reopened.close();
    }
  });
});

describe('a keyed background call', () => {
  const dirs: string[] = [];
  const closers: (() => unknown)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A server on a database file, and a second, read-only connection to the file: what
   * it sees is what a crash at that moment would leave.
   */
  async function onFile(groupCommit: boolean) {
    const dir = mkdtempSync(join(tmpdir(), 'adis-background-key-'));
    dirs.push(dir);
    const file = join(dir, 'data.db');
    const storage = openStorage(file, { groupCommit });
    await storage.tenants.putApiKey(WRITE, 'acme', 'write');
    await storage.flush();
    const logs: string[] = [];
    const app = createApp({ storage, logError: (m) => logs.push(m) });
    const reader = new Database(file, { readonly: true });
    closers.push(
      () => reader.close(),
      () => storage.close(),
    );
    const call = async (path: string, body: Json, idempotencyKey?: string) => {
      const res = await app.fetch(
        new Request(`http://adis.test${path}`, {
          method: 'POST',
          headers: {
            'STD-API-Token': WRITE,
            'Content-Type': 'application/json',
            ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
          },
          body: JSON.stringify(body),
        }),
      );
      return { status: res.status, body: (await res.json()) as Json, res };
    };
    const onDisk = (kind: string) => ({
      answers: (reader.prepare('SELECT count(*) AS n FROM idempotent_answers').get() as Json).n,
      records: (
        reader.prepare('SELECT count(*) AS n FROM records WHERE kind = ?').get(kind) as Json
      ).n,
    });
    return { storage, call, onDisk, logs };
  }

  it.each([false, true])(
    'commits its stored 202 with the work, never before it (groupCommit %s)',
    async (groupCommit) => {
      const { storage, call, onDisk, logs } = await onFile(groupCommit);
      const petition = await call('/api/v1/petitions', { title: 'Save Elm Park' });
      const href = new URL(helperOf(petition.body, 'record_signature_helper')).pathname;
      const accepted = await call(inBackground(href), { person: ANA }, 'sign-once');
      expect(accepted.status).toBe(202);
      // Right after the 202: a crash now leaves the answer and the signature, or neither.
      const seen = onDisk('signature');
      expect([
        [0, 0],
        [1, 1],
      ]).toContainEqual([seen.answers, seen.records]);
      await backgroundIdle(storage);
      expect(onDisk('signature')).toEqual({ answers: 1, records: 1 });
      const repeat = await call(inBackground(href), { person: ANA }, 'sign-once');
      expect(repeat.status).toBe(202);
      expect(repeat.res.headers.get('Idempotent-Replayed')).toBe('true');
      expect(onDisk('signature')).toEqual({ answers: 1, records: 1 });
      expect(logs).toEqual([]);
    },
  );

  it('a work that throws still releases the commits: the 202 is kept, later writes commit', async () => {
    const { storage, call, onDisk, logs } = await onFile(false);
    const event = await call('/api/v1/events', {
      title: 'Gala',
      type: 'ticketed',
      ticket_levels: [{ title: 'Adult', limit: 1 }],
    });
    const href = new URL(helperOf(event.body, 'record_attendance_helper')).pathname;
    const accepted = await call(
      inBackground(href),
      { person: ANA, tickets: [{ title: 'Adult' }, { title: 'Adult' }] },
      'sold-out',
    );
    expect(accepted.status).toBe(202);
    await backgroundIdle(storage);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('TICKETS_SOLD_OUT');
    // The accepted call is answered (and its answer stored); its work wrote nothing.
    expect(onDisk('attendance')).toEqual({ answers: 1, records: 0 });
    // No hold is left: a write commits at once, as without group commit it does.
    const before = storage.commits;
    const created = await call('/api/v1/people', person('Bo', 'bo@example.org'));
    expect(created.status).toBe(201);
    expect(storage.commits - before).toBe(1);
    expect(onDisk('person').records).toBe(1);
  });
});
