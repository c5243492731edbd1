import * as z from 'zod/mini';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import {
  commonFields,
  datetime,
  flexenum,
  integer,
  type Mode,
  optional,
  preprocess,
  resourceSchemas,
} from './fields.js';
import { type ListResource, listKind } from './list.js';
import { type PersonResource, personKind } from './person-resource.js';
import { type QueryResource, queryKind } from './query.js';
import { addRuleIssue, RuleCode } from './rules.js';
import { type WrapperResource, wrapperKind } from './wrapper.js';

/**
 * The states of a message. The spec leaves them open; these follow its helper calls:
 * a new message is `draft`; the schedule helper (POST) makes it `scheduled` and its
 * DELETE makes it `draft` again; sending (by the send helper, or at the scheduled
 * start) makes it `sending`, then `sent` when all has gone out; DELETE on the send
 * helper while `sending` makes it `stopped`.
 */
export const MESSAGE_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'stopped'] as const;

/**
 * The message's writable fields. The spec shows none; these are what an email or SMS
 * tool keeps for a message: its administrative `name`, the `subject` and `body` sent,
 * who it is `from` (a display name and address, or an SMS sender, so any string), the
 * `reply_to` address and the channel (`type`, the wrapper types email and sms, open to
 * others).
 */
function messageShape(mode: Mode) {
  return {
    ...commonFields(mode),
    origin_system: optional(z.string()),
    name: optional(z.string()),
    subject: optional(z.string()),
    body: optional(z.string()),
    from: optional(z.string()),
    reply_to: optional(mode === 'write' ? z.email('must be an email address') : z.string()),
    type: optional(flexenum(['email', 'sms'])),
  };
}

/**
 * What the send and schedule helpers set and the server counts: read-only, so a
 * message is scheduled or sent only through its helpers. Dates are read as any string,
 * like the common dates.
 */
const messageSchemas = resourceSchemas(messageShape, {
  status: optional(flexenum(MESSAGE_STATUSES)),
  scheduled_start_date: optional(z.string()),
  scheduled_stop_date: optional(z.string()),
  sent_start_date: optional(z.string()),
  sent_end_date: optional(z.string()),
  total_targeted: optional(integer('read')),
  total_sent: optional(integer('read')),
});

/** Copies the sample's spelling `scheduled_end_date` into `scheduled_stop_date`. */
function readScheduledEndDate(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (record.scheduled_stop_date != null || record.scheduled_end_date == null) return value;
  return { ...record, scheduled_stop_date: record.scheduled_end_date };
}

/**
 * A message as the SDK reads it from any server: unknown members kept, `status` and
 * `type` open, counts as numbers or numeric strings. A server that spells the stop
 * date `scheduled_end_date` (as the spec's sample does) is read into
 * `scheduled_stop_date` too.
 *
 * @example
 * ```ts
 * import { MessageSchema } from 'adis-sdk';
 * const message = MessageSchema.parse({ status: 'scheduled', scheduled_end_date: '2026-05-02T00:00:00Z' });
 * message.scheduled_stop_date; // '2026-05-02T00:00:00Z'
 * ```
 */
export const MessageSchema = preprocess(readScheduledEndDate, messageSchemas.read);

/**
 * A message as a client sends it on create and update: `reply_to` an email address, no
 * unknown members. The status, schedule and send dates and totals are accepted and
 * ignored: the send and schedule helpers set them.
 *
 * @example
 * ```ts
 * import { MessageWriteSchema } from 'adis-sdk';
 * MessageWriteSchema.parse({
 *   name: 'May newsletter',
 *   subject: 'Park clean-up on Saturday',
 *   body: '<p>Bring gloves!</p>',
 *   from: 'Friends of the Park <news@example.org>',
 *   reply_to: 'news@example.org',
 *   type: 'email',
 * });
 * ```
 */
export const MessageWriteSchema = messageSchemas.write;

/**
 * Members of a message the server owns (status, schedule and send dates, totals, common
 * dates, HAL members): ignored on create and update.
 *
 * @example
 * ```ts
 * MESSAGE_READ_ONLY_FIELDS.includes('status'); // true
 * ```
 */
export const MESSAGE_READ_ONLY_FIELDS = messageSchemas.readOnly;

/**
 * A message read from a server. Derived from {@link MessageSchema}.
 *
 * @example
 * ```ts
 * if (message.data.status === 'sent') console.log(message.data.total_sent);
 * ```
 */
export type Message = z.output<typeof MessageSchema>;

/**
 * What a client sends to create or update a message. Derived from
 * {@link MessageWriteSchema}.
 *
 * @example
 * ```ts
 * const input: MessageInput = { subject: 'Thank you', body: 'We won!', type: 'email' };
 * ```
 */
