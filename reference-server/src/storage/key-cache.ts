/**
 * Recent answers of API key look-ups, by plain token: every keyed request looks its key
 * up, and a sha256 plus a query cost more than the rest of reading a record's headers.
 */
import type { ApiKeyInfo } from './storage.js';

/**
 * A small bounded cache of token → key answers. Only keys that exist are kept (a flood
 * of wrong tokens can neither fill it nor evict the real ones), each for `ttlMs` after
 * it was read from the database. The storage clears it whenever it changes keys itself,
 * so a key removed or changed through it is refused or re-read at once; the time limit
 * bounds how long a change made by another process on the same database file (a second
 * server started with another keys file) takes to be seen.
 */
export class KeyCache {
  private readonly entries = new Map<string, { info: ApiKeyInfo; until: number }>();

  constructor(
    private readonly maxKeys = 1000,
    private readonly ttlMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer for `token`, if it was read recently enough. */
  get(token: string): ApiKeyInfo | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    if (this.now() < entry.until) return entry.info;
    this.entries.delete(token);
    return undefined;
  }

  /** Keeps an answer just read from the database (frozen: every request shares it). */
  set(token: string, info: ApiKeyInfo): ApiKeyInfo {
    if (this.entries.size >= this.maxKeys && !this.entries.has(token)) {
      // Oldest first: Map keeps insertion order.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const frozen = Object.freeze({ ...info, tenant: Object.freeze({ ...info.tenant }) });
    this.entries.set(token, { info: frozen, until: this.now() + this.ttlMs });
    return frozen;
  }

  /** Forgets every answer (after a change to the keys). */
  clear(): void {
    this.entries.clear();
  }
}
