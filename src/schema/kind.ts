import * as z from 'zod/mini';
import { EVEN_WITH_INVALID_MEMBERS } from './content-fields.js';
import { type Mode, resourceSchemas } from './fields.js';

// A resource kind is declared once, as data, in `schema/kinds/<kind>.ts`: its names, its
// fields, its relations, its helpers. Kinds name each other by their singular name (a
// signature's `person` relation leads to the kind named 'person'); nothing here imports
// another kind, so a bundle holds only the kinds it uses. The navigator derives typed
// methods from these declarations, the client its collections, the export command its
// kinds, the reference server its links, and the docs their tables.

/**
 * A relation to one record of the kind named `kind` (a signature's `person`).
 * `required` says whether every record of the declaring kind carries it.
 */
export interface OneRelation<K extends string = string, R extends boolean = boolean> {
  readonly type: 'one';
  /** The singular name of the kind the relation leads to. */
  readonly kind: K;
  /** The link relation, with the specification's curie (`std:person`). */
  readonly rel: string;
  /** Whether every record of the declaring kind links it. */
  readonly required: R;
}

/** A relation to a collection of records of the kind named `kind` (a petition's `signatures`). */
export interface ManyRelation<K extends string = string> {
  readonly type: 'many';
  /** The singular name of the kind the collection holds. */
  readonly kind: K;
  /** The link relation (`std:signatures`). */
  readonly rel: string;
  /** Other spellings servers use for the same relation (`std:attendance`). */
  readonly alternatives: readonly string[];
}

/**
 * The first present of several one-relations of the same kind (a tagging's `target`:
 * whichever record it tags). `of` names the declaring kind's relations, in order.
 */
export interface AnyOfRelation<K extends string = string> {
  readonly type: 'anyOf';
  /** The names of the declaring kind's own relations to try, in order. */
  readonly of: readonly K[];
}

/** Any relation of a kind. */
export type Relation = OneRelation | ManyRelation | AnyOfRelation;

/**
 * A record helper (a petition's `std:record_signature_helper`): its body is the helper
 * body named `body` (`schema/helper-bodies.ts`), and the records it answers with are of
 * the kind named `record` and a person.
 */
export interface RecordHelper<B extends string = string, K extends string = string> {
  readonly type: 'record';
  /** The link relation (`std:record_signature_helper`). */
  readonly rel: string;
  /** The name of the body schema in `HELPER_BODIES`. */
  readonly body: B;
  /** The singular name of the kind of record the helper creates. */
  readonly record: K;
  /** Whether the specification lets callers without an API key use it. */
  readonly anonymous: boolean;
}

/**
 * A helper that acts on the record and answers with a notice (a message's
 * `std:send_helper`): `method` on the link, with the body named `body` when it takes one.
 */
export interface NoticeHelper<B extends string | undefined = string | undefined> {
  readonly type: 'notice';
  readonly rel: string;
  readonly method: 'POST' | 'DELETE';
  /** The name of the body schema in `HELPER_BODIES`, when the call takes a body. */
  readonly body: B;
}

/** Any helper of a kind. */
export type Helper = RecordHelper | NoticeHelper;

/**
 * One resource kind: its names, its two schemas (built from one field definition), its
 * read-only members, its relations and its helpers. Built by {@link defineKind}.
 */
export interface KindDefinition<
  N extends string = string,
  P extends string = string,
  R extends z.ZodMiniType = z.ZodMiniType,
  W extends z.ZodMiniType = z.ZodMiniType,
  L extends Readonly<Record<string, Relation>> = Readonly<Record<string, Relation>>,
  H extends Readonly<Record<string, Helper>> = Readonly<Record<string, Helper>>,
> {
  /** Name of one record, as in the relation `std:person`. */
  readonly singular: N;
  /** Name of the collection, as in the relation `std:people`. */
  readonly plural: P;
  /** One line from the specification: what a record of this kind is. */
  readonly description: string;
  /** Lenient: what the SDK accepts from any server (unknown members kept, enums open). */
  readonly schema: R;
  /**
   * What a client sends: member names and types checked (vendor members pass), values
   * left to the server. Everything `schema` reads passes it (the round-trip rule).
   */
  readonly writeSchema: W;
  /**
   * What the reference server accepts: `writeSchema` plus the specification's formats,
   * closed enums and cross-field rules. Built on first use.
   */
  readonly strictSchema: W;
  /**
   * What the reference server accepts under a real server's preset: `strictSchema` plus
   * the members, values and date-time spellings real servers document beside the
   * specification (see `Mode`). Built on first use.
   */
  readonly extendedSchema: W;
  /** Members the server computes or owns: ignored on create and update. */
  readonly readOnly: readonly string[];
  /**
   * Whether a client may give `created_date`: the record's own date (a donation
   * imported with the date it was made), sent by the SDK and kept by the server,
   * rather than a member the server sets. Absent or false: `created_date` is in
   * {@link KindDefinition.readOnly}. See `clientCreatedDate` of {@link KindSpec}.
   */
  readonly clientCreatedDate?: boolean;
  /** The relations, by the name of the method the navigator gives each. */
  readonly relations: L;
  /** The helpers, by the name of the method the navigator gives each. */
  readonly helpers: H;
}

