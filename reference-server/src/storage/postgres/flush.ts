/**
 * Held writes sent as sets (see write-buffer.ts): every record, identifier, lookup key,
 * parent link, contribution, outbox event and idempotent answer of a transaction's held
 * writes in at most two statements, whatever their number:
 *
 * 1. only when records are updated: their documents, and their old side rows removed;
 * 2. the new records, the side rows of every record written, the events and answers,
 *    as one statement of data-modifying CTEs over unnested arrays.
 *
 * The CTEs of one statement see the same snapshot and not each other's rows: a side row
 * of a record inserted by the same statement finds its seq in the `rec` CTE (what the
 * insert returned, with the updated records), one of an older record in `records`.
 *
 * A parent or a contribution's record is linked when it existed when the child was
 * written: in the database already, or written before it (or by it) in the held list, as
 * row-by-row writes would have found it. An identifier taken by another record (or twice
 * in the list) is not inserted: the statement reports it, and the caller throws
 * DuplicateIdentifierError, which rolls the transaction back.
 */
import { contributionSums } from '../contribution-units.js';
import { EXPIRED_ANSWERS_PER_SAVE } from '../idempotency-store.js';
import type { ParentRef } from '../records-store.js';
import type { HeldAnswer, HeldEvent, HeldRecord, HeldWrite } from './write-buffer.js';

/**
 * The seq of a parent already in the database, looked up by its key for each row: a
 * lateral subquery that LIMIT keeps from being flattened into a join, so that it is an
 * index look-up whatever the planner estimates (as a join, a generic plan read the
 * whole records table for a statement's few rows). The key is unique: LIMIT 1 drops
 * nothing.
 */
const STORED_PARENT = `SELECT seq FROM records
        WHERE kind = x.parent_kind AND id = x.parent_id AND tenant_id = rec.tenant_id LIMIT 1`;

/** One statement: its SQL and parameters. */
export interface FlushStatement {
  sql: string;
  params: unknown[];
}

/** The statements of a flush, and how to read the second one's answer. */
export interface FlushPlan {
  /** Updates of records and the removal of their old side rows; none without updates. */
  updates?: FlushStatement;
  /** Everything else. Its one row: `seqs` (`[id, seq]` of inserted records), `duplicates`. */
  writes?: FlushStatement;
  /** The inserted records, by id, whose seq the second statement returns. */
  inserted: Map<string, HeldRecord>;
  /** How many events it appends. */
  events: number;
}

/** What the second statement answers. */
export interface FlushResult {
  seqs: [string, string | number][] | null;
  /** Identifiers not inserted (taken), with the kind of the record that wanted each. */
  duplicates: [string, string][] | null;
}

/** A record's place within a tenant. */
function refKey(tenantId: number, ref: ParentRef): string {
  return `${tenantId}\u0000${ref.kind}\u0000${ref.id}`;
}

/**
 * The statements sending `writes` (the held writes not yet sent, in order).
 */
