/**
 * Records and their lookups on SQLite: the `records` table and its side tables, written
 * with every record (`identifiers`, `record_keys`, `record_parents`,
 * `record_contributions`, whose triggers keep `record_totals`), and the look-ups over
 * them (by identifier, key, parents; totals; children). Pages of a collection are
 * collections.ts.
 */
import { contributionSums, totalsById } from '../contribution-units.js';
import {
  type ChildRef,
  type CollectionScope,
  DuplicateIdentifierError,
  type PageQuery,
  type ParentRef,
  type RecordWrite,
  type StoredRecord,
  type Tenant,
} from '../storage.js';
import { SqliteCollections } from './collections.js';
import type { RepositoryConnection } from './connection.js';
import { RECORD_COLUMNS, type RecordRow, toRecord } from './record-rows.js';
import type { TenantRow } from './tenants.js';

/**
 * The records of a {@link SqliteStorage}: writes with their side tables, and look-ups.
 */
export class SqliteRecords {
  /** Pages of collections (collections.ts). */
  private readonly collections: SqliteCollections;

  constructor(private readonly connection: RepositoryConnection) {
    this.collections = new SqliteCollections(connection, (tenantId, kind, id) =>
      this.seqOf(tenantId, kind, id),
    );
  }

  /** See {@link RecordStore.count}. */
  count(scope: CollectionScope): number {
    return this.collections.count(scope);
  }

  /** See {@link RecordStore.list}. */
  list(query: PageQuery): StoredRecord[] {
    return this.collections.list(query);
  }

  /** See {@link RecordStore.hasAfter}. */
  hasAfter(scope: CollectionScope, seq: number): boolean {
    return this.collections.hasAfter(scope, seq);
  }

  /** The seq of a record, the key every side table refers to it by. */
  seqOf(tenantId: number, kind: string, id: string): number | undefined {
    const row = this.connection
      .statement('SELECT seq FROM records WHERE tenant_id = ? AND kind = ? AND id = ?')
      .get(tenantId, kind, id) as { seq: number } | undefined;
    return row?.seq;
  }

  /** See {@link RecordStore.insert}. */
  insert(write: RecordWrite): StoredRecord {
    return this.connection.transaction(() => this.insertOne(write));
  }

  /** See {@link RecordStore.insertMany}. */
  insertMany(writes: Iterable<RecordWrite>): number {
    // One transaction, no savepoint per record: a million rows load in seconds.
    return this.connection.transaction(() => {
      let count = 0;
      for (const write of writes) {
        this.insertOne(write);
        count++;
      }
      return count;
    });
  }

  private insertOne(write: RecordWrite): StoredRecord {
    const info = this.connection
      .statement(
        'INSERT INTO records (tenant_id, kind, id, doc, created_date, modified_date) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        write.tenantId,
        write.kind,
        write.id,
        JSON.stringify(write.doc),
        write.created_date,
        write.modified_date,
      );
    const seq = Number(info.lastInsertRowid);
    this.writeSideTables(seq, write);
    return {
      seq,
      kind: write.kind,
      id: write.id,
      doc: write.doc,
      created_date: write.created_date,
      modified_date: write.modified_date,
    };
  }

  /** See {@link RecordStore.update}. */
  update(write: RecordWrite): StoredRecord | undefined {
    return this.connection.transaction(() => {
      const seq = this.seqOf(write.tenantId, write.kind, write.id);
      if (seq === undefined) return undefined;
      const connection = this.connection;
      connection
        .statement('UPDATE records SET doc = ?, modified_date = ? WHERE seq = ?')
        .run(JSON.stringify(write.doc), write.modified_date, seq);
      connection.statement('DELETE FROM identifiers WHERE seq = ?').run(seq);
      connection.statement('DELETE FROM record_keys WHERE seq = ?').run(seq);
      connection.statement('DELETE FROM record_parents WHERE seq = ?').run(seq);
      // Row by row through the delete trigger, which takes the old values off the totals.
      connection.statement('DELETE FROM record_contributions WHERE seq = ?').run(seq);
      this.writeSideTables(seq, write);
      const created = connection
        .statement('SELECT created_date FROM records WHERE seq = ?')
        .get(seq) as {
        created_date: string;
      };
      return {
        seq,
        kind: write.kind,
        id: write.id,
        doc: write.doc,
        created_date: created.created_date,
        modified_date: write.modified_date,
      };
    });
  }

