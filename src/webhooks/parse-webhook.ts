import { formatPath, type ZodErrorLike } from '../errors/schema-validation-error.js';
import { WebhookPayloadError } from '../errors/webhook-payload-error.js';
import { isJsonObject } from '../wire/json-object.js';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookRecords,
} from './event.js';
import { readLinks } from './links.js';

// What a delivery is (Action Network's format, which the reference server follows): a
// JSON array, each element an object with one member keyed by the event's type
// (`osdi:signature`, `std:attendance`, `action_network:action`: any prefix) holding the
// record, beside an `idempotency_key` and, from Action Network, an
// `action_network:sponsor`. Those two are the only members read beside the record.

/** The member beside (or inside) the record that carries the sender's key for the event. */
const IDEMPOTENCY_KEY = 'idempotency_key';

/** The types the SDK names; any other key makes an event of type `unknown`. */
const KNOWN_TYPES: ReadonlySet<string> = new Set<string>(WEBHOOK_EVENT_TYPES);

/**
 * The part of a kind (`signatureKind` from `adis-sdk/schema`) that validation uses: its
 * lenient read schema. Structural, so that this entry loads no schema of its own.
 */
export interface WebhookRecordValidator {
  /** The kind's read schema. */
  readonly schema: {
    /**
     * zod's `safeParse`: the record read, or why it does not match.
     *
     * @param input - The record as sent.
     * @returns `{ success: true, data }` or `{ success: false, error }`.
     */
    safeParse(input: unknown): { success: boolean; data?: unknown; error?: ZodErrorLike };
  };
}

/**
 * Which records to validate, by event type, and with which kind: `{ signature:
 * signatureKind }`. A type left out is not validated.
 */
export type WebhookValidators = { readonly [T in WebhookEventType]?: WebhookRecordValidator };

/** What {@link parseWebhook} takes beside the body. */
export interface ParseWebhookOptions {
  /**
   * Validate the records of these types with these kinds' read schemas (imported from
   * `adis-sdk/schema`, which loads zod: opt-in, so a receiver that does not validate
   * stays light). A record that does not match is a `WebhookPayloadError` of problem
   * `invalid-record`; one that does is replaced by the schema's output.
   */
  readonly validate?: WebhookValidators | undefined;
}

/** How a value that is not what was expected is named in a message. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return `a ${typeof value}`;
}

/** The body as a JSON value: parsed when text (or bytes), as is otherwise. */
function jsonValue(body: unknown): unknown {
  const text = body instanceof Uint8Array ? new TextDecoder().decode(body) : body;
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new WebhookPayloadError({
      problem: 'not-json',
      detail: `the body is not JSON (${error instanceof Error ? error.message : String(error)})`,
      cause: error,
    });
  }
}

/** An `idempotency_key` member: absent, or a non-empty string. */
function keyOf(value: unknown, index: number, member: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '') return value;
  throw new WebhookPayloadError({
    problem: 'invalid-idempotency-key',
    index,
    member,
    detail: `idempotency_key is ${value === '' ? 'empty' : describe(value)}, not a non-empty string`,
  });
}

function invalidMember(index: number, name: string, detail: string): WebhookPayloadError {
  return new WebhookPayloadError({ problem: 'invalid-member', index, member: name, detail });
}

