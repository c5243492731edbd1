/**
 * Generic record operations: create, read, update, delete and collection pages for any
 * registered kind. Applies the spec's identifier and update rules; knows nothing of HTTP.
 */
import { randomUUID } from 'node:crypto';
import {
  DuplicateIdentifierError,
  type JsonObject,
  type ParentRef,
  type ReadOptions,
  type RecordFilter,
  type RecordWrite,
  type Storage,
  type StoredRecord,
  type Tenant,
} from '../storage/storage.js';
import { ApiError, ErrorCode, type ErrorDescription } from './errors.js';
import {
  duplicateIdentifierError,
  localIdentifier,
  newRecordId,
  resolveIdentifiers,
} from './identifiers.js';
import type { CheckContext, KindRegistry, References, ResourceKind } from './kinds.js';
import { applyPatch, dropNulls, fillGaps } from './merge.js';
import { type PageRequest, planPage, totalPages } from './paging.js';
import type { WebhookEventPayload } from './webhook-events.js';

/**
 * The stored member holding a record's references (`{ person: { kind, id } }`). It is
 * the server's own bookkeeping: never rendered, never accepted from clients.
 */
export const REFS = '_refs';

/**
 * The stored member holding state the server itself sets on a record (a message's
 * sending status, counts and send rate, written by its helpers). Never accepted from
 * clients, kept through their updates, and rendered only through the kind's `view`,
 * which turns it into public members.
 */
export const SERVER_STATE = '_state';

/**
 * Members a helper call records on the record it creates (the `triggers` it was sent),
 * rendered as they are. Like {@link SERVER_STATE} they are not the client's to write:
 * an update neither changes nor validates them, and keeps them.
 */
export const HELPER_MEMBERS = ['triggers'] as const;

/** The {@link HELPER_MEMBERS} present in `doc`. */
function helperMembers(doc: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const member of HELPER_MEMBERS) if (doc[member] != null) out[member] = doc[member];
  return out;
}

/** Members the server owns in every stored document. */
const SERVER_FIELDS = ['identifiers', 'created_date', 'modified_date', REFS] as const;

/**
 * Where a link sent by a client points, as the HTTP layer read its href: a record of
 * the collection `plural`, `null` to remove an optional link, or an href that names no
 * record of this server.
 */
export type LinkTarget = { plural: string; id: string } | null | { invalid: string };

/** Links of a write body by relation (without the prefix). */
export type LinkInput = Readonly<Record<string, LinkTarget>>;

/** Options of {@link RecordService.update}. */
export interface UpdateOptions {
  now?: Date;
  /** The `_links` of the body. */
  links?: LinkInput;
  /**
   * {@link HELPER_MEMBERS} a helper records anew (the `triggers` of a second signing);
   * the stored ones stay when absent. Never from a client's own update.
   */
  recorded?: JsonObject;
}

/** What a call adds to the webhook event its write makes (see {@link ResourceKind.event}). */
export interface EventDetails {
  /** The tags the call adds to the person (a helper's `add_tags`), carried as `add_tags`. */
  addTags?: readonly string[] | null;
}

/** Options of {@link RecordService.create}. */
export interface CreateOptions extends UpdateOptions {
  /**
   * The webhook event of the create: what the call adds to it, or `false` when the
   * create makes none (a person created as part of another act: that act's event
   * carries the person). Default: the kind's event ({@link ResourceKind.event}), if any.
   */
  event?: EventDetails | false;
  /** A reference fixed by the URL (POST to a petition's signatures sets `petition`). */
  parent?: { rel: string; ref: ParentRef };
  /**
   * {@link HELPER_MEMBERS} a helper records on the new record (the `triggers` it was
   * sent). They are read-only to clients, so they cannot come in the input.
   */
  recorded?: JsonObject;
  /**
   * Where the body carried the links, for the properties of link problems: `canvass.`
   * when a canvass helper's `canvass._links` named the canvasser. Default: the top level.
   */
  linksAt?: string;
}

/** Options of {@link RecordService.createOrUpdate}. */
export interface CreateOrUpdateOptions extends CreateOptions {
  /**
   * Update an existing record as a caller without an API key may: fill only the members
   * it lacks, never change a stored one (anyone who knows a person's email address could
   * otherwise rewrite that person's comment or decline their RSVP). Nothing is written
   * when nothing is new.
   */
  fillOnly?: boolean;
}

