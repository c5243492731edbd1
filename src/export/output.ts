/**
 * Where exported text goes: a file (which can be resumed) or a stream such as stdout.
 */
import { type FileHandle, open, stat, truncate } from 'node:fs/promises';
import type { Writable } from 'node:stream';

/** A destination for exported text that counts the bytes it has taken. */
export interface Output {
  /** Bytes in the output, from its start (a resumed file counts what it kept). */
  readonly bytes: number;
  write(text: string): Promise<void>;
  /**
   * Makes what was written durable (a file's data on disk) before a checkpoint says so.
   * It covers every write that finished before it was called, and may run while later
   * writes go on.
   */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a file for a new export: fails if it exists unless `overwrite`, so that no
 * earlier export is lost by a repeated command.
 *
 * @example
 * ```ts
 * const output = await createFileOutput('people.ndjson', { overwrite: false });
 * ```
 */
export async function createFileOutput(
  path: string,
  options: { overwrite: boolean },
): Promise<Output> {
  return fileOutput(await open(path, options.overwrite ? 'w' : 'wx'), 0);
}

/**
 * Opens the file of an interrupted export to append to it after cutting it back to
 * `bytes`, the length its checkpoint vouches for.
 *
 * @example
 * ```ts
 * const output = await resumeFileOutput('people.ndjson', saved.bytes);
 * ```
 */
export async function resumeFileOutput(path: string, bytes: number): Promise<Output> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`cannot resume: ${path} is gone; start over with --force`);
    }
    throw error;
  }
  if (size < bytes) {
    throw new Error(
      `cannot resume: ${path} has ${size} bytes, fewer than the ${bytes} its checkpoint recorded (was it changed?); start over with --force`,
    );
  }
  await truncate(path, bytes);
  return fileOutput(await open(path, 'a'), bytes);
}

function fileOutput(handle: FileHandle, start: number): Output {
  let bytes = start;
  return {
    get bytes() {
      return bytes;
    },
    async write(text) {
      const buffer = Buffer.from(text, 'utf8');
      // A write may take fewer bytes than given (a disk filling up): write the rest, so
      // that `bytes` always counts exactly what is in the file.
      let offset = 0;
      while (offset < buffer.length) {
        const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
        if (bytesWritten === 0) throw new Error('the disk took no more bytes');
        offset += bytesWritten;
        bytes += bytesWritten;
      }
    },
    flush: () => handle.datasync(),
    close: () => handle.close(),
  };
}

/**
 * Writes to a stream (stdout), waiting when it is full so that memory stays flat
 * however fast pages come.
 *
 * @example
 * ```ts
 * const output = streamOutput(process.stdout);
 * ```
 */
export function streamOutput(stream: Pick<Writable, 'write'>): Output {
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    write(text) {
      bytes += Buffer.byteLength(text);
      // Waiting for each chunk's callback keeps at most one page buffered: memory stays
      // flat however slowly the reader (a pipe, a terminal) takes it.
      return new Promise((resolve, reject) => {
        stream.write(text, (error) => (error ? reject(error) : resolve()));
      });
    },
    flush: async () => undefined,
    close: async () => undefined,
  };
}
