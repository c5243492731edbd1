/**
 * The links a client sends in a write body (`_links`), and how they become a record's
 * references: each checked against the kind's relations and the tenant's records.
 */

import type { Tenant } from '../../storage/storage.js';
import type { ErrorDescription } from '../errors.js';
import { ErrorCode } from '../errors.js';
import type { References, ResourceKind } from '../kinds.js';
import type { RecordContext } from './context.js';

/**
 * Where a link sent by a client points, as the HTTP layer read its href: a record of
 * the collection `plural`, `null` to remove an optional link, or an href that names no
 * record of this server.
 */
export type LinkTarget = { plural: string; id: string } | null | { invalid: string };

/** Links of a write body by relation (without the prefix). */
export type LinkInput = Readonly<Record<string, LinkTarget>>;

/**
 * Applies the links a client sent to a record's references: checks each relation is
 * one of the kind's, each href names an existing record of an allowed kind in the
 * caller's tenant, and that required links are not removed. Problems are pushed to
 * `errors` so that they are reported with every other problem of the request.
 */
export async function applyLinks(
  context: RecordContext,
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
    const targetKind = 'invalid' in target ? undefined : context.registry.byPlural(target.plural);
    const allowed = reference.kinds.join(' or ');
    if (
      'invalid' in target ||
      !targetKind ||
      !reference.kinds.includes(targetKind.singular) ||
      !(await context.storage.records.get(tenant.id, targetKind.singular, target.id))
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
