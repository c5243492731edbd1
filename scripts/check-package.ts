/**
 * The package checks on the packed packages, after `npm run build`:
 *
 *   npm run check:package   # publint, then are-the-types-wrong on each tarball
 *
 * Why pack here rather than `attw --pack`: npm pack runs `prepack` (a whole tsup build,
 * about 45 s on a small machine) for each check, three builds for what one build already
 * made. Each package is packed once, with `--ignore-scripts`, from the `dist/` the build
 * left, and every check reads that tarball. A missing build is refused, not packed empty.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const server = join(root, 'reference-server');

/** Runs a command of the repository's own tools, its output shown, failing the check on a failure. */
function run(command: string, args: readonly string[], cwd = root): void {
  execFileSync(command, args, { cwd, stdio: 'inherit' });
}

/** Packs `dir` once, scripts off, into `destination`; answers the tarball's path. */
function pack(dir: string, destination: string): string {
  if (!existsSync(join(dir, 'dist'))) {
    throw new Error(`${dir}/dist is missing: run npm run build first`);
  }
  const out = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', destination],
    { cwd: dir, encoding: 'utf8' },
  );
  const [packed] = JSON.parse(out) as { filename: string }[];
  if (!packed) throw new Error(`npm pack in ${dir} packed nothing`);
  return join(destination, packed.filename);
}

const destination = mkdtempSync(join(tmpdir(), 'adis-check-package-'));
try {
  run('npx', ['publint']);
  run('npx', ['publint', 'reference-server']);
  const sdk = pack(root, destination);
  const adisServer = pack(server, destination);
  // The page file (`adis-sdk/helpers/browser`) is an ES module for browsers: checked as ESM only.
  run('npx', ['attw', sdk, '--profile', 'node16', '--exclude-entrypoints', './helpers/browser']);
  run('npx', ['attw', sdk, '--profile', 'esm-only', '--entrypoints', './helpers/browser']);
  // adis-server/testing's require types describe the ES module on purpose (false-cjs).
  run('npx', ['attw', adisServer, '--profile', 'esm-only', '--ignore-rules', 'false-cjs']);
} finally {
  rmSync(destination, { recursive: true, force: true });
}
