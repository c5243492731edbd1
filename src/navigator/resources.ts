// The named resource types: one interface per kind, so that editors and error messages
// show `PersonResource` (and `Collection<PersonResource>`) rather than the mapped type
// it is derived from. `ResourceOf<K>` (typed.ts) resolves to these names through
// `ResourceNames`; everything else is derived from the kinds' declarations.

import type { Campaign, CampaignInput, campaignKind } from '../presets/action-network/campaign.js';
import type {
  CustomField,
  CustomFieldInput,
  customFieldKind,
} from '../presets/action-network/custom-field.js';
import type { Embed, EmbedInput, embedKind } from '../presets/action-network/embed.js';
import type {
  EventCampaign,
  EventCampaignInput,
  eventCampaignKind,
} from '../presets/action-network/event-campaign.js';
import type { ACTION_NETWORK_KINDS } from '../presets/action-network/index.js';
import type {
  UniqueIdList,
  UniqueIdListInput,
  uniqueIdListKind,
} from '../presets/action-network/unique-id-list.js';
import type {
  AdvocacyCampaign,
  AdvocacyCampaignInput,
  advocacyCampaignKind,
} from '../schema/kinds/advocacy-campaign.js';
import type { Answer, AnswerInput, answerKind } from '../schema/kinds/answer.js';
import type { Attendance, AttendanceInput, attendanceKind } from '../schema/kinds/attendance.js';
import type { Canvass, CanvassInput, canvassKind } from '../schema/kinds/canvass.js';
import type { Donation, DonationInput, donationKind } from '../schema/kinds/donation.js';
import type { Event, EventInput, eventKind } from '../schema/kinds/event.js';
import type { Form, FormInput, formKind } from '../schema/kinds/form.js';
import type {
  FundraisingPage,
  FundraisingPageInput,
  fundraisingPageKind,
} from '../schema/kinds/fundraising-page.js';
import type { SpecKind } from '../schema/kinds/index.js';
import type { Item, ItemInput, itemKind } from '../schema/kinds/item.js';
import type { List, ListInput, listKind } from '../schema/kinds/list.js';
import type { Message, MessageInput, messageKind } from '../schema/kinds/message.js';
import type {
  Organization,
  OrganizationInput,
  organizationKind,
} from '../schema/kinds/organization.js';
import type { Outreach, OutreachInput, outreachKind } from '../schema/kinds/outreach.js';
import type { Person, PersonInput, personKind } from '../schema/kinds/person.js';
import type { Petition, PetitionInput, petitionKind } from '../schema/kinds/petition.js';
import type { Query, QueryInput, queryKind } from '../schema/kinds/query.js';
import type { Question, QuestionInput, questionKind } from '../schema/kinds/question.js';
import type { SharePage, SharePageInput, sharePageKind } from '../schema/kinds/share-page.js';
import type { Signature, SignatureInput, signatureKind } from '../schema/kinds/signature.js';
import type { Submission, SubmissionInput, submissionKind } from '../schema/kinds/submission.js';
import type { Tag, TagInput, tagKind } from '../schema/kinds/tag.js';
import type { Tagging, TaggingInput, taggingKind } from '../schema/kinds/tagging.js';
import type { Wrapper, WrapperInput, wrapperKind } from '../schema/kinds/wrapper.js';
import type { DerivedResource } from './typed.js';

/**
 * A person read from a server, with its relation and helper methods (`personKind`); its
 * members are on `.data` (`person.data.given_name`).
 */
export interface PersonResource extends DerivedResource<typeof personKind, Person, PersonInput> {}
/** An organization read from a server, with its relation and helper methods (`organizationKind`). */
export interface OrganizationResource
  extends DerivedResource<typeof organizationKind, Organization, OrganizationInput> {}
/** A petition read from a server, with its relation and helper methods (`petitionKind`). */
export interface PetitionResource
  extends DerivedResource<typeof petitionKind, Petition, PetitionInput> {}
/** A signature read from a server, with its relation and helper methods (`signatureKind`). */
export interface SignatureResource
  extends DerivedResource<typeof signatureKind, Signature, SignatureInput> {}
/** A form read from a server, with its relation and helper methods (`formKind`). */
export interface FormResource extends DerivedResource<typeof formKind, Form, FormInput> {}
/** A submission read from a server, with its relation and helper methods (`submissionKind`). */
export interface SubmissionResource
  extends DerivedResource<typeof submissionKind, Submission, SubmissionInput> {}
/** A fundraising page read from a server, with its relation and helper methods (`fundraisingPageKind`). */
export interface FundraisingPageResource
  extends DerivedResource<typeof fundraisingPageKind, FundraisingPage, FundraisingPageInput> {}
/** A donation read from a server, with its relation and helper methods (`donationKind`). */
export interface DonationResource
  extends DerivedResource<typeof donationKind, Donation, DonationInput> {}
/** A share page read from a server, with its relation and helper methods (`sharePageKind`). */
export interface SharePageResource
  extends DerivedResource<typeof sharePageKind, SharePage, SharePageInput> {}
/** An advocacy campaign read from a server, with its relation and helper methods (`advocacyCampaignKind`). */
export interface AdvocacyCampaignResource
  extends DerivedResource<typeof advocacyCampaignKind, AdvocacyCampaign, AdvocacyCampaignInput> {}
