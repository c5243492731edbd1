import * as z from 'zod/mini';
import { currency, money } from './action-fields.js';
import {
  bool,
  code,
  enumeration,
  integer,
  isServerMode,
  type Mode,
  object,
  optional,
  outsideSpec,
  uniqueStrings,
} from './fields.js';
import { shortText } from './lengths.js';
import { RuleCode } from './rules.js';
import {
  addressMembers,
  emailAddressSchema,
  emailText,
  LANGUAGE_PATTERN,
  PHONE_NUMBER_PATTERN,
  phoneNumberSchema,
  postalAddressSchema,
  primaryList,
} from './shared.js';
import { isVendorMember } from './vendor.js';

// Field groups and shared objects of the content resources (petition, form,
// fundraising page, share page, advocacy campaign, event, question, wrapper), the
// organization and the outreach. Each builder takes the side of the wire, like the
// builders of shared.ts, so one definition gives the lenient read and the strict write.
// Like action-fields.ts, this module imports no resource kind, so it is fully evaluated
// before the resource modules that import it and each other.

/**
 * Name of a share option member: `network_a_share`, `email_share`, or another
 * network's `<name>_share` (`facebook_share`), lower case as on the wire.
 */
export const SHARE_MEMBER_PATTERN = /^[a-z][a-z0-9_]*_share$/;

/**
 * Kinds of outreach the spec lists for an advocacy campaign and an outreach; any other
 * string is accepted (flexenum). Here rather than in advocacy-campaign.ts because the
 * outreach's schema needs it while the two modules import each other.
 */
export const OUTREACH_TYPES = ['email', 'in-person', 'phone', 'postal mail'] as const;

/**
 * `params.code` of the issue raised when two ticket levels of an event share a title
 * (a {@link RuleCode}; the reference server answers with it as the error code).
 */
export const DUPLICATE_TICKET_LEVEL_TITLE = RuleCode.DUPLICATE_TICKET_LEVEL_TITLE;

/**
 * Options for a `superRefine` that checks cross-field rules: run it even when some
 * members failed their own checks (zod skips refinements after a type error by
 * default), so every broken rule is reported in the same answer as the other
 * problems. The rules must then read members defensively.
 */
export const EVEN_WITH_INVALID_MEMBERS: z.core.$ZodSuperRefineParams = {
  when: (payload) =>
    typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};

/**
 * A count or size: an integer, at least 0 for the reference server. Numeric strings are
 * read.
 */
export function nonNegativeInteger(mode: Mode) {
  return isServerMode(mode) ? z.number().check(z.int(), z.gte(0)) : integer(mode);
}

/**
 * A member the server computes inside a nested object (a share option's
 * `total_shares`, a ticket level's `total_tickets`): typed on read, accepted as
 * anything on write and ignored, like the top-level read-only fields, so that a
 * document read from a server can be written back unchanged.
 */
export function computedMember<T extends z.ZodMiniType>(schema: T, mode: Mode) {
  // Typed as the read schema on both sides: what a client sends back is ignored, and a
  // union with `unknown` would erase the member's type on read.
  return (mode === 'read' ? optional(schema) : optional(z.unknown())) as ReturnType<
    typeof optional<T>
  >;
}

/** A unique list of RFC 5646 language tags (`languages_spoken`). */
export function languageTags(mode: Mode) {
  return uniqueStrings(mode, code(LANGUAGE_PATTERN, 'RFC 5646 language tag such as en-US', mode));
}

/**
 * The naming fields of a content resource (`origin_system`, `name`, `title`,
 * `description`, `summary`), as the spec's Petition table defines them. The question
 * has only these.
 */
export function describedFields() {
  return {
    origin_system: optional(z.string()),
    name: optional(z.string()),
    title: optional(z.string()),
    description: optional(z.string()),
    summary: optional(z.string()),
  };
}

/**
 * The descriptive fields of a record people browse and administer by name (a list, a
 * query, a share page): the naming fields plus its two addresses.
 */
export function describedRecordFields() {
  return {
    ...describedFields(),
    browser_url: optional(z.string()),
    administrative_url: optional(z.string()),
  };
}

/**
 * The fields every content page shares, "as in Petition": origin_system, name, title,
 * description, summary, browser_url, administrative_url, featured_image_url. URLs are
 * plain strings, as for a person: the spec gives no format, and servers in the wild
 * send relative ones. A share page has these without `featured_image_url`
 * (`describedRecordFields`).
 */
export function contentFields(mode: Mode) {
  return {
    ...describedRecordFields(),
    featured_image_url: optional(z.string()),
    ...taggedFields(mode),
  };
}

