/**
 * The vocabulary of the demo seed: a seed is a list of steps, data that says what to
 * create and how it links to what came before; `runSteps` (run-steps.ts) runs them.
 *
 * - A {@link RecordStep} creates one record (an organization, a petition, a tag…) and
 *   may name it, so that later steps link to it by that name.
 * - An {@link ActStep} has people act: it chooses some of them with the PRNG, and for
 *   each creates one record linked to that person (a signature, a donation, an RSVP…),
 *   plus records that follow from that act (a canvass's answers).
 * - A {@link ChooseStep} sets some people aside under a name, for later steps.
 *
 * The order of the steps, and of the PRNG calls within them, is the data: the same
 * seed and `now` give the same documents only while that order holds.
 */
import type { JsonObject, StoredRecord } from '../storage/storage.js';
import type { Chooser } from './chooser.js';

/** What every step's fields are built from. */
export interface SeedContext {
  /** The seeded PRNG's choices. */
  choose: Chooser;
  /** The present moment of the seed: dates are relative to it. */
  now: Date;
  /** A random moment within the last `days` days, as an ISO instant. */
  recently(days: number): string;
}

/** What an act's fields are built from: the context, who acts, and which act this is. */
export interface ActContext extends SeedContext {
  /** The person acting. */
  person: StoredRecord;
  /** Position of this act among its step's acts, from 0. */
  index: number;
}

/** What the records following an act are built from: the act's context and fields. */
export interface FollowUpContext extends ActContext {
  /** The fields the act was created with. */
  act: JsonObject;
}

/** A person picked at random from everyone, as the record is created. */
export const ANYONE = Symbol('anyone');
/** A person picked at random from everyone but the one acting. */
export const SOMEONE_ELSE = Symbol('someone else');
/** The person acting (in an act step and its follow-ups). */
export const THE_ACTOR = Symbol('the actor');
/** The record of the act (in its follow-ups). */
export const THE_ACT = Symbol('the act');

/**
 * Where a link points: the name of a record an earlier step created (the tenant's first
 * two people are named `organizer` and `second organizer`), or a person or act of the
 * step itself. A name whose record is missing (no people) leaves the link out.
 */
export type LinkTo =
  | string
  | typeof ANYONE
  | typeof SOMEONE_ELSE
  | typeof THE_ACTOR
  | typeof THE_ACT;

/** Fields as data, or built from the step's context (with the PRNG, relative dates). */
export type Fields<C> = JsonObject | ((context: C) => JsonObject);

/** Creates one record. Its links are resolved after its fields (PRNG order). */
export interface RecordStep<C = SeedContext> {
  /** The kind of the record, by singular name. */
  create: string;
  /** The name later steps link to the record by. */
  name?: string;
  fields: Fields<C>;
  /** Relation → what it points to. */
  links?: Record<string, LinkTo>;
  /** Created only when this holds (follow-ups: e.g. only after a successful visit). */
  when?: (context: C) => boolean;
  act?: never;
  choose?: never;
}

/**
 * Which people act: a PRNG sample of `count` people (a range is drawn first), from
 * everyone or everyone but a named group; or every member of a named group, in order.
 */
export type PeopleChoice =
  | { count: number | readonly [low: number, high: number]; except?: string }
  | { group: string };

/**
 * Has people act: one record per chosen person, linked to them through a
 * {@link THE_ACTOR} link. Each act's links are resolved before its fields (who takes
 * part, then what they did).
 */
export interface ActStep {
  /** The kind of the act's record, by singular name. */
  act: string;
  /** Who acts. */
  by: PeopleChoice;
  fields: Fields<ActContext>;
  /** Relation → what it points to. */
  links: Record<string, LinkTo>;
  /** Adds the person to a named group after the act, when `when` holds of its fields. */
  remember?: { group: string; when?: (fields: JsonObject) => boolean };
  /** Records created right after each act; they link to it as {@link THE_ACT}. */
  followUps?: readonly RecordStep<FollowUpContext>[];
  create?: never;
  choose?: never;
}

/** Sets `count` people, sampled with the PRNG, aside as a named group. */
export interface ChooseStep {
  choose: string;
  count: number;
  create?: never;
  act?: never;
}

/** One step of a seed. */
export type Step = RecordStep | ActStep | ChooseStep;
