/**
 * `npm run test:runtimes`: the suite of test/runtimes/suite.ts on every runtime of
 * test/runtimes/runtimes.ts, each against its own reference server on loopback, with
 * one line per runtime. Exits 1 when a check fails on any runtime or a runtime cannot
 * start: a missing runtime is a failure, never a skip. Needs the built package
 * (`npm run build`); installs the newer Node releases on first use.
 *
 *   npm run test:runtimes                      # every runtime
 *   ADIS_RUNTIMES="deno,workerd" npm run test:runtimes   # some of them, by name
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { createTestServer } from '../reference-server/src/testing.js';
import { launchChromium, SKIP_REASON } from '../test/browser/chromium.js';
import { type LoopbackPeers, startLoopbackPeers } from '../test/runtimes/loopback-peers.js';
import {
  NODE_VERSIONS_DIR,
  type ProcessRuntime,
  RUNTIMES,
  type Runtime,
} from '../test/runtimes/runtimes.js';
import { type CheckResult, RESULT_MARKER, type SuiteConfig } from '../test/runtimes/suite.js';
import { type RuntimeEnd, runtimesSummary } from '../test/runtimes/summary.js';

const root = fileURLToPath(new URL('../', import.meta.url));
// The bundles live inside the package, so that `adis-sdk` resolves to it by self-reference.
const outDir = `${root}.tmp/runtimes/`;
/** How long one runtime may take for the whole suite before it counts as hung. */
const RUNTIME_DEADLINE_MS = 120_000;
const PEOPLE = 60;

interface RuntimeOutcome {
  runtime: Runtime;
  version: string;
  results: CheckResult[];
  /** Why the runtime could not run the suite at all. */
  failure?: string;
  /** Why it was not run (Chromium missing outside CI: ADIS_REQUIRE_BROWSER=1 fails instead). */
  skipped?: string;
  ms: number;
}

type BundleTarget = 'process' | 'worker' | 'browser';

async function bundle(entry: string, config: SuiteConfig, target: BundleTarget): Promise<string> {
  const result = await build({
    entryPoints: [`${root}test/runtimes/${entry}`],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    define: { __ADIS_SUITE_CONFIG__: JSON.stringify(config) },
    ...BUNDLE_SETTINGS[target],
  });
  return result.outputFiles[0]?.text ?? '';
}

const BUNDLE_SETTINGS = {
  // The package stays external: each runtime resolves it through its exports.
  process: { platform: 'neutral', external: ['adis-sdk', 'adis-sdk/*'] },
  // As wrangler bundles a Worker: everything in, with the Workers conditions.
  worker: {
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
  },
  // As a web app's bundler does.
  browser: { platform: 'browser' },
} as const satisfies Record<BundleTarget, BuildOptions>;

function parseResults(output: string): CheckResult[] | undefined {
  const line = output.split('\n').find((text) => text.startsWith(RESULT_MARKER));
  return line === undefined
    ? undefined
    : (JSON.parse(line.slice(RESULT_MARKER.length)) as CheckResult[]);
}

function versionOf(runtime: ProcessRuntime): string {
  const answer = spawnSync(runtime.binary, [...runtime.versionArgs], { encoding: 'utf8' });
  return /\d+\.\d+\.\d+/.exec(answer.stdout ?? '')?.[0] ?? '?';
}

function runFile(
  runtime: ProcessRuntime,
  file: string,
): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(runtime.binary, [...runtime.args, file], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`did not finish within ${RUNTIME_DEADLINE_MS / 1000} s:\n${output}`));
    }, RUNTIME_DEADLINE_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ output, code });
    });
  });
}

async function runInProcess(
  runtime: ProcessRuntime,
  config: SuiteConfig,
): Promise<Omit<RuntimeOutcome, 'runtime' | 'ms'>> {
  if (!existsSync(runtime.binary)) {
    return {
      version: '?',
      results: [],
      failure: `cannot start: ${runtime.binary} is missing (${runtime.install})`,
    };
  }
  const file = `${outDir}${runtime.name.replace(/\W+/g, '-')}.mjs`;
  await mkdir(outDir, { recursive: true });
  await writeFile(file, await bundle('entry-process.ts', config, 'process'));
  const version = versionOf(runtime);
  const { output, code } = await runFile(runtime, file);
  const results = parseResults(output);
  if (results === undefined || code !== 0) {
    return { version, results: results ?? [], failure: `exited with ${code}:\n${output.trim()}` };
  }
  return { version, results };
}

function workerdVersion(): string {
  const manifest = createRequire(import.meta.url)('workerd/package.json') as { version: string };
  return manifest.version;
}

async function runInWorkerd(config: SuiteConfig): Promise<Omit<RuntimeOutcome, 'runtime' | 'ms'>> {
  const script = await bundle('entry-worker.ts', config, 'worker');
  // No nodejs_compat flag: a Node built-in or global anywhere in the bundle fails here.
  const worker = new Miniflare({ modules: true, script, compatibilityDate: '2025-09-01' });
  try {
    const answer = await worker.dispatchFetch('http://runtime-suite.test/');
    const output = await answer.text();
    const results = parseResults(output);
    const version = workerdVersion();
    if (results === undefined)
      return { version, results: [], failure: `answered ${answer.status}:\n${output}` };
    return { version, results };
  } finally {
    await worker.dispose();
  }
}

