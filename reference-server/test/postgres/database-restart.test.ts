/**
 * PostgreSQL restarting under load: while it is down every call is answered, and only
 * with a write acknowledged (201) or a typed 503 `SERVICE_UNAVAILABLE` with
 * `Retry-After` (never a 500, never a hang); afterwards full service, without a restart
 * of the server; nothing acknowledged is lost. The cluster is this file's own (restarting
 * the shared one would disturb other test files).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../helpers.js';
import { killCliRuns } from '../run-cli.js';
import { type PostgresCluster, startPostgresCluster } from './cluster.js';
import { call, INSTANCE_KEYS, type Instance, idOf, startInstances } from './instances.js';

const KEY = INSTANCE_KEYS.acme;

let cluster: PostgresCluster;
let server: Instance;

// A cluster of its own (initdb) and a server process: 20 s and more on a loaded machine.
beforeAll(async () => {
  cluster = await startPostgresCluster();
  [server] = (await startInstances(cluster.url, 1)) as [Instance];
}, 120_000);

afterAll(async () => {
  killCliRuns();
  await cluster?.stop();
});

describe('a PostgreSQL restart under load', () => {
  it('gives 201s or typed 503s with Retry-After while it is down, full service after, and loses nothing acknowledged', async () => {
    const created = await call(server, 'POST', 'petitions', KEY, { title: 'Open the pool' });
    const id = idOf(created.body);
    const helper: string = created.body._links['std:record_signature_helper'].href;
    const acknowledged = new Set<string>();
    const statuses = new Map<number, number>();
    let answered = 0;
    let unavailable = 0;
    let stop = false;
    const client = async (clientIndex: number) => {
      for (let n = 0; !stop; n++) {
        const email = `restart-${clientIndex}-${n}@example.org`;
        const answer = await call(server, 'POST', helper, KEY, {
          person: { email_addresses: [{ address: email }] },
        });
        answered++;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 201) {
          acknowledged.add(email);
        } else {
          expect(answer.status, JSON.stringify(answer.body)).toBe(503);
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(errorOf(answer.body)[0]?.error_code).toBe('SERVICE_UNAVAILABLE');
          unavailable++;
          // As a client honouring Retry-After would, but briefly: the test is bounded.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    };
    const CLIENTS = 8;
    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    // Settled only by a failed client until `stop`: handled where it is awaited below.
    clients.catch(() => undefined);
    /**
     * Waits until `condition()` holds. Bounded by the test's timeout alone (how fast the
     * clients go is the machine's load); a client that fails (a 500, a hang) ends it.
     */
    const until = async (condition: () => boolean): Promise<void> => {
      while (!condition()) {
        await Promise.race([clients, new Promise((resolve) => setTimeout(resolve, 20))]);
      }
    };
    // Under load first, then down for a while (stop, wait, start: a restart and an outage).
    await until(() => acknowledged.size >= 50);
    await cluster.kill();
    const answeredAtKill = answered;
    const unavailableAtKill = unavailable;
    // Down for at least a second, and until a call made after the kill was answered
    // (more answers than clients: each client has at most one call older than the kill).
    await Promise.all([
      new Promise((resolve) => setTimeout(resolve, 1000)),
      until(() => answered > answeredAtKill + CLIENTS),
    ]);
    const unavailableWhileDown = unavailable - unavailableAtKill;
    await cluster.start();
    const afterRestart = acknowledged.size;
    // Full service again: more writes acknowledged after the restart (never, and the
    // test times out: its bound is generous, the waits here have none of their own).
    await until(() => acknowledged.size >= afterRestart + 50);
    stop = true;
    await clients;
    // That call was answered, and only with a typed 503 (the clients check each answer).
    expect(unavailableWhileDown, JSON.stringify([...statuses])).toBeGreaterThan(0);

    // Everything acknowledged is there: the petition's total and each signer.
    const shown = await call(server, 'GET', `petitions/${id}`, KEY);
    expect(shown.body.total_signatures).toBeGreaterThanOrEqual(acknowledged.size);
    for (const email of acknowledged) {
      const filter = encodeURIComponent(`email_address eq '${email}'`);
      const found = await call(server, 'GET', `people?filter=${filter}`, KEY);
      expect(found.body.total_records, email).toBe(1);
    }
  }, 120_000);
});
