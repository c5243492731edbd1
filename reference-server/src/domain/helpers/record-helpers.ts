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
 *    (`total_signatures`, …) are those of any create. If anything fails, nothing is
 *    written (atomic);
 * 3. the action functions, each a part in its own transaction (non-atomic).
 */

import {
  RecordAttendanceBodySchema,
  RecordCanvassBodySchema,
  RecordDonationBodySchema,
  RecordOutreachBodySchema,
  RecordSignatureBodySchema,
  RecordSubmissionBodySchema,
} from 'adis-sdk/schema';
import type * as z from 'zod/mini';
import type { StoredRecord } from '../../storage/storage.js';
import type { ResourceKind } from '../kinds.js';
import { parseOrThrow } from '../validation.js';
import { runActionFunctions } from './action-functions.js';
import { prepareAttendance } from './attendance.js';
import { prepareCanvass } from './canvass.js';
import { type HelperContext, kindOf } from './context.js';
import { prepareDonation } from './donation.js';
import { type HelperBody, type PreparedRecord, personAction } from './main-record.js';
import type { HelperOutcome } from './outcome.js';

/** One record helper. */
export interface RecordHelperDefinition {
  /** Link relation without prefix (`record_signature_helper`), as the catalog declares it. */
  rel: string;
  /** Kind of the main record created (`signature`). */
  main: string;
  /** The main record's reference to the record in the URL (`petition`; a canvass's `target`). */
  via: string;
  /** The body schema, shared with the SDK. */
  schema: z.ZodMiniType;
  /** Builds the main record, inside the transaction, from the body and the URL's record. */
  prepare(context: HelperContext, body: HelperBody, parent: StoredRecord): PreparedRecord;
}

/**
 * Every record helper of the catalog, by link relation.
 *
 * @example
 * ```ts
 * RECORD_HELPERS.record_signature_helper?.main; // 'signature'
 * ```
 */
export const RECORD_HELPERS: Readonly<Record<string, RecordHelperDefinition>> = {
  record_signature_helper: {
    rel: 'record_signature_helper',
    main: 'signature',
    via: 'petition',
    schema: RecordSignatureBodySchema,
    prepare: personAction,
  },
  record_outreach_helper: {
    rel: 'record_outreach_helper',
    main: 'outreach',
    via: 'advocacy_campaign',
    schema: RecordOutreachBodySchema,
    prepare: personAction,
  },
  record_attendance_helper: {
    rel: 'record_attendance_helper',
    main: 'attendance',
    via: 'event',
    schema: RecordAttendanceBodySchema,
    prepare: prepareAttendance,
  },
  record_donation_helper: {
    rel: 'record_donation_helper',
    main: 'donation',
    via: 'fundraising_page',
    schema: RecordDonationBodySchema,
    prepare: prepareDonation,
  },
  record_canvass_helper: {
    rel: 'record_canvass_helper',
    main: 'canvass',
    via: 'target',
    schema: RecordCanvassBodySchema,
    prepare: prepareCanvass,
  },
  record_submission_helper: {
    rel: 'record_submission_helper',
    main: 'submission',
    via: 'form',
    schema: RecordSubmissionBodySchema,
    prepare: personAction,
  },
};

/**
 * Runs a record helper on the record `parentId` of `parentKind` (the petition signed, the
 * person canvassed) and reports what it did; atomic failures throw `ApiError`.
 *
 * @example
 * ```ts
 * const outcome = runRecordHelper(context, RECORD_HELPERS.record_signature_helper!, petitionKind, petitionId, {
 *   comments: 'Yes!',
 *   person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
 * });
 * outcome.main.record.id; // the new signature
 * ```
 */
export function runRecordHelper(
  context: HelperContext,
  definition: RecordHelperDefinition,
  parentKind: ResourceKind,
  parentId: string,
  body: unknown,
): HelperOutcome {
  const { records, tenant, now } = context;
  // A missing record is reported before a bad body: the caller should learn that first.
  // Read once: nothing can change it between here and the transaction, as all of this
  // runs synchronously (no await), and under group commit the read and the writes are
  // in the same batch anyway.
  const parent = records.get(tenant, parentKind, parentId);
  const parsed = parseOrThrow(definition.schema, body, `std:${definition.rel}`) as HelperBody;
  const mainKind = kindOf(context, definition.main);
  const { prepared, main } = records.storage.transaction(() => {
    const prepared = definition.prepare(context, parsed, parent);
    // Triggers are read-only to clients: the helper records them beside the fields.
    const { triggers, ...fields } = prepared.fields;
    const main = records.create(tenant, mainKind, fields, {
      now,
      recorded: { triggers },
      links: prepared.links,
      parent: { rel: definition.via, ref: { kind: parentKind.singular, id: parent.id } },
    });
    prepared.after?.(main);
    return { prepared, main };
  });
  const parts = runActionFunctions(context, parsed, {
    person: prepared.person.record,
    ...(definition.main === 'canvass' ? { canvass: main } : {}),
  });
  return {
    main: { kind: mainKind, record: main, status: 201 },
    person: { kind: kindOf(context, 'person'), ...prepared.person },
    parts,
  };
}
