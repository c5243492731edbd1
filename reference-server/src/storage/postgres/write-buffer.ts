/**
 * The writes of one PostgreSQL transaction, held until they are needed: a helper call
 * creates a person, a signature and a tagging, adds to a total, appends an outbox event
 * and stores its idempotent answer; sent one row at a time that is dozens of round trips,
 * each a statement the database plans and logs. Held here, they reach the database as
 * one statement per phase (`flush.ts`) when the transaction commits, or earlier when a
 * statement that must see them runs.
 *
 * Reads the records sub-store can answer from what is held (a record written in this
 * transaction, a look-up by key, identifier or parents that such a record matches) are
 * answered here, merged with what the database holds: the transaction sees its own
 * writes, as it would had they been sent. A nested transaction is a mark in the list,
 * and rolling it back forgets what was held after the mark (`connection.ts` takes a
 * savepoint only when held writes had to be sent inside it).
 */
import type { IdempotencyKeyRef, IdempotentAnswer } from '../idempotency-store.js';
import type { ParentRef, RecordWrite, StoredRecord } from '../records-store.js';
import type { NewWebhookEvent } from '../webhook-store.js';

/** A record held for insertion; its `record.seq` is set when it is sent. */
export interface HeldInsert {
  type: 'insert';
  write: RecordWrite;
  record: StoredRecord;
}

/** A record held for an update (its seq known from the read that preceded it). */
export interface HeldUpdate {
  type: 'update';
  write: RecordWrite;
  record: StoredRecord;
}

/** An outbox event held for its write's commit. */
export interface HeldEvent {
  type: 'event';
  event: NewWebhookEvent;
}

/** An idempotent answer held for the request's commit. */
export interface HeldAnswer {
  type: 'answer';
  ref: IdempotencyKeyRef;
  answer: IdempotentAnswer;
  expireBeforeMs: number;
}

/**
 * A record deleted by a statement of its own (deletes are not held): kept in the list so
 * that look-ups answered from it no longer see the record, and see it again when a
 * rollback to before the delete undoes it.
 */
export interface HeldDelete {
  type: 'delete';
  tenantId: number;
  kind: string;
  id: string;
}

/** One held write. */
export type HeldWrite = HeldInsert | HeldUpdate | HeldEvent | HeldAnswer | HeldDelete;

/** A held record write: an insert or an update. */
export type HeldRecord = HeldInsert | HeldUpdate;

/** A record's place: its tenant, kind and id. */
function recordKey(tenantId: number, kind: string, id: string): string {
  return `${tenantId}\u0000${kind}\u0000${id}`;
}

/**
 * The held writes of one transaction (see the top of this module).
 */
export class WriteBuffer {
  /** Every write held, in order; `sent` of them are in the database already. */
  readonly writes: HeldWrite[] = [];
  /** How many of {@link writes} have been sent. */
  sent = 0;
  /** The latest held write of each record, rebuilt when a rollback forgets some. */
  private byRecord = new Map<string, HeldRecord | HeldDelete>();
  /** The seq and creation date of records read in the transaction, for their updates. */
  private readonly known = new Map<string, { seq: number; createdDate: string }>();
  /**
   * Records read with a look-up for the caller's `get` (`LookupOptions.read`), locked
   * shared: no other transaction can change them until this one ends.
   */
  private reads = new Map<string, StoredRecord>();

  /** Holds an insert; the record as the caller will see it (seq set when sent). */
  insert(write: RecordWrite): StoredRecord {
    const record = storedOf(0, write, write.created_date);
    this.push({ type: 'insert', write, record });
    return record;
  }

  /** Holds an update of the record `seq`; the record as it will read back. */
  update(write: RecordWrite, seq: number, createdDate: string): StoredRecord {
    const record = storedOf(seq, write, createdDate);
    this.push({ type: 'update', write, record });
    return record;
  }

  /** Notes a delete already sent (see {@link HeldDelete}). */
  deleted(tenantId: number, kind: string, id: string): void {
    const held: HeldDelete = { type: 'delete', tenantId, kind, id };
    this.writes.push(held);
    this.sent = this.writes.length;
    this.byRecord.delete(recordKey(tenantId, kind, id));
    this.byRecord.set(recordKey(tenantId, kind, id), held);
  }

