/**
 * Generic collection, record and sub-collection routes for every registered kind:
 * `/api/v1/<plural>`, `/api/v1/<plural>/<id>`, `/api/v1/<plural>/<id>/<sub-plural>`.
 */
import type { Context, Hono } from 'hono';
import { apiError, ErrorCode } from '../../domain/errors.js';
import type { ResourceKind } from '../../domain/kinds.js';
import { parsePageRequest } from '../../domain/paging.js';
import { readJsonObject, takeControl } from '../body.js';
import type { AppConfig, AppEnv } from '../env.js';
import { API_PREFIX } from '../links.js';
import { methodNotAllowed } from '../middleware.js';
import { minimalRecord, renderCollection, renderRecord } from '../render.js';
import { hal } from '../respond.js';

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

function pageRequest(c: Context<AppEnv>, config: AppConfig) {
  return parsePageRequest(
    {
      page: c.req.query('page'),
      per_page: c.req.query('per_page'),
      after: c.req.query('after'),
      before: c.req.query('before'),
    },
    config.maxPageSize,
  );
}

/**
 * Registers the generic routes.
 *
 * @example
 * ```ts
 * registerRecordRoutes(app, config);
 * ```
 */
export function registerRecordRoutes(app: Hono<AppEnv>, config: AppConfig): void {
  const { records } = config;
  const collectionPath = `${API_PREFIX}/:collection`;
  const recordPath = `${API_PREFIX}/:collection/:id`;
  const subPath = `${API_PREFIX}/:collection/:id/:sub`;

  app.get(collectionPath, (c) => {
    const kind = kindOf(c, config);
    const urls = c.get('urls');
    const request = pageRequest(c, config);
    const page = records.page(c.get('auth').tenant, { kind: kind.singular }, request);
    return hal(
      renderCollection(
        urls.collection(kind.plural),
        kind.plural,
        page,
        request,
        urls.curies(),
        (r) => renderRecord(urls, kind, r, false),
      ),
    );
  });

  app.post(collectionPath, async (c) => {
    const kind = writableKindOf(c, config, ['GET']);
    const { control, rest } = takeControl(await readJsonObject(c));
    const record = records.create(c.get('auth').tenant, kind, kind.parse(rest));
    const urls = c.get('urls');
    const body = control.returnResponse
      ? renderRecord(urls, kind, record, true)
      : minimalRecord(urls, kind, record);
    return hal(body, 201, { Location: urls.record(kind.plural, record.id) });
  });
  app.all(collectionPath, methodNotAllowed(['GET', 'POST']));

  app.get(recordPath, (c) => {
    const kind = kindOf(c, config);
    const record = records.get(c.get('auth').tenant, kind, c.req.param('id'));
    return hal(renderRecord(c.get('urls'), kind, record, true));
  });

  const update = async (c: Context<AppEnv>) => {
    const kind = writableKindOf(c, config, ['GET']);
    const tenant = c.get('auth').tenant;
    const id = c.req.param('id') ?? '';
    // 404 before validation: a client updating a deleted record should learn that first.
    records.get(tenant, kind, id);
    const { control, rest } = takeControl(await readJsonObject(c));
    const record = records.update(tenant, kind, id, kind.parse(rest));
    const urls = c.get('urls');
    return hal(
      control.returnResponse
        ? renderRecord(urls, kind, record, true)
        : minimalRecord(urls, kind, record),
    );
  };
  app.put(recordPath, update);
  // The spec's PUT is already a partial update; PATCH is accepted as a synonym.
  app.patch(recordPath, update);

  app.delete(recordPath, (c) => {
    const kind = writableKindOf(c, config, ['GET']);
    records.delete(c.get('auth').tenant, kind, c.req.param('id'));
    return hal(undefined, 204);
  });
  app.all(recordPath, methodNotAllowed(['GET', 'PUT', 'PATCH', 'DELETE']));

  app.get(subPath, (c) => {
    const kind = kindOf(c, config);
    const tenant = c.get('auth').tenant;
    const id = c.req.param('id');
    const subName = c.req.param('sub');
    const sub = kind.subCollections.find((s) => s.plural === subName);
    if (!sub)
      throw apiError(404, ErrorCode.NOT_FOUND, `no sub-collection ${subName} on ${kind.plural}`);
    records.get(tenant, kind, id);
    const request = pageRequest(c, config);
    const page = records.page(
      tenant,
      { kind: sub.kind, parent: { kind: kind.singular, id } },
      request,
    );
    const urls = c.get('urls');
    const subKind = config.registry.bySingular(sub.kind);
    return hal(
      renderCollection(
        urls.subCollection(kind.plural, id, sub.plural),
        sub.plural,
        page,
        request,
        urls.curies(),
        // Until the sub-collection's kind is registered (a later slice) it has no
        // records; render raw documents with a self link into their own collection.
        (r) =>
          subKind
            ? renderRecord(urls, subKind, r, false)
            : { ...r.doc, _links: { self: { href: urls.record(sub.plural, r.id) } } },
      ),
    );
  });
  app.all(subPath, methodNotAllowed(['GET']));
}
