/**
 * Generic collection, record and sub-collection routes for every registered kind:
 * `/api/v1/<plural>`, `/api/v1/<plural>/<id>`, `/api/v1/<plural>/<id>/<sub-plural>`,
 * and what a preset adds to them: records at their nested addresses too
 * (`<plural>/<id>/<sub-plural>/<sub-id>`, `nestedAddresses`), record helpers answered at
 * their sub-collections (`recordHelpersAtSubCollections`), `?background_request=true` on
 * the writes the preset lists (`background`), pages without totals
 * (`collectionsWithoutTotals`) and the answer to a DELETE (`deleteNotice`).
 */

import { collectionRelation } from 'adis-sdk/server-kit';
import type { Context, Hono } from 'hono';
import { apiError, ErrorCode } from '../../domain/errors.js';
import { parseFilter } from '../../domain/filter.js';
import type { ResourceKind } from '../../domain/kinds.js';
import { isPlainObject } from '../../domain/merge.js';
import { parsePageRequest } from '../../domain/paging.js';
import { recordOfHref } from '../../domain/record-paths.js';
import { type LinkInput, type LinkTarget, referencesOf } from '../../domain/records/index.js';
import type { BackgroundOperation } from '../../presets/background-processing.js';
import type { JsonObject, RecordFilter, StoredRecord } from '../../storage/storage.js';
import { wantsBackground } from '../background.js';
import { writeInBackground } from '../background-writes.js';
import { readJsonObject, takeControl } from '../body.js';
import type { AppConfig, AppEnv } from '../env.js';
import { methodNotAllowed } from '../middleware.js';
import { singleQuery } from '../query.js';
import { minimalRecord, renderRecord } from '../render.js';
import {
  type RenderedRecord,
  recordBytes,
  renderCollectionJson,
  renderRecordJson,
} from '../render-json.js';
import { hal, halJson } from '../respond.js';
import { deletedAnswer } from './deleted.js';
import { answerRecordHelper } from './helpers.js';
import { type NestedRecord, nestedRecordOf } from './nested-records.js';

function kindOf(c: Context<AppEnv>, config: AppConfig): ResourceKind {
  const plural = c.req.param('collection') ?? '';
  const kind = config.registry.byPlural(plural);
  if (!kind) throw apiError(404, ErrorCode.NOT_FOUND, `no collection ${plural}`);
  return kind;
}

function writableKindOf(c: Context<AppEnv>, config: AppConfig, allowed: string[]): ResourceKind {
  const kind = kindOf(c, config);
  if (!kind.writable) methodNotAllowed(allowed)(c);
  return kind;
}

/** A record's kind, checked writable (405 otherwise), and its id. */
function writable(c: Context<AppEnv>, target: NestedRecord, allowed: string[]): NestedRecord {
  if (!target.kind.writable) methodNotAllowed(allowed)(c);
  return target;
}

/**
 * Whether a write is to be done in the background: only where the preset takes this
 * operation on this kind in the background (the plain server takes none, as it never
 * has; Action Network's preset the ones its documentation lists); 400 there for a value
 * other than true/false. A PATCH is the PUT's synonym here, and counts as one.
 */
function backgroundWrite(
  c: Context<AppEnv>,
  config: AppConfig,
  kind: ResourceKind,
  operation: Exclude<BackgroundOperation, 'helper'>,
): boolean {
  return wantsBackground(c, config, kind.plural, operation);
}

function pageRequest(c: Context<AppEnv>, config: AppConfig) {
  return parsePageRequest(
    {
      page: singleQuery(c, 'page'),
      per_page: singleQuery(c, 'per_page'),
      after: singleQuery(c, 'after'),
      before: singleQuery(c, 'before'),
    },
    config.maxPageSize,
  );
}

/** The `filter` query parameter, parsed for the kind (400 when it cannot be applied). */
function filtersOf(c: Context<AppEnv>, kind: ResourceKind, resource: string): RecordFilter[] {
  const filter = singleQuery(c, 'filter');
  if (filter === undefined) return [];
  return parseFilter(filter, { dates: true, keys: kind.filterKeys ?? {} }, resource);
}

