import * as z from 'zod/mini';
import { isJsonObject } from '../wire/json-object.js';

// Vendor extension members: a server or client may add members of its own to any object
// of the specification, named `<prefix>:<name>` (`action_network:hidden`,
// `action_network:referrer_data`). They are not typos, so they pass every write at any
// depth, unchanged; a plain member a schema does not know is still refused on write.

/**
 * The members of an object beyond its declared ones that its type admits: vendor
 * members, named `<prefix>:<name>`. A misspelt plain member (`givn_name`) stays a
 * compile error, while `'action_network:hidden': true` type-checks. The type cannot say
 * that the prefix and the name are not empty and hold no spaces, which the schemas check
 * at run time ({@link VENDOR_MEMBER_PATTERN}): `':hidden'` type-checks and is refused.
 */
export type VendorMembers = { [member: `${string}:${string}`]: unknown };

/** zod's object configuration for objects that admit {@link VendorMembers}. */
export interface VendorConfig {
  out: VendorMembers;
  in: VendorMembers;
}

/** An object schema of `shape` whose type admits {@link VendorMembers}. */
export type VendorObject<S extends z.core.$ZodShape> = z.ZodMiniObject<S, VendorConfig>;

/**
 * A vendor member's name: a prefix without spaces or colons, a colon, then a name
 * without spaces (`action_network:hidden`, `acme:score`).
 */
export const VENDOR_MEMBER_PATTERN = /^[^:\s]+:\S+$/;

/**
 * Whether a member name is a vendor extension (`<prefix>:<name>`).
 *
 * @example
 * ```ts
 * import { isVendorMember } from 'adis-sdk/schema';
 *
 * isVendorMember('action_network:hidden'); // true
 * isVendorMember('hidden'); // false
 * ```
 */
export function isVendorMember(name: string): boolean {
  return VENDOR_MEMBER_PATTERN.test(name);
}

/**
 * An object that keeps every member it is sent (the read side), typed with the declared
 * members and {@link VendorMembers}.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { openObject } from './vendor.js';
 *
 * openObject({ title: z.optional(z.string()) }).parse({ title: 'x', extra: 1 }); // extra kept
 * ```
 */
export function openObject<S extends z.core.$ZodShape>(shape: S): VendorObject<S> {
  return z.looseObject(shape) as unknown as VendorObject<S>;
}

/**
 * An object closed to unknown plain members but open to vendor members, which are kept
 * as sent (values unchecked, at any depth). An unknown plain member is reported as zod
 * reports one of a strict object (`unrecognized_keys`), so messages and the server's
 * error mapping are unchanged.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { closedObject } from './vendor.js';
 *
 * const o = closedObject({ title: z.optional(z.string()) });
 * o.parse({ title: 'x', 'acme:score': 3 }); // kept
 * o.safeParse({ titel: 'x' }).success; // false: unknown member "titel"
 * ```
 */
export function closedObject<S extends z.core.$ZodShape>(shape: S): VendorObject<S> {
  const known = new Set(Object.keys(shape));
  return z.looseObject(shape).check(
    z.superRefine(
      (value, ctx) => {
        const unknown = Object.keys(value).filter((key) => !known.has(key) && !isVendorMember(key));
        if (unknown.length > 0) {
          ctx.addIssue({ code: 'unrecognized_keys', keys: unknown, input: value, path: [] });
        }
      },
      // Reported with the members' own problems, as a strict object's unknown keys are.
      { when: (payload) => isJsonObject(payload.value) },
    ),
  ) as unknown as VendorObject<S>;
}
