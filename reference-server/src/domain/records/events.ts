/**
 * The webhook event of a record write: appended to the outbox in the write's own
 * transaction, with the person the record is of.
 */
import { randomUUID } from 'node:crypto';
import type { StoredRecord, Tenant } from '../../storage/storage.js';
import type { ResourceKind } from '../kinds.js';
import type { WebhookEventPayload } from '../webhook-events.js';
import type { RecordContext } from './context.js';
import { referencesOf } from './document.js';
import type { EventDetails } from './options.js';

/**
 * Appends the webhook event of `record` (its kind's {@link ResourceKind.event}) to the
 * outbox, in the caller's transaction, so it commits with the write that made it. A
 * no-op for kinds that make no event and for tenants without subscriptions (the
 * outbox is then not written at all). `createRecord` calls it; the person signup
 * helper too, for a signup that matched a known person.
 */
export async function recordEvent(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  record: StoredRecord,
  details: EventDetails = {},
  now = new Date(),
): Promise<void> {
  const event = kind.event;
  if (!event || !(await context.storage.webhooks.hasSubscribers(tenant.id))) return;
  const payload: WebhookEventPayload = {
    record: { kind: record.kind, id: record.id, doc: record.doc },
  };
  // The person as stored now, inside the transaction: with what this call merged in.
  const personRef = referencesOf(record.doc)[event.person ?? 'person'];
  const person =
    personRef && (await context.storage.records.get(tenant.id, personRef.kind, personRef.id));
  if (person) payload.person = { kind: person.kind, id: person.id, doc: person.doc };
  if (details.addTags?.length) payload.addTags = [...details.addTags];
  await context.storage.webhooks.appendEvent({
    tenantId: tenant.id,
    type: event.type,
    idempotencyKey: randomUUID(),
    payload,
    createdMs: now.getTime(),
  });
}
