import { InvalidLinkError, LinkNotFoundError, ResponseFormatError } from '../errors/index.js';
import { type Curies, fetchableUrl, HalDocument } from '../hal/index.js';
import { PersonSignupBodySchema, type PersonSignupInput } from '../helpers/bodies.js';
import { type HelperOptions, sendHelper } from '../helpers/navigator.js';
import type { HelperResult } from '../helpers/result.js';
import { jsonPreview } from '../http/json-body.js';
import { createTransport, type Transport, type TransportOptions } from '../http/transport.js';
import {
  type AdvocacyCampaign,
  type AdvocacyCampaignInput,
  type AdvocacyCampaignResource,
  advocacyCampaignKind,
} from '../resources/advocacy-campaign.js';
import {
  type Answer,
  type AnswerInput,
  type AnswerResource,
  answerKind,
} from '../resources/answer.js';
import {
  type Attendance,
  type AttendanceInput,
  type AttendanceResource,
  attendanceKind,
} from '../resources/attendance.js';
import {
  type Canvass,
  type CanvassInput,
  type CanvassResource,
  canvassKind,
} from '../resources/canvass.js';
import {
  type Donation,
  type DonationInput,
  type DonationResource,
  donationKind,
} from '../resources/donation.js';
import { type EntryPoint, EntryPointSchema } from '../resources/entry-point.js';
import { type Event, type EventInput, type EventResource, eventKind } from '../resources/event.js';
import { type Form, type FormInput, type FormResource, formKind } from '../resources/form.js';
import {
  type FundraisingPage,
  type FundraisingPageInput,
  type FundraisingPageResource,
  fundraisingPageKind,
} from '../resources/fundraising-page.js';
import { localId } from '../resources/identifiers.js';
import { type Item, type ItemInput, type ItemResource, itemKind } from '../resources/item.js';
import { type List, type ListInput, type ListResource, listKind } from '../resources/list.js';
import {
  type Message,
  type MessageInput,
  type MessageResource,
  messageKind,
} from '../resources/message.js';
import { Metadata } from '../resources/metadata.js';
import {
  type Organization,
  type OrganizationInput,
  type OrganizationResource,
  organizationKind,
} from '../resources/organization.js';
import {
  type Outreach,
  type OutreachInput,
  type OutreachResource,
  outreachKind,
} from '../resources/outreach.js';
import type { Person, PersonInput } from '../resources/person.js';
import { type PersonResource, personKind } from '../resources/person-resource.js';
import {
  type Petition,
  type PetitionInput,
  type PetitionResource,
  petitionKind,
} from '../resources/petition.js';
import { type Query, type QueryInput, type QueryResource, queryKind } from '../resources/query.js';
import {
  type Question,
  type QuestionInput,
  type QuestionResource,
  questionKind,
} from '../resources/question.js';
import {
  type SharePage,
  type SharePageInput,
  type SharePageResource,
  sharePageKind,
} from '../resources/share-page.js';
import {
  type Signature,
  type SignatureInput,
  type SignatureResource,
  signatureKind,
} from '../resources/signature.js';
import {
  type Submission,
  type SubmissionInput,
  type SubmissionResource,
  submissionKind,
} from '../resources/submission.js';
import { type Tag, type TagInput, type TagResource, tagKind } from '../resources/tag.js';
import {
  type Tagging,
  type TaggingInput,
  type TaggingResource,
  taggingKind,
} from '../resources/tagging.js';
import {
  type Wrapper,
  type WrapperInput,
  type WrapperResource,
  wrapperKind,
} from '../resources/wrapper.js';
import { Collection } from './collection.js';
import { type CallOptions, NavigatorContext } from './context.js';
import type { ResourceKind } from './kind.js';
import type { FollowOptions, Resource } from './resource.js';

/**
 * Options of {@link connect}: the transport's (key, key header name, trusted origins,
 * retries, rate limit, timeout, custom fetch, hooks) plus navigation settings.
 *
 * @example
 * ```ts
 * const client = await connect(url, { apiKey, rateLimit: 4, retry: 5 });
 * ```
 */