/** A schema of any types: a variance escape hatch for generic code over kinds. */
// biome-ignore lint/suspicious/noExplicitAny: kinds' schemas differ in both type parameters; the public API types each kind precisely.
export type AnySchema = z.ZodMiniType<any, any>;

/** A kind of any shape: what code that handles every kind accepts. */
export type AnyKind = KindDefinition<string, string, AnySchema, AnySchema>;

/** What {@link defineKind} takes. */
export interface KindSpec<
  N extends string,
  P extends string,
  S extends z.core.$ZodShape,
  C extends z.core.$ZodShape,
  L extends Readonly<Record<string, Relation>>,
  H extends Readonly<Record<string, Helper>>,
  G extends boolean = false,
> {
  singular: N;
  plural: P;
  description: string;
  /** The writable fields, built for one side of the wire (see `Mode`). */
  shape: (mode: Mode) => S;
  /**
   * Read-only fields the server computes (totals); `created_date` (unless
   * `clientCreatedDate`) and `modified_date` are added.
   */
  computed?: C;
  /**
   * `created_date` is the record's own date, which a client may give: a donation's
   * date, kept when past donations are imported (Action Network documents it on the
   * donation's create). The SDK then sends it (a `Date`, or a string that is a
   * date-time: anything else is refused before sending) instead of dropping it as a
   * read-only member, and the reference server stores it instead of the time of the
   * write (an RFC 3339 date-time, not in the future). `modified_date` stays the
   * server's. Default false: `created_date` is read-only, as the specification's
   * common fields say.
   */
  clientCreatedDate?: G;
  /**
   * A rule across members of a record (start before end, amounts that add up), added
   * to the strict schema: the reference server holds records to it, while a client may
   * write back whatever it read. It runs even when some members failed their own
   * checks, so it must read them defensively.
   */
  check?: (
    record: z.output<ReturnType<typeof resourceSchemas<S, C, G>>['write']>,
    ctx: z.core.$RefinementCtx,
  ) => void;
  relations?: L;
  helpers?: H;
}

/**
 * Declares a resource kind: builds its lenient read schema, its write schema and the
 * reference server's strict schema from one field definition, and keeps its relations
 * and helpers as data.
 *
 * @example
 * ```ts
 * import { defineKind, many, one, optional } from 'adis-sdk/schema';
 * import * as z from 'zod/mini';
 *
 * const review = defineKind({
 *   singular: 'review',
 *   plural: 'reviews',
 *   description: 'A review of a petition',
 *   shape: () => ({ stars: optional(z.number()) }),
 *   relations: { petition: one('petition', { required: true }), comments: many('comment') },
 * });
 * review.relations.petition.rel; // 'std:petition'
 * ```
 */
export function defineKind<
  const N extends string,
  const P extends string,
  S extends z.core.$ZodShape,
  const L extends Readonly<Record<string, Relation>> = Record<never, never>,
  const H extends Readonly<Record<string, Helper>> = Record<never, never>,
  C extends z.core.$ZodShape = Record<never, never>,
  const G extends boolean = false,
>(spec: KindSpec<N, P, S, C, L, H, G>) {
  const schemas = resourceSchemas(spec.shape, spec.computed ?? ({} as C), {
    clientCreatedDate: (spec.clientCreatedDate ?? false) as G,
  });
  const server: { strict?: typeof schemas.write; extended?: typeof schemas.write } = {};
  // Each of the server's sides is built on first use, with the kind's rules.
  const serverSide = (mode: 'strict' | 'extended') => {
    server[mode] ??= spec.check
      ? schemas.server(mode).check(z.superRefine(spec.check, EVEN_WITH_INVALID_MEMBERS))
      : schemas.server(mode);
    return server[mode];
  };
  return {
    singular: spec.singular,
    plural: spec.plural,
    description: spec.description,
    schema: schemas.read,
    writeSchema: schemas.write,
    /**
     * What the reference server accepts: the write schema plus the specification's
     * formats, closed enums and the kind's rules. Built on first use.
     */
    get strictSchema() {
      return serverSide('strict');
    },
    /**
     * What the reference server accepts under a real server's preset: the strict
     * schema plus the members, values and date-time spellings real servers document
     * beside the specification. Built on first use.
     */
    get extendedSchema() {
      return serverSide('extended');
    },
    readOnly: schemas.readOnly,
    clientCreatedDate: (spec.clientCreatedDate ?? false) as G,
    relations: withRelationNames(spec.relations ?? ({} as L)),
    helpers: spec.helpers ?? ({} as H),
  } satisfies KindDefinition<N, P>;
}

