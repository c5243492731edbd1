/**
 * Writing one record's copy to the target: nothing when the copy is of the same
 * version, an update (PUT at the copy's address) when it is older, else a create where
 * the kind lives (a person through the target's signup helper, which matches her as
 * the target matches people; a signature under its petition's copy, by a POST linking
 * the person or by the record helper with the person inline). A create is journaled as
 * pending before it is sent and with its address once answered: a crash in between
 * leaves the pending entry, and the copy is then looked for on the target (by the
 * source's identifier) before anything is sent again.
 */
import {
  isHTTPError,
  isLinkNotFoundError,
  isSchemaValidationError,
} from '../errors/type-guards.js';
import type { BaseClient } from '../navigator/client.js';
import { field } from '../navigator/filter.js';
import type { Resource } from '../navigator/resource.js';
import {
  type CopyNames,
  copyBody,
  inlinePerson,
  personMatch,
  sourceIdentifier,
} from './copy-body.js';
import type { PlannedKind } from './plan.js';
import type { CopyEntry, SyncStateStore } from './state-store.js';
import { adjustPerson } from './target-members.js';
import type { SyncTargetProfile } from './types.js';

/** What became of one record. */
export type CopyOutcome =
  | { type: 'unchanged' }
  /** Written; `adjustments` says what was changed to what the target can hold. */
  | { type: 'created' | 'updated'; adjustments?: string[] }
  | { type: 'refused'; reason: string; status?: number }
  /** The target cannot write the kind at all (405): the rest of the kind is skipped. */
  | { type: 'read-only'; reason: string; status?: number };

/** What the writer needs besides the record. */
export interface CopyWriter {
  to: BaseClient;
  state: SyncStateStore;
  names: CopyNames;
  profile: SyncTargetProfile;
  dryRun: boolean;
  overlapMs: number;
  signal: AbortSignal | undefined;
  /** The target parents read so far (their documents name their sub-collections). */
  parents: Map<string, Promise<Resource<object>>>;
  /** The kinds the target cannot write at all, by plural name, and why. */
  skipped: Map<string, string>;
}

/** The most target parents kept read: each is a few links, and the first few hundred matter. */
const PARENTS_KEPT = 1000;

/**
 * A key that names this version of this record's copy: a create sent again is the same
 * call. The source system is in it, since it is in the body (the copy's identifiers): a
 * second sync of the same source under another name is another call.
 */
async function copyKey(
  writer: CopyWriter,
  source: string,
  version: string | null,
): Promise<string> {
  const text = `${writer.names.sourceSystem}\n${source}\n${version ?? ''}`;
  const bytes = new TextEncoder().encode(text);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const byte of digest.subarray(0, 20)) hex += byte.toString(16).padStart(2, '0');
  return `adis-sync-${hex}`;
}

/** Whether a failure says the target refuses this record (and nothing was written). */
function refusalOf(error: unknown): CopyOutcome | undefined {
  if (isSchemaValidationError(error)) {
    return { type: 'refused', reason: `not a valid write: ${error.message}` };
  }
  if (isLinkNotFoundError(error)) {
    return { type: 'read-only', reason: `the target cannot hold them: ${error.message}` };
  }
  if (!isHTTPError(error)) return undefined;
  const { status } = error;
  if (status === 405) {
    return {
      type: 'read-only',
      reason: `the target does not take writes here (${error.message})`,
      status,
    };
  }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return { type: 'refused', reason: error.message, status };
  }
  return undefined;
}

/** The target's copy of a source parent, read once (its links lead to its records). */
function targetParent(
  writer: CopyWriter,
  planned: PlannedKind,
  url: string,
): Promise<Resource<object>> {
  let parent = writer.parents.get(url);
  if (parent === undefined) {
    const kind = planned.placement?.parent;
    if (kind === undefined) throw new Error(`${planned.kind.plural} live under no parent`);
    parent = writer.to.collection(kind).get(url, writer.signal ? { signal: writer.signal } : {});
    parent.catch(() => writer.parents.delete(url));
    if (writer.parents.size >= PARENTS_KEPT) {
      const oldest = writer.parents.keys().next().value;
      if (oldest !== undefined) writer.parents.delete(oldest);
    }
    writer.parents.set(url, parent);
  }
  return parent;
}

/**
 * Looks on the target for the copy a crash left unanswered: a record of the kind, where
 * the kind lives, modified since the write was sent (less the overlap), that carries
 * the source's identifier.
 */
