/**
 * Tenants, their API keys and the server's settings: the `tenants` sub-store of a
 * {@link Storage}. Every record belongs to one tenant; every key opens one tenant.
 */

/** What an API key may do: `read` allows GET only, `write` allows every method. */
export type Access = 'read' | 'write';

/** A tenant: the owner of records. Each API key belongs to one tenant. */
export interface Tenant {
  id: number;
  name: string;
  /** Identifier namespace of the tenant's records (`<namespace>:<id>`). */
  namespace: string;
}

/** The result of looking up an API key. */
export interface ApiKeyInfo {
  tenant: Tenant;
  access: Access;
}

/** The tenants sub-store: tenants, API keys (stored only as hashes) and settings. */
export interface TenantStore {
  /** Returns the tenant named `name`, creating it (with `namespace`) when missing. */
  ensure(name: string, namespace?: string): Promise<Tenant>;
  /** The tenant named `name`, if any. */
  get(name: string): Promise<Tenant | undefined>;
  /** Stores an API key (hashed) for a tenant; `source` groups keys for replacement. */
  putApiKey(token: string, tenantName: string, access: Access, source?: string): Promise<void>;
  /** Removes every API key added with `source`; returns how many. */
  removeApiKeys(source: string): Promise<number>;
  /** Looks up a plain-text API key. */
  authenticate(token: string): Promise<ApiKeyInfo | undefined>;
  /** A persistent setting. */
  getSetting(key: string): Promise<string | undefined>;
  /** Stores a persistent setting. */
  setSetting(key: string, value: string): Promise<void>;
}