export interface ClientOptions extends TransportOptions {
  /**
   * The server's name for the specification's curie, when it is neither `std` nor the
   * only curie of the entry point. The SDK always names relations `std:…`.
   */
  curiePrefix?: string;
  /**
   * Check what is sent against the write schemas, and what is read against the read
   * schemas (which are lenient). Default true.
   */
  validate?: boolean;
  /** A transport to use instead of one built from these options (tests, sharing). */
  transport?: Transport;
  /** Cancels or times out the entry point request. */
  signal?: AbortSignal;
}

/**
 * A connection to one server, made by {@link connect}: the entry point's fields, and
 * the collections and relations that start from it.
 *
 * @example
 * ```ts
 * const client = await connect('http://127.0.0.1:8000/api/v1/', { apiKey: process.env.ADIS_KEY });
 * console.log(client.entryPoint.product_name);
 * for await (const person of client.people.items({ limit: 10 })) console.log(person.data.given_name);
 * ```
 */
export class Client {
  /** The entry point's typed fields (motd, max_pagesize, namespace, …). */
  readonly entryPoint: EntryPoint;
  /** The entry point document. */
  readonly root: HalDocument;
  /** The server's people (`std:people`). */
  readonly people: Collection<Person, PersonInput, PersonResource>;
  /** The server's organizations (experimental in the spec) (`std:organizations`). */
  readonly organizations: Collection<Organization, OrganizationInput, OrganizationResource>;
  /** The server's petitions (`std:petitions`). */
  readonly petitions: Collection<Petition, PetitionInput, PetitionResource>;
  /** The server's petition signatures (`std:signatures`). */
  readonly signatures: Collection<Signature, SignatureInput, SignatureResource>;
  /** The server's forms (`std:forms`). */
  readonly forms: Collection<Form, FormInput, FormResource>;
  /** The server's form submissions (`std:submissions`). */
  readonly submissions: Collection<Submission, SubmissionInput, SubmissionResource>;
  /** The server's fundraising pages (`std:fundraising_pages`). */
  readonly fundraisingPages: Collection<
    FundraisingPage,
    FundraisingPageInput,
    FundraisingPageResource
  >;
  /** The server's donations (`std:donations`). */
  readonly donations: Collection<Donation, DonationInput, DonationResource>;
  /** The server's share pages (`std:share_pages`). */
  readonly sharePages: Collection<SharePage, SharePageInput, SharePageResource>;
  /** The server's advocacy campaigns (`std:advocacy_campaigns`). */
  readonly advocacyCampaigns: Collection<
    AdvocacyCampaign,
    AdvocacyCampaignInput,
    AdvocacyCampaignResource
  >;
  /** The server's advocacy outreaches (`std:outreaches`). */
  readonly outreaches: Collection<Outreach, OutreachInput, OutreachResource>;
  /** The server's events (`std:events`). */
  readonly events: Collection<Event, EventInput, EventResource>;
  /** The server's event attendances (`std:attendances`). */
  readonly attendances: Collection<Attendance, AttendanceInput, AttendanceResource>;
  /** The server's questions (`std:questions`). */
  readonly questions: Collection<Question, QuestionInput, QuestionResource>;
  /** The server's answers to questions (`std:answers`). */
  readonly answers: Collection<Answer, AnswerInput, AnswerResource>;
  /** The server's message wrappers (`std:wrappers`). */
  readonly wrappers: Collection<Wrapper, WrapperInput, WrapperResource>;
  /** The server's messages (`std:messages`). */
  readonly messages: Collection<Message, MessageInput, MessageResource>;
  /** The server's tags (`std:tags`). */
  readonly tags: Collection<Tag, TagInput, TagResource>;
  /** The server's taggings (`std:taggings`). */
  readonly taggings: Collection<Tagging, TaggingInput, TaggingResource>;
  /** The server's lists (`std:lists`). */
  readonly lists: Collection<List, ListInput, ListResource>;
  /** The server's list items (`std:items`). */
  readonly items: Collection<Item, ItemInput, ItemResource>;
  /** The server's queries (`std:queries`). */
  readonly queries: Collection<Query, QueryInput, QueryResource>;
  /** The server's canvasses (`std:canvasses`). */
  readonly canvasses: Collection<Canvass, CanvassInput, CanvassResource>;
  readonly #context: NavigatorContext;

