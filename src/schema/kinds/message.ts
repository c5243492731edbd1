import * as z from 'zod/mini';
import { taggedFields } from '../content-fields.js';
import {
  commonFields,
  datetime,
  flexenum,
  integer,
  type Mode,
  object,
  optional,
  outsideSpec,
  preprocess,
} from '../fields.js';
import { defineKind, noticeHelper, one } from '../kind.js';
import { addRuleIssue, RuleCode } from '../rules.js';
import { emailText } from '../shared.js';
import { closedObject, type VendorMembers } from '../vendor.js';

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
    reply_to: optional(emailText(mode)),
    type: optional(flexenum(['email', 'sms'])),
    /**
     * Who the message goes to, as links (`{ href }`) to queries or lists: Action
     * Network's way of targeting a message, beside the `std:list` and `std:query` links.
     */
    targets: optional(outsideSpec(z.array(object({ href: optional(z.string()) }, mode)), mode)),
    ...taggedFields(mode),
  };
}

/** Copies the sample's spelling `scheduled_end_date` into `scheduled_stop_date`. */
function readScheduledEndDate(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (record.scheduled_stop_date != null || record.scheduled_end_date == null) return value;
  return { ...record, scheduled_stop_date: record.scheduled_end_date };
}

/** The message kind as declared: its read schema gets `readScheduledEndDate` below. */
const messageDeclaration = defineKind({
  singular: 'message',
  plural: 'messages',
  description: 'An email or SMS message sent to people through its send and schedule helpers',
  shape: messageShape,
  /**
   * What the send and schedule helpers set and the server counts: read-only, so a
   * message is scheduled or sent only through its helpers. Dates are read as any string,
   * like the common dates.
   */
  computed: {
    status: optional(flexenum(MESSAGE_STATUSES)),
    scheduled_start_date: optional(z.string()),
    scheduled_stop_date: optional(z.string()),
    sent_start_date: optional(z.string()),
    sent_end_date: optional(z.string()),
    total_targeted: optional(integer('read')),
    total_sent: optional(integer('read')),
    /** Counts the sending system reports (Action Network: sent, opened, clicked, …). */
    statistics: optional(z.record(z.string(), z.unknown())),
  },
  relations: {
    /** The person who created the message (`std:creator`), when the server records one. */
    creator: one('person'),
    /**
     * The person who last changed the message (`std:modified_by`), when the server
     * records one.
     */
    modifiedBy: one('person'),
    /** The wrapper (header and footer) the message is sent in (`std:wrapper`), if any. */
    wrapper: one('wrapper'),
    /** The list the message is sent to (`std:list`), if it targets a list. */
    list: one('list'),
    /** The query selecting the message's recipients (`std:query`), if it targets one. */
    query: one('query'),
  },
  helpers: {
    /**
     * Starts sending the message now (POST to its `std:send_helper`): a draft or
     * scheduled message becomes `sending`. Resolves with the server's notice. The server
     * refuses with an HTTPError a message without a target or recipient (400
     * `MESSAGE_HAS_NO_TARGETS`), without its text (400 `MESSAGE_INCOMPLETE`), or already
     * sent or sending (409). Call `refresh()` to read the new status.
     */
    send: noticeHelper('send_helper', 'POST'),
    /**
     * Stops a message that is being sent (DELETE on its `std:send_helper`): `sending`
     * becomes `stopped`. Any other state is refused with an HTTPError (409
     * `MESSAGE_NOT_SENDING`).
     */
    stopSending: noticeHelper('send_helper', 'DELETE'),
    /**
     * Schedules the message (POST to its `std:schedule_helper`): a draft or scheduled
     * message becomes `scheduled`, to start at `scheduled_start_date` and, optionally,
     * stop at `scheduled_stop_date` (`scheduled_end_date` is accepted and sent as the
     * stop). The input is checked first (a SchemaValidationError, no request). The server
     * refuses a start in the past (400 `SCHEDULE_IN_PAST`), a message without targets,
     * and one already sending or sent (409).
     */
    schedule: noticeHelper('schedule_helper', 'POST', 'messageSchedule'),
    /**
     * Cancels the schedule (DELETE on its `std:schedule_helper`): `scheduled` becomes
     * `draft` again. Any other state is refused with an HTTPError (409
     * `MESSAGE_NOT_SCHEDULED`).
     */
    cancelSchedule: noticeHelper('schedule_helper', 'DELETE'),
  },
});

