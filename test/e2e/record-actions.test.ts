import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActionsReport, formatActions, recordActions } from '../../examples/record-actions.js';
import { type Storage, seedActivity, type Tenant } from '../../reference-server/src/index.js';
import { type TestServer, testServer } from './reference-server.js';

let server: TestServer;
let storage: Storage;
let tenant: Tenant;
let report: ActionsReport;

beforeAll(async () => {
  server = testServer(20);
  if (!server.storage) throw new Error('testServer does not expose its storage');
  storage = server.storage;
  await server.ready();
  await seedActivity(storage, { tenant: 'demo', seed: 5 });
  tenant = await storage.tenants.ensure('demo');
  const running = await server.listen();
  report = await recordActions(running.entryPoint, server.keys.write);
});
afterAll(() => server.close());

describe('examples/record-actions.ts over real HTTP', () => {
  it('records both signatures, the keyed one partly (the unknown tag)', () => {
    expect(report.totalAfter).toBe(report.totalBefore + 2);
    expect(report.keyed).toEqual({
      status: 400,
      complete: false,
      failedCodes: ['TAG_NAME_DOES_NOT_EXIST'],
      signer: 'Rosa',
    });
    expect(report.anonymous).toEqual({ status: 200, complete: true, recordReturned: false });
  });

  it('stored the signer once, and no tagging: the add_tags part failed as a whole', async () => {
    const [rosa, ...others] = await storage.records.findByKey(
      tenant.id,
      'person',
      'email',
      'rosa.delgado@example.org',
    );
    expect(others).toEqual([]);
    const taggings = (
      await storage.records.list({ tenantId: tenant.id, kind: 'tagging', limit: 10_000, offset: 0 })
    ).filter((t) => (t.doc._refs as Record<string, { id: string }>).person?.id === rosa);
    expect(rosa).toBeDefined();
    expect(taggings).toEqual([]);
  });

  it('schedules the first demo message (it has a list) and cancels the schedule', () => {
    expect(report.message).toEqual([
      expect.stringMatching(/^schedule: Scheduled to start at .*: \d+ recipients$/),
      expect.stringMatching(/^cancel schedule: /),
    ]);
    expect(formatActions(report)).toContain('total_signatures: 20 → 22');
  });
});
