// The events `parseWebhook` makes of a delivery: one per element of the POSTed array, a
// union discriminated by `type`. Types only (the record types come from the schema layer
// as types: nothing of zod is loaded by naming them).

import type { Attendance } from '../schema/kinds/attendance.js';
import type { Canvass } from '../schema/kinds/canvass.js';
import type { Donation } from '../schema/kinds/donation.js';
import type { Outreach } from '../schema/kinds/outreach.js';
import type { Person } from '../schema/kinds/person.js';
import type { Signature } from '../schema/kinds/signature.js';
import type { Submission } from '../schema/kinds/submission.js';

/**
 * The members a sender puts in an event's record beside the record's own: the person as
 * they gave themselves (`person`), the tags the action added (`add_tags`) and the links.
 */
export interface WebhookRecordMembers {
  /** The person who acted, as sent: Action Network sends only what they typed in. */
  person?: Person;
  /** Tags the action added to the person's record (or tried to). */
  add_tags?: string[];
  /** The record's HAL links (`self`, `osdi:person`, `osdi:petition`, …). */
  _links?: Record<string, unknown>;
}

/**
 * The record of an event of a type the SDK has no kind for (Action Network's `action`
 * and `upload`): its dates, the person and the links, and whatever else was sent.
 */
export interface WebhookGenericRecord extends WebhookRecordMembers {
  /** When the record was created (ISO 8601, or the sender's spelling). */
  created_date?: string;
  /** When the record was last modified. */
  modified_date?: string;
  /** Anything else the sender put in the record. */
  [member: string]: unknown;
}

/**
 * The record each known event type carries, by type: the SDK's record types (what a GET
 * of the record reads as) with the members a sender adds ({@link WebhookRecordMembers}).
 * A signup's record is the person who signed up.
 *
 * @example
 * ```ts
 * import type { WebhookRecords } from 'adis-sdk/webhooks';
 *
 * function comments(record: WebhookRecords['signature']): string {
 *   return record.comments ?? ''; // null or absent when the signer left none
 * }
 * ```
 */
export interface WebhookRecords {
  /** A petition was signed. */
  signature: Signature & WebhookRecordMembers;
  /** Someone RSVPed to an event (or bought a ticket). */
  attendance: Attendance & WebhookRecordMembers;
  /** A form was submitted. */
  submission: Submission & WebhookRecordMembers;
  /** A donation was made. */
  donation: Donation & WebhookRecordMembers;
  /** A letter was sent to (or a call made to) a target of an advocacy campaign. */
  outreach: Outreach & WebhookRecordMembers;
  /** A person signed up (the reference server: a person created, or a signup helper call). */
  signup: Person & WebhookRecordMembers;
  /** A canvass was recorded. */
  canvass: Canvass & WebhookRecordMembers;
  /** Action Network's catch-all: a subscription by hand, a mass subscribe, a ladder… */
  action: WebhookGenericRecord;
  /** Action Network: the person was in an uploaded file, or sent to the signup helper. */
  upload: WebhookGenericRecord;
}

/**
 * The event types the SDK names: the key of an element's record after its prefix
 * (`osdi:signature` is `signature`, `action_network:action` is `action`).
 */
export type WebhookEventType = keyof WebhookRecords;

// Each type once, and every one: the compiler refuses a missing or an extra key.
const EVENT_TYPE_SET: { readonly [T in WebhookEventType]: true } = {
  signature: true,
  attendance: true,
  submission: true,
  donation: true,
  outreach: true,
  signup: true,
  canvass: true,
  action: true,
  upload: true,
};

/**
 * Every {@link WebhookEventType}, at run time: an element of another type is an
 * `unknown` event.
 */
export const WEBHOOK_EVENT_TYPES = Object.freeze(
  Object.keys(EVENT_TYPE_SET) as WebhookEventType[],
) as readonly WebhookEventType[];

/**
 * The links of an event's record, as URLs, by relation name without its prefix
 * (`osdi:petition` is `petition`). `action` is the record's action (the petition,
 * event, form, fundraising page or advocacy campaign) whatever its relation.
 */
export interface WebhookLinks {
  /** The record itself. */
  readonly self?: string;
  /** The person who acted. */
  readonly person?: string;
  /** The petition, event, form, fundraising page or advocacy campaign acted on. */
  readonly action?: string;
  /** Every other link, by relation name without prefix (`petition`, `event`, `form`). */
  readonly [relation: string]: string | undefined;
}

/** What every event has, whatever its type. */
export interface WebhookEventBase {
  /** The element's key as sent (`osdi:signature`, `std:attendance`, `action_network:action`). */
  readonly name: string;
  /** The element's position in the delivered array. */
  readonly index: number;
  /**
   * The sender's key for this event (the element's `idempotency_key`, or the record's):
   * the same on every delivery of the event, so a receiver skips one it has handled.
   * Undefined when the sender gave none.
   */
  readonly idempotencyKey: string | undefined;
  /** The person who acted, as sent (for a `signup`, the record itself). */
  readonly person: Person | undefined;
  /** The tags the action added to the person (`add_tags`); empty when none were sent. */
  readonly addTags: readonly string[];
  /** The record's links, as URLs. */
  readonly links: WebhookLinks;
  /**
   * Action Network's `action_network:sponsor` (the group the action belongs to, with
   * its `title` and `url`), when the element has one.
   */
  readonly sponsor: Readonly<Record<string, unknown>> | undefined;
}

/**
 * An event of a type the SDK names: its `type`, its typed `record`, and the members of
 * {@link WebhookEventBase}.
 *
 * @example
 * ```ts
 * import type { KnownWebhookEvent } from 'adis-sdk/webhooks';
 *
 * function onSignature(event: KnownWebhookEvent<'signature'>) {
 *   console.log(event.record.comments, event.links.petition);
 * }
 * ```
 */
export interface KnownWebhookEvent<T extends WebhookEventType> extends WebhookEventBase {
  /** The event type: the element's key after its prefix. */
  readonly type: T;
  /** The record, as sent (typed, not validated unless `parseWebhook` was asked to). */
  readonly record: WebhookRecords[T];
}

/**
 * An element of a type the SDK does not name, kept as it came: `name` is its key and
 * `body` what the key holds.
 *
 * @example
 * ```ts
 * import type { UnknownWebhookEvent } from 'adis-sdk/webhooks';
 *
 * function onUnknown(event: UnknownWebhookEvent) {
 *   console.warn(`no handler for ${event.name}`, event.body);
 * }
 * ```
 */
export interface UnknownWebhookEvent extends WebhookEventBase {
  /** Always `'unknown'`. */
  readonly type: 'unknown';
  /** What the element's key holds. */
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * One event of a delivery, discriminated by `type`: narrow it with `switch (event.type)`.
 *
 * @example
 * ```ts
 * import { parseWebhook } from 'adis-sdk/webhooks';
 *
 * function handle(body: string): void {
 *   for (const event of parseWebhook(body)) {
 *     switch (event.type) {
 *       case 'signature': console.log(event.record.comments); break;
 *       case 'donation': console.log(event.record.amount); break;
 *       case 'unknown': console.warn(event.name); break;
 *     }
 *   }
 * }
 * ```
 */
export type WebhookEvent =
  | { [T in WebhookEventType]: KnownWebhookEvent<T> }[WebhookEventType]
  | UnknownWebhookEvent;
