/**
 * Records and their lookups on PostgreSQL: the `records` table and its side tables
 * (`identifiers`, `record_keys`, `record_parents`, `record_contributions`), written with
 * every record, and the look-ups over them, answering as SQLite's records.ts does. Side
 * tables are written a statement per table for any number of records (arrays unnested),
 * so a bulk load costs a few statements per batch, not per record.
 *
 * Isolation inside a transaction: {@link PostgresRecords.get} locks the row it reads
 * (`FOR SHARE`, or `FOR UPDATE` when the caller will change it), and the look-ups by
 * key and by parents made `forInsert` lock what they look up (lookup-lock.ts), so
 * read-then-write rules hold across processes. Plain look-ups lock nothing: a tag found
 * by name in every call must not make the calls wait for each other.
 */
import { contributionSums, totalsById } from '../contribution-units.js';
import {
  type ChildRef,
  type CollectionScope,
  DuplicateIdentifierError,
  type LookupOptions,
  type PageQuery,
  type ParentRef,
  type ReadOptions,
  type RecordWrite,
  type StoredRecord,
  type Tenant,
} from '../storage.js';
import { PostgresCollections } from './collections.js';
import type { PostgresConnection } from './connection.js';
import { errorCode } from './errors.js';
import { lockLookup } from './lookup-lock.js';
import { PG_RECORD_COLUMNS, type RecordRow, toRecord } from './record-rows.js';
import { hasParents, type WriteBuffer } from './write-buffer.js';

/** Records written per batch of {@link PostgresRecords.insertMany}. */
const INSERT_BATCH = 500;

/** A record being written and the seq it got. */
interface Written {
  seq: number;
  write: RecordWrite;
}

/**
 * The records of a {@link PostgresStorage}: writes with their side tables, and look-ups.
 */
export class PostgresRecords {
  /** Pages of collections (collections.ts). */
  private readonly collections: PostgresCollections;

  constructor(private readonly connection: PostgresConnection) {
    this.collections = new PostgresCollections(connection, (tenantId, kind, id) =>
      this.seqOf(tenantId, kind, id),
    );
  }

  /** See {@link RecordStore.count}. */
  count(scope: CollectionScope): Promise<number> {
    return this.collections.count(scope);
  }

  /** See {@link RecordStore.list}. */
  list(query: PageQuery): Promise<StoredRecord[]> {
    return this.collections.list(query);
  }

  /** See {@link RecordStore.hasAfter}. */
  hasAfter(scope: CollectionScope, seq: number): Promise<boolean> {
    return this.collections.hasAfter(scope, seq);
  }

  /** The seq of a record, the key every side table refers to it by. */
  async seqOf(tenantId: number, kind: string, id: string): Promise<number | undefined> {
    const { rows } = await this.connection.query<{ seq: string }>(
      'SELECT seq FROM records WHERE kind = $1 AND id = $2 AND tenant_id = $3',
      [kind, id, tenantId],
    );
    return rows[0] ? Number(rows[0].seq) : undefined;
  }

  /**
   * See {@link RecordStore.insert}. Held with the transaction's writes (write-buffer.ts):
   * sent with its next statement that must see it, or its commit. A taken identifier
   * then rejects that statement or the commit with DuplicateIdentifierError.
   */
  async insert(write: RecordWrite): Promise<StoredRecord> {
    const held = this.connection.held();
    if (held) return held.insert(write);
    return this.connection.transaction(async () => this.insert(write));
  }

  /** See {@link RecordStore.insertMany}. */
  insertMany(writes: Iterable<RecordWrite>): Promise<number> {
    return this.connection.transaction(async () => {
      let count = 0;
      let batch: RecordWrite[] = [];
      for (const write of writes) {
        batch.push(write);
        if (batch.length >= INSERT_BATCH) {
          count += (await this.insertBatch(batch)).length;
          batch = [];
        }
      }
      if (batch.length > 0) count += (await this.insertBatch(batch)).length;
      return count;
    });
  }

