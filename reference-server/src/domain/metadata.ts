/**
 * The metadata resources: the canvassing vocabulary a client needs before it can
 * record a canvass (which contact types, input types and response codes exist, and
 * which response codes make sense for which contact type).
 *
 * The spec gives the shape of these lists but no values. The reference server ships a
 * realistic vocabulary as constant data, the same for every tenant: the lists describe
 * what the server understands, not data a tenant owns, so there is nothing to store.
 * Everything here is pure; the HTTP layer adds links.
 */
import { apiError, ErrorCode } from './errors.js';

/** One contact type: how a canvasser reached (or tried to reach) a person. */
export interface ContactTypeEntry {
  contact_type: string;
  name: string;
}

/** One input type: how a canvass result got into the system. */
export interface InputTypeEntry {
  input_type: string;
  name: string;
}

/** One response code: the outcome of a contact attempt. */
export interface ResponseCodeEntry {
  response_code: string;
  name: string;
}

/**
 * The contact types, in the order clients show them. `as const` keeps the codes as
 * literal types so that {@link RESPONSE_CODES} cannot name a contact type that does not
 * exist.
 *
 * @example
 * ```ts
 * import { CONTACT_TYPES } from './metadata.js';
 *
 * CONTACT_TYPES.map((entry) => entry.contact_type); // ['door', 'phone', 'text', 'email', 'event']
 * ```
 */
export const CONTACT_TYPES = [
  { contact_type: 'door', name: 'Door knock' },
  { contact_type: 'phone', name: 'Phone call' },
  { contact_type: 'text', name: 'Text message' },
  { contact_type: 'email', name: 'Email' },
  { contact_type: 'event', name: 'In person at an event' },
] as const satisfies readonly ContactTypeEntry[];

/** A contact type code of {@link CONTACT_TYPES}. */
export type ContactTypeCode = (typeof CONTACT_TYPES)[number]['contact_type'];

/**
 * The input types.
 *
 * @example
 * ```ts
 * import { INPUT_TYPES } from './metadata.js';
 *
 * INPUT_TYPES[0]; // { input_type: 'mobile_app', name: 'Mobile canvassing app' }
 * ```
 */
export const INPUT_TYPES = [
  { input_type: 'mobile_app', name: 'Mobile canvassing app' },
  { input_type: 'paper_scan', name: 'Scanned paper walk sheet' },
  { input_type: 'data_entry', name: 'Manual data entry' },
  { input_type: 'predictive_dialer', name: 'Predictive dialer' },
  { input_type: 'peer_to_peer_texting', name: 'Peer-to-peer texting tool' },
  { input_type: 'api', name: 'Imported through the API' },
] as const satisfies readonly InputTypeEntry[];

/** A response code with the contact types it is available for. */
export interface ResponseCodeDefinition extends ResponseCodeEntry {
  contact_types: readonly ContactTypeCode[];
}

const ALL_CONTACT_TYPES: readonly ContactTypeCode[] = CONTACT_TYPES.map((t) => t.contact_type);

/**
 * The response codes and the contact types each applies to. A code only makes sense
 * where its outcome can happen: nobody is "not home" on a text message, and an email
 * cannot hit a busy line.
 *
 * @example
 * ```ts
 * import { RESPONSE_CODES } from './metadata.js';
 *
 * RESPONSE_CODES.find((code) => code.response_code === 'busy')?.contact_types; // ['phone']
 * ```
 */
export const RESPONSE_CODES: readonly ResponseCodeDefinition[] = [
  {
    response_code: 'spoke_with_target',
    name: 'Spoke with target',
    contact_types: ALL_CONTACT_TYPES,
  },
  { response_code: 'not_home', name: 'Not home', contact_types: ['door'] },
  { response_code: 'refused', name: 'Refused', contact_types: ALL_CONTACT_TYPES },
  { response_code: 'moved', name: 'Moved', contact_types: ['door', 'phone', 'text', 'email'] },
  {
    response_code: 'deceased',
    name: 'Deceased',
    contact_types: ['door', 'phone', 'text', 'email'],
  },
  {
    response_code: 'inaccessible',
    name: 'Inaccessible (gated or locked building)',
    contact_types: ['door'],
  },
  { response_code: 'come_back', name: 'Come back later', contact_types: ['door', 'phone'] },
  { response_code: 'left_literature', name: 'Left literature', contact_types: ['door'] },
  { response_code: 'left_message', name: 'Left message', contact_types: ['phone'] },
  { response_code: 'no_answer', name: 'No answer', contact_types: ['phone'] },
  { response_code: 'busy', name: 'Line busy', contact_types: ['phone'] },
  { response_code: 'disconnected', name: 'Disconnected number', contact_types: ['phone', 'text'] },
  { response_code: 'wrong_number', name: 'Wrong number', contact_types: ['phone', 'text'] },
  {
    response_code: 'language_barrier',
    name: 'Language barrier',
    contact_types: ['door', 'phone', 'event'],
  },
  { response_code: 'hostile', name: 'Hostile', contact_types: ['door', 'phone', 'event'] },
  { response_code: 'no_reply', name: 'No reply', contact_types: ['text', 'email'] },
  { response_code: 'opted_out', name: 'Opted out', contact_types: ['text', 'email'] },
  { response_code: 'bounced', name: 'Email bounced', contact_types: ['email'] },
];

