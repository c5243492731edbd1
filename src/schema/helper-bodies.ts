import * as z from 'zod/mini';
import { isJsonObject } from '../wire/json-object.js';
import { ticketSchema } from './action-fields.js';
import type { AnyKind } from './kind.js';
import { attendanceKind } from './kinds/attendance.js';
import { canvassKind } from './kinds/canvass.js';
import { donationKind } from './kinds/donation.js';
import { MessageScheduleSchema } from './kinds/message.js';
import { outreachKind } from './kinds/outreach.js';
import { personKind } from './kinds/person.js';
import { signatureKind } from './kinds/signature.js';
import { submissionKind } from './kinds/submission.js';
import { closedObject, type VendorMembers } from './vendor.js';

/**
 * The sides a helper body is checked on: `write`, what the SDK checks before sending
 * (member names and types; vendor members pass at any depth), `strict`, what the
 * reference server accepts (the specification's formats, vocabulary and rules
 * besides), and `extended`, what it accepts under a real server's preset (`remove_tags`
 * and the vocabulary real servers document besides). See `Mode` in fields.ts.
 */
type BodyMode = 'write' | 'strict' | 'extended';

/** A kind's schema for one side: `writeSchema`, or the server's `strictSchema` or `extendedSchema`. */
function sideOf<K extends AnyKind>(kind: K, mode: BodyMode): K['writeSchema'] {
  return kind[`${mode}Schema`];
}

// One definition for both sides: the SDK checks a helper body with these schemas before
// sending it (names and types), and the reference server validates what it receives
// with the strict ones built from the same definitions (strictHelperBodies).

const trigger = closedObject({
  enabled: z.nullish(z.boolean()),
  identifiers: z.nullish(z.array(z.string())),
});

const questionResponse = closedObject({
  /** The question's href, or its identifier `<namespace>:<id>`. */
  question: z.string().check(z.minLength(1, 'must be the href or identifier of a question')),
  responses: z.nullish(z.array(z.string())),
  value: z.nullish(z.string()),
});

/**
 * The helper action functions, as an object shape to spread into a helper body schema:
 * tags and lists to add the person to (by name or by URI), answers to apply, and the
 * server responses to trigger. Each function is one part of a non-atomic call: if one
 * of its elements fails, none of its rows is written and the others go on.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { ActionFunctionsShape, personKind } from 'adis-sdk';
 *
 * const MyHelperBody = z.strictObject({ person: personKind.writeSchema, ...ActionFunctionsShape });
 * MyHelperBody.parse({ person: { given_name: 'Ana' }, add_tags: ['volunteer'] });
 * ```
 */
export const ActionFunctionsShape = {
  /** Names of existing tags to add to the person. */
  add_tags: z.nullish(z.array(z.string())),
  /** URIs of existing tags to add to the person. */
  add_tags_uri: z.nullish(z.array(z.string())),
  /** Names of existing lists to add the person to. */
  add_lists: z.nullish(z.array(z.string())),
  /** URIs of existing lists to add the person to. */
  add_lists_uri: z.nullish(z.array(z.string())),
  /** Answers to apply to the person: `responses` for choice questions, `value` for Paragraph. */
  add_questions_responses_uri: z.nullish(z.array(questionResponse)),
  /** Server responses to trigger; identifiers are `<system name>:<id>`. */
  triggers: z.nullish(
    closedObject({
      autoresponse: z.nullish(trigger),
      sms_response: z.nullish(trigger),
      call_response: z.nullish(trigger),
    }),
  ),
  /**
   * Names of tags to take off the person: Action Network's action function beside
   * `add_tags`. Not in the specification, so the reference server (`strict`) refuses
   * it, unless it runs under a real server's preset (`extended`).
   */
  remove_tags: z.nullish(z.array(z.string())),
};

/** The specification's action functions: {@link ActionFunctionsShape} without `remove_tags`. */
const { remove_tags: _removeTags, ...SPEC_ACTION_FUNCTIONS } = ActionFunctionsShape;

/**
 * The action functions of one side: the reference server takes the specification's,
 * and `remove_tags` too under a real server's preset.
 */
function actionFunctions(mode: BodyMode) {
  return (
    mode === 'strict' ? SPEC_ACTION_FUNCTIONS : ActionFunctionsShape
  ) as typeof ActionFunctionsShape;
}