  /** Inserts records (in order: seqs ascend with the list) and their side tables. */
  private async insertBatch(writes: readonly RecordWrite[]): Promise<Written[]> {
    const { rows } = await this.connection.query<{ seq: string; n: number }>(
      `INSERT INTO records (tenant_id, kind, id, doc, created_date, modified_date)
       SELECT tenant_id, kind, id, doc, created_date, modified_date
       FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
         WITH ORDINALITY AS w(tenant_id, kind, id, doc, created_date, modified_date, n)
       ORDER BY n
       RETURNING seq`,
      [
        writes.map((w) => w.tenantId),
        writes.map((w) => w.kind),
        writes.map((w) => w.id),
        writes.map((w) => JSON.stringify(w.doc)),
        writes.map((w) => w.created_date),
        writes.map((w) => w.modified_date),
      ],
    );
    // The identity is drawn row by row in the ORDER BY's order: sorting the seqs pairs
    // them with the writes whatever order RETURNING lists them in.
    const seqs = rows.map((row) => Number(row.seq)).sort((a, b) => a - b);
    const written = writes.map((write, i) => ({ seq: seqs[i] ?? 0, write }));
    await this.writeSideTables(written);
    return written;
  }

  /**
   * See {@link RecordStore.update}. Held like {@link insert} when the transaction read or
   * wrote the record (its seq is known, and its row lock keeps it); else run at once.
   */
  async update(write: RecordWrite): Promise<StoredRecord | undefined> {
    const held = this.connection.held();
    if (!held) return this.connection.transaction(async () => this.update(write));
    const place = held.placeOf(write.tenantId, write.kind, write.id);
    if (place) return held.update(write, place.seq, place.createdDate);
    const { rows } = await this.connection.query<{ seq: string; created_date: string }>(
      `SELECT seq, created_date FROM records WHERE kind = $1 AND id = $2 AND tenant_id = $3 FOR UPDATE`,
      [write.kind, write.id, write.tenantId],
    );
    const row = rows[0];
    if (!row) return undefined;
    return held.update(write, Number(row.seq), row.created_date);
  }

  /**
   * See {@link RecordStore.delete}. Its side rows go with it in the same statement (the
   * side tables have no foreign keys: see migrations.ts).
   */
  async delete(tenantId: number, kind: string, id: string): Promise<boolean> {
    const held = this.connection.held();
    if (!held) return this.connection.transaction(async () => this.delete(tenantId, kind, id));
    const { rows } = await this.connection.query<{ n: number }>(
      `WITH gone AS (DELETE FROM records WHERE kind = $1 AND id = $2 AND tenant_id = $3 RETURNING seq),
            i AS (DELETE FROM identifiers WHERE seq IN (SELECT seq FROM gone)),
            k AS (DELETE FROM record_keys WHERE seq IN (SELECT seq FROM gone)),
            p AS (DELETE FROM record_parents WHERE seq IN (SELECT seq FROM gone)),
            c AS (DELETE FROM record_contributions WHERE seq IN (SELECT seq FROM gone))
       SELECT count(*)::integer AS n FROM gone`,
      [kind, id, tenantId],
    );
    held.deleted(tenantId, kind, id);
    return (rows[0]?.n ?? 0) > 0;
  }

  /** Writes the side tables of records (identifiers, keys, parents, contributions). */
  private async writeSideTables(written: readonly Written[]): Promise<void> {
    await this.writeIdentifiers(written);
    const keys = written.flatMap(({ seq, write }) =>
      (write.keys ?? []).map((key) => ({ seq, write, key })),
    );
    if (keys.length > 0) {
      await this.connection.query(
        `INSERT INTO record_keys (tenant_id, kind, name, value, seq)
         SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::bigint[])
         ON CONFLICT DO NOTHING`,
        [
          keys.map((k) => k.write.tenantId),
          keys.map((k) => k.write.kind),
          keys.map((k) => k.key.name),
          keys.map((k) => k.key.value),
          keys.map((k) => k.seq),
        ],
      );
    }
    const parentSeqs = await this.parentSeqs(written);
    const parents: { parentSeq: number; kind: string; seq: number }[] = [];
    for (const { seq, write } of written) {
      for (const parent of write.parents ?? []) {
        const parentSeq = existingBefore(parentSeqs.get(refKey(write.tenantId, parent)), seq);
        if (parentSeq !== undefined) parents.push({ parentSeq, kind: write.kind, seq });
      }
    }
    if (parents.length > 0) {
      await this.connection.query(
        `INSERT INTO record_parents (parent_seq, kind, seq)
         SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[]) ON CONFLICT DO NOTHING`,
        [parents.map((p) => p.parentSeq), parents.map((p) => p.kind), parents.map((p) => p.seq)],
      );
    }
    await this.writeContributions(written, parentSeqs);
  }

