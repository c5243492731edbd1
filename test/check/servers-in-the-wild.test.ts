/**
 * What running adis-check against servers none of us wrote found, one small server a
 * finding (broken-server.ts, shaped by its options):
 *
 * 1. the server under test is the entry point's origin: a curie whose documentation
 *    lives on a host that cannot be reached is not contacted, and with `followDocs` its
 *    failure is a warning about that link, not "the server stopped answering";
 * 2. what the specification lists without requiring (the entry point's `max_pagesize`)
 *    is a warn when missing, what it requires (`std_version`) still a fail, and every
 *    check says which;
 * 3. a known server's departure is excused only within its scope: Action Network's
 *    people without totals, not a wrong `total_pages` on tags;
 * 4. a POST refused with 405 on a collection Action Network documents as read only is a
 *    vendor difference; the same 405 from a server not known to document it still fails.
 */
import { describe, expect, it } from 'vitest';
import {
  type Check,
  type CheckReport,
  checkServer,
  REQUIREMENTS,
  RULE_REQUIREMENTS,
} from '../../src/check/index.js';
import {
  BROKEN_API_KEY,
  BROKEN_ENTRY_POINT,
  BROKEN_ORIGIN,
  type BrokenServerOptions,
  createBrokenServer,
} from './broken-server.js';

const UNREACHABLE_DOCS = 'http://docs.invalid/{rel}';

async function check(
  options: BrokenServerOptions,
  run: { followDocs?: boolean; write?: boolean } = {},
): Promise<{ report: CheckReport; elsewhere: string[] }> {
  const server = createBrokenServer(options);
  const report = await checkServer(BROKEN_ENTRY_POINT, {
    apiKey: BROKEN_API_KEY,
    fetch: server.fetch,
    rate: 0,
    ...run,
  });
  const elsewhere = server.requests
    .map((request) => request.url)
    .filter((url) => new URL(url).origin !== BROKEN_ORIGIN);
  return { report, elsewhere };
}

const failures = (report: CheckReport): string[] =>
  report.checks.filter((one) => one.status === 'fail').map((one) => `${one.rule}: ${one.message}`);

const rule = (report: CheckReport, name: string): Check | undefined =>
  report.checks.find((one) => one.rule === name);

/** A server that follows the specification, bare: curies elsewhere, no optional entry point member. */
const MINIMAL: BrokenServerOptions = { curieHref: UNREACHABLE_DOCS, entryPoint: 'minimal' };

describe('1. a curie whose documentation is on another, unreachable origin', () => {
  it('is not contacted without followDocs, and the run fails nothing and skips no area', async () => {
    const { report, elsewhere } = await check(MINIMAL);
    expect(failures(report)).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(rule(report, 'entry-point.curie-docs')).toMatchObject({
      status: 'skip',
      requirement: 'advice',
      url: 'http://docs.invalid/people',
    });
    expect(rule(report, 'entry-point.curie-docs')?.message).toMatch(
      /on another origin than the server under test \(http:\/\/broken\.test\): not contacted \(--follow-docs reads it\)/,
    );
    expect(rule(report, 'network')).toBeUndefined();
    for (const area of ['collections', 'errors', 'authentication', 'cors'] as const) {
      expect(
        report.checks.some((one) => one.area === area && one.status === 'pass'),
        area,
      ).toBe(true);
    }
  });

  it('with followDocs, is read once without the key; its failure is a warning about that link, and the run goes on', async () => {
    const server = createBrokenServer(MINIMAL);
    const report = await checkServer(BROKEN_ENTRY_POINT, {
      apiKey: BROKEN_API_KEY,
      fetch: server.fetch,
      rate: 0,
      followDocs: true,
    });
    const docs = server.requests.filter((request) =>
      request.url.startsWith('http://docs.invalid/'),
    );
    expect(docs).toEqual([{ method: 'GET', url: 'http://docs.invalid/people' }]);
    expect(failures(report)).toEqual([]);
    const curieDocs = rule(report, 'entry-point.curie-docs');
    expect(curieDocs).toMatchObject({ status: 'warn', url: 'http://docs.invalid/people' });
    expect(curieDocs?.message).toMatch(
      /std:people expands to http:\/\/docs\.invalid\/people, which could not be read \(Network error: GET http:\/\/docs\.invalid\/people .*ENOTFOUND.*\): its documentation cannot be read; the other checks go on$/,
    );
    expect(report.checks.some((one) => /stopped answering/.test(one.message))).toBe(false);
    expect(rule(report, 'cors.allow-origin')?.status).toBe('pass');
    expect(rule(report, 'authentication.wrong-key')?.status).toBe('pass');
  });
});

