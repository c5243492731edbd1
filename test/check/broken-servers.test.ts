// checkServer against a small in-process server, correct and then broken one way at a
// time: the correct one passes every rule, each fault fails (or, where the rule is not
// the specification's, warns on) the rule it breaks, and a read-only check sends
// nothing but GET and OPTIONS.
import { describe, expect, it } from 'vitest';
import { type Check, type CheckReport, checkServer } from '../../src/check/index.js';
import {
  BROKEN_API_KEY,
  BROKEN_ENTRY_POINT,
  type BrokenServer,
  type BrokenServerFault,
  createBrokenServer,
} from './broken-server.js';

async function check(server: BrokenServer): Promise<CheckReport> {
  return checkServer(BROKEN_ENTRY_POINT, { apiKey: BROKEN_API_KEY, fetch: server.fetch, rate: 0 });
}

const describeChecks = (checks: readonly Check[]): string =>
  checks.map((check) => `${check.status} ${check.rule}: ${check.message}`).join('\n') || '(none)';

describe('checkServer against a correct server', () => {
  it('fails no check', async () => {
    const report = await check(createBrokenServer({ fault: 'none' }));
    const failed = report.checks.filter((check) => check.status === 'fail');
    expect(failed, `failing checks:\n${describeChecks(failed)}`).toEqual([]);
    expect(report.server.collections).toEqual(['people', 'tags']);
  });

  it('sends only GET and OPTIONS when not asked to write', async () => {
    const server = createBrokenServer({ fault: 'none' });
    const report = await check(server);
    expect(report.write).toBe(false);
    const methods = new Set(server.requests.map((request) => request.method));
    expect([...methods].sort()).toEqual(['GET', 'OPTIONS']);
    expect(Object.keys(report.requests.methods).sort()).toEqual(['GET', 'OPTIONS']);
    expect(report.requests.sent).toBe(server.requests.length);
  });
});

const FAULTS: readonly {
  fault: BrokenServerFault;
  rule: string;
  status: 'fail' | 'warn';
  message: RegExp;
}[] = [
  {
    fault: 'next-loops',
    rule: 'paging.next-loops',
    status: 'fail',
    message: /people: .*leads back/,
  },
  { fault: 'no-self', rule: 'records.self', status: 'fail', message: /people: .*no _links\.self/ },
  {
    fault: 'not-json',
    rule: 'paging.json',
    status: 'fail',
    message: /people: page 2 is not a JSON object/,
  },
  {
    fault: 'error-500-page-2',
    rule: 'paging.status',
    status: 'fail',
    message: /people: page 2 answered 500/,
  },
  {
    fault: 'wrong-type',
    rule: 'records.types',
    status: 'fail',
    message: /people: broken:1: .*given_name/,
  },
  { fault: 'no-curies', rule: 'entry-point.curies', status: 'fail', message: /declares no curies/ },
  {
    fault: 'error-not-std',
    rule: 'errors.std-error',
    status: 'fail',
    message: /404.*not a std:error/,
  },
  // Rate limits are "not shown" in the specification: Retry-After is HTTP's advice.
  {
    fault: 'rate-limit-no-retry-after',
    rule: 'rate-limit.retry-after',
    status: 'warn',
    message: /429 answers? carr(y|ies) no Retry-After/,
  },
  {
    fault: 'repeats-page',
    rule: 'paging.repeats',
    status: 'fail',
    message: /people: page 2 repeats the records of page 1/,
  },
  // std_version is required (Versioning, rule 1): missing, it fails, whatever else is optional.
  {
    fault: 'no-std-version',
    rule: 'entry-point.version',
    status: 'fail',
    message: /no std_version/,
  },
  {
    fault: 'tags-total-pages-wrong',
    rule: 'paging.totals',
    status: 'fail',
    message: /tags: total_pages 3 does not match total_records 1 at per_page 2/,
  },
];

describe('checkServer against a broken server', () => {
  it.each(FAULTS)(
    '$rule: $status on the fault $fault',
    async ({ fault, rule, status, message }) => {
      const server = createBrokenServer({ fault });
      const report = await check(server);
      const found = report.checks.find((check) => check.rule === rule && check.status === status);
      expect(
        found,
        `no ${rule} with status ${status}; the checks that are not a pass:\n${describeChecks(report.checks.filter((check) => check.status !== 'pass'))}`,
      ).toBeDefined();
      expect(found?.message).toMatch(message);
    },
  );

  it('the rate-limit fault refuses the 3rd request once, and the prober retries it', async () => {
    const server = createBrokenServer({ fault: 'rate-limit-no-retry-after' });
    const report = await check(server);
    expect(report.requests.rateLimited).toBe(1);
    expect(server.requests[3]).toEqual(server.requests[2]);
  });
});
