/**
 * The progress line an export draws on a terminal: records done, the rate, and, when
 * the server gives a total, the share done and an estimate of the time left.
 */

/** What the progress line shows. */
export interface ProgressSnapshot {
  /** Records written, counting those of earlier runs of a resumed export. */
  records: number;
  /** The collection's `total_records`, when the server sends it. */
  total: number | undefined;
  /** Records written by this run, for the rate. */
  recordsThisRun: number;
  /** Milliseconds since this run started. */
  elapsedMs: number;
}

const number = new Intl.NumberFormat('en-US');

/**
 * One progress line, at most `width` characters, without a line end.
 *
 * @example
 * ```ts
 * import { renderProgress } from './progress.js';
 *
 * renderProgress('people', { records: 500, total: 1000, recordsThisRun: 500, elapsedMs: 5000 }, 80);
 * // 'people [##########----------]  50%  500/1,000  100/s  ETA 5s'
 * ```
 */
export function renderProgress(label: string, snapshot: ProgressSnapshot, width: number): string {
  const { records, total, recordsThisRun, elapsedMs } = snapshot;
  const rate = elapsedMs > 0 ? (recordsThisRun * 1000) / elapsedMs : 0;
  const rateText = `${number.format(Math.round(rate))}/s`;
  if (total === undefined || total <= 0) {
    return clip(`${label}  ${number.format(records)} records  ${rateText}`, width);
  }
  const share = Math.min(1, records / total);
  const eta = rate > 0 && records < total ? `  ETA ${duration((total - records) / rate)}` : '';
  const counts = `${String(Math.floor(share * 100)).padStart(3)}%  ${number.format(records)}/${number.format(total)}  ${rateText}${eta}`;
  // The bar takes what room is left, between 10 and 30 cells.
  const room = width - label.length - counts.length - 5;
  if (room < 10) return clip(`${label}  ${counts}`, width);
  const cells = Math.min(30, room);
  const filled = Math.round(share * cells);
  return `${label} [${'#'.repeat(filled)}${'-'.repeat(cells - filled)}]  ${counts}`;
}

/**
 * A duration in seconds as `45s`, `3m 05s` or `2h 10m`.
 *
 * @example
 * ```ts
 * import { duration } from './progress.js';
 *
 * duration(185); // '3m 05s'
 * ```
 */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : text.slice(0, Math.max(0, width));
}

/** A terminal stream, as much of one as the progress line needs. */
export interface ProgressStream {
  write(text: string): unknown;
  /** Terminal width; 80 when unknown. */
  columns?: number;
}

/**
 * Redraws the progress line in place (carriage return, no scrolling), at most ten
 * times a second, and clears it when the export ends so that the summary after it
 * stands alone.
 */
export class ProgressBar {
  readonly #stream: ProgressStream;
  readonly #label: string;
  readonly #now: () => number;
  readonly #started: number;
  readonly #startRecords: number;
  #lastDraw = Number.NEGATIVE_INFINITY;
  #drawn = false;

  /**
   * @param startRecords - Records an earlier run already wrote (a resumed export), left
   *   out of the rate.
   * @param now - The clock, in milliseconds (tests pass their own).
   */
  constructor(
    stream: ProgressStream,
    label: string,
    startRecords = 0,
    now: () => number = () => performance.now(),
  ) {
    this.#stream = stream;
    this.#label = label;
    this.#now = now;
    this.#started = now();
    this.#startRecords = startRecords;
  }

  /** Shows `records` of `total` done; skipped when the last draw was under 100 ms ago. */
  update(records: number, total: number | undefined): void {
    const now = this.#now();
    if (now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    const width = Math.max(20, (this.#stream.columns ?? 80) - 1);
    const line = renderProgress(
      this.#label,
      {
        records,
        total,
        recordsThisRun: records - this.#startRecords,
        elapsedMs: now - this.#started,
      },
      width,
    );
    // \r and erase-to-end-of-line: the new line overwrites the old, however long.
    this.#stream.write(`\r${line}\x1b[K`);
    this.#drawn = true;
  }

  /** Clears the line, leaving the cursor at its start. */
  done(): void {
    if (this.#drawn) this.#stream.write('\r\x1b[K');
    this.#drawn = false;
  }
}
