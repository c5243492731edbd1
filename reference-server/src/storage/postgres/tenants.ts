/**
 * Tenants, their API keys and the settings, on PostgreSQL (tables `tenants`,
 * `api_keys`, `settings`). Keys are stored hashed as SQLite stores them
 * ({@link hashToken}); recent look-ups are cached for a second (key-cache.ts), so a key
 * removed by another process stops working within that second.
 */
import { KeyCache } from '../key-cache.js';
import type { Access, ApiKeyInfo, Tenant } from '../storage.js';
import { hashToken } from '../token-hash.js';
import type { PostgresConnection } from './connection.js';

interface TenantRow {
  id: number;
  name: string;
  namespace: string;
}

/**
 * The tenants, API keys and settings of a {@link PostgresStorage}.
 */
export class PostgresTenants {
  private readonly keyCache = new KeyCache();

  constructor(
    private readonly connection: PostgresConnection,
    /** Namespace of tenants created without one. */
    private readonly defaultNamespace: string,
  ) {}

  /** See {@link TenantStore.ensure}. Two processes creating the same tenant get one. */
  async ensure(name: string, namespace?: string): Promise<Tenant> {
    const existing = await this.get(name);
    if (existing) return existing;
    const ns = namespace ?? this.defaultNamespace;
    const inserted = await this.connection.query<TenantRow>(
      `INSERT INTO tenants (name, namespace, created_date) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO NOTHING RETURNING id, name, namespace`,
      [name, ns, new Date().toISOString()],
    );
    const row = inserted.rows[0];
    if (row) return { id: row.id, name: row.name, namespace: row.namespace };
    // Another process created it meanwhile (ON CONFLICT waited for its commit).
    const created = await this.get(name);
    if (!created) throw new Error(`tenant ${name} vanished while being created`);
    return created;
  }

  /** See {@link TenantStore.get}. */
  async get(name: string): Promise<Tenant | undefined> {
    const { rows } = await this.connection.query<TenantRow>(
      'SELECT id, name, namespace FROM tenants WHERE name = $1',
      [name],
    );
    const row = rows[0];
    return row ? { id: row.id, name: row.name, namespace: row.namespace } : undefined;
  }

  /** See {@link TenantStore.putApiKey}. */
  async putApiKey(
    token: string,
    tenantName: string,
    access: Access,
    source = 'manual',
  ): Promise<void> {
    const tenant = await this.ensure(tenantName);
    await this.connection.query(
      `INSERT INTO api_keys (token_hash, tenant_id, access, source, created_date) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (token_hash) DO UPDATE SET tenant_id = excluded.tenant_id, access = excluded.access, source = excluded.source`,
      [hashToken(token), tenant.id, access, source, new Date().toISOString()],
    );
    this.keyCache.clear();
  }

  /** See {@link TenantStore.removeApiKeys}. */
  async removeApiKeys(source: string): Promise<number> {
    const result = await this.connection.query('DELETE FROM api_keys WHERE source = $1', [source]);
    this.keyCache.clear();
    return result.rowCount ?? 0;
  }

  /** See {@link TenantStore.authenticate}. */
  async authenticate(token: string): Promise<ApiKeyInfo | undefined> {
    const cached = this.keyCache.get(token);
    if (cached) return cached;
    const { rows } = await this.connection.query<TenantRow & { access: Access }>(
      `SELECT k.access, t.id, t.name, t.namespace FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
       WHERE k.token_hash = $1`,
      [hashToken(token)],
    );
    const row = rows[0];
    if (!row) return undefined;
    const info: ApiKeyInfo = {
      access: row.access,
      tenant: { id: row.id, name: row.name, namespace: row.namespace },
    };
    // Not inside a transaction: it may still roll back a key it added or changed.
    return this.connection.inTransaction() ? info : this.keyCache.set(token, info);
  }

  /** See {@link TenantStore.getSetting}. */
  async getSetting(key: string): Promise<string | undefined> {
    const { rows } = await this.connection.query<{ value: string }>(
      'SELECT value FROM settings WHERE key = $1',
      [key],
    );
    return rows[0]?.value;
  }

  /** See {@link TenantStore.setSetting}. */
  async setSetting(key: string, value: string): Promise<void> {
    await this.connection.query(
      'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value],
    );
  }
}
