/**
 * What a helper call runs with: the record service, the tenant, who calls, and the two
 * things about hrefs only the HTTP layer knows (how to read one, how to build one).
 */

import type { Tenant } from '../../storage/storage.js';
import type { ResourceKind } from '../kinds.js';
import type { RecordService } from '../records/index.js';
import type { Vocabulary } from '../vocabulary.js';
import type { OpenNames } from './keyless-openings.js';
import type { SignupStatuses } from './signup-statuses.js';

/** A record of this server named by an href: its collection and id. */
export interface HrefTarget {
  plural: string;
  id: string;
}

/**
 * The environment of one helper call.
 */
export interface HelperContext {
  records: RecordService;
  /** The caller's tenant, or for an anonymous call the tenant of the record in the URL. */
  tenant: Tenant;
  /** A call without an API key (a browser page): fills instead of overwriting people. */
  anonymous: boolean;
  now: Date;
  /** The record an href of this server names (`…/api/v1/<plural>/<id>`), if any. */
  resolveHref(href: string): HrefTarget | undefined;
  /** The absolute href of a record, for references stored as hrefs (a ticket's person). */
  hrefOf(plural: string, id: string): string;
  /**
   * The vocabulary bodies are checked with (default `strict`): `extended` under a real
   * server's preset (its `remove_tags`, phone statuses, date-time spellings).
   */
  vocabulary?: Vocabulary;
  /**
   * The server's rules for the subscription statuses of the email addresses and phone
   * numbers of the people helpers write (Action Network's); none: merged as sent.
   */
  signupStatuses?: SignupStatuses | null;
  /**
   * The tags and lists the operator opened to calls without a key
   * (`keyless-openings.ts`); none when absent. Keyed calls apply any.
   */
  open?: OpenNames;
}

/**
 * A kind the helpers need (tag, tagging, answer, …) from the registry served. A server
 * built with a registry that lacks it cannot run the helper: a programming error (500).
 */
export function kindOf(context: HelperContext, singular: string): ResourceKind {
  const kind = context.records.registry.bySingular(singular);
  if (!kind) throw new Error(`the registry serves no ${singular} kind`);
  return kind;
}