export function planFlush(writes: readonly HeldWrite[]): FlushPlan {
  // The latest write of each record counts (a person created, then merged into, is one
  // insert of her last document), at the place of its first write in the list.
  const latest = new Map<string, { held: HeldRecord; position: number; inserted: boolean }>();
  const events: HeldEvent[] = [];
  const answers: HeldAnswer[] = [];
  writes.forEach((held, position) => {
    if (held.type === 'event') {
      events.push(held);
      return;
    }
    if (held.type === 'answer') {
      answers.push(held);
      return;
    }
    if (held.type === 'delete') return; // sent by a statement of its own
    const key = refKey(held.write.tenantId, held.write);
    const before = latest.get(key);
    latest.set(key, {
      held,
      position: before?.position ?? position,
      inserted: (before?.inserted ?? false) || held.type === 'insert',
    });
  });
  const records = [...latest.values()].sort((a, b) => a.position - b.position);
  const inserts = records.filter((r) => r.inserted);
  const updates = records.filter((r) => !r.inserted);
  const positionOf = new Map(
    records.map((r, i) => [refKey(r.held.write.tenantId, r.held.write), i]),
  );
  const inserted = new Map(inserts.map((r) => [r.held.write.id, r.held]));

  const plan: FlushPlan = { inserted, events: events.length };
  if (updates.length > 0) plan.updates = updatesStatement(updates.map((r) => r.held));
  if (records.length + events.length + answers.length === 0) return plan;

  // Side rows, by the written record's id; the seq is found in SQL.
  const identifiers: { id: string; identifier: string }[] = [];
  const keys: { id: string; name: string; value: string }[] = [];
  const parents: { id: string; kind: string; parentKind: string; parentId: string }[] = [];
  const contributions: {
    id: string;
    kind: string;
    parentId: string;
    name: string;
    value: number;
  }[] = [];
  records.forEach(({ held }, index) => {
    const { write } = held;
    // A parent written later in the list did not exist when this record was written.
    const existed = (parent: ParentRef) => {
      const at = positionOf.get(refKey(write.tenantId, parent));
      return at === undefined || at <= index;
    };
    for (const identifier of new Set(write.identifiers))
      identifiers.push({ id: write.id, identifier });
    for (const key of write.keys ?? []) keys.push({ id: write.id, ...key });
    for (const parent of write.parents ?? []) {
      if (existed(parent)) {
        parents.push({
          id: write.id,
          kind: write.kind,
          parentKind: parent.kind,
          parentId: parent.id,
        });
      }
    }
    const byParent = new Map<string, ParentRef>();
    const sums = contributionSums(write.contributions ?? [], (parent) => {
      if (!existed(parent)) return undefined;
      const key = `${parent.kind}\u0000${parent.id}`;
      byParent.set(key, parent);
      return key;
    });
    for (const [key, byName] of sums) {
      const parent = byParent.get(key) as ParentRef;
      for (const [name, value] of byName) {
        contributions.push({ id: write.id, kind: parent.kind, parentId: parent.id, name, value });
      }
    }
  });

  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const insertWrites = inserts.map((r) => r.held.write);
  const updated = updates.map((r) => r.held);
  const sql = `WITH w AS (
      SELECT * FROM unnest(${p(insertWrites.map((w) => w.tenantId))}::integer[], ${p(insertWrites.map((w) => w.kind))}::text[],
        ${p(insertWrites.map((w) => w.id))}::text[], ${p(insertWrites.map((w) => JSON.stringify(w.doc)))}::text[],
        ${p(insertWrites.map((w) => w.created_date))}::text[], ${p(insertWrites.map((w) => w.modified_date))}::text[])
        WITH ORDINALITY AS w(tenant_id, kind, id, doc, created_date, modified_date, n)
    ), ins AS (
      INSERT INTO records (tenant_id, kind, id, doc, created_date, modified_date)
      SELECT tenant_id, kind, id, doc, created_date, modified_date FROM w ORDER BY n
      RETURNING seq, tenant_id, kind, id
    ), rec AS (
      SELECT seq, tenant_id, kind, id FROM ins
      UNION ALL
      SELECT * FROM unnest(${p(updated.map((h) => h.record.seq))}::bigint[], ${p(updated.map((h) => h.write.tenantId))}::integer[],
        ${p(updated.map((h) => h.write.kind))}::text[], ${p(updated.map((h) => h.write.id))}::text[]) AS u(seq, tenant_id, kind, id)
    ), idw AS (
      SELECT * FROM unnest(${p(identifiers.map((i) => i.id))}::text[], ${p(identifiers.map((i) => i.identifier))}::text[])
        WITH ORDINALITY AS x(id, identifier, n)
    ), idins AS (
      INSERT INTO identifiers (tenant_id, kind, identifier, seq)
      SELECT rec.tenant_id, rec.kind, idw.identifier, rec.seq FROM idw JOIN rec USING (id) ORDER BY idw.n
      ON CONFLICT DO NOTHING RETURNING identifier, seq
    ), keyins AS (
      INSERT INTO record_keys (tenant_id, kind, name, value, seq)
      SELECT rec.tenant_id, rec.kind, x.name, x.value, rec.seq
      FROM unnest(${p(keys.map((k) => k.id))}::text[], ${p(keys.map((k) => k.name))}::text[], ${p(keys.map((k) => k.value))}::text[]) AS x(id, name, value)
      JOIN rec USING (id) ON CONFLICT DO NOTHING
    ), par AS (
      INSERT INTO record_parents (parent_seq, kind, seq)
      SELECT coalesce(fresh.seq, stored.seq), x.kind, rec.seq
      FROM unnest(${p(parents.map((x) => x.id))}::text[], ${p(parents.map((x) => x.kind))}::text[],
        ${p(parents.map((x) => x.parentKind))}::text[], ${p(parents.map((x) => x.parentId))}::text[]) AS x(id, kind, parent_kind, parent_id)
      JOIN rec USING (id)
      LEFT JOIN rec fresh ON fresh.kind = x.parent_kind AND fresh.id = x.parent_id AND fresh.tenant_id = rec.tenant_id
      LEFT JOIN LATERAL (${STORED_PARENT}) stored ON true
      WHERE coalesce(fresh.seq, stored.seq) IS NOT NULL
      ON CONFLICT DO NOTHING
    ), con AS (
      INSERT INTO record_contributions (seq, parent_seq, name, value)
      SELECT rec.seq, coalesce(fresh.seq, stored.seq), x.name, x.value
      FROM unnest(${p(contributions.map((c) => c.id))}::text[], ${p(contributions.map((c) => c.kind))}::text[],
        ${p(contributions.map((c) => c.parentId))}::text[], ${p(contributions.map((c) => c.name))}::text[],
        ${p(contributions.map((c) => c.value))}::bigint[]) AS x(id, parent_kind, parent_id, name, value)
      JOIN rec USING (id)
      LEFT JOIN rec fresh ON fresh.kind = x.parent_kind AND fresh.id = x.parent_id AND fresh.tenant_id = rec.tenant_id
      LEFT JOIN LATERAL (${STORED_PARENT}) stored ON true
      WHERE coalesce(fresh.seq, stored.seq) IS NOT NULL
    ), writer AS MATERIALIZED (
      SELECT pg_current_xact_id() AS xid
    ), ev AS (
      -- The transaction id is read before the seqs are drawn: the outbox horizon relies on it.
      INSERT INTO webhook_events (xid, tenant_id, type, idempotency_key, payload, created_ms)
      SELECT writer.xid, x.tenant_id, x.type, x.idempotency_key, x.payload, x.created_ms
      FROM writer, unnest(${p(events.map((e) => e.event.tenantId))}::integer[], ${p(events.map((e) => e.event.type))}::text[],
        ${p(events.map((e) => e.event.idempotencyKey))}::text[], ${p(events.map((e) => JSON.stringify(e.event.payload)))}::json[],
        ${p(events.map((e) => e.event.createdMs))}::bigint[]) WITH ORDINALITY AS x(tenant_id, type, idempotency_key, payload, created_ms, n)
      ORDER BY x.n
    ), expired AS (
      -- SKIP LOCKED: two processes sweeping at once take different rows instead of waiting.
      DELETE FROM idempotent_answers WHERE ${answers.length > 0 ? 'true' : 'false'} AND id IN (
        SELECT id FROM idempotent_answers WHERE created_ms < ${p(answers.length > 0 ? Math.min(...answers.map((a) => a.expireBeforeMs)) : 0)}::bigint
        ORDER BY created_ms LIMIT ${EXPIRED_ANSWERS_PER_SAVE * Math.max(1, answers.length)} FOR UPDATE SKIP LOCKED)
    ), ans AS (
      INSERT INTO idempotent_answers (tenant_id, anonymous, key, fingerprint, status, headers, body, created_ms)
      SELECT * FROM unnest(${p(answers.map((a) => a.ref.tenantId))}::integer[], ${p(answers.map((a) => a.ref.anonymous))}::boolean[],
        ${p(answers.map((a) => a.ref.key))}::text[], ${p(answers.map((a) => a.answer.fingerprint))}::text[],
        ${p(answers.map((a) => a.answer.status))}::integer[], ${p(answers.map((a) => JSON.stringify(a.answer.headers)))}::text[],
        ${p(answers.map((a) => Buffer.from(a.answer.body.buffer, a.answer.body.byteOffset, a.answer.body.byteLength)))}::bytea[],
        ${p(answers.map((a) => a.answer.createdMs))}::bigint[])
      ON CONFLICT (tenant_id, anonymous, key) DO UPDATE SET fingerprint = excluded.fingerprint,
        status = excluded.status, headers = excluded.headers, body = excluded.body,
        created_ms = excluded.created_ms
    )
    SELECT (SELECT json_agg(json_build_array(id, seq)) FROM ins) AS seqs,
      (SELECT json_agg(json_build_array(idw.identifier, rec.kind) ORDER BY idw.n) FROM idw JOIN rec USING (id)
        WHERE NOT EXISTS (SELECT 1 FROM idins WHERE idins.identifier = idw.identifier AND idins.seq = rec.seq)) AS duplicates`;
  plan.writes = { sql, params };
  return plan;
}

/** Statement 1: the updated records' documents, and their old side rows removed. */
function updatesStatement(updated: readonly HeldRecord[]): FlushStatement {
  const seqs = updated.map((h) => h.record.seq);
  return {
    sql: `WITH u AS (
        UPDATE records r SET doc = w.doc, modified_date = w.modified_date
        FROM unnest($1::bigint[], $2::text[], $3::text[]) AS w(seq, doc, modified_date)
        WHERE r.seq = w.seq RETURNING r.seq
      ), i AS (DELETE FROM identifiers WHERE seq = ANY($1::bigint[])),
      k AS (DELETE FROM record_keys WHERE seq = ANY($1::bigint[])),
      p AS (DELETE FROM record_parents WHERE seq = ANY($1::bigint[])),
      c AS (DELETE FROM record_contributions WHERE seq = ANY($1::bigint[]))
      SELECT count(*)::integer AS n FROM u`,
    params: [
      seqs,
      updated.map((h) => JSON.stringify(h.write.doc)),
      updated.map((h) => h.write.modified_date),
    ],
  };
}
