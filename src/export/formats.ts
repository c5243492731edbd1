/**
 * Output formats of an export: how one record becomes text.
 *
 * NDJSON keeps everything the server sent (unknown members included, as the SDK reads
 * liberally) except `_embedded`, which holds copies of other records; `_links` stays,
 * so each line still says where the record and its relations live. CSV (RFC 4180,
 * CRLF line ends, a header row) flattens a record into the chosen columns.
 */
import { type Column, columnValue, URL_COLUMN } from './columns.js';

/**
 * A record as the exporter sees it: its URL (undefined for a record without an address
 * of its own: the CSV `url` cell is then empty) and the document the server sent.
 */
export interface ExportRecord {
  readonly url: string | undefined;
  readonly body: Readonly<Record<string, unknown>>;
}

/** Turns records into text. */
export interface RecordFormat {
  readonly name: 'ndjson' | 'csv';
  /** Text written once at the start of a new output (the CSV header row). */
  header(): string;
  /** One record's text, line end included. */
  encode(record: ExportRecord): string;
}

/**
 * Newline-delimited JSON: one record per line.
 *
 * @example
 * ```ts
 * import { ndjsonFormat } from './formats.js';
 *
 * const url = 'https://api.example.org/api/v1/people/1';
 * ndjsonFormat().encode({ url, body: { given_name: 'Ana' } }); // '{"given_name":"Ana"}\n'
 * ```
 */
export function ndjsonFormat(): RecordFormat {
  return {
    name: 'ndjson',
    header: () => '',
    encode: ({ url, body }) => {
      // Most records embed nothing: then the body is written as it is, without the copy
      // that leaving `_embedded` out takes (same members, same order, same text).
      let record: Readonly<Record<string, unknown>> = body;
      if (Object.hasOwn(body, '_embedded')) {
        const { _embedded: _ignored, ...rest } = body;
        record = rest;
      }
      // JSON.stringify escapes U+2028/2029 and newlines, so a record is always one line.
      return `${recordJson(record, url)}\n`;
    },
  };
}

/**
 * CSV with the given columns, a header row first.
 *
 * @example
 * ```ts
 * import { parseColumn } from './columns.js';
 * import { csvFormat } from './formats.js';
 *
 * const csv = csvFormat([parseColumn('url'), parseColumn('given_name')]);
 * csv.header(); // 'url,given_name\r\n'
 * ```
 */
export function csvFormat(columns: readonly Column[]): RecordFormat {
  const isUrl = columns.map((column) => column.header === URL_COLUMN);
  return {
    name: 'csv',
    header: () => csvRow(columns.map((column) => column.header)),
    // One string built cell by cell: this runs for every record, and arrays of cells
    // joined cost a third more.
    encode: ({ url, body }) => {
      let row = '';
      for (let i = 0; i < columns.length; i += 1) {
        const text = isUrl[i]
          ? (url ?? '')
          : cellText(columnValue(columns[i] as Column, body), url);
        row += i === 0 ? csvCell(text) : `,${csvCell(text)}`;
      }
      return `${row}\r\n`;
    },
  };
}

/** A value as cell text: scalars as they are, arrays and objects as JSON, none as empty. */
function cellText(value: unknown, url: string | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return recordJson(value, url);
}

// JSON.parse reads any depth but JSON.stringify overflows the stack on a few thousand
// levels: a record a server nested that deep stops the export with a message naming it,
// rather than with "Maximum call stack size exceeded".
function recordJson(value: unknown, url: string | undefined): string {
  try {
    return JSON.stringify(value);
  } catch {
    const which = url ?? 'without a self link';
    throw new Error(`cannot write the record ${which}: it is nested too deeply to write as JSON`);
  }
}

function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
// Leading or trailing white space (as `\s` has it) is quoted too, so that no reader
// trims it away.
const SPECIAL = /[",\r\n]/;
const SPACE = /\s/;

function csvCell(text: string): string {
  if (text === '') return text;
  const quoted =
    SPECIAL.test(text) || isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1));
  return quoted ? `"${text.replaceAll('"', '""')}"` : text;
}

// `\s` for one UTF-16 code unit, without a regular expression for the common ones.
function isSpace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return code >= 0xa0 && SPACE.test(String.fromCharCode(code));
}
