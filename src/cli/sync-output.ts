/**
 * What `adis-sync` prints: the progress line and a line per kind done on stderr while it
 * runs, each refusal as it comes, then the summary (a table, or JSON) on stdout, and the
 * exit code the summary makes.
 */
import { ProgressBar, type ProgressStream } from '../export/progress.js';
import { emptyTally, type KindTally, type SyncEvent, type SyncSummary } from '../sync/index.js';
import type { RequestCounts } from './sync-connect.js';

/** Refusals told one by one on stderr; the rest are counted, and the summary has them all. */
export const REFUSALS_SHOWN = 20;

const number = new Intl.NumberFormat('en-US');

/**
 * The exit code of a run that finished: 1 when the target refused any record (or could
 * not hold it), 0 otherwise.
 */
export function syncExitCode(summary: SyncSummary): 0 | 1 {
  return Object.values(summary.kinds).some((tally) => tally.refused > 0) ? 1 : 0;
}

/** A kind the run skipped whole (the target cannot write it), as a `kind-skipped` event tells. */
export interface SkippedKind {
  kind: string;
  reason: string;
}

/** A stream the reporter writes to: a terminal or not. */
export type ReportStream = ProgressStream & { isTTY?: boolean };

/** How the reporter shows a run. */
export interface ReporterOptions {
  /** `--json`: nothing on stderr until the end (refusals are in the JSON). */
  json: boolean;
  /** `--quiet`: no progress and no line per kind; refusals and notices are still told. */
  quiet: boolean;
  /** The clock, ms (tests pass their own). */
  now?: () => number;
}

/**
 * Shows a run on stderr from its events: on a terminal, a progress line per kind (kind,
 * records read of the total where the source gives one, records a second, time left),
 * redrawn in place; a line per kind done (but those with nothing read); a line per refusal (the first
 * {@link REFUSALS_SHOWN}, then a count); a line per kind skipped. Not on a terminal, no
 * progress line. Under `json` nothing but notices; under `quiet` refusals and notices only.
 */
export class SyncReporter {
  readonly #stream: ReportStream;
  readonly #options: ReporterOptions;
  readonly #now: () => number;
  readonly #skipped: SkippedKind[] = [];
  readonly #started = new Map<string, number>();
  #bar: ProgressBar | undefined;
  #refusals = 0;

