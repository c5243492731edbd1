/**
 * What a webhook event says, as the domain writes it into the outbox (see
 * `storage/webhook-store.ts`) and the delivery renders it (`webhooks/`).
 *
 * Why a snapshot of documents and not rendered HAL: hrefs depend on the root URL the
 * server is reached at (its `publicUrl`, or where it listens), which the domain does not
 * know; the delivery renders the snapshot with the server's own renderer, so an event's
 * record reads exactly as a GET of it answered when it was written.
 */
import type { JsonObject } from '../storage/storage.js';

/** A record as it was when the event was made. */
export interface EventRecordSnapshot {
  /** Kind singular (`signature`). */
  kind: string;
  id: string;
  /** The stored document. */
  doc: JsonObject;
}

/** The payload of an outbox event. */
export interface WebhookEventPayload extends JsonObject {
  /** The record the event is about (the signature; the person, for `signup`). */
  record: EventRecordSnapshot;
  /** The person who acted, when `record` is not the person. */
  person?: EventRecordSnapshot;
  /** Tags the call added to the person (a helper's `add_tags`), when any. */
  addTags?: string[];
}
