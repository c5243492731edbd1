/**
 * `adis-sdk/helpers`: the light entry for web pages. It calls the specification's
 * helper endpoints (record a signature, an RSVP, a donation…) with `fetch` alone: no
 * zod, ky or uri-template at run time, a few kilobytes in a page. Nothing is checked
 * before sending (the server checks), and answers come back typed but not validated;
 * the full SDK's methods (`petition.recordSignature(…)`) check both ways.
 *
 * Every export here is also exported by the main entry `adis-sdk`.
 *
 * @example
 * ```ts
 * import { helperHref, isHTTPError, recordSignature } from 'adis-sdk/helpers';
 *
 * const petition = await (await fetch('/petition.json')).json(); // from your own site
 * const href = helperHref(petition, 'record_signature_helper');
 * try {
 *   await recordSignature(href, { person: { given_name: 'Ana' } });
 * } catch (error) {
 *   if (isHTTPError(error)) console.warn(error.status, error.stdError);
 * }
 * ```
 *
 * @packageDocumentation
 * @module adis-sdk/helpers
 */
// Each import names its file (never a folder's index): errors/index.ts re-exports the
// zod error schemas, which would otherwise be pulled into the page.
export { AdisError, type AdisErrorCode } from '../errors/adis-error.js';
export { decodeStdError, errorDescriptions } from '../errors/decode-std-error.js';
export { HTTPError, type HTTPErrorInit } from '../errors/http-error.js';
export { InvalidIdempotencyKeyError } from '../errors/invalid-idempotency-key-error.js';
export { InvalidLinkError, type InvalidLinkErrorInit } from '../errors/invalid-link-error.js';
export { type CurieProblem, LinkNotFoundError } from '../errors/link-not-found-error.js';
export { NetworkError } from '../errors/network-error.js';
export { ResponseFormatError } from '../errors/response-format-error.js';
export { ResponseStatusError } from '../errors/response-status-error.js';
export type {
  ErrorDescription,
  RequestType,
  ResourceStatus,
  StdError,
} from '../errors/std-error-schema.js';
export { TimeoutError, type TimeoutPhase } from '../errors/timeout-error.js';
export {
  isAdisError,
  isHTTPError,
  isInvalidIdempotencyKeyError,
  isInvalidLinkError,
  isLinkNotFoundError,
  isNetworkError,
  isResponseFormatError,
  isTimeoutError,
} from '../errors/type-guards.js';
export { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey } from '../http/idempotency-key.js';
export type { RetryOptions } from '../http/retry-policy.js';
export type {
  ActionFunctionsInput,
  PersonSignupInput,
  RecordAttendanceInput,
  RecordCanvassInput,
  RecordDonationInput,
  RecordOutreachInput,
  RecordSignatureInput,
  RecordSubmissionInput,
} from '../schema/helper-bodies.js';
export type { Attendance } from '../schema/kinds/attendance.js';
export type { Canvass } from '../schema/kinds/canvass.js';
export type { Donation } from '../schema/kinds/donation.js';
export type { Outreach } from '../schema/kinds/outreach.js';
export type { Person, PersonInput } from '../schema/kinds/person.js';
export type { Signature } from '../schema/kinds/signature.js';
export type { Submission } from '../schema/kinds/submission.js';
export { type CallHelperOptions, callHelper, type HelperCallOptions } from './call.js';
export { helperHref } from './href.js';
export type { QueuedCall } from './queue-store.js';
export {
  personSignup,
  recordAttendance,
  recordCanvass,
  recordDonation,
  recordOutreach,
  recordSignature,
  recordSubmission,
} from './record.js';
export {
  type AcceptedHelperResult,
  findMember,
  type HelperResult,
  helperFailures,
  isPartialSuccess,
  type ProcessedHelperResult,
} from './result.js';
export {
  createSignupQueue,
  type IndexedDBFactory,
  type QueueEvent,
  type QueueFailureReason,
  type QueueLocks,
  type QueueSubmitOutcome,
  type SignupQueue,
  type SignupQueueOptions,
} from './signup-queue.js';