/** One link value of a write body: `{ href }`, a bare href string, or `null` to remove. */
function linkTarget(value: unknown, apiPrefix: string): LinkTarget {
  if (value === null) return null;
  const link = Array.isArray(value) && value.length === 1 ? value[0] : value;
  const href = typeof link === 'string' ? link : isPlainObject(link) ? link.href : undefined;
  if (typeof href !== 'string') return { invalid: JSON.stringify(value) };
  return recordOfHref(href, apiPrefix) ?? { invalid: href };
}

/**
 * The links of a write body that set references. Links a client may echo back from a
 * GET (self, curies, sub-collections, links of other prefixes) are ignored, so a
 * read-modify-write round trip works; any other `std:` relation goes to the domain,
 * which refuses relations the kind does not have.
 */
function linkInputOf(body: JsonObject, kind: ResourceKind, apiPrefix: string): LinkInput {
  const links = body._links;
  if (!isPlainObject(links)) return {};
  const echoed = new Set([
    ...kind.subCollections.map((sub) => sub.plural),
    ...(kind.helpers ?? []).map((helper) => helper.rel),
  ]);
  const input: Record<string, LinkTarget> = {};
  for (const [key, value] of Object.entries(links)) {
    if (!key.startsWith('std:')) continue;
    const rel = key.slice(4);
    if (echoed.has(rel)) continue;
    input[rel] = linkTarget(value, apiPrefix);
  }
  return input;
}

/**
 * Registers the generic routes.
 */
