/**
 * The checkpoint of an export to a file: what has been written, and which page comes
 * next, saved beside the output about once a second and when the export stops part
 * way, so that an interrupted export (Ctrl-C, a network failure, a killed process)
 * resumes without writing a record twice or leaving one out.
 *
 * Order of writes: pages are appended to the output as they come; now and then the
 * output is flushed to disk, and then the checkpoint is replaced atomically (written
 * aside, renamed over) with the page boundary the flush covered. A checkpoint never
 * vouches for bytes not yet on disk. A crash leaves the pages written after the last
 * checkpoint past `bytes`, which a resume cuts off before it fetches `next`: those
 * records come again from the pages they were on.
 *
 * It also keeps how the export talked to the server (`--server`, `--key-header`,
 * `--rate`), which a resume uses unless it is given them again. The API key is never
 * saved: the file says where to resume, not how to log in.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as z from 'zod/mini';

const CheckpointSchema = z.object({
  version: z.literal(1),
  /** The entry point the export connected to. */
  entryPoint: z.string(),
  /** The collection's name, like `people`. */
  collection: z.string(),
  /** The `filter` query, when the export is filtered. */
  filter: z.nullable(z.string()),
  format: z.enum(['ndjson', 'csv']),
  /** The CSV columns, in order (null for NDJSON). */
  columns: z.nullable(z.array(z.string())),
  // The next three are optional so that a checkpoint saved before they existed still
  // resumes (as an export without them).
  /** The `--server` preset's name, if one was given. */
  server: z.optional(z.nullable(z.string())),
  /** The `--key-header`, if one was given (the key itself never). */
  keyHeader: z.optional(z.nullable(z.string())),
  /** The `--rate`, in requests a second, if one was given. */
  rate: z.optional(z.nullable(z.number().check(z.positive()))),
  /** The page to fetch next; null when the last page has been written. */
  next: z.nullable(z.string()),
  /** Records written so far. */
  records: z.number(),
  /** Bytes of the output that hold those records (the header included). */
  bytes: z.number(),
  /** The server's clock when the export first started, for a later `--since`. */
  startedAt: z.string(),
});

/** A saved checkpoint. */
export type Checkpoint = z.infer<typeof CheckpointSchema>;

/**
 * Where the checkpoint of an export to `outputPath` lives.
 *
 * @example
 * ```ts
 * import { checkpointPath } from './checkpoint.js';
 *
 * checkpointPath('people.ndjson'); // 'people.ndjson.export-state.json'
 * ```
 */
export function checkpointPath(outputPath: string): string {
  return `${outputPath}.export-state.json`;
}

/**
 * Reads a checkpoint; undefined when there is none. A file that is not a checkpoint
 * is an error that names it, never silently ignored: it may hold someone's data.
 */
export async function readCheckpoint(path: string): Promise<Checkpoint | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${path} is not an export checkpoint (not JSON); remove it to start over`);
  }
  const parsed = CheckpointSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${path} is not an export checkpoint of this version; remove it to start over`);
  }
  return parsed.data;
}

/**
 * Replaces the checkpoint atomically: a reader sees the old one or the new one, never
 * half of either.
 */
export async function writeCheckpoint(path: string, checkpoint: Checkpoint): Promise<void> {
  const aside = `${path}.tmp`;
  await writeFile(aside, `${JSON.stringify(checkpoint, null, 2)}\n`, { flush: true });
  await rename(aside, path);
}

/** Removes the checkpoint of a finished (or abandoned) export. */
export async function removeCheckpoint(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(`${path}.tmp`, { force: true });
}
