/**
 * The options of record writes: what a create, an update or a create-or-update takes
 * besides the record's members, what a replacement of a record's stored state is made
 * of, and what a call adds to the webhook event it makes.
 */
import type { JsonObject, ParentRef } from '../../storage/storage.js';
import type { References, ResourceKind } from '../kinds.js';
import type { HELPER_MEMBERS, SERVER_STATE } from './document.js';
import type { LinkInput } from './links.js';

/** Options of an update (`updateRecord`, `RecordService.update`). */
export interface UpdateOptions {
  now?: Date;
  /** The `_links` of the body. */
  links?: LinkInput;
  /**
   * {@link HELPER_MEMBERS} a helper records anew (the `triggers` of a second signing);
   * the stored ones stay when absent. Never from a client's own update.
   */
  recorded?: JsonObject;
}

/** What a call adds to the webhook event its write makes (see {@link ResourceKind.event}). */
export interface EventDetails {
  /** The tags the call adds to the person (a helper's `add_tags`), carried as `add_tags`. */
  addTags?: readonly string[] | null;
}

/** Options of a create (`createRecord`, `RecordService.create`). */
export interface CreateOptions extends UpdateOptions {
  /**
   * The webhook event of the create: what the call adds to it, or `false` when the
   * create makes none (a person created as part of another act: that act's event
   * carries the person). Default: the kind's event ({@link ResourceKind.event}), if any.
   */
  event?: EventDetails | false;
  /** A reference fixed by the URL (POST to a petition's signatures sets `petition`). */
  parent?: { rel: string; ref: ParentRef };
  /**
   * {@link HELPER_MEMBERS} a helper records on the new record (the `triggers` it was
   * sent). They are read-only to clients, so they cannot come in the input.
   */
  recorded?: JsonObject;
  /**
   * Where the body carried the links, for the properties of link problems: `canvass.`
   * when a canvass helper's `canvass._links` named the canvasser. Default: the top level.
   */
  linksAt?: string;
}

/** Options of a create-or-update (`createOrUpdateRecord`, `RecordService.createOrUpdate`). */
export interface CreateOrUpdateOptions extends CreateOptions {
  /**
   * Update an existing record as a caller without an API key may: fill only the members
   * it lacks, never change a stored one (anyone who knows a person's email address could
   * otherwise rewrite that person's comment or decline their RSVP). Nothing is written
   * when nothing is new.
   */
  fillOnly?: boolean;
}

/**
 * What replaces an existing record's stored state (`replaceRecord`,
 * `RecordService.replace`): named members rather than positions, since three of them
 * are optional and two are lists of identifiers that a swap would mix up silently.
 */
export interface RecordReplacement {
  /** The record's identifiers; its local one is added when missing. */
  identifiers: readonly string[];
  /**
   * The record's fields. A {@link SERVER_STATE} member is stored as given, without
   * validation; so are the {@link HELPER_MEMBERS}.
   */
  fields: JsonObject;
  /** The time of the write, its `modified_date`. Default: the current time. */
  now?: Date;
  /** The identifiers the client sent, named in a duplicate's error. Default: `identifiers`. */
  sent?: readonly string[];
  /** The record's references. Default: the references the current record has. */
  refs?: References;
}