  /**
   * Inserts the identifiers; one already taken (by another record, or twice in one
   * batch) rejects with DuplicateIdentifierError naming the first such, as SQLite does.
   * ON CONFLICT DO NOTHING waits for a concurrent transaction inserting the same one,
   * then skips it if that one commits: the statement never fails, the missing rows tell.
   */
  private async writeIdentifiers(written: readonly Written[]): Promise<void> {
    const rows = written.flatMap(({ seq, write }) =>
      [...new Set(write.identifiers)].map((identifier) => ({ seq, write, identifier })),
    );
    if (rows.length === 0) return;
    let inserted: { n: string }[];
    try {
      inserted = (
        await this.connection.query<{ n: string }>(
          `WITH w AS (
             SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::bigint[])
               WITH ORDINALITY AS w(tenant_id, kind, identifier, seq, n)
           ), ins AS (
             INSERT INTO identifiers (tenant_id, kind, identifier, seq)
             SELECT tenant_id, kind, identifier, seq FROM w ORDER BY n
             ON CONFLICT DO NOTHING RETURNING tenant_id, kind, identifier, seq
           )
           SELECT w.n FROM w JOIN ins USING (tenant_id, kind, identifier, seq)`,
          [
            rows.map((r) => r.write.tenantId),
            rows.map((r) => r.write.kind),
            rows.map((r) => r.identifier),
            rows.map((r) => r.seq),
          ],
        )
      ).rows;
    } catch (error) {
      if (errorCode(error) === '23505') {
        throw new DuplicateIdentifierError(rows[0]?.identifier ?? '');
      }
      throw error;
    }
    if (inserted.length === rows.length) return;
    const done = new Set(inserted.map((row) => Number(row.n)));
    const first = rows.findIndex((_, i) => !done.has(i + 1));
    throw new DuplicateIdentifierError(rows[first]?.identifier ?? '');
  }

  /** The seqs of every parent and contribution parent of the records, in one look-up. */
  private async parentSeqs(written: readonly Written[]): Promise<Map<string, number>> {
    const wanted = new Map<string, { tenantId: number; ref: ParentRef }>();
    for (const { write } of written) {
      for (const ref of [
        ...(write.parents ?? []),
        ...(write.contributions ?? []).map((c) => c.parent),
      ]) {
        wanted.set(refKey(write.tenantId, ref), { tenantId: write.tenantId, ref });
      }
    }
    const seqs = new Map<string, number>();
    if (wanted.size === 0) return seqs;
    const list = [...wanted.values()];
    const { rows } = await this.connection.query<{
      tenant_id: number;
      kind: string;
      id: string;
      seq: string;
    }>(
      `SELECT r.tenant_id, r.kind, r.id, r.seq FROM records r
       JOIN unnest($1::integer[], $2::text[], $3::text[]) AS w(tenant_id, kind, id)
         ON r.kind = w.kind AND r.id = w.id AND r.tenant_id = w.tenant_id`,
      [list.map((w) => w.tenantId), list.map((w) => w.ref.kind), list.map((w) => w.ref.id)],
    );
    for (const row of rows) seqs.set(refKey(row.tenant_id, row), Number(row.seq));
    return seqs;
  }

