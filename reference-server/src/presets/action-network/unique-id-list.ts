/**
 * Action Network's unique ID lists on the reference server (`docs/v2/unique_id_lists`,
 * "ID targets" in its interface): a named list of the unique IDs of people already in
 * the group, created with its `name` and `unique_ids`, replaced by PUT, with a `count`
 * the server computes.
 */

import { uniqueIdListKind } from 'adis-sdk/server-kit';
import { serveKind } from '../../domain/define-kind.js';
import { ErrorCode, type ErrorDescription } from '../../domain/errors.js';
import type { CheckContext, References, ResourceKind } from '../../domain/kinds.js';
import type { JsonObject } from '../../storage/storage.js';

/** Unknown IDs reported one by one; the rest are counted (a list may hold thousands). */
const REPORTED_IDS = 20;

function idsOf(doc: JsonObject): string[] {
  return Array.isArray(doc.unique_ids)
    ? doc.unique_ids.filter((id): id is string => typeof id === 'string')
    : [];
}

/** `count`: how many people the list names (an ID sent twice counts once). */
function deriveCount(doc: JsonObject): JsonObject {
  return { ...doc, count: new Set(idsOf(doc)).size };
}

/**
 * Every unique ID must be the id of a person of the tenant: Action Network's lists
 * "cannot add new people", they name people already in the group. An ID is the id of
 * the person's URL (`people/<id>`), the part of its identifier after the namespace.
 */
async function checkPeopleExist(
  doc: JsonObject,
  _refs: References,
  _id: string,
  context: CheckContext,
): Promise<ErrorDescription[]> {
  const unknown: { id: string; index: number }[] = [];
  for (const [index, id] of idsOf(doc).entries()) {
    if (!(await context.document({ kind: 'person', id }))) unknown.push({ id, index });
  }
  const errors: ErrorDescription[] = unknown.slice(0, REPORTED_IDS).map(({ id, index }) => ({
    error_code: ErrorCode.INVALID_PROPERTY,
    description: `unique_ids[${index}]: ${JSON.stringify(id)} is not the id of a person of this group`,
    properties: [`unique_ids[${index}]`],
    hint: 'a unique ID list names people already in the group: send the id of each person’s URL (people/<id>)',
  }));
  if (unknown.length > REPORTED_IDS) {
    errors.push({
      error_code: ErrorCode.INVALID_PROPERTY,
      description: `${unknown.length - REPORTED_IDS} more unique_ids name no person of this group`,
      properties: ['unique_ids'],
    });
  }
  return errors;
}

/**
 * The server's unique ID list: the SDK's declaration (`uniqueIdListKind`), created with
 * a `name` and its `unique_ids` (ids of the tenant's people), its `count` derived.
 */
export const uniqueIdListServerKind: ResourceKind = serveKind(uniqueIdListKind, {
  title: 'The collection of unique ID lists in the system',
  requiredOnCreate: ['name', 'unique_ids'],
  derive: deriveCount,
  check: checkPeopleExist,
});