/**
 * The action functions alone, as a strict object (for checking them apart from a body).
 *
 * @example
 * ```ts
 * import { ActionFunctionsSchema } from 'adis-sdk/schema';
 *
 * ActionFunctionsSchema.parse({ add_lists: ['Newsletter'], triggers: { autoresponse: { enabled: true } } });
 * ```
 */
export const ActionFunctionsSchema = closedObject(ActionFunctionsShape);

/** The action functions a helper body may carry. Derived from {@link ActionFunctionsSchema}. */
export type ActionFunctionsInput = z.input<typeof ActionFunctionsSchema>;

/**
 * Members of a record's write schema that have no place in a helper body. `created_date`
 * has, for a kind whose records carry their own date (`clientCreatedDate`: a donation):
 * it is one of the record's fields there, and the helper takes the record's fields.
 */
const NOT_IN_HELPER_BODIES = ['_links', '_embedded', 'created_date', 'modified_date'] as const;
type NotInHelperBodies = (typeof NOT_IN_HELPER_BODIES)[number];

/** The members {@link recordFields} leaves out of a helper body for the kind `K`. */
type LeftOutOf<K extends AnyKind> = K extends { clientCreatedDate: true }
  ? Exclude<NotInHelperBodies, 'created_date'>
  : NotInHelperBodies;

/**
 * The writable fields of a record's write schema (`shape`, of the kind `kind`, on one
 * side), without the HAL members and the read-only dates: a helper creates the record,
 * so there is nothing to echo back, and the links it needs are made by the helper
 * itself. A `created_date` the kind takes from the client stays: it is the record's own
 * date (a donation recorded after the fact).
 */
function recordFields<K extends AnyKind, S extends z.core.$ZodShape>(
  kind: K,
  shape: S,
): Omit<S, LeftOutOf<K>> {
  const leftOut: readonly string[] = kind.clientCreatedDate
    ? NOT_IN_HELPER_BODIES.filter((member) => member !== 'created_date')
    : NOT_IN_HELPER_BODIES;
  const out: Record<string, z.ZodMiniType> = {};
  for (const [key, schema] of Object.entries(shape)) {
    if (!leftOut.includes(key)) out[key] = schema as z.ZodMiniType;
  }
  return out as unknown as Omit<S, LeftOutOf<K>>;
}

/**
 * Runs the cross-field rules of a write schema (its `superRefine`s, reported as
 * `custom` issues) on the members they read, so a helper body keeps the record's rules
 * without a second copy of them. Type issues of those members are left out: the body's
 * own shape reports them already.
 */
function forwardRules(
  schema: z.ZodMiniType,
  members: Record<string, unknown>,
  ctx: z.core.$RefinementCtx,
): void {
  const result = schema.safeParse(members);
  if (result.success) return;
  for (const issue of result.error.issues) {
    if (issue.code !== 'custom') continue;
    ctx.addIssue({
      code: 'custom',
      message: issue.message,
      path: [...issue.path],
      ...(issue.params === undefined ? {} : { params: issue.params }),
    });
  }
}

const whenObject: z.core.$ZodSuperRefineParams = {
  when: (payload) => isJsonObject(payload.value),
};

/**
 * A record helper's body when the record is the act of one person: the record's own
 * fields, the person who acted (created, or matched with a person already known and
 * updated), and the action functions.
 */
function actionBody<K extends AnyKind & { writeSchema: { shape: z.core.$ZodShape } }>(
  kind: K,
  mode: BodyMode,
) {
  return closedObject({
    ...recordFields(
      kind,
      (sideOf(kind, mode) as K['writeSchema']).shape as K['writeSchema']['shape'],
    ),
    person: sideOf(personKind, mode),
    ...actionFunctions(mode),
  });
}

/**
 * Body of the record signature helper (`std:record_signature_helper` of a petition):
 * the signature's fields, the signer inlined as `person` (created, or matched and
 * updated), and the action functions. Unknown members are refused.
 *
 * @example
 * ```ts
 * import { RecordSignatureBodySchema } from 'adis-sdk/schema';
 *
 * RecordSignatureBodySchema.parse({
 *   comments: 'Keep the park public!',
 *   person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org', primary: true }] },
 *   add_tags: ['elm-park'],
 * });
 * ```
 */
export const RecordSignatureBodySchema = actionBody(signatureKind, 'write');

/**
 * What a caller sends to the record signature helper. Derived from
 * {@link RecordSignatureBodySchema}.
 */