/**
 * `tag_list`: the names of the tags a page or message carries. Not in the
 * specification; Action Network's documented member on messages and every action (a
 * plain member, not `action_network:tag_list`), declared so that what it sends is
 * written back; the reference server refuses it ({@link outsideSpec}).
 */
export function taggedFields(mode: Mode) {
  return { tag_list: optional(outsideSpec(z.array(z.string()), mode)) };
}

/**
 * The members every share network object has: the URL shared and its share count. The
 * count is written by the system that hosts the share buttons (only it sees the
 * shares); the resource's own `total_shares` is computed from these counts.
 */
function shareMembers(mode: Mode) {
  return {
    // Overrides the resource's share_url for this wording.
    share_url: optional(z.string()),
    total_shares: optional(nonNegativeInteger(mode)),
  };
}

/**
 * A network the spec does not name (`facebook_share`, `twitter_share`): string members
 * (title, message, image and the like, as every named network has) plus the computed
 * `total_shares`. Loose on read like everything else.
 */
function otherNetworkShareSchema(mode: Mode) {
  const known = { total_shares: optional(nonNegativeInteger(mode)) };
  // Only the reference server holds the members to strings (vendor members aside).
  return z.looseObject(known).check(
    z.superRefine((network, ctx) => {
      for (const [key, value] of Object.entries(network)) {
        if (Object.hasOwn(known, key) || isVendorMember(key)) continue;
        if (value !== null && typeof value !== 'string') {
          ctx.addIssue({ code: 'custom', message: 'must be a string', path: [key] });
        }
      }
    }),
  );
}

/**
 * One element of `share_options`: how the resource is shared on each network.
 *
 * The spec names `network_a_share`, `network_b_share` and `email_share`; servers in
 * the wild use real network names (READING-NOTES.md). On read every member is kept.
 * On write the named networks are checked strictly, another member is accepted when
 * its name is `<name>_share` and it is an object of strings, and any other member is
 * refused as unknown (a typo). Each network's `total_shares` is the count reported by
 * the system that saw the shares; the resource's `total_shares` is their sum.
 */
export function shareOptionSchema(mode: Mode) {
  const known = {
    network_a_share: optional(
      object(
        {
          title: optional(z.string()),
          description: optional(z.string()),
          image: optional(z.string()),
          ...shareMembers(mode),
        },
        mode,
      ),
    ),
    network_b_share: optional(
      object({ message: optional(z.string()), ...shareMembers(mode) }, mode),
    ),
    email_share: optional(
      object(
        { subject: optional(z.string()), body: optional(z.string()), ...shareMembers(mode) },
        mode,
      ),
    ),
  };
  if (mode === 'read') return z.looseObject(known);
  // Networks the spec does not name are read as they came (not parsed), so they are
  // written back as they came: only the reference server checks them.
  const other = isServerMode(mode) ? otherNetworkShareSchema(mode) : undefined;
  return z.catchall(z.object(known), z.unknown()).check(
    z.superRefine((option, ctx) => {
      for (const [key, value] of Object.entries(option)) {
        if (Object.hasOwn(known, key) || isVendorMember(key)) continue;
        if (!SHARE_MEMBER_PATTERN.test(key)) {
          ctx.addIssue({
            code: 'unrecognized_keys',
            keys: [key],
            path: [],
            message: `Unrecognized key: "${key}" (a share network member is named <network>_share)`,
          });
          continue;
        }
        for (const issue of other?.safeParse(value).error?.issues ?? []) {
          ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] });
        }
      }
    }, EVEN_WITH_INVALID_MEMBERS),
  );
}

/**
 * The writable sharing fields of a shareable resource: `share_url` and
 * `share_options`. Its computed `total_shares` is in {@link SHARING_TOTALS}.
 */
export function sharingFields(mode: Mode) {
  return {
    share_url: optional(z.string()),
    share_options: optional(z.array(shareOptionSchema(mode))),
  };
}

/**
 * The computed sharing total of a shareable resource, for the second argument of
 * `resourceSchemas`.
 */
export const SHARING_TOTALS = { total_shares: optional(integer('read')) };

/** An element of a petition's `target`: the spec's smaller target object, a name only. */
export function petitionTargetSchema(mode: Mode) {
  return object({ name: optional(z.string()) }, mode);
}

/**
 * The postal addresses, email addresses and phone numbers of a person, an
 * organization or a target, each with at most one primary member (for the reference
 * server).
 */
export function contactListFields(mode: Mode) {
  return {
    postal_addresses: optional(primaryList(postalAddressSchema(mode), 'postal_addresses', mode)),
    email_addresses: optional(primaryList(emailAddressSchema(mode), 'email_addresses', mode)),
    phone_numbers: optional(primaryList(phoneNumberSchema(mode), 'phone_numbers', mode)),
  };
}

