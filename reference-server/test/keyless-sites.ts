/**
 * The server under both presets, as the keyless tests need it: keyed calls to set the
 * scene (a person, her tags, a petition), calls without a key to sign, and reads of
 * what is stored, each by the URLs that preset documents. The tests then hold both
 * presets (and, through the harnesses, both engines) to the same rule.
 */
import type { KeylessOpenings } from '../src/domain/helpers/keyless.js';
import { API, actionNetworkServer, nativeId } from './action-network/an-server.js';
import { type Json, ORIGIN as REFERENCE_ORIGIN } from './helpers.js';
import { helperHarness } from './helpers-setup.js';

/** What a call answered. */
export interface Answer {
  status: number;
  body: Json;
}

/** One server, under one preset. */
export interface Site {
  name: 'reference' | 'action-network';
  /** The curie prefix of its relations. */
  prefix: string;
  /** A call with the write key (`url` absolute or below the API root). */
  keyed(method: string, url: string, body?: unknown): Promise<Answer>;
  /** The same call without a key. */
  keyless(method: string, url: string, body?: unknown): Promise<Answer>;
  /** The absolute URL of a collection. */
  collection(plural: string): string;
  /** Where a page posts a signature of `petition` (a record as read). */
  signatureHelper(petition: Json): string;
  /** Where a keyed system posts a person signup. */
  personSignup: string;
}

/** The name of each site, for `describe.each`. */
export const SITE_NAMES = ['reference', 'action-network'] as const;

/**
 * A fresh server under the preset `name`, with `open` opened to calls without a key.
 *
 * @example
 * ```ts
 * const site = keylessSite('action-network', { tags: ['volunteer'] });
 * ```
 */
export function keylessSite(name: Site['name'], open: KeylessOpenings = {}): Site {
  if (name === 'reference') {
    const h = helperHarness({ keylessOpen: open });
    const call = (key: null | undefined) => async (method: string, url: string, body?: unknown) => {
      const answer = await h.json(method, url, {
        ...(body === undefined ? {} : { body: body as Json }),
        ...(key === null ? { key } : {}),
      });
      return { status: answer.status, body: answer.body };
    };
    return {
      name,
      prefix: 'std',
      keyed: call(undefined),
      keyless: call(null),
      collection: (plural) => `${REFERENCE_ORIGIN}/api/v1/${plural}`,
      signatureHelper: (petition) => petition._links['std:record_signature_helper'].href,
      personSignup: `${REFERENCE_ORIGIN}/api/v1/people/person_signup_helper`,
    };
  }
  const an = actionNetworkServer({ app: { keylessOpen: open } });
  const call = (key: null | undefined) => async (method: string, url: string, body?: unknown) => {
    const answer = await an.call(method, url, body, key === null ? { key } : {});
    return { status: answer.status, body: answer.body };
  };
  return {
    name,
    prefix: 'osdi',
    keyed: call(undefined),
    keyless: call(null),
    collection: (plural) => `${API}/${plural}`,
    signatureHelper: (petition) => `${API}/petitions/${nativeId(petition)}/signatures`,
    personSignup: `${API}/people`,
  };
}

/** A keyed call that must succeed; its body. */
export async function keyedOk(site: Site, method: string, url: string, body?: unknown) {
  const answer = await site.keyed(method, url, body);
  if (answer.status >= 300) {
    throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body as Json;
}

/** Every member of a collection's first page (records the tests make fit one page). */
export async function listed(site: Site, url: string, plural: string): Promise<Json[]> {
  const page = await keyedOk(site, 'GET', url);
  return page._embedded?.[`${site.prefix}:${plural}`] ?? [];
}

/** The names of the tags a person carries, sorted. */
export async function tagNamesOf(site: Site, person: Json): Promise<string[]> {
  const taggings = await listed(site, person._links[`${site.prefix}:taggings`].href, 'taggings');
  const names: string[] = [];
  for (const tagging of taggings) {
    const tag = await keyedOk(site, 'GET', tagging._links[`${site.prefix}:tag`].href);
    names.push(tag.name);
  }
  return names.sort();
}

/** A person as stored, read again by her self href. */
export function reread(site: Site, person: Json): Promise<Json> {
  return keyedOk(site, 'GET', person._links.self.href);
}
