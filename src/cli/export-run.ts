/**
 * `adis-export`'s run: connecting, exporting to stdout or a file, the progress line and the summary.
 */
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type Checkpoint,
  checkpointPath,
  readCheckpoint,
  removeCheckpoint,
  writeCheckpoint,
} from '../export/checkpoint.js';
import { defaultColumns } from '../export/columns.js';
import { csvFormat, ndjsonFormat, type RecordFormat } from '../export/formats.js';
import { createFileOutput, type Output, resumeFileOutput, streamOutput } from '../export/output.js';
import { ProgressBar } from '../export/progress.js';
import { type ExportProgress, runExport } from '../export/run-export.js';
import { type Client, connect } from '../index.js';
import { type ExportRequest, serverPreset, UsageError } from './export-arguments.js';
import { count, interruptedMessage } from './export-failure.js';
import type { CommandIO } from './export-io.js';
import { refuseToOverwrite, settle } from './export-resume.js';
import { namingWaits } from './wait-notice.js';

/**
 * The command's work once the arguments are known to be well formed; resolves with the
 * exit code.
 */
export async function exportWith(request: ExportRequest, io: CommandIO): Promise<number> {
  const outputPath = request.output === undefined ? undefined : resolve(io.cwd, request.output);
  const statePath = outputPath === undefined ? undefined : checkpointPath(outputPath);
  const saved = statePath === undefined ? undefined : await readCheckpoint(statePath);
  if (outputPath !== undefined && !request.resume && !request.force) {
    await refuseToOverwrite(outputPath, saved !== undefined);
  }
  if (request.resume && saved === undefined) {
    throw new UsageError(
      `nothing to resume: ${statePath} does not exist (an export that finished leaves none)`,
    );
  }
  const resumed = request.resume ? saved : undefined;
  const settings = settle(request, resumed, outputPath);

  let bar: ProgressBar | undefined;
  const client = await connect(settings.url, {
    ...(settings.server === undefined ? {} : serverPreset(settings.server)),
    ...(request.key === undefined ? {} : { apiKey: request.key }),
    ...(settings.keyHeader === undefined ? {} : { apiKeyHeader: settings.keyHeader }),
    ...(settings.rate === undefined ? {} : { rateLimit: settings.rate }),
    // Export what the server has, as it has it: one record a strict schema would
    // refuse must not stop a walk of a hundred thousand.
    validate: false,
    ...(io.signal ? { signal: io.signal } : {}),
    fetch: namingWaits((line) => {
      if (request.quiet) return;
      bar?.done(); // redrawn at the next page
      io.stderr.write(line);
    }),
  });
  const startedAt = resumed?.startedAt ?? (await serverClock(client));
  const collection = client.collection(settings.kind);
  const filtered = settings.filter === undefined ? collection : collection.filter(settings.filter);
  const format: RecordFormat =
    settings.format === 'csv'
      ? csvFormat(settings.columns ?? defaultColumns(settings.kind))
      : ndjsonFormat();

  let output: Output;
  if (outputPath === undefined) {
    output = streamOutput(io.stdout);
  } else if (resumed) {
    output = await resumeFileOutput(outputPath, resumed.bytes);
  } else {
    if (request.force && statePath !== undefined) await removeCheckpoint(statePath);
    output = await createFileOutput(outputPath, { overwrite: request.force });
  }

  const label = settings.kind.plural;
  bar = wantsProgress(request, io, outputPath !== undefined)
    ? new ProgressBar(io.stderr, label, resumed?.records ?? 0)
    : undefined;
  const checkpoint = (progress: ExportProgress): Checkpoint => ({
    version: 1,
    entryPoint: settings.url,
    collection: label,
    filter: settings.filter ?? null,
    format: format.name,
    columns: settings.columns?.map((column) => column.header) ?? null,
    server: settings.server ?? null,
    keyHeader: settings.keyHeader ?? null,
    rate: settings.rate ?? null,
    next: progress.next ?? null,
    records: progress.records,
    bytes: progress.bytes,
    startedAt,
  });
  const started = performance.now();
  let last: ExportProgress = {
    records: resumed?.records ?? 0,
    totalRecords: undefined,
    next: resumed?.next ?? undefined,
    bytes: output.bytes,
  };
  try {
    last = await runExport({
      collection: filtered,
      format,
      output,
      ...(resumed ? { resume: { next: resumed.next ?? undefined, records: resumed.records } } : {}),
      ...(request.limit === undefined ? {} : { limit: request.limit }),
      ...(io.signal ? { signal: io.signal } : {}),
      onPage: (progress) => {
        last = progress;
        bar?.update(progress.records, progress.totalRecords);
      },
      ...(statePath === undefined
        ? {}
        : {
            onDurable: (progress: ExportProgress) =>
              writeCheckpoint(statePath, checkpoint(progress)),
          }),
      ...(io.durableEvery ? { durableEvery: io.durableEvery } : {}),
    });
  } catch (error) {
    bar?.done();
    await output.close();
    const resumable = outputPath !== undefined && (resumed !== undefined || last.records > 0);
    if (outputPath !== undefined && !resumable) {
      // Nothing was exported: leave no empty file (and no checkpoint) that the next run
      // would have to be told to --force over.
      await rm(outputPath, { force: true });
      if (statePath !== undefined) await removeCheckpoint(statePath);
    }
    if (io.signal?.aborted) {
      io.stderr.write(interruptedMessage(last, label, resumable));
      return 130;
    }
    if (resumable) {
      io.stderr.write(
        `adis-export: stopped after ${count(last.records)} ${label}; fix the cause and add --resume to continue\n`,
      );
    }
    throw error;
  }
  bar?.done();
  await output.close();
  if (statePath !== undefined) await removeCheckpoint(statePath);
  if (!request.quiet) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const where = outputPath === undefined ? '' : ` to ${request.output}`;
    const resumedText = resumed ? ` (resumed after ${count(resumed.records)})` : '';
    io.stderr.write(
      `Exported ${count(last.records)} ${label}${where} in ${seconds} s${resumedText}.\n` +
        `Next incremental export: --since ${startedAt}\n`,
    );
  }
  return 0;
}

/**
 * Whether to draw the progress line: as asked, else only when stderr is a terminal and
 * the records do not share the screen or a pipe (they go to a file).
 */
function wantsProgress(request: ExportRequest, io: CommandIO, toFile: boolean): boolean {
  if (request.progress !== undefined) return request.progress;
  if (request.quiet || !io.stderr.isTTY) return false;
  return toFile || io.stdoutKind === 'file';
}

/**
 * The server's clock now, from the `Date` header of its entry point: a later `--since`
 * compares with the server's `modified_date` values, so it must be the server's time,
 * not this machine's. Falls back to this machine's clock when the header is missing.
 */
async function serverClock(client: Client): Promise<string> {
  const response = await client.transport.request({ method: 'GET', url: client.root.url });
  const header = response.headers.get('date');
  const time = header === null ? Number.NaN : Date.parse(header);
  return new Date(Number.isNaN(time) ? Date.now() : time).toISOString();
}
