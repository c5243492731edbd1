/**
 * SIGTERM to the npm process that started the server stops it cleanly: the real
 * commands are spawned (`npm start` from the repository root, and `npm exec`, which
 * starts a command the way `npx adis-server` does), the signal goes to npm's pid only,
 * as a process manager or CI would send it, and the test checks that the port closes,
 * that every process of the tree exits, and that the database was closed cleanly with
 * the acknowledged write in it.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../src/index.js';
import { SHUTDOWN_GRACE_MS } from '../src/shutdown.js';
import { serverDir } from './run-cli.js';

const repositoryRoot = resolve(serverDir, '..');
const leftovers: number[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process below `root`, read from `ps` (Linux and macOS). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const line of execFileSync('ps', ['-A', '-o', 'pid=,ppid=']).toString().split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid === undefined || ppid === undefined || Number.isNaN(pid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const stack = [root];
  for (let pid = stack.pop(); pid !== undefined; pid = stack.pop()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      stack.push(child);
    }
  }
  return found;
}

/** A spawned command: its process, its output so far, its exit. */
interface Spawned {
  child: ChildProcess;
  stdout(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(command: string, args: readonly string[], cwd: string): Spawned {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid !== undefined) leftovers.push(child.pid);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  return { child, stdout: () => out, exited };
}

async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms: number,
): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/** Whether something accepts TCP connections on the port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/** Waits for the printed entry point and the demo key, and collects the process tree. */
async function started(spawned: Spawned) {
  const entry = await until(
    'entry point printed',
    () => /^Entry point: (\S+)$/m.exec(spawned.stdout())?.[1],
    15_000,
  );
  const key = /API key \(demo tenant, write\): (\S+)/.exec(spawned.stdout())?.[1] ?? '';
  const tree = descendants(spawned.child.pid as number);
  leftovers.push(...tree);
  return { entry, key, port: Number(new URL(entry).port), tree };
}

/** The number of people in a database file, read after the server is gone. */
async function peopleIn(db: string): Promise<number> {
  const storage = openStorage(db);
  try {
    const row = storage.database
      .prepare("SELECT COUNT(*) AS n FROM records WHERE kind = 'person'")
      .get() as { n: number };
    return row.n;
  } finally {
    await storage.close();
  }
}

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'adis-shutdown-'));
  dirs.push(dir);
  return join(dir, 'adis.db');
}

describe('SIGTERM to npm', () => {
  it('npm start: closes the port, exits the whole tree with 0, keeps the acknowledged write', async () => {
    const db = tempDb();
    const npm = start(
      'npm',
      ['start', '--', '--port', '0', '--db', db, '--seed', '0'],
      repositoryRoot,
    );
    const { entry, key, port, tree } = await started(npm);
    expect(tree.length).toBeGreaterThan(0);

    const created = await fetch(`${entry}people`, {
      method: 'POST',
      headers: { 'STD-API-Token': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ given_name: 'Acknowledged' }),
    });
    expect(created.status).toBe(201);
    // An idle keep-alive connection must not hold the shutdown up.
    const idle: Socket = connect(port, '127.0.0.1');
    idle.on('error', () => {});
    idle.write(`GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nSTD-API-Token: ${key}\r\n\r\n`);
    await until('keep-alive answer', () => (idle.readableLength > 0 ? true : undefined), 2000);

    const signalled = performance.now();
    npm.child.kill('SIGTERM');
    expect(await npm.exited).toEqual({ code: 0, signal: null });
    await until('port closed', async () => ((await accepts(port)) ? undefined : true), 3000);
    await until('tree gone', () => (tree.some(isAlive) ? undefined : true), 3000);
    expect(performance.now() - signalled).toBeLessThan(4000);

    expect(npm.stdout()).toContain('SIGTERM: shutting down');
    // Closed cleanly: the WAL was checkpointed into the file and removed.
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(await peopleIn(db)).toBe(1);
  });

  it('npm exec (as npx runs the bin): stops when npm’s shell dies, cutting a stalled request after the grace period', async () => {
    const db = tempDb();
    const npm = start(
      'npm',
      [
        'exec',
        '--offline',
        '--',
        'node',
        '--import',
        'tsx',
        'src/cli.ts',
        '--port',
        '0',
        '--db',
        db,
        '--seed',
        '0',
      ],
      serverDir,
    );
    const { port, key, tree } = await started(npm);
    // A request whose body never comes: in flight until the grace period cuts it.
    const stalled = connect(port, '127.0.0.1');
    stalled.on('error', () => {});
    const stalledClosed = new Promise<number>((done) =>
      stalled.once('close', () => done(performance.now())),
    );
    stalled.write(
      `POST /api/v1/people HTTP/1.1\r\nHost: 127.0.0.1\r\nSTD-API-Token: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"gi`,
    );
    await new Promise((wait) => setTimeout(wait, 200));

    const signalled = performance.now();
    npm.child.kill('SIGTERM');
    await npm.exited;
    // npm forwards the signal to its `sh -c` only, which dies of it; the server notices.
    await until('port closed', async () => ((await accepts(port)) ? undefined : true), 2000);
    expect(performance.now() - signalled).toBeLessThan(2000);
    await until(
      'tree gone',
      () => (tree.some(isAlive) ? undefined : true),
      SHUTDOWN_GRACE_MS + 3000,
    );
    const cutAfter = (await stalledClosed) - signalled;
    expect(cutAfter).toBeGreaterThan(SHUTDOWN_GRACE_MS - 1000);
    expect(cutAfter).toBeLessThan(SHUTDOWN_GRACE_MS + 2000);
    expect(npm.stdout()).toMatch(/parent process \d+ exited: shutting down/);
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(await peopleIn(db)).toBe(0);
  });
});