describe('2. what the specification requires, and what it only lists', () => {
  it('warns on the optional entry point members missing, naming them, and says they are optional', async () => {
    const { report } = await check(MINIMAL);
    expect(rule(report, 'entry-point.max-pagesize')).toMatchObject({
      status: 'warn',
      requirement: 'optional',
      message: 'no max_pagesize',
    });
    expect(rule(report, 'entry-point.fields')).toMatchObject({
      status: 'warn',
      requirement: 'optional',
    });
    expect(rule(report, 'entry-point.fields')?.message).toMatch(
      /motd, vendor_name, product_name, namespace/,
    );
    expect(rule(report, 'entry-point.version')).toMatchObject({
      status: 'pass',
      requirement: 'required',
    });
  });

  it('still fails a required member missing (std_version)', async () => {
    const { report } = await check({ ...MINIMAL, fault: 'no-std-version' });
    expect(failures(report)).toEqual(['entry-point.version: no std_version']);
    expect(rule(report, 'entry-point.version')?.requirement).toBe('required');
  });

  it('gives every check the level of its rule', async () => {
    const { report } = await check(MINIMAL);
    for (const one of report.checks) {
      expect(one.requirement, one.rule).toBe(
        RULE_REQUIREMENTS[one.rule as keyof typeof RULE_REQUIREMENTS],
      );
      expect(Object.keys(REQUIREMENTS)).toContain(one.requirement);
    }
  });
});

describe("3. a known server's departure, within its scope and outside it", () => {
  const actionNetwork: BrokenServerOptions = {
    vendorName: 'Action Network',
    withoutTotals: ['people'],
  };

  it('excuses the people pages without totals that Action Network documents, citing its page', async () => {
    const { report } = await check(actionNetwork);
    expect(report.detected?.name).toBe('Action Network');
    const totals = rule(report, 'paging.totals');
    expect(totals).toMatchObject({
      status: 'warn',
      requirement: 'optional',
      spec: 'https://actionnetwork.org/docs/v2/people',
    });
    expect(totals?.message).toMatch(
      /^vendor difference \(Action Network\): people: no total_records or total_pages.*; its docs: people pages leave out/,
    );
  });

  it('fails a wrong total_pages on another collection (tags), on a server identified as Action Network', async () => {
    const { report } = await check({ ...actionNetwork, fault: 'tags-total-pages-wrong' });
    expect(report.detected?.name).toBe('Action Network');
    const totals = rule(report, 'paging.totals');
    expect(totals?.status).toBe('fail');
    // The real problem first, cited to the specification; the documented one after it.
    expect(totals?.message).toMatch(
      /^tags: total_pages 3 does not match total_records 1 at per_page 2; vendor difference \(Action Network\): people: no total_records/,
    );
    expect(totals?.spec).toBe('spec: Collection document');
  });

  it('does not call the same people pages a vendor difference on a server it does not know', async () => {
    const { report } = await check({ withoutTotals: ['people'] });
    expect(report.detected).toBeNull();
    expect(rule(report, 'paging.totals')?.status).toBe('warn');
    expect(rule(report, 'paging.totals')?.message).not.toMatch(/vendor difference/);
  });

  it('does not excuse tags without totals on Action Network: its docs say so of people and items only', async () => {
    const { report } = await check({ vendorName: 'Action Network', withoutTotals: ['tags'] });
    const totals = rule(report, 'paging.totals');
    expect(totals?.status).toBe('warn');
    expect(totals?.message).toMatch(/^tags: no total_records or total_pages/);
    expect(totals?.message).not.toMatch(/vendor difference/);
  });
});

describe('4. a create refused on a read-only collection', () => {
  const creates = (report: CheckReport) =>
    report.checks.filter((one) => one.rule === 'writes.create');

  it('is a vendor difference on lists under Action Network, which documents them read only', async () => {
    const { report } = await check({ vendorName: 'Action Network', lists: true }, { write: true });
    const lists = creates(report).find((one) =>
      one.message.includes('lists: a create answered 405'),
    );
    expect(lists).toMatchObject({
      status: 'warn',
      requirement: 'required',
      spec: 'https://actionnetwork.org/docs/v2/lists',
    });
    expect(lists?.message).toMatch(
      /^vendor difference \(Action Network\): lists: a create answered 405/,
    );
    expect(lists?.message).toMatch(/its docs: lists are read only/);
    // Outside the scope, the same 405 on people (which Action Network lets one create) fails.
    expect(
      creates(report).find((one) => one.message.startsWith('people: a create answered 405')),
    ).toMatchObject({ status: 'fail' });
  });

  it('stays a fail on a server not known to document it', async () => {
    const { report } = await check({ lists: true }, { write: true });
    expect(
      creates(report).find((one) => one.message.startsWith('lists: a create answered 405')),
    ).toMatchObject({ status: 'fail', requirement: 'required' });
  });
});
