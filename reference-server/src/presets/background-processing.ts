/**
 * Which calls a preset's server processes in the background when asked
 * (`?background_request=true`, or the older `?background_processing=true`: see
 * `http/background.ts`), and how it answers them: as data, so that a preset says what
 * its server documents and the routes only look it up. A call the preset does not list
 * is processed at once, as if the parameter had not been sent.
 */

/**
 * A call that may be asked to run in the background: a create (`POST` to a collection
 * or a sub-collection), an update (`PUT`, and `PATCH`, which the server takes as its
 * synonym), a `DELETE`, or a helper call (`helper`: a record helper, or person signup).
 */
export type BackgroundOperation = 'POST' | 'PUT' | 'DELETE' | 'helper';

/**
 * What a preset's server does with a call that asks to be processed in the background.
 */
export interface BackgroundProcessing {
  /**
   * The status of the immediate answer, whose body is always `{}`: 202 Accepted, or 200
   * where the server documents it so (Action Network: `200 OK {}`).
   */
  status: 200 | 202;
  /**
   * The calls taken in the background, by the plural of the kind of record the call
   * writes: a plain write's own kind, a helper call's main record (`signatures` for the
   * record signature helper, `people` for person signup). `'*'` holds what every kind
   * takes. Kinds and operations not listed ignore the parameter.
   */
  operations: Readonly<Record<string, readonly BackgroundOperation[]>>;
}

/**
 * Whether `processing` takes `operation` on records of `plural` in the background.
 *
 * @example
 * ```ts
 * import { takesBackground } from './background-processing.js';
 *
 * takesBackground({ status: 202, operations: { '*': ['helper'] } }, 'signatures', 'helper'); // true
 * takesBackground({ status: 202, operations: { '*': ['helper'] } }, 'petitions', 'POST'); // false
 * ```
 */
export function takesBackground(
  processing: BackgroundProcessing,
  plural: string,
  operation: BackgroundOperation,
): boolean {
  const { operations } = processing;
  // Own properties only: a kind named like an Object method (`constructor`) lists nothing.
  const listed = (key: string) =>
    Object.hasOwn(operations, key) && (operations[key] ?? []).includes(operation);
  return listed(plural) || listed('*');
}
