/**
 * Links a helper body may carry to existing records (a donation's attendance, a
 * canvass's canvasser): `_links: { "<prefix>:<rel>": { "href": … } }`. Any prefix is
 * taken (`std:`, `osdi:`, the server's own): it is only the server's abbreviation. Each
 * href is read as the routes read hrefs; whether it names an existing record of the
 * right kind in the caller's tenant is the record service's usual link check on create
 * (400 INVALID_LINK otherwise), so helpers and plain writes refuse the same links.
 */
import { isPlainObject } from '../merge.js';
import type { LinkInput, LinkTarget } from '../records/index.js';
import type { HelperContext } from './context.js';

/**
 * The links of a helper body's `_links` among `rels`, keyed by relation without its
 * prefix. Other relations are skipped (the body schemas admit none); a `null` link sets
 * nothing on create.
 */
export function bodyLinks(
  context: HelperContext,
  links: unknown,
  rels: readonly string[],
): LinkInput {
  const out: Record<string, LinkTarget> = {};
  if (!isPlainObject(links)) return out;
  for (const [key, value] of Object.entries(links)) {
    const rel = key.slice(key.indexOf(':') + 1);
    if (!rels.includes(rel) || value === null || value === undefined) continue;
    const href = isPlainObject(value) ? value.href : value;
    out[rel] =
      typeof href === 'string'
        ? (context.resolveHref(href) ?? { invalid: href })
        : { invalid: JSON.stringify(value) };
  }
  return out;
}