/** One element of the array, as an event. */
function parseElement(element: unknown, index: number, options: ParseWebhookOptions): WebhookEvent {
  if (!isJsonObject(element)) {
    throw new WebhookPayloadError({
      problem: 'element-not-an-object',
      index,
      detail: `the element is ${describe(element)}, not an object holding a record under its type (such as "osdi:signature")`,
    });
  }
  const typeKeys: string[] = [];
  let sponsor: Record<string, unknown> | undefined;
  for (const key of Object.keys(element)) {
    if (key === IDEMPOTENCY_KEY) continue;
    if (/^[^:]+:sponsor$/.test(key)) {
      const value = element[key];
      sponsor = isJsonObject(value) ? value : undefined;
      continue;
    }
    typeKeys.push(key);
  }
  if (typeKeys.length === 0) {
    throw new WebhookPayloadError({
      problem: 'no-type',
      index,
      detail: 'no member names the event type (such as "osdi:signature" holding the record)',
    });
  }
  if (typeKeys.length > 1) {
    throw new WebhookPayloadError({
      problem: 'several-types',
      index,
      detail: `${typeKeys.length} members name an event type (${typeKeys.map((key) => JSON.stringify(key)).join(', ')}): one element holds one record`,
    });
  }
  const name = typeKeys[0] as string;
  const closure = element[name];
  if (!isJsonObject(closure)) {
    throw new WebhookPayloadError({
      problem: 'closure-not-an-object',
      index,
      member: name,
      detail: `holds ${describe(closure)}, not the record (an object)`,
    });
  }

  const outer = keyOf(element[IDEMPOTENCY_KEY], index, IDEMPOTENCY_KEY);
  const inner = keyOf(closure[IDEMPOTENCY_KEY], index, name);
  if (outer !== undefined && inner !== undefined && outer !== inner) {
    throw new WebhookPayloadError({
      problem: 'invalid-idempotency-key',
      index,
      detail: `two different idempotency keys, ${JSON.stringify(outer)} beside the record and ${JSON.stringify(inner)} inside it`,
    });
  }

  const { person, add_tags: addTags, _links: links } = closure;
  if (person !== undefined && !isJsonObject(person)) {
    throw invalidMember(index, name, `its person is ${describe(person)}, not an object`);
  }
  if (
    addTags !== undefined &&
    !(Array.isArray(addTags) && addTags.every((tag) => typeof tag === 'string'))
  ) {
    throw invalidMember(index, name, `its add_tags is not an array of strings`);
  }
  if (links !== undefined && !isJsonObject(links)) {
    throw invalidMember(index, name, `its _links is ${describe(links)}, not an object`);
  }

  const local = name.slice(name.lastIndexOf(':') + 1);
  const type = KNOWN_TYPES.has(local) ? (local as WebhookEventType) : undefined;
  const record = type === undefined ? closure : validated(closure, type, index, name, options);
  const common = {
    name,
    index,
    idempotencyKey: outer ?? inner,
    // A signup's record is the person.
    person: (person ?? (type === 'signup' ? record : undefined)) as WebhookEvent['person'],
    addTags: (addTags as string[] | undefined) ?? [],
    links: readLinks(links),
    sponsor,
  };
  return (
    type === undefined
      ? { type: 'unknown', body: closure, ...common }
      : { type, record: record as WebhookRecords[typeof type], ...common }
  ) as WebhookEvent;
}

/** The record, through its kind's read schema when validation was asked for its type. */
function validated(
  record: Record<string, unknown>,
  type: WebhookEventType,
  index: number,
  name: string,
  options: ParseWebhookOptions,
): unknown {
  const validator = options.validate?.[type];
  if (validator === undefined) return record;
  const result = validator.schema.safeParse(record);
  if (result.success) return result.data;
  const issues = result.error?.issues ?? [];
  const listed = issues
    .slice(0, 3)
    .map(
      (issue) =>
        `${formatPath(issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)))}: ${issue.message}`,
    );
  if (issues.length > 3) listed.push(`and ${issues.length - 3} more`);
  throw new WebhookPayloadError({
    problem: 'invalid-record',
    index,
    member: name,
    detail: `the ${type} does not match its kind: ${listed.join('; ')}`,
    cause: result.error,
  });
}

/**
 * Reads a webhook delivery: the POSTed array (as text, bytes, or already parsed) becomes
 * a list of events, in order, discriminated by `type` (`'signature' | 'attendance' |
 * 'submission' | 'donation' | 'outreach' | 'signup' | 'canvass' | 'action' | 'upload'`,
 * the element's key after any prefix), each with its typed record, the person as sent,
 * the links as URLs and its `idempotencyKey`. An element of another type is kept as an
 * event of type `unknown` (`name`, `body`), never an error.
 *
 * Records are typed, not checked: pass `validate` with kinds from `adis-sdk/schema` to
 * check those types (this entry loads no schema of its own).
 *
 * @param body - The request body: the raw text (or bytes), or the JSON already parsed.
 * @param options - `validate`: kinds to check records with, by event type.
 * @returns The events, one per element, in the order sent.
 * @throws {@link WebhookPayloadError} when the body is not JSON, not an array, or an
 *   element is not one record under one type key (the message names the element's index).
 *
 * @example
 * ```ts
 * import { parseWebhook } from 'adis-sdk/webhooks';
 *
 * async function receive(request: Request): Promise<Response> {
 *   for (const event of parseWebhook(await request.text())) {
 *     if (event.type === 'signature') console.log(event.person?.given_name, event.links.petition);
 *   }
 *   return new Response(null, { status: 204 });
 * }
 * ```
 *
 * @example
 * ```ts
 * import { signatureKind } from 'adis-sdk/schema';
 * import { parseWebhook } from 'adis-sdk/webhooks';
 *
 * const text = '[{"osdi:signature": {"comments": "Yes!"}}]';
 * const events = parseWebhook(text, { validate: { signature: signatureKind } });
 * ```
 */
export function parseWebhook(body: unknown, options: ParseWebhookOptions = {}): WebhookEvent[] {
  const value = jsonValue(body);
  if (!Array.isArray(value)) {
    throw new WebhookPayloadError({
      problem: 'not-an-array',
      detail: `the body is ${describe(value)}, not an array of events`,
    });
  }
  return value.map((element, index) => parseElement(element, index, options));
}
