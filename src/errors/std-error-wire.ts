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
// (`adis-sdk/helpers`), whose budget zod alone would exceed several times over. The
// schemas in std-error-schema.ts describe the result; only types are imported from there.
//
// Every reader below turns one odd member into "absent" instead of failing the whole
// error: a decoder that throws would hide the HTTP error it was meant to explain.

/** A string, or a finite number written as one; otherwise undefined. */
function optionalText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A safe integer, or a string of digits (spaces around allowed) that is one; else undefined. */
function optionalStatusCode(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  // Digits can run to any length: past 2^53 the number read is no longer the code
  // written, and 309 digits read as Infinity, neither of which is the integer the type
  // promises (found by test/properties/std-error.property.test.ts).
  const code = Number(trimmed);
  return Number.isSafeInteger(code) ? code : undefined;
}

/** One property name or a list of them (non-strings dropped); otherwise undefined. */
function optionalProperties(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return undefined;
}

/** `atomic` or `non-atomic` however spelled (`non_atomic`, `NONATOMIC`…); otherwise undefined. */
function optionalRequestType(value: unknown): RequestType | undefined {
  if (typeof value !== 'string') return undefined;
  const letters = value.toLowerCase().replace(/[^a-z]/g, '');
  if (letters === 'atomic') return 'atomic';
  if (letters === 'nonatomic') return 'non-atomic';
  return undefined;
}

const DESCRIPTION_KEYS = [
  'error_code',
  'code',
  'description',
  'message',
  'detail',
  'properties',
  'property',
  'hint',
  'reference_code',
] as const;

/** A description object in either spelling (`error_code`/`code`, `description`/`message`/`detail`). */
function descriptionFromObject(wire: Record<string, unknown>): ErrorDescription {
  const property = optionalText(wire.property);
  return {
    error_code: optionalText(wire.error_code) ?? optionalText(wire.code) ?? UNKNOWN_ERROR_CODE,
    ...definedText(
      'description',
      optionalText(wire.description) ?? optionalText(wire.message) ?? optionalText(wire.detail),
    ),
    properties: optionalProperties(wire.properties) ?? (property === undefined ? [] : [property]),
    ...definedText('hint', optionalText(wire.hint)),
    ...definedText('reference_code', optionalText(wire.reference_code)),
  };
}

/** A bare message: a description without a code. */
function descriptionFromText(text: string): ErrorDescription {
  return { error_code: UNKNOWN_ERROR_CODE, description: text, properties: [] };
}

/** A string or a description object; anything else is dropped. */
function description(value: unknown): ErrorDescription | undefined {
  if (typeof value === 'string') return descriptionFromText(value);
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
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const parsed = description(item);
      return parsed ? [parsed] : [];
    });
  }
  if (typeof value === 'string') return [descriptionFromText(value)];
  if (!isRecord(value)) return undefined;
  if (DESCRIPTION_KEYS.some((key) => key in value)) return [descriptionFromObject(value)];
  const fromMap = Object.entries(value).flatMap(([property, messages]) =>
    messagesOf(messages).map(
      (description): ErrorDescription => ({
        error_code: UNKNOWN_ERROR_CODE,
        description,
        properties: [property],
      }),
    ),
  );
  return fromMap.length > 0 ? fromMap : undefined;
}

/** Normalises one resource status entry; `errors`/`code` spellings are accepted. */
export function toResourceStatus(value: unknown): ResourceStatus | undefined {
  if (!isRecord(value)) return undefined;
  const resource = optionalText(value.resource);
  const responseCode = optionalStatusCode(value.response_code);
  return {
    ...(resource === undefined ? {} : { resource }),
    ...(responseCode === undefined ? {} : { response_code: responseCode }),
    error_descriptions: toDescriptions(value.error_descriptions ?? value.errors) ?? [],
  };
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
    const statuses = listOf(value.resource_status).flatMap((entry) => {
      const status = toResourceStatus(entry);
      return status ? [status] : [];
    });
    // Some servers put the descriptions straight on the error object.
    if (statuses.length === 0 && ('error_descriptions' in value || 'errors' in value)) {
      const status = toResourceStatus(value);
      if (status) statuses.push(status);
    }
    const responseCode = optionalStatusCode(value.response_code);
    return {
      // The spec ties non-atomic to "several resource_status entries", so infer from that.
      request_type:
        optionalRequestType(value.request_type) ?? (statuses.length > 1 ? 'non-atomic' : 'atomic'),
      ...(responseCode === undefined ? {} : { response_code: responseCode }),
      resource_status: statuses,
      raw,
    };
  }
  const descriptions = toDescriptions(value);
  if (!descriptions) return undefined;
  return { request_type: 'atomic', resource_status: [{ error_descriptions: descriptions }], raw };
}

function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}

function messagesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item) => typeof item === 'string');
  return [];
}

function definedText<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}
