/**
 * The write benchmarks' load: `clients` concurrent clients, each POSTing in a loop over
 * its own keep-alive connection, a warm-up second, then `durationSeconds` measured, with
 * the CPU the server processes, the database and the clients spent meanwhile; the
 * machine settled first (pgbench.ts: `settle`). The helper
 * benchmark (helpers.ts) and its bare peer (bare-signup.ts) are measured by the same
 * loop, so their figures compare.
 */
import { databaseMeter, settle } from './pgbench.js';
import { postClient } from './post-client.js';
import { cpuMsOf } from './process-cpu.js';

/** What {@link runPostLoad} does. */
export interface PostLoad {
  /** Where client `index` POSTs (clients take the URLs in turn: a round-robin balancer). */
  urls: readonly string[];
  clients: number;
  durationSeconds: number;
  /** The body of call `n` of client `index`. */
  body(index: number, n: number): string;
  /** The headers of a call. */
  headers(): Readonly<Record<string, string>>;
  /** The server processes whose CPU is measured. */
  serverPids: readonly (number | undefined)[];
  /** The PostgreSQL database written to, whose statements and CPU are measured. */
  databaseUrl?: string;
}

/** What {@link runPostLoad} measured. */
export interface PostLoadResult {
  /** Calls answered 2xx during the measured seconds. */
  calls: number;
  seconds: number;
  callsPerSecond: number;
  /** Median latency of the measured calls, ms. */
  p50Ms: number;
  /** 90th percentile latency of the measured calls, ms. */
  p90Ms: number;
  /** Calls answered 2xx in all, warm-up included. */
  acknowledged: number;
  /** Calls answered otherwise (or failed): should be 0. */
  failed: number;
  /** CPU the server processes spent a measured call (from /proc), ms. */
  serverCpuMsPerCall?: number;
  /** CPU the database's processes spent a measured call (a cluster on this machine), ms. */
  databaseCpuMsPerCall?: number;
  /** CPU this process (the clients) spent a measured call, ms. */
  clientCpuMsPerCall?: number;
  /** Statements PostgreSQL ran a measured call (with pg_stat_statements), BEGIN and COMMIT included. */
  statementsPerCall?: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** `part / calls`, left out when either is missing or nothing was measured. */
function perCall<K extends string>(
  key: K,
  part: number | undefined,
  calls: number,
): Partial<Record<K, number>> {
  return part === undefined || calls === 0 ? {} : ({ [key]: part / calls } as Record<K, number>);
}

/**
 * Runs the load and measures it.
 *
 * @example
 * ```ts
 * const result = await runPostLoad({
 *   urls: [helperUrl], clients: 10, durationSeconds: 5, serverPids: [child.pid],
 *   headers: () => ({ 'Content-Type': 'application/json' }),
 *   body: (index, n) => JSON.stringify({ person: { email_addresses: [{ address: `c${index}-${n}@x.org` }] } }),
 * });
 * console.log(result.callsPerSecond, result.serverCpuMsPerCall);
 * ```
 */
export async function runPostLoad(load: PostLoad): Promise<PostLoadResult> {
  // The server's set-up (a seed of thousands of people) written out before the load.
  await settle(load.databaseUrl);
  let acknowledged = 0;
  let failed = 0;
  let measuring = false;
  let stop = false;
  const latencies: number[] = [];
  let calls = 0;
  // One keep-alive connection a client (see post-client.ts for why not fetch).
  const connections = postClient(load.clients);
  const client = async (index: number) => {
    const url = load.urls[index % load.urls.length] as string;
    for (let n = 0; !stop; n++) {
      const body = load.body(index, n);
      const begin = performance.now();
      const counted = measuring;
      try {
        const status = await connections.post(url, load.headers(), body);
        if (status >= 200 && status < 300) {
          acknowledged++;
          if (counted && measuring) {
            calls++;
            latencies.push(performance.now() - begin);
          }
        } else {
          failed++;
        }
      } catch {
        failed++;
      }
    }
  };
  const running = Array.from({ length: load.clients }, (_, index) => client(index));
  try {
    const meter = load.databaseUrl ? await databaseMeter(load.databaseUrl) : undefined;
    await new Promise((done) => setTimeout(done, 1000));
    await meter?.start();
    const cpuBefore = cpuMsOf(load.serverPids);
    const clientCpuBefore = process.cpuUsage();
    measuring = true;
    const begin = performance.now();
    await new Promise((done) => setTimeout(done, load.durationSeconds * 1000));
    measuring = false;
    const seconds = (performance.now() - begin) / 1000;
    const cpuAfter = cpuMsOf(load.serverPids);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const work = await meter?.stop();
    stop = true;
    await Promise.all(running);
    latencies.sort((a, b) => a - b);
    return {
      calls,
      seconds,
      callsPerSecond: calls / seconds,
      p50Ms: percentile(latencies, 0.5),
      p90Ms: percentile(latencies, 0.9),
      acknowledged,
      failed,
      ...perCall(
        'serverCpuMsPerCall',
        cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
        calls,
      ),
      ...perCall('statementsPerCall', work?.statements, calls),
      ...perCall('databaseCpuMsPerCall', work?.cpuMs, calls),
      ...perCall('clientCpuMsPerCall', (clientCpu.user + clientCpu.system) / 1000, calls),
    };
  } finally {
    stop = true;
    await Promise.all(running);
    connections.close();
  }
}
