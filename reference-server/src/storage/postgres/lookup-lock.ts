/**
 * The lock that makes "look up, then insert if none" safe across processes: inside a
 * transaction, a look-up first takes a transaction-scoped advisory lock on a hash of
 * what it looks up, so a concurrent transaction making the same look-up waits until the
 * first one ends, and its look-up (a new snapshot, READ COMMITTED) then sees what the
 * first one inserted. Outside a transaction a look-up is a plain read.
 */
import type { PostgresConnection } from './connection.js';

/**
 * Takes, when the caller is inside a transaction, the advisory lock of the look-up
 * described by `parts` (held until the transaction ends); does nothing outside one.
 * Text cannot hold NUL, so the parts are joined with U+001F. The lock must be its own
 * statement: a statement's snapshot is taken when it starts,
 * before it would wait.
 */
export async function lockLookup(
  connection: PostgresConnection,
  parts: readonly (string | number)[],
): Promise<void> {
  if (!connection.inTransaction()) return;
  await connection.query(
    'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
    [parts.map(String).join('\u001f')],
    // A lock reads nothing: the transaction's held writes need not be sent for it.
    { readOnly: true },
  );
}
