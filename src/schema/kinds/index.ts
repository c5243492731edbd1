// The registry of the specification's resource kinds: the one list of them. The client's
// collections, the export command's kinds, the server's catalog and the docs' tables
// are all derived from it. Kind modules never import each other; this module imports
// them all, so only code that wants every kind (the full `connect`, the server) pays for
// every kind.
import { advocacyCampaignKind } from './advocacy-campaign.js';
import { answerKind } from './answer.js';
import { attendanceKind } from './attendance.js';
import { canvassKind } from './canvass.js';
import { donationKind } from './donation.js';
import { eventKind } from './event.js';
import { formKind } from './form.js';
import { fundraisingPageKind } from './fundraising-page.js';
import { itemKind } from './item.js';
import { listKind } from './list.js';
import { messageKind } from './message.js';
import { organizationKind } from './organization.js';
import { outreachKind } from './outreach.js';
import { personKind } from './person.js';
import { petitionKind } from './petition.js';
import { queryKind } from './query.js';
import { questionKind } from './question.js';
import { sharePageKind } from './share-page.js';
import { signatureKind } from './signature.js';
import { submissionKind } from './submission.js';
import { tagKind } from './tag.js';
import { taggingKind } from './tagging.js';
import { wrapperKind } from './wrapper.js';

/**
 * Every kind of the specification, in the order the entry point links their
 * collections (people first).
 *
 * @example
 * ```ts
 * import { KINDS } from 'adis-sdk/schema';
 *
 * KINDS.map((kind) => kind.plural); // ['people', 'organizations', 'petitions', …]
 * ```
 */
export const KINDS = [
  personKind,
  organizationKind,
  petitionKind,
  signatureKind,
  formKind,
  submissionKind,
  fundraisingPageKind,
  donationKind,
  sharePageKind,
  advocacyCampaignKind,
  outreachKind,
  eventKind,
  attendanceKind,
  questionKind,
  answerKind,
  wrapperKind,
  messageKind,
  tagKind,
  taggingKind,
  listKind,
  itemKind,
  queryKind,
  canvassKind,
] as const;

/** Any kind of the specification. */
export type SpecKind = (typeof KINDS)[number];

/** The singular name of a kind of the specification: `'person'`, `'fundraising_page'`, … */
export type KindName = SpecKind['singular'];

/** The kind of the specification named `N`. */
export type KindNamed<N extends string> = Extract<SpecKind, { singular: N }>;

/**
 * The kind named `name`, or undefined.
 *
 * @example
 * ```ts
 * import { kindNamed } from 'adis-sdk/schema';
 *
 * kindNamed('signature')?.plural; // 'signatures'
 * ```
 */
export function kindNamed(name: string): SpecKind | undefined {
  return KINDS.find((kind) => kind.singular === name);
}
