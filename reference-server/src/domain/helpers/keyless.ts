/**
 * What a helper call without a key (a stranger: any page on the internet) may do beyond
 * recording its act and filling what is empty (the person's side is in `matching.ts`,
 * the answer's in `outcome.ts`):
 *
 * - apply only the tags and lists the operator opened to such calls, by name (none by
 *   default: `keyless-openings.ts`). A tag that is not open is refused exactly as a tag that does not exist,
 *   so that a page cannot learn which tags exist;
 * - never remove anything: `remove_tags` is refused before anything is written, under
 *   every preset (a stranger who knows Ana's address could otherwise untag her).
 */
import type { JsonObject } from '../../storage/storage.js';
import { ApiError, ErrorCode } from '../errors.js';
import type { HelperContext } from './context.js';
import { nameKey, type OpenableKind } from './keyless-openings.js';

/**
 * Whether the call may apply the tag or list named `name`: any for a keyed call, for a
 * call without a key only one the operator opened.
 */
export function mayApply(context: HelperContext, kind: OpenableKind, name: unknown): boolean {
  if (!context.anonymous) return true;
  return typeof name === 'string' && (context.open?.[kind].has(nameKey(name)) ?? false);
}

/**
 * The `add_tags` a created record's webhook event names: those asked for, or for a call
 * without a key only the open ones (a closed tag is not applied, so not announced).
 */
export function eventTags(
  context: HelperContext,
  asked: readonly string[] | null | undefined,
): readonly string[] | null | undefined {
  if (!context.anonymous || !asked) return asked;
  return asked.filter((name) => mayApply(context, 'tag', name));
}

/** The members of a helper body that remove something from a person (Action Network's). */
const REMOVING_MEMBERS = ['remove_tags'] as const;

/**
 * Refuses a call without a key that would remove anything (401: the member needs a key),
 * before anything is written: the answer is the same whatever the person carries.
 */
export function refuseKeylessRemovals(
  context: HelperContext,
  body: JsonObject,
  resource: string,
): void {
  if (!context.anonymous) return;
  const sent = REMOVING_MEMBERS.filter((member) => body[member] !== undefined);
  if (sent.length === 0) return;
  throw new ApiError(
    401,
    sent.map((member) => ({
      error_code: ErrorCode.UNAUTHORIZED,
      description: `${member} needs an API key: a call without one can only add`,
      properties: [member],
      hint: 'leave it out, or make the call from a server with a key',
    })),
    resource,
  );
}