  /** Keeps a record a look-up read, locked shared, for the transaction's `get` of it. */
  keepRead(tenantId: number, record: StoredRecord): void {
    this.reads.set(recordKey(tenantId, record.kind, record.id), record);
  }

  /** A record kept by {@link keepRead} (what the transaction wrote since is in {@link latest}). */
  readOf(tenantId: number, kind: string, id: string): StoredRecord | undefined {
    return this.reads.get(recordKey(tenantId, kind, id));
  }

  /** Remembers a record read from the database, so that its update can be held. */
  remember(tenantId: number, record: StoredRecord): void {
    this.known.set(recordKey(tenantId, record.kind, record.id), {
      seq: record.seq,
      createdDate: record.created_date,
    });
  }

  /**
   * Where a record is (its seq) and when it was created, when this transaction read or
   * wrote it and it still exists; undefined when unknown (or deleted).
   */
  placeOf(
    tenantId: number,
    kind: string,
    id: string,
  ): { seq: number; createdDate: string } | undefined {
    const held = this.byRecord.get(recordKey(tenantId, kind, id));
    if (held?.type === 'delete') return undefined;
    if (held) return { seq: held.record.seq, createdDate: held.record.created_date };
    return this.known.get(recordKey(tenantId, kind, id));
  }

  /** Holds an outbox event. */
  event(event: NewWebhookEvent): void {
    this.writes.push({ type: 'event', event });
  }

  /** Holds an idempotent answer. */
  answer(ref: IdempotencyKeyRef, answer: IdempotentAnswer, expireBeforeMs: number): void {
    this.writes.push({ type: 'answer', ref, answer, expireBeforeMs });
  }

  /** Whether writes are held that the database does not have yet. */
  get pending(): boolean {
    return this.sent < this.writes.length;
  }

  /** The position to roll back to (a nested transaction's start). */
  mark(): number {
    return this.writes.length;
  }

  /** Forgets the writes held after `mark` (those sent were rolled back by a savepoint). */
  rollbackTo(mark: number): void {
    // A savepoint rolled back releases the row locks taken after it: the reads kept
    // may no longer be locked, and are read again.
    this.reads = new Map();
    if (mark >= this.writes.length) return;
    this.writes.length = mark;
    this.sent = Math.min(this.sent, mark);
    this.byRecord = new Map();
    for (const held of this.writes) {
      if (held.type === 'insert' || held.type === 'update') {
        this.byRecord.delete(keyOf(held));
        this.byRecord.set(keyOf(held), held);
      } else if (held.type === 'delete') {
        const key = recordKey(held.tenantId, held.kind, held.id);
        this.byRecord.delete(key);
        this.byRecord.set(key, held);
      }
    }
  }

  /** The latest write of a record, if this transaction wrote (or deleted) it. */
  latest(tenantId: number, kind: string, id: string): HeldRecord | HeldDelete | undefined {
    return this.byRecord.get(recordKey(tenantId, kind, id));
  }

  /**
   * Whether the record was inserted in this transaction: no other transaction can see
   * it, so nothing in the database refers to it yet.
   */
  isNew(tenantId: number, kind: string, id: string): boolean {
    for (const held of this.writes) {
      if (held.type !== 'insert') continue;
      const { write } = held;
      if (write.id === id && write.kind === kind && write.tenantId === tenantId) return true;
    }
    return false;
  }

  /** The latest write of each record this transaction wrote or deleted, in that order. */
  records(): (HeldRecord | HeldDelete)[] {
    return [...this.byRecord.values()];
  }

  private push(held: HeldRecord): void {
    this.writes.push(held);
    const key = keyOf(held);
    // Delete first, so that the map's order is the order of the latest writes.
    this.byRecord.delete(key);
    this.byRecord.set(key, held);
  }
}

function keyOf(held: HeldRecord): string {
  return recordKey(held.write.tenantId, held.write.kind, held.write.id);
}

/** The stored record of a write. */
export function storedOf(seq: number, write: RecordWrite, createdDate: string): StoredRecord {
  return {
    seq,
    kind: write.kind,
    id: write.id,
    doc: write.doc,
    created_date: createdDate,
    modified_date: write.modified_date,
  };
}

/** Whether a held record has every parent of `parents`. */
export function hasParents(write: RecordWrite, parents: readonly ParentRef[]): boolean {
  const own = write.parents ?? [];
  return parents.every((parent) => own.some((p) => p.kind === parent.kind && p.id === parent.id));
}
