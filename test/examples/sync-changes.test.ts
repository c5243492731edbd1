import { mkdtemp, readFile, rm } from 'node:fs/promises';
import {
  createServer,
  request as forward,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../reference-server/src/index.js';
import { connect } from '../../src/index.js';
import { type TestServer, testServer } from '../e2e/reference-server.js';
import { type ExampleProcess, startExample } from './example-process.js';

// Runs examples/sync-changes.ts as a user would (a process, over HTTP, importing the
// built 'adis-sdk'), kills it with SIGKILL in the middle of a full sync, starts it
// again, and checks that every person was seen and no page was served twice. A proxy
// in front of the reference server counts the pages it serves, and holds back the
// page the killed run is reading ahead, so the kill always lands at the same point.
const root = fileURLToPath(new URL('../../', import.meta.url));
const PEOPLE = 35;
const PER_PAGE = 10; // 4 pages: 10, 10, 10, 5
let server: TestServer;
let running: RunningServer;
let proxy: PagingProxy;
let folder: string;

/** A proxy that records the collection pages it served and can hold requests back. */
interface PagingProxy {
  entryPoint: string;
  /** The URLs (path and query) of the people pages answered in full. */
  served: string[];
  /** Holds back (never answers) the people page requests after the first `n` served. */
  holdAfter: number;
  close(): Promise<void>;
}

async function pagingProxy(target: RunningServer): Promise<PagingProxy> {
  const upstream = new URL(target.entryPoint);
  const held: ServerResponse[] = [];
  const state: PagingProxy = {
    entryPoint: '',
    served: [],
    holdAfter: Number.POSITIVE_INFINITY,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  const http: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/';
    const isPage = /^\/api\/v1\/people(\?|$)/.test(path);
    if (isPage && state.served.length >= state.holdAfter) {
      held.push(response);
      return;
    }
    // The Host header is passed on: the server's links then point at the proxy.
    const out = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        answer.on('end', () => {
          if (isPage) state.served.push(path);
        });
      },
    );
    out.on('error', () => response.destroy());
    request.pipe(out);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  state.entryPoint = `http://127.0.0.1:${(http.address() as AddressInfo).port}/api/v1/`;
  return state;
}

beforeAll(async () => {
  server = testServer(PEOPLE, { maxPageSize: PER_PAGE });
  running = await server.listen();
  proxy = await pagingProxy(running);
  folder = await mkdtemp(join(tmpdir(), 'adis-sync-'));
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  await rm(folder, { recursive: true, force: true });
});

/** Starts the example as a process; `args` after the entry point and the key. */
function start(...args: string[]): ExampleProcess {
  return startExample(
    process.execPath,
    ['--import', 'tsx', 'examples/sync-changes.ts', proxy.entryPoint, server.keys.read, ...args],
    { cwd: root, env: {} },
  );
}

/** The person URLs a run printed (one line per person: modified date, URL). */
function peopleOf(lines: string[]): string[] {
  return lines.flatMap((line) => /^\S+ {2}(http:\/\/\S+\/people\/\S+)$/.exec(line)?.[1] ?? []);
}

describe('examples/sync-changes.ts', () => {
  it('resumes a killed full sync after the last page it saved, then syncs only changes', async () => {
    const statePath = join(folder, 'state.json');
    const everyone = await connect(running.entryPoint, { apiKey: server.keys.read });
    const urls = (await everyone.people.toArray()).map((person) =>
      person.url.replace(new URL(running.entryPoint).origin, new URL(proxy.entryPoint).origin),
    );
    expect(urls).toHaveLength(PEOPLE);

    // The runs' marks come from the Date header, in whole seconds: start in the second
    // after the seeding, so the third run can tell seeded people from changed ones.
    await new Promise((resolve) => setTimeout(resolve, 1010 - (Date.now() % 1000)));

    // First run: killed once page 2 is stored and its cursor saved. The page it reads
    // ahead (page 3) is held back, so the kill always comes before page 3 is served.
    // No overlap: the marks are then exact (the default overlap is tested in
    // test/e2e/filters-sync.test.ts).
    proxy.holdAfter = 2;
    const first = start(statePath, '--overlap', '0');
    await first.waitFor(/^Saved after page 2; /);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const killedAt = JSON.parse(await readFile(statePath, 'utf8')) as {
      since: string | null;
      run: { after: string | null; mark: string; cursor: string };
    };
    expect(killedAt.since).toBeNull();
    expect(killedAt.run.after).toBeNull();
    expect(new URL(killedAt.run.cursor).searchParams.get('page')).toBe('3');
    expect(proxy.served).toHaveLength(2);
    const seenFirst = peopleOf(first.lines);
    expect(seenFirst).toHaveLength(2 * PER_PAGE);

    // Second run: goes on with page 3 and finishes the full sync.
    proxy.holdAfter = Number.POSITIVE_INFINITY;
    const second = start(statePath, '--overlap', '0');
    expect(await second.exited).toBe(0);
    const seenSecond = peopleOf(second.lines);
    expect(second.lines.at(-1)).toBe(
      `Fetched ${PEOPLE - 2 * PER_PAGE} people (2 pages) since the interrupted run; next run starts at ${killedAt.run.mark}.`,
    );
    expect([...seenFirst, ...seenSecond].sort()).toEqual([...urls].sort());
    // Every page served once: the killed run's pages were not fetched again.
    expect(proxy.served).toHaveLength(4);
    expect(new Set(proxy.served).size).toBe(4);
    expect(JSON.parse(await readFile(statePath, 'utf8'))).toEqual({
      since: killedAt.run.mark,
      run: null,
    });

    // Third run, after two changes: reads only what changed at or after the mark.
    const writer = await connect(running.entryPoint, { apiKey: server.keys.write });
    const [one, two] = await writer.people.toArray({ limit: 2 });
    await one?.update({ family_name: 'Changed' });
    await two?.update({ family_name: 'Changed' });
    const third = start(statePath, '--overlap', '0');
    expect(await third.exited).toBe(0);
    const viaProxy = (url: string | undefined) =>
      String(url).replace(new URL(running.entryPoint).origin, new URL(proxy.entryPoint).origin);
    expect(peopleOf(third.lines).sort()).toEqual([viaProxy(one?.url), viaProxy(two?.url)].sort());
    expect(third.lines.at(-1)).toMatch(
      `Fetched 2 people (1 page) since ${killedAt.run.mark}; next run starts at `,
    );
  });
});