export interface RecordSignatureInput
  extends z.input<typeof RecordSignatureBodySchema>,
    VendorMembers {}

/**
 * Body of the record outreach helper (`std:record_outreach_helper` of an advocacy
 * campaign): the outreach's fields (type, duration, subject, message, targets…), the
 * person who reached out as `person`, and the action functions.
 *
 * @example
 * ```ts
 * import { RecordOutreachBodySchema } from 'adis-sdk/schema';
 *
 * RecordOutreachBodySchema.parse({
 *   type: 'email',
 *   subject: 'Vote no on the parking lot',
 *   targets: [{ given_name: 'Sam', family_name: 'Ruiz', title: 'Council member' }],
 *   person: { given_name: 'Ana' },
 * });
 * ```
 */
export const RecordOutreachBodySchema = actionBody(outreachKind, 'write');

/**
 * What a caller sends to the record outreach helper. Derived from
 * {@link RecordOutreachBodySchema}.
 */
export interface RecordOutreachInput
  extends z.input<typeof RecordOutreachBodySchema>,
    VendorMembers {}

function buildAttendanceBody(mode: BodyMode) {
  const attendance = recordFields(attendanceKind, sideOf(attendanceKind, mode).shape);
  const ticket = closedObject({
    ...ticketSchema(mode).shape,
    /** Who will use the ticket, inlined; may differ from the buyer. */
    person: z.nullish(sideOf(personKind, mode)),
  });
  return closedObject({
    ...attendance,
    tickets: z.nullish(z.array(ticket)),
    /** The attendee, or the buyer of the tickets. */
    person: sideOf(personKind, mode),
    ...actionFunctions(mode),
  });
}

/**
 * Body of the record attendance helper (`std:record_attendance_helper` of an event):
 * the attendance's fields, the attendee (or ticket buyer) as `person`, and the action
 * functions. For a ticketed event each `tickets[]` entry may inline the `person` who
 * will use it, who may differ from the buyer.
 *
 * @example
 * ```ts
 * import { RecordAttendanceBodySchema } from 'adis-sdk/schema';
 *
 * RecordAttendanceBodySchema.parse({
 *   status: 'accepted',
 *   person: { given_name: 'Ana' },
 *   tickets: [{ title: 'Adult', amount: 10, currency: 'USD', person: { given_name: 'Ben' } }],
 * });
 * ```
 */
export const RecordAttendanceBodySchema = buildAttendanceBody('write');

/**
 * What a caller sends to the record attendance helper. Derived from
 * {@link RecordAttendanceBodySchema}.
 */
export interface RecordAttendanceInput
  extends z.input<typeof RecordAttendanceBodySchema>,
    VendorMembers {}

const helperLink = closedObject({ href: z.string().check(z.minLength(1, 'must be a URL')) });

// Any `<prefix>:attendance` / `<prefix>:submission`: the prefix is the server's own
// abbreviation, and the SDK renames `std:` to it before sending.
const donationLinkRel = z.union([
  z.templateLiteral([z.string(), ':attendance']),
  z.templateLiteral([z.string(), ':submission']),
]);

function buildDonationBody(mode: BodyMode) {
  const body = closedObject({
    ...recordFields(donationKind, sideOf(donationKind, mode).shape),
    /** The donor. */
    person: sideOf(personKind, mode),
    /** The attendance or submission the donation was made with. */
    _links: z.nullish(z.partialRecord(donationLinkRel, helperLink)),
    ...actionFunctions(mode),
  });
  if (mode === 'write') return body;
  return body.check(
    z.superRefine((fields, ctx) => {
      forwardRules(
        sideOf(donationKind, mode),
        { amount: fields.amount, recipients: fields.recipients },
        ctx,
      );
    }, whenObject),
  );
}

/**
 * Body of the record donation helper (`std:record_donation_helper` of a fundraising
 * page): the donation's fields (the recipients' amounts may not add up to more than
 * `amount`), the donor as `person`, the action functions, and optionally `_links` to the
 * attendance (`std:attendance`) or submission (`std:submission`) the donation goes with.
 * The donation's fields include its own `created_date` (see `donationKind`): a donation
 * recorded after the fact keeps the date it was made, as Action Network's helper takes
 * "the normal donation format".
 *
 * @example
 * ```ts
 * import { RecordDonationBodySchema } from 'adis-sdk/schema';
 *
 * const attendance = { url: 'https://api.example.org/api/v1/events/1/attendances/7' };
 * RecordDonationBodySchema.parse({
 *   amount: 25,
 *   currency: 'USD',
 *   recipients: [{ display_name: 'Friends of Elm Park', amount: 25 }],
 *   person: { given_name: 'Ana' },
 *   _links: { 'std:attendance': { href: attendance.url } },
 * });
 * ```
 */
