/**
 * The pieces every record helper builds its main record from: the members of the body
 * that are fields of the record, the person who acted, and what a definition returns.
 */
import type { JsonObject, StoredRecord } from '../../storage/storage.js';
import { personKind } from '../person.js';
import type { LinkInput } from '../records/index.js';
import type { ActionFunctionValues } from './action-functions.js';
import type { HelperContext } from './context.js';
import { upsertPerson } from './matching.js';

/** A helper body as its schema parsed it. */
export type HelperBody = JsonObject & ActionFunctionValues;

/** The person a helper call is about, and whether the call created (201) or updated (200) it. */
export interface HelperPerson {
  record: StoredRecord;
  /** Undefined when the call did not write the person (a canvass's target). */
  status?: number;
}

/** What a helper definition prepares inside the transaction, before the main record. */
export interface PreparedRecord {
  /** Fields of the main record. */
  fields: JsonObject;
  /** Links of the main record besides the record in the URL. */
  links: LinkInput;
  person: HelperPerson;
  /** Runs after the main record is created, in the same transaction (a canvass's answer). */
  after?(main: StoredRecord): void | Promise<void>;
  /**
   * Where the body carried `links`, when not at its top level (`canvass.`): link problems
   * name the property as sent.
   */
  linksAt?: string;
}

/** Members of a helper body that are not fields of its main record. */
const NOT_FIELDS = new Set([
  'person',
  '_links',
  '_embedded',
  'add_tags',
  'add_tags_uri',
  'add_lists',
  'add_lists_uri',
  'add_questions_responses_uri',
  // Action Network's, taken under its preset.
  'remove_tags',
  'triggers',
]);

/**
 * The main record's fields from a helper body (or a canvass's `canvass` object): every
 * member except the person, links and action functions, plus the `triggers` sent,
 * recorded as they are. Anonymous callers cannot give the record identifiers: they
 * could otherwise probe which identifiers exist through DUPLICATE_IDENTIFIER.
 */
export function mainFields(
  context: HelperContext,
  members: JsonObject,
  triggers: unknown = members.triggers,
): JsonObject {
  const fields: JsonObject = {};
  for (const [key, value] of Object.entries(members)) {
    if (NOT_FIELDS.has(key) || (context.anonymous && key === 'identifiers')) continue;
    fields[key] = value;
  }
  if (triggers !== undefined && triggers !== null) fields.triggers = triggers;
  return fields;
}

/**
 * Matches or creates the person of a helper call (see `matching.ts`) and says how.
 */
export async function helperPerson(
  context: HelperContext,
  person: JsonObject,
): Promise<HelperPerson> {
  const { record, created } = await upsertPerson(context.records, context.tenant, person, {
    anonymous: context.anonymous,
    now: context.now,
    statuses: context.signupStatuses,
  });
  return { record, status: created ? 201 : 200 };
}

/**
 * The usual main record: the body's fields, linked to the person who acted (signature,
 * outreach, submission; donation and attendance build on it).
 */
export async function personAction(
  context: HelperContext,
  body: HelperBody,
): Promise<PreparedRecord> {
  const person = await helperPerson(context, (body.person ?? {}) as JsonObject);
  return {
    fields: mainFields(context, body),
    links: { person: { plural: personKind.plural, id: person.record.id } },
    person,
  };
}
