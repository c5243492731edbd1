/**
 * `adis-export --resume`: what an unfinished export's checkpoint settles, and the refusal to overwrite one.
 */
import { stat } from 'node:fs/promises';
import type { Checkpoint } from '../export/checkpoint.js';
import { type Column, parseColumn } from '../export/columns.js';
import { EXPORTABLE_COLLECTIONS, type ExportableKind, exportableKind } from '../export/kinds.js';
import { isHttpUrl } from '../wire/http-url.js';
import { type ExportRequest, UsageError } from './export-arguments.js';

/** The export's settings: from the command line, or from the checkpoint when resuming. */
export interface Settings {
  url: string;
  kind: ExportableKind;
  filter: string | undefined;
  format: 'ndjson' | 'csv';
  columns: Column[] | undefined;
  /** How to talk to the server: given now, else what the resumed run used. */
  server: string | undefined;
  keyHeader: string | undefined;
  rate: number | undefined;
}

/**
 * What a run uses: the request's own settings, or (with `--resume`) the checkpoint's,
 * refusing an option that contradicts the export being resumed (a UsageError naming it).
 */
export function settle(
  request: ExportRequest,
  resumed: Checkpoint | undefined,
  outputPath: string | undefined,
): Settings {
  if (resumed) {
    // A resume continues the same export: options may be repeated, not changed, or the
    // file would hold two exports' records under one header.
    const differ = (name: string, given: unknown, kept: unknown) => {
      if (given !== undefined && JSON.stringify(given) !== JSON.stringify(kept)) {
        // As typed: a list as its comma-separated option, an option the export began
        // without as such (not `was undefined`).
        const typed = (value: unknown) =>
          JSON.stringify(Array.isArray(value) ? value.join(',') : value);
        const began = kept === undefined ? 'not given (so its default)' : typed(kept);
        throw new UsageError(
          `--resume continues the export as it began: ${name} was ${began}, not ${typed(given)} (use --force to start over)`,
        );
      }
    };
    differ('the URL', request.url, resumed.entryPoint);
    differ(
      'the collection',
      request.collection && exportableKind(request.collection)?.plural,
      resumed.collection,
    );
    differ('the filter', request.filter, resumed.filter ?? undefined);
    differ('--format', request.format, resumed.format);
    differ('--columns', request.columns, resumed.columns ?? undefined);
  }
  const url = resumed?.entryPoint ?? request.url;
  if (url === undefined) throw new UsageError('--url (or ADIS_URL) is needed: the API entry point');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `--url must be an absolute http(s) URL like https://api.example.org/api/v1/, got ${JSON.stringify(url)}`,
    );
  }
  if (!isHttpUrl(parsed)) {
    throw new UsageError(`--url must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  const name = resumed?.collection ?? request.collection ?? 'people';
  const kind = exportableKind(name);
  if (!kind) {
    throw new UsageError(
      `unknown collection ${JSON.stringify(name)}; one of: ${EXPORTABLE_COLLECTIONS.join(', ')}`,
    );
  }
  const format =
    resumed?.format ??
    request.format ??
    (outputPath?.toLowerCase().endsWith('.csv') ? 'csv' : 'ndjson');
  const columnNames = resumed?.columns ?? request.columns;
  if (columnNames !== undefined && format !== 'csv') {
    throw new UsageError('--columns is for CSV; NDJSON keeps every member');
  }
  return {
    url,
    kind,
    filter: resumed ? (resumed.filter ?? undefined) : request.filter,
    format,
    columns: columnNames?.map(parseColumn),
    // How the export talks to the server, unlike what it exports, may change on a resume
    // (a slower --rate after 429s, say); what is not given again is what it used.
    server: request.server ?? resumed?.server ?? undefined,
    keyHeader: request.keyHeader ?? resumed?.keyHeader ?? undefined,
    rate: request.rate ?? resumed?.rate ?? undefined,
  };
}

/**
 * Refuses to write over an earlier export, finished or not (a UsageError saying how
 * to resume or replace it).
 */
export async function refuseToOverwrite(path: string, unfinished: boolean): Promise<void> {
  if (unfinished) {
    throw new UsageError(
      `${path} holds an unfinished export: add --resume to continue it, or --force to start over`,
    );
  }
  const exists = await stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  if (exists) {
    throw new UsageError(`${path} exists: choose another --output, or add --force to overwrite it`);
  }
}