/** Target: who an advocacy campaign or an outreach addresses (a legislator, an office). */
export function targetSchema(mode: Mode) {
  return object(
    {
      // A target's names are a person's: bounded as the person's are (lengths.ts).
      title: optional(shortText(mode)),
      organization: optional(shortText(mode)),
      given_name: optional(shortText(mode)),
      family_name: optional(shortText(mode)),
      ocdid: optional(z.string()),
      ...contactListFields(mode),
    },
    mode,
  );
}

/**
 * Ticket Level of a ticketed event. `limit` is the number of tickets still available
 * (those already sold not counted), so at least 0. `total_tickets` and `total_amount`
 * are computed from the tickets sold: accepted on write only to be ignored.
 */
export function ticketLevelSchema(mode: Mode) {
  return object(
    {
      title: optional(z.string()),
      description: optional(z.string()),
      amount: optional(money(mode)),
      currency: optional(currency(mode)),
      limit: optional(nonNegativeInteger(mode)),
      total_tickets: computedMember(integer('read'), mode),
      total_amount: computedMember(money('read'), mode),
    },
    mode,
  );
}

/**
 * An event's `ticket_levels`. For the reference server two levels may not share a title: a ticket
 * names its level by title (the attendance helper's `tickets[].title`), so a repeated
 * title would make sales ambiguous. Titles are compared trimmed and ignoring case.
 * The second level is reported at its `title` with `params.code`
 * {@link DUPLICATE_TICKET_LEVEL_TITLE}.
 *
 * @example
 * ```ts
 * import { ticketLevelsSchema } from './content-fields.js';
 *
 * ticketLevelsSchema('strict').safeParse([{ title: 'Adult' }, { title: 'adult ' }]).success; // false
 * ```
 */
export function ticketLevelsSchema(mode: Mode) {
  const list = z.array(ticketLevelSchema(mode));
  if (!isServerMode(mode)) return list;
  return list.check(
    z.superRefine((levels, ctx) => {
      const seen = new Set<string>();
      levels.forEach((level, index) => {
        if (typeof level.title !== 'string') return;
        const title = level.title.trim().toLowerCase();
        if (seen.has(title)) {
          ctx.addIssue({
            code: 'custom',
            message: `another ticket level is already titled "${level.title}"`,
            path: [index, 'title'],
            params: {
              code: DUPLICATE_TICKET_LEVEL_TITLE,
              hint: 'give each ticket level its own title',
            },
          });
        }
        seen.add(title);
      });
    }),
  );
}

/** Reminder of an event: how (`email` or `sms`) and how many minutes before the start. */
export function reminderSchema(mode: Mode) {
  return object(
    {
      method: optional(enumeration(['email', 'sms'], mode)),
      minutes: optional(nonNegativeInteger(mode)),
    },
    mode,
  );
}

/**
 * An event's `location`: the members of a postal address without its status (venue,
 * address_lines, locality, region, postal_code, country, language, location) plus
 * `public` (false: shared only with people who RSVP).
 */
export function eventLocationSchema(mode: Mode) {
  return object({ ...addressMembers(mode), public: optional(bool(mode)) }, mode);
}

/**
 * An event's `contact`: who to ask about the event. For the reference server
 * `email_address` must be an email and `phone_number` digits with the country code, as
 * everywhere else in the spec (its Limits section).
 */
export function eventContactSchema(mode: Mode) {
  return object(
    {
      name: optional(shortText(mode)),
      email_address: optional(emailText(mode)),
      phone_number: optional(
        code(PHONE_NUMBER_PATTERN, 'phone number of 7 to 15 digits with the country code', mode),
      ),
      additional_info: optional(z.string()),
      public: optional(bool(mode)),
    },
    mode,
  );
}

/**
 * Question response (element of a question's `responses`): `key` (what answers
 * record), `name` (administrative) and `title` (public). The rules on keys and names
 * (alphanumeric keys, unique keys, the name pattern) are the question's, so that they
 * are reported with the spec's error codes: see `questionRuleIssues`.
 */
export function questionResponseSchema(mode: Mode) {
  return object(
    {
      // Required by the reference server: answers record the key, so a response without
      // one could never be chosen. A PUT replaces the whole array, so every response is
      // complete. Optional on write: a response read without one goes back as it came.
      key: isServerMode(mode) ? z.string() : optional(z.string()),
      name: optional(z.string()),
      title: optional(z.string()),
    },
    mode,
  );
}