/** What {@link RecordService.createOrUpdate} did. */
export interface RecordUpsert {
  record: StoredRecord;
  /** True when the record was created (201); false when an existing one was updated (200). */
  created: boolean;
}

/**
 * The references stored in a document.
 *
 * @example
 * ```ts
 * referencesOf({ _refs: { person: { kind: 'person', id: 'p1' } } }); // { person: { kind: 'person', id: 'p1' } }
 * ```
 */
export function referencesOf(doc: JsonObject): References {
  const refs = doc[REFS];
  if (typeof refs !== 'object' || refs === null || Array.isArray(refs)) return {};
  const out: References = {};
  for (const [rel, value] of Object.entries(refs as Record<string, unknown>)) {
    const ref = value as Partial<ParentRef> | null;
    if (ref && typeof ref.kind === 'string' && typeof ref.id === 'string') {
      out[rel] = { kind: ref.kind, id: ref.id };
    }
  }
  return out;
}

/** One page of a collection, ready for rendering. */
export interface CollectionPage {
  records: StoredRecord[];
  page: number;
  perPage: number;
  totalRecords: number;
  totalPages: number;
  /** Whether a record exists after the last one of this page. */
  hasNext: boolean;
}

/** Which collection to page: a kind's collection, or a sub-collection of a parent. */
export interface CollectionRef {
  kind: string;
  parent?: { kind: string; id: string };
  /** Only records matching every filter. */
  filters?: readonly RecordFilter[];
}

function invalid(resource: string, errors: ErrorDescription[]): ApiError {
  return new ApiError(400, errors, resource);
}

/**
 * A document in the canonical member order: identifiers, dates, then the fields.
 *
 * @example
 * ```ts
 * composeDocument(['adis:1'], '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', { given_name: 'Ana' });
 * ```
 */
export function composeDocument(
  identifiers: readonly string[],
  created: string,
  modified: string,
  fields: JsonObject,
  refs: References = {},
): JsonObject {
  const doc: JsonObject = {
    identifiers: [...identifiers],
    created_date: created,
    modified_date: modified,
  };
  for (const [key, value] of Object.entries(fields)) {
    if ((SERVER_FIELDS as readonly string[]).includes(key)) continue;
    doc[key] = value;
  }
  if (Object.keys(refs).length > 0) doc[REFS] = refs;
  return doc;
}

/** Whether two references name the same record (both absent counts as the same). */
function sameRef(a: ParentRef | undefined, b: ParentRef | undefined): boolean {
  return a?.kind === b?.kind && a?.id === b?.id;
}

/** Problems with their `_links.…` properties placed below `at` (`canvass._links.…`). */
function linksAt(errors: ErrorDescription[], at: string): ErrorDescription[] {
  if (at === '') return errors;
  return errors.map((error) =>
    error.properties
      ? {
          ...error,
          properties: error.properties.map((p) => (p.startsWith('_links.') ? `${at}${p}` : p)),
        }
      : error,
  );
}

function withoutFields(doc: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(doc)) if (!fields.includes(key)) out[key] = value;
  return out;
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/**
 * Record operations over a {@link Storage}.
 *
 * @example
 * ```ts
 * const records = new RecordService(storage, registry);
 * const person = records.create(tenant, personKind, personKind.parse({ given_name: 'Ana' }));
 * ```
 */
export class RecordService {
  constructor(
    readonly storage: Storage,
    /** The kinds served: links resolve and deletes cascade through it. */
    readonly registry: KindRegistry,
  ) {}

  private notFound(kind: ResourceKind, id: string): ApiError {
    return new ApiError(
      404,
      [{ error_code: ErrorCode.NOT_FOUND, description: `no ${kind.singular} with id ${id}` }],
      `std:${kind.singular}`,
    );
  }

  /** Refuses identifiers that another record of the tenant and kind already carries. */
  private async checkIdentifiersFree(
    tenant: Tenant,
    kind: ResourceKind,
    identifiers: readonly string[],
    ownId: string,
    sent: readonly string[] = identifiers,
  ): Promise<void> {
    const taken: string[] = [];
    for (const identifier of identifiers) {
      const holder = await this.storage.records.findByIdentifier(
        tenant.id,
        kind.singular,
        identifier,
      );
      if (holder !== undefined && holder !== ownId) taken.push(identifier);
    }
    if (taken.length > 0) throw duplicateIdentifierError(sent, taken, `std:${kind.singular}`);
  }

