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
import { recordFromJson } from '../doc-json.js';
import {
  type ChildRef,
  DuplicateIdentifierError,
  type LookupOptions,
  type ParentRef,
  type ReadOptions,
  type RecordWrite,
  type StoredRecord,
  type Tenant,
} from '../storage.js';
import type { PostgresConnection } from './connection.js';
import { errorCode } from './errors.js';
import { lockLookup } from './lookup-lock.js';

/** Records written per batch of {@link PostgresRecords.insertMany}. */
const INSERT_BATCH = 500;

/** The columns of a {@link RecordRow}, records as `r`. */
export const PG_RECORD_COLUMNS = 'r.seq, r.kind, r.id, r.doc, r.created_date, r.modified_date';

/** A row of {@link PG_RECORD_COLUMNS} (bigint seq arrives as text). */
export interface RecordRow {
  seq: string;
  kind: string;
  id: string;
  doc: string;
  created_date: string;
  modified_date: string;
}

/**
 * A {@link RecordRow} as a stored record, its document parsed when first read.
 *
 * @example
 * ```ts
 * const { rows } = await connection.query<RecordRow>(`SELECT ${PG_RECORD_COLUMNS} FROM records r`);
 * rows.map(toRecord);
 * ```
 */
export function toRecord(row: RecordRow): StoredRecord {
  return recordFromJson(
    {
      seq: Number(row.seq),
      kind: row.kind,
      id: row.id,
      created_date: row.created_date,
      modified_date: row.modified_date,
    },
    Buffer.from(row.doc, 'utf8'),
  );
}

/** A record being written and the seq it got. */
interface Written {
  seq: number;
  write: RecordWrite;
}

/**
 * The records of a {@link PostgresStorage}: writes with their side tables, and look-ups.
 *
 * @example
 * ```ts
 * const records = new PostgresRecords(connection);
 * await records.insert({ tenantId: 1, kind: 'petition', id: 'p1', doc: {}, identifiers: [],
 *   created_date: now, modified_date: now });
 * (await records.get(1, 'petition', 'p1'))?.seq; // 1
 * ```
 */
export class PostgresRecords {
  constructor(private readonly connection: PostgresConnection) {}

  /** The seq of a record, the key every side table refers to it by. */
  async seqOf(tenantId: number, kind: string, id: string): Promise<number | undefined> {
    const { rows } = await this.connection.query<{ seq: string }>(
      'SELECT seq FROM records WHERE kind = $1 AND id = $2 AND tenant_id = $3',
      [kind, id, tenantId],
    );
    return rows[0] ? Number(rows[0].seq) : undefined;
  }

  /** See {@link Storage.insertRecord}. */
  insert(write: RecordWrite): Promise<StoredRecord> {
    return this.connection.transaction(async () => {
      const [written] = await this.insertBatch([write]);
      if (!written) throw new Error('insert returned no row');
      return storedOf(written.seq, write, write.created_date);
    });
  }

  /** See {@link Storage.insertRecords}. */
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

  /** See {@link Storage.updateRecord}. */
  update(write: RecordWrite): Promise<StoredRecord | undefined> {
    return this.connection.transaction(async () => {
      const { rows } = await this.connection.query<{ seq: string; created_date: string }>(
        `UPDATE records SET doc = $4, modified_date = $5 WHERE kind = $1 AND id = $2 AND tenant_id = $3
         RETURNING seq, created_date`,
        [write.kind, write.id, write.tenantId, JSON.stringify(write.doc), write.modified_date],
      );
      const row = rows[0];
      if (!row) return undefined;
      const seq = Number(row.seq);
      await this.connection.query(
        `WITH i AS (DELETE FROM identifiers WHERE seq = $1),
              k AS (DELETE FROM record_keys WHERE seq = $1),
              p AS (DELETE FROM record_parents WHERE seq = $1)
         DELETE FROM record_contributions WHERE seq = $1`,
        [seq],
      );
      await this.writeSideTables([{ seq, write }]);
      return storedOf(seq, write, row.created_date);
    });
  }