/**
 * The relations with their `rel` filled in: a relation declared without one is named
 * after its method, in snake case (`modifiedBy` is `std:modified_by`).
 */
function withRelationNames<L extends Readonly<Record<string, Relation>>>(relations: L): L {
  const out: Record<string, Relation> = {};
  for (const [name, relation] of Object.entries(relations)) {
    out[name] =
      relation.type === 'anyOf' || relation.rel !== '' ? relation : { ...relation, rel: std(name) };
  }
  return out as L;
}

/** `std:` and the snake case of a method name: `fundraisingPage` is `std:fundraising_page`. */
function std(name: string): string {
  return `std:${name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;
}

/**
 * A relation name as declared: under the specification's curie (`person` is
 * `std:person`) unless it names its own (`action_network:embed`, a vendor's relation).
 */
function curied(rel: string): string {
  return rel.includes(':') ? rel : `std:${rel}`;
}

/**
 * A relation to one record of the kind named `kind`. Its link relation is the method's
 * name in snake case unless `rel` says otherwise (without the curie, or with a vendor's
 * own: `rel: 'action_network:embed'`).
 *
 * @example
 * ```ts
 * import { one } from 'adis-sdk/schema';
 *
 * const relations = {
 *   person: one('person', { required: true }), // std:person
 *   creator: one('person'), // std:creator, optional
 * };
 * ```
 */
export function one<const K extends string, const R extends boolean = false>(
  kind: K,
  options: { required?: R; rel?: string } = {},
): OneRelation<K, R> {
  return {
    type: 'one',
    kind,
    rel: options.rel === undefined ? '' : curied(options.rel),
    required: (options.required ?? false) as R,
  };
}

/**
 * A relation to a collection of records of the kind named `kind`. Its link relation is
 * the method's name in snake case unless `rel` says otherwise; `alternatives` are other
 * spellings servers use (without the curie).
 *
 * @example
 * ```ts
 * import { many } from 'adis-sdk/schema';
 *
 * const relations = { attendances: many('attendance', { alternatives: ['attendance'] }) };
 * ```
 */
export function many<const K extends string>(
  kind: K,
  options: { rel?: string; alternatives?: readonly string[] } = {},
): ManyRelation<K> {
  return {
    type: 'many',
    kind,
    rel: options.rel === undefined ? '' : curied(options.rel),
    alternatives: (options.alternatives ?? []).map(curied),
  };
}

/**
 * The first of several of the kind's own one-relations that a record links or embeds.
 *
 * @example
 * ```ts
 * import { anyOf, one } from 'adis-sdk/schema';
 *
 * const relations = { person: one('person'), petition: one('petition'), target: anyOf('person', 'petition') };
 * ```
 */
export function anyOf<const K extends string>(...of: K[]): AnyOfRelation<K> {
  return { type: 'anyOf', of };
}

/**
 * A record helper of each record of a kind: `rel` without the curie, the name of its body
 * in `HELPER_BODIES`, and the kind of record it creates.
 *
 * @example
 * ```ts
 * import { recordHelper } from 'adis-sdk/schema';
 *
 * const helpers = {
 *   recordSignature: recordHelper('record_signature_helper', 'recordSignature', 'signature', { anonymous: true }),
 * };
 * ```
 */
export function recordHelper<const B extends string, const K extends string>(
  rel: string,
  body: B,
  record: K,
  options: { anonymous?: boolean } = {},
): RecordHelper<B, K> {
  return { type: 'record', rel: `std:${rel}`, body, record, anonymous: options.anonymous ?? false };
}

/**
 * A helper that acts on the record and answers with a notice: `method` on the link `rel`
 * (without the curie), with the body named `body` when it takes one.
 *
 * @example
 * ```ts
 * import { noticeHelper } from 'adis-sdk/schema';
 *
 * const helpers = {
 *   send: noticeHelper('send_helper', 'POST'),
 *   schedule: noticeHelper('schedule_helper', 'POST', 'messageSchedule'),
 * };
 * ```
 */
// Overloads: without a body, `B` must be `undefined` (the call takes no input); a
// single signature would infer `string | undefined` from the context of `defineKind`.
export function noticeHelper(rel: string, method: 'POST' | 'DELETE'): NoticeHelper<undefined>;
export function noticeHelper<const B extends string>(
  rel: string,
  method: 'POST' | 'DELETE',
  body: B,
): NoticeHelper<B>;
export function noticeHelper(rel: string, method: 'POST' | 'DELETE', body?: string): NoticeHelper {
  return { type: 'notice', rel: `std:${rel}`, method, body };
}