  /** See {@link RecordStore.delete}. */
  delete(tenantId: number, kind: string, id: string): boolean {
    return this.connection.transaction(() => {
      const seq = this.seqOf(tenantId, kind, id);
      if (seq === undefined) return false;
      // Contributions go first and explicitly, so their delete trigger takes them off the
      // totals; the other side tables go with the record through ON DELETE CASCADE.
      this.connection.statement('DELETE FROM record_contributions WHERE seq = ?').run(seq);
      return this.connection.statement('DELETE FROM records WHERE seq = ?').run(seq).changes > 0;
    });
  }

  /** Writes the side tables of a record (identifiers, keys, parents, contributions). */
  private writeSideTables(seq: number, write: RecordWrite): void {
    const addIdentifier = this.connection.statement(
      'INSERT INTO identifiers (tenant_id, kind, identifier, seq) VALUES (?, ?, ?, ?)',
    );
    for (const identifier of new Set(write.identifiers)) {
      try {
        addIdentifier.run(write.tenantId, write.kind, identifier, seq);
      } catch (error) {
        if (isConstraintError(error)) throw new DuplicateIdentifierError(identifier, write.kind);
        throw error;
      }
    }
    const addKey = this.connection.statement(
      'INSERT OR IGNORE INTO record_keys (tenant_id, kind, name, value, seq) VALUES (?, ?, ?, ?, ?)',
    );
    for (const key of write.keys ?? [])
      addKey.run(write.tenantId, write.kind, key.name, key.value, seq);
    const addParent = this.connection.statement(
      'INSERT OR IGNORE INTO record_parents (parent_seq, kind, seq) VALUES (?, ?, ?)',
    );
    // The seqs of the parents, looked up once: contributions go mostly to them (a
    // signature's petition is both), so writeContributions reuses them.
    const parentSeqs = new Map<string, number | undefined>();
    for (const parent of write.parents ?? []) {
      const parentSeq = this.seqOf(write.tenantId, parent.kind, parent.id);
      parentSeqs.set(`${parent.kind}\u0000${parent.id}`, parentSeq);
      if (parentSeq !== undefined) addParent.run(parentSeq, write.kind, seq);
    }
    this.writeContributions(seq, write, parentSeqs);
  }

  /**
   * Inserts a record's contributions; the triggers add them to the totals. The same
   * (parent, name) twice in one write is summed first, as the key allows one row.
   */
  private writeContributions(
    seq: number,
    write: RecordWrite,
    parentSeqs = new Map<string, number | undefined>(),
  ): void {
    if (!write.contributions?.length) return;
    const sums = contributionSums(write.contributions, (parent) => {
      const parentKey = `${parent.kind}\u0000${parent.id}`;
      if (!parentSeqs.has(parentKey)) {
        parentSeqs.set(parentKey, this.seqOf(write.tenantId, parent.kind, parent.id));
      }
      return parentSeqs.get(parentKey);
    });
    const addContribution = this.connection.statement(
      'INSERT INTO record_contributions (seq, parent_seq, name, value) VALUES (?, ?, ?, ?)',
    );
    for (const [parentSeq, byName] of sums) {
      for (const [name, value] of byName) addContribution.run(seq, parentSeq, name, value);
    }
  }