  /**
   * Inserts contributions, the same (parent, name) twice in one write summed first as
   * the key allows one row; contributions to records that do not exist are skipped.
   */
  private async writeContributions(
    written: readonly Written[],
    parentSeqs: ReadonlyMap<string, number>,
  ): Promise<void> {
    const rows: { seq: number; parentSeq: number; name: string; value: number }[] = [];
    for (const { seq, write } of written) {
      if (!write.contributions?.length) continue;
      const sums = contributionSums(write.contributions, (parent) =>
        existingBefore(parentSeqs.get(refKey(write.tenantId, parent)), seq),
      );
      for (const [parentSeq, byName] of sums) {
        for (const [name, value] of byName) rows.push({ seq, parentSeq, name, value });
      }
    }
    if (rows.length === 0) return;
    await this.connection.query(
      `INSERT INTO record_contributions (seq, parent_seq, name, value)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[])`,
      [
        rows.map((r) => r.seq),
        rows.map((r) => r.parentSeq),
        rows.map((r) => r.name),
        rows.map((r) => r.value),
      ],
    );
  }

  /**
   * See {@link RecordStore.get}. Inside a transaction the row stays locked until it
   * ends: shared (readers of a hot row, a petition or a tag, never wait for each other;
   * a writer waits for them), or exclusive `forUpdate`. A record the transaction wrote
   * is answered from its held writes, as written.
   */
  async get(
    tenantId: number,
    kind: string,
    id: string,
    options: ReadOptions = {},
  ): Promise<StoredRecord | undefined> {
    const held = this.connection.held();
    const written = held?.latest(tenantId, kind, id);
    if (written) {
      // Rows this transaction wrote are its own: no other one can lock them meanwhile.
      if (written.type === 'delete') return undefined;
      if (!options.forUpdate || written.type === 'insert' || written.record.seq !== 0) {
        return written.record;
      }
    }
    // Read with a look-up of its key (`LookupOptions.read`), and locked shared since.
    const read = options.forUpdate ? undefined : held?.readOf(tenantId, kind, id);
    if (read) return read;
    const lock = !held ? '' : options.forUpdate ? ' FOR UPDATE' : ' FOR SHARE';
    const { rows } = await this.connection.query<RecordRow>(
      `SELECT ${PG_RECORD_COLUMNS} FROM records r WHERE r.kind = $1 AND r.id = $2 AND r.tenant_id = $3${lock}`,
      [kind, id, tenantId],
      { readOnly: true },
    );
    const record = rows[0] ? toRecord(rows[0]) : undefined;
    if (record && held) held.remember(tenantId, record);
    return record;
  }

  /** See {@link RecordStore.findByIdentifier}; what the transaction wrote counts first. */
  async findByIdentifier(
    tenantId: number,
    kind: string,
    identifier: string,
  ): Promise<string | undefined> {
    const held = this.connection.held();
    const { rows } = await this.connection.query<{ id: string; seq: string }>(
      `SELECT r.id, r.seq FROM identifiers i JOIN records r ON r.seq = i.seq
       WHERE i.tenant_id = $1 AND i.kind = $2 AND i.identifier = $3`,
      [tenantId, kind, identifier],
      { readOnly: true },
    );
    if (!held) return rows[0]?.id;
    const matches = (write: RecordWrite) => write.identifiers.includes(identifier);
    return merged(held, tenantId, kind, rows, matches)[0]?.id;
  }

  /** See {@link RecordStore.findByKey}; what the transaction wrote counts too. */
  async findByKey(
    tenantId: number,
    kind: string,
    name: string,
    value: string,
    options: LookupOptions = {},
  ): Promise<string[]> {
    const held = this.connection.held();
    if (options.forInsert) await lockLookup(this.connection, ['key', tenantId, kind, name, value]);
    // With `read`, the records come with the look-up, locked as `get` locks them: the
    // caller's `get` of them is answered from the transaction (a statement less).
    const read = held !== undefined && options.read === true;
    const { rows } = await this.connection.query<Found & Partial<RecordRow>>(
      `SELECT ${read ? PG_RECORD_COLUMNS : 'r.id, r.seq'} FROM record_keys k JOIN records r ON r.seq = k.seq
       WHERE k.tenant_id = $1 AND k.kind = $2 AND k.name = $3 AND k.value = $4 ORDER BY k.seq${read ? ' FOR SHARE OF r' : ''}`,
      [tenantId, kind, name, value],
      { readOnly: true },
    );
    if (!held) return rows.map((row) => row.id);
    if (read) {
      for (const row of rows) {
        const record = toRecord(row as RecordRow);
        held.remember(tenantId, record);
        if (!held.latest(tenantId, kind, record.id)) held.keepRead(tenantId, record);
      }
    }
    const matches = (write: RecordWrite) =>
      (write.keys ?? []).some((key) => key.name === name && key.value === value);
    return merged(held, tenantId, kind, rows, matches).map((row) => row.id);
  }