export function registerRecordRoutes(app: Hono<AppEnv>, config: AppConfig): void {
  const { records, registry } = config;
  const collectionPath = `${config.apiPrefix}/:collection`;
  const recordPath = `${config.apiPrefix}/:collection/:id`;
  const subPath = `${config.apiPrefix}/:collection/:id/:sub`;
  const nestedPath = `${config.apiPrefix}/:collection/:id/:sub/:subId`;
  /**
   * How pages of the collection `plural` are written: with total_records and
   * total_pages, or (a preset's collections without totals) without them and with a
   * next link on every page that holds records, the last one included.
   */
  const pageOptions = (plural: string) =>
    config.preset.collectionsWithoutTotals.includes(plural)
      ? { totals: false, nextWhileRecords: true }
      : { totals: true };

  /** The totals of records of one kind (read in one query per page). */
  const totalsOf = (c: Context<AppEnv>, kind: ResourceKind, list: readonly StoredRecord[]) =>
    records.totals(
      c.get('auth').tenant,
      kind,
      list.map((r) => r.id),
    );
  /** Renders records of one kind with their totals, as JSON text (a page's items). */
  const present = async (
    c: Context<AppEnv>,
    kind: ResourceKind,
    list: readonly StoredRecord[],
  ): Promise<RenderedRecord[]> => {
    const totals = await totalsOf(c, kind, list);
    const urls = c.get('urls');
    return list.map((record) =>
      renderRecordJson({
        urls,
        registry,
        kind,
        record,
        totals: totals.get(record.id),
        withCuries: false,
      }),
    );
  };
  /** One record alone (with the curies), as the answer to a write. */
  const presentOne = async (c: Context<AppEnv>, kind: ResourceKind, record: StoredRecord) =>
    renderRecord({
      urls: c.get('urls'),
      registry,
      kind,
      record,
      totals: (await totalsOf(c, kind, [record])).get(record.id),
      withCuries: true,
    });

  const create = async (
    c: Context<AppEnv>,
    kind: ResourceKind,
    parent?: { rel: string; ref: { kind: string; id: string } },
    body?: JsonObject,
  ) => {
    const background = backgroundWrite(c, config, kind, 'POST');
    const { control, rest } = takeControl(body ?? (await readJsonObject(c)));
    const tenant = c.get('auth').tenant;
    // A second signature of the same person and petition updates the first (200), as
    // the helpers do: see RecordService.createOrUpdate.
    const write = () =>
      records.createOrUpdate(tenant, kind, kind.parse(rest), {
        links: linkInputOf(rest, kind, config.apiPrefix),
        ...(parent ? { parent } : {}),
      });
    if (background) return writeInBackground(c, config, write);
    const { record, created } = await write();
    const urls = c.get('urls');
    const answer = control.returnResponse
      ? await presentOne(c, kind, record)
      : minimalRecord(urls, kind, record);
    return created
      ? hal(answer, 201, {
          Location: urls.recordAt(kind.plural, record.id, referencesOf(record.doc)),
        })
      : hal(answer, 200);
  };

  app.get(collectionPath, async (c) => {
    const kind = kindOf(c, config);
    const urls = c.get('urls');
    const filters = filtersOf(c, kind, collectionRelation(kind.plural));
    const request = pageRequest(c, config);
    const page = await records.page(
      c.get('auth').tenant,
      { kind: kind.singular, filters },
      request,
    );
    return halJson(
      renderCollectionJson(
        urls.collection(kind.plural),
        urls.rel(kind.plural),
        page,
        request,
        urls.curies(),
        await present(c, kind, page.records),
        { filter: singleQuery(c, 'filter') },
        pageOptions(kind.plural),
      ),
    );
  });

  app.post(collectionPath, async (c) => create(c, writableKindOf(c, config, ['GET'])));
  app.all(collectionPath, methodNotAllowed(['GET', 'POST']));

  const show = async (c: Context<AppEnv>, { kind, id }: NestedRecord) => {
    const record = await records.get(c.get('auth').tenant, kind, id);
    const totals = (await totalsOf(c, kind, [record])).get(record.id);
    return halJson(
      recordBytes(
        renderRecordJson({ urls: c.get('urls'), registry, kind, record, totals, withCuries: true }),
      ),
    );
  };
  /** The record at the flat address `<plural>/<id>`. */
  const flat = (c: Context<AppEnv>): NestedRecord => ({
    kind: kindOf(c, config),
    id: c.req.param('id') ?? '',
  });
  app.get(recordPath, (c) => show(c, flat(c)));

  const update = async (c: Context<AppEnv>, { kind, id }: NestedRecord) => {
    const tenant = c.get('auth').tenant;
    // 404 before validation: a client updating a deleted record should learn that first.
    await records.get(tenant, kind, id);
    const background = backgroundWrite(c, config, kind, 'PUT');
    const { control, rest } = takeControl(await readJsonObject(c));
    const write = () =>
      records.update(tenant, kind, id, kind.parse(rest), {
        links: linkInputOf(rest, kind, config.apiPrefix),
      });
    if (background) return writeInBackground(c, config, write);
    const record = await write();
    const urls = c.get('urls');
    return hal(
      control.returnResponse
        ? await presentOne(c, kind, record)
        : minimalRecord(urls, kind, record),
    );
  };
  const remove = async (c: Context<AppEnv>, { kind, id }: NestedRecord) => {
    const tenant = c.get('auth').tenant;
    const write = () => records.delete(tenant, kind, id);
    if (backgroundWrite(c, config, kind, 'DELETE')) return writeInBackground(c, config, write);
    await write();
    return deletedAnswer(config.preset, kind);
  };
  const writableFlat = (c: Context<AppEnv>): NestedRecord => ({
    kind: writableKindOf(c, config, ['GET']),
    id: c.req.param('id') ?? '',
  });
  app.put(recordPath, (c) => update(c, writableFlat(c)));
  // The spec's PUT is already a partial update; PATCH is accepted as a synonym.
  app.patch(recordPath, (c) => update(c, writableFlat(c)));
  app.delete(recordPath, (c) => remove(c, writableFlat(c)));
  // A method a record does not take: 405 with Allow for a record that exists, and 404,
  // as its GET answers, for one that does not. (Action Network's people/person_signup_helper,
  // a path some clients POST to, was a 405 whose Allow named GET, where a GET is a 404.)
  const recordMethods = methodNotAllowed(['GET', 'PUT', 'PATCH', 'DELETE']);
  app.all(recordPath, async (c) => {
    const { kind, id } = flat(c);
    await records.get(c.get('auth').tenant, kind, id);
    return recordMethods(c);
  });

  // A preset's nested addresses: the same record, the same answers (its self link is
  // its own address, see Urls.recordAt); 404 unless the record belongs to that parent.
  if (config.preset.nestedAddresses) {
    const nested = async (c: Context<AppEnv>) =>
      writable(c, await nestedRecordOf(c, config), ['GET']);
    app.get(nestedPath, async (c) => show(c, await nestedRecordOf(c, config)));
    app.put(nestedPath, async (c) => update(c, await nested(c)));
    app.patch(nestedPath, async (c) => update(c, await nested(c)));
    app.delete(nestedPath, async (c) => remove(c, await nested(c)));
    app.all(nestedPath, methodNotAllowed(['GET', 'PUT', 'PATCH', 'DELETE']));
  }

  /** The parent record and the sub-collection named in the path (404s otherwise). */
  const subOf = async (c: Context<AppEnv>) => {
    const kind = kindOf(c, config);
    const id = c.req.param('id') ?? '';
    const subName = c.req.param('sub');
    const sub = kind.subCollections.find((s) => s.plural === subName);
    if (!sub)
      throw apiError(404, ErrorCode.NOT_FOUND, `no sub-collection ${subName} on ${kind.plural}`);
    const subKind = registry.bySingular(sub.kind);
    if (!subKind) throw apiError(404, ErrorCode.NOT_FOUND, `no collection ${sub.plural}`);
    await records.get(c.get('auth').tenant, kind, id);
    return { kind, id, sub, subKind };
  };

  app.get(subPath, async (c) => {
    const { kind, id, sub, subKind } = await subOf(c);
    const tenant = c.get('auth').tenant;
    const filters = filtersOf(c, subKind, collectionRelation(sub.plural));
    const request = pageRequest(c, config);
    const page = await records.page(
      tenant,
      { kind: sub.kind, parent: { kind: kind.singular, id }, filters },
      request,
    );
    const urls = c.get('urls');
    return halJson(
      renderCollectionJson(
        urls.subCollection(kind.plural, id, sub.plural),
        urls.rel(sub.plural),
        page,
        request,
        urls.curies(),
        await present(c, subKind, page.records),
        { filter: singleQuery(c, 'filter') },
        pageOptions(sub.plural),
      ),
    );
  });

  // A POST to a sub-collection creates a record linked to the parent: a signature
  // posted to a petition's signatures belongs to that petition. Where a preset puts a
  // record helper at the sub-collection (Action Network), a body with a `person` member
  // is that helper's call instead (keyless callers may make it when the helper is open
  // to them); without one it is the create, which needs a key.
  app.post(subPath, async (c) => {
    const parentKind = kindOf(c, config);
    const helper = parentKind.helpers?.find((h) => h.path === c.req.param('sub'));
    let body: JsonObject | undefined;
    if (helper) {
      body = await readJsonObject(c);
      const id = c.req.param('id') ?? '';
      if (body.person !== undefined) {
        return answerRecordHelper(c, config, parentKind, helper, id, body);
      }
      if (c.get('anonymous') === true) {
        throw apiError(
          401,
          ErrorCode.UNAUTHORIZED,
          `without a person member, a POST to ${parentKind.plural}/${id}/${helper.path} creates a record and needs an API key`,
          {
            hint: `send { "person": { … } } to call the ${helper.rel} without a key, or send your API key in the ${config.apiKeyHeader} header`,
          },
        );
      }
    }
    const { kind, id, sub, subKind } = await subOf(c);
    if (!subKind.writable) methodNotAllowed(['GET'])(c);
    return create(c, subKind, { rel: sub.via, ref: { kind: kind.singular, id } }, body);
  });
  app.all(subPath, methodNotAllowed(['GET', 'POST']));
}
