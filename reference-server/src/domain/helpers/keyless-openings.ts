/**
 * The tags and lists an operator opens to calls without a key (`--keyless-tag`,
 * `--keyless-list`, `createApp`'s `keylessOpen`), and the name sets the helpers look
 * them up in. Apart from the rules a call without a key follows (`keyless.ts`), so that
 * the helper context (`context.ts`) names the sets without importing those rules, which
 * take the context.
 */

/** The kinds a helper applies to a person by name or href, and that an operator may open. */
export type OpenableKind = 'tag' | 'list';

/**
 * The tags and lists an operator opens to calls without a key, by name (matched as names
 * are, ignoring case and surrounding spaces), in every tenant of the server.
 */
export interface KeylessOpenings {
  tags?: readonly string[];
  lists?: readonly string[];
}

/** {@link KeylessOpenings} as the helpers look names up in it. */
export type OpenNames = Readonly<Record<OpenableKind, ReadonlySet<string>>>;

/**
 * How a tag or list name is compared: the catalog's name key (unique per tenant ignoring
 * case and surrounding spaces).
 */
export function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * Refuses openings that cannot name a tag or list: a name that is not a string, or is
 * empty once trimmed (it would open nothing, which the operator did not mean).
 *
 * @throws {RangeError} naming the entry (`tags[1] must be a tag or list name, got ""`).
 *
 * @example
 * ```ts
 * import { checkOpenings } from './keyless-openings.js';
 *
 * checkOpenings({ tags: ['volunteer'] }); // fine
 * checkOpenings({ lists: [" "] }); // RangeError: lists[0] must be a tag or list name, got " "
 * ```
 */
export function checkOpenings(openings: KeylessOpenings): void {
  for (const member of ['tags', 'lists'] as const) {
    (openings[member] ?? []).forEach((name: unknown, index) => {
      if (typeof name !== 'string' || name.trim() === '') {
        throw new RangeError(
          `${member}[${index}] must be a tag or list name, got ${JSON.stringify(name)}`,
        );
      }
    });
  }
}

/**
 * The openings as sets of name keys, checked ({@link checkOpenings}); nothing open when
 * none are given.
 *
 * @example
 * ```ts
 * import { openNames } from './keyless-openings.js';
 *
 * openNames({ tags: ['Volunteer '] }).tag.has('volunteer'); // true
 * openNames().list.size; // 0
 * ```
 */
export function openNames(openings: KeylessOpenings = {}): OpenNames {
  checkOpenings(openings);
  return {
    tag: new Set((openings.tags ?? []).map(nameKey)),
    list: new Set((openings.lists ?? []).map(nameKey)),
  };
}
