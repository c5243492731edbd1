/**
 * The stored answers to POSTs that carried an `Idempotency-Key`, on SQLite (table
 * `idempotent_answers`, migration 5): one per key, per tenant and per kind of caller,
 * written in the same commit as the writes of the request they answer.
 */
import {
  EXPIRED_ANSWERS_PER_SAVE,
  type IdempotencyKeyRef,
  type IdempotentAnswer,
} from '../idempotency-store.js';
import type { RepositoryConnection } from './connection.js';

/**
 * The idempotent answers of a {@link SqliteStorage}.
 */
export class SqliteIdempotentAnswers {
  constructor(private readonly connection: RepositoryConnection) {}

  /** See {@link IdempotencyStore.find}. */
  find(ref: IdempotencyKeyRef, notBeforeMs: number): IdempotentAnswer | undefined {
    const row = this.connection
      .statement(
        `SELECT fingerprint, status, headers, body, created_ms FROM idempotent_answers
       WHERE tenant_id = ? AND anonymous = ? AND key = ? AND created_ms >= ?`,
      )
      .get(ref.tenantId, ref.anonymous ? 1 : 0, ref.key, notBeforeMs) as
      | { fingerprint: string; status: number; headers: string; body: Buffer; created_ms: number }
      | undefined;
    if (!row) return undefined;
    return {
      fingerprint: row.fingerprint,
      status: row.status,
      headers: JSON.parse(row.headers) as [string, string][],
      body: row.body,
      createdMs: row.created_ms,
    };
  }

  /** See {@link IdempotencyStore.save}. */
  save(ref: IdempotencyKeyRef, answer: IdempotentAnswer, expireBeforeMs: number): void {
    this.connection.transaction(() => {
      this.connection
        .statement(
          `DELETE FROM idempotent_answers WHERE id IN (SELECT id FROM idempotent_answers
         WHERE created_ms < ? ORDER BY created_ms LIMIT ${EXPIRED_ANSWERS_PER_SAVE})`,
        )
        .run(expireBeforeMs);
      this.connection
        .statement(
          `INSERT INTO idempotent_answers
           (tenant_id, anonymous, key, fingerprint, status, headers, body, created_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, anonymous, key) DO UPDATE SET fingerprint = excluded.fingerprint,
           status = excluded.status, headers = excluded.headers, body = excluded.body,
           created_ms = excluded.created_ms`,
        )
        .run(
          ref.tenantId,
          ref.anonymous ? 1 : 0,
          ref.key,
          answer.fingerprint,
          answer.status,
          JSON.stringify(answer.headers),
          Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength),
          answer.createdMs,
        );
    });
  }
}
