/**
 * The world of the sync's tests: two reference servers, a source and a target, each
 * with its own preset (the specification's or Action Network's), served over real HTTP
 * on loopback so that a child process (sync-process.ts) reaches them as the test does.
 * Storage is SQLite in memory; the target's may be a PostgreSQL schema when the run's
 * engine is PostgreSQL (`ADIS_TEST_ENGINE=postgres`, as the repository's other
 * PostgreSQL runs decide: reference-server/test/engine.ts).
 *
 * Both servers turn Action Network's per-key rate (4 calls a second) off, and the
 * clients they hand out turn the SDK's own rate off, so that a copy of thousands of
 * records takes seconds.
 */
import type { KindRegistry } from '../../reference-server/src/domain/kinds.js';
import { type AppOptions, defaultRegistry } from '../../reference-server/src/http/app.js';
import {
  ACTION_NETWORK_PRESET,
  type ServingPreset,
  SPECIFICATION_PRESET,
} from '../../reference-server/src/presets/index.js';
import type { Storage, Tenant } from '../../reference-server/src/storage/storage.js';
import { createTestServer } from '../../reference-server/src/testing.js';
import { TEST_ENGINE, testStorage } from '../../reference-server/test/engine.js';
import { type Client, type ClientOptions, connect } from '../../src/index.js';
import { clientOptionsFor, type PresetName } from './client-options.js';

export type { PresetName } from './client-options.js';

/** Which side of the sync a server is. */
export type Role = 'source' | 'target';

/** The storage engine of a server. */
export type Engine = 'sqlite' | 'postgres';

/** What a server of the world is. */
export interface ServerSpec {
  /** Default `specification`. */
  preset?: PresetName;
  /**
   * Default `sqlite`. `postgres` needs the run's engine to be PostgreSQL
   * ({@link postgresOn}): it throws otherwise.
   */
  engine?: Engine;
  /** More options of `createApp` (a smaller `maxBodyBytes`, a `keyRateLimit` back on). */
  app?: Partial<Omit<AppOptions, 'storage' | 'preset'>>;
}

/** One reference server of the world, listening on loopback. */
export interface WorldServer {
  readonly role: Role;
  readonly preset: PresetName;
  /** The reference server's preset object. */
  readonly serving: ServingPreset;
  readonly engine: Engine;
  /** The server's database: seed it (seed-source.ts) or look into it. */
  readonly storage: Storage;
  /** The kinds the server serves, as its preset adapts them (for domain writes). */
  readonly registry: KindRegistry;
  /** The tenant the keys belong to (`demo`). */
  readonly tenantName: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The API entry point over HTTP (`/api/v1/`, or `/api/v2/` under Action Network's preset). */
  readonly entryPoint: string;
  /** The namespace of the server's own identifiers (`adis`, `action_network`). */
  readonly namespace: string;
  /** A write key of the tenant. */
  readonly key: string;
  /** A read-only key of the tenant. */
  readonly readKey: string;
  /** The tenant's record in storage. */
  tenant(): Promise<Tenant>;
  /** The entry point as reached through another origin (a fault proxy in front). */
  entryPointAt(origin: string): string;
  /** The connect options of this server (its preset, its key, no client rate). */
  clientOptions(overrides?: ClientOptions): ClientOptions;
  /**
   * A connected SDK client, at the server's own entry point or at `via` (a proxy's
   * origin), with the write key.
   */
  connect(options?: { via?: string; overrides?: ClientOptions }): Promise<Client>;
  close(): Promise<void>;
}

/** The two servers of a sync. */
export interface World {
  source: WorldServer;
  target: WorldServer;
  /**
   * The `sourceSystem` a sync between them needs: `origin` when both have the same
   * namespace (two servers of the specification are both `adis`), else the source's.
   */
  sourceSystem: string;
  close(): Promise<void>;
}

/**
 * Whether this run's engine is PostgreSQL (`ADIS_TEST_ENGINE=postgres`): only then may a
 * server of the world be on PostgreSQL.
 *
 * @example
 * ```ts
 * describe.runIf(postgresOn())('a target on PostgreSQL', () => { … });
 * ```
 */
export function postgresOn(): boolean {
  return TEST_ENGINE === 'postgres';
}

const TENANT = 'demo';

/**
 * Starts one reference server of the world over HTTP on a free loopback port.
 *
 * @example
 * ```ts
 * const target = await startServer('target', { preset: 'action-network' });
 * const client = await target.connect();
 * await target.close();
 * ```
 */
export async function startServer(role: Role, spec: ServerSpec = {}): Promise<WorldServer> {
  const preset = spec.preset ?? 'specification';
  const engine = spec.engine ?? 'sqlite';
  if (engine === 'postgres' && !postgresOn()) {
    throw new Error(
      `the ${role} was asked for on PostgreSQL, but this run's engine is ${TEST_ENGINE} (ADIS_TEST_ENGINE=postgres)`,
    );
  }
  const serving = preset === 'action-network' ? ACTION_NETWORK_PRESET : SPECIFICATION_PRESET;
  const key = `${role}-write-key`;
  const readKey = `${role}-read-key`;
  const kit = createTestServer({
    keys: [
      { token: key, tenant: TENANT, access: 'write' },
      { token: readKey, tenant: TENANT, access: 'read' },
    ],
    // The preset's key rate (4 a second under Action Network's) off unless asked for.
    app: { preset: serving, keyRateLimit: false, ...spec.app },
    ...(engine === 'postgres'
      ? { database: ({ defaultNamespace }) => testStorage(defaultNamespace).storage }
      : {}),
  });
  await kit.ready();
  const running = await kit.listen();
  const entryPointAt = (origin: string) => `${origin}${serving.apiPrefix}/`;
  const clientOptions = (overrides: ClientOptions = {}) => clientOptionsFor(preset, key, overrides);
  return {
    role,
    preset,
    serving,
    engine,
    storage: kit.storage,
    registry: defaultRegistry(serving),
    tenantName: TENANT,
    origin: running.url,
    entryPoint: entryPointAt(running.url),
    namespace: serving.namespace,
    key,
    readKey,
    tenant: () => kit.storage.tenants.ensure(TENANT),
    entryPointAt,
    clientOptions,
    connect: ({ via, overrides } = {}) =>
      connect(entryPointAt(via ?? running.url), clientOptions(overrides)),
    close: () => kit.close(),
  };
}

/**
 * Starts a source and a target.
 *
 * @example
 * ```ts
 * const world = await startWorld({ source: { preset: 'action-network' } });
 * await seedSource(world.source, { people: 200 });
 * await runSync({ from: await world.source.connect(), to: await world.target.connect(), state, sourceSystem: world.sourceSystem });
 * await world.close();
 * ```
 */
export async function startWorld(
  options: { source?: ServerSpec; target?: ServerSpec } = {},
): Promise<World> {
  const [source, target] = await Promise.all([
    startServer('source', options.source),
    startServer('target', options.target),
  ]);
  return {
    source,
    target,
    sourceSystem: source.namespace === target.namespace ? 'origin' : source.namespace,
    close: async () => {
      await Promise.all([source.close(), target.close()]);
    },
  };
}
