/**
 * Several server processes on one PostgreSQL database, for the tests of what must hold
 * across instances: each is the command line (`src/cli.ts --db <url>`), as an operator
 * runs it behind a load balancer, with the same keys file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliRun, runCli } from '../run-cli.js';

/** The write keys every instance loads: two tenants. */
export const INSTANCE_KEYS = { acme: 'instances-acme-key', other: 'instances-other-key' } as const;

/**
 * Connections of each instance: more than the tests ever have calls in flight on one
 * (24), so that no call queues for one. A queued call is refused 503 after the pool's
 * 5 s wait, which a loaded machine can reach; what the tests prove is not that speed.
 */
const POOL_SIZE = 25;

/** A running instance: its command line run and its API root (`…/api/v1/`). */
export interface Instance {
  run: CliRun;
  api: string;
}

/**
 * Starts `count` instances on the database at `url`, at the same time (their migrations
 * and keys files race, as on a real deploy), each on a free port.
 *
 * @example
 * ```ts
 * const [a, b] = await startInstances(url, 2);
 * ```
 */
export async function startInstances(url: string, count: number): Promise<Instance[]> {
  const dir = mkdtempSync(join(tmpdir(), 'adis-instances-'));
  const keys = join(dir, 'keys.json');
  writeFileSync(
    keys,
    JSON.stringify({
      keys: [
        { token: INSTANCE_KEYS.acme, tenant: 'acme', access: 'write' },
        { token: INSTANCE_KEYS.other, tenant: 'other', access: 'write' },
      ],
    }),
  );
  const runs = Array.from({ length: count }, () =>
    runCli([
      ...['--port', '0', '--db', url, '--seed', '0', '--quiet', '--keys', keys],
      ...['--pool-size', String(POOL_SIZE)],
    ]),
  );
  try {
    const entryPoints = await Promise.all(runs.map((run) => run.ready));
    return runs.map((run, index) => ({ run, api: entryPoints[index] ?? '' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a call answered: status, headers and the JSON body (undefined when none). */
export interface CallResult {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read deep JSON freely
  body: any;
}

/**
 * A call to an instance with a key, bounded in time: a hang fails the test, it never
 * waits forever.
 *
 * @example
 * ```ts
 * const created = await call(a, 'POST', 'petitions', INSTANCE_KEYS.acme, { title: 'Parks' });
 * ```
 */
export async function call(
  instance: Instance,
  method: string,
  path: string,
  key: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<CallResult> {
  const url = path.startsWith('http') ? path : `${instance.api}${path}`;
  const res = await fetch(url, {
    method,
    headers: {
      'STD-API-Token': key,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    // A bound on a hang, not on speed: a loaded machine answers in seconds, not in 30.
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** The id at the end of a record's self href. */
export function idOf(body: { _links: { self: { href: string } } }): string {
  return body._links.self.href.split('/').pop() ?? '';
}