export type MessageInput = z.input<typeof MessageWriteSchema>;

/**
 * The body of the schedule helper (POST `std:schedule_helper`): when sending starts
 * and, optionally, when it is to stop. The sample's spelling `scheduled_end_date` is
 * accepted and sent on as `scheduled_stop_date` (READING-NOTES.md); both at once must
 * agree. The stop must come after the start (`params.code`
 * `START_DATE_AFTER_END_DATE`, the spec's code for a start after an end, at
 * `scheduled_start_date`).
 *
 * @example
 * ```ts
 * import { MessageScheduleSchema } from 'adis-sdk';
 * MessageScheduleSchema.parse({
 *   scheduled_start_date: '2026-05-01T09:00:00Z',
 *   scheduled_end_date: '2026-05-01T21:00:00Z',
 * });
 * // { scheduled_start_date: '2026-05-01T09:00:00Z', scheduled_stop_date: '2026-05-01T21:00:00Z' }
 * ```
 */
export const MessageScheduleSchema = z.pipe(
  z
    .strictObject({
      scheduled_start_date: datetime('write'),
      scheduled_stop_date: z.optional(datetime('write')),
      scheduled_end_date: z.optional(datetime('write')),
    })
    .check(
      z.superRefine((body, ctx) => {
        // Compared as instants: the same time may be written with different offsets.
        const start = Date.parse(body.scheduled_start_date);
        const [stop, end] = [body.scheduled_stop_date, body.scheduled_end_date].map((date) =>
          date === undefined ? undefined : Date.parse(date),
        );
        if (stop !== undefined && end !== undefined && stop !== end) {
          ctx.addIssue({
            code: 'custom',
            message: 'scheduled_end_date is another name for scheduled_stop_date; send one of them',
            path: ['scheduled_end_date'],
          });
          return;
        }
        const until = stop ?? end;
        if (until !== undefined && until <= start) {
          addRuleIssue(ctx, {
            code: RuleCode.START_DATE_AFTER_END_DATE,
            message: 'scheduled_start_date must be before scheduled_stop_date',
            path: ['scheduled_start_date'],
            hint: 'schedule the stop after the start, or leave scheduled_stop_date out',
          });
        }
      }),
    ),
  z.transform(({ scheduled_end_date, scheduled_stop_date, ...rest }) => {
    const stop = scheduled_stop_date ?? scheduled_end_date;
    return stop === undefined ? rest : { ...rest, scheduled_stop_date: stop };
  }),
);

/**
 * A schedule helper body as sent: `scheduled_stop_date` is the only spelling of the
 * stop. Derived from {@link MessageScheduleSchema}.
 *
 * @example
 * ```ts
 * const body: MessageSchedule = { scheduled_start_date: '2026-05-01T09:00:00Z' };
 * ```
 */
export type MessageSchedule = z.output<typeof MessageScheduleSchema>;

/**
 * A schedule helper body as a caller writes it, `scheduled_end_date` allowed. Derived
 * from {@link MessageScheduleSchema}.
 *
 * @example
 * ```ts
 * const input: MessageScheduleInput = { scheduled_start_date: start, scheduled_stop_date: stop };
 * ```
 */
export type MessageScheduleInput = z.input<typeof MessageScheduleSchema>;

/**
 * The answer of the send and schedule helpers: a `notice` saying what happened. Read
 * leniently, since servers in the wild answer helpers with `{}` too: `notice` may be
 * missing, and other members are kept.
 *
 * @example
 * ```ts
 * import { MessageNoticeSchema } from 'adis-sdk';
 * MessageNoticeSchema.parse({ notice: 'Message scheduled' }).notice; // 'Message scheduled'
 * ```
 */
export const MessageNoticeSchema = z.looseObject({ notice: optional(z.string()) });

/**
 * The answer of a send or schedule helper. Derived from {@link MessageNoticeSchema}.
 *
 * @example
 * ```ts
 * const answer: MessageNotice = { notice: 'Sending stopped' };
 * ```
 */
export type MessageNotice = z.output<typeof MessageNoticeSchema>;

/**
 * A message read from a server, with a method per link relation of a message. Sending
 * and scheduling go through its helpers.
 *
 * @example
 * ```ts
 * const message = messageKind.wrap(context, document);
 * console.log(message.data.subject, message.data.status, (await message.list())?.data.name);
 * ```
 */
