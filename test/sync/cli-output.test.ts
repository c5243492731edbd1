/**
 * What `adis-sync` prints: the summary table (and a dry run's `would create`), the JSON
 * for scripts, the exit code a summary makes, and the progress shown from the run's
 * events (a redrawn line on a terminal, a line per kind elsewhere, refusals capped).
 */
import { describe, expect, it } from 'vitest';
import {
  formatSyncSummary,
  kindLine,
  REFUSALS_SHOWN,
  type SummaryContext,
  SyncReporter,
  syncExitCode,
  syncFailureJson,
  syncSummaryJson,
} from '../../src/cli/sync-output.js';
import type { KindTally, SyncEvent, SyncSummary } from '../../src/sync/types.js';

const FROM = 'http://127.0.0.1:8001/api/v1/';
const TO = 'http://127.0.0.1:8002/api/v1/';

function tally(counts: Partial<KindTally> = {}): KindTally {
  return {
    read: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    refused: 0,
    adjusted: 0,
    vanished: 0,
    reasons: {},
    adjustments: {},
    ...counts,
  };
}

function summary(changes: Partial<SyncSummary> = {}): SyncSummary {
  return {
    kinds: {
      people: tally({ read: 1200, created: 1150, updated: 40, unchanged: 10 }),
      tags: tally({ read: 3, created: 3 }),
    },
    resumed: false,
    dryRun: false,
    refusals: [],
    vanished: [],
    ...changes,
  };
}

const context: SummaryContext = {
  from: FROM,
  to: TO,
  deletions: undefined,
  requests: { from: 14, to: 1203 },
  skipped: [],
};

describe('the exit code of a finished run', () => {
  it('is 0 when nothing was refused, 1 when any kind has a refusal', () => {
    expect(syncExitCode(summary())).toBe(0);
    expect(syncExitCode(summary({ kinds: {} }))).toBe(0);
    expect(
      syncExitCode(
        summary({ kinds: { people: tally({ read: 5, created: 5 }), tags: tally({ refused: 1 }) } }),
      ),
    ).toBe(1);
    // Vanished records are not refusals: the run did what it was asked.
    expect(syncExitCode(summary({ kinds: { people: tally({ vanished: 4 }) } }))).toBe(0);
  });
});

