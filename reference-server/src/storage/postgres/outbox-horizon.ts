/**
 * How far the outbox can be read without losing an event, on PostgreSQL, where several
 * transactions (of this process and of others) append at once.
 *
 * Why it is needed: a seq comes from a sequence when the event is appended, but becomes
 * visible when its transaction commits, so seq 10 can be visible while seq 9's
 * transaction is still open. A subscription whose cursor moved past 10 would never be
 * sent 9. Filtering on the event's own transaction id (`xid < snapshot xmin`) is not
 * enough: a transaction that got its id earlier can take its seq later.
 *
 * What is done: every append takes its transaction id before its seq (webhooks.ts). A
 * *checkpoint* reads the sequence's last value `last`, then takes a new transaction id
 * `clock`: every transaction that holds a seq up to `last` got its id before, so has an
 * id below `clock`. Once no transaction with an id below `clock` is running (the
 * oldest running transaction has reached it), every seq up to `last` is committed or
 * never will be: the outbox is read up to there, the *bound*. A checkpoint costs a transaction id
 * and its commit record (written without waiting for the disk: it holds nothing); one
 * is taken only when the sequence has moved past every bound and checkpoint known.
 *
 * The price: an event is held back while any transaction of this database that writes
 * and was running when it was appended is still open. Transaction ids are the
 * cluster's: those seen running in another database (pg_stat_activity) are left out, so
 * another database's long transaction holds nothing back; one whose database cannot be
 * seen counts, to be safe. Read-only transactions hold nothing back.
 *
 * State is per process; each process finds its own bound.
 */
import type { PostgresConnection } from './connection.js';
import { WEBHOOK_EVENT_SEQUENCE } from './webhook-schema.js';

/** Checkpoints kept at most while the bound is held back (the oldest are dropped). */
const CHECKPOINTS_KEPT = 64;

/** A checkpoint: every seq up to `last` is final once no transaction below `clock` runs. */
interface Checkpoint {
  last: number;
  /** A transaction id (xid8), as text. */
  clock: string;
}

/** What a read of the outbox passes to its SQL (see {@link OutboxHorizon.boundSql}). */
export interface HorizonParams {
  /** The bound known so far. */
  bound: number;
  /** The checkpoints not yet reached: their `last` values and their clocks. */
  lasts: number[];
  clocks: string[];
}

/**
 * The bound of one process's reads of the outbox, and the checkpoints that move it.
 */
export class OutboxHorizon {
  private bound = 0;
  private checkpoints: Checkpoint[] = [];
  /** The checkpoint being taken: callers at the same moment share it. */
  private taking: Promise<boolean> | undefined;

  constructor(private readonly connection: PostgresConnection) {}

  /**
   * SQL of two CTEs for a read: `horizon` (`xmin` of the statement's snapshot, `last`
   * the sequence's last value) and `settled` (`bound`: the highest seq known final).
   * `$bound`, `$lasts` and `$clocks` are the placeholders of {@link params}.
   */
  static boundSql(bound: string, lasts: string, clocks: string): string {
    // xmin: the oldest transaction running at the statement's snapshot that may be of
    // this database (one seen running in another database is left out; one gone from
    // pg_stat_activity since the snapshot is kept: it may have committed after it),
    // else the snapshot's xmax.
    return `horizon AS MATERIALIZED (
        SELECT COALESCE(
                 (SELECT min(x) FROM pg_snapshot_xip(pg_current_snapshot()) AS x
                   WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                                      WHERE a.backend_xid = x::xid
                                        AND a.datname <> current_database())),
                 pg_snapshot_xmax(pg_current_snapshot())) AS xmin,
               COALESCE(pg_sequence_last_value('${WEBHOOK_EVENT_SEQUENCE}'), 0) AS last
      ), settled AS MATERIALIZED (
        SELECT GREATEST(${bound}::bigint, COALESCE(max(c.last), 0)) AS bound
        FROM horizon h LEFT JOIN unnest(${lasts}::bigint[], ${clocks}::xid8[]) AS c(last, clock)
          ON c.clock <= h.xmin
      )`;
  }

  /**
   * The bound and checkpoints known now, for the read's placeholders.
   */
  params(): HorizonParams {
    return {
      bound: this.bound,
      lasts: this.checkpoints.map((checkpoint) => checkpoint.last),
      clocks: this.checkpoints.map((checkpoint) => checkpoint.clock),
    };
  }

  /**
   * Takes in what a read found: the `bound` its SQL settled and the sequence's `last`
   * value. True when a checkpoint would let a later read go further (seqs were handed
   * out past every bound and checkpoint known).
   */
  observe(bound: number, last: number): boolean {
    if (bound > this.bound) this.bound = bound;
    this.checkpoints = this.checkpoints.filter((checkpoint) => checkpoint.last > this.bound);
    const known = Math.max(this.bound, ...this.checkpoints.map((checkpoint) => checkpoint.last));
    return last > known;
  }

  /**
   * Whether a checkpoint taken is not reached yet: seqs are held back by a writer that
   * was running when it was taken.
   */
  waiting(): boolean {
    return this.checkpoints.length > 0;
  }

  /**
   * Takes a checkpoint, unless the caller is inside a transaction (its transaction id
   * may be older than seqs handed out since: it would be no clock). Callers at the
   * same moment share one. Returns whether one was taken.
   */
  checkpoint(): Promise<boolean> {
    if (this.connection.inTransaction()) return Promise.resolve(false);
    if (!this.taking) {
      this.taking = this.take().finally(() => {
        this.taking = undefined;
      });
    }
    return this.taking;
  }

  private async take(): Promise<boolean> {
    // The last value is read before the transaction id is taken (the CTE is read
    // first); synchronous_commit off: losing this commit record loses nothing.
    const { rows } = await this.connection.query<{ last: string; clock: string }>(
      `WITH handed_out AS MATERIALIZED (
         SELECT COALESCE(pg_sequence_last_value('${WEBHOOK_EVENT_SEQUENCE}'), 0) AS last,
                set_config('synchronous_commit', 'off', true) AS relaxed
       )
       SELECT last::text AS last, pg_current_xact_id()::text AS clock FROM handed_out`,
    );
    const row = rows[0];
    if (!row) return false;
    const last = Number(row.last);
    if (last <= this.bound) return true;
    this.checkpoints.push({ last, clock: row.clock });
    if (this.checkpoints.length > CHECKPOINTS_KEPT) this.checkpoints.shift();
    return true;
  }
}