async function findCopy(
  writer: CopyWriter,
  planned: PlannedKind,
  record: Resource<object>,
  pendingSince: number,
  parentCopy: string | undefined,
): Promise<string | undefined> {
  // A person is written through the signup helper, which finds her by that identifier.
  if (planned.kind.singular === 'person' && writer.to.root.link('std:person_signup_helper')) {
    return undefined;
  }
  const identifier = sourceIdentifier(record, writer.names);
  if (identifier === undefined) return undefined;
  const placement = planned.placement;
  const where =
    placement && parentCopy !== undefined
      ? (await targetParent(writer, planned, parentCopy)).collection(placement.records)
      : writer.to.collection(planned.kind);
  const since = new Date(pendingSince - writer.overlapMs);
  const recent = where.filter(field('modified_date').gt(since));
  for await (const candidate of recent.items(writer.signal ? { signal: writer.signal } : {})) {
    if (candidate.identifiers.includes(identifier)) return candidate.url;
  }
  return undefined;
}

/** The source parent of a record: the one it was read under, else the one it links. */
function sourceParentOf(planned: PlannedKind, record: Resource<object>, readUnder?: string) {
  const via = planned.placement?.via.rel;
  return readUnder ?? (via === undefined ? undefined : record.link(via)?.url());
}

/** Creates the copy where the kind lives; resolves with its address and whether it was new. */
async function create(
  writer: CopyWriter,
  planned: PlannedKind,
  record: Resource<object>,
  body: Record<string, unknown>,
  parentCopy: string | undefined,
  key: string | undefined,
): Promise<{ url: string | undefined; created: boolean }> {
  const { to, signal } = writer;
  const options = { ...(signal ? { signal } : {}), idempotencyKey: key ?? (false as const) };
  const placement = planned.placement;
  if (placement === undefined) {
    if (planned.kind.singular === 'person' && to.root.link('std:person_signup_helper')) {
      const result = await to.signup(
        { person: body } as Parameters<BaseClient['signup']>[0],
        options,
      );
      if (result.accepted) return { url: undefined, created: true };
      return { url: result.record?.url, created: result.status !== 200 };
    }
    const url = await to.collection(planned.kind).create(body as never, {
      ...options,
      returnResponse: false,
    });
    return { url, created: true };
  }
  if (parentCopy === undefined) throw new Error('unreachable: a child without its parent copy');
  const parent = await targetParent(writer, planned, parentCopy);
  if (writer.profile.childWrites === 'helper' && placement.helper !== undefined) {
    const personHref = record.link('std:person')?.url();
    const match = personHref === undefined ? undefined : writer.state.copyOf(personHref)?.match;
    if (match === undefined) {
      throw new RefusedCopy(
        `${writer.profile.name} records it with the person inline, matched by email address or phone number, and its person has neither`,
      );
    }
    const { _links: _, ...members } = body;
    const result = await parent.callHelper(
      placement.helper,
      { ...members, person: inlinePerson(match) },
      options,
    );
    const made = 'record' in result ? result.record : undefined;
    return { url: made?.url, created: true };
  }
  const url = await parent.collection(placement.records).create(body as never, {
    ...options,
    returnResponse: false,
  });
  return { url, created: true };
}

/** A record the sync itself knows the target cannot take. */
class RefusedCopy extends Error {}

/**
 * Copies one record (read from the source, under `readUnder` when read under a
 * parent) to the target, and says what became of it; `again` writes a copy of the same
 * version once more (`WRITTEN_AGAIN_AFTER`). Throws only what stops the run:
 * a failure whose outcome is unknown twice over, the network, an abort.
 */
