import { isJsonObject as isRecord } from '../wire/json-object.js';
import type {
  ErrorDescription,
  RequestType,
  ResourceStatus,
  StdError,
} from './std-error-schema.js';

/** The `error_code` given to a description the server sent without one (e.g. a bare string). */
export const UNKNOWN_ERROR_CODE = 'UNKNOWN';

// Hand-written rather than zod: this decoder runs in the light browser entry
// (`adis-sdk/helpers`), whose budget zod alone would exceed several times over, and
// written small for the same reason (each spelling is data, read by one loop). The
// schemas in std-error-schema.ts describe the result; only types are imported from there.
//
// Every reader below turns one odd member into "absent" instead of failing the whole
// error: a decoder that throws would hide the HTTP error it was meant to explain.

/** A description's text members, each with the spellings servers use for it, preferred first. */
const TEXT_SPELLINGS = {
  error_code: ['error_code', 'code'],
  description: ['description', 'message', 'detail'],
  hint: ['hint'],
  reference_code: ['reference_code'],
} as const;

type TextMember = keyof typeof TEXT_SPELLINGS;

/** Any of these members makes an object one description rather than a `{ property: messages }` map. */
const DESCRIPTION_KEYS: readonly string[] = [
  ...Object.values(TEXT_SPELLINGS).flat(),
  'properties',
  'property',
];

/** A string, or a finite number written as one; otherwise undefined. */
function optionalText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A safe integer, or a string of digits (spaces around allowed) that is one; else undefined. */
function optionalStatusCode(value: unknown): number | undefined {
  // Digits can run to any length: past 2^53 the number read is no longer the code
  // written, and 309 digits read as Infinity, neither of which is the integer the type
  // promises (found by test/properties/std-error.property.test.ts). `\s` is the set of
  // spaces that trim() and Number() skip.
  const code =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
        ? Number(value)
        : Number.NaN;
  return Number.isSafeInteger(code) ? code : undefined;
}

/** The strings of one value or of a list of them (non-strings dropped). */
function stringsOf(value: unknown): string[] {
  return listOf(value).filter((item): item is string => typeof item === 'string');
}

/** `atomic` or `non-atomic` however spelled (`non_atomic`, `NONATOMIC`…); otherwise undefined. */
function optionalRequestType(value: unknown): RequestType | undefined {
  const letters = typeof value === 'string' ? value.toLowerCase().replace(/[^a-z]/g, '') : '';
  return letters === 'atomic' ? 'atomic' : letters === 'nonatomic' ? 'non-atomic' : undefined;
}

/** A description object in any of the spellings above. */
function descriptionFromObject(wire: Record<string, unknown>): ErrorDescription {
  const text: Partial<Record<TextMember, string>> = {};
  for (const [member, spellings] of Object.entries(TEXT_SPELLINGS) as [
    TextMember,
    readonly string[],
  ][]) {
    const found = spellings.map((key) => optionalText(wire[key])).find((t) => t !== undefined);
    if (found !== undefined) text[member] = found;
  }
  const property = optionalText(wire.property);
  return {
    ...text,
    error_code: text.error_code ?? UNKNOWN_ERROR_CODE,
    // `properties` as a list or one name wins over `property`; only a list's strings count.
    properties:
      typeof wire.properties === 'string' || Array.isArray(wire.properties)
        ? stringsOf(wire.properties)
        : property === undefined
          ? []
          : [property],
  };
}

/** A string (a bare message) or a description object; anything else is dropped. */
function description(value: unknown): ErrorDescription | undefined {
  if (typeof value === 'string') return descriptionFromObject({ description: value });
  return isRecord(value) ? descriptionFromObject(value) : undefined;
}

/**
 * Normalises whatever a server put where error descriptions belong: an array of
 * description objects or strings, one object, one string, or a `{ property: messages }`
 * map (the shape many web frameworks emit). Undefined when none of these fit.
 *
 * @example
 * ```ts
 * import { toDescriptions } from './std-error-wire.js';
 *
 * toDescriptions(['Email is invalid']);
 * // [{ error_code: 'UNKNOWN', description: 'Email is invalid', properties: [] }]
 * ```
 */
export function toDescriptions(value: unknown): ErrorDescription[] | undefined {
  if (Array.isArray(value)) return value.flatMap((item) => description(item) ?? []);
  if (!isRecord(value) || DESCRIPTION_KEYS.some((key) => key in value)) {
    const one = description(value);
    return one && [one];
  }
  const fromMap = Object.entries(value).flatMap(([property, messages]) =>
    stringsOf(messages).map((text) => descriptionFromObject({ description: text, property })),
  );
  return fromMap.length > 0 ? fromMap : undefined;
}

/** Normalises one resource status entry; `errors`/`code` spellings are accepted. */
export function toResourceStatus(value: unknown): ResourceStatus | undefined {
  if (!isRecord(value)) return undefined;
  return definedMembers({
    resource: optionalText(value.resource),
    response_code: optionalStatusCode(value.response_code),
    error_descriptions: toDescriptions(value.error_descriptions ?? value.errors) ?? [],
  });
}

/**
 * Whether a value is shaped like the specification's error object (rather than a
 * bare description or message).
 */
export function isStdErrorObject(value: unknown): boolean {
  return isRecord(value) && ('resource_status' in value || 'request_type' in value);
}

/**
 * Normalises any error value (a spec error object, descriptions, a message) into a
 * StdError without `results`; undefined when nothing in it is recognisable.
 */
export function toStdError(value: unknown, raw: unknown): StdError | undefined {
  if (isRecord(value) && isStdErrorObject(value)) {
    const statuses = listOf(value.resource_status).flatMap(
      (entry) => toResourceStatus(entry) ?? [],
    );
    // Some servers put the descriptions straight on the error object.
    if (statuses.length === 0 && ('error_descriptions' in value || 'errors' in value)) {
      statuses.push(toResourceStatus(value) as ResourceStatus);
    }
    return definedMembers({
      // The spec ties non-atomic to "several resource_status entries", so infer from that.
      request_type:
        optionalRequestType(value.request_type) ?? (statuses.length > 1 ? 'non-atomic' : 'atomic'),
      response_code: optionalStatusCode(value.response_code),
      resource_status: statuses,
      raw,
    });
  }
  const descriptions = toDescriptions(value);
  return (
    descriptions && {
      request_type: 'atomic',
      resource_status: [{ error_descriptions: descriptions }],
      raw,
    }
  );
}

/** A list as is, nothing (undefined or null) as none, anything else as a list of one. */
function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}

/** The object without its undefined members, so that an absent member is not present as undefined. */
function definedMembers<T extends object>(members: T): T {
  return Object.fromEntries(
    Object.entries(members).filter(([, value]) => value !== undefined),
  ) as T;
}
