import * as z from 'zod';
import { isJsonObject as isRecord } from '../hal/link.js';
import type {
  ErrorDescription,
  RequestType,
  ResourceStatus,
  StdError,
} from './std-error-schema.js';

/** The `error_code` given to a description the server sent without one (e.g. a bare string). */
export const UNKNOWN_ERROR_CODE = 'UNKNOWN';

// Every field schema below ends in `.catch`, so one odd member degrades to "absent"
// instead of failing the whole error: a decoder that throws would hide the HTTP error
// it was meant to explain.
const OptionalText = z
  .union([z.string(), z.number().transform(String)])
  .optional()
  .catch(undefined);

const OptionalStatusCode = z
  .union([
    z.number().int(),
    z
      .string()
      .trim()
      .regex(/^\d+$/)
      .transform((value) => Number(value)),
  ])
  .optional()
  .catch(undefined);

const Properties = z
  .union([
    z.string().transform((value) => [value]),
    z.array(z.unknown()).transform((items) => items.filter((item) => typeof item === 'string')),
  ])
  .optional()
  .catch(undefined);

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

const DescriptionObjectSchema = z
  .object({
    error_code: OptionalText,
    code: OptionalText,
    description: OptionalText,
    message: OptionalText,
    detail: OptionalText,
    properties: Properties,
    property: OptionalText,
    hint: OptionalText,
    reference_code: OptionalText,
  })
  .transform(
    (wire): ErrorDescription => ({
      error_code: wire.error_code ?? wire.code ?? UNKNOWN_ERROR_CODE,
      ...definedText('description', wire.description ?? wire.message ?? wire.detail),
      properties: wire.properties ?? (wire.property === undefined ? [] : [wire.property]),
      ...definedText('hint', wire.hint),
      ...definedText('reference_code', wire.reference_code),
    }),
  );

const DescriptionSchema = z.union([
  z.string().transform(
    (description): ErrorDescription => ({
      error_code: UNKNOWN_ERROR_CODE,
      description,
      properties: [],
    }),
  ),
  DescriptionObjectSchema,
]);

const RequestTypeWireSchema = z
  .string()
  .transform((value): RequestType | undefined => {
    // Seen spelled `non-atomic`, `non_atomic`, `nonatomic` and in upper case.
    const letters = value.toLowerCase().replace(/[^a-z]/g, '');
    if (letters === 'atomic') return 'atomic';
    if (letters === 'nonatomic') return 'non-atomic';
    return undefined;
  })
  .optional()
  .catch(undefined);

/**
 * Normalises whatever a server put where error descriptions belong: an array of
 * description objects or strings, one object, one string, or a `{ property: messages }`
 * map (the shape many web frameworks emit). Undefined when none of these fit.
 *
 * @example
 * ```ts
 * toDescriptions(['Email is invalid']);
 * // [{ error_code: 'UNKNOWN', description: 'Email is invalid', properties: [] }]
 * ```
 */
export function toDescriptions(value: unknown): ErrorDescription[] | undefined {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      const parsed = DescriptionSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  }
  if (typeof value === 'string') return [DescriptionSchema.parse(value)];
  if (!isRecord(value)) return undefined;
  if (DESCRIPTION_KEYS.some((key) => key in value)) {
    const parsed = DescriptionObjectSchema.safeParse(value);
    return parsed.success ? [parsed.data] : undefined;
  }
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

/**
 * Normalises one resource status entry; `errors`/`code` spellings are accepted.
 *
 * @example
 * ```ts
 * toResourceStatus({ resource: 'std:tagging', response_code: '400', errors: [{ code: 'X' }] });
 * ```
 */
export function toResourceStatus(value: unknown): ResourceStatus | undefined {
  if (!isRecord(value)) return undefined;
  const resource = OptionalText.parse(value.resource);
  const responseCode = OptionalStatusCode.parse(value.response_code);
  return {
    ...(resource === undefined ? {} : { resource }),
    ...(responseCode === undefined ? {} : { response_code: responseCode }),
    error_descriptions: toDescriptions(value.error_descriptions ?? value.errors) ?? [],
  };
}

/**
 * Whether a value is shaped like the specification's error object (rather than a
 * bare description or message).
 *
 * @example
 * ```ts
 * isStdErrorObject({ request_type: 'atomic', resource_status: [] }); // true
 * ```
 */
export function isStdErrorObject(value: unknown): boolean {
  return isRecord(value) && ('resource_status' in value || 'request_type' in value);
}

/**
 * Normalises any error value (a spec error object, descriptions, a message) into a
 * StdError without `results`; undefined when nothing in it is recognisable.
 *
 * @example
 * ```ts
 * toStdError({ message: 'Not found', code: 'NOT_FOUND' }, body);
 * ```
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
    const responseCode = OptionalStatusCode.parse(value.response_code);
    return {
      // The spec ties non-atomic to "several resource_status entries", so infer from that.
      request_type:
        RequestTypeWireSchema.parse(value.request_type) ??
        (statuses.length > 1 ? 'non-atomic' : 'atomic'),
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
