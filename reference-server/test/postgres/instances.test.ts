/**
 * Two server processes on one PostgreSQL database, as behind a load balancer: every
 * guarantee one process gives holds across them. Exact totals and one signature per
 * person and petition under concurrent helper calls spread over both, an
 * Idempotency-Key answered once across instances, tenants kept apart, and a kill -9 of
 * one instance under load losing no write it acknowledged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killCliRuns } from '../run-cli.js';
import { freshDatabase } from './database.js';
import {
  type CallResult,
  call,
  INSTANCE_KEYS,
  type Instance,
  idOf,
  startInstances,
} from './instances.js';

const KEY = INSTANCE_KEYS.acme;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let a: Instance;
let b: Instance;

beforeAll(async () => {
  database = await freshDatabase('instances');
  [a, b] = (await startInstances(database.url, 2)) as [Instance, Instance];
}, 60_000);

afterAll(async () => {
  killCliRuns();
  await database?.drop();
});

/** A new petition, made on `on`; its id and its signature helper's href. */
async function petition(on: Instance, title: string): Promise<{ id: string; helper: string }> {
  const created = await call(on, 'POST', 'petitions', KEY, { title });
  expect(created.status).toBe(201);
  return {
    id: idOf(created.body),
    helper: created.body._links['std:record_signature_helper'].href,
  };
}

/** The signature helper's path under an instance's API root. */
function helperPath(helper: string): string {
  return helper.slice(helper.indexOf('/api/v1/') + '/api/v1/'.length);
}

function signer(index: number) {
  return {
    person: {
      given_name: `Signer ${index}`,
      email_addresses: [{ address: `signer-${index}@example.org` }],
    },
  };
}

describe('two instances on one PostgreSQL database', () => {
  it('keep one signature per person and petition, and exact totals, under concurrent helper calls on both', async () => {
    const { id, helper } = await petition(a, 'Keep the library open');
    const path = helperPath(helper);
    const people = 12;
    // Every person signs four times at once, twice through each instance.
    const calls: Promise<CallResult>[] = [];
    for (let round = 0; round < 4; round++) {
      for (let index = 0; index < people; index++) {
        calls.push(call(round % 2 === 0 ? a : b, 'POST', path, KEY, signer(index)));
      }
    }
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.status).filter((s) => s !== 200 && s !== 201)).toEqual(
      [],
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(people);
    for (const on of [a, b]) {
      const shown = await call(on, 'GET', `petitions/${id}`, KEY);
      expect(shown.body.total_signatures).toBe(people);
      const signatures = await call(on, 'GET', `petitions/${id}/signatures`, KEY);
      expect(signatures.body.total_records).toBe(people);
    }
    const matched = await call(
      b,
      'GET',
      `people?filter=${encodeURIComponent("email_address eq 'signer-3@example.org'")}`,
      KEY,
    );
    expect(matched.body.total_records).toBe(1);
  });

  it('answer an Idempotency-Key once across instances: a repeat on the other is a replay, concurrent ones run once', async () => {
    const { id, helper } = await petition(b, 'Fix the crossing');
    const path = helperPath(helper);
    const first = await call(a, 'POST', path, KEY, signer(100), { 'Idempotency-Key': 'key-one' });
    const repeat = await call(b, 'POST', path, KEY, signer(100), { 'Idempotency-Key': 'key-one' });
    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);

    // Ten calls with one key at once, five on each instance, each a new person: one runs.
    const together = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        call(index % 2 === 0 ? a : b, 'POST', path, KEY, signer(200), {
          'Idempotency-Key': 'key-two',
        }),
      ),
    );
    expect(together.every((answer) => answer.status === 201)).toBe(true);
    const signatures = await call(a, 'GET', `petitions/${id}/signatures`, KEY);
    expect(signatures.body.total_records).toBe(2);
  });

  it('keep tenants apart: the other tenant finds nothing of acme on either instance', async () => {
    const { id } = await petition(a, 'Only for acme');
    for (const on of [a, b]) {
      const shown = await call(on, 'GET', `petitions/${id}`, INSTANCE_KEYS.other);
      expect(shown.status).toBe(404);
      const own = await call(on, 'GET', 'petitions', INSTANCE_KEYS.other);
      expect(own.body.total_records).toBe(0);
    }
  });

  it('lose no acknowledged write when one instance is killed (SIGKILL) under load', async () => {
    const { id, helper } = await petition(a, 'Light the park');
    const path = helperPath(helper);
    const acknowledged = new Set<string>();
    let refused = 0;
    let killed = false;
    // Ten clients, each alternating instances, until the survivor has taken 40 more.
    const client = async (clientIndex: number) => {
      for (let n = 0; n < 30; n++) {
        const on = (clientIndex + n) % 2 === 0 ? a : b;
        const index = 1000 + clientIndex * 100 + n;
        try {
          const answer = await call(on, 'POST', path, KEY, signer(index));
          if (answer.status === 201) acknowledged.add(`signer-${index}@example.org`);
          else refused++;
        } catch {
          // The killed instance's connections fail: nothing was acknowledged.
          refused++;
        }
        if (!killed && acknowledged.size >= 40) {
          killed = true;
          a.run.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 10 }, (_, index) => client(index)));
    expect(killed).toBe(true);
    // The server process itself died: nothing answers on its port any more.
    expect(await a.run.exited).toBeNull();
    await expect(call(a, 'GET', 'petitions', KEY)).rejects.toThrow();
    expect(acknowledged.size).toBeGreaterThan(100);
    // Everything acknowledged by either instance is there, read through the survivor.
    let total = 0;
    for (const email of acknowledged) {
      const filter = encodeURIComponent(`email_address eq '${email}'`);
      const found = await call(b, 'GET', `people?filter=${filter}`, KEY);
      expect(found.body.total_records, email).toBe(1);
      const person = found.body._embedded['std:people'][0];
      const signed = await call(b, 'GET', person._links['std:signatures'].href, KEY);
      expect(signed.body.total_records, email).toBe(1);
      total++;
    }
    const shown = await call(b, 'GET', `petitions/${id}`, KEY);
    const signatures = await call(b, 'GET', `petitions/${id}/signatures`, KEY);
    expect(shown.body.total_signatures).toBe(signatures.body.total_records);
    expect(signatures.body.total_records).toBeGreaterThanOrEqual(total);
    expect(refused).toBeGreaterThan(0);
  }, 60_000);
});
