import * as z from 'zod/mini';
import { integer, optional } from './fields.js';

/**
 * The API entry point's fields, read leniently: every member is optional (servers in
 * the wild omit some), `max_pagesize` may arrive as a string, and unknown members are
 * kept. This schema is the single source of the {@link EntryPoint} type.
 *
 * @example
 * ```ts
 * import { EntryPointSchema } from 'adis-sdk/schema';
 *
 * const json: unknown = await (await fetch('https://api.example.org/api/v1/')).json();
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

/**
 * The version of the specification an entry point says it implements. Servers name the
 * field after their curie prefix: `std_version` in the specification, `osdi_version` on
 * OSDI servers (Action Network among them). Read in this order, the first one that holds
 * a version winning: `<prefix>_version` for the server's own prefix, then `std_version`,
 * then `osdi_version`. A number (`1.1`) is read as its text; an empty string, or
 * anything else, is no version. Undefined when none holds one.
 *
 * @param entryPoint - The entry point's fields (`client.entryPoint`, or its JSON).
 * @param prefix - The server's prefix for the specification's curie (default `std`).
 *
 * @example
 * ```ts
 * import { entryPointVersion } from 'adis-sdk/schema';
 *
 * entryPointVersion({ std_version: '1.0' }); // '1.0'
 * entryPointVersion({ osdi_version: '1.1' }, 'osdi'); // '1.1'
 * entryPointVersion({ acme_version: '2' }, 'acme'); // '2'
 * entryPointVersion({ motd: 'hello' }); // undefined
 * ```
 */
export function entryPointVersion(
  entryPoint: Readonly<Record<string, unknown>>,
  prefix = 'std',
): string | undefined {
  for (const name of new Set([`${prefix}_version`, 'std_version', 'osdi_version'])) {
    const value = Object.hasOwn(entryPoint, name) ? entryPoint[name] : undefined;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}
