/**
 * The registry of resource kinds. The core (storage, routes, entry point, collection
 * documents) is generic; a resource kind plugs in its validation, lookup keys and
 * sub-collections here. Slice 1 registers `person`; later slices register petitions,
 * signatures, events and the rest without touching the core.
 */
import type { JsonObject, LookupKey, ParentRef } from '../storage/storage.js';

/** A sub-collection reachable from a record's `_links` (a person's `std:signatures`). */
export interface SubCollection {
  /** Plural name: link relation `std:<plural>` and path segment. */
  plural: string;
  /** Kind of the records listed (they refer to the parent through their parents). */
  kind: string;
  /** Human-readable title of the link. */
  title: string;
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
   * Validates a client document (create or update) and returns it parsed; throws an
   * `ApiError` 400 listing every problem.
   */
  parse(body: unknown): JsonObject;
  /** Lookup keys stored for matching and filtering. */
  lookupKeys(doc: JsonObject): LookupKey[];
  /** Parents whose sub-collections list the record. */
  parents(doc: JsonObject): ParentRef[];
  /** Sub-collections linked from each record. */
  subCollections: readonly SubCollection[];
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
 * const registry = new KindRegistry().register(personKind);
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
