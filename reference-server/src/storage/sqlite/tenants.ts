/**
 * Tenants, their API keys and the settings, on SQLite (tables `tenants`, `api_keys`,
 * `settings`). Keys are stored hashed ({@link hashToken}); recent look-ups are cached
 * (key-cache.ts), the cache cleared by every change to the keys.
 */
import { KeyCache } from '../key-cache.js';
import type { Access, ApiKeyInfo, Tenant } from '../storage.js';
import { hashToken } from '../token-hash.js';
import type { RepositoryConnection } from './connection.js';

/** A tenant as read by `SELECT id, name, namespace`. */
export interface TenantRow {
  id: number;
  name: string;
  namespace: string;
}

/**
 * The tenants, API keys and settings of a {@link SqliteStorage}.
 */
export class SqliteTenants {
  /** Recent key look-ups (see key-cache.ts); cleared by every change to the keys. */
  private readonly keyCache = new KeyCache();

  constructor(
    private readonly connection: RepositoryConnection,
    /** Namespace of tenants created without one. */
    private readonly defaultNamespace: string,
  ) {}

  ensure(name: string, namespace?: string): Tenant {
    const existing = this.get(name);
    if (existing) return existing;
    const ns = namespace ?? this.defaultNamespace;
    const info = this.connection
      .statement('INSERT INTO tenants (name, namespace, created_date) VALUES (?, ?, ?)')
      .run(name, ns, new Date().toISOString());
    return { id: Number(info.lastInsertRowid), name, namespace: ns };
  }

  get(name: string): Tenant | undefined {
    const row = this.connection
      .statement('SELECT id, name, namespace FROM tenants WHERE name = ?')
      .get(name) as TenantRow | undefined;
    return row ? { id: row.id, name: row.name, namespace: row.namespace } : undefined;
  }

  putApiKey(token: string, tenantName: string, access: Access, source = 'manual'): void {
    const tenant = this.ensure(tenantName);
    this.connection
      .statement(
        `INSERT INTO api_keys (token_hash, tenant_id, access, source, created_date) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (token_hash) DO UPDATE SET tenant_id = excluded.tenant_id, access = excluded.access, source = excluded.source`,
      )
      .run(hashToken(token), tenant.id, access, source, new Date().toISOString());
    this.keyCache.clear();
  }

  removeApiKeys(source: string): number {
    const removed = this.connection
      .statement('DELETE FROM api_keys WHERE source = ?')
      .run(source).changes;
    this.keyCache.clear();
    return removed;
  }

  authenticate(token: string): ApiKeyInfo | undefined {
    const cached = this.keyCache.get(token);
    if (cached) return cached;
    const row = this.connection
      .statement(
        `SELECT k.access, t.id, t.name, t.namespace FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
       WHERE k.token_hash = ?`,
      )
      .get(hashToken(token)) as (TenantRow & { access: Access }) | undefined;
    if (!row) return undefined;
    const info: ApiKeyInfo = {
      access: row.access,
      tenant: { id: row.id, name: row.name, namespace: row.namespace },
    };
    // Not inside a transaction: it may still roll back a key it added or changed.
    return this.connection.inTransaction() ? info : this.keyCache.set(token, info);
  }

  getSetting(key: string): string | undefined {
    const row = this.connection.statement('SELECT value FROM settings WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  setSetting(key: string, value: string): void {
    this.connection
      .statement(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }
}