export class MessageResource extends Resource<Message, MessageInput> {
  /**
   * The person who created the message (`std:creator`), when the server records one.
   *
   * @example
   * ```ts
   * const writer = await message.creator();
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last changed the message (`std:modified_by`), when the server
   * records one.
   *
   * @example
   * ```ts
   * const reviewer = await message.modifiedBy();
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The wrapper (header and footer) the message is sent in (`std:wrapper`), if any.
   *
   * @example
   * ```ts
   * const footer = (await message.wrapper())?.data.footer;
   * ```
   */
  wrapper(options?: CallOptions): Promise<WrapperResource | undefined> {
    return this.optionalLinkedResource(wrapperKind, 'std:wrapper', options);
  }

  /**
   * The list the message is sent to (`std:list`), if it targets a list.
   *
   * @example
   * ```ts
   * const audience = await message.list();
   * ```
   */
  list(options?: CallOptions): Promise<ListResource | undefined> {
    return this.optionalLinkedResource(listKind, 'std:list', options);
  }

  /**
   * The query selecting the message's recipients (`std:query`), if it targets one.
   *
   * @example
   * ```ts
   * const selection = (await message.query())?.data.filter;
   * ```
   */
  query(options?: CallOptions): Promise<QueryResource | undefined> {
    return this.optionalLinkedResource(queryKind, 'std:query', options);
  }

  /**
   * Starts sending the message now (POST to its `std:send_helper`): a draft or
   * scheduled message becomes `sending`. Resolves with the server's notice. The server
   * refuses with an HTTPError a message without a target or recipient (400
   * `MESSAGE_HAS_NO_TARGETS`), without its text (400 `MESSAGE_INCOMPLETE`), or already
   * sent or sending (409). Call `refresh()` to read the new status.
   *
   * @example
   * ```ts
   * const { notice } = await message.send();
   * console.log(notice, (await message.refresh()).data.status); // 'sending'
   * ```
   */
  send(options: CallOptions = {}): Promise<MessageNotice> {
    return this.#helper('POST', 'std:send_helper', undefined, options);
  }

  /**
   * Stops a message that is being sent (DELETE on its `std:send_helper`): `sending`
   * becomes `stopped`. Any other state is refused with an HTTPError (409
   * `MESSAGE_NOT_SENDING`).
   *
   * @example
   * ```ts
   * await message.stopSending();
   * ```
   */
  stopSending(options: CallOptions = {}): Promise<MessageNotice> {
    return this.#helper('DELETE', 'std:send_helper', undefined, options);
  }

  /**
   * Schedules the message (POST to its `std:schedule_helper`): a draft or scheduled
   * message becomes `scheduled`, to start at `scheduled_start_date` and, optionally,
   * stop at `scheduled_stop_date` (`scheduled_end_date` is accepted and sent as the
   * stop). The input is checked first (a SchemaValidationError, no request). The server
   * refuses a start in the past (400 `SCHEDULE_IN_PAST`), a message without targets,
   * and one already sending or sent (409).
   *
   * @example
   * ```ts
   * await message.schedule({
   *   scheduled_start_date: '2026-05-01T09:00:00Z',
   *   scheduled_stop_date: '2026-05-01T21:00:00Z',
   * });
   * ```
   */
  schedule(input: MessageScheduleInput, options: CallOptions = {}): Promise<MessageNotice> {
    return this.#helper('POST', 'std:schedule_helper', input, options);
  }

  /**
   * Cancels the schedule (DELETE on its `std:schedule_helper`): `scheduled` becomes
   * `draft` again. Any other state is refused with an HTTPError (409
   * `MESSAGE_NOT_SCHEDULED`).
   *
   * @example
   * ```ts
   * await message.cancelSchedule();
   * ```
   */
  cancelSchedule(options: CallOptions = {}): Promise<MessageNotice> {
    return this.#helper('DELETE', 'std:schedule_helper', undefined, options);
  }

  /** Calls a send or schedule helper and reads its notice (`{}` reads as no notice). */
  async #helper(
    method: 'POST' | 'DELETE',
    rel: string,
    input: MessageScheduleInput | undefined,
    options: CallOptions,
  ): Promise<MessageNotice> {
    const url = this.requireLink(rel).url();
    const body =
      input === undefined ? undefined : this.context.parse(MessageScheduleSchema, input, url, rel);
    const { document } = await this.context.send(method, url, body, options);
    return this.context.parse(MessageNoticeSchema, document?.properties ?? {}, url, 'notice');
  }
}

/**
 * The message kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const messages = new Collection(context, locate, messageKind);
 * ```
 */
export const messageKind: ResourceKind<Message, MessageInput, MessageResource> = {
  singular: 'message',
  plural: 'messages',
  schema: MessageSchema,
  writeSchema: MessageWriteSchema,
  wrap: (context, document) => new MessageResource(context, document, messageKind),
};