async function runInChromium(
  config: SuiteConfig,
  peers: LoopbackPeers,
): Promise<Omit<RuntimeOutcome, 'runtime' | 'ms'>> {
  const browser = await launchChromium();
  if (!browser) return { version: '?', results: [], skipped: SKIP_REASON ?? 'no Chromium' };
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    peers.pageScript = await bundle('entry-page.ts', config, 'browser');
    await page.goto(peers.pageUrl);
    const answer = await page
      .waitForFunction(
        () => (globalThis as { adisRuntimeResults?: unknown }).adisRuntimeResults,
        null,
        {
          timeout: RUNTIME_DEADLINE_MS,
        },
      )
      .then((handle) => handle.jsonValue() as Promise<CheckResult[]>)
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`${reason}${errors.length ? `\npage errors: ${errors.join('; ')}` : ''}`);
      });
    return { version: browser.version(), results: answer };
  } finally {
    await browser.close();
  }
}

async function runOn(runtime: Runtime): Promise<RuntimeOutcome> {
  const started = Date.now();
  // Pages of 25 at most, so that 60 people take three pages.
  const kit = createTestServer({ seed: { people: PEOPLE }, app: { maxPageSize: 25 } });
  let peers: LoopbackPeers | undefined;
  try {
    const server = await kit.listen();
    peers = await startLoopbackPeers(server.entryPoint);
    const config: SuiteConfig = {
      entryPoint: server.entryPoint,
      apiKey: kit.keys.write,
      people: PEOPLE,
      silentUrl: peers.silentUrl,
      closedUrl: peers.closedUrl,
      flakyUrl: peers.flakyUrl,
      expect: runtime.identity,
    };
    const outcome =
      runtime.kind === 'worker'
        ? await runInWorkerd(config)
        : runtime.kind === 'browser'
          ? await runInChromium(config, peers)
          : await runInProcess(runtime, config);
    return { runtime, ...outcome, ms: Date.now() - started };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      runtime,
      version: '?',
      results: [],
      failure: `cannot run: ${reason}`,
      ms: Date.now() - started,
    };
  } finally {
    await peers?.close();
    await kit.close();
  }
}

function installNewerNode(): void {
  const missing = RUNTIMES.some(
    (runtime) =>
      runtime.kind === 'process' &&
      runtime.install.includes('node-versions') &&
      !existsSync(runtime.binary),
  );
  if (!missing) return;
  console.log(`Installing Node 22 and 24 from the npm registry into ${NODE_VERSIONS_DIR} (once)`);
  spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: NODE_VERSIONS_DIR,
    stdio: 'inherit',
  });
}

function selected(): Runtime[] {
  const wanted = process.env.ADIS_RUNTIMES?.split(',').map((name) => name.trim().toLowerCase());
  if (!wanted) return [...RUNTIMES];
  const unknown = wanted.filter((name) => !RUNTIMES.some((runtime) => runtime.name === name));
  if (unknown.length > 0) {
    throw new Error(
      `ADIS_RUNTIMES names no runtime ${unknown.join(', ')} (known: ${RUNTIMES.map((r) => r.name).join(', ')})`,
    );
  }
  return RUNTIMES.filter((runtime) => wanted.includes(runtime.name));
}

async function main(): Promise<void> {
  if (!existsSync(`${root}dist/index.js`)) {
    throw new Error('The package is not built: run `npm run build` first (npm test does).');
  }
  const runtimes = selected();
  installNewerNode();
  const started = Date.now();
  // Two at a time: one per core, each with its own reference server.
  const outcomes: RuntimeOutcome[] = [];
  const queue = [...runtimes];
  await Promise.all(
    [0, 1].map(async () => {
      for (let runtime = queue.shift(); runtime; runtime = queue.shift())
        outcomes.push(await runOn(runtime));
    }),
  );
  outcomes.sort((a, b) => runtimes.indexOf(a.runtime) - runtimes.indexOf(b.runtime));

  let failed = 0;
  const ends: RuntimeEnd[] = [];
  for (const outcome of outcomes) {
    if (outcome.skipped) {
      console.log(`skip ${outcome.runtime.name.padEnd(8)} ${outcome.skipped}`);
      ends.push({ name: outcome.runtime.name, ok: false, skipped: outcome.skipped });
      continue;
    }
    const passed = outcome.results.filter((result) => result.ok).length;
    const failures = outcome.results.filter((result) => !result.ok);
    const ok = outcome.failure === undefined && failures.length === 0 && passed > 0;
    if (!ok) failed++;
    ends.push({ name: outcome.runtime.name, ok });
    const counts = `${passed} passed, ${failures.length} failed`;
    console.log(
      `${ok ? 'ok  ' : 'FAIL'} ${outcome.runtime.name.padEnd(8)} ${outcome.version.padEnd(14)} ${counts.padEnd(20)} ${(outcome.ms / 1000).toFixed(1)} s`,
    );
    for (const failure of failures) console.log(`       ✗ ${failure.name}: ${failure.error}`);
    if (outcome.failure) console.log(`       ${outcome.failure.replaceAll('\n', '\n       ')}`);
  }
  console.log(runtimesSummary(ends, (Date.now() - started) / 1000));
  if (failed > 0) process.exitCode = 1;
}

await main();
