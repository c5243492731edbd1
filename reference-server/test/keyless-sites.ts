/**
 * The server under both presets, as the keyless tests need it: keyed calls to set the
 * scene (a person, her tags, a petition), calls without a key to sign, and reads of
 * what is stored, each by the URLs that preset documents. The tests then hold both
 * presets (and, through the harnesses, both engines) to the same rule.
 */
import type { KeylessOpenings } from '../src/domain/helpers/keyless-openings.js';
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

/** Ana's address and phone, on file in every {@link keylessScene}. */
export const ANA = 'ana.moreno@example.org';
export const ANA_PHONE = '12025550101';

/** A server with Ana on file and a petition, and how a page signs it. */
export interface KeylessScene {
  site: Site;
  petition: Json;
  ana: Json;
  /** Posts a signature of the petition without a key. */
  sign(body: Json): Promise<Answer>;
}

/**
 * A fresh server under `name` with the tags `member`, `staff` and `volunteer` (`open`
 * opened to calls without a key), Ana on file (her address with `emailStatus`, a phone,
 * a postal address, a custom field, tagged `member`) and a petition.
 *
 * @example
 * ```ts
 * const { sign, ana } = await keylessScene('reference', { tags: ['volunteer'] });
 * ```
 */
export async function keylessScene(
  name: Site['name'],
  open: KeylessOpenings = { tags: ['volunteer'] },
  emailStatus = 'subscribed',
): Promise<KeylessScene> {
  const site = keylessSite(name, open);
  for (const tag of ['member', 'staff', 'volunteer']) {
    await keyedOk(site, 'POST', site.collection('tags'), { name: tag });
  }
  // Action Network's lists are read-only: the reference preset's only.
  if (name === 'reference') {
    await keyedOk(site, 'POST', site.collection('lists'), { name: 'Newsletter' });
  }
  const ana = await keyedOk(site, 'POST', site.personSignup, {
    person: {
      given_name: 'Ana',
      family_name: 'Moreno',
      email_addresses: [{ address: ANA, primary: true, status: emailStatus }],
      phone_numbers: [{ number: ANA_PHONE, primary: true }],
      postal_addresses: [
        { locality: 'Portland', postal_code: '97211', country: 'US', primary: true },
      ],
      custom_fields: { team: 'north' },
    },
    add_tags: ['member'],
  });
  const petition = await keyedOk(site, 'POST', site.collection('petitions'), {
    title: 'Keep the branch library open',
  });
  const helper = site.signatureHelper(petition);
  return { site, petition, ana, sign: (body) => site.keyless('POST', helper, body) };
}
