import { isJsonObject } from '../wire/json-object.js';
import type { WebhookLinks } from './event.js';

/**
 * The relations that lead to the action a record was taken on, in the order tried for
 * `links.action`: a signature's petition, an attendance's event, a submission's form, a
 * donation's fundraising page, an outreach's advocacy campaign.
 */
const ACTION_RELATIONS = ['petition', 'event', 'form', 'fundraising_page', 'advocacy_campaign'];

/** The href of a HAL link object, or of the first of an array of them. */
function hrefOf(link: unknown): string | undefined {
  const first = Array.isArray(link) ? link.find(isJsonObject) : link;
  return isJsonObject(first) && typeof first.href === 'string' ? first.href : undefined;
}

/** `href` made absolute against `base` when it is relative and the base is a URL. */
function resolved(href: string, base: string | undefined): string {
  if (base === undefined || /^[a-z][a-z\d+.-]*:/i.test(href)) return href;
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}

/**
 * The links of a record's `_links` as URLs, by relation name after its prefix
 * (`osdi:person` is `person`), with `action` for the action acted on. Curies are
 * skipped: senders write absolute hrefs, and a relative one is resolved against `self`.
 * When two prefixes give the same name, the first one sent wins.
 *
 * @example
 * ```ts
 * import { readLinks } from './links.js';
 *
 * readLinks({ self: { href: 'https://an.example/api/v2/signatures/1' }, 'osdi:petition': { href: '/api/v2/petitions/9' } });
 * // { self: 'https://an.example/api/v2/signatures/1', petition: 'https://an.example/api/v2/petitions/9', action: 'https://an.example/api/v2/petitions/9' }
 * ```
 */
export function readLinks(links: Record<string, unknown> | undefined): WebhookLinks {
  const found: Record<string, string> = {};
  if (links === undefined) return found;
  const self = hrefOf(links.self);
  for (const [relation, link] of Object.entries(links)) {
    if (relation === 'curies') continue;
    const href = hrefOf(link);
    if (href === undefined) continue;
    const name = relation.slice(relation.lastIndexOf(':') + 1);
    // `__proto__` would set the prototype of `found`, not a member.
    if (name === '' || name === '__proto__' || Object.hasOwn(found, name)) continue;
    found[name] = resolved(href, self);
  }
  const action = ACTION_RELATIONS.find((name) => Object.hasOwn(found, name));
  if (action !== undefined && !Object.hasOwn(found, 'action'))
    found.action = found[action] as string;
  return found;
}