export async function writeCopy(
  writer: CopyWriter,
  planned: PlannedKind,
  record: Resource<object>,
  readUnder?: string,
  again = false,
): Promise<CopyOutcome> {
  const { state } = writer;
  const source = record.url;
  const modified = record.document.body.modified_date;
  const version = typeof modified === 'string' ? modified : null;
  let entry = state.copyOf(source);
  const same = version !== null && entry?.version === version;
  if (entry?.target !== undefined && same && !again) {
    return { type: 'unchanged' };
  }
  // A dry run says what would be written; a child's parent may be one it would create.
  if (writer.dryRun) return { type: entry?.target === undefined ? 'created' : 'updated' };
  const made = copyBody(planned, record, writer.names);
  if (!made.ok) return { type: 'refused', reason: made.reason };
  const { body } = made;
  const adjustments = planned.kind.singular === 'person' ? adjustPerson(body, writer.profile) : [];
  const written = (type: 'created' | 'updated'): CopyOutcome =>
    adjustments.length > 0 ? { type, adjustments } : { type };
  const sourceParent = sourceParentOf(planned, record, readUnder);
  const parentCopy = sourceParent === undefined ? undefined : state.copyOf(sourceParent)?.target;
  if (planned.placement && parentCopy === undefined) {
    const parent = planned.placement.parent;
    const why = writer.skipped.get(parent.plural);
    return {
      type: 'refused',
      reason:
        sourceParent === undefined
          ? `it links no ${parent.singular.replaceAll('_', ' ')}`
          : `its ${parent.singular.replaceAll('_', ' ')} has no copy${why ? ` (${parent.plural}: ${why})` : ''}`,
    };
  }
  const match = planned.kind.singular === 'person' ? personMatch(record.document.body) : undefined;
  const copied = (target: string | undefined): CopyEntry => ({
    kind: planned.kind.plural,
    target,
    version,
    ...(match ? { match } : {}),
  });
  try {
    // A write a crash left unanswered: is the copy there?
    if (entry !== undefined && entry.target === undefined && entry.pendingSince !== undefined) {
      const found = await findCopy(writer, planned, record, entry.pendingSince, parentCopy);
      if (found !== undefined) {
        entry = { ...copied(found), version: entry.version };
        state.putCopy(source, entry);
        if (entry.version === version) return written('created');
      }
    }
    if (entry?.target !== undefined) {
      const copy = writer.to.collection(planned.kind).at(entry.target);
      try {
        await copy.update(body as never, {
          returnResponse: false,
          ...(writer.signal ? { signal: writer.signal } : {}),
        });
        state.putCopy(source, copied(entry.target));
        return written('updated');
      } catch (error) {
        // The copy was deleted on the target: make it again.
        if (!isHTTPError(error) || (error.status !== 404 && error.status !== 410)) throw error;
      }
    }
    const key = writer.profile.idempotencyKeys ? await copyKey(writer, source, version) : undefined;
    const outcome = await createOnce(
      writer,
      planned,
      record,
      body,
      parentCopy,
      key,
      copied,
      source,
    );
    return outcome.type === 'created' || outcome.type === 'updated'
      ? written(outcome.type)
      : outcome;
  } catch (error) {
    if (error instanceof RefusedCopy) return { type: 'refused', reason: error.message };
    const refusal = refusalOf(error);
    if (refusal === undefined) throw error;
    return refusal;
  }
}

/**
 * Creates a copy, journaled as pending first. A failure that may have come after the
 * target acted (a 5xx, a timeout, a lost answer) is settled by looking for the copy,
 * then creating it once more if it is not there; a second such failure stops the run,
 * with the pending entry kept for the next one.
 */
async function createOnce(
  writer: CopyWriter,
  planned: PlannedKind,
  record: Resource<object>,
  body: Record<string, unknown>,
  parentCopy: string | undefined,
  key: string | undefined,
  copied: (target: string | undefined) => CopyEntry,
  source: string,
): Promise<CopyOutcome> {
  const { state } = writer;
  for (let attempt = 0; ; attempt += 1) {
    const pendingSince = Date.now();
    const before = state.copyOf(source);
    state.putCopy(source, { ...copied(undefined), pendingSince });
    try {
      const { url, created } = await create(writer, planned, record, body, parentCopy, key);
      if (url === undefined) {
        // Written, but the target did not say where: the copy is looked for next run.
        return { type: created ? 'created' : 'updated' };
      }
      state.putCopy(source, copied(url));
      return { type: created ? 'created' : 'updated' };
    } catch (error) {
      if (error instanceof RefusedCopy || refusalOf(error) !== undefined) {
        // Nothing was written: the journal says what it said before.
        if (before === undefined) state.removeCopy(source);
        else state.putCopy(source, before);
        throw error;
      }
      if (attempt > 0 || writer.signal?.aborted) throw error;
      const found = await findCopy(writer, planned, record, pendingSince, parentCopy);
      if (found !== undefined) {
        state.putCopy(source, copied(found));
        return { type: 'created' };
      }
    }
  }
}
