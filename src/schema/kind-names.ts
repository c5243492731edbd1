// The names of every declared kind, and nothing else: no schema, no relation. The
// navigator reads a kind the connection was not given (a person's outreaches, on a
// connection made with `personKind` only) under the plural this table gives, so a
// bundle that needs no outreach schema still pages `std:outreaches`, never a guessed
// `outreachs`. Kept as plain strings so that it costs a bundle a few hundred bytes.

/**
 * The specification's kinds, singular name to plural: the names of `KINDS`
 * (`schema/kinds/index.ts`), in its order. A test holds the two equal.
 */
export const SPEC_KIND_NAMES = {
  person: 'people',
  organization: 'organizations',
  petition: 'petitions',
  signature: 'signatures',
  form: 'forms',
  submission: 'submissions',
  fundraising_page: 'fundraising_pages',
  donation: 'donations',
  share_page: 'share_pages',
  advocacy_campaign: 'advocacy_campaigns',
  outreach: 'outreaches',
  event: 'events',
  attendance: 'attendances',
  question: 'questions',
  answer: 'answers',
  wrapper: 'wrappers',
  message: 'messages',
  tag: 'tags',
  tagging: 'taggings',
  list: 'lists',
  item: 'items',
  query: 'queries',
  canvass: 'canvasses',
} as const;

/**
 * The kinds the server presets declare beside the specification's (Action Network's
 * event campaigns, campaigns, unique id lists, custom fields and embeds), singular
 * name to plural. A test holds them equal to the presets' kinds.
 */
export const PRESET_KIND_NAMES = {
  event_campaign: 'event_campaigns',
  campaign: 'campaigns',
  unique_id_list: 'unique_id_lists',
  custom_field: 'custom_fields',
  embed: 'embeds',
} as const;

/**
 * The plural of a declared kind (of the specification or a preset), or undefined for a
 * name no kind declares: the navigator then refuses the name rather than guess.
 *
 * @example
 * ```ts
 * import { declaredPlural } from './kind-names.js';
 *
 * declaredPlural('outreach'); // 'outreaches'
 * declaredPlural('event_campaign'); // 'event_campaigns'
 * declaredPlural('review'); // undefined
 * ```
 */
export function declaredPlural(singular: string): string | undefined {
  if (Object.hasOwn(SPEC_KIND_NAMES, singular)) {
    return SPEC_KIND_NAMES[singular as keyof typeof SPEC_KIND_NAMES];
  }
  if (Object.hasOwn(PRESET_KIND_NAMES, singular)) {
    return PRESET_KIND_NAMES[singular as keyof typeof PRESET_KIND_NAMES];
  }
  return undefined;
}

/**
 * The plurals of the specification's kinds: the collections every compliant entry point
 * may link.
 */
export function specPlurals(): string[] {
  return Object.values(SPEC_KIND_NAMES);
}

/**
 * Every declared kind's plural (specification first, then presets): the collections an
 * entry point may link.
 */
export function declaredPlurals(): string[] {
  return [...specPlurals(), ...Object.values(PRESET_KIND_NAMES)];
}
