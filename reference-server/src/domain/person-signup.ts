/**
 * The person signup helper: create a person, or update the matching one.
 *
 * Matching (the spec leaves the method to the system): first by identifier (the local
 * `<namespace>:<id>` or a foreign one the person already carries), then by email
 * address (case-insensitive), then by phone number. The first match wins.
 *
 * Merge into the match: fields sent overwrite the stored ones (objects member by
 * member); email addresses, phone numbers and postal addresses are added when new and
 * merged into the stored member when they match (same address ignoring case, same
 * number, same street lines/locality/postal code/country); a member sent as primary
 * makes every other member non-primary; foreign identifiers are added.
 *
 * Helper action functions (tags, lists, answers, triggers) are not implemented yet:
 * they are reported per function as NOT_SUPPORTED in a non-atomic error while the
 * person write is kept (the spec's non-atomic example).
 */
import * as z from 'zod';
import type { JsonObject, StoredRecord, Tenant } from '../storage/storage.js';
import { ErrorCode, type ResourceStatus } from './errors.js';
import { localIdentifier } from './identifiers.js';
import { applyPatch, isPlainObject } from './merge.js';
import { normaliseEmail, personKind } from './person.js';
import type { RecordService } from './records.js';
import { parseOrThrow } from './validation.js';

/** Action functions of helper bodies and the resource each one would create. */
export const ACTION_FUNCTIONS = {
  add_tags: 'std:tagging',
  add_tags_uri: 'std:tagging',
  add_lists: 'std:item',
  add_lists_uri: 'std:item',
  add_questions_responses_uri: 'std:answer',
  triggers: 'std:trigger',
} as const;

const triggerSchema = z.strictObject({
  enabled: z.boolean().nullish(),
  identifiers: z.array(z.string()).nullish(),
});

/** Body of a person signup helper call (without `std:control`, handled by HTTP). */
export const PersonSignupBodySchema = z.strictObject({
  person: z.record(z.string(), z.unknown()),
  add_tags: z.array(z.string()).nullish(),
  add_tags_uri: z.array(z.string()).nullish(),
  add_lists: z.array(z.string()).nullish(),
  add_lists_uri: z.array(z.string()).nullish(),
  add_questions_responses_uri: z
    .array(
      z.strictObject({
        question: z.string(),
        responses: z.array(z.string()).nullish(),
        value: z.string().nullish(),
      }),
    )
    .nullish(),
  triggers: z
    .strictObject({
      autoresponse: triggerSchema.nullish(),
      sms_response: triggerSchema.nullish(),
      call_response: triggerSchema.nullish(),
    })
    .nullish(),
});

/** Outcome of a signup call. */
export interface SignupResult {
  record: StoredRecord;
  created: boolean;
  /** resource_status entries of action functions that could not be carried out. */
  unsupported: ResourceStatus[];
}

function list(doc: JsonObject, field: string): JsonObject[] {
  const value = doc[field];
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

type MemberKey = (member: JsonObject) => string | undefined;

const MEMBER_KEYS: Record<string, MemberKey> = {
  email_addresses: (m) => (typeof m.address === 'string' ? normaliseEmail(m.address) : undefined),
  phone_numbers: (m) => (typeof m.number === 'string' ? m.number : undefined),
  postal_addresses: (m) => {
    const lines = strings(m.address_lines).map((line) => line.trim().toLowerCase());
    const parts = [m.locality, m.postal_code, m.country].map((p) =>
      typeof p === 'string' ? p.trim().toLowerCase() : '',
    );
    const key = [...lines, ...parts].join('|');
    return key.replaceAll('|', '') === '' ? undefined : key;
  },
};

/**
 * Merges sent members into stored ones, matching by `key`; members sent as primary
 * demote every other member.
 *
 * @example
 * ```ts
 * mergeMembers([{ address: 'a@x.org', primary: true }], [{ address: 'b@x.org', primary: true }], MEMBER_KEYS.email_addresses!);
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
 * The stored person's fields merged with a sent person (signup helper rules).
 *
 * @example
 * ```ts
 * mergePerson({ given_name: 'Ana' }, { family_name: 'Diaz' }); // { given_name: 'Ana', family_name: 'Diaz' }
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
 * Finds the tenant's person matching `person`: by identifier, then email, then phone.
 *
 * @example
 * ```ts
 * findMatch(records, tenant, { email_addresses: [{ address: 'ANA@example.org' }] });
 * ```
 */
export function findMatch(
  records: RecordService,
  tenant: Tenant,
  person: JsonObject,
): StoredRecord | undefined {
  const storage = records.storage;
  const candidates: (string | undefined)[] = [];
  for (const identifier of strings(person.identifiers)) {
    candidates.push(storage.findByIdentifier(tenant.id, personKind.singular, identifier));
  }
  for (const email of list(person, 'email_addresses')) {
    if (typeof email.address !== 'string') continue;
    candidates.push(
      storage.findByKey(tenant.id, personKind.singular, 'email', normaliseEmail(email.address))[0],
    );
  }
  for (const phone of list(person, 'phone_numbers')) {
    if (typeof phone.number !== 'string') continue;
    candidates.push(storage.findByKey(tenant.id, personKind.singular, 'phone', phone.number)[0]);
  }
  const id = candidates.find((candidate) => candidate !== undefined);
  return id === undefined ? undefined : storage.getRecord(tenant.id, personKind.singular, id);
}

/**
 * Runs a person signup helper call: validates the body and the person, then creates
 * or updates the person in one transaction.
 *
 * @example
 * ```ts
 * const { record, created } = personSignup(records, tenant, { person: { given_name: 'Ana' } });
 * ```
 */
export function personSignup(
  records: RecordService,
  tenant: Tenant,
  body: JsonObject,
  now = new Date(),
): SignupResult {
  const parsed = parseOrThrow(PersonSignupBodySchema, body, 'std:person_signup_helper');
  const person = personKind.parse(parsed.person);
  const result = records.storage.transaction(() => {
    const match = findMatch(records, tenant, person);
    if (!match)
      return { record: records.create(tenant, personKind, person, { now }), created: true };
    const local = localIdentifier(tenant.namespace, match.id);
    const identifiers = [
      ...new Set([...strings(match.doc.identifiers), ...strings(person.identifiers)]),
    ].filter(
      (identifier) => identifier === local || !identifier.startsWith(`${tenant.namespace}:`),
    );
    const fields = mergePerson(match.doc, person);
    return {
      record: records.replace(
        tenant,
        personKind,
        match,
        identifiers,
        fields,
        now,
        strings(person.identifiers),
      ),
      created: false,
    };
  });
  const unsupported: ResourceStatus[] = [];
  for (const [fn, resource] of Object.entries(ACTION_FUNCTIONS)) {
    const value = parsed[fn as keyof typeof ACTION_FUNCTIONS];
    if (value === undefined || value === null) continue;
    unsupported.push({
      resource,
      response_code: 500,
      error_descriptions: [
        {
          error_code: ErrorCode.NOT_SUPPORTED,
          description: `${fn} is not supported by this server yet; the person was ${result.created ? 'created' : 'updated'} without it`,
          properties: [fn],
        },
      ],
    });
  }
  return { ...result, unsupported };
}
