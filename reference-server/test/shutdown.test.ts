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
/**
 * How long a wait may take before the test fails rather than hangs: a bound on a hang,
 * not on speed (a loaded machine starts npm and tsx slowly).
 */
const HANG_MS = 30_000;
/** How late past the grace period a request in flight may be cut: a bound on a hang. */
const LATE_MS = 10_000;
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
  /** Resolves once the output so far passes `test`; rejects if the command exits first. */
  printed(test: (out: string) => boolean): Promise<string>;
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
  const printed = (test: (out: string) => boolean) =>
    new Promise<string>((done, fail) => {
      const check = () => {
        if (!test(out)) return;
        child.stdout?.off('data', check);
        child.stderr?.off('data', check);
        done(out);
      };
      // After the listeners above, which add the chunk to `out`.
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      child.once('close', () => fail(new Error(`exited before printing it: ${out}`)));
      check();
    });
  return { child, stdout: () => out, printed, exited };
}

/** Polls `probe` every 50 ms until it gives a value: for what no event announces. */
async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = HANG_MS,
): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/** `promise`, or a failure naming `what` once {@link HANG_MS} has passed. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what}: not within ${HANG_MS} ms`)), HANG_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
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
  const out = await spawned.printed((text) => /^Entry point: \S+$/m.test(text));
  const entry = /^Entry point: (\S+)$/m.exec(out)?.[1] as string;
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

/** A connection that resolves `closed` once the server closes it. */
function connection(port: number): { socket: Socket; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  return { socket, closed };
}

/** Resolves once `socket` has received something that passes `test`. */
function receives(socket: Socket, test: (text: string) => boolean): Promise<void> {
  let text = '';
  return new Promise((done, fail) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (!test(text)) return;
      socket.off('data', onData);
      done();
    };
    socket.on('data', onData);
    socket.once('close', () => fail(new Error(`closed after receiving only: ${text}`)));
  });
}

/**
 * A request in flight until the grace period cuts it: its body never comes. Resolves
 * once the server has read its head and handed it on (its `100 Continue`), so that a
 * signal sent then finds it in flight, not an idle connection it would close at once.
 */
async function stalledRequest(port: number, key: string) {
  const stalled = connection(port);
  stalled.socket.write(
    `POST /api/v1/people HTTP/1.1\r\nHost: 127.0.0.1\r\nSTD-API-Token: ${key}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n`,
  );
  await receives(stalled.socket, (text) => text.startsWith('HTTP/1.1 100 Continue\r\n\r\n'));
  stalled.socket.write('{"gi');
  let cut = false;
  const cutAt = stalled.closed.then(() => {
    cut = true;
    return performance.now();
  });
  return { cutAt, wasCut: () => cut };
}

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'adis-shutdown-'));
  dirs.push(dir);
  return join(dir, 'adis.db');
}

describe('SIGTERM to npm', () => {
  it('npm start: closes the port and idle connections at once, exits the whole tree with 0, keeps the acknowledged write', async () => {
    const db = tempDb();
    // A keep-alive timeout out of reach: only the shutdown can close the idle connection.
    const npm = start(
      'npm',
      ['start', '--', '--port', '0', '--db', db, '--seed', '0', '--keep-alive-timeout', '600'],
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
    const idle = connection(port);
    let idleClosed = false;
    void idle.closed.then(() => {
      idleClosed = true;
    });
    idle.socket.write(`GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nSTD-API-Token: ${key}\r\n\r\n`);
    await receives(idle.socket, (text) => /\r\n\r\n\{.*\}$/s.test(text));
    // The server's grace timer is the clock here: a request in flight, cut when it ends.
    const stalled = await stalledRequest(port, key);

    const signalled = performance.now();
    expect(idleClosed).toBe(false);
    npm.child.kill('SIGTERM');
    // Closed at once, not by the grace timer: the request in flight is still open after
    // the idle connection closed and the port was found closed. Node closes idle
    // connections just before the listening socket, in one tick; the server can be
    // preempted between the two by this process, woken by the FIN, so the port is polled.
    await within(idle.closed, 'the idle connection closed');
    await until('port closed', async () => ((await accepts(port)) ? undefined : true));
    expect(stalled.wasCut()).toBe(false);
    expect(await within(npm.exited, 'npm exited')).toEqual({ code: 0, signal: null });
    expect((await stalled.cutAt) - signalled).toBeGreaterThan(SHUTDOWN_GRACE_MS - 1000);
    await until('tree gone', () => (tree.some(isAlive) ? undefined : true));

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
    const stalled = await stalledRequest(port, key);

    const signalled = performance.now();
    npm.child.kill('SIGTERM');
    await within(npm.exited, 'npm exited');
    // npm forwards the signal to its `sh -c` only, which dies of it; the server notices,
    // and closes its port at once: while the request in flight still has its grace period.
    await until('port closed', async () => ((await accepts(port)) ? undefined : true));
    expect(stalled.wasCut()).toBe(false);
    // Cut by the grace timer: not before it, and (a bound on a hang) not long after.
    const cutAfter = (await within(stalled.cutAt, 'the request in flight cut')) - signalled;
    expect(cutAfter).toBeGreaterThan(SHUTDOWN_GRACE_MS - 1000);
    expect(cutAfter).toBeLessThan(SHUTDOWN_GRACE_MS + LATE_MS);
    await until('tree gone', () => (tree.some(isAlive) ? undefined : true));
    expect(npm.stdout()).toMatch(/parent process \d+ exited: shutting down/);
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(await peopleIn(db)).toBe(0);
  });
});
