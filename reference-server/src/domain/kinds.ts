/**
 * The registry of resource kinds. The core (storage, routes, entry point, collection
 * documents) is generic; a resource kind plugs in its validation, references, totals,
 * lookup keys and sub-collections here (see `catalog.ts` for every kind of the spec).
 */
import type { AnyKind } from 'adis-sdk/schema';
import type { Contribution, JsonObject, LookupKey, ParentRef } from '../storage/storage.js';
import type { DateTimeStyle } from './date-times.js';
import type { ErrorDescription } from './errors.js';

/** A sub-collection reachable from a record's `_links` (a person's `std:signatures`). */
export interface SubCollection {
  /** Plural name: link relation `std:<plural>` and path segment. */
  plural: string;
  /** Kind of the records listed (they refer to the parent through their parents). */
  kind: string;
  /** Human-readable title of the link. */
  title: string;
  /**
   * The reference of the listed kind that points at the parent (a signature's
   * `petition` under a petition, its `person` under a person). A POST to the
   * sub-collection sets it to the parent.
   */
  via: string;
}

/**
 * A link from a record to another record (a signature's `std:person`). Clients set it
 * with `_links: { 'std:person': { href } }` on create or update; the server stores the
 * target's kind and id and renders the link with the target's current href.
 */
export interface Reference {
  /** Relation without the prefix: `person`, `creator`, `advocacy_campaign`. */
  rel: string;
  /** Kinds the link may point at. */
  kinds: readonly string[];
  /**
   * The record cannot exist without it: a create without the link is refused, an
   * update cannot remove it, and deleting the target deletes this record too. An
   * optional reference is dropped instead when its target is deleted.
   */
  required: boolean;
}

/** The references of a record, by relation. */
export type References = Record<string, ParentRef>;

/** What a kind's contributions can read: the records of the writer's tenant. */
export interface ReadContext {
  /** A referenced record's document, if it exists in the caller's tenant. */
  document(ref: ParentRef): Promise<JsonObject | undefined>;
}

/** What a kind's cross-record checks can read. */
export interface CheckContext extends ReadContext {
  /** Ids of the caller's records of `kind` with the lookup key `name` = `value`. */
  findByKey(kind: string, name: string, value: string): Promise<string[]>;
  /** The current totals of a record (what other records add to it). */
  totals(ref: ParentRef): Promise<Record<string, number>>;
}

/**
 * The webhook event a record of a kind makes when it is created (a signature makes a
 * `signature` event): data on the kind, so which writes make events is read in one
 * place and a preset's changes to a kind keep it.
 */
export interface KindEvent {
  /** Event type, as subscriptions' triggers and deliveries name it: `signature`, `signup`. */
  type: string;
  /**
   * The reference naming the person who acted, whose document the event carries
   * (default `person`; a canvass's `target`). None for the person's own event.
   */
  person?: string;
}

