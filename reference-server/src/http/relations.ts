/**
 * Relation names on the wire, under the configured curie prefix.
 *
 * The specification writes its relations with the prefix `std` (`std:person`,
 * `std:control`, `std:error`), but a curie prefix is a local abbreviation: the curie's
 * href is what identifies a relation. A server may use another one (OSDI servers such
 * as Action Network write `osdi:`), so the prefix is a setting (`AppOptions.curiePrefix`).
 *
 * Inside the server every relation keeps its canonical name, `std:<name>`: the domain
 * builds error bodies and helper answers with it, and reads link inputs by it. The HTTP
 * layer translates at its edge, in both directions and in one place each:
 *
 * - in: {@link canonicalBody} renames a request body's `<prefix>:` members (top level,
 *   such as `<prefix>:control`, and `_links`) to `std:`, so both spellings are accepted;
 * - out: the renderers write `Urls.rel(name)`, and {@link presentBody} renames the
 *   relations of a body the domain built (top-level members, `_embedded` members, the
 *   error member and its resource names).
 *
 * With the default prefix both are the identity, and cost nothing.
 */
import { apiError, ErrorCode } from '../domain/errors.js';
import { isPlainObject } from '../domain/merge.js';
import type { JsonObject } from '../storage/storage.js';

/**
 * The specification's curie prefix: the default, and the one the domain writes.
 */
export const CANONICAL_PREFIX = 'std';

const CANONICAL = `${CANONICAL_PREFIX}:`;

/**
 * Checks a curie prefix: an XML name without a colon (what a CURIE prefix may be), of
 * ASCII letters, digits, `_`, `-` and `.`, starting with a letter or `_`, at most 32
 * characters. Returns it; throws a `RangeError` saying what is wrong.
 *
 * @example
 * ```ts
 * import { checkCuriePrefix } from './relations.js';
 *
 * checkCuriePrefix('osdi'); // 'osdi'
 * checkCuriePrefix('osdi:'); // RangeError
 * ```
 */
