import { AdisError } from '../errors/adis-error.js';

/**
 * What cannot let a sync run, by `code`: a state file of another pair of servers, or
 * damaged; a source whose identifiers would clash with the target's own.
 */
export type SyncErrorCode = 'STATE_OF_ANOTHER_PAIR' | 'STATE_DAMAGED' | 'SOURCE_SYSTEM_NEEDED';

/**
 * A sync that cannot run as asked: the message says why and what to do. Nothing was
 * written when it is thrown.
 *
 * @example
 * ```ts
 * import { connect } from 'adis-sdk';
 * import { memorySyncState, runSync, SyncSetupError } from 'adis-sdk/sync';
 *
 * const from = await connect('https://old.example.org/api/v1/', { apiKey: process.env.OLD_KEY });
 * const to = await connect('https://new.example.org/api/v1/', { apiKey: process.env.NEW_KEY });
 * try {
 *   await runSync({ from, to, state: memorySyncState() });
 * } catch (error) {
 *   if (error instanceof SyncSetupError && error.reason === 'SOURCE_SYSTEM_NEEDED') {
 *     console.error(error.message); // …give sourceSystem (--source-system)
 *   }
 * }
 * ```
 */
export class SyncSetupError extends AdisError {
  /** Always `'SYNC_SETUP'`. */
  readonly code = 'SYNC_SETUP' as const;
  /** Always `'SyncSetupError'`. */
  override readonly name = 'SyncSetupError' as const;
  /** What is wrong. */
  readonly reason: SyncErrorCode;

  /**
   * Builds the error from its reason and its message.
   *
   * @param reason - What is wrong.
   * @param message - What is wrong and what to do, in a sentence.
   */
  constructor(reason: SyncErrorCode, message: string) {
    super(message);
    this.reason = reason;
  }
}
