/**
 * The record helpers, one definition each: which body schema validates the call (the
 * SDK's, so client and server cannot disagree), which record it creates, how that record
 * refers to the record in the URL, and how it is prepared. {@link runRecordHelper} runs
 * any of them the same way:
 *
 * 1. the record in the URL must exist in the tenant (404), the body must fit the schema
 *    (400, nothing written);
 * 2. in ONE transaction: the person is matched or created (see `matching.ts`), then the
 *    main record is created through the record service, so its links, the catalog's
 *    checks (ticket levels sold out, currency, answers) and the totals it adds to
 *    (`total_signatures`, …) are those of any create. A signature, attendance or
 *    submission is one per person and petition, event or form (the catalog's
 *    `oneRecordPer`): when the person already has one, it is updated instead (200) and
 *    the totals do not move; a caller without a key only fills what it lacks. Donations,
 *    outreaches and canvasses always add. A created record's webhook event (with the
 *    person and the `add_tags` asked for) is appended to the outbox in the same
 *    transaction. If anything fails, nothing is written (atomic);
 * 3. the action functions, each a part in its own transaction (non-atomic).
 */

import type { HelperBodyName } from 'adis-sdk/schema';
import { strictHelperBodies } from 'adis-sdk/server-kit';
import type * as z from 'zod/mini';
import type { StoredRecord } from '../../storage/storage.js';
import type { ResourceKind } from '../kinds.js';
import { parseOrThrow } from '../validation.js';
import { runActionFunctions } from './action-functions.js';
import { prepareAttendance } from './attendance.js';
import { helperBodiesFor } from './bodies.js';
import { prepareCanvass } from './canvass.js';
import { type HelperContext, kindOf } from './context.js';
import { prepareDonation } from './donation.js';
import { eventTags, refuseKeylessRemovals } from './keyless.js';
import { type HelperBody, type PreparedRecord, personAction } from './main-record.js';
import type { HelperOutcome } from './outcome.js';

// The reference server holds helper bodies to the specification (strict): formats,
// vocabulary and rules, beside the member names and types the SDK checks. A call is
// checked with the body of the server's vocabulary (`checkRecordHelperCall`).
const BODIES = strictHelperBodies();

/** One record helper. */
export interface RecordHelperDefinition {
  /** Link relation without prefix (`record_signature_helper`), as the catalog declares it. */
  rel: string;
  /** Kind of the main record created (`signature`). */
  main: string;
  /** The main record's reference to the record in the URL (`petition`; a canvass's `target`). */
  via: string;
  /** The name of the body in the SDK's helper bodies (`recordSignature`). */
  body: HelperBodyName;
  /** The body schema under the specification's vocabulary, shared with the SDK. */
  schema: z.ZodMiniType;
  /** Builds the main record, inside the transaction, from the body and the URL's record. */
  prepare(
    context: HelperContext,
    body: HelperBody,
    parent: StoredRecord,
  ): PreparedRecord | Promise<PreparedRecord>;
}

/**
 * Every record helper of the catalog, by link relation.
 *
 * @example
 * ```ts
 * import { RECORD_HELPERS } from './record-helpers.js';
 *
 * RECORD_HELPERS.record_signature_helper?.main; // 'signature'
 * ```
 */
export const RECORD_HELPERS: Readonly<Record<string, RecordHelperDefinition>> = {
  record_signature_helper: {
    rel: 'record_signature_helper',
    main: 'signature',
    via: 'petition',
    body: 'recordSignature',
    schema: BODIES.recordSignature,
    prepare: personAction,
  },
  record_outreach_helper: {
    rel: 'record_outreach_helper',
    main: 'outreach',
    via: 'advocacy_campaign',
    body: 'recordOutreach',
    schema: BODIES.recordOutreach,
    prepare: personAction,
  },
  record_attendance_helper: {
    rel: 'record_attendance_helper',
    main: 'attendance',
    via: 'event',
    body: 'recordAttendance',
    schema: BODIES.recordAttendance,
    prepare: prepareAttendance,
  },
  record_donation_helper: {
    rel: 'record_donation_helper',
    main: 'donation',
    via: 'fundraising_page',
    body: 'recordDonation',
    schema: BODIES.recordDonation,
    prepare: prepareDonation,
  },
  record_canvass_helper: {
    rel: 'record_canvass_helper',
    main: 'canvass',
    via: 'target',
    body: 'recordCanvass',
    schema: BODIES.recordCanvass,
    prepare: prepareCanvass,
  },
  record_submission_helper: {
    rel: 'record_submission_helper',
    main: 'submission',
    via: 'form',
    body: 'recordSubmission',
    schema: BODIES.recordSubmission,
    prepare: personAction,
  },
};

