/**
 * Export benchmark: the built `adis-export` command against the reference server,
 * over loopback, to NDJSON and to CSV files.
 *
 *   npm run build && npm run bench:export                  # 20,000 and 100,000 people
 *   npm run bench:export -- --sizes 10000,50000,200000
 *
 * The server runs in one child process and the command in another, exactly as a user
 * runs it, so that each figure is the command's alone: records per second (wall
 * clock, connect included) and the command's peak resident memory (`maxRSS`, reported
 * by a tiny `--import` hook at exit). Constant memory shows as the same peak for every
 * size.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KEY, startServer } from './reference-server.js';

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '20000,100000' } },
});
const sizes = values.sizes.split(',').map(Number);
const root = new URL('../', import.meta.url);
/** The built command, where package.json's `bin` says it is. */
const command: string = (() => {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
    bin?: Record<string, string>;
  };
  const bin = pkg.bin?.['adis-export'];
  if (!bin) throw new Error('package.json names no adis-export command');
  return bin;
})();

interface Measured {
  seconds: number;
  maxRssMb: number;
  bytes: number;
}

async function exportOnce(url: string, output: string, hook: string): Promise<Measured> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', hook, command, '--url', url, '-o', output, '--force', '-q'],
    { cwd: root, env: { ...process.env, ADIS_KEY: KEY }, stdio: ['ignore', 'inherit', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  const seconds = (performance.now() - started) / 1000;
  const rss = /maxRSS=(\d+)/.exec(stderr)?.[1];
  if (code !== 0 || rss === undefined) throw new Error(`export failed (${code}): ${stderr}`);
  return { seconds, maxRssMb: Number(rss) / 1024, bytes: statSync(output).size };
}

async function main(): Promise<void> {
  console.log(
    `adis-export benchmark on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
  );
  console.log('| people | format | time | records/s | peak RSS | file |');
  console.log('|---:|---|---:|---:|---:|---:|');
  for (const size of sizes) {
    const dir = mkdtempSync(join(os.tmpdir(), 'adis-bench-export-'));
    const hook = join(dir, 'peak-rss.mjs');
    // resourceUsage().maxRSS is in KiB, for the whole life of the process.
    writeFileSync(
      hook,
      "process.on('exit', () => process.stderr.write('maxRSS=' + process.resourceUsage().maxRSS + '\\n'));\n",
    );
    const { child, url } = await startServer(dir, size);
    try {
      for (const format of ['ndjson', 'csv']) {
        const measured = await exportOnce(url, join(dir, `people.${format}`), hook);
        console.log(
          `| ${size.toLocaleString('en-US')} | ${format} | ${measured.seconds.toFixed(1)} s | ${Math.round(size / measured.seconds).toLocaleString('en-US')} | ${measured.maxRssMb.toFixed(0)} MB | ${(measured.bytes / 1e6).toFixed(1)} MB |`,
        );
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => child.on('exit', done));
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

await main();
