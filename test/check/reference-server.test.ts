/**
 * adis-check against the reference server (in-process, SQLite): the server as it is
 * passes with no failure, read-only and with writes (which leave nothing behind), and
 * the server as Action Network is recognised, checked with its key header, and has no
 * failure either, read-only or with writes (its documented departures are warnings,
 * each citing the page that documents it: the read-only lists among them). The
 * read-only runs send no POST, PUT, PATCH or DELETE, and nothing leaves the server's
 * origin (its curies' documentation is on it).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ACTION_NETWORK_PRESET } from '../../reference-server/src/presets/index.js';
import { createTestServer } from '../../reference-server/src/testing.js';
import { CHECK_AREAS, type CheckReport, checkServer } from '../../src/check/index.js';

const kit = createTestServer({ seed: { people: 120, activity: true } });
const actionNetwork = createTestServer({
  seed: { people: 60, activity: true },
  app: { preset: ACTION_NETWORK_PRESET },
});
afterAll(async () => {
  await kit.close();
  await actionNetwork.close();
});

/** The fetch of a test server, recording each request's method. */
function recording(fetch: typeof globalThis.fetch): {
  fetch: typeof globalThis.fetch;
  methods: string[];
} {
  const methods: string[] = [];
  return {
    methods,
    fetch: (input, init) => {
      methods.push(
        (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
      );
      return fetch(input, init);
    },
  };
}

function failures(report: CheckReport): string[] {
  return report.checks
    .filter((check) => check.status === 'fail')
    .map((check) => `${check.rule}: ${check.message}`);
}

describe('adis-check against the reference server', () => {
  it('passes with no failure, read-only, sending only GET and OPTIONS', async () => {
    const { fetch, methods } = recording(kit.fetch);
    const report = await checkServer(kit.entryPoint, { apiKey: kit.keys.write, fetch, rate: 0 });
    expect(failures(report)).toEqual([]);
    expect(report.detected).toBeNull();
    expect(report.server).toMatchObject({ version: '1.0', namespace: 'adis', curies: ['std'] });
    // Its curies' documentation is on its own origin: read, as the rest of the server is.
    expect(report.checks.find((check) => check.rule === 'entry-point.curie-docs')?.status).toBe(
      'pass',
    );
    expect(report.server.collections).toContain('people');
    // Every area a read-only run covers has a passing check.
    // Every area a read-only run covers (all but writes, and rate limiting, which needs a 429).
    const readOnlyAreas = CHECK_AREAS.filter(
      (area) => area !== 'writes' && area !== 'rate limiting',
    );
    for (const area of readOnlyAreas) {
      expect(
        report.checks.some((check) => check.area === area && check.status === 'pass'),
        area,
      ).toBe(true);
    }
    expect(new Set(methods)).toEqual(new Set(['GET', 'OPTIONS']));
    expect(report.requests.sent).toBe(methods.length);
    expect(report.checks.some((check) => check.area === 'writes')).toBe(false);
  });

  it('with --write creates, reads back, writes back and deletes, leaving nothing behind', async () => {
    await kit.ready();
    const before = await kit.fetch(`${kit.entryPoint}people?per_page=1`, {
      headers: { 'STD-API-Token': kit.keys.write },
    });
    const totalBefore = ((await before.json()) as { total_records: number }).total_records;
    const report = await checkServer(kit.entryPoint, {
      apiKey: kit.keys.write,
      fetch: kit.fetch,
      rate: 0,
      write: true,
    });
    expect(failures(report)).toEqual([]);
    const writes = report.checks.filter((check) => check.area === 'writes');
    expect(writes.filter((check) => check.status === 'pass').map((check) => check.rule)).toEqual(
      expect.arrayContaining([
        'writes.create',
        'writes.read-back',
        'writes.round-trip',
        'writes.delete',
        'writes.helper',
        'writes.idempotency-key',
        'writes.background-processing',
        'writes.cleanup',
      ]),
    );
    const after = await kit.fetch(`${kit.entryPoint}people?per_page=1`, {
      headers: { 'STD-API-Token': kit.keys.write },
    });
    expect(((await after.json()) as { total_records: number }).total_records).toBe(totalBefore);
  });

  it('with a read-only key, --write reports the refused writes as failures', async () => {
    const report = await checkServer(kit.entryPoint, {
      apiKey: kit.keys.read,
      fetch: kit.fetch,
      rate: 0,
      write: true,
      pagesPerCollection: 1,
    });
    const create = report.checks.find((check) => check.rule === 'writes.create');
    expect(create).toMatchObject({ status: 'fail' });
    expect(create?.message).toMatch(/answered 403/);
  });

  it('stops within --max-requests and says what it skipped', async () => {
    const { fetch, methods } = recording(kit.fetch);
    const report = await checkServer(kit.entryPoint, {
      apiKey: kit.keys.write,
      fetch,
      rate: 0,
      maxRequests: 10,
    });
    expect(methods.length).toBeLessThanOrEqual(10);
    expect(
      report.checks.some((check) => check.status === 'skip' && /budget of 10/.test(check.message)),
    ).toBe(true);
  });
});

describe('adis-check against the reference server as Action Network', () => {
  it('recognises it, finds its key header from the 401, and has no failure', async () => {
    const report = await checkServer(actionNetwork.entryPoint, {
      apiKey: actionNetwork.keys.write,
      fetch: actionNetwork.fetch,
      rate: 0,
      pagesPerCollection: 1,
    });
    expect(failures(report)).toEqual([]);
    expect(report.detected).toMatchObject({
      name: 'Action Network',
      preset: 'actionNetwork',
      connectOptions: { apiKeyHeader: 'OSDI-API-Token', curiePrefix: 'osdi' },
    });
    // Its documented departures are vendor differences, each citing the page that says so.
    const rule = (name: string) => report.checks.find((check) => check.rule === name);
    expect(rule('entry-point.version')).toMatchObject({
      status: 'warn',
      requirement: 'required',
      spec: 'https://actionnetwork.org/docs/v2/aep',
    });
    expect(rule('entry-point.version')?.message).toMatch(
      /vendor difference \(Action Network\): no std_version: it is in osdi_version \(1\.1\.1\)/,
    );
    expect(rule('entry-point.max-pagesize')).toMatchObject({
      status: 'warn',
      requirement: 'optional',
      spec: 'https://actionnetwork.org/docs/v2/aep',
    });
    // People and list items, the two collections its docs say carry no totals.
    expect(rule('paging.totals')).toMatchObject({
      status: 'warn',
      spec: 'https://actionnetwork.org/docs/v2/people, https://actionnetwork.org/docs/v2/items',
    });
    expect(rule('authentication.key-header')).toMatchObject({
      status: 'warn',
      spec: 'https://actionnetwork.org/docs/v2/',
    });
  });

  it('with --write has no failure: the 405 on lists, which its docs say are read only, is a vendor difference', async () => {
    await actionNetwork.ready();
    const report = await checkServer(actionNetwork.entryPoint, {
      apiKey: actionNetwork.keys.write,
      fetch: actionNetwork.fetch,
      rate: 0,
      write: true,
      pagesPerCollection: 1,
    });
    expect(failures(report)).toEqual([]);
    const lists = report.checks.find(
      (check) => check.rule === 'writes.create' && check.message.includes('lists:'),
    );
    expect(lists).toMatchObject({
      status: 'warn',
      spec: 'https://actionnetwork.org/docs/v2/lists',
    });
    expect(lists?.message).toMatch(
      /^vendor difference \(Action Network\): lists: a create answered 405/,
    );
    // background_request=true, as Action Network documents it, answered at once and applied.
    const background = report.checks.find((check) => check.rule === 'writes.background-processing');
    expect(background?.status).toBe('pass');
    expect(background?.message).toMatch(
      /^background_request=true answered 20[02], and the write was applied$/,
    );
    for (const created of ['people', 'petitions', 'forms', 'events', 'tags']) {
      expect(
        report.checks.find(
          (check) => check.rule === 'writes.create' && check.message.startsWith(`${created}:`),
        )?.status,
        created,
      ).toBe('pass');
    }
  }, 120_000);
});
