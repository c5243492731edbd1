import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  actOnMessage,
  messageProgress,
  messageView,
  type SendState,
} from '../src/domain/messages.js';
import { RecordService, SERVER_STATE } from '../src/domain/records/index.js';
import { defaultRegistry } from '../src/http/app.js';
import { errorOf, type Harness, harness, type Json, OTHER, READ } from './helpers.js';

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

/**
 * Moves the clock the server reads by `ms`. A send's progress is a pure function of its
 * stored state and the moment of the read (`messageProgress`), and the server takes that
 * moment from `Date`: with `Date` faked (only it: timers and I/O stay real) the clock
 * stands still between moves, so what a read shows does not depend on the machine's speed.
 */
function later(ms: number): void {
  vi.setSystemTime(Date.now() + ms);
}

/** Creates a record and returns its body. */
async function create(h: Harness, plural: string, body: Json): Promise<Json> {
  const res = await h.json('POST', `/api/v1/${plural}`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const href = (record: Json, rel = 'self'): string => record._links[rel].href;
const link = (record: Json) => ({ href: href(record) });

/** People, a list holding `onList` of them (and an organization), a ready message. */
async function setUp(h: Harness, onList = 3) {
  const people: Json[] = [];
  for (let i = 0; i < 4; i++) {
    people.push(
      await create(h, 'people', {
        given_name: `P${i}`,
        email_addresses: [{ address: `p${i}@example.org`, primary: true }],
      }),
    );
  }
  const list = await create(h, 'lists', { name: `Phone tree ${onList}` });
  for (const person of people.slice(0, onList)) {
    await create(h, 'items', {
      _links: { 'std:list': link(list), 'std:person': link(person) },
    });
  }
  // The same person twice counts once; an organization receives nothing.
  if (onList > 0) {
    await create(h, 'items', {
      _links: { 'std:list': link(list), 'std:person': link(people[0]) },
    });
  }
  const organization = await create(h, 'organizations', { organization: 'Tenants Union' });
  await create(h, 'items', {
    _links: { 'std:list': link(list), 'std:organization': link(organization) },
  });
  const message = await create(h, 'messages', {
    name: 'Hearing alert',
    subject: 'Come to the hearing',
    body: 'Thursday 6pm',
    type: 'email',
    _links: { 'std:list': link(list) },
  });
  return { people, list, message };
}

async function helper(h: Harness, method: string, message: Json, rel: string, body?: Json) {
  return h.json(method, href(message, rel), body === undefined ? {} : { body });
}

async function read(h: Harness, message: Json): Promise<Json> {
  const res = await h.json('GET', href(message));
  expect(res.status).toBe(200);
  return res.body;
}

function codeOf(body: Json): string[] {
  return errorOf(body).map((error: Json) => error.error_code);
}

describe('message helpers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-05-01T09:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a new message as a draft', async () => {
    const h = harness();
    const { message } = await setUp(h);
    expect(message.status).toBe('draft');
    expect(message).not.toHaveProperty('total_targeted');
    expect(message).not.toHaveProperty(SERVER_STATE);
    expect(message._links['std:send_helper'].href).toBe(`${href(message)}/send`);
  });

  it('sends a draft, counts distinct people, and stops it mid-send', async () => {
    const h = harness({ messageSendRate: 1 });
    const { message } = await setUp(h);
    const sent = await helper(h, 'POST', message, 'std:send_helper');
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ notice: 'Sending started: 3 recipients at 1 per second' });
    expect(sent.res.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');

    const sending = await read(h, message);
    expect(sending.status).toBe('sending');
    expect(sending.total_targeted).toBe(3);
    expect(sending.total_sent).toBe(0);
    expect(Date.parse(sending.sent_start_date)).toBe(Date.now());
    expect(sending).not.toHaveProperty('sent_end_date');
    expect(sending).not.toHaveProperty(SERVER_STATE);

    const again = await helper(h, 'POST', message, 'std:send_helper');
    expect(again.status).toBe(409);
    expect(codeOf(again.body)).toEqual(['MESSAGE_ALREADY_SENDING']);
    const schedule = await helper(h, 'POST', message, 'std:schedule_helper', {
      scheduled_start_date: inSeconds(60),
    });
    expect(schedule.status).toBe(409);
    expect(codeOf(schedule.body)).toEqual(['MESSAGE_ALREADY_SENDING']);
    const unschedule = await helper(h, 'DELETE', message, 'std:schedule_helper');
    expect(unschedule.status).toBe(409);
    expect(codeOf(unschedule.body)).toEqual(['MESSAGE_NOT_SCHEDULED']);

    // Mid-send: 1.5 s of the 3 s that 3 recipients at 1 a second take.
    later(1500);
    const stop = await helper(h, 'DELETE', message, 'std:send_helper');
    expect(stop.status).toBe(200);
    expect(stop.body.notice).toBe('Sending stopped: 1 of 3 recipients reached');
    const stopped = await read(h, message);
    expect(stopped.status).toBe('stopped');
    expect(stopped.total_targeted).toBe(3);
    expect(stopped.total_sent).toBe(1);
    expect(stopped.sent_start_date).toBe(sending.sent_start_date);
    expect(Date.parse(stopped.sent_end_date)).toBe(Date.parse(sending.sent_start_date) + 1500);
    // Frozen: later reads show the same counts, long after the send would have ended.
    later(10_000);
    expect(await read(h, message)).toEqual(stopped);

    const stopAgain = await helper(h, 'DELETE', message, 'std:send_helper');
    expect(stopAgain.status).toBe(409);
    expect(codeOf(stopAgain.body)).toEqual(['MESSAGE_NOT_SENDING']);
    for (const [method, rel] of [
      ['POST', 'std:send_helper'],
      ['POST', 'std:schedule_helper'],
    ]) {
      const res = await helper(
        h,
        method as string,
        message,
        rel as string,
        rel === 'std:schedule_helper' ? { scheduled_start_date: inSeconds(60) } : undefined,
      );
      expect(res.status, `${method} ${rel}`).toBe(409);
      expect(codeOf(res.body)).toEqual(['MESSAGE_ALREADY_SENT']);
    }
  });

  it('finishes sending with time: total_sent grows, then sent with sent_end_date', async () => {
    const h = harness({ messageSendRate: 10 });
    const { message } = await setUp(h);
    await helper(h, 'POST', message, 'std:send_helper');
    const early = await read(h, message);
    expect(early.status).toBe('sending');
    expect(early.total_sent).toBe(0);
    later(150);
    const halfway = await read(h, message);
    expect(halfway.status).toBe('sending');
    expect(halfway.total_sent).toBe(1);
    later(250); // 3 recipients at 10 a second take 300 ms
    const done = await read(h, message);
    expect(done.status).toBe('sent');
    expect(done.total_sent).toBe(3);
    expect(Date.parse(done.sent_end_date) - Date.parse(done.sent_start_date)).toBe(300);
    // Collections render the same view.
    const page = await h.json('GET', '/api/v1/messages');
    expect(page.body._embedded['std:messages'][0].status).toBe('sent');

    const resend = await helper(h, 'POST', message, 'std:send_helper');
    expect(resend.status).toBe(409);
    expect(codeOf(resend.body)).toEqual(['MESSAGE_ALREADY_SENT']);
    const stop = await helper(h, 'DELETE', message, 'std:send_helper');
    expect(stop.status).toBe(409);
    expect(codeOf(stop.body)).toEqual(['MESSAGE_NOT_SENDING']);
  });

  it('refuses to send without a target, to an empty list, or without a body', async () => {
    const h = harness();
    const { list } = await setUp(h);
    const noTarget = await create(h, 'messages', { subject: 'Hi', body: 'Hello' });
    const res = await helper(h, 'POST', noTarget, 'std:send_helper');
    expect(res.status).toBe(400);
    expect(codeOf(res.body)).toEqual(['MESSAGE_HAS_NO_TARGETS']);
    expect(res.body['std:error'].resource_status[0].resource).toBe('std:message');

    const empty = await create(h, 'lists', { name: 'Nobody yet' });
    const toEmpty = await create(h, 'messages', {
      body: 'Hello',
      _links: { 'std:list': link(empty) },
    });
    const emptyRes = await helper(h, 'POST', toEmpty, 'std:send_helper');
    expect(emptyRes.status).toBe(400);
    expect(codeOf(emptyRes.body)).toEqual(['MESSAGE_HAS_NO_TARGETS']);

    const noBody = await create(h, 'messages', {
      subject: 'Hi',
      body: '   ',
      _links: { 'std:list': link(list) },
    });
    const noBodyRes = await helper(h, 'POST', noBody, 'std:send_helper');
    expect(noBodyRes.status).toBe(400);
    expect(codeOf(noBodyRes.body)).toEqual(['MESSAGE_INCOMPLETE']);

    // Both problems at once are reported together.
    const bare = await create(h, 'messages', { subject: 'Nothing else' });
    const bareRes = await helper(h, 'POST', bare, 'std:send_helper');
    expect(codeOf(bareRes.body).sort()).toEqual(['MESSAGE_HAS_NO_TARGETS', 'MESSAGE_INCOMPLETE']);

    // Nothing was stored by the refusals.
    for (const message of [noTarget, toEmpty, noBody, bare]) {
      expect((await read(h, message)).status).toBe('draft');
    }
  });

  it('targets the people a query selects, and a list plus a query counts each person once', async () => {
    const h = harness({ messageSendRate: 1 });
    const { people, list } = await setUp(h, 2);
    const one = await create(h, 'queries', {
      name: 'P3 only',
      filter: "email_address eq 'P3@example.org'",
    });
    const listed = await create(h, 'queries', {
      name: 'P1 only',
      filter: "email_address eq 'p1@example.org'",
    });
    const everyone = await create(h, 'queries', { name: 'Everyone' });
    const cases: [Json, number][] = [
      [{ 'std:query': link(one) }, 1],
      [{ 'std:query': link(everyone) }, people.length],
      [{ 'std:list': link(list), 'std:query': link(one) }, 3],
      [{ 'std:list': link(list), 'std:query': link(listed) }, 2],
    ];
    for (const [links, expected] of cases) {
      const message = await create(h, 'messages', { body: 'Hello', _links: links });
      const res = await helper(h, 'POST', message, 'std:send_helper');
      expect(res.status, JSON.stringify(links)).toBe(200);
      expect((await read(h, message)).total_targeted, JSON.stringify(links)).toBe(expected);
    }
    const nobody = await create(h, 'queries', {
      name: 'Nobody',
      filter: "email_address eq 'nobody@example.org'",
    });
    const message = await create(h, 'messages', {
      body: 'Hello',
      _links: { 'std:query': link(nobody) },
    });
    const res = await helper(h, 'POST', message, 'std:send_helper');
    expect(res.status).toBe(400);
    expect(codeOf(res.body)).toEqual(['MESSAGE_HAS_NO_TARGETS']);
  });

  it('schedules, reschedules, cancels and sends a scheduled message', async () => {
    const h = harness({ messageSendRate: 1 });
    const { message } = await setUp(h);
    const start = inSeconds(3600);
    const scheduled = await helper(h, 'POST', message, 'std:schedule_helper', {
      scheduled_start_date: start,
    });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.notice).toBe(`Scheduled to start at ${start}: 3 recipients`);
    let current = await read(h, message);
    expect(current.status).toBe('scheduled');
    expect(current.scheduled_start_date).toBe(start);
    expect(current.total_targeted).toBe(3);
    expect(current).not.toHaveProperty('sent_start_date');

    // The sample's spelling scheduled_end_date is accepted, with an offset too.
    const later = new Date(Date.now() + 7200_000);
    later.setUTCMilliseconds(0);
    const end = new Date(later.getTime() + 3600_000);
    const offset = (date: Date) => date.toISOString().replace(/\.000Z$/, '+00:00');
    const rescheduled = await helper(h, 'POST', message, 'std:schedule_helper', {
      scheduled_start_date: offset(later),
      scheduled_end_date: offset(end),
    });
    expect(rescheduled.status).toBe(200);
    expect(rescheduled.body.notice).toContain(`and stop at ${end.toISOString()}`);
    current = await read(h, message);
    expect(current.status).toBe('scheduled');
    expect(current.scheduled_start_date).toBe(later.toISOString());
    expect(current.scheduled_stop_date).toBe(end.toISOString());

    const cancel = await helper(h, 'DELETE', message, 'std:schedule_helper');
    expect(cancel.status).toBe(200);
    expect(cancel.body).toEqual({ notice: 'Schedule cancelled: the message is a draft again' });
    current = await read(h, message);
    expect(current.status).toBe('draft');
    expect(current).not.toHaveProperty('scheduled_start_date');
    expect(current).not.toHaveProperty('total_targeted');

    const cancelAgain = await helper(h, 'DELETE', message, 'std:schedule_helper');
    expect(cancelAgain.status).toBe(409);
    expect(codeOf(cancelAgain.body)).toEqual(['MESSAGE_NOT_SCHEDULED']);
    const stopDraft = await helper(h, 'DELETE', message, 'std:send_helper');
    expect(stopDraft.status).toBe(409);
    expect(codeOf(stopDraft.body)).toEqual(['MESSAGE_NOT_SENDING']);

    // Scheduled, then sent at once: the schedule is replaced.
    await helper(h, 'POST', message, 'std:schedule_helper', { scheduled_start_date: start });
    const send = await helper(h, 'POST', message, 'std:send_helper');
    expect(send.status).toBe(200);
    expect(send.body.notice).toContain('(the schedule is replaced)');
    current = await read(h, message);
    expect(current.status).toBe('sending');
    expect(current).not.toHaveProperty('scheduled_start_date');
  });

  it('refuses a schedule in the past, a bad body, and one without targets', async () => {
    const h = harness();
    const { message } = await setUp(h);
    const past = await helper(h, 'POST', message, 'std:schedule_helper', {
      scheduled_start_date: inSeconds(-60),
    });
    expect(past.status).toBe(400);
    expect(codeOf(past.body)).toEqual(['SCHEDULE_IN_PAST']);
    expect(errorOf(past.body)[0]?.properties).toEqual(['scheduled_start_date']);

    const backwards = await helper(h, 'POST', message, 'std:schedule_helper', {
      scheduled_start_date: inSeconds(120),
      scheduled_stop_date: inSeconds(60),
    });
    expect(backwards.status).toBe(400);
    expect(codeOf(backwards.body)).toEqual(['START_DATE_AFTER_END_DATE']);

    const missing = await helper(h, 'POST', message, 'std:schedule_helper', {});
    expect(missing.status).toBe(400);
    expect(codeOf(missing.body)).toEqual(['INVALID_PROPERTY']);
    const unknown = await helper(h, 'POST', message, 'std:schedule_helper', {
      scheduled_start_date: inSeconds(60),
      when: 'soon',
    });
    expect(unknown.status).toBe(400);
    expect(codeOf(unknown.body)).toEqual(['UNKNOWN_PROPERTY']);
    const empty = await h.json('POST', href(message, 'std:schedule_helper'));
    expect(empty.status).toBe(400);
    expect(codeOf(empty.body)).toEqual(['INVALID_BODY']);

    const noTarget = await create(h, 'messages', { body: 'Hello' });
    const res = await helper(h, 'POST', noTarget, 'std:schedule_helper', {
      scheduled_start_date: inSeconds(60),
    });
    expect(res.status).toBe(400);
    expect(codeOf(res.body)).toEqual(['MESSAGE_HAS_NO_TARGETS']);
    expect((await read(h, message)).status).toBe('draft');
  });

  it('starts a scheduled message at its start, and stops it at its scheduled stop', async () => {
    const h = harness({ messageSendRate: 1 });
    const { message } = await setUp(h);
    const start = new Date(Date.now() + 800);
    const stop = new Date(start.getTime() + 1500);
    const res = await helper(h, 'POST', message, 'std:schedule_helper', {
      scheduled_start_date: start.toISOString(),
      scheduled_stop_date: stop.toISOString(),
    });
    expect(res.status).toBe(200);
    later(799);
    expect((await read(h, message)).status).toBe('scheduled');
    vi.setSystemTime(start.getTime() + 50);
    const sending = await read(h, message);
    expect(sending.status).toBe('sending');
    expect(sending.sent_start_date).toBe(start.toISOString());
    expect(sending.total_sent).toBe(0);
    // No longer scheduled: its schedule cannot be cancelled, only the send stopped.
    const cancel = await helper(h, 'DELETE', message, 'std:schedule_helper');
    expect(cancel.status).toBe(409);
    expect(codeOf(cancel.body)).toEqual(['MESSAGE_NOT_SCHEDULED']);
    vi.setSystemTime(stop.getTime() + 50);
    const stopped = await read(h, message);
    expect(stopped.status).toBe('stopped');
    expect(stopped.total_sent).toBe(1); // 1.5 s at 1 a second
    expect(stopped.sent_end_date).toBe(stop.toISOString());
  });

  it('keeps the sending state through client updates, which cannot set it', async () => {
    const h = harness({ messageSendRate: 1 });
    const { message } = await setUp(h);
    await helper(h, 'POST', message, 'std:send_helper');
    const updated = await h.json('PUT', href(message), {
      body: { subject: 'Changed', status: 'draft', total_sent: 99 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.subject).toBe('Changed');
    expect(updated.body.status).toBe('sending');
    expect(updated.body.total_targeted).toBe(3);
    const smuggled = await h.json('PUT', href(message), {
      body: { [SERVER_STATE]: { status: 'draft' } },
    });
    expect(smuggled.status).toBe(400);
    expect((await read(h, message)).status).toBe('sending');
  });

  it("needs a write key, finds only the tenant's messages, and answers 405 to other methods", async () => {
    const h = harness();
    const { message } = await setUp(h);
    const send = href(message, 'std:send_helper');
    expect((await h.json('POST', send, { key: READ })).status).toBe(403);
    expect((await h.json('DELETE', send, { key: READ })).status).toBe(403);
    expect((await h.json('POST', send, { key: null })).status).toBe(401);
    const foreign = await h.json('POST', send, { key: OTHER });
    expect(foreign.status).toBe(404);
    const foreignSchedule = await h.json('POST', href(message, 'std:schedule_helper'), {
      key: OTHER,
      body: { scheduled_start_date: 'not a date' },
    });
    expect(foreignSchedule.status).toBe(404);
    const missing = await h.json(
      'POST',
      '/api/v1/messages/00000000-0000-0000-0000-000000000000/send',
    );
    expect(missing.status).toBe(404);
    expect(codeOf(missing.body)).toEqual(['NOT_FOUND']);
    for (const path of [send, href(message, 'std:schedule_helper')]) {
      const res = await h.json('GET', path);
      expect(res.status).toBe(405);
      expect(res.res.headers.get('allow')).toBe('POST, DELETE');
      expect((await h.json('PUT', path, { body: {} })).status).toBe(405);
    }
    expect((await read(h, message)).status).toBe('draft');
  });
});

