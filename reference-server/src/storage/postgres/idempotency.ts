/**
 * The stored answers to POSTs that carried an `Idempotency-Key`, on PostgreSQL (table
 * `idempotent_answers`), as SQLite keeps them (sqlite/idempotency.ts). Inside a unit,
 * looking a key up locks it until the unit ends: another process running the same key
 * meanwhile waits, then finds the answer stored.
 */
import type { IdempotencyKeyRef, IdempotentAnswer } from '../storage.js';
import type { PostgresConnection } from './connection.js';
import { lockLookup } from './lookup-lock.js';

/**
 * The idempotent answers of a {@link PostgresStorage}.
 */
export class PostgresIdempotentAnswers {
  constructor(private readonly connection: PostgresConnection) {}

  /** See {@link IdempotencyStore.find}. */
  async find(ref: IdempotencyKeyRef, notBeforeMs: number): Promise<IdempotentAnswer | undefined> {
    await lockLookup(this.connection, [
      'idempotency',
      ref.tenantId,
      ref.anonymous ? 'a' : 'k',
      ref.key,
    ]);
    const { rows } = await this.connection.query<{
      fingerprint: string;
      status: number;
      headers: string;
      body: Buffer;
      created_ms: string;
    }>(
      `SELECT fingerprint, status, headers, body, created_ms FROM idempotent_answers
       WHERE tenant_id = $1 AND anonymous = $2 AND key = $3 AND created_ms >= $4`,
      [ref.tenantId, ref.anonymous, ref.key, notBeforeMs],
      // An answer this transaction holds is for another key: the key's lock is its own.
      { readOnly: true },
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      fingerprint: row.fingerprint,
      status: row.status,
      headers: JSON.parse(row.headers) as [string, string][],
      body: row.body,
      createdMs: Number(row.created_ms),
    };
  }

  /** See {@link IdempotencyStore.save}. */
  async save(
    ref: IdempotencyKeyRef,
    answer: IdempotentAnswer,
    expireBeforeMs: number,
  ): Promise<void> {
    const held = this.connection.held();
    // Held with the request's writes (flush.ts), which also removes a few expired answers.
    if (held) return held.answer(ref, answer, expireBeforeMs);
    await this.connection.transaction(async () => this.save(ref, answer, expireBeforeMs));
  }
}
