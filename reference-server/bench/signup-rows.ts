/**
 * What a signup's side rows cost the database (issue 48): the CPU of one PostgreSQL
 * backend per signup transaction, written through the storage as the record signature
 * helper writes it (the person looked up by email under its lock, then a person, a
 * signature and a tagging in one flush), with and without the rows beside the records:
 * identifiers, parents, lookup keys and contributions. Variants run in turn, in blocks,
 * on one connection of one process, so that this machine's noise falls on all of them
 * alike: the ratios to `full` are the result, the medians of the rounds.
 *
 * The transactions use generic plans, as the server's connections do once warm
 * (`pg_stat_statements` with `track_planning` counts 61 plans of the flush for 3,043
 * helper calls): left to choose on a new connection, a flush planned afresh each time
 * would be measured instead.
 *
 *   npm run bench:rows --workspace adis-server -- --rounds 6
 *
 * Without `ADIS_BENCH_POSTGRES_URL` it starts a throwaway cluster (as the tests do).
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from '../../bench/median.js';
import { openPostgresStorage, type PostgresStorage } from '../src/storage/postgres.js';
import type { ParentRef, RecordWrite } from '../src/storage/storage.js';
import { startPostgresCluster } from '../test/postgres/cluster.js';
import { freshDatabase } from '../test/postgres/database.js';
import { cpuMsOf } from './process-cpu.js';

/** Which side rows a variant writes. */
interface SideRows {
  identifiers: boolean;
  parents: boolean;
  keys: boolean;
  contributions: boolean;
}

/** The variants measured, `full` being what the server writes. */
const VARIANTS: Record<string, SideRows> = {
  full: { identifiers: true, parents: true, keys: true, contributions: true },
  'no identifiers': { identifiers: false, parents: true, keys: true, contributions: true },
  'no identifiers or parents': {
    identifiers: false,
    parents: false,
    keys: true,
    contributions: true,
  },
  'records only': { identifiers: false, parents: false, keys: false, contributions: false },
};

/** A variant's backend CPU per signup transaction, one figure per round. */
export type SignupRowsResult = Record<string, number[]>;

/**
 * Measures {@link VARIANTS} on a new database of the cluster at `adminUrl`, `rounds`
 * times `perBlock` signups each.
 *
 * @example
 * ```ts
 * const result = await benchSignupRows(cluster.url, { rounds: 4 });
 * console.log(result.full);
 * ```
 */
export async function benchSignupRows(
  adminUrl: string,
  options: { rounds?: number; perBlock?: number } = {},
): Promise<SignupRowsResult> {
  const rounds = options.rounds ?? 4;
  const perBlock = options.perBlock ?? 400;
  const database = await freshDatabase('bench_rows', adminUrl);
  // One connection: its backend is the one whose CPU is read.
  const storage = await openPostgresStorage(database.url, { poolSize: 1 });
  try {
    const tenant = await storage.tenants.ensure('rows');
    const make = record(tenant.id);
    const petition = make('petition');
    const tag = make('tag', { keys: [{ name: 'name', value: 'benchmark' }] });
    await storage.records.insertMany([
      petition,
      tag,
      ...Array.from({ length: 5000 }, (_, i) =>
        make('person', { keys: [{ name: 'email', value: `seed${i}@bench.example` }] }),
      ),
    ]);
    await storage.analyze();
    const { rows } = await storage.connection.query<{ pid: number }>(
      "SELECT pg_backend_pid() AS pid, set_config('plan_cache_mode', 'force_generic_plan', false)",
    );
    const backend = rows[0]?.pid;
    let n = 0;
    const signup = (rows: SideRows) =>
      signupTransaction(storage, tenant.id, `p${++n}@bench.example`, rows, petition, tag);
    const result: SignupRowsResult = {};
    for (let round = 0; round < rounds; round++) {
      for (const [name, rows] of Object.entries(VARIANTS)) {
        for (let i = 0; i < 20; i++) await signup(rows); // warm: the statements prepared
        const before = cpuMsOf([backend]);
        for (let i = 0; i < perBlock; i++) await signup(rows);
        const after = cpuMsOf([backend]);
        if (before === undefined || after === undefined) {
          throw new Error('the backend CPU cannot be read: the cluster must run on this machine');
        }
        const figures = result[name] ?? [];
        figures.push((after - before) / perBlock);
        result[name] = figures;
      }
    }
    return result;
  } finally {
    await storage.close();
    await database.drop();
  }
}

/** A record of `kind` in the tenant, with its own identifier, as the server writes one. */
function record(tenantId: number) {
  const at = new Date().toISOString();
  return (kind: string, extra: Partial<RecordWrite> = {}): RecordWrite => {
    const id = randomUUID();
    const doc = { origin_system: 'bench', given_name: 'Bench', family_name: 'Person' };
    return {
      tenantId,
      kind,
      id,
      doc,
      created_date: at,
      modified_date: at,
      identifiers: [`adis:${id}`],
      ...extra,
    };
  };
}

/** One signup: the person's look-up by email under its lock, then three records. */
async function signupTransaction(
  storage: PostgresStorage,
  tenantId: number,
  email: string,
  rows: SideRows,
  petition: RecordWrite,
  tag: RecordWrite,
): Promise<void> {
  const make = record(tenantId);
  const ref = (write: RecordWrite): ParentRef => ({ kind: write.kind, id: write.id });
  const only = (write: RecordWrite): RecordWrite => ({
    ...write,
    identifiers: rows.identifiers ? write.identifiers : [],
    parents: rows.parents ? (write.parents ?? []) : [],
    keys: rows.keys ? (write.keys ?? []) : [],
    contributions: rows.contributions ? (write.contributions ?? []) : [],
  });
  await storage.transaction(async () => {
    await storage.records.findByKey(tenantId, 'person', 'email', email, { forInsert: true });
    const person = make('person', { keys: [{ name: 'email', value: email }] });
    await storage.records.insert(only(person));
    await storage.records.insert(
      only(
        make('signature', {
          parents: [ref(petition), ref(person)],
          contributions: [{ parent: ref(petition), name: 'total_signatures', value: 1 }],
        }),
      ),
    );
    await storage.records.insert(only(make('tagging', { parents: [ref(tag), ref(person)] })));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '4' },
      'per-block': { type: 'string', default: '400' },
    },
  });
  const given = process.env.ADIS_BENCH_POSTGRES_URL;
  const cluster = given ? undefined : await startPostgresCluster();
  try {
    const result = await benchSignupRows(given ?? (cluster?.url as string), {
      rounds: Number(values.rounds),
      perBlock: Number(values['per-block']),
    });
    const full = median(result.full ?? []);
    console.log('A signup transaction on PostgreSQL, backend CPU (median of the rounds):');
    for (const [name, figures] of Object.entries(result)) {
      const ms = median(figures);
      console.log(
        `  ${name.padEnd(26)} ${ms.toFixed(3)} ms  ${(ms / full).toFixed(2)} × full  (rounds: ${figures.map((f) => f.toFixed(3)).join(', ')})`,
      );
    }
  } finally {
    await cluster?.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