describe('messageProgress', () => {
  const at = (iso: string) => new Date(iso);
  const sending: SendState = {
    status: 'sending',
    total_targeted: 100,
    send_rate: 10,
    sent_start_date: '2026-05-01T09:00:00.000Z',
  };

  it('is a draft without a state', () => {
    expect(messageProgress(undefined, new Date())).toEqual({ status: 'draft' });
  });

  it('counts recipients reached at the send rate, then is sent', () => {
    expect(messageProgress(sending, at('2026-05-01T09:00:00.000Z'))).toEqual({
      status: 'sending',
      total_targeted: 100,
      total_sent: 0,
      sent_start_date: '2026-05-01T09:00:00.000Z',
    });
    expect(messageProgress(sending, at('2026-05-01T09:00:04.550Z')).total_sent).toBe(45);
    expect(messageProgress(sending, at('2026-05-01T09:00:09.999Z'))).toMatchObject({
      status: 'sending',
      total_sent: 99,
    });
    const sent = {
      status: 'sent',
      total_targeted: 100,
      total_sent: 100,
      sent_start_date: '2026-05-01T09:00:00.000Z',
      sent_end_date: '2026-05-01T09:00:10.000Z',
    };
    expect(messageProgress(sending, at('2026-05-01T09:00:10.000Z'))).toEqual(sent);
    expect(messageProgress(sending, at('2027-01-01T00:00:00.000Z'))).toEqual(sent);
  });

  it('waits for a scheduled start, then sends, and stops at the scheduled stop', () => {
    const scheduled: SendState = {
      status: 'scheduled',
      total_targeted: 100,
      send_rate: 10,
      scheduled_start_date: '2026-05-01T09:00:00.000Z',
      scheduled_stop_date: '2026-05-01T09:00:05.000Z',
    };
    expect(messageProgress(scheduled, at('2026-05-01T08:59:59.999Z'))).toEqual({
      status: 'scheduled',
      total_targeted: 100,
      scheduled_start_date: '2026-05-01T09:00:00.000Z',
      scheduled_stop_date: '2026-05-01T09:00:05.000Z',
    });
    expect(messageProgress(scheduled, at('2026-05-01T09:00:02.000Z'))).toMatchObject({
      status: 'sending',
      total_sent: 20,
      sent_start_date: '2026-05-01T09:00:00.000Z',
    });
    expect(messageProgress(scheduled, at('2026-05-01T09:00:05.000Z'))).toMatchObject({
      status: 'stopped',
      total_sent: 50,
      sent_end_date: '2026-05-01T09:00:05.000Z',
    });
    // A stop after everyone is reached changes nothing: the message is sent.
    const roomy = { ...scheduled, scheduled_stop_date: '2026-05-01T10:00:00.000Z' };
    expect(messageProgress(roomy, at('2026-05-01T11:00:00.000Z'))).toMatchObject({
      status: 'sent',
      total_sent: 100,
      sent_end_date: '2026-05-01T09:00:10.000Z',
    });
  });

  it('shows frozen states as stored', () => {
    const stopped: SendState = {
      ...sending,
      status: 'stopped',
      total_sent: 12,
      sent_end_date: '2026-05-01T09:00:01.200Z',
    };
    expect(messageProgress(stopped, at('2030-01-01T00:00:00Z'))).toEqual({
      status: 'stopped',
      total_targeted: 100,
      total_sent: 12,
      sent_start_date: '2026-05-01T09:00:00.000Z',
      sent_end_date: '2026-05-01T09:00:01.200Z',
    });
  });

  it('renders through messageView without the stored state', () => {
    const doc = { subject: 'Hi', [SERVER_STATE]: sending };
    expect(messageView(doc, at('2026-05-01T09:00:01.000Z'))).toEqual({
      subject: 'Hi',
      status: 'sending',
      total_targeted: 100,
      total_sent: 10,
      sent_start_date: '2026-05-01T09:00:00.000Z',
    });
    // A state this version cannot read shows as a draft rather than failing the read.
    expect(messageView({ subject: 'Hi', [SERVER_STATE]: { status: 'odd' } }, new Date())).toEqual({
      subject: 'Hi',
      status: 'draft',
    });
  });
});

describe('actOnMessage', () => {
  it('acts at the moment given', async () => {
    const h = harness();
    const { message } = await setUp(h);
    const tenant = await h.storage.tenants.get('acme');
    if (!tenant) throw new Error('no tenant');
    const service = new RecordService(h.storage, defaultRegistry());
    const id = href(message).split('/').pop() ?? '';
    const now = new Date('2020-01-01T00:00:00.000Z');
    expect(await actOnMessage(service, tenant, id, { type: 'send' }, { sendRate: 1, now })).toBe(
      'Sending started: 3 recipients at 1 per second',
    );
    // Long since sent, seen from today.
    const body = await read(h, message);
    expect(body.status).toBe('sent');
    expect(body.sent_start_date).toBe('2020-01-01T00:00:00.000Z');
    expect(body.sent_end_date).toBe('2020-01-01T00:00:03.000Z');
  });
});