export const RecordDonationBodySchema = buildDonationBody('write');

/**
 * What a caller sends to the record donation helper. Derived from
 * {@link RecordDonationBodySchema}.
 */
export interface RecordDonationInput
  extends z.input<typeof RecordDonationBodySchema>,
    VendorMembers {}

// Any `<prefix>:canvasser`, as for a donation's links.
const canvasserLinkRel = z.templateLiteral([z.string(), ':canvasser']);

function buildCanvassBody(mode: BodyMode) {
  const canvassFields = recordFields(canvassKind, sideOf(canvassKind, mode).shape);
  const fields = closedObject({
    ...canvassFields,
    /** The person who made the contact, inlined (matched or created). */
    canvasser: z.nullish(sideOf(personKind, mode)),
    /** Or the canvasser as a link to an existing person: `{ 'std:canvasser': { href } }`. */
    _links: z.nullish(z.partialRecord(canvasserLinkRel, helperLink)),
    /** The target's answer to one question. */
    question_response: z.nullish(
      closedObject({
        /** The question's href or identifier, or a link object to it. */
        question: z.union([
          z.string().check(z.minLength(1, 'must be the href or identifier of a question')),
          helperLink,
        ]),
        value: z.nullish(z.string()),
        responses: z.nullish(z.array(z.string())),
      }),
    ),
  });
  const canvass =
    mode === 'write'
      ? fields
      : fields.check(
          z.superRefine((given, ctx) => {
            forwardRules(
              sideOf(canvassKind, mode),
              { success: given.success, status_code: given.status_code },
              ctx,
            );
          }, whenObject),
        );
  return closedObject({ canvass, ...actionFunctions(mode) });
}

/**
 * Body of the record canvass helper (`std:record_canvass_helper` of a person, the
 * target): the canvass fields nested in `canvass` (with the `canvasser` inlined, or linked
 * as `_links: { 'std:canvasser': { href } }`, and one `question_response`), beside the
 * action functions, which apply to the target.
 *
 * @example
 * ```ts
 * import { RecordCanvassBodySchema } from 'adis-sdk/schema';
 *
 * const question = { url: 'https://api.example.org/api/v1/questions/3' };
 * RecordCanvassBodySchema.parse({
 *   canvass: {
 *     contact_type: 'door',
 *     success: true,
 *     canvasser: { given_name: 'Ben' },
 *     question_response: { question: question.url, responses: ['yes'] },
 *   },
 *   add_tags: ['supporter'],
 * });
 * ```
 */
export const RecordCanvassBodySchema = buildCanvassBody('write');

/**
 * What a caller sends to the record canvass helper. Derived from
 * {@link RecordCanvassBodySchema}.
 */
export interface RecordCanvassInput
  extends z.input<typeof RecordCanvassBodySchema>,
    VendorMembers {}

/**
 * Body of the record submission helper (`std:record_submission_helper` of a form):
 * the submission's fields, the submitter as `person`, and the action functions.
 *
 * @example
 * ```ts
 * import { RecordSubmissionBodySchema } from 'adis-sdk/schema';
 *
 * RecordSubmissionBodySchema.parse({
 *   custom_fields: { t_shirt: 'M' },
 *   person: { given_name: 'Ana' },
 * });
 * ```
 */
export const RecordSubmissionBodySchema = actionBody(submissionKind, 'write');

/**
 * What a caller sends to the record submission helper. Derived from
 * {@link RecordSubmissionBodySchema}.
 */
export interface RecordSubmissionInput
  extends z.input<typeof RecordSubmissionBodySchema>,
    VendorMembers {}

/**
 * Body of the person signup helper (`std:person_signup_helper` of the entry point):
 * the person inlined (created, or matched and updated) and the action functions.
 *
 * @example
 * ```ts
 * import { PersonSignupBodySchema } from 'adis-sdk/schema';
 *
 * PersonSignupBodySchema.parse({
 *   person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
 *   add_lists: ['Newsletter'],
 * });
 * ```
 */
export const PersonSignupBodySchema = buildSignupBody('write');

