/**
 * The main job: start the reference server with demo data, then run the SDK examples
 * over real HTTP: the README's tour, one pages through its people, one walks its petitions, events,
 * fundraising pages and tags, one records actions through the helpers (with and
 * without a key) and schedules a message.
 *
 *   npm run demo                 # server on :8000 keeps running afterwards (Ctrl-C stops it)
 *   npm run demo -- --exit       # stop once the example has run (used by CI)
 *   npm run demo -- --port 9000
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    exit: { type: 'boolean', default: false },
    port: { type: 'string' },
    db: { type: 'string' },
  },
});
// A one-off run must not collide with a server already on 8000 nor leave a file behind.
const port = values.port ?? (values.exit ? '0' : '8000');
const db = values.db ?? (values.exit ? ':memory:' : undefined);
const root = new URL('../', import.meta.url);

function waitForExit(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

async function main(): Promise<number> {
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
