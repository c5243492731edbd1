import * as z from 'zod/mini';

/**
 * Why one resource of a request failed: one entry of a `std:error` resource status.
 * Member names follow the specification's tables, whatever spelling the server used.
 *
 * @example
 * ```ts
 * import { ErrorDescriptionSchema } from 'adis-sdk';
 *
 * ErrorDescriptionSchema.parse({ error_code: 'START_DATE_AFTER_END_DATE', properties: ['start_date'] });
 * ```
 */
export const ErrorDescriptionSchema = z.object({
  /** Machine-readable reason, e.g. `TAG_NAME_DOES_NOT_EXIST`; `UNKNOWN` when the server gave none. */
  error_code: z.string(),
  description: z.optional(z.string()),
  /** Properties that caused the error, e.g. `start_date` or `responses[2].name`. */
  properties: z.array(z.string()),
  hint: z.optional(z.string()),
  reference_code: z.optional(z.string()),
});

/** One error description, normalised. */
export type ErrorDescription = z.infer<typeof ErrorDescriptionSchema>;

/**
 * The outcome for one resource involved in a request.
 *
 * @example
 * ```ts
 * import { ResourceStatusSchema } from 'adis-sdk';
 *
 * ResourceStatusSchema.parse({ resource: 'std:tagging', response_code: 400, error_descriptions: [] });
 * ```
 */
export const ResourceStatusSchema = z.object({
  /** Resource name, e.g. `std:person`. */
  resource: z.optional(z.string()),
  response_code: z.optional(z.number().check(z.int())),
  error_descriptions: z.array(ErrorDescriptionSchema),
});

/** The outcome for one resource, normalised. */
export type ResourceStatus = z.infer<typeof ResourceStatusSchema>;

/** Whether the request failed as a whole (`atomic`) or partly (`non-atomic`, helpers). */
export const RequestTypeSchema = z.enum(['atomic', 'non-atomic']);

/** `atomic` or `non-atomic`. */
export type RequestType = z.infer<typeof RequestTypeSchema>;

/**
 * A decoded `std:error`, normalised to the specification's member names whatever shape
 * the server sent (see {@link decodeStdError}).
 */
export const StdErrorSchema = z.object({
  request_type: RequestTypeSchema,
  /** Outcome of the request as a whole: the status for atomic requests, 400 for non-atomic. */
  response_code: z.optional(z.number().check(z.int())),
  resource_status: z.array(ResourceStatusSchema),
  /**
   * Members of the body beside the error (and inside its `_embedded`), e.g. the
   * `std:person` a non-atomic helper did create. Present only when there were any.
   */
  results: z.optional(z.record(z.string(), z.unknown())),
  /** The error exactly as received, for anything the normalised form drops. */
  raw: z.unknown(),
});

/** A decoded, normalised `std:error`. */
export type StdError = z.infer<typeof StdErrorSchema>;
