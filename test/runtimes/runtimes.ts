/**
 * The runtimes the SDK supports, as data: where each one's binary comes from (all from
 * the npm registry: Node 20 is the machine's, Node 22 and 24 are installed into
 * test/runtimes/node-versions, Bun, Deno and workerd are the root's dev dependencies)
 * and how it runs a file. workerd runs through Miniflare, in the runner's process.
 */
import { fileURLToPath } from 'node:url';
import type { RuntimeIdentity } from './suite.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const nodeVersions = fileURLToPath(new URL('./node-versions/', import.meta.url));

/** A runtime that runs the suite as a file in a child process. */
export interface ProcessRuntime {
  kind: 'process';
  name: string;
  /** The binary, as an absolute path. */
  binary: string;
  /** Arguments before the file to run. */
  args: readonly string[];
  /** Arguments that print its version. */
  versionArgs: readonly string[];
  /** How to get the binary when it is missing. */
  install: string;
  identity: RuntimeIdentity;
}

/** workerd, run in-process through Miniflare (module Worker, no `nodejs_compat`). */
export interface WorkerRuntime {
  kind: 'worker';
  name: string;
  install: string;
  identity: RuntimeIdentity;
}

/** A browser, driven by playwright-core (Debian's Chromium, as the browser tests use). */
export interface BrowserRuntime {
  kind: 'browser';
  name: string;
  install: string;
  identity: RuntimeIdentity;
}

/** One runtime of the support matrix. */
export type Runtime = ProcessRuntime | WorkerRuntime | BrowserRuntime;

const bin = (name: string): string => `${root}node_modules/.bin/${name}`;
const newerNode = (major: number): ProcessRuntime => ({
  kind: 'process',
  name: `node ${major}`,
  binary: `${nodeVersions}node_modules/node-${major}/bin/node`,
  args: [],
  versionArgs: ['--version'],
  install: 'npm ci --prefix test/runtimes/node-versions',
  identity: { userAgent: `Node.js/${major}`, nodeGlobals: true },
});

/** Every runtime the suite runs on, in the order it prints them. */
export const RUNTIMES: readonly Runtime[] = [
  {
    kind: 'process',
    name: 'node 20',
    binary: process.execPath,
    args: [],
    versionArgs: ['--version'],
    install: 'the machine’s Node.js',
    // Node 21 added `navigator`.
    identity: { userAgent: null, nodeGlobals: true },
  },
  newerNode(22),
  newerNode(24),
  {
    kind: 'process',
    name: 'bun',
    binary: bin('bun'),
    args: ['run'],
    versionArgs: ['--version'],
    install: 'npm ci (dev dependency bun)',
    identity: { userAgent: 'Bun/', nodeGlobals: true },
  },
  {
    kind: 'process',
    name: 'deno',
    binary: bin('deno'),
    // Only what the suite needs: the network (loopback servers). Deno reads the modules it
    // imports, node_modules included, without --allow-read.
    args: ['run', '--quiet', '--allow-net'],
    versionArgs: ['--version'],
    install: 'npm ci (dev dependency deno)',
    identity: { userAgent: 'Deno/', nodeGlobals: true },
  },
  {
    kind: 'worker',
    name: 'workerd',
    install: 'npm ci (dev dependency miniflare)',
    // No nodejs_compat: no process, no Buffer, no setImmediate, and timers are numbers.
    identity: { userAgent: 'Cloudflare-Workers', nodeGlobals: false },
  },
  {
    kind: 'browser',
    name: 'chromium',
    install: 'apt-get install -y chromium',
    identity: { userAgent: 'Mozilla/5.0', nodeGlobals: false },
  },
];

/** The folder and command that install the newer Node releases. */
export const NODE_VERSIONS_DIR = nodeVersions;
