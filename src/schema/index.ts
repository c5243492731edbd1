/**
 * adis-sdk/schema: the specification's resource kinds as data, with no HTTP and no
 * navigator. Each kind (`personKind`, `petitionKind`, …) holds its names, its lenient
 * read schema, its write schema (member names and types: whatever was read can be
 * written back), the reference server's strict schema, its relations and its helpers.
 * Use it to
 * validate your own data before sending it, to declare a kind of your own with
 * {@link defineKind}, or (as the reference server does) to serve the specification.
 *
 * @example
 * ```ts
 * import { personKind } from 'adis-sdk/schema';
 * const result = personKind.writeSchema.safeParse(row);
 * if (!result.success) console.error(result.error.issues);
 * ```
 *
 * @packageDocumentation
 * @module adis-sdk/schema
 */
export { amountValue } from './action-fields.js';
export { type CollectionPageInfo, CollectionPageSchema } from './collection-page.js';
export { type EntryPoint, EntryPointSchema, entryPointVersion } from './entry-point.js';
export {
  bool,
  code,
  commonFields,
  date,
  datetime,
  enumeration,
  flexenum,
  float,
  type Ignored,
  integer,
  isServerMode,
  type Mode,
  object,
  optional,
  outsideSpec,
} from './fields.js';
// Named, not `export *`: the navigator loads this module on demand (see
// Resource.callHelper), and a bundler can leave it out only when every name is static.
export {
  type ActionFunctionsInput,
  ActionFunctionsSchema,
  ActionFunctionsShape,
  extendedHelperBodies,
  HELPER_BODIES,
  type HelperBodyName,
  PersonSignupBodySchema,
  type PersonSignupInput,
  RecordAttendanceBodySchema,
  type RecordAttendanceInput,
  RecordCanvassBodySchema,
  type RecordCanvassInput,
  RecordDonationBodySchema,
  type RecordDonationInput,
  RecordOutreachBodySchema,
  type RecordOutreachInput,
  RecordSignatureBodySchema,
  type RecordSignatureInput,
  RecordSubmissionBodySchema,
  type RecordSubmissionInput,
  strictHelperBodies,
} from './helper-bodies.js';
export * from './identifiers.js';
export * from './kind.js';
export * from './kinds/advocacy-campaign.js';
export * from './kinds/answer.js';
export * from './kinds/attendance.js';
export * from './kinds/canvass.js';
export * from './kinds/donation.js';
export * from './kinds/event.js';
export * from './kinds/form.js';
export * from './kinds/fundraising-page.js';
export * from './kinds/index.js';
export * from './kinds/item.js';
export * from './kinds/list.js';
export * from './kinds/message.js';
export * from './kinds/organization.js';
export * from './kinds/outreach.js';
export * from './kinds/person.js';
export * from './kinds/petition.js';
export * from './kinds/query.js';
export * from './kinds/question.js';
export * from './kinds/share-page.js';
export * from './kinds/signature.js';
export * from './kinds/submission.js';
export * from './kinds/tag.js';
export * from './kinds/tagging.js';
export * from './kinds/wrapper.js';
export { RuleCode, type RuleCodeValue, type RuleIssue } from './rules.js';
export { SUBSCRIPTION_STATUSES } from './shared.js';
export {
  isVendorMember,
  VENDOR_MEMBER_PATTERN,
  type VendorConfig,
  type VendorMembers,
  type VendorObject,
} from './vendor.js';
