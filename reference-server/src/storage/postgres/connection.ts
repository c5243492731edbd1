/**
 * The pool of connections of a {@link PostgresStorage} and its units of work. Every
 * repository (records, tenants, webhooks, …) runs its SQL through
 * {@link PostgresConnection.query}, which picks the right connection: the one of the
 * transaction or unit the caller is inside (found through an `AsyncLocalStorage`, so it
 * follows awaits), else any free one of the pool. Errors meaning the database cannot be
 * reached are mapped here, once (errors.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { DuplicateIdentifierError } from '../records-store.js';
import type { UnitOptions } from '../storage.js';
import { isRetryable, mapError } from './errors.js';
import { type FlushResult, planFlush } from './flush.js';
import { WriteBuffer } from './write-buffer.js';

/** How many times a top-level transaction runs in all when it meets 40001 or 40P01. */
const TRANSACTION_ATTEMPTS = 4;

/** Distinct SQL texts run as named (prepared) statements; the rest run unnamed. */
const PREPARED_STATEMENTS = 500;

/** How to open the pool (the connection's part of `PostgresStorageOptions`). */
export interface PostgresConnectionOptions {
  /** Most connections open at once. Default 10. */
  poolSize?: number;
  /** Milliseconds to wait for a free connection before StorageUnavailableError. Default 5000. */
  poolWaitMs?: number;
  /** `application_name` of the sessions (pg_stat_activity). Default `adis-reference-server`. */
  applicationName?: string;
  /**
   * The schema the tables live in (the sessions' `search_path`), which must exist:
   * several servers, or tests, side by side in one database. Default: the database's
   * default (`public`).
   */
  schema?: string;
  /** Milliseconds an idle connection stays open in the pool. Default 10000. */
  idleTimeoutMs?: number;
}

/** A top-level database transaction: its client, its held writes, whether it has ended. */
interface OpenTransaction {
  client: pg.PoolClient;
  /** Set when COMMIT or ROLLBACK ran: a context still holding it must use the pool. */
  ended: boolean;
  /** Names the next savepoint. */
  savepoints: number;
  /** The writes held until a statement needs them or the commit (write-buffer.ts). */
  buffer: WriteBuffer;
  /**
   * Sent writes the database refused in part (an identifier taken): the transaction may
   * not commit them. Cleared when a rollback forgets the writes from `position` on.
   */
  refused?: { position: number; error: Error };
}

/**
 * What the async context of a caller holds: its transaction, the tail of the nested
 * units started from this level, which run one after another (two interleaved on one
 * connection would roll back each other's work), and, for a nested unit, where its
 * writes begin in the transaction's held writes and the savepoint taken for it, if one
 * was needed (see {@link PostgresConnection.send}).
 */
interface Scope {
  transaction: OpenTransaction;
  tail: Promise<unknown>;
  /** The enclosing unit's scope; none at top level. */
  parent?: Scope;
  /** Where this nested unit's writes begin in the held writes. */
  mark: number;
  /** The savepoint that starts this nested unit in the database, once one was needed. */
  savepoint?: string;
}

/** Options of {@link PostgresConnection.query}. */
export interface QueryOptions {
  /**
   * The statement only reads, and not what the transaction holds unsent (the caller
   * reads the held writes itself, or reads other tables): it is run as it is. Without
   * it, the held writes are sent first, so that the statement sees them, under the
   * savepoints the nested units around it need.
   */
  readOnly?: boolean;
}

/**
 * A `pg.Pool` and the units of work on it.
 */
export class PostgresConnection {
  readonly pool: pg.Pool;
  private readonly scopes = new AsyncLocalStorage<Scope>();
  private closed = false;
  /** Names of the statements prepared so far, by SQL text (see {@link prepared}). */
  private readonly statementNames = new Map<string, string>();