  /**
   * See {@link RecordStore.findByParents}: the first parent's children, probed for the
   * others, in one statement. A parent the transaction created has no children but
   * those it holds: the database is not asked, nor locked.
   */
  async findByParents(
    tenantId: number,
    kind: string,
    parents: readonly ParentRef[],
    options: LookupOptions = {},
  ): Promise<string[]> {
    if (parents.length === 0) return [];
    const held = this.connection.held();
    const matches = (write: RecordWrite) => hasParents(write, parents);
    if (held && parents.some((parent) => held.isNew(tenantId, parent.kind, parent.id))) {
      return merged(held, tenantId, kind, [], matches)
        .reverse()
        .map((row) => row.id);
    }
    if (options.forInsert) {
      // Sorted, so that the same set of parents in any order takes the same lock.
      const sorted = parents.map((p) => `${p.kind}\u001f${p.id}`).sort();
      await lockLookup(this.connection, ['parents', tenantId, kind, ...sorted]);
    }
    const [first, ...others] = parents as [ParentRef, ...ParentRef[]];
    const params: unknown[] = [tenantId, kind, first.kind, first.id];
    const probes = others
      .map((parent, n) => {
        params.push(parent.kind, parent.id);
        const i = n + 1;
        return `
         JOIN records q${i} ON q${i}.kind = $${params.length - 1} AND q${i}.id = $${params.length} AND q${i}.tenant_id = $1
         JOIN record_parents p${i} ON p${i}.parent_seq = q${i}.seq AND p${i}.kind = p0.kind AND p${i}.seq = p0.seq`;
      })
      .join('');
    const { rows } = await this.connection.query<{ id: string; seq: string }>(
      `SELECT r.id, r.seq FROM records q0
         JOIN record_parents p0 ON p0.parent_seq = q0.seq AND p0.kind = $2${probes}
         JOIN records r ON r.seq = p0.seq
       WHERE q0.kind = $3 AND q0.id = $4 AND q0.tenant_id = $1 ORDER BY p0.seq`,
      params,
      { readOnly: true },
    );
    if (!held) return rows.map((row) => row.id).reverse();
    return merged(held, tenantId, kind, rows, matches)
      .reverse()
      .map((row) => row.id);
  }

  /** See {@link RecordStore.tenantOf}. */
  async tenantOf(kind: string, id: string): Promise<Tenant | undefined> {
    const { rows } = await this.connection.query<Tenant>(
      `SELECT t.id, t.name, t.namespace FROM records r JOIN tenants t ON t.id = r.tenant_id
       WHERE r.kind = $1 AND r.id = $2 ORDER BY r.seq LIMIT 1`,
      [kind, id],
    );
    const row = rows[0];
    return row ? { id: row.id, name: row.name, namespace: row.namespace } : undefined;
  }

