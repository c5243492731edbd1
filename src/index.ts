/**
 * adis-sdk: a TypeScript client for the Advocacy Data Interchange Service.
 *
 * Start with {@link connect}: it reads the API entry point and returns a
 * {@link Client} whose collections page with `for await` and whose resources follow
 * their links. Every address comes from the server's `_links`; the SDK builds none.
 *
 * @packageDocumentation
 * @module adis-sdk
 */
export * from './errors/index.js';
export * from './hal/index.js';
export * from './helpers/bodies.js';
export { type CallHelperOptions, callHelper, type HelperCallOptions } from './helpers/call.js';
export type { HelperOptions, WrappingKind } from './helpers/navigator.js';
export {
  personSignup,
  recordAttendance,
  recordCanvass,
  recordDonation,
  recordOutreach,
  recordSignature,
  recordSubmission,
} from './helpers/record.js';
export {
  findMember,
  type HelperResult,
  helperFailures,
  isPartialSuccess,
} from './helpers/result.js';
export * from './http/index.js';
export { Client, type ClientOptions, connect } from './navigator/client.js';
export { Collection, type Page, type PagingOptions } from './navigator/collection.js';
export type { CallOptions, NavigatorContext, SendResult } from './navigator/context.js';
export * from './navigator/filter.js';
export {
  type ResourceKind,
  type UntypedData,
  untypedKind,
  untypedKindOf,
} from './navigator/kind.js';
export { type FollowOptions, Resource } from './navigator/resource.js';
export { linkTo, type WriteOptions } from './navigator/write.js';
export * from './resources/advocacy-campaign.js';
export * from './resources/answer.js';
export * from './resources/attendance.js';
export * from './resources/canvass.js';
export { type CollectionPageInfo, CollectionPageSchema } from './resources/collection-page.js';
export * from './resources/donation.js';
export { type EntryPoint, EntryPointSchema } from './resources/entry-point.js';
export * from './resources/event.js';
export type { Ignored } from './resources/fields.js';
export * from './resources/form.js';
export * from './resources/fundraising-page.js';
export * from './resources/identifiers.js';
export * from './resources/item.js';
export * from './resources/list.js';
export * from './resources/message.js';
export {
  type CanvassContactType,
  CanvassContactTypeSchema,
  type CanvassContactTypes,
  CanvassContactTypesSchema,
  type CanvassInputType,
  CanvassInputTypeSchema,
  type CanvassInputTypes,
  CanvassInputTypesSchema,
  type CanvassResponseCode,
  CanvassResponseCodeSchema,
  type CanvassResponseCodes,
  CanvassResponseCodesSchema,
  Metadata,
  type MetadataRoot,
  MetadataRootSchema,
  type ResponseCodesOptions,
} from './resources/metadata.js';
export * from './resources/organization.js';
export * from './resources/outreach.js';
export {
  type EmailAddress,
  type Person,
  type PersonInput,
  PersonSchema,
  PersonWriteSchema,
  type PhoneNumber,
  type PostalAddress,
} from './resources/person.js';
export { PersonResource, personKind } from './resources/person-resource.js';
export * from './resources/petition.js';
export * from './resources/query.js';
export * from './resources/question.js';
export { addRuleIssue, RuleCode, type RuleCodeValue, type RuleIssue } from './resources/rules.js';
export * from './resources/share-page.js';
export * from './resources/signature.js';
export * from './resources/submission.js';
export * from './resources/tag.js';
export * from './resources/tagging.js';
export * from './resources/wrapper.js';
