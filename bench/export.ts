/**
 * Export benchmark: the built `adis-export` command against the reference server, over
 * loopback, to NDJSON and CSV files, compared with plain SDK paging of the same people
 * on the same server in the same run.
 *
 *   npm run build && npm run bench:export                  # 20,000 and 100,000 people
 *   npm run bench:export -- --sizes 10000,50000 --runs 5 --formats ndjson
 *
 * Three processes: the reference server (one child, `startServer`), the command (a
 * second child, exactly as a user runs it) and the paging loop (a third child running
 * `client.people.pages({ readAhead: true })` from the same build). The paging loop runs
 * in a child rather than in this process so that both sides pay the same costs: a cold
 * Node start, loading the built SDK, connecting, and sharing the machine's cores with
 * the server and nothing else (this process only waits). Both are timed by wall clock
 * from spawn to exit. The paging loop connects as the command does (`validate: false`)
 * and only counts the records: it is the walk the command does, minus writing, so the
 * ratio is the command's own overhead.
 *
 * Each run measures paging and then the export, back to back, and the ratio is taken
 * per pair; with `--runs n` the pair with the median ratio is reported. The command's
 * peak resident memory is `process.resourceUsage().maxRSS`, printed at exit by a tiny
 * `--import` hook. Constant memory shows as the same peak for every size.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { KEY, startServer } from './reference-server.js';

/** One row of {@link benchExport}: a size and format, the export against paging. */
export interface ExportBenchRow {
  /** People on the server, all exported. */
  people: number;
  format: 'ndjson' | 'csv';
  /** People a second through `adis-export` into a file, wall clock, start included. */
  exportPerSecond: number;
  /** People a second through plain SDK paging with read-ahead, measured alongside. */
  pagingPerSecond: number;
  /** `exportPerSecond / pagingPerSecond`: 1 would be an export that costs nothing. */
  ratio: number;
  /** The export process's peak resident memory, in MB (MiB). */
  peakRssMb: number;
  /** Size of the exported file, in bytes. */
  fileBytes: number;
}

/** What {@link benchExport} measures. */
export interface ExportBenchOptions {
  /** Server sizes, in people (default 20,000 and 100,000). */
  sizes?: number[];
  /** Formats to export (default both). */
  formats?: Array<'ndjson' | 'csv'>;
  /** Pairs (paging, export) per size and format; the median ratio is kept (default 1). */
  runs?: number;
  /** Called with each row as soon as it is measured (the script prints it). */
  onRow?: (row: ExportBenchRow) => void;
}

const root = new URL('../', import.meta.url);

/** The built command, where package.json's `bin` says it is. */
function commandPath(): string {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
    bin?: Record<string, string>;
  };
  const bin = pkg.bin?.['adis-export'];
  if (!bin) throw new Error('package.json names no adis-export command');
  return fileURLToPath(new URL(bin, root));
}

/** The plain paging loop, run in a child of its own (ESM, against the built SDK). */
function pagingScript(): string {
  const sdk = new URL('dist/index.js', root).href;
  return `import { connect } from ${JSON.stringify(sdk)};
const [url, key] = process.argv.slice(2);
const client = await connect(url, { apiKey: key, validate: false });
let count = 0;
for await (const page of client.people.pages({ readAhead: true })) count += page.items.length;
process.stdout.write('count=' + count + '\\n');
`;
}

interface Timed {
  seconds: number;
  stdout: string;
  stderr: string;
}