  /** See {@link Storage.deleteRecord}. The side tables go with it (ON DELETE CASCADE). */
  async delete(tenantId: number, kind: string, id: string): Promise<boolean> {
    const result = await this.connection.query(
      'DELETE FROM records WHERE kind = $1 AND id = $2 AND tenant_id = $3',
      [kind, id, tenantId],
    );
    return (result.rowCount ?? 0) > 0;
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
   * See {@link Storage.getRecord}. Inside a transaction the row stays locked until it
   * ends: shared (readers of a hot row, a petition or a tag, never wait for each other;
   * a writer waits for them), or exclusive `forUpdate`.
   */
  async get(
    tenantId: number,
    kind: string,
    id: string,
    options: ReadOptions = {},
  ): Promise<StoredRecord | undefined> {
    const lock = !this.connection.inTransaction()
      ? ''
      : options.forUpdate
        ? ' FOR UPDATE'
        : ' FOR SHARE';
    const { rows } = await this.connection.query<RecordRow>(
      `SELECT ${PG_RECORD_COLUMNS} FROM records r WHERE r.kind = $1 AND r.id = $2 AND r.tenant_id = $3${lock}`,
      [kind, id, tenantId],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /** See {@link Storage.findByIdentifier}. */
  async findByIdentifier(
    tenantId: number,
    kind: string,
    identifier: string,
  ): Promise<string | undefined> {
    const { rows } = await this.connection.query<{ id: string }>(
      `SELECT r.id FROM identifiers i JOIN records r ON r.seq = i.seq
       WHERE i.tenant_id = $1 AND i.kind = $2 AND i.identifier = $3`,
      [tenantId, kind, identifier],
    );
    return rows[0]?.id;
  }

  /** See {@link Storage.findByKey}. */
  async findByKey(
    tenantId: number,
    kind: string,
    name: string,
    value: string,
    options: LookupOptions = {},
  ): Promise<string[]> {
    if (options.forInsert) await lockLookup(this.connection, ['key', tenantId, kind, name, value]);
    const { rows } = await this.connection.query<{ id: string }>(
      `SELECT r.id FROM record_keys k JOIN records r ON r.seq = k.seq
       WHERE k.tenant_id = $1 AND k.kind = $2 AND k.name = $3 AND k.value = $4 ORDER BY k.seq`,
      [tenantId, kind, name, value],
    );
    return rows.map((row) => row.id);
  }

  /** See {@link Storage.findByParents}: the first parent's children, probed for the others. */
  async findByParents(
    tenantId: number,
    kind: string,
    parents: readonly ParentRef[],
    options: LookupOptions = {},
  ): Promise<string[]> {
    if (parents.length === 0) return [];
    if (options.forInsert) {
      // Sorted, so that the same set of parents in any order takes the same lock.
      const sorted = parents.map((p) => `${p.kind}\u001f${p.id}`).sort();
      await lockLookup(this.connection, ['parents', tenantId, kind, ...sorted]);
    }
    const seqs: number[] = [];
    for (const parent of parents) {
      const seq = await this.seqOf(tenantId, parent.kind, parent.id);
      if (seq === undefined) return [];
      seqs.push(seq);
    }
    const also = seqs
      .slice(1)
      .map(
        (_, i) =>
          ` AND EXISTS (SELECT 1 FROM record_parents p${i + 1} WHERE p${i + 1}.parent_seq = $${i + 3} AND p${i + 1}.kind = p0.kind AND p${i + 1}.seq = p0.seq)`,
      )
      .join('');
    const { rows } = await this.connection.query<{ id: string }>(
      `SELECT r.id FROM record_parents p0 JOIN records r ON r.seq = p0.seq
       WHERE p0.parent_seq = $1 AND p0.kind = $2${also} ORDER BY p0.seq DESC`,
      [seqs[0], kind, ...seqs.slice(1)],
    );
    return rows.map((row) => row.id);
  }

  /** See {@link Storage.tenantOfRecord}. */
  async tenantOfRecord(kind: string, id: string): Promise<Tenant | undefined> {
    const { rows } = await this.connection.query<Tenant>(
      `SELECT t.id, t.name, t.namespace FROM records r JOIN tenants t ON t.id = r.tenant_id
       WHERE r.kind = $1 AND r.id = $2 ORDER BY r.seq LIMIT 1`,
      [kind, id],
    );
    const row = rows[0];
    return row ? { id: row.id, name: row.name, namespace: row.namespace } : undefined;
  }

  /** See {@link Storage.totalsOf}: sums of the contributions, exact (integers in 1/10000). */
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

  /** See {@link Storage.childrenOf}. */
  async childrenOf(tenantId: number, parent: ParentRef): Promise<ChildRef[]> {
    const parentSeq = await this.seqOf(tenantId, parent.kind, parent.id);
    if (parentSeq === undefined) return [];
    const { rows } = await this.connection.query<ChildRef>(
      `SELECT r.kind, r.id FROM record_parents p JOIN records r ON r.seq = p.seq
       WHERE p.parent_seq = $1 ORDER BY p.seq`,
      [parentSeq],
    );
    return rows.map((row) => ({ kind: row.kind, id: row.id }));
  }
}

/** The stored record of a write. */
function storedOf(seq: number, write: RecordWrite, createdDate: string): StoredRecord {
  return {
    seq,
    kind: write.kind,
    id: write.id,
    doc: write.doc,
    created_date: createdDate,
    modified_date: write.modified_date,
  };
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