  /**
   * Wraps an entry point document already read, parsing its fields (a
   * SchemaValidationError when validation is on and they do not match). Applications
   * call {@link connect}, which reads the entry point, sets up the transport and the
   * curies, and builds the client with this.
   *
   * @param context - The connection's shared state: transport, curies, validation.
   * @param root - The entry point document.
   *
   * @example
   * ```ts
   * // What connect() does once it has the connection's context:
   * const client = new Client(context, await context.get(entryPointUrl));
   * ```
   */
  constructor(context: NavigatorContext, root: HalDocument) {
    this.#context = context;
    this.root = root;
    this.entryPoint = context.parse(EntryPointSchema, root.properties, root.url, 'entry point');
    // Collections are located lazily: a server that does not link one fails only when
    // it is used, with a LinkNotFoundError naming the relations it does link.
    this.people = this.collection(personKind);
    this.organizations = this.collection(organizationKind);
    this.petitions = this.collection(petitionKind);
    this.signatures = this.collection(signatureKind);
    this.forms = this.collection(formKind);
    this.submissions = this.collection(submissionKind);
    this.fundraisingPages = this.collection(fundraisingPageKind);
    this.donations = this.collection(donationKind);
    this.sharePages = this.collection(sharePageKind);
    this.advocacyCampaigns = this.collection(advocacyCampaignKind);
    this.outreaches = this.collection(outreachKind);
    this.events = this.collection(eventKind);
    this.attendances = this.collection(attendanceKind);
    this.questions = this.collection(questionKind);
    this.answers = this.collection(answerKind);
    this.wrappers = this.collection(wrapperKind);
    this.messages = this.collection(messageKind);
    this.tags = this.collection(tagKind);
    this.taggings = this.collection(taggingKind);
    this.lists = this.collection(listKind);
    this.items = this.collection(itemKind);
    this.queries = this.collection(queryKind);
    this.canvasses = this.collection(canvassKind);
  }

  /** The transport this client sends through. */
  get transport(): Transport {
    return this.#context.transport;
  }

  /**
   * The curies in force for every document of this server.
   *
   * @example
   * ```ts
   * client.curies.relationId('std:people');
   * ```
   */
  get curies(): Curies {
    return this.#context.curies;
  }

