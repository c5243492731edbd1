/**
 * The same decisions everywhere: the navigator's transport (ky doing the attempts),
 * `callHelper` (its own loop) and the offline signup queue (here without IndexedDB, so
 * it sends directly and says what it would have done with the call) meet the same real
 * server, answering a POST with each failure below and then 200, with and without a
 * key the server honours. Each must send the call again, or not, and wait what the
 * server asked, alike. The backoff is 0 (backoffLimit 0), so a measured gap between the
 * two attempts is the server's wait.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { callHelper } from '../../src/helpers/call.js';
import { createSignupQueue } from '../../src/helpers/signup-queue.js';
import { createTransport } from '../../src/http/transport.js';
import { type FaultServer, faultServer } from '../fixtures/fault-server.js';

const retry = { backoffLimit: 0 };

/** What the server answers first, then 200. */
interface Scenario {
  name: string;
  status: number;
  /** The headers of the first answer, made when it is sent (a date is from then). */
  headers: () => Record<string, string>;
  /** Sent again with a key the server honours, and without; and the wait at least, ms. */
  honoured: Decision;
  notHonoured: Decision;
}

/**
 * Whether the call is sent again (after `waits` ms at least), and, when it is not, why
 * the queue lets it go: `refused` (sending again cannot help) or `unconfirmed` (it may
 * have been recorded, and a repeat could record it twice).
 */
type Decision =
  | { again: true; waits?: number }
  | { again: false; queue: 'refused' | 'unconfirmed' };

const SCENARIOS: Scenario[] = [
  {
    name: '503 with a Retry-After date',
    status: 503,
    // Two seconds on, in whole seconds: a wait of more than one.
    headers: () => ({ 'retry-after': new Date(Date.now() + 2_000).toUTCString() }),
    honoured: { again: true, waits: 900 },
    notHonoured: { again: false, queue: 'unconfirmed' },
  },
  {
    name: '429 with Retry-After seconds',
    status: 429,
    headers: () => ({ 'retry-after': '1' }),
    honoured: { again: true, waits: 900 },
    notHonoured: { again: true, waits: 900 },
  },
  {
    name: '409 with Retry-After (the same key in progress)',
    status: 409,
    headers: () => ({ 'retry-after': '1' }),
    honoured: { again: true, waits: 900 },
    notHonoured: { again: false, queue: 'unconfirmed' },
  },
  {
    name: '409 without Retry-After (a conflict)',
    status: 409,
    headers: () => ({}),
    honoured: { again: false, queue: 'refused' },
    notHonoured: { again: false, queue: 'refused' },
  },
  {
    name: '502 without Retry-After',
    status: 502,
    headers: () => ({}),
    honoured: { again: true },
    notHonoured: { again: false, queue: 'unconfirmed' },
  },
];

/** A path that answers the scenario's failure first, then 200 `{}`, noting when each came. */
function scripted(scenario: Scenario, times: number[]) {
  return (_request: IncomingMessage, response: ServerResponse) => {
    times.push(Date.now());
    const first = times.length === 1;
    response.writeHead(first ? scenario.status : 200, {
      'content-type': 'application/json',
      ...(first ? scenario.headers() : {}),
    });
    response.end('{}');
  };
}

type Caller = (url: string, honoured: boolean) => Promise<unknown>;

const CALLERS: Record<string, Caller> = {
  transport: (url, honoured) =>
    createTransport({ retry, idempotencyKeys: honoured ? 'honoured' : true }).request({
      method: 'POST',
      url,
      body: {},
    }),
  callHelper: (url, honoured) => callHelper(url, {}, { retry, idempotencyKeysHonoured: honoured }),
  queue: async (url, honoured) => {
    const queue = createSignupQueue({ indexedDB: null, retry, idempotencyKeysHonoured: honoured });
    const outcome = await queue.submit(url, {});
    queue.close();
    if (outcome.state === 'failed')
      throw Object.assign(outcome.error as object, { reason: outcome.reason });
    return outcome;
  },
};

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(SCENARIOS)('$name', (scenario) => {
  it.each([true, false])('honoured key: %s, the three callers decide alike', async (honoured) => {
    const expected = honoured ? scenario.honoured : scenario.notHonoured;
    const times: Record<string, number[]> = {};
    const routes = Object.fromEntries(
      Object.keys(CALLERS).map((name) => {
        times[name] = [];
        return [`/${name}`, scripted(scenario, times[name])];
      }),
    );
    server = await faultServer(routes);
    const live = server;
    const outcomes = await Promise.all(
      Object.entries(CALLERS).map(async ([name, call]) => {
        const settled = await call(live.url(`/${name}`), honoured).then(
          () => 'answered 200',
          (error: { status?: number; reason?: string }) =>
            `failed with ${error.status}${error.reason ? ` (${error.reason})` : ''}`,
        );
        const [first = 0, second] = times[name] ?? [];
        return {
          name,
          attempts: (times[name] ?? []).length,
          settled,
          waited:
            second === undefined
              ? undefined
              : second - first >= (expected.again ? (expected.waits ?? 0) : 0),
        };
      }),
    );
    const alike = Object.keys(CALLERS).map((name) => ({
      name,
      attempts: expected.again ? 2 : 1,
      settled: expected.again
        ? 'answered 200'
        : `failed with ${scenario.status}${name === 'queue' ? ` (${expected.queue})` : ''}`,
      waited: expected.again ? true : undefined,
    }));
    expect(outcomes).toEqual(alike);
  });
});