  /** See {@link RecordStore.get}. */
  get(tenantId: number, kind: string, id: string): StoredRecord | undefined {
    const row = this.connection
      .statement(
        `SELECT ${RECORD_COLUMNS} FROM records r WHERE r.tenant_id = ? AND r.kind = ? AND r.id = ?`,
      )
      .raw()
      .get(tenantId, kind, id) as RecordRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** See {@link RecordStore.findByIdentifier}. */
  findByIdentifier(tenantId: number, kind: string, identifier: string): string | undefined {
    const row = this.connection
      .statement(
        `SELECT r.id FROM identifiers i JOIN records r ON r.seq = i.seq
       WHERE i.tenant_id = ? AND i.kind = ? AND i.identifier = ?`,
      )
      .get(tenantId, kind, identifier) as { id: string } | undefined;
    return row?.id;
  }

  /** See {@link RecordStore.findByKey}. */
  findByKey(tenantId: number, kind: string, name: string, value: string): string[] {
    const rows = this.connection
      .statement(
        `SELECT r.id FROM record_keys k JOIN records r ON r.seq = k.seq
       WHERE k.tenant_id = ? AND k.kind = ? AND k.name = ? AND k.value = ? ORDER BY k.seq`,
      )
      .all(tenantId, kind, name, value) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /**
   * The records of `kind` listed under every one of `parents`, newest first. One seek on
   * record_parents' primary key (parent_seq, kind, seq) for the first parent's children,
   * then one probe of the same key per child and further parent: the cost follows the
   * first parent's children of that kind (a person's few signatures), not the others'
   * (a petition's many). No index of its own is needed.
   */
  findByParents(tenantId: number, kind: string, parents: readonly ParentRef[]): string[] {
    if (parents.length === 0) return [];
    const seqs: number[] = [];
    for (const parent of parents) {
      const seq = this.seqOf(tenantId, parent.kind, parent.id);
      if (seq === undefined) return [];
      seqs.push(seq);
    }
    // One statement per number of parents (the code's callers give one or two).
    const also = seqs
      .slice(1)
      .map(
        (_, i) =>
          ` AND EXISTS (SELECT 1 FROM record_parents p${i + 1} WHERE p${i + 1}.parent_seq = ? AND p${i + 1}.kind = p0.kind AND p${i + 1}.seq = p0.seq)`,
      )
      .join('');
    const rows = this.connection
      .statement(
        `SELECT r.id FROM record_parents p0 JOIN records r ON r.seq = p0.seq
       WHERE p0.parent_seq = ? AND p0.kind = ?${also} ORDER BY p0.seq DESC`,
      )
      .all(seqs[0], kind, ...seqs.slice(1)) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /** See {@link RecordStore.tenantOf}. */
  tenantOf(kind: string, id: string): Tenant | undefined {
    // LIMIT 1: ids are UUIDs minted by the server, so two tenants never share one; a
    // database loaded by hand with colliding ids still answers instead of throwing.
    const row = this.connection
      .statement(
        `SELECT t.id, t.name, t.namespace FROM records r JOIN tenants t ON t.id = r.tenant_id
       WHERE r.kind = ? AND r.id = ? ORDER BY r.seq LIMIT 1`,
      )
      .get(kind, id) as TenantRow | undefined;
    return row ? { id: row.id, name: row.name, namespace: row.namespace } : undefined;
  }

  /** See {@link RecordStore.totalsOf}. */
  totalsOf(
    tenantId: number,
    kind: string,
    ids: readonly string[],
  ): Map<string, Record<string, number>> {
    if (ids.length === 0) return new Map();
    // The ids travel as one JSON array parameter: one statement for any number of ids,
    // clear of SQLite's limit on bound parameters, each id still found through
    // records_by_id.
    const rows = this.connection
      .statement(
        `SELECT r.id, t.name, t.value FROM records r JOIN record_totals t ON t.parent_seq = r.seq
       WHERE r.tenant_id = ? AND r.kind = ? AND r.id IN (SELECT value FROM json_each(?))`,
      )
      .all(tenantId, kind, JSON.stringify(ids)) as { id: string; name: string; value: number }[];
    return totalsById(rows);
  }

  /** See {@link RecordStore.childrenOf}. */
  childrenOf(tenantId: number, parent: ParentRef): ChildRef[] {
    const parentSeq = this.seqOf(tenantId, parent.kind, parent.id);
    if (parentSeq === undefined) return [];
    return this.connection
      .statement(
        `SELECT r.kind, r.id FROM record_parents p JOIN records r ON r.seq = p.seq
       WHERE p.parent_seq = ? ORDER BY p.seq`,
      )
      .all(parentSeq) as ChildRef[];
  }
}

function isConstraintError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('SQLITE_CONSTRAINT')
  );
}