function buildSignupBody(mode: BodyMode) {
  return closedObject({
    /** The person to create, or to merge into the matching one. */
    person: sideOf(personKind, mode),
    ...actionFunctions(mode),
  });
}

/**
 * What a caller sends to the person signup helper. Derived from
 * {@link PersonSignupBodySchema}.
 */
export interface PersonSignupInput extends z.input<typeof PersonSignupBodySchema>, VendorMembers {}

/**
 * Every helper body by the name a kind's helper declaration gives it
 * (`recordHelper('record_signature_helper', 'recordSignature', …)`). The navigator loads
 * this module when a helper is first called, so code that never calls one does not
 * carry the bodies.
 *
 * @example
 * ```ts
 * import { HELPER_BODIES } from 'adis-sdk/schema';
 *
 * HELPER_BODIES.recordSignature.parse({ person: { given_name: 'Ana' } });
 * ```
 */
export const HELPER_BODIES = {
  recordSignature: RecordSignatureBodySchema,
  recordOutreach: RecordOutreachBodySchema,
  recordAttendance: RecordAttendanceBodySchema,
  recordDonation: RecordDonationBodySchema,
  recordCanvass: RecordCanvassBodySchema,
  recordSubmission: RecordSubmissionBodySchema,
  personSignup: PersonSignupBodySchema,
  messageSchedule: MessageScheduleSchema,
} as const;

/**
 * What a caller sends to each helper of {@link HELPER_BODIES}, by the same names, as
 * named types: a mistake in a helper call's body then reads "… does not exist in type
 * 'RecordSignatureInput'" rather than the expanded body.
 */
export interface HelperBodyInputs {
  recordSignature: RecordSignatureInput;
  recordOutreach: RecordOutreachInput;
  recordAttendance: RecordAttendanceInput;
  recordDonation: RecordDonationInput;
  recordCanvass: RecordCanvassInput;
  recordSubmission: RecordSubmissionInput;
  personSignup: PersonSignupInput;
}

/** The name of a helper body in {@link HELPER_BODIES}. */
export type HelperBodyName = keyof typeof HELPER_BODIES;

/** The reference server's bodies, by side, each built on first use. */
const serverBodies: Partial<Record<'strict' | 'extended', typeof HELPER_BODIES>> = {};

/** Every helper body as the reference server checks it on `mode`'s side. */
function serverHelperBodies(mode: 'strict' | 'extended'): typeof HELPER_BODIES {
  serverBodies[mode] ??= {
    recordSignature: actionBody(signatureKind, mode),
    recordOutreach: actionBody(outreachKind, mode),
    recordAttendance: buildAttendanceBody(mode),
    recordDonation: buildDonationBody(mode),
    recordCanvass: buildCanvassBody(mode),
    recordSubmission: actionBody(submissionKind, mode),
    personSignup: buildSignupBody(mode),
    messageSchedule: MessageScheduleSchema,
  } as typeof HELPER_BODIES;
  return serverBodies[mode];
}

/**
 * Every helper body as the reference server checks it: {@link HELPER_BODIES} with the
 * specification's formats, vocabulary and rules (ISO dates, closed enums, recipients'
 * amounts within the donation's), and without Action Network's `remove_tags`. Built on
 * first use: the SDK never needs it.
 *
 * @example
 * ```ts
 * import { strictHelperBodies } from 'adis-sdk/server-kit';
 *
 * strictHelperBodies().personSignup.safeParse({ person: { email_addresses: [{ address: 'x' }] } }).success; // false
 * ```
 */
export function strictHelperBodies(): typeof HELPER_BODIES {
  return serverHelperBodies('strict');
}

/**
 * Every helper body as the reference server checks it under a real server's preset
 * (`--preset action-network`): {@link strictHelperBodies} plus `remove_tags` and the
 * vocabulary real servers document beside the specification (a phone's `status`, email
 * statuses such as `previous bounce`, date-times such as `2026-09-01 18:00:00`, parsed
 * to ISO 8601). Built on first use: the SDK never needs it.
 *
 * @example
 * ```ts
 * import { extendedHelperBodies } from 'adis-sdk/server-kit';
 *
 * extendedHelperBodies().personSignup.parse({ person: { given_name: 'Ana' }, remove_tags: ['lapsed'] });
 * ```
 */
export function extendedHelperBodies(): typeof HELPER_BODIES {
  return serverHelperBodies('extended');
}