/** The three metadata lists, by the path segment (and identifier suffix) of each. */
export type MetadataListName =
  | 'canvass_response_codes'
  | 'canvass_contact_types'
  | 'canvass_input_types';

/** What each list is called, described as, and which member holds its entries. */
export interface MetadataListInfo {
  name: MetadataListName;
  /** Title of the metadata root's link to the list. */
  title: string;
  /** The list's `description`. */
  description: string;
  /** The member holding the entries. */
  member: 'response_codes' | 'contact_types' | 'input_types';
}

/**
 * The lists in the order the metadata root links them.
 */
export const METADATA_LISTS: readonly MetadataListInfo[] = [
  {
    name: 'canvass_response_codes',
    title: 'Canvass response codes',
    description: 'Outcomes a canvasser can record for a contact attempt.',
    member: 'response_codes',
  },
  {
    name: 'canvass_contact_types',
    title: 'Canvass contact types',
    description: 'Ways a canvasser can contact a person.',
    member: 'contact_types',
  },
  {
    name: 'canvass_input_types',
    title: 'Canvass input types',
    description: 'Ways a canvass result can get into the system.',
    member: 'input_types',
  },
];

/**
 * The contact types as the list document carries them (fresh objects, so a caller may
 * not mutate the constant data through them).
 */
export function contactTypeList(): ContactTypeEntry[] {
  return CONTACT_TYPES.map(({ contact_type, name }) => ({ contact_type, name }));
}

/**
 * The input types as the list document carries them.
 */
export function inputTypeList(): InputTypeEntry[] {
  return INPUT_TYPES.map(({ input_type, name }) => ({ input_type, name }));
}

function isContactType(value: string): value is ContactTypeCode {
  return (ALL_CONTACT_TYPES as readonly string[]).includes(value);
}

/**
 * The response codes, all of them or only those available for `contactType`. An
 * unknown or empty contact type is a 400 INVALID_PARAMETER whose hint lists the known
 * ones: answering with an empty list would look like "nothing applies" and hide the
 * typo.
 *
 * @example
 * ```ts
 * import { responseCodesFor } from './metadata.js';
 *
 * responseCodesFor('email').map((code) => code.response_code);
 * // ['spoke_with_target', 'refused', 'moved', 'deceased', 'no_reply', 'opted_out', 'bounced']
 * responseCodesFor('fax'); // throws ApiError 400 INVALID_PARAMETER
 * ```
 */
export function responseCodesFor(contactType?: string): ResponseCodeEntry[] {
  if (contactType !== undefined && !isContactType(contactType)) {
    const known = ALL_CONTACT_TYPES.join(', ');
    throw apiError(
      400,
      ErrorCode.INVALID_PARAMETER,
      contactType === ''
        ? 'query parameter contacttype must not be empty'
        : `unknown contact type ${JSON.stringify(contactType)} in query parameter contacttype`,
      { properties: ['contacttype'], hint: `one of: ${known}` },
    );
  }
  return RESPONSE_CODES.filter(
    (code) => contactType === undefined || code.contact_types.includes(contactType),
  ).map(({ response_code, name }) => ({ response_code, name }));
}

/** Who is asking: the tenant's namespace and the system the lists come from. */
export interface MetadataSource {
  /** The tenant's identifier namespace (`adis` by default). */
  namespace: string;
  /** The `origin_system` of the lists: the server's product name. */
  originSystem: string;
}

/** The fields of a metadata list document, `_links` excepted. */
export interface MetadataListFields {
  origin_system: string;
  name: MetadataListName;
  description: string;
  identifiers: string[];
  response_codes?: ResponseCodeEntry[];
  contact_types?: ContactTypeEntry[];
  input_types?: InputTypeEntry[];
}

/**
 * Builds a list document's fields. `contactType` filters the response codes (and is
 * ignored by the other two lists, which have no such filter). Identifiers are
 * `<namespace>:<list name>` because the lists are per server, not per record.
 *
 * @example
 * ```ts
 * import { metadataListFields } from './metadata.js';
 *
 * metadataListFields('canvass_input_types', { namespace: 'adis', originSystem: 'ADIS reference server' });
 * // { origin_system: 'ADIS reference server', name: 'canvass_input_types', identifiers: ['adis:canvass_input_types'], input_types: [...], ... }
 * ```
 */
export function metadataListFields(
  list: MetadataListName,
  source: MetadataSource,
  contactType?: string,
): MetadataListFields {
  const info = METADATA_LISTS.find((entry) => entry.name === list);
  if (!info) throw new Error(`no metadata list ${list}`);
  const fields: MetadataListFields = {
    origin_system: source.originSystem,
    name: list,
    description: info.description,
    identifiers: [`${source.namespace}:${list}`],
  };
  if (list === 'canvass_response_codes') {
    fields.response_codes = responseCodesFor(contactType);
    if (contactType !== undefined) {
      fields.description = `${info.description.replace(/\.$/, '')}, for the contact type ${contactType}.`;
    }
  } else if (list === 'canvass_contact_types') {
    fields.contact_types = contactTypeList();
  } else {
    fields.input_types = inputTypeList();
  }
  return fields;
}