  /** See {@link RecordStore.totalsOf}: sums of the contributions, exact (integers in 1/10000). */
  async totalsOf(
    tenantId: number,
    kind: string,
    ids: readonly string[],
  ): Promise<Map<string, Record<string, number>>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.connection.query<{ id: string; name: string; value: string }>(
      `SELECT r.id, c.name, sum(c.value)::text AS value
       FROM records r JOIN record_contributions c ON c.parent_seq = r.seq
       WHERE r.tenant_id = $1 AND r.kind = $2 AND r.id = ANY($3::text[])
       GROUP BY r.seq, r.id, c.name ORDER BY r.seq, c.name COLLATE "C"`,
      [tenantId, kind, [...ids]],
    );
    return totalsById(rows);
  }

  /**
   * See {@link RecordStore.childrenOf}; what the transaction wrote counts too. A parent
   * it created has no children but those it holds.
   */
  async childrenOf(tenantId: number, parent: ParentRef): Promise<ChildRef[]> {
    const held = this.connection.held();
    const refers = (write: RecordWrite) => hasParents(write, [parent]);
    if (held?.isNew(tenantId, parent.kind, parent.id)) {
      return mergedAnyKind(held, tenantId, [], refers);
    }
    const { rows } = await this.connection.query<ChildRef & { seq: string }>(
      `SELECT r.kind, r.id, r.seq FROM records q JOIN record_parents p ON p.parent_seq = q.seq
       JOIN records r ON r.seq = p.seq
       WHERE q.kind = $1 AND q.id = $2 AND q.tenant_id = $3 ORDER BY p.seq`,
      [parent.kind, parent.id, tenantId],
      { readOnly: true },
    );
    if (!held) return rows.map((row) => ({ kind: row.kind, id: row.id }));
    return mergedAnyKind(held, tenantId, rows, refers);
  }
}

/** A record found by a look-up: its id and, when known, its seq (its age). */
interface Found {
  id: string;
  seq: string | number;
}

/**
 * A look-up's rows from the database, corrected by what the transaction wrote: records
 * it wrote count when their latest write `matches`, whatever the database held before,
 * and records it deleted do not count. Oldest first (those it inserted are the newest).
 */
function merged(
  held: WriteBuffer,
  tenantId: number,
  kind: string,
  rows: readonly Found[],
  matches: (write: RecordWrite) => boolean,
): Found[] {
  const out = rows.filter((row) => !held.latest(tenantId, kind, row.id));
  const position = new Map<string, number>();
  held.records().forEach((written, index) => {
    if (written.type === 'delete') return;
    const { write, record } = written;
    if (write.tenantId !== tenantId || write.kind !== kind || !matches(write)) return;
    out.push({ id: write.id, seq: record.seq });
    position.set(write.id, index);
  });
  // Unsent inserts have seq 0: after every record the database holds, in their order.
  const age = (found: Found) => Number(found.seq) || Number.MAX_SAFE_INTEGER;
  return out.sort(
    (a, b) => age(a) - age(b) || (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0),
  );
}

/** {@link merged} over records of every kind: children of a parent. */
function mergedAnyKind(
  held: WriteBuffer,
  tenantId: number,
  rows: readonly (ChildRef & { seq: string })[],
  matches: (write: RecordWrite) => boolean,
): ChildRef[] {
  const kinds = new Set([
    ...rows.map((row) => row.kind),
    ...held
      .records()
      .flatMap((written) =>
        written.type === 'delete'
          ? []
          : written.write.tenantId === tenantId
            ? [written.write.kind]
            : [],
      ),
  ]);
  const all: (ChildRef & { seq: number; order: number })[] = [];
  let order = 0;
  for (const kind of kinds) {
    for (const found of merged(
      held,
      tenantId,
      kind,
      rows.filter((row) => row.kind === kind),
      matches,
    )) {
      all.push({
        kind,
        id: found.id,
        seq: Number(found.seq) || Number.MAX_SAFE_INTEGER,
        order: order++,
      });
    }
  }
  return all
    .sort((a, b) => a.seq - b.seq || a.order - b.order)
    .map(({ kind, id }) => ({ kind, id }));
}

/**
 * `parentSeq` if that record existed when the record `seq` was written (itself
 * included): in a batch, SQLite writes records one at a time, so a record refers only
 * to those before it; seqs ascend with the batch, so a later one has a greater seq.
 */
function existingBefore(parentSeq: number | undefined, seq: number): number | undefined {
  return parentSeq !== undefined && parentSeq <= seq ? parentSeq : undefined;
}

/** A map key of a record reference within a tenant. */
function refKey(tenantId: number, ref: ParentRef): string {
  return `${tenantId}\u0000${ref.kind}\u0000${ref.id}`;
}