export function checkCuriePrefix(prefix: string): string {
  if (typeof prefix !== 'string' || !/^[A-Za-z_][A-Za-z0-9_.-]{0,31}$/.test(prefix)) {
    throw new RangeError(
      `curie prefix must be 1 to 32 ASCII letters, digits, _ - or ., starting with a letter or _ (like osdi), got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
}

/**
 * The entry point's version member under a prefix: `std_version` by the specification,
 * `osdi_version` on an OSDI server.
 */
export function versionField(prefix: string): string {
  return `${prefix}_version`;
}

/**
 * A request body with the relations written under `prefix` renamed to their canonical
 * `std:` names: top-level members (`osdi:control`) and the members of `_links`. A body
 * naming one relation under both spellings is refused (400 `INVALID_PROPERTY`): which
 * one was meant cannot be told. The same object when nothing needs renaming.
 *
 * @example
 * ```ts
 * import { canonicalBody } from './relations.js';
 *
 * const person = { href: 'http://h/api/v2/people/p1' };
 * canonicalBody({ _links: { 'osdi:person': person } }, 'osdi'); // { _links: { 'std:person': person } }
 * ```
 */
export function canonicalBody(
  body: JsonObject,
  prefix: string,
  relationNames: Readonly<Record<string, string>> = {},
): JsonObject {
  if (prefix === CANONICAL_PREFIX && Object.keys(relationNames).length === 0) return body;
  const own = `${prefix}:`;
  const renamed = prefix === CANONICAL_PREFIX ? body : renameMembers(body, own, CANONICAL, '');
  const links = renamed._links;
  if (!isPlainObject(links)) return renamed;
  let canonicalLinks =
    prefix === CANONICAL_PREFIX
      ? (links as JsonObject)
      : renameMembers(links as JsonObject, own, CANONICAL, '_links.');
  // A relation the server writes under another curie (`action_network:event_campaign`)
  // is read under that name too: the client echoes what it was given.
  for (const [name, written] of Object.entries(relationNames)) {
    if (!Object.hasOwn(canonicalLinks, written)) continue;
    const target = `${CANONICAL}${name}`;
    if (Object.hasOwn(canonicalLinks, target)) {
      throw apiError(
        400,
        ErrorCode.INVALID_PROPERTY,
        `_links.${written} and _links.${target} name the same relation; send one of them`,
        { properties: [`_links.${written}`] },
      );
    }
    const { [written]: value, ...rest } = canonicalLinks;
    canonicalLinks = { ...rest, [target]: value };
  }
  return canonicalLinks === links ? renamed : { ...renamed, _links: canonicalLinks };
}

/** `name` with its prefix `from` replaced by `to`; as it is when it does not start with `from`. */
function reprefixed(name: string, from: string, to: string): string {
  return name.startsWith(from) ? to + name.slice(from.length) : name;
}

/** `object` with the members starting with `from` renamed to start with `to`, refusing clashes. */
function renameMembers(object: JsonObject, from: string, to: string, path: string): JsonObject {
  let renamed: JsonObject | undefined;
  for (const key of Object.keys(object)) {
    if (!key.startsWith(from)) continue;
    const target = reprefixed(key, from, to);
    if (Object.hasOwn(object, target)) {
      throw apiError(
        400,
        ErrorCode.INVALID_PROPERTY,
        `${path}${key} and ${path}${target} name the same relation; send one of them`,
        // One path: the error's paths are written under the server's prefix anyway.
        { properties: [`${path}${key}`] },
      );
    }
    renamed ??= {};
  }
  if (renamed === undefined) return object;
  // Rebuilt in the same order, so that nothing else about the body changes.
  for (const [key, value] of Object.entries(object)) {
    renamed[reprefixed(key, from, to)] = value;
  }
  return renamed;
}

/**
 * A body the domain built with canonical `std:` relations (an error body, a helper's
 * answer), with them under `prefix`: its top-level members (`std:error`, `std:person`
 * beside a non-atomic error), the members of its `_embedded`, and in an error the
 * resource names and every `std:` segment of its property paths (`_links.std:…`,
 * `canvass._links.std:…`, `std:control.…`). Records rendered into it
 * already carry the prefix (the renderers write it), and nothing else is touched. The
 * same object with the default prefix.
 *
 * @example
 * ```ts
 * import { presentBody } from './relations.js';
 *
 * presentBody({ 'std:error': { request_type: 'atomic', response_code: 404, resource_status: [] } }, 'osdi');
 * // { 'osdi:error': { request_type: 'atomic', response_code: 404, resource_status: [] } }
 * ```
 */
export function presentBody(body: JsonObject, prefix: string): JsonObject {
  if (prefix === CANONICAL_PREFIX) return body;
  const own = `${prefix}:`;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === `${CANONICAL}error` && isPlainObject(value)) {
      out[`${own}error`] = presentError(value as JsonObject, own);
    } else if (key === '_embedded' && isPlainObject(value)) {
      out[key] = renameMembers(value as JsonObject, CANONICAL, own, '_embedded.');
    } else {
      out[reprefixed(key, CANONICAL, own)] = value;
    }
  }
  return out;
}

/**
 * A segment of a dotted property path that starts with `std:`: at the start or after a
 * dot (`_links.std:person`, `canvass._links.std:canvasser`, `std:control.return_response`).
 */
const CANONICAL_SEGMENT = new RegExp(`(^|\\.)${CANONICAL}`, 'g');

/**
 * A canonical relation named inside a sentence (`a std:person needs …`): `std:` at the
 * start of a word and before a name, so that a URL's or another prefix's `…std:` is left.
 */
const CANONICAL_IN_TEXT = new RegExp(`(^|[^\\w:./-])${CANONICAL}(?=[A-Za-z_])`, 'g');

/**
 * An error member's resource names, every `std:` segment of its property paths, and
 * the relations its descriptions and hints name, under `own`: a client of an OSDI
 * server reads `osdi:person` everywhere.
 */
function presentError(error: JsonObject, own: string): JsonObject {
  const statuses = error.resource_status;
  if (!Array.isArray(statuses)) return error;
  const renameResource = (name: unknown) =>
    typeof name === 'string' ? reprefixed(name, CANONICAL, own) : name;
  const renamePath = (path: unknown) =>
    typeof path === 'string'
      ? path.replace(CANONICAL_SEGMENT, (_, lead: string) => lead + own)
      : path;
  const renameText = (text: unknown) =>
    typeof text === 'string'
      ? text.replace(CANONICAL_IN_TEXT, (_, lead: string) => lead + own)
      : text;
  return {
    ...error,
    resource_status: statuses.map((status) => {
      if (!isPlainObject(status)) return status;
      const descriptions = status.error_descriptions;
      return {
        ...status,
        resource: renameResource(status.resource),
        ...(Array.isArray(descriptions)
          ? {
              error_descriptions: descriptions.map((description) =>
                isPlainObject(description)
                  ? {
                      ...description,
                      ...(typeof description.description === 'string'
                        ? { description: renameText(description.description) }
                        : {}),
                      ...(typeof description.hint === 'string'
                        ? { hint: renameText(description.hint) }
                        : {}),
                      ...(Array.isArray(description.properties)
                        ? { properties: description.properties.map(renamePath) }
                        : {}),
                    }
                  : description,
              ),
            }
          : {}),
      };
    }),
  };
}
