/**
 * Person matching and merging, shared by every helper that carries a person (record
 * signature, outreach, attendance and its ticket holders, donation, submission, the
 * canvasser of a canvass, person signup).
 *
 * Matching (the spec leaves the method to the system): by identifier (the local
 * `<namespace>:<id>` or a foreign one the person already carries; keyed calls only),
 * then by email address (case-insensitive), then by phone number. The first match wins.
 *
 * Merging into the match depends on who calls:
 * - a keyed call (a trusted system) overwrites the fields it sends (objects member by
 *   member); email addresses, phone numbers and postal addresses are merged by key into
 *   the stored members or added; a member sent as primary demotes the others, so at
 *   most one primary remains; foreign identifiers are added.
 * - a call without a key (a browser page anyone can post from) is a stranger: it may
 *   only fill what is empty (docs/helpers.md, "What a call without a key may do"). It
 *   never gives the person a new way to be matched: the email addresses, phone numbers
 *   and identifiers it sends beside the one that matched are dropped, so whoever knows
 *   Ana's address cannot add their own to her record and be taken for her by the next
 *   call. It never changes a stored member (a status, a primary flag), and gives a postal
 *   address only to a person who has none. A person it creates takes from it only the
 *   statuses a person chooses for themselves (`subscribed`, `unsubscribed`).
 *
 * Under a preset with rules for subscription statuses (Action Network), the statuses of
 * the email addresses and phone numbers sent are set by them first (`signup-statuses.ts`).
 */
import type { JsonObject, StoredRecord, Tenant } from '../../storage/storage.js';
import { localIdentifier } from '../identifiers.js';
import { applyPatch, dropNulls, fillGaps, isPlainObject } from '../merge.js';
import { normaliseEmail, personKind } from '../person.js';
import type { RecordService } from '../records/index.js';
import { MEMBER_KEYS, type MemberKey } from './member-keys.js';
import { type SignupStatuses, withSignupStatuses } from './signup-statuses.js';

/** A person found or created by {@link upsertPerson}. */
export interface PersonUpsert {
  record: StoredRecord;
  /** True when no person matched and this one was created. */
  created: boolean;
}

/** Options of {@link upsertPerson}. */
export interface UpsertOptions {
  /** An anonymous call: match without identifiers, fill instead of overwrite. */
  anonymous: boolean;
  now: Date;
  /** Members stored on the person besides the sent ones (the signup's `triggers`). */
  extra?: JsonObject;
  /**
   * The server's rules for the statuses of the email addresses and phone numbers
   * written (`signup-statuses.ts`); none (the specification): merged as sent.
   */
  statuses?: SignupStatuses | null;
}

