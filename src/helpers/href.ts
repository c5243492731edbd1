import { InvalidLinkError } from '../errors/invalid-link-error.js';
import { LinkNotFoundError } from '../errors/link-not-found-error.js';
import { isJsonObject, toLinkList } from '../hal/link.js';
import { resolveHref, unfetchableReason } from '../hal/uri.js';

// The light entry has no HAL parser (the full SDK's HalDocument, curies and templates
// weigh more than a page should carry): this reads the one link a page needs from a
// resource's plain JSON.

/** What a resource without a usable self link is called in error messages. */
const UNNAMED = 'the resource given (no self link)';

/** The absolute self href of a resource's JSON, or undefined. */
function selfHref(links: Record<string, unknown>): string | undefined {
  const href = toLinkList(links.self)[0]?.href;
  return href !== undefined && unfetchableReason(href) === undefined ? href : undefined;
}

/**
 * The absolute URL of a helper link of a resource (a petition, an event, a form), read
 * from the resource's JSON whatever the curie prefix the server uses: `std:` on the
 * reference server, `osdi:` or another on servers in the wild. A page hands on the
 * href it gets to `recordSignature` & co., and never spells a prefix itself.
 *
 * A relation matches when it is the name itself or `<prefix>:<name>` for any prefix;
 * when several match, one whose prefix the resource declares in `_links.curies` wins.
 * A relative href is resolved against the resource's self link.
 *
 * @param resource - The resource's JSON as the server sent it (parsed), for example
 *   a petition read by your site's server with its key and put in the page.
 * @param name - The helper's relation without prefix, such as `record_signature_helper`
 *   or `record_attendance_helper`; a prefix given (`std:…`) is ignored.
 * @returns The helper's absolute http(s) URL.
 * @throws {@link LinkNotFoundError} when the resource has no such link (or is not a
 *   JSON object), naming the relations it has; {@link InvalidLinkError} when the link
 *   is a template or does not resolve to an absolute http(s) URL.
 *
 * @example
 * ```ts
 * import { helperHref, recordSignature } from 'adis-sdk/helpers';
 *
 * const petition = await (await fetch('/petition.json')).json(); // from your own site
 * const href = helperHref(petition, 'record_signature_helper');
 * await recordSignature(href, { person: { given_name: 'Ana' } });
 * ```
 */
export function helperHref(resource: unknown, name: string): string {
  const bare = name.slice(name.indexOf(':') + 1);
  const links = isJsonObject(resource) && isJsonObject(resource._links) ? resource._links : {};
  const self = selfHref(links);
  const declared = new Set(toLinkList(links.curies).map((curie) => curie.name));
  let found: { rel: string; href: string; templated: boolean } | undefined;
  for (const [rel, value] of Object.entries(links)) {
    const colon = rel.indexOf(':');
    const prefix = colon === -1 ? undefined : rel.slice(0, colon);
    const matches = rel === bare || (prefix !== undefined && rel.slice(colon + 1) === bare);
    // A full URI (`https://…/record_signature_helper`) is not a compact relation.
    if (!matches || prefix?.includes('/')) continue;
    const link = toLinkList(value)[0];
    if (link === undefined) continue;
    const isDeclared = prefix !== undefined && declared.has(prefix);
    if (found === undefined || isDeclared) {
      found = { rel, href: link.href, templated: link.templated === true };
    }
    if (isDeclared) break;
  }
  const where = self ?? UNNAMED;
  if (found === undefined) throw new LinkNotFoundError(name, where, Object.keys(links));
  const invalid = (reason: string) =>
    new InvalidLinkError({ rel: found.rel, href: found.href, documentUrl: self, reason });
  if (found.templated) throw invalid('a URI template, not the address of a helper');
  const href = self === undefined ? found.href : resolveHref(self, found.href);
  const unusable = unfetchableReason(href);
  if (unusable !== undefined) {
    throw invalid(
      self === undefined && !/^[a-z][a-z\d+.-]*:/i.test(href)
        ? 'relative, and the resource has no absolute self link to resolve it against'
        : unusable,
    );
  }
  return href;
}
