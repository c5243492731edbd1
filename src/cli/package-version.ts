import { readFile } from 'node:fs/promises';

/**
 * The version of the installed adis-sdk, from its package.json, read when asked. This
 * module sits two folders under the package root both as source (`src/cli/`) and as
 * built code (`dist/cli/`), in the repository as in a global install
 * (`lib/node_modules/adis-sdk/dist/cli/`); `bin` links are resolved to that real file.
 */
export async function packageVersion(): Promise<string> {
  const file = new URL('../../package.json', import.meta.url);
  const manifest = JSON.parse(await readFile(file, 'utf8')) as {
    name?: unknown;
    version?: unknown;
  };
  if (manifest.name !== 'adis-sdk' || typeof manifest.version !== 'string') {
    throw new Error(`${file.pathname} is not adis-sdk's package.json`);
  }
  return manifest.version;
}
