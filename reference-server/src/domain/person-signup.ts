/**
 * The person signup helper: create a person, or update the matching one, then carry out
 * the action functions. Its main record is the person itself.
 *
 * Matching and merging are those of every helper (`helpers/matching.ts`): by identifier,
 * then email address (case-insensitive), then phone number; the sent fields overwrite the
 * stored ones (the signup helper is for keyed callers only). The action functions are
 * the shared ones (`helpers/action-functions.ts`), each a part of a non-atomic request;
 * `triggers` are recorded on the person.
 */
import type { strictHelperBodies } from 'adis-sdk/server-kit';
import type * as z from 'zod/mini';
// The href functions are pure (no HTTP): the same reading of hrefs as the routes'.
import type { JsonObject, Storage, StoredRecord, Tenant } from '../storage/storage.js';
import type { ResourceStatus } from './errors.js';
import { runActionFunctions } from './helpers/action-functions.js';
import { helperBodiesFor } from './helpers/bodies.js';
import { type HelperContext, kindOf } from './helpers/context.js';
import { upsertPerson } from './helpers/matching.js';
import type { HelperOutcome } from './helpers/outcome.js';
import type { KindRegistry } from './kinds.js';
import { personKind } from './person.js';
import { recordOfHref, recordPath } from './record-paths.js';
import { RecordService } from './records/index.js';
import { parseOrThrow } from './validation.js';
import type { Vocabulary } from './vocabulary.js';

/** Outcome of a signup call. */
export interface SignupResult {
  /** The person created or updated. */
  record: StoredRecord;
  created: boolean;
  /** One resource status per action function run (failed ones have codes ≥ 400). */
  parts: ResourceStatus[];
}

/** A person signup body as its schema parsed it. */
export type PersonSignupCall = z.output<ReturnType<typeof strictHelperBodies>['personSignup']>;

/**
 * Checks a person signup body without writing anything (400 when it does not fit the
 * schema of `vocabulary`: the specification's by default, `extended` under a real
 * server's preset, which takes `remove_tags`, phone statuses and the like). What a call
 * processed in the background is checked with before its 202.
 *
 * @example
 * ```ts
 * import { checkPersonSignup } from './person-signup.js';
 *
 * const call = checkPersonSignup({ person: { given_name: 'Ana' } });
 * const upsert = checkPersonSignup({ person: { given_name: 'Ana' }, remove_tags: ['lapsed'] }, 'extended');
 * ```
 */
export function checkPersonSignup(
  body: JsonObject,
  vocabulary: Vocabulary = 'strict',
): PersonSignupCall {
  return parseOrThrow(helperBodiesFor(vocabulary).personSignup, body, 'std:person_signup_helper');
}

/**
 * Runs a checked person signup call in a helper context: creates or updates the person
 * in one transaction, then runs the action functions.
 */
export async function applyPersonSignup(
  context: HelperContext,
  call: PersonSignupCall,
): Promise<HelperOutcome> {
  const { triggers } = call;
  const { record, created } = await context.records.storage.transaction(async () => {
    const upsert = await upsertPerson(context.records, context.tenant, call.person as JsonObject, {
      anonymous: context.anonymous,
      now: context.now,
      statuses: context.signupStatuses,
      ...(triggers ? { extra: { triggers } } : {}),
    });
    // A signup is an event whether the person is new or known, in the same commit.
    await context.records.recordEvent(
      context.tenant,
      kindOf(context, personKind.singular),
      upsert.record,
      { addTags: call.add_tags },
      context.now,
    );
    return upsert;
  });
  const parts = await runActionFunctions(context, call, { person: record });
  // The kind as served (the preset's): the answer is rendered with it.
  const kind = kindOf(context, personKind.singular);
  return { main: { kind, record, status: created ? 201 : 200 }, parts };
}

/**
 * Runs a person signup call in a helper context: {@link checkPersonSignup}, then
 * {@link applyPersonSignup}.
 */
export function runPersonSignup(context: HelperContext, body: JsonObject): Promise<HelperOutcome> {
  return applyPersonSignup(context, checkPersonSignup(body, context.vocabulary));
}

/** Where {@link signUpPerson} writes: a storage, the kinds it serves, and a tenant of it. */
export interface SignUpPersonTarget {
  readonly storage: Storage;
  /** The kinds served: `defaultRegistry()`, or `defaultRegistry(ACTION_NETWORK_PRESET)`. */
  readonly registry: KindRegistry;
  /** The tenant the person belongs to (`await storage.tenants.ensure('acme')`). */
  readonly tenant: Tenant;
  /** How bodies are checked (default `strict`, the specification's vocabulary). */
  readonly vocabulary?: Vocabulary;
}

/**
 * Runs the person signup helper on storage directly, outside HTTP: for an in-process
 * import or a test fixture, with the same matching, merging and action functions as
 * `POST …/person_signup_helper`. Hrefs in `add_tags_uri` and the like are read as the
 * HTTP layer reads them, by their path.
 *
 * Not the SDK's `personSignup`, which calls the helper of a server over HTTP.
 *
 * @example
 * ```ts
 * import { defaultRegistry, openStorage, signUpPerson } from 'adis-server';
 * const storage = openStorage(':memory:');
 * const tenant = await storage.tenants.ensure('acme');
 * const { record, created } = await signUpPerson(
 *   { storage, registry: defaultRegistry(), tenant },
 *   { person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] } },
 * );
 * ```
 */
export async function signUpPerson(
  target: SignUpPersonTarget,
  body: JsonObject,
  now = new Date(),
): Promise<SignupResult> {
  const outcome = await runPersonSignup(
    {
      records: new RecordService(target.storage, target.registry),
      tenant: target.tenant,
      anonymous: false,
      now,
      resolveHref: recordOfHref,
      hrefOf: recordPath,
      ...(target.vocabulary ? { vocabulary: target.vocabulary } : {}),
    },
    body,
  );
  return {
    record: outcome.main.record,
    created: outcome.main.status === 201,
    parts: outcome.parts,
  };
}
