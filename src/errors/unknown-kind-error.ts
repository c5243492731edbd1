import { AdisError } from './adis-error.js';

/**
 * A relation or helper leads to a kind whose names the connection does not know: the
 * kind was not given to the connection, and it is no kind of the specification or of a
 * server preset (whose names the SDK carries). The SDK does not guess a plural (`review`
 * + `s`): a guessed name pages a collection under a relation no server uses, and answers
 * nothing instead of the records. Give the kind to the connection (`connectWith([...,
 * reviewKind], url)`). Thrown when the relation is used, before any request.
 *
 * @example
 * ```ts
 * import { isUnknownKindError } from 'adis-sdk';
 *
 * function explain(error: unknown): string | undefined {
 *   if (isUnknownKindError(error)) return `${error.from}: give the ${error.kind} kind to connectWith`;
 * }
 * ```
 */
export class UnknownKindError extends AdisError {
  /** Always `'UNKNOWN_KIND'`. */
  readonly code = 'UNKNOWN_KIND' as const;
  /** Always `'UnknownKindError'`. */
  override readonly name = 'UnknownKindError' as const;
  /** The singular name of the kind nothing declares, for example `review`. */
  declare readonly kind: string;
  /** What led to it: the kind and relation or helper that names it (`petition.reviews`). */
  declare readonly from: string;

  /**
   * Builds the error; the message names the kind and what led to it.
   *
   * @param kind - The singular name nothing declares.
   * @param from - What named it: `<kind>.<relation or helper>`.
   */
  constructor(kind: string, from: string) {
    super(
      `Unknown kind "${kind}" (named by ${from}): the connection was not given it, and no kind of the specification or of a server preset has that name; give its kind to the connection`,
    );
    this.kind = kind;
    this.from = from;
  }
}
