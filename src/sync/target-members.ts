/**
 * A copy's members changed to what the target can hold, where it documents that it
 * takes less than the source has: the change made, said in a sentence for the tally.
 */
import type { SyncTargetProfile } from './types.js';

/** The person members whose entries carry a subscription status. */
const WITH_STATUS = [
  ['email_addresses', 'email address'],
  ['phone_numbers', 'phone number'],
] as const;

/** The status a status the target does not take is written as: never a subscription. */
const SAFE_STATUS = 'unsubscribed';

/**
 * Changes a person's body in place to statuses the target takes, and says what was
 * changed (empty when nothing was).
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_TARGET } from './profiles.js';
 * import { adjustPerson } from './target-members.js';
 *
 * const body = { email_addresses: [{ address: 'ana@example.org', status: 'bouncing' }] };
 * adjustPerson(body, ACTION_NETWORK_TARGET);
 * // ['Action Network takes only subscribed and unsubscribed: a bouncing email address is written unsubscribed']
 * ```
 */
export function adjustPerson(body: Record<string, unknown>, profile: SyncTargetProfile): string[] {
  const taken = profile.personStatuses;
  if (taken === undefined) return [];
  const changes: string[] = [];
  for (const [member, what] of WITH_STATUS) {
    const list = body[member];
    if (!Array.isArray(list)) continue;
    body[member] = list.map((entry: unknown) => {
      if (typeof entry !== 'object' || entry === null) return entry;
      const status = (entry as { status?: unknown }).status;
      if (typeof status !== 'string' || taken.includes(status)) return entry;
      changes.push(
        `${profile.name} takes only ${taken.join(' and ')}: a ${status} ${what} is written ${SAFE_STATUS}`,
      );
      return { ...entry, status: SAFE_STATUS };
    });
  }
  return changes;
}