  constructor(url: string, options: PostgresConnectionOptions = {}) {
    const { schema } = options;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new RangeError(
        `schema must be a lower-case SQL name (letters, digits, _), got ${JSON.stringify(schema)}`,
      );
    }
    this.pool = new pg.Pool({
      connectionString: url,
      max: Math.max(1, Math.floor(options.poolSize ?? 10)),
      // pg-pool applies it to waiting for a free client as well as to connecting.
      connectionTimeoutMillis: Math.max(1, Math.floor(options.poolWaitMs ?? 5000)),
      application_name: options.applicationName ?? 'adis-reference-server',
      // Every commit durable before it resolves, whatever the server's default: nothing
      // is acknowledged that a crash could lose.
      options: `-c synchronous_commit=on${schema ? ` -c search_path=${schema}` : ''}`,
      idleTimeoutMillis: Math.max(1, Math.floor(options.idleTimeoutMs ?? 10_000)),
    });
    // An idle client losing its server (a restart) must not crash the process: the
    // pool drops it, and the next query connects again or reports it.
    this.pool.on('error', () => {});
    // Nor a checked-out one: its failure reaches the caller as the query's error.
    this.pool.on('connect', (client) => client.on('error', () => {}));
  }

  /**
   * Runs `sql` on the connection of the caller's transaction or unit, if it is inside
   * one still running, else on any free connection. Rejects with
   * StorageUnavailableError when the database cannot be reached or no connection frees
   * up within `poolWaitMs`.
   */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
    options: QueryOptions = {},
  ): Promise<pg.QueryResult<R>> {
    const scope = this.currentScope();
    if (scope && !options.readOnly) await this.send(scope);
    const query = this.prepared(sql, params);
    try {
      if (scope) return await scope.transaction.client.query<R>(query);
      return await this.pool.query<R>(query);
    } catch (error) {
      throw mapError(error);
    }
  }

  /**
   * The held writes of the caller's transaction, if it is inside one still running:
   * repositories add to them instead of writing (write-buffer.ts).
   */
  held(): WriteBuffer | undefined {
    return this.currentScope()?.transaction.buffer;
  }

  /**
   * Sends what the scope's transaction holds unsent, first opening the savepoints of
   * the nested units around the caller that have none yet, each at the place its writes
   * begin: a statement run inside a nested unit is then undone with it. So a savepoint
   * costs its statement only where a nested unit writes through a statement of its own
   * (or reads what it holds); held writes alone are forgotten in memory.
   */
  private async send(scope: Scope): Promise<void> {
    const { transaction } = scope;
    const { buffer, client } = transaction;
    const open: Scope[] = [];
    for (let at: Scope | undefined = scope; at?.parent; at = at.parent) {
      if (at.savepoint === undefined) open.unshift(at);
    }
    if (open.length === 0 && !buffer.pending) return;
    for (const nested of open) {
      if (buffer.sent < nested.mark) await this.sendHeld(transaction, nested.mark);
      const name = `adis_sp_${++transaction.savepoints}`;
      try {
        await client.query(`SAVEPOINT ${name}`);
      } catch (error) {
        throw mapError(error);
      }
      nested.savepoint = name;
    }
    if (buffer.pending) await this.sendHeld(transaction, buffer.writes.length);
  }

  /** Sends the held writes up to `end` (flush.ts) and gives inserted records their seqs. */
  private async sendHeld(transaction: OpenTransaction, end: number): Promise<void> {
    const { buffer, client } = transaction;
    const start = buffer.sent;
    const writes = buffer.writes.slice(start, end);
    const plan = planFlush(writes);
    let result: FlushResult | undefined;
    try {
      if (plan.updates) await client.query(this.prepared(plan.updates.sql, plan.updates.params));
      if (plan.writes) {
        const answer = await client.query<FlushResult>(
          this.prepared(plan.writes.sql, plan.writes.params),
        );
        result = answer.rows[0];
      }
    } catch (error) {
      throw mapError(error);
    }
    buffer.sent = end;
    const seqs = new Map((result?.seqs ?? []).map(([id, seq]) => [id, Number(seq)]));
    for (const held of writes) {
      if (held.type === 'insert' || held.type === 'update') {
        const seq = seqs.get(held.write.id);
        if (seq !== undefined) held.record.seq = seq;
      }
    }
    const duplicate = result?.duplicates?.[0];
    if (duplicate !== undefined) {
      const error = new DuplicateIdentifierError(duplicate[0], duplicate[1]);
      transaction.refused ??= { position: start, error };
      throw error;
    }
  }

  /**
   * Whether the caller is inside a running transaction or unit.
   */
  inTransaction(): boolean {
    return this.currentScope() !== undefined;
  }

  /**
   * Runs `fn` as one unit of work. Top level: a transaction (READ COMMITTED) on a
   * connection of its own, run again whole (a few times) when the server aborts it as a
   * serialization failure or a deadlock. Inside a transaction or unit: a savepoint of
   * it, whose throw rolls back its own writes only.
   */
  transaction<T>(fn: () => T | Promise<T>): Promise<T> {
    const scope = this.currentScope();
    if (scope) return this.savepoint(scope, fn);
    return this.topLevel(fn, TRANSACTION_ATTEMPTS);
  }

  /**
   * Runs `fn`, which may await anything, in one database transaction: everything it
   * writes commits together when it resolves, or rolls back when it throws.
   * Transactions inside it are savepoints. Inside a running unit it is a savepoint of
   * it, unless `detached` (work that outlives the caller): then, as at top level, a
   * transaction of its own. Never retried: `fn` may have done more than write.
   */
  unit<T>(fn: () => Promise<T>, options?: UnitOptions): Promise<T> {
    const scope = this.currentScope();
    if (scope && !options?.detached) return this.savepoint(scope, fn);
    return this.topLevel(fn, 1);
  }

  /**
   * Ends the pool (its connections close once released). Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /**
   * `sql` as a named statement, which each connection parses and plans once and then
   * only executes (a helper call runs dozens of statements: planning each again cost
   * about a third of the server's time). Only the first {@link PREPARED_STATEMENTS}
   * distinct texts with parameters are named: SQL that varies with client input
   * (filters) must not grow every connection's cache without end; the rest run unnamed.
   */
  private prepared(sql: string, params: unknown[] | undefined): pg.QueryConfig {
    // Without parameters it may be several commands (migrations), which cannot be named.
    if (!params?.length) return { text: sql };
    let name = this.statementNames.get(sql);
    if (name === undefined && this.statementNames.size < PREPARED_STATEMENTS) {
      name = `adis_${this.statementNames.size}`;
      this.statementNames.set(sql, name);
    }
    return name === undefined ? { text: sql, values: params } : { name, text: sql, values: params };
  }

  /** The caller's scope, unless its transaction has ended. */
  private currentScope(): Scope | undefined {
    const scope = this.scopes.getStore();
    return scope && !scope.transaction.ended ? scope : undefined;
  }

  private async topLevel<T>(fn: () => T | Promise<T>, attempts: number): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.runTransaction(fn);
      } catch (error) {
        if (attempt < attempts && isRetryable(error)) {
          // A short random pause, so that two transactions that deadlocked do not meet again.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
          continue;
        }
        throw mapError(error);
      }
    }
  }

  private async runTransaction<T>(fn: () => T | Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw mapError(error);
    }
    const transaction: OpenTransaction = {
      client,
      ended: false,
      savepoints: 0,
      buffer: new WriteBuffer(),
    };
    // A client whose ROLLBACK failed is in an unknown state: the pool must drop it.
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const scope: Scope = { transaction, tail: Promise.resolve(), mark: 0 };
      const result = await this.scopes.run(scope, fn);
      // What is still held goes with the commit; writes the database refused may not.
      await this.send(scope);
      if (transaction.refused) throw transaction.refused.error;
      const commit = await client.query('COMMIT');
      // COMMIT of a transaction that an error aborted (one caught without a savepoint)
      // rolls back and says so only by its tag.
      if (commit.command === 'ROLLBACK') {
        throw new Error('transaction was aborted by an earlier error and rolled back');
      }
      return result;
    } catch (error) {
      transaction.ended = true;
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
      throw error;
    } finally {
      transaction.ended = true;
      client.release(broken);
    }
  }

  /**
   * Runs `fn` as a nested unit of the scope's transaction, after the scope's earlier
   * nested units: its held writes begin at a mark, and a throw forgets them (and rolls
   * back to its savepoint, if it needed one: see {@link send}).
   */
  private savepoint<T>(scope: Scope, fn: () => T | Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const { transaction } = scope;
      const nested: Scope = {
        transaction,
        tail: Promise.resolve(),
        parent: scope,
        mark: transaction.buffer.mark(),
      };
      try {
        const result = await this.scopes.run(nested, fn);
        if (nested.savepoint && !transaction.ended) {
          await transaction.client.query(`RELEASE SAVEPOINT ${nested.savepoint}`);
        }
        return result;
      } catch (error) {
        if (!transaction.ended) {
          if (nested.savepoint) {
            await transaction.client
              .query(
                `ROLLBACK TO SAVEPOINT ${nested.savepoint}; RELEASE SAVEPOINT ${nested.savepoint}`,
              )
              .catch(() => undefined);
          }
          // Without a savepoint nothing of it was sent: what it held is forgotten.
          transaction.buffer.rollbackTo(nested.mark);
          if (transaction.refused && transaction.refused.position >= nested.mark) {
            transaction.refused = undefined;
          }
        }
        throw mapError(error);
      }
    };
    const result = scope.tail.then(run, run);
    scope.tail = result.catch(() => undefined);
    return result;
  }
}