/** A record helper call whose record exists and whose body fits: ready to run. */
export interface RecordHelperCall {
  definition: RecordHelperDefinition;
  /** The kind of the record in the URL (petition, event, …; a person for a canvass). */
  parentKind: ResourceKind;
  /** The record in the URL, as read when the call was checked. */
  parent: StoredRecord;
  /** The body as its schema parsed it. */
  body: HelperBody;
}

/**
 * Checks a record helper call without writing anything: the record `parentId` of
 * `parentKind` must exist in the tenant (404), then the body must fit the helper's schema
 * under the context's vocabulary (400), and a call without a key may remove nothing
 * (401, `keyless.ts`). What a call processed in the background is checked with before
 * its 202.
 */
export async function checkRecordHelperCall(
  context: HelperContext,
  definition: RecordHelperDefinition,
  parentKind: ResourceKind,
  parentId: string,
  body: unknown,
): Promise<RecordHelperCall> {
  // A missing record is reported before a bad body: the caller should learn that first.
  const parent = await context.records.get(context.tenant, parentKind, parentId);
  const schema = helperBodiesFor(context.vocabulary ?? 'strict')[definition.body];
  const parsed = parseOrThrow(schema, body, `std:${definition.rel}`) as HelperBody;
  refuseKeylessRemovals(context, parsed, `std:${definition.rel}`);
  return { definition, parentKind, parent, body: parsed };
}

/**
 * Runs a checked record helper call (steps 2 and 3 at the top of this module) and reports
 * what it did; atomic failures throw `ApiError`. The main record is created, or, for a
 * kind with one record per person and parent (a signature per person and petition),
 * the person's existing one is updated (status 200; see `RecordService.createOrUpdate`).
 */
export async function applyRecordHelperCall(
  context: HelperContext,
  call: RecordHelperCall,
): Promise<HelperOutcome> {
  const { records, tenant, now } = context;
  const { definition, parentKind, parent, body } = call;
  const mainKind = kindOf(context, definition.main);
  // The parent is not read again (a read inside the transaction would lock it, and every
  // signature of a petition would wait for the one before): a delete of it that commits
  // between the check and here leaves the new record without it, as a delete that
  // commits just after would. A call run later (background) reads it again first.
  const { prepared, main } = await records.storage.transaction(async () => {
    const prepared = await definition.prepare(context, body, parent);
    // Triggers are read-only to clients: the helper records them beside the fields.
    const { triggers, ...fields } = prepared.fields;
    const main = await records.createOrUpdate(tenant, mainKind, fields, {
      now,
      recorded: { triggers },
      links: prepared.links,
      parent: { rel: definition.via, ref: { kind: parentKind.singular, id: parent.id } },
      fillOnly: context.anonymous,
      // The act's webhook event, made when the record is created (not when acting again).
      event: { addTags: eventTags(context, body.add_tags) },
      ...(prepared.linksAt ? { linksAt: prepared.linksAt } : {}),
    });
    await prepared.after?.(main.record);
    return { prepared, main };
  });
  const parts = await runActionFunctions(context, body, {
    person: prepared.person.record,
    ...(definition.main === 'canvass' ? { canvass: main.record } : {}),
  });
  return {
    main: { kind: mainKind, record: main.record, status: main.created ? 201 : 200 },
    person: { kind: kindOf(context, 'person'), ...prepared.person },
    parts,
  };
}

/**
 * Runs a record helper on the record `parentId` of `parentKind` (the petition signed, the
 * person canvassed): {@link checkRecordHelperCall}, then {@link applyRecordHelperCall}.
 */
export async function runRecordHelper(
  context: HelperContext,
  definition: RecordHelperDefinition,
  parentKind: ResourceKind,
  parentId: string,
  body: unknown,
): Promise<HelperOutcome> {
  return applyRecordHelperCall(
    context,
    await checkRecordHelperCall(context, definition, parentKind, parentId, body),
  );
}