  /**
   * @param stream - Where to write (stderr).
   * @param options - `--json`, `--quiet`, and the clock.
   */
  constructor(stream: ReportStream, options: ReporterOptions) {
    this.#stream = stream;
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Takes one event of the run. */
  event(event: SyncEvent): void {
    const { json, quiet } = this.#options;
    const chatty = !json && !quiet;
    switch (event.type) {
      case 'kind-start':
        this.#bar?.done();
        this.#started.set(event.kind, this.#now());
        this.#bar =
          chatty && this.#stream.isTTY === true
            ? new ProgressBar(this.#stream, event.kind, 0, this.#now)
            : undefined;
        break;
      case 'progress':
        this.#bar?.update(event.tally.read, event.total);
        break;
      case 'refused': {
        if (json) break;
        this.#refusals += 1;
        if (this.#refusals > REFUSALS_SHOWN) break;
        const { kind, source, reason, status } = event.refusal;
        const answered = status === undefined ? '' : ` (${status})`;
        this.#line(`refused: ${kind} ${source}${answered}: ${reason}\n`);
        break;
      }
      case 'kind-done': {
        this.#bar?.done();
        this.#bar = undefined;
        const started = this.#started.get(event.kind);
        const seconds = started === undefined ? undefined : (this.#now() - started) / 1000;
        // A kind with nothing read (nothing changed) is left to the summary's one line.
        const { read, refused, vanished } = event.tally;
        if (chatty && read + refused + vanished > 0) {
          this.#line(`${kindLine(event.kind, event.tally, seconds)}\n`);
        }
        break;
      }
      case 'kind-skipped':
        this.#skipped.push({ kind: event.kind, reason: event.reason });
        if (chatty) this.#line(`skipped ${event.kind}: ${event.reason}\n`);
        break;
    }
  }

  /**
   * Writes a line (a wait the server asks for, a detected preset) without breaking the
   * progress line, which is drawn again at the next event.
   */
  notice(line: string): void {
    this.#line(line);
  }

  /** Clears the progress line and tells how many refusals were not shown one by one. */
  finish(): void {
    this.#bar?.done();
    this.#bar = undefined;
    const more = this.#refusals - REFUSALS_SHOWN;
    if (more > 0) {
      this.#stream.write(
        `… and ${number.format(more)} more refused (the summary counts them all)\n`,
      );
    }
  }

  /** The kinds skipped whole, in the order told. */
  skipped(): SkippedKind[] {
    return [...this.#skipped];
  }

  #line(text: string): void {
    this.#bar?.done();
    this.#stream.write(text);
  }
}

/**
 * The line told when a kind is done: `people: 1,200 read, 1,150 created, 40 updated,
 * 10 unchanged, 0 refused (12.3 s)`.
 */
export function kindLine(kind: string, tally: KindTally, seconds: number | undefined): string {
  const parts = [
    `${number.format(tally.read)} read`,
    `${number.format(tally.created)} created`,
    `${number.format(tally.updated)} updated`,
    `${number.format(tally.unchanged)} unchanged`,
    `${number.format(tally.refused)} refused`,
    ...(tally.adjusted > 0 ? [`${number.format(tally.adjusted)} adjusted`] : []),
    ...(tally.vanished > 0 ? [`${number.format(tally.vanished)} vanished`] : []),
  ];
  const time = seconds === undefined ? '' : ` (${seconds.toFixed(1)} s)`;
  return `${kind}: ${parts.join(', ')}${time}`;
}

/** What the summary says beside the run's own summary. */
export interface SummaryContext {
  from: string;
  to: string;
  /** `--deletions`, if given. */
  deletions: 'report' | 'remove' | undefined;
  requests: RequestCounts;
  skipped: readonly SkippedKind[];
}

const COLUMNS = [
  'read',
  'created',
  'updated',
  'unchanged',
  'refused',
  'adjusted',
  'vanished',
] as const;

/**
 * The summary as text: a table of the kinds (read, created, updated, unchanged, refused,
 * vanished), the reasons for refusals, what vanished from the source, the kinds skipped,
 * and the requests sent. A dry run says `would create` and `would update`.
 */
export function formatSyncSummary(summary: SyncSummary, context: SummaryContext): string {
  const dry = summary.dryRun;
  const lines: string[] = [];
  const resumed = summary.resumed ? ' (went on from a run that stopped)' : '';
  lines.push(
    `${dry ? 'Dry run, nothing written:' : 'Synced'} ${context.from} → ${context.to}${resumed}`,
  );
  const kinds = Object.entries(summary.kinds);
  // Kinds where nothing happened are named on one line, not given a row of zeros each.
  const busy = kinds.filter(([, tally]) => COLUMNS.some((column) => tally[column] > 0));
  const idle = kinds.filter(([, tally]) => !COLUMNS.some((column) => tally[column] > 0));
  // `adjusted` only where a target changed something: most targets never do.
  const columns = COLUMNS.filter(
    (column) => column !== 'adjusted' || busy.some(([, tally]) => tally.adjusted > 0),
  );
  const headers = [
    'kind',
    ...columns.map((column) =>
      dry && (column === 'created' || column === 'updated')
        ? `would ${column.slice(0, -1)}`
        : column,
    ),
  ];
  const cells = (tally: KindTally): string[] =>
    columns.map((column) =>
      column === 'vanished' && context.deletions === undefined ? '-' : number.format(tally[column]),
    );
  const rows = busy.map(([kind, tally]) => [kind, ...cells(tally)]);
  if (busy.length > 1) rows.push(['total', ...cells(totalOf(busy.map(([, tally]) => tally)))]);
  if (kinds.length === 0) {
    lines.push('No kind was copied: the source links none of the kinds asked for.');
  } else if (busy.length === 0) {
    lines.push(
      `No record was read: nothing changed on the source since the last run, or it has none (${kinds.map(([kind]) => kind).join(', ')}).`,
    );
  } else {
    lines.push(...table(headers, rows));
    if (idle.length > 0) lines.push(`Nothing read of: ${idle.map(([kind]) => kind).join(', ')}.`);
  }

  const reasons = busy.flatMap(([kind, tally]) => reasonLines(kind, tally));
  if (reasons.length > 0) {
    lines.push('', 'Refused, by reason:', ...reasons);
    const total = busy.reduce((sum, [, tally]) => sum + tally.refused, 0);
    const listed = summary.refusals.length;
    if (listed > 0) {
      lines.push(
        listed < total
          ? `The first ${number.format(listed)} of the ${number.format(total)} records refused are named in --json's refusals.`
          : "Each record refused is named in --json's refusals.",
      );
    }
  }

  const adjustments = busy.flatMap(([kind, tally]) =>
    Object.entries(tally.adjustments)
      .sort(([, a], [, b]) => b - a)
      .map(([change, count]) => `  ${kind}: ${number.format(count)} × ${change}`),
  );
  if (adjustments.length > 0) {
    lines.push('', 'Copied with a member the target cannot hold changed:', ...adjustments);
  }

  if (context.deletions !== undefined && summary.vanished.length > 0) {
    const done =
      context.deletions === 'report'
        ? 'their copies are kept; --deletions remove deletes them'
        : dry
          ? 'their copies would be deleted'
          : 'their copies were deleted';
    lines.push('', `Gone from the source (${done}):`);
    for (const gone of summary.vanished)
      lines.push(`  ${gone.kind} ${gone.source} → ${gone.target}`);
    const total = busy.reduce((sum, [, tally]) => sum + tally.vanished, 0);
    if (total > summary.vanished.length) {
      lines.push(`  … and ${number.format(total - summary.vanished.length)} more`);
    }
  }

  if (context.skipped.length > 0) {
    lines.push('', 'Skipped:');
    for (const { kind, reason } of context.skipped) lines.push(`  ${kind}: ${reason}`);
  }

  const { from, to } = context.requests;
  lines.push(
    '',
    `Requests: ${number.format(from)} to the source, ${number.format(to)} to the target.`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The summary as JSON (for scripts): the run's {@link SyncSummary}, the kinds skipped,
 * the requests sent to each side, and the exit code.
 */
export function syncSummaryJson(
  summary: SyncSummary,
  extra: { requests: RequestCounts; skipped: readonly SkippedKind[]; exitCode: number },
): string {
  return `${JSON.stringify({ ...summary, skipped: extra.skipped, requests: extra.requests, exitCode: extra.exitCode }, null, 2)}\n`;
}

/**
 * A run that could not finish, as JSON (for scripts): the message, the requests sent and
 * the exit code (2).
 */
export function syncFailureJson(message: string, requests: RequestCounts, exitCode = 2): string {
  return `${JSON.stringify({ error: message, requests, exitCode }, null, 2)}\n`;
}

/** Reasons told per kind in the text summary, the commonest first; the JSON has them all. */
const REASONS_SHOWN = 10;

// A kind's reasons, the commonest first, at most REASONS_SHOWN and a line for the rest.
function reasonLines(kind: string, tally: KindTally): string[] {
  const reasons = Object.entries(tally.reasons).sort(([, a], [, b]) => b - a);
  const lines = reasons
    .slice(0, REASONS_SHOWN)
    .map(([reason, count]) => `  ${kind}: ${number.format(count)} × ${reason}`);
  const rest = reasons.slice(REASONS_SHOWN);
  if (rest.length > 0) {
    const records = rest.reduce((sum, [, count]) => sum + count, 0);
    lines.push(
      `  ${kind}: … ${number.format(rest.length)} other reasons (${number.format(records)} records; all in --json's kinds.${kind}.reasons)`,
    );
  }
  return lines;
}

function totalOf(tallies: readonly KindTally[]): KindTally {
  const total = emptyTally();
  for (const tally of tallies) for (const column of COLUMNS) total[column] += tally[column];
  return total;
}

// Columns padded to their widest cell: the kind to the left, numbers to the right.
function table(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const render = (row: readonly string[]) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [render(headers), ...rows.map(render)];
}
