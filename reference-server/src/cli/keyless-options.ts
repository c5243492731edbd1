/**
 * `--keyless-tag` and `--keyless-list`: the tags and lists the operator opens to helper
 * calls without a key (`createApp`'s `keylessOpen`). One name per flag, repeated for
 * more: a tag's name may hold a comma, so values are not split.
 */
import type { KeylessOpenings } from '../domain/helpers/keyless-openings.js';
import { UsageError } from './usage-error.js';

/**
 * The openings the flags give; none without them.
 *
 * @throws {UsageError} for a name that is empty or only spaces, naming the flag.
 *
 * @example
 * ```ts
 * import { keylessOpenOption } from './keyless-options.js';
 *
 * keylessOpenOption(['volunteer', 'Petition signers'], undefined);
 * // { tags: ['volunteer', 'Petition signers'], lists: [] }
 * keylessOpenOption([' '], undefined); // UsageError: --keyless-tag needs a name, got " "
 * ```
 */
export function keylessOpenOption(
  tags: readonly string[] | undefined,
  lists: readonly string[] | undefined,
): KeylessOpenings {
  for (const [flag, names] of [
    ['--keyless-tag', tags],
    ['--keyless-list', lists],
  ] as const) {
    const empty = (names ?? []).find((name) => name.trim() === '');
    if (empty !== undefined) {
      throw new UsageError(`${flag} needs a name, got ${JSON.stringify(empty)}`);
    }
  }
  return { tags: [...(tags ?? [])], lists: [...(lists ?? [])] };
}
