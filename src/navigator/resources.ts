// Names for the resource types of the specification's kinds, for code that names them
// (`let person: PersonResource`). Each is ResourceOf its kind: nothing here but names.

import type { advocacyCampaignKind } from '../schema/kinds/advocacy-campaign.js';
import type { answerKind } from '../schema/kinds/answer.js';
import type { attendanceKind } from '../schema/kinds/attendance.js';
import type { canvassKind } from '../schema/kinds/canvass.js';
import type { donationKind } from '../schema/kinds/donation.js';
import type { eventKind } from '../schema/kinds/event.js';
import type { formKind } from '../schema/kinds/form.js';
import type { fundraisingPageKind } from '../schema/kinds/fundraising-page.js';
import type { itemKind } from '../schema/kinds/item.js';
import type { listKind } from '../schema/kinds/list.js';
import type { messageKind } from '../schema/kinds/message.js';
import type { organizationKind } from '../schema/kinds/organization.js';
import type { outreachKind } from '../schema/kinds/outreach.js';
import type { personKind } from '../schema/kinds/person.js';
import type { petitionKind } from '../schema/kinds/petition.js';
import type { queryKind } from '../schema/kinds/query.js';
import type { questionKind } from '../schema/kinds/question.js';
import type { sharePageKind } from '../schema/kinds/share-page.js';
import type { signatureKind } from '../schema/kinds/signature.js';
import type { submissionKind } from '../schema/kinds/submission.js';
import type { tagKind } from '../schema/kinds/tag.js';
import type { taggingKind } from '../schema/kinds/tagging.js';
import type { wrapperKind } from '../schema/kinds/wrapper.js';
import type { ResourceOf } from './typed.js';

/** A person read from a server, with its relation and helper methods: `ResourceOf<typeof personKind>`. */
export type PersonResource = ResourceOf<typeof personKind>;
/** A organization read from a server, with its relation and helper methods: `ResourceOf<typeof organizationKind>`. */
export type OrganizationResource = ResourceOf<typeof organizationKind>;
/** A petition read from a server, with its relation and helper methods: `ResourceOf<typeof petitionKind>`. */
export type PetitionResource = ResourceOf<typeof petitionKind>;
/** A signature read from a server, with its relation and helper methods: `ResourceOf<typeof signatureKind>`. */
export type SignatureResource = ResourceOf<typeof signatureKind>;
/** A form read from a server, with its relation and helper methods: `ResourceOf<typeof formKind>`. */
export type FormResource = ResourceOf<typeof formKind>;
/** A submission read from a server, with its relation and helper methods: `ResourceOf<typeof submissionKind>`. */
export type SubmissionResource = ResourceOf<typeof submissionKind>;
/** A fundraising page read from a server, with its relation and helper methods: `ResourceOf<typeof fundraisingPageKind>`. */
export type FundraisingPageResource = ResourceOf<typeof fundraisingPageKind>;
/** A donation read from a server, with its relation and helper methods: `ResourceOf<typeof donationKind>`. */
export type DonationResource = ResourceOf<typeof donationKind>;
/** A share page read from a server, with its relation and helper methods: `ResourceOf<typeof sharePageKind>`. */
export type SharePageResource = ResourceOf<typeof sharePageKind>;
/** A advocacy campaign read from a server, with its relation and helper methods: `ResourceOf<typeof advocacyCampaignKind>`. */
export type AdvocacyCampaignResource = ResourceOf<typeof advocacyCampaignKind>;
/** A outreach read from a server, with its relation and helper methods: `ResourceOf<typeof outreachKind>`. */
export type OutreachResource = ResourceOf<typeof outreachKind>;
/** A event read from a server, with its relation and helper methods: `ResourceOf<typeof eventKind>`. */
export type EventResource = ResourceOf<typeof eventKind>;
/** A attendance read from a server, with its relation and helper methods: `ResourceOf<typeof attendanceKind>`. */
export type AttendanceResource = ResourceOf<typeof attendanceKind>;
/** A question read from a server, with its relation and helper methods: `ResourceOf<typeof questionKind>`. */
export type QuestionResource = ResourceOf<typeof questionKind>;
/** A answer read from a server, with its relation and helper methods: `ResourceOf<typeof answerKind>`. */
export type AnswerResource = ResourceOf<typeof answerKind>;
/** A wrapper read from a server, with its relation and helper methods: `ResourceOf<typeof wrapperKind>`. */
export type WrapperResource = ResourceOf<typeof wrapperKind>;
/** A message read from a server, with its relation and helper methods: `ResourceOf<typeof messageKind>`. */
export type MessageResource = ResourceOf<typeof messageKind>;
/** A tag read from a server, with its relation and helper methods: `ResourceOf<typeof tagKind>`. */
export type TagResource = ResourceOf<typeof tagKind>;
/** A tagging read from a server, with its relation and helper methods: `ResourceOf<typeof taggingKind>`. */
export type TaggingResource = ResourceOf<typeof taggingKind>;
/** A list read from a server, with its relation and helper methods: `ResourceOf<typeof listKind>`. */
export type ListResource = ResourceOf<typeof listKind>;
/** A item read from a server, with its relation and helper methods: `ResourceOf<typeof itemKind>`. */
export type ItemResource = ResourceOf<typeof itemKind>;
/** A query read from a server, with its relation and helper methods: `ResourceOf<typeof queryKind>`. */
export type QueryResource = ResourceOf<typeof queryKind>;
/** A canvass read from a server, with its relation and helper methods: `ResourceOf<typeof canvassKind>`. */
export type CanvassResource = ResourceOf<typeof canvassKind>;
