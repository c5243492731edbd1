/**
 * The export loop: page through a collection, write each page's records, and report
 * after every page so that the caller can checkpoint and draw progress.
 */
import type { Collection, Resource } from '../index.js';
import type { RecordFormat } from './formats.js';
import type { Output } from './output.js';

/** Where an export stands after a page. */
export interface ExportProgress {
  /** Records written in all, earlier runs of a resumed export included. */
  records: number;
  /** The collection's `total_records`, when the server sends it. */
  totalRecords: number | undefined;
  /** The page to fetch next, or undefined after the last one. */
  next: string | undefined;
  /** Bytes of output holding those records. */
  bytes: number;
}

/** What {@link runExport} is to do. */
export interface ExportRun {
  collection: Collection<object, unknown, Resource<object, unknown>>;
  format: RecordFormat;
  output: Output;
  /**
   * Continue an interrupted export: the page to fetch next (undefined when the last one
   * was written already) and the records already written.
   */
  resume?: { next: string | undefined; records: number };
  /** Stop after this many records in all. */
  limit?: number;
  signal?: AbortSignal;
  /**
   * Called after each page's records are written and flushed: save a checkpoint here.
   * The export waits for it.
   */
  afterPage?(progress: ExportProgress): void | Promise<void>;
}

/**
 * Writes every record of the collection (from `resume.next` on, when resuming) and
 * resolves with the final progress. Pages are read one ahead, so the network and the
 * disk work at the same time; memory holds two pages at most.
 *
 * @example
 * ```ts
 * const done = await runExport({
 *   collection: client.people,
 *   format: ndjsonFormat(),
 *   output: streamOutput(process.stdout),
 * });
 * console.error(`${done.records} people`);
 * ```
 */
export async function runExport(run: ExportRun): Promise<ExportProgress> {
  const { format, output, signal } = run;
  let progress: ExportProgress = {
    records: run.resume?.records ?? 0,
    totalRecords: undefined,
    next: run.resume?.next,
    bytes: output.bytes,
  };
  if (output.bytes === 0) await output.write(format.header());
  const limit = run.limit ?? Number.POSITIVE_INFINITY;
  if (progress.records >= limit || (run.resume && run.resume.next === undefined)) {
    return { ...progress, next: undefined };
  }
  const collection = run.resume?.next ? run.collection.fromPage(run.resume.next) : run.collection;
  for await (const page of collection.pages({ readAhead: true, ...(signal ? { signal } : {}) })) {
    const room = limit - progress.records;
    const items = page.items.length > room ? page.items.slice(0, room) : page.items;
    await output.write(
      items.map((item) => format.encode({ url: item.url, body: item.document.body })).join(''),
    );
    await output.flush();
    const finished = progress.records + items.length >= limit;
    progress = {
      records: progress.records + items.length,
      totalRecords: page.totalRecords,
      // A limit cut inside a page leaves no page to resume from: that export is done.
      next: finished ? undefined : page.next,
      bytes: output.bytes,
    };
    await run.afterPage?.(progress);
    if (finished) break;
  }
  return { ...progress, next: undefined };
}
