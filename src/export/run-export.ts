/**
 * The export loop: page through a collection, write each page's records, and now and
 * then make what was written durable and report it, so that the caller can save a
 * checkpoint. Progress is reported after every page.
 */
import type { Collection, Resource } from '../index.js';
import type { RecordFormat } from './formats.js';
import { type Output, Utf8Buffer } from './output.js';

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

/**
 * How often {@link runExport} makes the output durable and calls `onDurable`: after the
 * page that reaches either bound, whichever comes first.
 */
export interface DurableEvery {
  /** Milliseconds since the last durable point (default 1000). */
  ms?: number;
  /** Pages since the last durable point (default: no bound). */
  pages?: number;
}

/** The default {@link DurableEvery}: about once a second. */
export const DURABLE_EVERY: Readonly<Required<DurableEvery>> = {
  ms: 1000,
  pages: Number.POSITIVE_INFINITY,
};

/** What {@link runExport} is to do. */
export interface ExportRun {
  collection: Collection<Resource<object, never>>;
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
  /** Called after each page's records are written (not yet durable): draw progress here. */
  onPage?(progress: ExportProgress): void;
  /**
   * Called once the output is flushed up to `progress.bytes`, every {@link DurableEvery}
   * (about once a second by default), and once more when the export stops part way
   * (interrupted, or failing) with what was written by then: save a checkpoint here.
   * The export waits for it. It is never called with bytes that are not yet durable, so
   * a checkpoint saved here never runs ahead of the file.
   */
  onDurable?(progress: ExportProgress): void | Promise<void>;
  /** How often to make the output durable (default {@link DURABLE_EVERY}). */
  durableEvery?: DurableEvery;
}

/**
 * Writes every record of the collection (from `resume.next` on, when resuming) and
 * resolves with the final progress, all of it flushed. Pages are read one ahead, so the
 * network and the disk work at the same time; memory holds two pages at most.
 *
 * The output is flushed and `onDurable` called about once a second rather than after
 * every page: a crash loses at most that much work, which a resume fetches again (it
 * cuts the output back to the last durable point, then fetches the page after it).
 *
 * @example
 * ```ts
 * import { ndjsonFormat } from './formats.js';
 * import { streamOutput } from './output.js';
 * import { runExport } from './run-export.js';
 *
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
  const everyMs = run.durableEvery?.ms ?? DURABLE_EVERY.ms;
  const everyPages = run.durableEvery?.pages ?? DURABLE_EVERY.pages;
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
  // The last progress made durable and reported; what was written since is not yet.
  let durable = progress;
  let durableAt = performance.now();
  let pagesSince = 0;
  // The durable point being made in the background, if any: the loop goes on writing
  // the pages after it meanwhile. Only one at a time, so checkpoints stay in order.
  let making: Promise<void> | undefined;
  const makeDurable = (): Promise<void> => {
    const reached = progress;
    durableAt = performance.now();
    pagesSince = 0;
    // The flush covers every byte written before it starts, `reached.bytes` included;
    // bytes written while it runs may or may not be covered, and are not reported.
    const made = output.flush().then(async () => {
      await run.onDurable?.(reached);
      durable = reached;
    });
    // Awaited at the next durable point, on failure or at the end; never unhandled.
    made.catch(() => undefined);
    return made;
  };
  // Each page's records, encoded straight into one buffer reused for every page.
  const encoded = new Utf8Buffer();
  const collection = run.resume?.next ? run.collection.fromPage(run.resume.next) : run.collection;
  try {
    for await (const page of collection.pages({ readAhead: true, ...(signal ? { signal } : {}) })) {
      const room = limit - progress.records;
      const items = page.items.length > room ? page.items.slice(0, room) : page.items;
      encoded.clear();
      for (const item of items) {
        // A record without an address of its own (no `self`) is written without one.
        encoded.append(format.encode({ url: item.urlOrUndefined, body: item.document.body }));
      }
      await output.write(encoded.bytes);
      const finished = progress.records + items.length >= limit;
      progress = {
        records: progress.records + items.length,
        totalRecords: page.totalRecords,
        // A limit cut inside a page leaves no page to resume from: that export is done.
        // The cursor, not `next`: a `next` that loops back to a page already read ends
        // the walk, and must not be resumed from.
        next: finished ? undefined : page.cursor,
        bytes: output.bytes,
      };
      run.onPage?.(progress);
      if (finished) break;
      pagesSince += 1;
      if (pagesSince >= everyPages || performance.now() - durableAt >= everyMs) {
        // A flush that fails (the disk) stops the export here.
        await making;
        making = makeDurable();
      }
    }
    await making;
  } catch (error) {
    // Stopped part way (Ctrl-C, the server, the network, the disk): every page before
    // `progress` was written whole, so make it durable and report it, and a resume
    // starts right after it instead of at the last durable point. If that fails too (a
    // full disk), the last durable point still holds: the resume cuts back to it.
    await making?.catch(() => undefined);
    if (progress !== durable) await makeDurable().catch(() => undefined);
    throw error;
  }
  // The caller removes its checkpoint next, which must not happen before the records
  // it vouched for are on disk.
  await output.flush();
  return { ...progress, next: undefined };
}