function list(doc: JsonObject, field: string): JsonObject[] {
  const value = doc[field];
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Merges sent members into stored ones, matching by `key` (keyed calls); members sent
 * as primary demote every other member.
 *
 * @example
 * ```ts
 * import { mergeMembers } from './matching.js';
 *
 * mergeMembers([{ address: 'a@x.org', primary: true }], [{ address: 'b@x.org', primary: true }], (m) => String(m.address));
 * // [{ address: 'a@x.org', primary: false }, { address: 'b@x.org', primary: true }]
 * ```
 */
export function mergeMembers(
  stored: readonly JsonObject[],
  sent: readonly JsonObject[],
  key: MemberKey,
): JsonObject[] {
  const out = stored.map((member) => ({ ...member }));
  const primaries = new Set<JsonObject>();
  for (const member of sent) {
    const k = key(member);
    const index = k === undefined ? -1 : out.findIndex((existing) => key(existing) === k);
    const merged =
      index >= 0 ? applyPatch(out[index] as JsonObject, member) : applyPatch({}, member);
    if (index >= 0) out[index] = merged;
    else out.push(merged);
    if (member.primary === true) {
      primaries.clear();
      primaries.add(merged);
    }
  }
  if (primaries.size > 0) {
    for (const member of out)
      if (!primaries.has(member) && member.primary === true) member.primary = false;
  }
  return out;
}

/**
 * Appends the sent members the stored list lacks (a keyless call's postal addresses for a
 * person who has none: see {@link fillPerson}). Known members stay
 * as stored; a member without a key (nothing to recognise it by) is not added, so that
 * repeated calls do not pile up copies; a new member sent as primary stays primary only
 * when no stored member is.
 *
 * @example
 * ```ts
 * import { appendMembers } from './matching.js';
 *
 * appendMembers([{ address: 'a@x.org', primary: true }], [{ address: 'b@x.org', primary: true }], (m) => String(m.address));
 * // [{ address: 'a@x.org', primary: true }, { address: 'b@x.org', primary: false }]
 * ```
 */
export function appendMembers(
  stored: readonly JsonObject[],
  sent: readonly JsonObject[],
  key: MemberKey,
): JsonObject[] {
  const out = stored.map((member) => ({ ...member }));
  let hasPrimary = out.some((member) => member.primary === true);
  for (const member of sent) {
    const k = key(member);
    if (k === undefined || out.some((existing) => key(existing) === k)) continue;
    const added = dropNulls(member);
    if (added.primary === true) {
      if (hasPrimary) added.primary = false;
      hasPrimary = true;
    }
    out.push(added);
  }
  return out;
}

/**
 * The stored person's fields merged with a sent person (keyed calls).
 *
 * @example
 * ```ts
 * import { mergePerson } from './matching.js';
 *
 * mergePerson({ given_name: 'Ana' }, { given_name: 'Anabel', family_name: 'Diaz' });
 * // { given_name: 'Anabel', family_name: 'Diaz' }
 * ```
 */
export function mergePerson(stored: JsonObject, sent: JsonObject): JsonObject {
  const plain: JsonObject = {};
  const out: JsonObject = { ...stored };
  for (const [field, value] of Object.entries(sent)) {
    const key = MEMBER_KEYS[field];
    if (key && Array.isArray(value)) {
      out[field] = mergeMembers(list(stored, field), value.filter(isPlainObject), key);
    } else {
      plain[field] = value;
    }
  }
  return applyPatch(out, plain, [...personKind.readOnly, 'identifiers']);
}

/**
 * What a call without a key may do to each member list of a person it matched. Email
 * addresses and phone numbers are what people are matched by: one added by a stranger
 * would make the next call with it, keyed or not, land on this person, so none is
 * added. A postal address matches nobody but is where mail goes: a stranger may give
 * one to a person who has none, never a second one.
 */
const KEYLESS_LISTS: Readonly<Record<string, 'keep' | 'fill when empty'>> = {
  email_addresses: 'keep',
  phone_numbers: 'keep',
  postal_addresses: 'fill when empty',
};

/**
 * The statuses a person picks for themselves on a form: the only ones a call without a
 * key may give the members of a person it creates (`bouncing`, `spam complaints` are
 * what a mail system learns, not what a page says).
 */
const SELF_CHOSEN_STATUSES: readonly string[] = ['subscribed', 'unsubscribed'];

/**
 * The stored person's fields with the sent person's filling the gaps (calls without a
 * key): nothing stored is changed or removed, `null` clears nothing, identifiers are
 * ignored, and no email address or phone number is added (see {@link KEYLESS_LISTS}).
 *
 * @example
 * ```ts
 * import { fillPerson } from './matching.js';
 *
 * fillPerson(
 *   { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
 *   { given_name: 'Mallory', family_name: 'Diaz', email_addresses: [{ address: 'ana@example.org' }, { address: 'mallory@example.net' }] },
 * );
 * // { given_name: 'Ana', family_name: 'Diaz', email_addresses: [{ address: 'ana@example.org' }] }
 * ```
 */
export function fillPerson(stored: JsonObject, sent: JsonObject): JsonObject {
  const out: JsonObject = { ...stored };
  for (const [field, value] of Object.entries(sent)) {
    if (value === null || value === undefined || field === 'identifiers') continue;
    if (personKind.readOnly.includes(field)) continue;
    const key = MEMBER_KEYS[field];
    if (key && Array.isArray(value)) {
      if (KEYLESS_LISTS[field] === 'fill when empty' && list(stored, field).length === 0) {
        out[field] = appendMembers([], value.filter(isPlainObject), key);
      }
    } else {
      out[field] = fillGaps(stored[field], value);
    }
  }
  return out;
}

/**
 * A person a call without a key creates, with only the statuses a person chooses for
 * themselves ({@link SELF_CHOSEN_STATUSES}): any other is left out, so the helper's
 * default applies.
 */
function withSelfChosenStatuses(person: JsonObject): JsonObject {
  const out: JsonObject = { ...person };
  for (const field of ['email_addresses', 'phone_numbers']) {
    const members = person[field];
    if (!Array.isArray(members)) continue;
    out[field] = members.map((member) => {
      if (!isPlainObject(member) || member.status === undefined || member.status === null)
        return member;
      if (typeof member.status === 'string' && SELF_CHOSEN_STATUSES.includes(member.status))
        return member;
      const { status: _notTaken, ...rest } = member;
      return rest;
    });
  }
  return out;
}

/**
 * Finds the tenant's person matching `person`: by identifier, then email, then phone.
 * Anonymous callers pass a person without identifiers.
 */
export async function findMatch(
  records: RecordService,
  tenant: Tenant,
  person: JsonObject,
): Promise<StoredRecord | undefined> {
  const storage = records.storage;
  const kind = personKind.singular;
  const candidates: (string | undefined)[] = [];
  for (const identifier of strings(person.identifiers)) {
    candidates.push(await storage.records.findByIdentifier(tenant.id, kind, identifier));
  }
  for (const email of list(person, 'email_addresses')) {
    if (typeof email.address !== 'string') continue;
    const address = normaliseEmail(email.address);
    // For insert: a signup of the same address elsewhere waits, then matches this one.
    candidates.push(
      (await storage.records.findByKey(tenant.id, kind, 'email', address, { forInsert: true }))[0],
    );
  }
  for (const phone of list(person, 'phone_numbers')) {
    if (typeof phone.number !== 'string') continue;
    candidates.push(
      (
        await storage.records.findByKey(tenant.id, kind, 'phone', phone.number, { forInsert: true })
      )[0],
    );
  }
  const id = candidates.find((candidate) => candidate !== undefined);
  // For update: the match is merged into and written back.
  return id === undefined
    ? undefined
    : storage.records.get(tenant.id, kind, id, { forUpdate: true });
}

/**
 * Finds the person a helper call is about and creates or updates it, by the rules at the
 * top of this module. Call it inside the helper's transaction, so that matching and
 * writing cannot interleave with another call.
 */
export async function upsertPerson(
  records: RecordService,
  tenant: Tenant,
  sent: JsonObject,
  options: UpsertOptions,
): Promise<PersonUpsert> {
  const { anonymous, now, extra = {}, statuses } = options;
  const { identifiers: sentIdentifiers, ...fields } = sent;
  const asSent = anonymous ? fields : sent;
  const match = await findMatch(records, tenant, asSent);
  const chosen = anonymous && !match ? withSelfChosenStatuses(asSent) : asSent;
  const person = statuses ? withSignupStatuses(chosen, match?.doc, statuses, MEMBER_KEYS) : chosen;
  if (!match) {
    return {
      // No signup event: the act of the call (its signature, …) carries the person, and
      // the person signup helper makes its own, matched or created.
      record: await records.create(tenant, personKind, person, {
        now,
        recorded: extra,
        event: false,
      }),
      created: true,
    };
  }
  const stored = strings(match.doc.identifiers);
  const local = localIdentifier(tenant.namespace, match.id);
  const identifiers = anonymous
    ? stored
    : [...new Set([...stored, ...strings(sentIdentifiers)])].filter(
        (identifier) => identifier === local || !identifier.startsWith(`${tenant.namespace}:`),
      );
  const merged = anonymous ? fillPerson(match.doc, person) : mergePerson(match.doc, person);
  const next = { ...merged, ...extra };
  // Nothing new (an anonymous caller signing again): no write, modified_date stays.
  if (identifiers.length === stored.length && JSON.stringify(next) === JSON.stringify(match.doc)) {
    return { record: match, created: false };
  }
  return {
    record: await records.replace(
      tenant,
      // The person kind served, whose vocabulary the server's preset sets.
      records.registry.bySingular(personKind.singular) ?? personKind,
      match,
      { identifiers, fields: next, now, sent: anonymous ? [] : strings(sentIdentifiers) },
    ),
    created: false,
  };
}