/**
 * The message kind: an email or SMS message, sent and scheduled through its helpers.
 * Read with `schema` (unknown members kept, `status` and `type` open, counts as numbers
 * or numeric strings; a server that spells the stop date `scheduled_end_date`, as the
 * spec's sample does, is read into `scheduled_stop_date` too); sent with `writeSchema`
 * (no unknown plain members, vendor `<prefix>:<name>` members pass; the status,
 * schedule and send dates and totals are accepted and ignored: the send and schedule
 * helpers set them); the reference server checks `strictSchema` (`reply_to` an email
 * address).
 *
 * @example
 * ```ts
 * import { messageKind } from 'adis-sdk/schema';
 *
 * messageKind.schema.parse({ status: 'scheduled', scheduled_end_date: '2026-05-02T00:00:00Z' })
 *   .scheduled_stop_date; // '2026-05-02T00:00:00Z'
 * messageKind.writeSchema.parse({
 *   name: 'May newsletter',
 *   subject: 'Park clean-up on Saturday',
 *   body: '<p>Bring gloves!</p>',
 *   from: 'Friends of the Park <news@example.org>',
 *   reply_to: 'news@example.org',
 *   type: 'email',
 * });
 * ```
 */
export const messageKind = {
  singular: messageDeclaration.singular,
  plural: messageDeclaration.plural,
  description: messageDeclaration.description,
  schema: preprocess(readScheduledEndDate, messageDeclaration.schema),
  writeSchema: messageDeclaration.writeSchema,
  // Not a spread: that would call the lazy getter and build the server's schema at import.
  /** What the reference server accepts (see `defineKind`). Built on first use. */
  get strictSchema() {
    return messageDeclaration.strictSchema;
  },
  /** What the reference server accepts under a real server's preset. Built on first use. */
  get extendedSchema() {
    return messageDeclaration.extendedSchema;
  },
  readOnly: messageDeclaration.readOnly,
  relations: messageDeclaration.relations,
  helpers: messageDeclaration.helpers,
};

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
 *
 * MessageScheduleSchema.parse({
 *   scheduled_start_date: '2026-05-01T09:00:00Z',
 *   scheduled_end_date: '2026-05-01T21:00:00Z',
 * });
 * // { scheduled_start_date: '2026-05-01T09:00:00Z', scheduled_stop_date: '2026-05-01T21:00:00Z' }
 * ```
 */
export const MessageScheduleSchema = z.pipe(
  closedObject({
    // A schedule is built by the caller, never read back: held to ISO 8601 (or a Date)
    // on both sides, so that the start and stop can be compared before sending.
    scheduled_start_date: datetime('strict'),
    scheduled_stop_date: z.optional(datetime('strict')),
    scheduled_end_date: z.optional(datetime('strict')),
  }).check(
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
 */
export type MessageSchedule = z.output<typeof MessageScheduleSchema>;

/**
 * A schedule helper body as a caller writes it, `scheduled_end_date` allowed. Derived
 * from {@link MessageScheduleSchema}.
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
 *
 * MessageNoticeSchema.parse({ notice: 'Message scheduled' }).notice; // 'Message scheduled'
 * ```
 */
export const MessageNoticeSchema = z.looseObject({ notice: optional(z.string()) });

/** The answer of a send or schedule helper. Derived from {@link MessageNoticeSchema}. */
export type MessageNotice = z.output<typeof MessageNoticeSchema>;

/** A message as read from a server: the output of `messageKind.schema`. */
export interface Message extends z.output<typeof messageKind.schema> {}
/** What a client sends to create or update a message: the input of `messageKind.writeSchema`. */
export interface MessageInput extends z.input<typeof messageKind.writeSchema>, VendorMembers {}
