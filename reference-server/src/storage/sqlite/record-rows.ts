/**
 * The rows of the `records` table as SQLite reads them, and their decoding into stored
 * records: shared by the record look-ups (records.ts) and collection pages
 * (collections.ts).
 */
import { recordFromJson } from '../doc-json.js';
import type { StoredRecord } from '../records-store.js';

/**
 * A row of RECORD_COLUMNS, read as an array (`raw`): better-sqlite3 builds an array per
 * row faster than an object, which counts on a page of a hundred.
 */
export type RecordRow = [
  seq: number,
  kind: string,
  id: string,
  /** The stored JSON's UTF-8 bytes (see RECORD_COLUMNS). */
  doc: Buffer,
  created_date: string,
  modified_date: string,
];

/**
 * The columns of a {@link RecordRow}, records joined as `r`. The document is read as
 * its bytes (a BLOB cast of the UTF-8 text, no conversion): a page is answered by
 * splicing them, which spares decoding each document to a string and encoding the whole
 * answer back to UTF-8 (see doc-json.ts).
 */
export const RECORD_COLUMNS =
  'r.seq, r.kind, r.id, CAST(r.doc AS BLOB) AS doc, r.created_date, r.modified_date';

/**
 * A {@link RecordRow} as a stored record. The document stays JSON until read: a page
 * renders it spliced (see doc-json.ts).
 */
export function toRecord([
  seq,
  kind,
  id,
  doc,
  created_date,
  modified_date,
]: RecordRow): StoredRecord {
  return recordFromJson({ seq, kind, id, created_date, modified_date }, doc);
}