describe('the summary as text', () => {
  it('is a table per kind, a total, and the requests sent to each side', () => {
    expect(formatSyncSummary(summary(), context)).toBe(
      [
        `Synced ${FROM} → ${TO}`,
        'kind     read  created  updated  unchanged  refused  vanished',
        'people  1,200    1,150       40         10        0         -',
        'tags        3        3        0          0        0         -',
        'total   1,203    1,153       40         10        0         -',
        '',
        'Requests: 14 to the source, 1,203 to the target.',
        '',
      ].join('\n'),
    );
  });

  it('says "would create" and "would update" in a dry run, and that nothing was written', () => {
    const text = formatSyncSummary(summary({ dryRun: true, resumed: true }), context);
    expect(text.split('\n')[0]).toBe(
      `Dry run, nothing written: ${FROM} → ${TO} (went on from a run that stopped)`,
    );
    expect(text).toContain(
      'kind     read  would create  would update  unchanged  refused  vanished',
    );
    expect(text).toContain(
      'people  1,200         1,150            40         10        0         -',
    );
    expect(text).not.toMatch(/ created /);
  });

  it('gives the reasons for refusals with their counts, and where every record is named', () => {
    const refused = summary({
      kinds: {
        people: tally({
          read: 10,
          created: 7,
          refused: 3,
          reasons: { 'the target wants an email address or a phone number': 2, 'HTTP 400': 1 },
        }),
      },
      refusals: [{ kind: 'people', source: `${FROM}people/1`, reason: 'HTTP 400', status: 400 }],
    });
    const text = formatSyncSummary(refused, context);
    expect(text).toContain('people    10        7        0          0        3         -');
    expect(text).not.toContain('total');
    expect(text).toContain(
      [
        'Refused, by reason:',
        '  people: 2 × the target wants an email address or a phone number',
        '  people: 1 × HTTP 400',
        "The first 1 of the 3 records refused are named in --json's refusals.",
      ].join('\n'),
    );
  });

  it('lists what vanished from the source, as reported, removed, or to be removed', () => {
    const gone = summary({
      kinds: { people: tally({ read: 2, unchanged: 2, vanished: 3 }) },
      vanished: [
        { kind: 'people', source: `${FROM}people/9`, target: `${TO}people/4` },
        { kind: 'people', source: `${FROM}people/10`, target: `${TO}people/5` },
      ],
    });
    const reported = formatSyncSummary(gone, { ...context, deletions: 'report' });
    expect(reported).toContain('people     2        0        0          2        0         3');
    expect(reported).toContain(
      [
        'Gone from the source (their copies are kept; --deletions remove deletes them):',
        `  people ${FROM}people/9 → ${TO}people/4`,
        `  people ${FROM}people/10 → ${TO}people/5`,
        '  … and 1 more',
      ].join('\n'),
    );
    expect(formatSyncSummary(gone, { ...context, deletions: 'remove' })).toContain(
      'Gone from the source (their copies were deleted):',
    );
    expect(
      formatSyncSummary({ ...gone, dryRun: true }, { ...context, deletions: 'remove' }),
    ).toContain('Gone from the source (their copies would be deleted):');
  });

  it('names on one line the kinds of which nothing was read, instead of rows of zeros', () => {
    const text = formatSyncSummary(
      summary({
        kinds: {
          people: tally({ read: 2, unchanged: 2 }),
          organizations: tally(),
          tags: tally({ read: 1, updated: 1 }),
          lists: tally(),
        },
      }),
      context,
    );
    expect(text).toContain(
      [
        'kind    read  created  updated  unchanged  refused  vanished',
        'people     2        0        0          2        0         -',
        'tags       1        0        1          0        0         -',
        'total      3        0        1          2        0         -',
        'Nothing read of: organizations, lists.',
      ].join('\n'),
    );
    expect(
      formatSyncSummary(summary({ kinds: { people: tally(), tags: tally() } }), context),
    ).toContain(
      'No record was read: nothing changed on the source since the last run, or it has none (people, tags).',
    );
  });

  it('gives the ten commonest reasons of a kind, and counts the others', () => {
    const reasons = Object.fromEntries(
      Array.from({ length: 14 }, (_, n) => [`reason ${n + 1}`, n + 1]),
    );
    const text = formatSyncSummary(
      summary({ kinds: { people: tally({ read: 105, refused: 105, reasons }) } }),
      context,
    );
    expect(text).toContain(
      'Refused, by reason:\n  people: 14 × reason 14\n  people: 13 × reason 13\n',
    );
    expect(text).toContain('  people: 5 × reason 5\n');
    expect(text).not.toContain('× reason 4\n');
    expect(text).toContain(
      "  people: … 4 other reasons (10 records; all in --json's kinds.people.reasons)",
    );
  });

  it('names the kinds skipped, and says when no kind was copied', () => {
    const text = formatSyncSummary(summary({ kinds: {} }), {
      ...context,
      skipped: [{ kind: 'lists', reason: 'the target does not link lists' }],
    });
    expect(text).toContain('No kind was copied: the source links none of the kinds asked for.');
    expect(text).toContain('Skipped:\n  lists: the target does not link lists');
  });
});