/** An outreach read from a server, with its relation and helper methods (`outreachKind`). */
export interface OutreachResource
  extends DerivedResource<typeof outreachKind, Outreach, OutreachInput> {}
/** An event read from a server, with its relation and helper methods (`eventKind`). */
export interface EventResource extends DerivedResource<typeof eventKind, Event, EventInput> {}
/** An attendance read from a server, with its relation and helper methods (`attendanceKind`). */
export interface AttendanceResource
  extends DerivedResource<typeof attendanceKind, Attendance, AttendanceInput> {}
/** A question read from a server, with its relation and helper methods (`questionKind`). */
export interface QuestionResource
  extends DerivedResource<typeof questionKind, Question, QuestionInput> {}
/** An answer read from a server, with its relation and helper methods (`answerKind`). */
export interface AnswerResource extends DerivedResource<typeof answerKind, Answer, AnswerInput> {}
/** A wrapper read from a server, with its relation and helper methods (`wrapperKind`). */
export interface WrapperResource
  extends DerivedResource<typeof wrapperKind, Wrapper, WrapperInput> {}
/** A message read from a server, with its relation and helper methods (`messageKind`). */
export interface MessageResource
  extends DerivedResource<typeof messageKind, Message, MessageInput> {}
/** A tag read from a server, with its relation and helper methods (`tagKind`). */
export interface TagResource extends DerivedResource<typeof tagKind, Tag, TagInput> {}
/** A tagging read from a server, with its relation and helper methods (`taggingKind`). */
export interface TaggingResource
  extends DerivedResource<typeof taggingKind, Tagging, TaggingInput> {}
/** A list read from a server, with its relation and helper methods (`listKind`). */
export interface ListResource extends DerivedResource<typeof listKind, List, ListInput> {}
/** An item read from a server, with its relation and helper methods (`itemKind`). */
export interface ItemResource extends DerivedResource<typeof itemKind, Item, ItemInput> {}
/** A query read from a server, with its relation and helper methods (`queryKind`). */
export interface QueryResource extends DerivedResource<typeof queryKind, Query, QueryInput> {}
/** A canvass read from a server, with its relation and helper methods (`canvassKind`). */
export interface CanvassResource
  extends DerivedResource<typeof canvassKind, Canvass, CanvassInput> {}
/** An event campaign read from Action Network, with its relation and helper methods (`eventCampaignKind`). */
export interface EventCampaignResource
  extends DerivedResource<typeof eventCampaignKind, EventCampaign, EventCampaignInput> {}
/** A campaign read from Action Network, with its relation and helper methods (`campaignKind`). */
export interface CampaignResource
  extends DerivedResource<typeof campaignKind, Campaign, CampaignInput> {}
/** An unique id list read from Action Network, with its relation and helper methods (`uniqueIdListKind`). */
export interface UniqueIdListResource
  extends DerivedResource<typeof uniqueIdListKind, UniqueIdList, UniqueIdListInput> {}
/** A custom field read from Action Network, with its relation and helper methods (`customFieldKind`). */
export interface CustomFieldResource
  extends DerivedResource<typeof customFieldKind, CustomField, CustomFieldInput> {}
/** An embed read from Action Network, with its relation and helper methods (`embedKind`). */
export interface EmbedResource extends DerivedResource<typeof embedKind, Embed, EmbedInput> {}

/**
 * The kinds that have a named resource: the specification's and Action Network's.
 *
 * @example
 * ```ts
 * import type { NamedKind } from 'adis-sdk';
 *
 * type Named = NamedKind['singular']; // 'person' | 'petition' | … | 'event_campaign' | …
 * ```
 */
export type NamedKind = SpecKind | (typeof ACTION_NETWORK_KINDS)[number];

/**
 * The named resource of each kind of {@link NamedKind}, by the kind's singular name:
 * what {@link ResourceOf} resolves to.
 *
 * @example
 * ```ts
 * import type { ResourceNames } from 'adis-sdk';
 *
 * const url = 'https://api.example.org/api/v1/people/1';
 * const person: ResourceNames['person'] = await client.people.get(url); // a PersonResource
 * ```
 */
export interface ResourceNames {
  person: PersonResource;
  organization: OrganizationResource;
  petition: PetitionResource;
  signature: SignatureResource;
  form: FormResource;
  submission: SubmissionResource;
  fundraising_page: FundraisingPageResource;
  donation: DonationResource;
  share_page: SharePageResource;
  advocacy_campaign: AdvocacyCampaignResource;
  outreach: OutreachResource;
  event: EventResource;
  attendance: AttendanceResource;
  question: QuestionResource;
  answer: AnswerResource;
  wrapper: WrapperResource;
  message: MessageResource;
  tag: TagResource;
  tagging: TaggingResource;
  list: ListResource;
  item: ItemResource;
  query: QueryResource;
  canvass: CanvassResource;
  event_campaign: EventCampaignResource;
  campaign: CampaignResource;
  unique_id_list: UniqueIdListResource;
  custom_field: CustomFieldResource;
  embed: EmbedResource;
}
