import * as z from 'zod/mini';
import { bool, commonFields, enumeration, type Mode, optional } from '../fields.js';
import { defineKind, many, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/** The wrapper's writable fields as the spec's Wrapper table lists them. */
function wrapperShape(mode: Mode) {
  return {
    ...commonFields(mode),
    origin_system: optional(z.string()),
    name: optional(z.string()),
    // Header and footer may contain HTML (email) or plain text (SMS from-line,
    // unsubscribe text).
    header: optional(z.string()),
    footer: optional(z.string()),
    administrative_url: optional(z.string()),
    wrapper_type: optional(enumeration(['email', 'sms'], mode)),
    default: optional(bool(mode)),
  };
}

/**
 * The wrapper kind: a message wrapper (an email's header and footer, an SMS from-line
 * and unsubscribe text). Read with `schema` (unknown members kept, `wrapper_type` open,
 * `default` read from `"true"`/`"false"` too); sent with `writeSchema` (`default` a
 * boolean, no unknown plain members, vendor `<prefix>:<name>` members pass); the
 * reference server checks `strictSchema` (`wrapper_type` `email` or `sms`).
 *
 * @example
 * ```ts
 * import { wrapperKind } from 'adis-sdk/schema';
 *
 * wrapperKind.writeSchema.parse({
 *   name: 'Parks newsletter',
 *   wrapper_type: 'email',
 *   header: '<img src="https://parks.example.org/logo.png" alt="Parks">',
 *   footer: '<p>Springfield Parks Alliance · <a href="{unsubscribe_url}">Unsubscribe</a></p>',
 *   default: true,
 * });
 * ```
 */
export const wrapperKind = defineKind({
  singular: 'wrapper',
  plural: 'wrappers',
  description:
    'A standard wrapper around a message: an email header and footer, or SMS from-lines and unsubscribe text',
  shape: wrapperShape,
  relations: {
    /**
     * The person who created the wrapper (`std:creator`; set on create by sending that
     * link), if the server links one.
     */
    creator: one('person'),
    /** The person who last modified the wrapper (`std:modified_by`), if the server says. */
    modifiedBy: one('person'),
    /** The taggings that tag the wrapper (`std:taggings`). */
    taggings: many('tagging'),
  },
});

/** A wrapper as read from a server: the output of `wrapperKind.schema`. */
export interface Wrapper extends z.output<typeof wrapperKind.schema> {}
/** What a client sends to create or update a wrapper: the input of `wrapperKind.writeSchema`. */
export interface WrapperInput extends z.input<typeof wrapperKind.writeSchema>, VendorMembers {}
