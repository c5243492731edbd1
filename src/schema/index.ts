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
 *
 * const row = { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] };
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
  COMMON_COMPUTED_FIELDS,
  type CommonComputed,
  code,
  commonFields,
  date,
  datetime,
  enumeration,
  flexenum,
  float,
  type GivenCreatedDate,
  type Ignored,
  integer,
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
  HELPER_BODIES,
  type HelperBodyInputs,
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
} from './helper-bodies.js';
export {
  formatIdentifier,
  identifiersOf,
  localId,
  localIdentifier,
  type ParsedIdentifier,
  parseIdentifier,
} from './identifiers.js';
export {
  type AnyKind,
  type AnyOfRelation,
  type AnySchema,
  anyOf,
  defineKind,
  type Helper,
  type KindDefinition,
  type KindSpec,
  type ManyRelation,
  many,
  type NoticeHelper,
  noticeHelper,
  type OneRelation,
  one,
  type RecordHelper,
  type Relation,
  recordHelper,
} from './kind.js';
export {
  type AdvocacyCampaign,
  type AdvocacyCampaignInput,
  advocacyCampaignKind,
  type Target,
} from './kinds/advocacy-campaign.js';
export {
  type Answer,
  type AnswerInput,
  answerKind,
} from './kinds/answer.js';
export {
  ATTENDANCE_STATUSES,
  type Attendance,
  type AttendanceInput,
  attendanceKind,
} from './kinds/attendance.js';
export {
  type Canvass,
  type CanvassInput,
  canvassKind,
} from './kinds/canvass.js';
export {
  type Donation,
  type DonationInput,
  donationKind,
  recipientsProblem,
} from './kinds/donation.js';
export {
  type Event,
  type EventInput,
  eventKind,
  isIanaTimeZone,
  type TicketLevel,
} from './kinds/event.js';
export {
  type Form,
  type FormInput,
  formKind,
} from './kinds/form.js';
export {
  type FundraisingPage,
  type FundraisingPageInput,
  fundraisingPageKind,
} from './kinds/fundraising-page.js';
export {
  KINDS,
  type KindName,
  type KindNamed,
  kindNamed,
  type SpecKind,
} from './kinds/index.js';
export {
  type Item,
  type ItemInput,
  itemKind,
} from './kinds/item.js';
export {
  type List,
  type ListInput,
  listKind,
} from './kinds/list.js';
export {
  MESSAGE_STATUSES,
  type Message,
  type MessageInput,
  type MessageNotice,
  MessageNoticeSchema,
  type MessageSchedule,
  type MessageScheduleInput,
  MessageScheduleSchema,
  messageKind,
} from './kinds/message.js';
export {
  type Organization,
  type OrganizationInput,
  organizationKind,
} from './kinds/organization.js';
export {
  type Outreach,
  type OutreachInput,
  outreachKind,
} from './kinds/outreach.js';
export {
  type EmailAddress,
  type Person,
  type PersonInput,
  type PhoneNumber,
  type PostalAddress,
  personKind,
  primaryEmail,
} from './kinds/person.js';
export {
  type Petition,
  type PetitionInput,
  petitionKind,
} from './kinds/petition.js';
export {
  type Query,
  type QueryInput,
  queryKind,
} from './kinds/query.js';
export {
  QUESTION_TYPES,
  type Question,
  type QuestionInput,
  type QuestionResponse,
  questionKind,
  RESPONSE_KEY_PATTERN,
  RESPONSE_NAME_PATTERN,
} from './kinds/question.js';
export {
  type SharePage,
  type SharePageInput,
  sharePageKind,
} from './kinds/share-page.js';
export {
  type Signature,
  type SignatureInput,
  signatureKind,
} from './kinds/signature.js';
export {
  type Submission,
  type SubmissionInput,
  submissionKind,
} from './kinds/submission.js';
export {
  type Tag,
  type TagInput,
  tagKind,
} from './kinds/tag.js';
export {
  TAGGING_TARGET_RELATIONS,
  TAGGING_TARGET_TYPES,
  type Tagging,
  type TaggingInput,
  taggingKind,
} from './kinds/tagging.js';
export {
  type Wrapper,
  type WrapperInput,
  wrapperKind,
} from './kinds/wrapper.js';
export { type CollectionLink, type LinkedKind, linkedAs } from './linked-as.js';
export { RuleCode, type RuleCodeValue, type RuleIssue } from './rules.js';
export { SUBSCRIPTION_STATUSES } from './shared.js';
export {
  isVendorMember,
  VENDOR_MEMBER_PATTERN,
  type VendorConfig,
  type VendorMembers,
  type VendorObject,
} from './vendor.js';
