/**
 * Where exported text goes: a file (which can be resumed) or a stream such as stdout.
 */
import { type FileHandle, open, stat, truncate } from 'node:fs/promises';
import type { Writable } from 'node:stream';

/** A destination for exported text that counts the bytes it has taken. */
export interface Output {
  /** Bytes in the output, from its start (a resumed file counts what it kept). */
  readonly bytes: number;
  /**
   * Appends text, or bytes of UTF-8 text. Bytes are the caller's again once the promise
   * settles (it reuses them for the next page): an output that keeps them copies them.
   */
  write(chunk: string | Uint8Array): Promise<void>;
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
    async write(chunk) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
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
 */
export function streamOutput(stream: Pick<Writable, 'write'>): Output {
  let bytes = 0;
  return {
    get bytes() {
      return bytes;
    },
    write(chunk) {
      // A stream may keep a chunk past its callback (a pipe to another stream does): it
      // gets a copy of bytes the caller will reuse.
      const data = typeof chunk === 'string' ? chunk : Buffer.from(chunk);
      bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      // Waiting for each chunk's callback keeps at most one page buffered: memory stays
      // flat however slowly the reader (a pipe, a terminal) takes it.
      return new Promise((resolve, reject) => {
        stream.write(data, (error) => (error ? reject(error) : resolve()));
      });
    },
    flush: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * Text encoded as UTF-8 into one buffer that is reused from page to page: appending a
 * record writes its bytes straight in, with no string of the whole page and no new
 * buffer per page for the garbage collector (measured: a quarter of the CPU the export
 * spent writing NDJSON, on top of encoding it).
 */
export class Utf8Buffer {
  #buffer: Buffer;
  #length = 0;

  /** @param size - Bytes to start with; the buffer grows to the largest page. */
  constructor(size = 64 * 1024) {
    this.#buffer = Buffer.allocUnsafe(size);
  }

  /** Appends `text` as UTF-8 (a lone surrogate as U+FFFD, as `Buffer.from` does). */
  append(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8: with that much room the text
    // fits whole (Buffer#write would cut it short otherwise).
    const needed = this.#length + text.length * 3;
    if (needed > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }

  /**
   * The bytes appended since the last {@link Utf8Buffer.clear}: a view of the buffer,
   * valid until the next `append` or `clear`.
   */
  get bytes(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }

  /** Empties the buffer, keeping its memory for the next page. */
  clear(): void {
    this.#length = 0;
  }
}