/** Everything the generic core needs to know about one kind of resource. */
export interface ResourceKind {
  /** Storage kind and singular name: `std:<singular>` is the record's relation. */
  singular: string;
  /** Plural name: `std:<plural>` is the collection's relation and the path segment. */
  plural: string;
  /** Title of the collection link in the entry point. */
  title: string;
  /** Whether the entry point links the collection. */
  inEntryPoint: boolean;
  /** Whether clients may POST to the collection and PUT/DELETE records. */
  writable: boolean;
  /** Fields the server computes; ignored when a client sends them. */
  readOnly: readonly string[];
  /**
   * Whether a client may give `created_date`, the record's own date (a donation imported
   * with the date it was made): from the declaration's `clientCreatedDate`. A create
   * then stores the date given (an RFC 3339 date-time, not in the future) instead of
   * the time of the write; an update takes the stored one back and refuses another
   * (`records/created-date.ts`). Otherwise `created_date` is in {@link readOnly}.
   */
  clientCreatedDate?: boolean;
  /**
   * Validates a client document (create or update) and returns it parsed; throws an
   * `ApiError` 400 listing every problem.
   */
  parse(body: unknown): JsonObject;
  /**
   * The SDK's declaration the kind was built from (`serveKind`): a preset validates
   * with another of its schemas (`extendedSchema`, see `presets/vocabulary.ts`).
   */
  declaration?: AnyKind;
  /** Lookup keys stored for matching and filtering. */
  lookupKeys(doc: JsonObject): LookupKey[];
  /** Filterable fields backed by lookup keys: `email_address` → key `email` for people. */
  filterKeys?: Readonly<Record<string, string>>;
  /** Links to other records. */
  references: readonly Reference[];
  /**
   * Groups of relations of which exactly one must be set (a tagging's target: a
   * person, an organization, a petition, …).
   */
  exactlyOneOf?: readonly (readonly string[])[];
  /** Sub-collections linked from each record. */
  subCollections: readonly SubCollection[];
  /**
   * Helper endpoints linked from each record (a petition's `std:record_signature_helper`,
   * a message's `std:send_helper`), at `<record URL>/<path>`.
   */
  helpers?: readonly RecordHelper[];
  /**
   * How a stored document looks at a given moment, for records whose state moves with
   * time without a write (a message being sent). Applied when the record is rendered.
   */
  view?(doc: JsonObject, now: Date): JsonObject;
  /**
   * How the kind's records write their date-times (`domain/date-times.ts`), after its
   * `view`; absent: `as-stored`. Set from the preset (`ServingPreset.dateTimes`); a
   * `created_date` sent back is compared at the precision written.
   */
  dateTimes?: DateTimeStyle;
  /**
   * References that identify at most one record of the kind: one signature per person
   * and petition. A create whose links name the same records as an existing record's
   * updates that record instead (`RecordService.createOrUpdate`), so a person who signs
   * again changes the signature and the petition's total stays. Most selective first
   * (the person: the look-up walks that record's children).
   */
  oneRecordPer?: readonly string[];
  /** Members a create must carry (a tag's `name`: helpers find tags by name). */
  requiredOnCreate?: readonly string[];
  /**
   * What the record adds to the totals of the records it refers to (a signature adds
   * 1 to its petition's `total_signatures`). `context` reads the records it refers to,
   * for totals of a record further up (an attendance counts towards the event
   * campaign of its event, under Action Network's preset).
   */
  contributions?(
    doc: JsonObject,
    refs: References,
    context: ReadContext,
  ): Contribution[] | Promise<Contribution[]>;
  /** Names of the totals other records add to this one; rendered as 0 when none. */
  totals?: readonly string[];
  /**
   * Renders totals into a document (default: each total as a top-level member). The
   * event puts ticket level totals inside its ticket levels.
   */
  renderTotals?(doc: JsonObject, totals: Record<string, number>): JsonObject;
  /**
   * Fields the server derives from the document itself before storing (a page's
   * `total_shares` from its share options).
   */
  derive?(doc: JsonObject, refs: References): JsonObject;
  /**
   * Turns members as a client writes them into members as stored, given the record's
   * current totals (an event's ticket level `limit` is written as tickets still
   * available and stored as capacity, so it falls as tickets are sold).
   */
  prepareInput?(input: JsonObject, totals: Record<string, number>): JsonObject;
  /**
   * The webhook event a create of the kind makes (see `RecordService.create`); none
   * when absent. An update never makes one: a person signing the same petition again
   * updates their signature, which is no new act to announce.
   */
  event?: KindEvent;
  /** Rules that need other records (an answer's responses against its question). */
  check?(
    doc: JsonObject,
    refs: References,
    id: string,
    context: CheckContext,
  ): ErrorDescription[] | Promise<ErrorDescription[]>;
}

/** A helper endpoint of each record of a kind, linked as `std:<rel>`. */
export interface RecordHelper {
  /** Link relation without prefix, for example `record_signature_helper`. */
  rel: string;
  /** Path below the record's URL, for example `record_signature_helper` or `send`. */
  path: string;
  title: string;
  /** Whether the spec lets a caller without an API key use it (browser pages). */
  anonymous: boolean;
}

/** A helper endpoint linked from the entry point (for example the person signup helper). */
export interface HelperLink {
  /** Link relation without the prefix: `person_signup_helper`. */
  rel: string;
  /** Path below the API base: `people/person_signup_helper`. */
  path: string;
  title: string;
}

/**
 * Registered kinds, looked up by singular or plural name.
 *
 * @example
 * ```ts
 * import { personKind } from 'adis-sdk/schema';
 * import { KindRegistry, serveKind } from 'adis-server';
 *
 * const registry = new KindRegistry().register(serveKind(personKind));
 * registry.byPlural('people')?.singular; // 'person'
 * ```
 */
export class KindRegistry {
  private readonly kinds: ResourceKind[] = [];
  private readonly helpers: HelperLink[] = [];

  /** Adds a kind; returns the registry for chaining. */
  register(kind: ResourceKind): this {
    if (this.byPlural(kind.plural) || this.bySingular(kind.singular)) {
      throw new Error(`resource kind ${kind.singular}/${kind.plural} is already registered`);
    }
    this.kinds.push(kind);
    return this;
  }

  /** Adds a helper link shown in the entry point. */
  registerHelper(helper: HelperLink): this {
    this.helpers.push(helper);
    return this;
  }

  /** The kind whose collection is `std:<plural>`. */
  byPlural(plural: string): ResourceKind | undefined {
    return this.kinds.find((kind) => kind.plural === plural);
  }

  /** The kind whose record relation is `std:<singular>`. */
  bySingular(singular: string): ResourceKind | undefined {
    return this.kinds.find((kind) => kind.singular === singular);
  }

  /** All kinds, in registration order. */
  all(): readonly ResourceKind[] {
    return this.kinds;
  }

  /** All helper links, in registration order. */
  helperLinks(): readonly HelperLink[] {
    return this.helpers;
  }
}