async function timedChild(args: string[]): Promise<Timed> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ADIS_KEY: KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${args.join(' ')} failed (${code}): ${stderr}`);
  return { seconds, stdout, stderr };
}

/**
 * Measures `adis-export` against plain SDK paging on a reference server seeded with
 * each size of people, and resolves with one row per size and format. Needs the build
 * (`npm run build`): both sides run the built code.
 *
 * @example
 * ```ts
 * const rows = await benchExport({ sizes: [20_000] });
 * for (const row of rows) console.log(row.format, row.ratio.toFixed(2));
 * ```
 */
export async function benchExport(options: ExportBenchOptions = {}): Promise<ExportBenchRow[]> {
  const sizes = options.sizes ?? [20_000, 100_000];
  const formats = options.formats ?? ['ndjson', 'csv'];
  const runs = Math.max(1, options.runs ?? 1);
  const command = commandPath();
  const rows: ExportBenchRow[] = [];
  for (const size of sizes) {
    const dir = mkdtempSync(join(os.tmpdir(), 'adis-bench-export-'));
    const hook = join(dir, 'peak-rss.mjs');
    // resourceUsage().maxRSS is in KiB, for the whole life of the process.
    writeFileSync(
      hook,
      "process.on('exit', () => process.stderr.write('maxRSS=' + process.resourceUsage().maxRSS + '\\n'));\n",
    );
    const paging = join(dir, 'paging.mjs');
    writeFileSync(paging, pagingScript());
    const { child, url } = await startServer(dir, size);
    try {
      // One warm-up walk, so that SQLite's page cache is as warm for the first pair as
      // for the others.
      await timedChild([paging, url, KEY]);
      for (const format of formats) {
        const pairs: ExportBenchRow[] = [];
        for (let run = 0; run < runs; run += 1) {
          const walked = await timedChild([paging, url, KEY]);
          const count = Number(/count=(\d+)/.exec(walked.stdout)?.[1]);
          if (count !== size) throw new Error(`paging walked ${count} people, expected ${size}`);
          const output = join(dir, `people.${format}`);
          const exported = await timedChild([
            '--import',
            hook,
            command,
            '--url',
            url,
            '-o',
            output,
            '-f',
            format,
            '--force',
            '-q',
          ]);
          const rss = /maxRSS=(\d+)/.exec(exported.stderr)?.[1];
          if (rss === undefined) throw new Error(`no maxRSS from the export: ${exported.stderr}`);
          const exportPerSecond = size / exported.seconds;
          const pagingPerSecond = size / walked.seconds;
          pairs.push({
            people: size,
            format,
            exportPerSecond,
            pagingPerSecond,
            ratio: exportPerSecond / pagingPerSecond,
            peakRssMb: Number(rss) / 1024,
            fileBytes: statSync(output).size,
          });
        }
        pairs.sort((a, b) => a.ratio - b.ratio);
        const row = pairs[Math.floor(pairs.length / 2)] as ExportBenchRow;
        rows.push(row);
        options.onRow?.(row);
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => child.on('exit', done));
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

/**
 * The table header {@link formatRow} rows go under (Markdown).
 *
 * @example
 * ```ts
 * console.log(EXPORT_TABLE_HEADER);
 * ```
 */
export const EXPORT_TABLE_HEADER =
  '| people | format | export/s | paging/s | export ÷ paging | peak RSS | file |\n|---:|---|---:|---:|---:|---:|---:|';

/**
 * One row of {@link benchExport} as a Markdown table row.
 *
 * @example
 * ```ts
 * for (const row of await benchExport({ sizes: [20_000] })) console.log(formatRow(row));
 * ```
 */
export function formatRow(row: ExportBenchRow): string {
  const n = (value: number) => Math.round(value).toLocaleString('en-US');
  return `| ${n(row.people)} | ${row.format} | ${n(row.exportPerSecond)} | ${n(row.pagingPerSecond)} | ${row.ratio.toFixed(2)} | ${row.peakRssMb.toFixed(0)} MB | ${(row.fileBytes / 1e6).toFixed(1)} MB |`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '20000,100000' },
      formats: { type: 'string', default: 'ndjson,csv' },
      runs: { type: 'string', default: '1' },
    },
  });
  console.log(
    `adis-export benchmark on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
  );
  console.log(EXPORT_TABLE_HEADER);
  await benchExport({
    sizes: values.sizes.split(',').map(Number),
    formats: values.formats.split(',').map((format) => {
      if (format !== 'ndjson' && format !== 'csv') throw new Error(`unknown format ${format}`);
      return format;
    }),
    runs: Number(values.runs),
    onRow: (row) => console.log(formatRow(row)),
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
