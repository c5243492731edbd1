/**
 * A record at its nested address, as a preset with `nestedAddresses` serves it
 * (Action Network: `petitions/{p}/signatures/{id}`, `tags/{t}/taggings/{id}`,
 * `people/{p}/signatures/{id}`, …): the parent's collection and id, one of its
 * sub-collections, and the record's id. The record is the one at `<sub-plural>/<id>`;
 * its answer is the same document, self link included (the record's own address: under
 * its home parent where the preset puts it there, `recordsUnderParents`, else flat).
 */
import type { Context } from 'hono';
import { apiError, ErrorCode } from '../../domain/errors.js';
import type { ResourceKind } from '../../domain/kinds.js';
import { referencesOf } from '../../domain/records/index.js';
import type { AppConfig, AppEnv } from '../env.js';

/** The record a nested address names, found in the caller's tenant. */
export interface NestedRecord {
  /** The record's kind (a signature). */
  kind: ResourceKind;
  /** The record's id. */
  id: string;
}

/**
 * The record at the nested address of the request (`:collection/:id/:sub/:subId`):
 * 404 unless the collection and sub-collection exist, the parent is a record of the
 * caller's tenant, and so is the record, linked to that parent by the sub-collection's
 * reference (a signature under `petitions/{p}` must be of petition `p`; under
 * `people/{p}` it must be `p`'s). Another tenant's record is 404 here as at its flat
 * address.
 */
export async function nestedRecordOf(c: Context<AppEnv>, config: AppConfig): Promise<NestedRecord> {
  const { registry, records } = config;
  const plural = c.req.param('collection') ?? '';
  const parentKind = registry.byPlural(plural);
  if (!parentKind) throw apiError(404, ErrorCode.NOT_FOUND, `no collection ${plural}`);
  const subName = c.req.param('sub') ?? '';
  const sub = parentKind.subCollections.find((s) => s.plural === subName);
  if (!sub) {
    throw apiError(404, ErrorCode.NOT_FOUND, `no sub-collection ${subName} on ${plural}`);
  }
  const kind = registry.bySingular(sub.kind);
  if (!kind) throw apiError(404, ErrorCode.NOT_FOUND, `no collection ${sub.plural}`);
  const tenant = c.get('auth').tenant;
  const parentId = c.req.param('id') ?? '';
  await records.get(tenant, parentKind, parentId);
  const id = c.req.param('subId') ?? '';
  const record = await records.get(tenant, kind, id);
  const parent = referencesOf(record.doc)[sub.via];
  if (parent?.kind !== parentKind.singular || parent.id !== parentId) {
    throw apiError(
      404,
      ErrorCode.NOT_FOUND,
      `no ${kind.singular} with id ${id} in ${plural}/${parentId}/${sub.plural}`,
      {
        hint: `the ${kind.singular} belongs to another ${parentKind.singular}: use its self link`,
        resource: `std:${kind.singular}`,
      },
    );
  }
  return { kind, id };
}
