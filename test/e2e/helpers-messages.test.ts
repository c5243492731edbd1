import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isSchemaValidationError,
  type ListResource,
  linkTo,
  type MessageInput,
  type MessageResource,
} from '../../src/index.js';
import { httpError, problems } from './fixtures.js';
import { type HelperFixture, startHelperFixture, uniqueEmail } from './helpers-fixture.js';

// The message helpers against the reference server: send, stop, schedule and cancel,
// the refusals of each state, and keys that may not call them.

let f: HelperFixture;
let list: ListResource;

beforeAll(async () => {
  // One recipient a second, so that a message to the list's five people is still
  // sending seconds later, when the test stops it.
  f = await startHelperFixture({ messageSendRate: 1 });
  list = await f.client.lists.create({ name: 'Phone tree' });
  for (const name of ['Ana', 'Bo', 'Cy', 'Di', 'Ed']) {
    const person = await f.client.people.create({
      given_name: name,
      email_addresses: [{ address: uniqueEmail(name), primary: true }],
    });
    await f.client.items.create({
      _links: { 'std:list': linkTo(list), 'std:person': linkTo(person) },
    });
  }
});
afterAll(() => f.server.close());

function newMessage(fields: Partial<MessageInput> = {}): Promise<MessageResource> {
  return f.client.messages.create({
    name: 'Hearing alert',
    subject: 'Come to the hearing',
    body: 'Thursday 6pm',
    type: 'email',
    _links: { 'std:list': linkTo(list) },
    ...fields,
  });
}

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const codes = async (call: Promise<unknown>, status: number) =>
  problems(await httpError(call, status)).map((p) => p.code);

describe('send and stopSending', () => {
  it('sends a draft, refuses to send it twice, and stops it', async () => {
    const message = await newMessage();
    expect(message.data.status).toBe('draft');
    const sent = await message.send();
    expect(sent.notice).toEqual(expect.any(String));
    expect((await message.refresh()).data.status).toBe('sending');
    expect(await codes(message.send(), 409)).toEqual([
      expect.stringMatching(/^MESSAGE_ALREADY_SEN(T|DING)$/),
    ]);
    const stopped = await message.stopSending();
    expect(stopped.notice).toEqual(expect.any(String));
    expect((await message.refresh()).data.status).toBe('stopped');
    expect(await codes(message.stopSending(), 409)).toEqual(['MESSAGE_NOT_SENDING']);
    expect(await codes(message.send(), 409)).toEqual([
      expect.stringMatching(/^MESSAGE_ALREADY_SEN(T|DING)$/),
    ]);
  });

  it("a job's own Idempotency-Key: the job run again gets the first answer, not a 409", async () => {
    const message = await newMessage();
    const first = await message.send({ idempotencyKey: 'send-job-1' });
    const again = await message.send({ idempotencyKey: 'send-job-1' });
    expect(again).toEqual(first);
    // Without the key, the second send is the conflict it is.
    expect(await codes(message.send({ idempotencyKey: false }), 409)).toEqual([
      expect.stringMatching(/^MESSAGE_ALREADY_SEN(T|DING)$/),
    ]);
    await message.stopSending();
  });

  it('refuses a message without targets or without its text', async () => {
    const untargeted = await newMessage({ _links: {} });
    expect(await codes(untargeted.send(), 400)).toEqual(['MESSAGE_HAS_NO_TARGETS']);
    const empty = await newMessage({ body: null });
    expect(await codes(empty.send(), 400)).toEqual(['MESSAGE_INCOMPLETE']);
    expect((await empty.refresh()).data.status).toBe('draft');
  });

  it('refuses to stop a draft', async () => {
    const message = await newMessage();
    expect(await codes(message.stopSending(), 409)).toEqual(['MESSAGE_NOT_SENDING']);
  });
});

describe('schedule and cancelSchedule', () => {
  it('schedules a draft, moves the schedule, and cancels it back to draft', async () => {
    const message = await newMessage();
    const start = inHours(24);
    await message.schedule({ scheduled_start_date: start, scheduled_end_date: inHours(30) });
    const scheduled = await message.refresh();
    expect(scheduled.data.status).toBe('scheduled');
    expect(Date.parse(scheduled.data.scheduled_start_date ?? '')).toBe(Date.parse(start));
    expect(scheduled.data.scheduled_stop_date).toEqual(expect.any(String));
    // A scheduled message may be scheduled again.
    await message.schedule({ scheduled_start_date: inHours(48) });
    expect((await message.refresh()).data.status).toBe('scheduled');
    const cancelled = await message.cancelSchedule();
    expect(cancelled.notice).toEqual(expect.any(String));
    expect((await message.refresh()).data.status).toBe('draft');
    expect(await codes(message.cancelSchedule(), 409)).toEqual(['MESSAGE_NOT_SCHEDULED']);
  });

  it('refuses a start in the past (server) and a stop before the start (SDK, no request)', async () => {
    const message = await newMessage();
    expect(await codes(message.schedule({ scheduled_start_date: inHours(-1) }), 400)).toEqual([
      'SCHEDULE_IN_PAST',
    ]);
    const error = await message
      .schedule({ scheduled_start_date: inHours(5), scheduled_stop_date: inHours(4) })
      .catch((e: unknown) => e);
    expect(isSchemaValidationError(error)).toBe(true);
    expect((await message.refresh()).data.status).toBe('draft');
  });

  it('refuses to schedule a message that is sending, or one without targets', async () => {
    const sending = await newMessage();
    await sending.send();
    expect(await codes(sending.schedule({ scheduled_start_date: inHours(2) }), 409)).not.toEqual(
      [],
    );
    const untargeted = await newMessage({ _links: {} });
    expect(await codes(untargeted.schedule({ scheduled_start_date: inHours(2) }), 400)).toEqual([
      'MESSAGE_HAS_NO_TARGETS',
    ]);
  });
});

describe('keys', () => {
  it('a read-only key may not call the message helpers (403)', async () => {
    const message = await newMessage();
    const read = await f.reader.messages.get(message.url);
    await httpError(read.send(), 403);
    await httpError(read.schedule({ scheduled_start_date: inHours(2) }), 403);
    await httpError(read.cancelSchedule(), 403);
    expect((await message.refresh()).data.status).toBe('draft');
  });
});