  /** Writes through storage, turning a unique-constraint race into the same 400. */
  private async guarded<T>(
    kind: ResourceKind,
    sent: readonly string[],
    write: () => Promise<T>,
  ): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof DuplicateIdentifierError) {
        throw duplicateIdentifierError(sent, [error.identifier], `std:${kind.singular}`);
      }
      throw error;
    }
  }

  /**
   * Applies the links a client sent to a record's references: checks each relation is
   * one of the kind's, each href names an existing record of an allowed kind in the
   * caller's tenant, and that required links are not removed. Problems are pushed to
   * `errors` so that they are reported with every other problem of the request.
   */
  private async applyLinks(
    tenant: Tenant,
    kind: ResourceKind,
    refs: References,
    links: LinkInput,
    errors: ErrorDescription[],
  ): Promise<References> {
    const out: References = { ...refs };
    for (const [rel, target] of Object.entries(links)) {
      const reference = kind.references.find((r) => r.rel === rel);
      const property = `_links.std:${rel}`;
      if (!reference) {
        errors.push({
          error_code: ErrorCode.INVALID_LINK,
          description: `a ${kind.singular} has no link std:${rel}`,
          properties: [property],
          hint: kind.references.length
            ? `links a ${kind.singular} can set: ${kind.references.map((r) => `std:${r.rel}`).join(', ')}`
            : `a ${kind.singular} has no links to set`,
        });
        continue;
      }
      if (target === null) {
        if (reference.required) {
          errors.push({
            error_code: ErrorCode.MISSING_LINK,
            description: `std:${rel} of a ${kind.singular} cannot be removed`,
            properties: [property],
          });
        } else {
          delete out[rel];
        }
        continue;
      }
      const targetKind = 'invalid' in target ? undefined : this.registry.byPlural(target.plural);
      const allowed = reference.kinds.join(' or ');
      if (
        'invalid' in target ||
        !targetKind ||
        !reference.kinds.includes(targetKind.singular) ||
        !(await this.storage.records.get(tenant.id, targetKind.singular, target.id))
      ) {
        const href = 'invalid' in target ? target.invalid : `${target.plural}/${target.id}`;
        errors.push({
          error_code: ErrorCode.INVALID_LINK,
          description: `std:${rel} must link an existing ${allowed} of this server; ${href} is not one`,
          properties: [property],
          hint: `use the href of the ${allowed}'s self link`,
        });
        continue;
      }
      out[rel] = { kind: targetKind.singular, id: target.id };
    }
    return out;
  }

  /** Required links, exactly-one groups, required members and cross-record rules. */
  private async checkRecord(
    tenant: Tenant,
    kind: ResourceKind,
    fields: JsonObject,
    refs: References,
    id: string,
    creating: boolean,
    errors: ErrorDescription[],
  ): Promise<void> {
    // A link already reported as invalid is not reported again as missing.
    const reported = new Set(errors.flatMap((error) => error.properties ?? []));
    for (const reference of kind.references) {
      if (
        reference.required &&
        !refs[reference.rel] &&
        !reported.has(`_links.std:${reference.rel}`)
      ) {
        errors.push({
          error_code: ErrorCode.MISSING_LINK,
          description: `a ${kind.singular} needs a link std:${reference.rel} to a ${reference.kinds.join(' or ')}`,
          properties: [`_links.std:${reference.rel}`],
          hint: `send _links: { "std:${reference.rel}": { "href": "<the ${reference.kinds[0]}'s self href>" } }`,
        });
      }
    }
    for (const group of kind.exactlyOneOf ?? []) {
      const present = group.filter((rel) => refs[rel]);
      if (present.length !== 1) {
        errors.push({
          error_code: present.length === 0 ? ErrorCode.MISSING_LINK : ErrorCode.INVALID_LINK,
          description: `a ${kind.singular} needs exactly one of ${group.map((rel) => `std:${rel}`).join(', ')}; it has ${present.length}`,
          properties: (present.length ? present : group).map((rel) => `_links.std:${rel}`),
        });
      }
    }
    if (creating) {
      for (const member of kind.requiredOnCreate ?? []) {
        if (fields[member] === undefined || fields[member] === null || fields[member] === '') {
          errors.push({
            error_code: ErrorCode.INVALID_PROPERTY,
            description: `${member} is required to create a ${kind.singular}`,
            properties: [member],
          });
        }
      }
    }
    if (kind.check && errors.length === 0) {
      const context: CheckContext = {
        document: async (ref) => (await this.storage.records.get(tenant.id, ref.kind, ref.id))?.doc,
        // The kind's rule checks a key before this write adds it (a unique tag name).
        findByKey: (kindName, name, value) =>
          this.storage.records.findByKey(tenant.id, kindName, name, value, { forInsert: true }),
        totals: async (ref) =>
          (await this.storage.records.totalsOf(tenant.id, ref.kind, [ref.id])).get(ref.id) ?? {},
      };
      errors.push(...(await kind.check(fields, refs, id, context)));
    }
  }

  /** The side data a record write carries besides its document. */
  private async recordWrite(
    tenant: Tenant,
    kind: ResourceKind,
    id: string,
    doc: JsonObject,
    identifiers: readonly string[],
    refs: References,
  ): Promise<RecordWrite> {
    return {
      tenantId: tenant.id,
      kind: kind.singular,
      id,
      doc,
      created_date: String(doc.created_date),
      modified_date: String(doc.modified_date),
      identifiers,
      keys: kind.lookupKeys(doc),
      parents: Object.values(refs),
      contributions:
        (await kind.contributions?.(doc, refs, {
          document: async (ref) =>
            (
              await this.storage.records.get(tenant.id, ref.kind, ref.id)
            )?.doc,
        })) ?? [],
    };
  }

  private async totalsOfRecord(
    tenant: Tenant,
    kind: ResourceKind,
    id: string,
  ): Promise<Record<string, number>> {
    return (await this.storage.records.totalsOf(tenant.id, kind.singular, [id])).get(id) ?? {};
  }

  /**
   * Creates a record from a validated document: assigns the id and local identifier,
   * keeps foreign identifiers, resolves links, drops read-only fields and nulls.
   */
  create(
    tenant: Tenant,
    kind: ResourceKind,
    input: JsonObject,
    options: CreateOptions = {},
  ): Promise<StoredRecord> {
    const now = options.now ?? new Date();
    return this.storage.transaction(async () => {
      const id = newRecordId();
      const local = localIdentifier(tenant.namespace, id);
      const sent = stringArray(input.identifiers) ?? [];
      const identifiers = resolveIdentifiers(tenant.namespace, local, sent, `std:${kind.singular}`);
      // The local identifier is new, as the id it names: only those sent may be taken.
      const foreign = identifiers.filter((identifier) => identifier !== local);
      await this.checkIdentifiersFree(tenant, kind, foreign, id, sent);
      const errors: ErrorDescription[] = [];
      let refs = await this.applyLinks(tenant, kind, {}, options.links ?? {}, errors);
      if (options.parent) {
        const { rel, ref } = options.parent;
        const sentRef = refs[rel];
        if (sentRef && (sentRef.kind !== ref.kind || sentRef.id !== ref.id)) {
          errors.push({
            error_code: ErrorCode.INVALID_LINK,
            description: `std:${rel} must be the ${ref.kind} whose collection this is`,
            properties: [`_links.std:${rel}`],
            hint: `leave std:${rel} out: the collection sets it`,
          });
        }
        refs = { ...refs, [rel]: ref };
      }
      let fields = dropNulls(withoutFields(input, kind.readOnly));
      fields = kind.prepareInput ? kind.prepareInput(fields, {}) : fields;
      fields = kind.derive ? kind.derive(fields, refs) : fields;
      await this.checkRecord(tenant, kind, fields, refs, id, true, errors);
      if (errors.length > 0) {
        throw invalid(`std:${kind.singular}`, linksAt(errors, options.linksAt ?? ''));
      }
      const stamp = now.toISOString();
      const doc = composeDocument(
        identifiers,
        stamp,
        stamp,
        { ...fields, ...helperMembers(options.recorded ?? {}) },
        refs,
      );
      const write = await this.recordWrite(tenant, kind, id, doc, identifiers, refs);
      const record = await this.guarded(kind, sent, () => this.storage.records.insert(write));
      if (options.event !== false) {
        await this.recordEvent(tenant, kind, record, options.event, now);
      }
      return record;
    });
  }

  /**
   * Appends the webhook event of `record` (its kind's {@link ResourceKind.event}) to the
   * outbox, in the caller's transaction, so it commits with the write that made it. A
   * no-op for kinds that make no event and for tenants without subscriptions (the
   * outbox is then not written at all). `create` calls it; the person signup helper too,
   * for a signup that matched a known person.
   *
   * @example
   * ```ts
   * await storage.transaction(async () => {
   *   const { record } = await upsertPerson(records, tenant, sent, { anonymous: false, now });
   *   await records.recordEvent(tenant, personKind, record, { addTags: ['volunteer'] }, now);
   * });
   * ```
   */
  async recordEvent(
    tenant: Tenant,
    kind: ResourceKind,
    record: StoredRecord,
    details: EventDetails = {},
    now = new Date(),
  ): Promise<void> {
    const event = kind.event;
    if (!event || !(await this.storage.webhooks.hasSubscribers(tenant.id))) return;
    const payload: WebhookEventPayload = {
      record: { kind: record.kind, id: record.id, doc: record.doc },
    };
    // The person as stored now, inside the transaction: with what this call merged in.
    const personRef = referencesOf(record.doc)[event.person ?? 'person'];
    const person =
      personRef && (await this.storage.records.get(tenant.id, personRef.kind, personRef.id));
    if (person) payload.person = { kind: person.kind, id: person.id, doc: person.doc };
    if (details.addTags?.length) payload.addTags = [...details.addTags];
    await this.storage.webhooks.appendEvent({
      tenantId: tenant.id,
      type: event.type,
      idempotencyKey: randomUUID(),
      payload,
      createdMs: now.getTime(),
    });
  }

  /**
   * The newest record of a kind with {@link ResourceKind.oneRecordPer} whose references
   * are `refs`' for those relations (the person's signature of the petition), other than
   * `except`. Older duplicates, which a database written before the rule may hold, are
   * left as they are.
   */
  private async recordWith(
    tenant: Tenant,
    kind: ResourceKind,
    refs: References,
    except?: string,
  ): Promise<StoredRecord | undefined> {
    const rels = kind.oneRecordPer ?? [];
    const parents = rels.map((rel) => refs[rel]);
    if (rels.length === 0 || parents.some((parent) => parent === undefined)) return undefined;
    // For insert: a second act of the same person waits for the first to commit.
    const ids = await this.storage.records.findByParents(
      tenant.id,
      kind.singular,
      parents as ParentRef[],
      {
        forInsert: true,
      },
    );
    for (const id of ids) {
      if (id === except) continue;
      const record = await this.storage.records.get(tenant.id, kind.singular, id);
      // The person may be a parent through another relation (a creator): check the rels.
      const found = record ? referencesOf(record.doc) : {};
      const same = rels.every((rel) => sameRef(found[rel], refs[rel]));
      if (record && same) return record;
    }
    return undefined;
  }

  /**
   * The record a create would duplicate (see {@link ResourceKind.oneRecordPer}), read
   * from its links and parent; none when one of them is missing or names no record of a
   * kind the reference allows, which the create then reports. (The look-up itself finds
   * nothing for records that do not exist: no need to read them first.)
   */
  private async existingFor(
    tenant: Tenant,
    kind: ResourceKind,
    options: CreateOptions,
  ): Promise<StoredRecord | undefined> {
    const rels = kind.oneRecordPer;
    if (!rels?.length) return undefined;
    const refs: References = {};
    for (const rel of rels) {
      const sent = options.links?.[rel];
      const fixed = options.parent?.rel === rel ? options.parent.ref : undefined;
      const target =
        sent && !('invalid' in sent)
          ? { kind: this.registry.byPlural(sent.plural)?.singular, id: sent.id }
          : undefined;
      // A link that contradicts the collection's parent: the create refuses it.
      if (fixed && sent !== undefined && (target?.kind !== fixed.kind || target.id !== fixed.id)) {
        return undefined;
      }
      const ref = fixed ?? target;
      const allowed = kind.references.find((r) => r.rel === rel)?.kinds ?? [];
      if (!ref?.kind || !allowed.includes(ref.kind)) return undefined;
      refs[rel] = { kind: ref.kind, id: ref.id };
    }
    return this.recordWith(tenant, kind, refs);
  }

  /**
   * Creates a record like {@link create}; but for a kind with
   * {@link ResourceKind.oneRecordPer}, when a record with the same references exists
   * (the person signed this petition before), updates that record instead: the fields
   * sent change as in {@link update}, identifiers sent are added to its own, and the
   * totals it adds to stay as they were. With `fillOnly`, only what it lacks is filled.
   * Only a create makes the kind's webhook event: signing again is no new act.
   *
   * @example
   * ```ts
   * const { record, created } = await records.createOrUpdate(tenant, signatureKind, { comments: 'Yes!' }, {
   *   links: { person: { plural: 'people', id: personId } },
   *   parent: { rel: 'petition', ref: { kind: 'petition', id: petitionId } },
   * });
   * created; // false when the person had signed: 200, not 201
   * ```
   */
  createOrUpdate(
    tenant: Tenant,
    kind: ResourceKind,
    input: JsonObject,
    options: CreateOrUpdateOptions = {},
  ): Promise<RecordUpsert> {
    return this.storage.transaction(async () => {
      const existing = await this.existingFor(tenant, kind, options);
      if (!existing) {
        return { record: await this.create(tenant, kind, input, options), created: true };
      }
      return {
        record: await this.actAgain(tenant, kind, existing, input, options),
        created: false,
      };
    });
  }

  /** The update of {@link createOrUpdate}: the same act again, by the same person. */
  private async actAgain(
    tenant: Tenant,
    kind: ResourceKind,
    existing: StoredRecord,
    input: JsonObject,
    options: CreateOrUpdateOptions,
  ): Promise<StoredRecord> {
    const { now, links, recorded = {} } = options;
    if (options.fillOnly) {
      const fill = (sent: JsonObject): JsonObject => {
        const out: JsonObject = {};
        for (const [key, value] of Object.entries(sent)) {
          if (key === 'identifiers' || (SERVER_FIELDS as readonly string[]).includes(key)) continue;
          const filled = fillGaps(existing.doc[key], value);
          if (JSON.stringify(filled) !== JSON.stringify(existing.doc[key])) out[key] = filled;
        }
        return out;
      };
      const patch = fill(withoutFields(input, kind.readOnly));
      const helper = fill(helperMembers(recorded));
      // Nothing new: no write, and modified_date stays (as for the person).
      if (Object.keys(patch).length === 0 && Object.keys(helper).length === 0) return existing;
      return this.update(tenant, kind, existing.id, patch, {
        ...(now ? { now } : {}),
        recorded: helper,
      });
    }
    // Identifiers sent are added (as a person's are): they name this act in another
    // system, and the record's own must stay; a null one removes nothing.
    const sent = stringArray(input.identifiers) ?? [];
    const stored = stringArray(existing.doc.identifiers) ?? [];
    const patch = {
      ...withoutFields(input, ['identifiers']),
      ...(sent.length > 0 ? { identifiers: [...new Set([...stored, ...sent])] } : {}),
    };
    return this.update(tenant, kind, existing.id, patch, {
      ...(now ? { now } : {}),
      ...(links ? { links } : {}),
      recorded,
    });
  }

  /** One record, or a 404 `ApiError`. */
  async get(
    tenant: Tenant,
    kind: ResourceKind,
    id: string,
    options?: ReadOptions,
  ): Promise<StoredRecord> {
    const record = await this.storage.records.get(tenant.id, kind.singular, id, options);
    if (!record) throw this.notFound(kind, id);
    return record;
  }

  /**
   * Applies a validated partial update (PUT): see `merge.ts` for the rules. Sending
   * `identifiers` sets the foreign identifiers; the local one always stays. Links sent
   * replace the record's references one relation at a time.
   */
  update(
    tenant: Tenant,
    kind: ResourceKind,
    id: string,
    patch: JsonObject,
    options: UpdateOptions = {},
  ): Promise<StoredRecord> {
    const { now = new Date(), links = {}, recorded = {} } = options;
    return this.storage.transaction(async () => {
      const current = await this.get(tenant, kind, id, { forUpdate: true });
      const local = localIdentifier(tenant.namespace, id);
      const identifiers =
        'identifiers' in patch
          ? resolveIdentifiers(
              tenant.namespace,
              local,
              stringArray(patch.identifiers),
              `std:${kind.singular}`,
            )
          : (stringArray(current.doc.identifiers) ?? [local]);
      const errors: ErrorDescription[] = [];
      const before = referencesOf(current.doc);
      const refs = await this.applyLinks(tenant, kind, before, links, errors);
      if (errors.length === 0) await this.checkStillOne(tenant, kind, id, before, refs, errors);
      if (errors.length > 0) throw invalid(`std:${kind.singular}`, errors);
      const changes = kind.prepareInput
        ? kind.prepareInput(
            withoutFields(patch, [...kind.readOnly, ...SERVER_FIELDS]),
            await this.totalsOfRecord(tenant, kind, id),
          )
        : patch;
      // The current SERVER_STATE rides along in the fields; a client cannot patch it.
      const fields = applyPatch(withoutFields(current.doc, SERVER_FIELDS), changes, [
        ...kind.readOnly,
        ...SERVER_FIELDS,
        SERVER_STATE,
        ...HELPER_MEMBERS,
      ]);
      return this.replace(
        tenant,
        kind,
        current,
        identifiers,
        { ...fields, ...helperMembers(recorded) },
        now,
        stringArray(patch.identifiers),
        refs,
      );
    });
  }

  /**
   * An update that moves a link of {@link ResourceKind.oneRecordPer} (a signature to
   * another person) must not make it a second record of the same references.
   */
  private async checkStillOne(
    tenant: Tenant,
    kind: ResourceKind,
    id: string,
    before: References,
    after: References,
    errors: ErrorDescription[],
  ): Promise<void> {
    const rels = kind.oneRecordPer ?? [];
    const moved = rels.filter((rel) => !sameRef(before[rel], after[rel]));
    if (moved.length === 0) return;
    const other = await this.recordWith(tenant, kind, after, id);
    if (!other) return;
    errors.push({
      error_code: ErrorCode.INVALID_LINK,
      description: `there is a ${kind.singular} of this ${rels.join(' and ')} already (${other.id}): one ${kind.singular} per ${rels.join(' and ')}`,
      properties: moved.map((rel) => `_links.std:${rel}`),
      hint: `update that ${kind.singular} instead`,
    });
  }

  /**
   * Stores new fields, identifiers and references for an existing record after
   * validating the result (a merged document must still satisfy the schema and the
   * kind's rules: an update that only moves `end_date` before `start_date` fails).
   * A {@link SERVER_STATE} member of `fields` is stored as given, without validation;
   * so are the {@link HELPER_MEMBERS}.
   */
  async replace(
    tenant: Tenant,
    kind: ResourceKind,
    current: StoredRecord,
    identifiers: readonly string[],
    fields: JsonObject,
    now = new Date(),
    sent: readonly string[] = identifiers,
    refs: References = referencesOf(current.doc),
  ): Promise<StoredRecord> {
    const local = localIdentifier(tenant.namespace, current.id);
    const all = identifiers.includes(local) ? [...identifiers] : [local, ...identifiers];
    // The local identifier is the record's own: only the others may be another's.
    const foreign = all.filter((identifier) => identifier !== local);
    await this.checkIdentifiersFree(tenant, kind, foreign, current.id, sent);
    // The server's own state is not the client's to validate: set aside, put back. So
    // are the members a helper recorded (triggers), which are read-only to clients.
    const recorded = helperMembers(fields);
    const { [SERVER_STATE]: state, ...clientFields } = withoutFields(fields, [
      ...SERVER_FIELDS,
      ...kind.readOnly,
      ...HELPER_MEMBERS,
    ]);
    let merged: JsonObject = clientFields;
    kind.parse({ ...merged, identifiers: all });
    merged = kind.derive ? kind.derive(merged, refs) : merged;
    const errors: ErrorDescription[] = [];
    await this.checkRecord(tenant, kind, merged, refs, current.id, false, errors);
    if (errors.length > 0) throw invalid(`std:${kind.singular}`, errors);
    const stamp = now.toISOString();
    const kept = state === undefined ? merged : { ...merged, [SERVER_STATE]: state };
    const stored = { ...kept, ...recorded };
    const doc = composeDocument(all, current.created_date, stamp, stored, refs);
    const write = await this.recordWrite(tenant, kind, current.id, doc, all, refs);
    const updated = await this.guarded(kind, sent, () =>
      this.storage.records.update({ ...write, created_date: current.created_date }),
    );
    if (!updated) throw this.notFound(kind, current.id);
    return updated;
  }

  /**
   * Deletes a record, or throws a 404 `ApiError`. Records that cannot exist without it
   * (a petition's signatures, a person's donations) are deleted with it; records that
   * only mention it (a petition's creator) lose that link. All in one transaction.
   */
  async delete(tenant: Tenant, kind: ResourceKind, id: string, now = new Date()): Promise<void> {
    await this.storage.transaction(async () => {
      await this.get(tenant, kind, id, { forUpdate: true });
      await this.deleteCascading(tenant, { kind: kind.singular, id }, now);
    });
  }

  private async deleteCascading(tenant: Tenant, target: ParentRef, now: Date): Promise<void> {
    for (const child of await this.storage.records.childrenOf(tenant.id, target)) {
      const childKind = this.registry.bySingular(child.kind);
      const record = await this.storage.records.get(tenant.id, child.kind, child.id);
      if (!childKind || !record) continue;
      const refs = referencesOf(record.doc);
      const pointing = Object.entries(refs).filter(([, ref]) => sameRef(ref, target));
      const kept: References = {};
      for (const [rel, ref] of Object.entries(refs)) {
        if (!pointing.some(([gone]) => gone === rel)) kept[rel] = ref;
      }
      // Deleted with the target: records that require it, and records left without any
      // member of an exactly-one group (a tagging whose tagged person is deleted).
      const required =
        pointing.some(([rel]) => childKind.references.find((r) => r.rel === rel)?.required) ||
        (childKind.exactlyOneOf ?? []).some((group) => !group.some((rel) => kept[rel]));
      if (required) {
        await this.deleteCascading(tenant, child, now);
        continue;
      }
      const identifiers = stringArray(record.doc.identifiers) ?? [];
      const doc = composeDocument(
        identifiers,
        record.created_date,
        now.toISOString(),
        withoutFields(record.doc, SERVER_FIELDS),
        kept,
      );
      const write = await this.recordWrite(tenant, childKind, record.id, doc, identifiers, kept);
      await this.storage.records.update({ ...write, created_date: record.created_date });
    }
    await this.storage.records.delete(tenant.id, target.kind, target.id);
  }

  /**
   * The totals of records of a kind, for rendering: every total the kind declares,
   * 0 when nothing contributed yet.
   */
  async totals(
    tenant: Pick<Tenant, 'id'>,
    kind: ResourceKind,
    ids: readonly string[],
  ): Promise<Map<string, Record<string, number>>> {
    const out = new Map<string, Record<string, number>>();
    if (!kind.totals?.length && !kind.renderTotals) return out;
    const stored = await this.storage.records.totalsOf(tenant.id, kind.singular, ids);
    for (const id of ids) {
      const totals: Record<string, number> = {};
      for (const name of kind.totals ?? []) totals[name] = 0;
      out.set(id, { ...totals, ...stored.get(id) });
    }
    return out;
  }

  /** One page of a collection or sub-collection. */
  async page(
    tenant: Tenant,
    collection: CollectionRef,
    request: PageRequest,
  ): Promise<CollectionPage> {
    const scope = {
      tenantId: tenant.id,
      kind: collection.kind,
      parent: collection.parent,
      ...(collection.filters?.length ? { filters: collection.filters } : {}),
    };
    const totalRecords = await this.storage.records.count(scope);
    const plan = planPage(request, totalRecords);
    const records = plan.empty ? [] : await this.storage.records.list({ ...scope, ...plan });
    const last = records[records.length - 1];
    return {
      records,
      page: request.page,
      perPage: request.perPage,
      totalRecords,
      totalPages: totalPages(totalRecords, request.perPage),
      hasNext: last !== undefined && (await this.storage.records.hasAfter(scope, last.seq)),
    };
  }
}