describe('the summary as JSON', () => {
  it("is the run's summary with the kinds skipped, the requests and the exit code", () => {
    const run = summary({
      kinds: { people: tally({ read: 2, created: 1, refused: 1, reasons: { nope: 1 } }) },
      refusals: [{ kind: 'people', source: `${FROM}people/2`, reason: 'nope', status: 422 }],
    });
    const json = JSON.parse(
      syncSummaryJson(run, {
        requests: { from: 3, to: 4 },
        skipped: [{ kind: 'lists', reason: 'read only' }],
        exitCode: syncExitCode(run),
      }),
    ) as Record<string, unknown>;
    expect(json).toEqual({
      ...run,
      skipped: [{ kind: 'lists', reason: 'read only' }],
      requests: { from: 3, to: 4 },
      exitCode: 1,
    });
  });

  it('says why a run could not finish, with the requests sent and exit code 2', () => {
    expect(
      JSON.parse(syncFailureJson('the target (to) refused the key', { from: 1, to: 1 })),
    ).toEqual({
      error: 'the target (to) refused the key',
      requests: { from: 1, to: 1 },
      exitCode: 2,
    });
  });
});

/** A stream that keeps what is written, a terminal or not. */
function stream(isTTY: boolean, columns = 100) {
  let text = '';
  return {
    isTTY,
    columns,
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
    text: () => text,
  };
}

