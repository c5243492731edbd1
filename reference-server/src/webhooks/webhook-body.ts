/**
 * What a webhook delivery says: outbox events rendered as Action Network does, one
 * element of a JSON array per event, keyed by the event's type:
 *
 *   [{ "std:signature": { ...the signature as a GET renders it, "person": {…},
 *      "add_tags": […], "_links": { self, std:person, std:petition, … } },
 *      "idempotency_key": "…" }]
 *
 * Why the server's own renderer: a receiver that also reads the API sees the same
 * members, links and addresses in both, under the preset's rules. Why rendered at
 * delivery and not at write: hrefs depend on the root the server is reached at, which the
 * domain does not know (see `domain/webhook-events.ts`).
 */
import { writeDateTimes } from '../domain/date-times.js';
import type { KindRegistry } from '../domain/kinds.js';
import type { EventRecordSnapshot, WebhookEventPayload } from '../domain/webhook-events.js';
import type { AppConfig } from '../http/env.js';
import { Urls } from '../http/links.js';
import { renderRecord } from '../http/render.js';
import { recordHomes } from '../presets/record-homes.js';
import type { JsonObject, StoredRecord } from '../storage/storage.js';
import type { WebhookEvent } from '../storage/webhook-store.js';

/**
 * What delivery works with: the app's resolved config (`appConfigOf(app)`): what the
 * bodies are rendered with, and the storage the events are in.
 */
export type WebhookRenderConfig = Pick<
  AppConfig,
  'preset' | 'registry' | 'curiePrefix' | 'apiPrefix' | 'storage' | 'records'
>;

/**
 * Renders outbox events as delivery bodies, for one server reached at `root` (its
 * public URL, or where it listens).
 */
export class WebhookBodies {
  private readonly urls: Urls;
  private readonly registry: KindRegistry;

  constructor(
    private readonly config: WebhookRenderConfig,
    root: string,
  ) {
    this.registry = config.registry;
    this.urls = new Urls(
      root,
      config.curiePrefix,
      config.apiPrefix,
      config.preset.extraCuries,
      config.preset.relationNames,
      recordHomes(config.preset, config.registry),
    );
  }

  /** The closure key of an event type: `std:signature`, or the preset's (`action_network:action`). */
  typeKey(type: string): string {
    return this.config.preset.webhookTypeKeys?.[type] ?? `${this.config.curiePrefix}:${type}`;
  }

  /**
   * One element of a delivery: the event's record, with its person and added tags, in
   * a closure named by its type, and the idempotency key beside it.
   */
  async element(event: WebhookEvent): Promise<JsonObject> {
    const payload = event.payload as WebhookEventPayload;
    const rendered = await this.render(event.tenantId, payload.record, true);
    const { _links: recordLinks, ...members } = rendered;
    const links: Record<string, unknown> = { ...(recordLinks as Record<string, unknown>) };
    const closure: JsonObject = { ...members };
    if (payload.person) {
      const { curies: _curies, ...person } = await this.render(
        event.tenantId,
        payload.person,
        false,
      );
      closure.person = person;
      const personRel = this.urls.rel('person');
      const personKind = this.registry.bySingular(payload.person.kind);
      if (links[personRel] === undefined && personKind) {
        links[personRel] = { href: this.urls.record(personKind.plural, payload.person.id) };
      }
    }
    if (payload.addTags && payload.addTags.length > 0) closure.add_tags = [...payload.addTags];
    closure._links = links as JsonObject;
    return { [this.typeKey(event.type)]: closure, idempotency_key: event.idempotencyKey };
  }

  /**
   * The JSON text POSTed for a batch: the array of {@link element}s, in outbox order.
   */
  async body(events: readonly WebhookEvent[]): Promise<string> {
    // One after the other: each reads storage, and a batch is a few dozen events.
    const elements: JsonObject[] = [];
    for (const event of events) elements.push(await this.element(event));
    return JSON.stringify(elements);
  }

  /** A snapshot as a GET of it renders (with its totals as they are now). */
  private async render(
    tenantId: number,
    snapshot: EventRecordSnapshot,
    withCuries: boolean,
  ): Promise<JsonObject> {
    const kind = this.registry.bySingular(snapshot.kind);
    // A kind the server no longer serves (a preset changed between write and delivery):
    // its members as stored, so the event still says what happened, dated as the rest.
    if (!kind) {
      const { _refs: _dropped, ...members } = snapshot.doc;
      return {
        ...writeDateTimes(members, this.config.preset.dateTimes),
        _links: {},
      };
    }
    const totals = await this.config.records.totals({ id: tenantId }, kind, [snapshot.id]);
    return renderRecord({
      urls: this.urls,
      registry: this.registry,
      kind,
      record: asStoredRecord(snapshot),
      totals: totals.get(snapshot.id),
      withCuries,
    });
  }
}

/** A snapshot in the shape the renderer reads (it uses the id and the document only). */
function asStoredRecord(snapshot: EventRecordSnapshot): StoredRecord {
  const date = (name: string) => {
    const value = snapshot.doc[name];
    return typeof value === 'string' ? value : '';
  };
  return {
    seq: 0,
    kind: snapshot.kind,
    id: snapshot.id,
    doc: snapshot.doc,
    created_date: date('created_date'),
    modified_date: date('modified_date'),
  };
}
