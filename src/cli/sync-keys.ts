/**
 * `adis-sync`'s keys: each side's from a file (`--from-key-file`, `--to-key-file`) or
 * the environment (`ADIS_FROM_KEY`, `ADIS_TO_KEY`), never from an argument, which any
 * user of the machine can read in the process list.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SyncUsage } from './sync-arguments.js';

/** One side of a sync, as messages name it. */
export type SyncSide = 'from' | 'to';

/** Where each side's key is found, by side. */
export const KEY_SOURCES = {
  from: { flag: '--from-key-file', env: 'ADIS_FROM_KEY', server: 'the source (from)' },
  to: { flag: '--to-key-file', env: 'ADIS_TO_KEY', server: 'the target (to)' },
} as const satisfies Record<SyncSide, { flag: string; env: string; server: string }>;

/**
 * A side's key: the key file's content, trimmed (a missing, unreadable or empty file is
 * a {@link SyncUsage} naming it), else the environment variable's value; undefined when
 * neither is there (the server may need none, or answers 401, which then names both).
 */
export async function readSyncKey(
  side: SyncSide,
  file: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<string | undefined> {
  const { flag, env: name, server } = KEY_SOURCES[side];
  if (file === undefined) {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'not readable by this user'
          : code === 'EISDIR'
            ? 'a folder, not a file'
            : (error as Error).message;
    throw new SyncUsage(
      `${flag} ${file}: ${why} (${path}); it should hold ${server}'s API key, or give the key in ${name}`,
    );
  }
  const key = text.trim();
  if (key === '') {
    throw new SyncUsage(`${flag} ${file} is empty: put ${server}'s API key in it (${path})`);
  }
  if (/[\r\n]/.test(key)) {
    throw new SyncUsage(
      `${flag} ${file} holds more than one line: it should hold ${server}'s API key alone (${path})`,
    );
  }
  return key;
}
