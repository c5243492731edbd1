import { RecordCanvassBodySchema, type RecordCanvassInput } from '../helpers/bodies.js';
import type { HelperOptions } from '../helpers/navigator.js';
import type { HelperResult } from '../helpers/result.js';
import type { Collection } from '../navigator/collection.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { type Answer, type AnswerInput, type AnswerResource, answerKind } from './answer.js';
import {
  type Attendance,
  type AttendanceInput,
  type AttendanceResource,
  attendanceKind,
} from './attendance.js';
import { type CanvassResource, canvassKind } from './canvass.js';
import {
  type Donation,
  type DonationInput,
  type DonationResource,
  donationKind,
} from './donation.js';
import { type Item, type ItemInput, type ItemResource, itemKind } from './item.js';
import {
  type Outreach,
  type OutreachInput,
  type OutreachResource,
  outreachKind,
} from './outreach.js';
import { type Person, type PersonInput, PersonSchema, PersonWriteSchema } from './person.js';
import {
  type Signature,
  type SignatureInput,
  type SignatureResource,
  signatureKind,
} from './signature.js';
import {
  type Submission,
  type SubmissionInput,
  type SubmissionResource,
  submissionKind,
} from './submission.js';
import { type Tagging, type TaggingInput, type TaggingResource, taggingKind } from './tagging.js';

/**
 * A person read from a server, with a method per link relation of a person.
 *
 * Each related collection is a typed {@link Collection} of its kind: it pages like any
 * other, starts from an embedded first page when the person carries one, and creates
 * records of its kind.
 *
 * @example
 * ```ts
 * for await (const person of client.people) {
 *   console.log(person.data.given_name, person.primaryEmail);
 *   for await (const signature of person.signatures()) console.log(signature.data.comments);
 * }
 * ```
 */
export class PersonResource extends Resource<Person, PersonInput> {
  /**
   * The primary email address, else the first one.
   *
   * @example
   * ```ts
   * person.primaryEmail; // 'ana@example.org'
   * ```
   */
  get primaryEmail(): string | undefined {
    const emails = this.data.email_addresses ?? [];
    const email = emails.find((e) => e?.primary) ?? emails[0];
    return email?.address ?? undefined;
  }

  /**
   * The person's signatures (`std:signatures`).
   *
   * @example
   * ```ts
   * for await (const signature of person.signatures()) {
   *   console.log((await signature.petition()).data.title, signature.data.action_date);
   * }
   * ```
   */
  signatures(): Collection<Signature, SignatureInput, SignatureResource> {
    return this.linkedCollection(signatureKind, 'std:signatures');
  }

  /**
   * The person's attendances (`std:attendances`): RSVPs and tickets bought.
   *
   * @example
   * ```ts
   * for await (const attendance of person.attendances()) console.log(attendance.data.status);
   * ```
   */
  attendances(): Collection<Attendance, AttendanceInput, AttendanceResource> {
    // The spec's list of a person's links spells it `std:attendance` once; both are read.
    return this.linkedCollection(attendanceKind, 'std:attendances', 'std:attendance');
  }

  /**
   * The person's form submissions (`std:submissions`).
   *
   * @example
   * ```ts
   * for await (const submission of person.submissions()) console.log(submission.data.action_date);
   * ```
   */
  submissions(): Collection<Submission, SubmissionInput, SubmissionResource> {
    return this.linkedCollection(submissionKind, 'std:submissions');
  }

  /**
   * The person's donations (`std:donations`).
   *
   * @example
   * ```ts
   * let given = 0;
   * for await (const donation of person.donations()) given += donation.data.amount ?? 0;
   * ```
   */
  donations(): Collection<Donation, DonationInput, DonationResource> {
    return this.linkedCollection(donationKind, 'std:donations');
  }

  /**
   * The person's outreaches to targets of advocacy campaigns (`std:outreaches`).
   *
   * @example
   * ```ts
   * for await (const outreach of person.outreaches()) console.log(outreach.data.type);
   * ```
   */
  outreaches(): Collection<Outreach, OutreachInput, OutreachResource> {
    return this.linkedCollection(outreachKind, 'std:outreaches');
  }

  /**
   * The taggings that apply tags to the person (`std:taggings`).
   *
   * @example
   * ```ts
   * for await (const tagging of person.taggings()) console.log((await tagging.tag()).data.name);
   * ```
   */
  taggings(): Collection<Tagging, TaggingInput, TaggingResource> {
    return this.linkedCollection(taggingKind, 'std:taggings');
  }

  /**
   * The person's answers to questions (`std:answers`).
   *
   * @example
   * ```ts
   * for await (const answer of person.answers()) console.log(answer.data.responses ?? answer.data.value);
   * ```
   */
  answers(): Collection<Answer, AnswerInput, AnswerResource> {
    return this.linkedCollection(answerKind, 'std:answers');
  }

  /**
   * The list items that put the person on lists (`std:items`).
   *
   * @example
   * ```ts
   * for await (const item of person.items()) console.log((await item.list()).data.name);
   * ```
   */
  items(): Collection<Item, ItemInput, ItemResource> {
    return this.linkedCollection(itemKind, 'std:items');
  }

  /**
   * Records a canvass of this person (the target) through the person's
   * `std:record_canvass_helper`: the canvass fields go in `canvass` (with the
   * `canvasser` inlined and one `question_response`), and the action functions apply to
   * this person. Checked first; resolves with the canvass and the target,
   * `complete: false` when an action function failed; an atomic error rejects with an
   * HTTPError. `authenticate: false` sends no key.
   *
   * @example
   * ```ts
   * const { record, person } = await person.recordCanvass({
   *   canvass: { contact_type: 'door', success: true, question_response: { question: question.url, responses: ['yes'] } },
   *   add_tags: ['supporter'],
   * });
   * console.log(record?.data.success, person?.data.given_name);
   * ```
   */
  recordCanvass(
    input: RecordCanvassInput,
    options?: HelperOptions,
  ): Promise<HelperResult<CanvassResource, PersonResource>> {
    return this.callHelper(
      'std:record_canvass_helper',
      RecordCanvassBodySchema,
      input,
      { record: canvassKind, person: personKind },
      options,
    );
  }
}

/**
 * The person kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const people = new Collection(context, locate, personKind);
 * ```
 */
export const personKind: ResourceKind<Person, PersonInput, PersonResource> = {
  singular: 'person',
  plural: 'people',
  schema: PersonSchema,
  writeSchema: PersonWriteSchema,
  wrap: (context, document) => new PersonResource(context, document, personKind),
};
