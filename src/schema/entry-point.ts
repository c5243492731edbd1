import * as z from 'zod/mini';
import { integer, optional } from './fields.js';

/**
 * The API entry point's fields, read leniently: every member is optional (servers in
 * the wild omit some), `max_pagesize` may arrive as a string, and unknown members are
 * kept. This schema is the single source of the {@link EntryPoint} type.
 *
 * @example
 * ```ts
 * const entry = EntryPointSchema.parse(json);
 * console.log(entry.product_name, entry.max_pagesize);
 * ```
 */
export const EntryPointSchema = z.looseObject({
  motd: optional(z.string()),
  max_pagesize: optional(integer('read')),
  vendor_name: optional(z.string()),
  product_name: optional(z.string()),
  std_version: optional(z.string()),
  namespace: optional(z.string()),
});

/** The entry point's fields. Derived from {@link EntryPointSchema}. */
export type EntryPoint = z.output<typeof EntryPointSchema>;
