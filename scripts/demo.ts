/**
 * The main job: start the reference server with demo data, then run the SDK examples
 * over real HTTP: the README's tour, one pages through its people, one walks its petitions, events,
 * fundraising pages and tags, one records actions through the helpers (with and
 * without a key) and schedules a message.
 *
 *   npm run demo                 # server on :8000 and reference-server/data/adis.db; keeps
 *                                # running afterwards (Ctrl-C stops it)
 *   npm run demo -- --exit       # stop once the examples have run (used by CI); on a free
 *                                # port and a :memory: database unless --port / --db say
 *   npm run demo -- --port 9000 --db my-data/adis.db
 *   npm run demo -- --skip-build # dist/ is fresh: do not build first
 *
 * The examples import the built package (`adis-sdk` is dist/), so the demo builds first,
 * quietly: the build's listing (hundreds of lines) is shown only when it fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    exit: { type: 'boolean', default: false },
    port: { type: 'string' },
    db: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
  },
});
// A one-off run must not collide with a server already on 8000 nor leave a file behind.
const port = values.port ?? (values.exit ? '0' : '8000');
const db = values.db ?? (values.exit ? ':memory:' : undefined);
const root = new URL('../', import.meta.url);

function waitForExit(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

/**
 * Runs `npm run build`, its listing kept back unless it fails, with a line of progress
 * for each part built (and one every 15 s while nothing else is said: the type
 * declarations take most of the 3 minutes two cores need); resolves to its exit code.
 */
async function buildQuietly(): Promise<number> {
  console.log('Building the SDK and the server (npm run build, about 3 minutes on two cores)…');
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const build = spawn('npm', ['run', 'build', '--silent'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: Buffer[] = [];
  const told = new Set<string>();
  let part = 'SDK';
  let lastSaid = Date.now();
  const say = (text: string) => {
    console.log(`  ${text} (${seconds()} s)`);
    lastSaid = Date.now();
  };
  // tsup says "<format> ⚡️ Build success" per format, and names its config first: the
  // server's is under reference-server/.
  const progress = createInterface({ input: build.stdout! });
  progress.on('line', (line) => {
    if (/Using tsup config: .*reference-server/.test(line)) part = 'server';
    const format = /^(ESM|CJS|DTS) .*Build success/.exec(line)?.[1];
    const what = format && `${part}: ${format === 'DTS' ? 'type declarations' : `${format} build`}`;
    if (what && !told.has(what)) {
      told.add(what);
      say(`${what} done`);
    }
  });
  build.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  build.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const heartbeat = setInterval(() => {
    if (Date.now() - lastSaid >= 15_000) say('still building');
  }, 1000);
  const code = await waitForExit(build);
  clearInterval(heartbeat);
  if (code !== 0) {
    process.stderr.write(Buffer.concat(output));
    console.error(`\nThe build failed (exit code ${code}); the demo did not start.`);
  } else {
    console.log(`Built in ${seconds()} s.`);
  }
  return code;
}

async function main(): Promise<number> {
  if (!values['skip-build']) {
    const built = await buildQuietly();
    if (built !== 0) return built;
  }
  // --quiet: the server's access log would interleave a line per request with the tour.
  const args = [
    '--import',
    'tsx',
    'src/cli.ts',
    '--port',
    port,
    '--quiet',
    ...(db ? ['--db', db] : []),
  ];
  const server = spawn(process.execPath, args, {
    cwd: new URL('reference-server/', root),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => server.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  let entryPoint: string | undefined;
  let key: string | undefined;
  const lines = createInterface({ input: server.stdout! });
  for await (const line of lines) {
    console.log(`[server] ${line}`);
    key ??= /API key[^:]*:\s*(\S+)/.exec(line)?.[1];
    entryPoint = /^Entry point: (\S+)/.exec(line)?.[1];
    if (entryPoint) break;
  }
  if (!entryPoint || !key) {
    console.error('The reference server did not start (see its messages above).');
    stop();
    return 1;
  }
  // Keep echoing the server's output after the handshake.
  lines.on('line', (line) => console.log(`[server] ${line}`));

  let code = 0;
  const examples = [
    'examples/tour.ts',
    'examples/page-people.ts',
    'examples/organizing-report.ts',
    'examples/record-actions.ts',
  ];
  for (const example of examples) {
    console.log(`\n$ npx tsx ${example} ${entryPoint} <key>\n`);
    const child = spawn(process.execPath, ['--import', 'tsx', example, entryPoint, key], {
      cwd: root,
      stdio: 'inherit',
    });
    code = await waitForExit(child);
    if (code !== 0) {
      console.error(`\n${example} failed (exit code ${code}).`);
      break;
    }
  }
  if (values.exit || code !== 0) {
    stop();
    await waitForExit(server);
    return code;
  }
  console.log(`\nThe reference server is still running: ${entryPoint}`);
  console.log(`Try: curl -H 'STD-API-Token: ${key}' ${entryPoint}`);
  console.log('Press Ctrl-C to stop it.');
  await waitForExit(server);
  return 0;
}

process.exitCode = await main();
