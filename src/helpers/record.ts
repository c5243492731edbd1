import type {
  PersonSignupInput,
  RecordAttendanceInput,
  RecordCanvassInput,
  RecordDonationInput,
  RecordOutreachInput,
  RecordSignatureInput,
  RecordSubmissionInput,
} from '../schema/helper-bodies.js';
import type { Attendance } from '../schema/kinds/attendance.js';
import type { Canvass } from '../schema/kinds/canvass.js';
import type { Donation } from '../schema/kinds/donation.js';
import type { Outreach } from '../schema/kinds/outreach.js';
import type { Person } from '../schema/kinds/person.js';
import type { Signature } from '../schema/kinds/signature.js';
import type { Submission } from '../schema/kinds/submission.js';
import { callHelper, type HelperCallOptions } from './call.js';
import type { HelperResult } from './result.js';

// One function per helper of the specification. They check nothing before sending
// (the schemas would bring zod into the page) and return the server's data as it came,
// typed but not validated: the full SDK's methods (`petition.recordSignature`) do both.

/**
 * Records a signature through a petition's `std:record_signature_helper` href: the
 * signer is created, or matched with a known person and updated, and the action
 * functions applied. Without `apiKey` (from a web page) a success resolves with no
 * record. A non-atomic answer resolves with `complete: false`; an atomic error rejects
 * with an `HTTPError`.
 *
 * @example
 * ```ts
 * import { recordSignature } from 'adis-sdk/helpers';
 *
 * const form = document.querySelector('form')!; // <form data-helper-href="…">
 * await recordSignature(form.dataset.helperHref!, {
 *   comments: 'Keep it public!',
 *   person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org', primary: true }] },
 * });
 * ```
 */
export function recordSignature(
  href: string,
  input: RecordSignatureInput,
  options?: HelperCallOptions,
): Promise<HelperResult<Signature, Person>> {
  return callHelper(href, input, { ...options, record: 'signature' });
}

/**
 * Records an outreach (a call, an email to a target) through an advocacy campaign's
 * `std:record_outreach_helper` href. Allowed without a key.
 *
 * @example
 * ```ts
 * import { recordOutreach } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/advocacy_campaigns/1/record_outreach_helper';
 * await recordOutreach(href, { type: 'phone', duration: 120, person: { given_name: 'Ana' } });
 * ```
 */
export function recordOutreach(
  href: string,
  input: RecordOutreachInput,
  options?: HelperCallOptions,
): Promise<HelperResult<Outreach, Person>> {
  return callHelper(href, input, { ...options, record: 'outreach' });
}

/**
 * Records an attendance (an RSVP, or tickets bought) through an event's
 * `std:record_attendance_helper` href. Allowed without a key.
 *
 * @example
 * ```ts
 * import { recordAttendance } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/events/1/record_attendance_helper';
 * await recordAttendance(href, { status: 'accepted', person: { given_name: 'Ana' } });
 * ```
 */
export function recordAttendance(
  href: string,
  input: RecordAttendanceInput,
  options?: HelperCallOptions,
): Promise<HelperResult<Attendance, Person>> {
  return callHelper(href, input, { ...options, record: 'attendance' });
}

/**
 * Records a donation through a fundraising page's `std:record_donation_helper` href.
 * Allowed without a key.
 *
 * @example
 * ```ts
 * import { recordDonation } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/fundraising_pages/1/record_donation_helper';
 * await recordDonation(href, { amount: 25, currency: 'USD', person: { given_name: 'Ana' } });
 * ```
 */
export function recordDonation(
  href: string,
  input: RecordDonationInput,
  options?: HelperCallOptions,
): Promise<HelperResult<Donation, Person>> {
  return callHelper(href, input, { ...options, record: 'donation' });
}

/**
 * Records a canvass of a person through the person's `std:record_canvass_helper` href;
 * the result's `person` is that person (the target). Allowed without a key.
 *
 * @example
 * ```ts
 * import { recordCanvass } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/people/1/record_canvass_helper';
 * const apiKey = process.env.ADIS_KEY;
 * await recordCanvass(href, { canvass: { contact_type: 'door', success: true } }, { apiKey });
 * ```
 */
export function recordCanvass(
  href: string,
  input: RecordCanvassInput,
  options?: HelperCallOptions,
): Promise<HelperResult<Canvass, Person>> {
  return callHelper(href, input, { ...options, record: 'canvass' });
}

/**
 * Records a form submission through a form's `std:record_submission_helper` href.
 * Needs a key.
 *
 * @example
 * ```ts
 * import { recordSubmission } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/forms/1/record_submission_helper';
 * await recordSubmission(href, { person: { given_name: 'Ana' } }, { apiKey: process.env.ADIS_KEY });
 * ```
 */
export function recordSubmission(
  href: string,
  input: RecordSubmissionInput,
  options?: HelperCallOptions,
): Promise<HelperResult<Submission, Person>> {
  return callHelper(href, input, { ...options, record: 'submission' });
}

/**
 * Signs a person up through the entry point's `std:person_signup_helper` href: the
 * person is created (201) or the matching one updated (200). `record` and `person` are
 * both that person. Needs a key.
 *
 * @example
 * ```ts
 * import { personSignup } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/people/person_signup_helper';
 * const apiKey = process.env.ADIS_KEY;
 * const { record, status } = await personSignup(href, { person: { given_name: 'Ana' } }, { apiKey });
 * ```
 */
export function personSignup(
  href: string,
  input: PersonSignupInput,
  options?: HelperCallOptions,
): Promise<HelperResult<Person, Person>> {
  return callHelper(href, input, { ...options, record: 'person' });
}