  /**
   * The collection of a resource kind linked from the entry point as `std:<plural>`.
   *
   * @example
   * ```ts
   * const people = client.collection(personKind);
   * ```
   */
  collection<T extends object, I, W extends Resource<T, I>>(
    kind: ResourceKind<T, I, W>,
  ): Collection<T, I, W> {
    const rel = `std:${kind.plural}`;
    return new Collection(this.#context, async () => this.#requireLink(rel).url(), kind);
  }

  /**
   * The id of a resource in this server's namespace: the id part of its identifier
   * `<namespace>:<id>`, where the namespace is the entry point's `namespace`.
   *
   * @example
   * ```ts
   * const person = await client.people.create({ given_name: 'Ana' });
   * client.localId(person); // '4c1e…'
   * ```
   */
  localId(resource: { readonly identifiers: readonly string[] }): string | undefined {
    const namespace = this.entryPoint.namespace;
    return namespace ? localId(resource.identifiers, namespace) : undefined;
  }

  /**
   * The metadata root (`std:metadata` of the entry point) and the canvass lists it
   * links to.
   *
   * @example
   * ```ts
   * const metadata = await client.metadata();
   * const door = await metadata.responseCodes({ contactType: 'door' });
   * ```
   */
  async metadata(options: CallOptions = {}): Promise<Metadata> {
    return Metadata.load(this.#context, this.#requireLink('std:metadata').url(), options);
  }

  /**
   * Signs a person up through the entry point's `std:person_signup_helper` (a key is
   * needed): the person is created (status 201) or the matching one updated (200), and
   * the action functions (tags, lists, answers) are applied. The input is checked
   * first (a SchemaValidationError, no request). `record` and `person` are both the
   * person; `complete` is false, with the failed parts in `failures`, when an action
   * function failed while the person was written. An atomic error rejects with an
   * HTTPError.
   *
   * @example
   * ```ts
   * const { status, person, complete, failures } = await client.signup({
   *   person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org', primary: true }] },
   *   add_lists: ['Newsletter'],
   * });
   * console.log(status === 201 ? 'new' : 'known', person?.url, complete || failures);
   * ```
   */
  async signup(
    input: PersonSignupInput,
    options: HelperOptions = {},
  ): Promise<HelperResult<PersonResource, PersonResource>> {
    const rel = 'std:person_signup_helper';
    const url = this.#requireLink(rel).url();
    return sendHelper(
      this.#context,
      {
        url,
        rel,
        schema: PersonSignupBodySchema,
        input,
        recordKind: personKind,
        personKind,
      },
      options,
    );
  }

  /**
   * Follows a relation of the entry point and returns the document it leads to.
   *
   * @example
   * ```ts
   * const metadata = await client.follow('std:metadata');
   * ```
   */
  async follow(rel: string, options: FollowOptions = {}): Promise<HalDocument> {
    const { variables, ...call } = options;
    return this.#context.get(this.#requireLink(rel).url(variables), call);
  }

  /**
   * Reads any URL of the server as a HAL document, through the client's transport (the
   * key goes only to trusted origins).
   *
   * @example
   * ```ts
   * const doc = await client.get(person.link('std:signatures')!.url());
   * ```
   */
  get(url: string, options: CallOptions = {}): Promise<HalDocument> {
    return this.#context.get(url, options);
  }

  #requireLink(rel: string) {
    const link = this.root.link(rel);
    if (!link) throw new LinkNotFoundError(rel, this.root.url, this.root.relations());
    return link;
  }
}

/**
 * Picks the entry point's curie that stands for the specification: `std` when it is
 * declared, else the one the caller names, else the only curie there is, else the one
 * under which the entry point links `people`. Returns undefined when relations can only
 * be matched literally.
 */
function specPrefixOf(curies: Curies, root: HalDocument, preferred?: string): string | undefined {
  const names = curies.names();
  if (preferred !== undefined) return names.includes(preferred) ? preferred : undefined;
  if (names.includes('std')) return 'std';
  if (names.length === 1) return names[0];
  return names.find((name) => root.relations().includes(`${name}:people`));
}

/**
 * Connects to a server: reads its entry point and returns a {@link Client}. The entry
 * point's origin becomes trusted, so the API key goes there and to `trustedOrigins`
 * only, never to another origin that a link points at.
 *
 * @example
 * ```ts
 * import { connect } from 'adis-sdk';
 *
 * const client = await connect('http://127.0.0.1:8000/api/v1/', {
 *   apiKey: process.env.ADIS_KEY,
 *   rateLimit: 4, // requests per second
 * });
 * console.log(client.entryPoint.motd);
 * ```
 */
export async function connect(entryPointUrl: string, options: ClientOptions = {}): Promise<Client> {
  const problem = fetchableUrl(entryPointUrl);
  if (problem !== undefined) {
    throw new InvalidLinkError({
      rel: undefined,
      href: entryPointUrl,
      documentUrl: undefined,
      reason: problem,
    });
  }
  const url = new URL(entryPointUrl);
  const { curiePrefix, validate = true, transport: given, signal, ...transportOptions } = options;
  const transport = given ?? createTransport(transportOptions);
  transport.trustOrigin(url.origin);
  const response = await transport.request({
    method: 'GET',
    url: url.toString(),
    ...(signal ? { signal } : {}),
  });
  const probe = HalDocument.parse(response.body, url.toString());
  if (
    typeof response.body !== 'object' ||
    response.body === null ||
    probe.relations().length === 0
  ) {
    throw new ResponseFormatError({
      method: 'GET',
      url: url.toString(),
      status: response.status,
      contentType: response.headers.get('content-type'),
      bodyText: jsonPreview(response.body ?? null, 500),
      reason: 'not an entry point: a HAL document with _links was expected',
    });
  }
  const prefix = specPrefixOf(probe.curies, probe, curiePrefix);
  // The SDK names the specification's relations `std:…`; alias `std` to the server's
  // own prefix so that those names resolve against its curie.
  const curies = prefix === undefined ? probe.curies : probe.curies.withAlias('std', prefix);
  const context = new NavigatorContext(transport, curies, validate, prefix ?? 'std');
  return new Client(context, HalDocument.parse(response.body, url.toString(), curies));
}