/** A clock the test moves. */
function clock() {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function refusal(n: number): SyncEvent {
  return {
    type: 'refused',
    refusal: {
      kind: 'people',
      source: `${FROM}people/${n}`,
      reason: 'no email address',
      status: 422,
    },
  };
}

describe('the progress shown while it runs', () => {
  it('draws a line per kind on a terminal: read of the total, a rate and the time left', () => {
    const err = stream(true);
    const time = clock();
    const reporter = new SyncReporter(err, { json: false, quiet: false, now: time.now });
    reporter.event({ type: 'kind-start', kind: 'people', total: 1000 });
    time.advance(5000);
    reporter.event({
      type: 'progress',
      kind: 'people',
      tally: tally({ read: 500, created: 500 }),
      total: 1000,
    });
    const first = err.text();
    expect(first).toBe(
      `\rpeople [${'#'.repeat(15)}${'-'.repeat(15)}]   50%  500/1,000  100/s  ETA 5s\x1b[K`,
    );
    // Under 100 ms later: not drawn again.
    time.advance(50);
    reporter.event({ type: 'progress', kind: 'people', tally: tally({ read: 510 }), total: 1000 });
    expect(err.text()).toBe(first);
    time.advance(4950);
    reporter.event({
      type: 'kind-done',
      kind: 'people',
      tally: tally({ read: 1000, created: 1000 }),
    });
    expect(err.text().slice(first.length)).toBe(
      '\r\x1b[Kpeople: 1,000 read, 1,000 created, 0 updated, 0 unchanged, 0 refused (10.0 s)\n',
    );
  });

  it('shows records and a rate without a total, and no time left', () => {
    const err = stream(true);
    const time = clock();
    const reporter = new SyncReporter(err, { json: false, quiet: false, now: time.now });
    reporter.event({ type: 'kind-start', kind: 'signatures', total: undefined });
    time.advance(2000);
    reporter.event({
      type: 'progress',
      kind: 'signatures',
      tally: tally({ read: 50 }),
      total: undefined,
    });
    expect(err.text()).toBe('\rsignatures  50 records  25/s\x1b[K');
    reporter.finish();
    expect(err.text().endsWith('\r\x1b[K')).toBe(true);
  });

  it('prints no progress line where stderr is not a terminal: a line per kind done instead', () => {
    const err = stream(false);
    const time = clock();
    const reporter = new SyncReporter(err, { json: false, quiet: false, now: time.now });
    reporter.event({ type: 'kind-start', kind: 'tags', total: 3 });
    reporter.event({ type: 'progress', kind: 'tags', tally: tally({ read: 3 }), total: 3 });
    time.advance(1500);
    reporter.event({
      type: 'kind-done',
      kind: 'tags',
      tally: tally({ read: 3, created: 2, updated: 1 }),
    });
    reporter.event({
      type: 'kind-skipped',
      kind: 'lists',
      reason: 'the target does not link lists',
    });
    // Nothing read: no line (the summary names such kinds together).
    reporter.event({ type: 'kind-start', kind: 'forms', total: undefined });
    reporter.event({ type: 'kind-done', kind: 'forms', tally: tally() });
    reporter.finish();
    expect(err.text()).toBe(
      'tags: 3 read, 2 created, 1 updated, 0 unchanged, 0 refused (1.5 s)\n' +
        'skipped lists: the target does not link lists\n',
    );
    expect(reporter.skipped()).toEqual([
      { kind: 'lists', reason: 'the target does not link lists' },
    ]);
  });

  it(`tells the first ${REFUSALS_SHOWN} refusals, each naming the record, then how many more`, () => {
    const err = stream(true);
    const reporter = new SyncReporter(err, { json: false, quiet: false, now: clock().now });
    reporter.event({ type: 'kind-start', kind: 'people', total: 30 });
    reporter.event({ type: 'progress', kind: 'people', tally: tally({ read: 5 }), total: 30 });
    for (let n = 1; n <= REFUSALS_SHOWN + 5; n += 1) reporter.event(refusal(n));
    reporter.finish();
    const lines = err.text().split('\n');
    // The progress line is cleared before the first refusal is told.
    expect(lines[0]).toMatch(
      new RegExp(`\\r\\x1b\\[Krefused: people ${FROM}people/1 \\(422\\): no email address$`),
    );
    expect(lines.filter((line) => line.includes('refused: people'))).toHaveLength(REFUSALS_SHOWN);
    expect(err.text()).toContain(`people/${REFUSALS_SHOWN} (422)`);
    expect(err.text()).not.toContain(`people/${REFUSALS_SHOWN + 1} `);
    expect(err.text().endsWith('… and 5 more refused (the summary counts them all)\n')).toBe(true);
  });

  it('with --json, writes nothing: refusals and kinds come in the JSON at the end', () => {
    const err = stream(true);
    const reporter = new SyncReporter(err, { json: true, quiet: false, now: clock().now });
    reporter.event({ type: 'kind-start', kind: 'people', total: 30 });
    reporter.event({ type: 'progress', kind: 'people', tally: tally({ read: 5 }), total: 30 });
    for (let n = 1; n <= 30; n += 1) reporter.event(refusal(n));
    reporter.event({ type: 'kind-done', kind: 'people', tally: tally({ read: 30, refused: 30 }) });
    reporter.event({ type: 'kind-skipped', kind: 'lists', reason: 'read only' });
    reporter.finish();
    expect(err.text()).toBe('');
    expect(reporter.skipped()).toEqual([{ kind: 'lists', reason: 'read only' }]);
  });

  it('with --quiet, tells refusals and notices only', () => {
    const err = stream(true);
    const reporter = new SyncReporter(err, { json: false, quiet: true, now: clock().now });
    reporter.event({ type: 'kind-start', kind: 'people', total: 30 });
    reporter.event({ type: 'progress', kind: 'people', tally: tally({ read: 5 }), total: 30 });
    reporter.event(refusal(1));
    reporter.event({ type: 'kind-done', kind: 'people', tally: tally({ read: 30, refused: 1 }) });
    reporter.notice('adis-sync: to: GET … answered 429\n');
    reporter.finish();
    expect(err.text()).toBe(
      `refused: people ${FROM}people/1 (422): no email address\nadis-sync: to: GET … answered 429\n`,
    );
  });

  it('writes a kind line with the vanished only when there are some', () => {
    expect(kindLine('people', tally({ read: 2, unchanged: 2 }), undefined)).toBe(
      'people: 2 read, 0 created, 0 updated, 2 unchanged, 0 refused',
    );
    expect(kindLine('people', tally({ vanished: 1 }), 0.5)).toBe(
      'people: 0 read, 0 created, 0 updated, 0 unchanged, 0 refused, 1 vanished (0.5 s)',
    );
  });
});
