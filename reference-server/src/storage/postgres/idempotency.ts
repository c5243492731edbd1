/**
 * The stored answers to POSTs that carried an `Idempotency-Key`, on PostgreSQL (table
 * `idempotent_answers`), as SQLite keeps them (sqlite/idempotency.ts). Inside a unit,
 * looking a key up locks it until the unit ends: another process running the same key
 * meanwhile waits, then finds the answer stored.
 */
import type { IdempotencyKeyRef, IdempotentAnswer } from '../storage.js';
import type { PostgresConnection } from './connection.js';
import { lockLookup } from './lookup-lock.js';

/** Expired answers each save deletes at most (see sqlite/idempotency.ts). */
const IDEMPOTENT_EXPIRY_BATCH = 2;

/**
 * The idempotent answers of a {@link PostgresStorage}.
 *
 * @example
 * ```ts
 * const answers = new PostgresIdempotentAnswers(connection);
 * const ref = { tenantId: 1, anonymous: false, key: 'k1' };
 * await answers.save(ref, answer, Date.now() - 86_400_000);
 * (await answers.find(ref, Date.now() - 86_400_000))?.status; // answer.status
 * ```
 */
export class PostgresIdempotentAnswers {
  constructor(private readonly connection: PostgresConnection) {}

  /** See {@link Storage.findIdempotentAnswer}. */
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

  /** See {@link Storage.saveIdempotentAnswer}. */
  async save(
    ref: IdempotencyKeyRef,
    answer: IdempotentAnswer,
    expireBeforeMs: number,
  ): Promise<void> {
    await this.connection.transaction(async () => {
      // SKIP LOCKED: two processes sweeping at once take different rows instead of waiting.
      await this.connection.query(
        `DELETE FROM idempotent_answers WHERE id IN (SELECT id FROM idempotent_answers
         WHERE created_ms < $1 ORDER BY created_ms LIMIT ${IDEMPOTENT_EXPIRY_BATCH} FOR UPDATE SKIP LOCKED)`,
        [expireBeforeMs],
      );
      await this.connection.query(
        `INSERT INTO idempotent_answers
           (tenant_id, anonymous, key, fingerprint, status, headers, body, created_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (tenant_id, anonymous, key) DO UPDATE SET fingerprint = excluded.fingerprint,
           status = excluded.status, headers = excluded.headers, body = excluded.body,
           created_ms = excluded.created_ms`,
        [
          ref.tenantId,
          ref.anonymous,
          ref.key,
          answer.fingerprint,
          answer.status,
          JSON.stringify(answer.headers),
          Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength),
          answer.createdMs,
        ],
      );
    });
  }
}
