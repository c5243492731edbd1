/**
 * A throwaway PostgreSQL cluster for tests, benchmarks and CI: initdb in a temporary
 * folder, started on a free loopback port with trust authentication, removed on stop.
 * Uses the machine's PostgreSQL server binaries (Debian's `postgresql` package); a
 * machine without them is an error, never a skipped test.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How {@link startPostgresCluster} finds and starts the server. */
export interface PostgresClusterOptions {
  /** Folder holding `initdb` and `pg_ctl`; found on the machine when absent. */
  binDir?: string;
  /** Port to listen on (127.0.0.1); a free one when absent. */
  port?: number;
  /** Longest wait for the server to start or stop (pg_ctl -t), in seconds. Default 30. */
  timeoutSeconds?: number;
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
  /** Stops (fast) and starts again on the same port; data is kept. */
  restart(): Promise<void>;
  /** Stops (fast) and removes every file. Safe to call twice or after kill(). */
  stop(): Promise<void>;
  /** Stops immediately, as a crash would (no checkpoint): for fault tests. */
  kill(): Promise<void>;
  /** Starts a stopped or killed cluster again on the same port (crash recovery runs). */
  start(): Promise<void>;
}

const installHint = 'install them with `apt-get install -y postgresql` (Debian/Ubuntu)';

/**
 * The folder of the PostgreSQL server binaries: the newest `/usr/lib/postgresql/<n>/bin`
 * holding `initdb` and `pg_ctl`, else `pg_config --bindir`. Throws, naming the package
 * to install, when neither has them.
 *
 * @example
 * ```ts
 * const binDir = await findPostgresBinDir(); // '/usr/lib/postgresql/15/bin'
 * ```
 */
export async function findPostgresBinDir(): Promise<string> {
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
  if (fromPgConfig && hasServerBinaries(fromPgConfig)) return fromPgConfig;
  throw new Error(
    `PostgreSQL server binaries (initdb, pg_ctl) not found in ${root}/*/bin nor by pg_config --bindir: ${installHint}.`,
  );
}

/**
 * Creates and starts a throwaway cluster: `initdb -A trust -U postgres` in a new temporary
 * folder, then `pg_ctl start` on 127.0.0.1 at a free port. Run as root, the server runs as
 * the `postgres` user (PostgreSQL refuses root). Call `stop()` when done.
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
  const binDir = options.binDir ?? (await findPostgresBinDir());
  if (!hasServerBinaries(binDir)) {
    throw new Error(
      `PostgreSQL server binaries (initdb, pg_ctl) not found in ${binDir}: ${installHint}.`,
    );
  }
  const timeoutSeconds = options.timeoutSeconds ?? 30;
  // A little over pg_ctl's own bound, so pg_ctl reports the timeout rather than us.
  const commandTimeoutMs = (timeoutSeconds + 15) * 1000;
  const owner = await serverUser();

  const folder = await mkdtemp(join(tmpdir(), 'adis-pg-'));
  const dataDir = join(folder, 'data');
  const logFile = join(folder, 'postgres.log');
  // initdb (run as `postgres` when we are root) creates dataDir inside this folder, and
  // the server puts its socket here.
  await chmod(folder, 0o755);
  if (owner) await chown(folder, owner.uid, owner.gid);

  const pg = (tool: string, args: readonly string[]): Promise<string> => {
    const command = join(binDir, tool);
    return owner
      ? run('runuser', ['-u', 'postgres', '--', command, ...args], commandTimeoutMs, folder)
      : run(command, args, commandTimeoutMs, folder);
  };
  const isRunning = (): Promise<boolean> =>
    pg('pg_ctl', ['status', '-D', dataDir]).then(
      () => true,
      () => false,
    );
  const pgCtlStart = async (port: number): Promise<void> => {
    const serverOptions = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on`;
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

/** Root must hand the server to the `postgres` user; anyone else runs it as themselves. */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const [uid, gid] = await Promise.all([
      run('id', ['-u', 'postgres'], 5_000),
      run('id', ['-g', 'postgres'], 5_000),
    ]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    throw new Error(
      `Running as root, but there is no \`postgres\` user to run the server as (PostgreSQL refuses root): ${installHint}, which creates it.`,
    );
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
