/**
 * Subscription statuses of the email addresses and phone numbers a helper call writes to
 * a person, where a server documents its own rules for them (Action Network: a new
 * email address is subscribed unless the call says otherwise, a new phone number
 * unsubscribed; a stored status changes only when the call sends `subscribed` or
 * `unsubscribed`). The specification has no such rules: without them (`null`) the sent
 * members are merged as they are.
 */
import type { JsonObject } from '../../storage/storage.js';
import { isPlainObject } from '../merge.js';
import type { MemberKey } from './member-keys.js';

/** A server's rules for the statuses of the members a helper writes to a person. */
export interface SignupStatuses {
  /** Status of an email address new to the person, unless the call sends one of `changeableBy`. */
  emailDefault: string;
  /** Status of a phone number new to the person, unless the call sends one of `changeableBy`. */
  phoneDefault: string;
  /**
   * The statuses a call may set. Any other status sent (`bouncing`, `previous bounce`) is
   * not taken: a stored member keeps its status, a new one gets the default.
   */
  changeableBy: readonly string[];
  /**
   * Whether the first email address and phone number written to a person who has no
   * primary one become primary when the call does not say (Action Network keeps one of
   * each per person, always primary).
   */
  firstIsPrimary: boolean;
}

/** The person's lists that carry a status, and the rule giving a new member's status. */
const STATUS_LISTS = {
  email_addresses: 'emailDefault',
  phone_numbers: 'phoneDefault',
} as const;

/** A sent member with the status the rules give it (`known`: the person has it already). */
function memberWithStatus(
  member: JsonObject,
  known: boolean,
  fallback: string,
  changeableBy: readonly string[],
): JsonObject {
  if (typeof member.status === 'string' && changeableBy.includes(member.status)) return member;
  const { status: _notTaken, ...rest } = member;
  return known ? rest : { ...rest, status: fallback };
}

/**
 * The sent person with the statuses of its email addresses and phone numbers as `rules`
 * give them, against the stored person it is merged into (`undefined`: a new person).
 * A member the stored person has (by `keys`) keeps its stored status unless a status of
 * `changeableBy` is sent; a new member gets the sent status if it is one of those, else
 * the default. With `firstIsPrimary`, the first member sent is made primary when
 * neither the stored nor the sent members have a primary one and the call leaves it unsaid.
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_SIGNUP_STATUSES } from '../../presets/action-network/signup-statuses.js';
 * import { MEMBER_KEYS } from './member-keys.js';
 * import { withSignupStatuses } from './signup-statuses.js';
 *
 * withSignupStatuses({ email_addresses: [{ address: 'ana@example.org' }] }, undefined, ACTION_NETWORK_SIGNUP_STATUSES, MEMBER_KEYS);
 * // { email_addresses: [{ address: 'ana@example.org', status: 'subscribed', primary: true }] }
 * ```
 */
export function withSignupStatuses(
  sent: JsonObject,
  stored: JsonObject | undefined,
  rules: SignupStatuses,
  keys: Readonly<Record<string, MemberKey>>,
): JsonObject {
  const out: JsonObject = { ...sent };
  for (const [list, rule] of Object.entries(STATUS_LISTS)) {
    const members = sent[list];
    const key = keys[list];
    if (!Array.isArray(members) || !key) continue;
    const storedMembers = Array.isArray(stored?.[list]) ? stored[list] : [];
    const known = new Set(storedMembers.filter(isPlainObject).map(key));
    known.delete(undefined);
    const written = members.map((member) =>
      isPlainObject(member)
        ? memberWithStatus(member, known.has(key(member)), rules[rule], rules.changeableBy)
        : member,
    );
    const hasPrimary = [...storedMembers, ...written].some(
      (member) => isPlainObject(member) && member.primary === true,
    );
    const [first] = written;
    if (
      rules.firstIsPrimary &&
      !hasPrimary &&
      isPlainObject(first) &&
      first.primary === undefined
    ) {
      written[0] = { ...first, primary: true };
    }
    out[list] = written;
  }
  return out;
}
