/**
 * The rows of the `records` table as PostgreSQL returns them, and their decoding into
 * stored records: shared by the record look-ups (records.ts) and collection pages
 * (collections.ts).
 */
import { recordFromJson } from '../doc-json.js';
import type { StoredRecord } from '../records-store.js';

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
